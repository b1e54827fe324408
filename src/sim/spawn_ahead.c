/* The first spawned grains placed before the first step (grains/sim.h):
 * the core's part of insertion, the lists built for the regions to search
 * and again for what they added (insert/spawn.c places them). */
#include "sim/sim_internal.h"

grains_status grains_sim_spawn_ahead(grains_sim *sim, grains_error *err)
{
    size_t added = 0;
    grains_status s = sim->stopped        ? sim_refuse_stopped(sim, err)
                      : sim->need_rebuild ? sim_rebuild(sim, err) /* the grid spawning searches */
                                          : GRAINS_OK;
    if (s == GRAINS_OK)
        s = sim_spawn(sim, &added, err);
    if (s == GRAINS_OK && added)
        s = sim_rebuild(sim, err);
    if (s == GRAINS_OK)
        sim->spawned_ahead = sim->step;
    return s;
}
