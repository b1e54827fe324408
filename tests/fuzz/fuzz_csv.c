/* Fuzzes the particle CSV reader, and what the run does with its rows:
 * adding them to a simulation and the start check. */
#include "fuzz_input.h"
#include "grains/io.h"
#include "grains/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grains_particle *p = NULL;
    size_t n = 0;
    grains_error err;
    if (grains_csv_read(fuzz_file(data, size, ".csv"), &p, &n, &err) == GRAINS_OK && n <= 1000) {
        grains_params params;
        grains_params_default(&params);
        params.threads = 1;
        grains_params_derive(&params);
        grains_sim *sim = NULL;
        if (grains_sim_create(&sim, &params, &err) == GRAINS_OK) {
            int ok = 1;
            for (size_t i = 0; i < n && ok; i++)
                ok = grains_sim_add_particle(sim, &p[i], &err) == GRAINS_OK;
            if (ok)
                grains_sim_check_start(sim, &err);
            grains_sim_destroy(sim);
        }
    }
    free(p);
    return 0;
}
