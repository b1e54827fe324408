/* Fuzzes the bonds reader against a simulation of ten particles. */
#include "fuzz_input.h"
#include "grains/io.h"
#include "grains/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grains_params p;
    grains_params_default(&p);
    p.threads = 1;
    p.bond_kn = 1000;
    grains_params_derive(&p);
    grains_sim *sim = NULL;
    grains_error err;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK)
        abort();
    for (int k = 0; k < 10; k++) {
        grains_particle q = {{0.01 * k, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, 0.005, 0, 0};
        grains_sim_add_particle(sim, &q, &err);
    }
    grains_bonds_read(fuzz_file(data, size, ".bonds"), sim, &err);
    grains_sim_destroy(sim);
    return 0;
}
