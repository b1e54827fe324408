/* Newcomers: the grains an insertion region added since the last rebuild,
 * held after the binned ones (slots [grid.n_particles, n)) and listed
 * nowhere, which wait for the next rebuild while nothing can reach them,
 * instead of a rebuild for each (docs/architecture.md, "The rebuild";
 * docs/internals.md, "Spawning"). A newcomer has no contact: each step, before the forces, the
 * lists are stale when one comes within the reach beyond touching (the
 * lists' pad less the skin: an attraction's, a holding contact's) of a
 * grain or a mesh element, and a rebuild lists it. The binned grains it
 * could reach lie in the cells around it (sim_spawn_near): one binned
 * farther lay beyond R + R_top + pad of it at the rebuild and has moved by
 * at most D <= skin / 2 since (the lists' own bound, tested first), so its
 * gap is above pad - skin / 2. Each rank holds the grains those cells hold
 * (insert/spawn_reach.c) and moves every newcomer alike: every rank finds
 * the same. */
#include "sim/sim_internal.h"

int sim_newcomers_may_wait(const grains_sim *sim)
{
    return sim->n_rebuilds > 0 && sim->grid.n_particles > 0 && !sim->need_rebuild && !sim->stopped &&
           sim->integrator->update != LOOP_NONE && !sim->strays.n && !sim->has_pending &&
           sim->nb.n_particles == sim->grid.n_particles && sim->pt.n < sim->grid.n_particles + NEWCOMERS_MAX;
}

int sim_newcomers_near(const grains_sim *sim, real elements)
{
    if (sim->pt.n <= sim->grid.n_particles)
        return 0;
    const insert_view v = sim_insert_reach(sim);
    real reach = sim->grid.pad - sim->p.skin;
    for (size_t i = sim->grid.n_particles; i < sim->pt.n; i++)
        if (sim_spawn_near(&v, i, reach, elements))
            return 1;
    return 0;
}

int sim_newcomers_run(const grains_sim *sim, slot_run *run)
{
    *run = (slot_run){(uint32_t)sim->grid.n_particles, (uint32_t)sim->pt.n};
    return sim_shared(sim) && !sim->need_rebuild && sim->pt.n > sim->grid.n_particles;
}
