/* The particles a run starts with, dealt among ranks that hold their own
 * particles alone, through the API (grains/ranks.h): each checked and held
 * by the rank the dealing names (decomp/rank_deal.c keeps the dealing's
 * state and rules). */
#include "decomp/hooks.h"
#include "sim/sim_internal.h"

grains_status grains_sim_deal_range(grains_sim *sim, size_t first, size_t count, size_t whole, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    if (!sim_ranks_local(sim) && first == 0 && count == whole) /* one process (or every rank holding all) */
        return GRAINS_OK;
    if (!sim_ranks_may_deal(&sim->rank_view) || r->range_next < r->range_end || first > whole || count > whole - first)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a range of ids to deal (ids %zu to %zu of %zu) is "
                                "dealt by ranks that hold their own particles alone, before the first step, the "
                                "last range's particles all added", first, first + count, whole);
    sim_ranks_start_dealing(r, sim->pt.n);
    size_t base = r->n_ids;
    grains_status s = particles_reserve(&sim->pt, sim->pt.n + count, err); /* (not grown by half as they come) */
    if (s == GRAINS_OK)
        s = sim_ranks_count_others(&sim->rank_view, whole, err);
    if (s != GRAINS_OK)
        return s;
    r->dealt_to = r->n_ids;
    r->range_next = base + first;
    r->range_end = base + first + count;
    r->ranged = 1;
    sim->need_rebuild = 1;
    return GRAINS_OK;
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
    sim_ranks *r = &sim->ranks;
    if (r->range_next < r->range_end) { /* this rank's range */
        grains_status s = sim_check_particle(sim, p, err);
        return s == GRAINS_OK ? hold(sim, p, r->range_next++, err) : s;
    }
    if (r->ranged && r->dealt) /* one rank's extra particle: the others would not count its id */
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "this rank's range of dealt ids is added whole: "
                                "a particle beyond it is added by every rank, with grains_sim_add_particle");
    if (!sim_ranks_may_deal(&sim->rank_view))
        return grains_sim_add_particle(sim, p, err);
    grains_status s = sim_check_particle(sim, p, err); /* on every rank alike: each stops with the message */
    if (s != GRAINS_OK)
        return s;
    sim_ranks_start_dealing(r, sim->pt.n);
    size_t id = r->n_ids;
    s = sim_ranks_count_others(&sim->rank_view, 1, err);
    if (s == GRAINS_OK && id % (size_t)r->peers.size == (size_t)r->peers.rank)
        s = hold(sim, p, id, err);
    if (s != GRAINS_OK)
        return s;
    r->dealt_to = r->n_ids;
    sim->tagged |= p->tag != 0; /* what every rank writes and sends follows it */
    sim->need_rebuild = 1;
    return GRAINS_OK;
}
