/* Writes the checkpoint corpus's seeds into a folder: seed.grains (a
 * checkpoint of fuzz_checkpoint_scene after 30 steps) and seed.state (its
 * state stream alone, for the harness's second reading). Made at test time:
 * a committed checkpoint would name an old program version. */
#include <stdio.h>
#include <stdlib.h>

#include "grains/checkpoint.h"
#include "sim/state.h"

grains_sim *fuzz_checkpoint_scene(void);

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    char path[4096];
    grains_error err;
    grains_sim *sim = fuzz_checkpoint_scene();
    if (grains_sim_advance(sim, 30, &err) != GRAINS_OK)
        return fprintf(stderr, "%s\n", err.message), 1;
    snprintf(path, sizeof path, "%s/seed.grains", argv[1]);
    if (grains_checkpoint_write(path, sim, "seed", 4, &err) != GRAINS_OK)
        return fprintf(stderr, "%s\n", err.message), 1;
    snprintf(path, sizeof path, "%s/seed.state", argv[1]);
    FILE *f = fopen(path, "wb");
    bytes_out o;
    bytes_out_init(&o, f);
    if (!f || sim_write_state(sim, &o, &err) != GRAINS_OK || fclose(f) != 0)
        return 1;
    grains_sim_destroy(sim);
    return 0;
}
