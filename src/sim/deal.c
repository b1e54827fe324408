/* The particles a run starts with, dealt among ranks that hold their own
 * particles alone, through the API (grains/ranks.h): each checked and held
 * by the rank the dealing names (decomp/rank_deal.c keeps the dealing's
 * state and rules). */
#include "decomp/hooks.h"
#include "sim/sim_internal.h"

grains_status grains_sim_deal_range(grains_sim *sim, size_t first, size_t count, size_t whole, grains_error *err)
{
    if (!sim_ranks_local(sim) && first == 0 && count == whole) /* one process (or every rank holding all) */
        return GRAINS_OK;
    return sim_ranks_open_range(&sim->rank_view, first, count, whole, err);
}

/* Particle p as id `id`, held by this rank. */
static grains_status hold(grains_sim *sim, const grains_particle *p, size_t id, grains_error *err)
{
    grains_status s = particles_reserve(&sim->pt, sim->pt.n + 1, err);
    if (s != GRAINS_OK)
        return s;
    size_t i = sim->pt.n++;
    sim->pt.id[i] = (uint32_t)id;
    sim->pt.slot[id] = (uint32_t)i;
    grains_sim_set_particle(sim, id, p);
    sim->pt.R[i] *= sim_grow_scale(&sim->p, sim_time(sim)); /* growing: at the scale of now */
    sim->pt.f[i] = sim->pt.t[i] = v3(0, 0, 0);
    return GRAINS_OK;
}

grains_status grains_sim_add_dealt(grains_sim *sim, const grains_particle *p, grains_error *err)
{
    size_t id;
    int ranged = sim_ranks_range_id(&sim->rank_view, &id);
    if (ranged > 0) { /* this rank's range */
        grains_status s = sim_check_particle(sim, p, err);
        if (s == GRAINS_OK)
            sim_ranks_range_taken(&sim->rank_view);
        return s == GRAINS_OK ? hold(sim, p, id, err) : s;
    }
    if (ranged < 0) /* one rank's extra particle: the others would not count its id */
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "this rank's range of dealt ids is added whole: "
                                "a particle beyond it is added by every rank, with grains_sim_add_particle");
    if (!sim_ranks_may_deal(&sim->rank_view))
        return grains_sim_add_particle(sim, p, err);
    grains_status s = sim_check_particle(sim, p, err); /* on every rank alike: each stops with the message */
    if (s != GRAINS_OK)
        return s;
    int mine;
    s = sim_ranks_deal_one(&sim->rank_view, &id, &mine, err);
    if (s == GRAINS_OK && mine)
        s = hold(sim, p, id, err);
    if (s != GRAINS_OK)
        return s;
    sim_ranks_dealt_all(&sim->rank_view);
    sim->tagged |= p->tag != 0; /* what every rank writes and sends follows it */
    sim->need_rebuild = 1;
    return GRAINS_OK;
}
