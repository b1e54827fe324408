/* Insertion, the core's part (insert/spawn.c places the grains): the view
 * insertion sees, a step's attempts, the first spawned grains placed before
 * the first step (the lists built for the regions to search and again for
 * what they added), and the regions' places and reports through the API
 * (grains/sim.h). */
#include "sim/sim_internal.h"

/* The core's door for a grain that fits (as the caller's own), which waits
 * for the next rebuild as a newcomer where it may. */
static grains_status add(void *core, const grains_particle *p, grains_error *err)
{
    grains_sim *sim = core;
    int waits = sim_newcomers_may_wait(sim);
    grains_status s = grains_sim_add_particle(sim, p, err);
    if (s == GRAINS_OK && waits)
        sim->need_rebuild = 0;
    return s;
}

insert_view sim_insert_of(grains_sim *sim)
{
    insert_view v = sim_insert_reach(sim);
    v.add = add;
    v.core = sim;
    v.stop_asked = sim->stop_asked;
    v.stop_ctx = sim->stop_ctx;
    return v;
}

int sim_spawn_reads(const grains_sim *sim, uint8_t *mark)
{
    const insert_view v = sim_insert_reach(sim);
    int active = sim_spawn_active(&v);
    if (active && mark)
        sim_spawn_mark_reach(&v, mark);
    return active;
}

grains_status sim_spawn_step(grains_sim *sim, size_t *added, grains_error *err)
{
    insert_view v = sim_insert_of(sim);
    grains_status s = sim_spawn(&v, added, err);
    if (s == GRAINS_ERR_STOPPED)
        sim->stopped = SIM_STOPPED_ASKED; /* part-way, for good */
    return s;
}

grains_status grains_sim_spawn_ahead(grains_sim *sim, grains_error *err)
{
    size_t added = 0;
    grains_status s = sim->stopped        ? sim_refuse_stopped(sim, err)
                      : sim->need_rebuild ? sim_rebuild(sim, err) /* the grid spawning searches */
                                          : GRAINS_OK;
    if (s == GRAINS_OK)
        s = sim_spawn_step(sim, &added, err);
    if (s == GRAINS_OK && added)
        s = sim_rebuild(sim, err);
    if (s == GRAINS_OK)
        sim->spawned_ahead = sim->step;
    return s;
}

size_t grains_sim_spawn_places(const grains_sim *sim, int k, int n_side, double *R_tried)
{
    const insert_view v = sim_insert_reach(sim);
    return sim_spawn_places(&v, k, n_side, R_tried);
}

grains_spawn_report grains_sim_spawn_report(const grains_sim *sim, int k)
{
    const insert_view v = sim_insert_reach(sim);
    return sim_spawn_report(&v, k);
}
