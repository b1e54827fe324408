/* Fuzzes the checkpoint reader: the file's header and CRC, then the state
 * read into a simulation of the scene that wrote the seed corpus
 * (make_checkpoint_seed in this file's replay build writes it). Inputs
 * whose CRC fails stop at read_app; to reach the state's own checks the
 * harness also reads the state without the CRC check first. */
#include "fuzz_input.h"
#include "grains/checkpoint.h"
#include "grains/sim.h"
#include "util/bytes.h"
#include "sim/state.h"

/* The scene of the seed: a floor and 20 falling grains, 30 steps. */
grains_sim *fuzz_checkpoint_scene(void);
grains_sim *fuzz_checkpoint_scene(void)
{
    grains_params p;
    grains_params_default(&p);
    p.threads = 1;
    p.N_max = 0;
    grains_params_derive(&p);
    grains_sim *sim = NULL;
    grains_error err;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK)
        abort();
    for (int k = 0; k < 20; k++) {
        grains_particle q = {{0.009 * (k % 5), 0.009 * (k / 5), 0.2}, {0, 0, -1}, {0, 0, 0}, {1, 0, 0, 0}, 0.004, 0, 0};
        grains_sim_add_particle(sim, &q, &err);
    }
    return sim;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".grains");
    grains_error err;
    void *app = NULL;
    size_t n = 0;
    grains_sim *sim = fuzz_checkpoint_scene();
    if (grains_checkpoint_read_app(path, &app, &n, &err) == GRAINS_OK)
        grains_checkpoint_read_sim(path, sim, &err);
    free(app);
    grains_sim_destroy(sim);
    /* the state's own checks, past the CRC: the bytes as a state stream */
    FILE *f = fmemopen((void *)data, size ? size : 1, "rb");
    if (f) {
        bytes_in in;
        bytes_in_init(&in, f, size);
        sim = fuzz_checkpoint_scene();
        if (sim_read_state(sim, &in, &err) == GRAINS_OK) /* a state that reads must step */
            grains_sim_advance(sim, 3, &err);
        grains_sim_destroy(sim);
        fclose(f);
    }
    return 0;
}
