/* What a run changes between steps besides its particles and meshes (a
 * scenario's stages, a program): gravity, and which insertion regions add. */
#include <math.h>

#include "sim/sim_internal.h"

grains_status grains_sim_set_gravity(grains_sim *sim, grains_vec3 g, grains_error *err)
{
    grains_params p = sim->p;
    p.g = g;
    grains_status s = grains_params_check(&p, err); /* (finite; a 2D run's in its plane) */
    if (s == GRAINS_OK)
        sim->p.g = g;
    return s;
}

grains_status grains_sim_spawn_open(grains_sim *sim, int k, int open, grains_error *err)
{
    if (k < 0 || k >= grains_params_n_spawns(&sim->p))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "insertion region %d: the run has %d", k,
                                grains_params_n_spawns(&sim->p));
    spawn_state *st = &sim->spawn[k];
    if (st->stop == GRAINS_SPAWN_COUNT_REACHED)
        return GRAINS_OK;
    st->stop = open ? GRAINS_SPAWN_ACTIVE : GRAINS_SPAWN_CLOSED;
    st->stop_step = open ? 0 : sim->step;
    st->idle_steps = 0;
    return GRAINS_OK;
}
