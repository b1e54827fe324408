/* The particles a run starts with, dealt among ranks that hold their own
 * particles alone (grains_ranks.local): each is held by one rank alone,
 * that of its id modulo the ranks (grains_sim_add_dealt, every rank given
 * every particle) or that of its range of ids (grains_sim_deal_range, each
 * rank given its own, as it reads its part of a file), so that no rank
 * holds every particle at the start. The first step's rebuild moves each
 * to the owner of its block (decomp/rank_local.c, mark_copies). Until then
 * the whole's order is the ids' (one process has not sorted yet): rank 0's
 * copy to write takes each particle at its id (decomp/rank_writer.c), and the
 * checkpoint's grid, lists and histories are the unbuilt ones that every
 * rank, and one process, holds alike (decomp/rank_stream.c, sim/state.c). */
#include "decomp/decomp.h"

/* Whether the particles added now may be dealt: ranks holding their own
 * alone, before the first step and the first rebuild, the ids dealt so far
 * the last ones (none added by every rank since), and no histories waiting
 * to be set by the ids of particles every rank would have to hold. */
static int may_deal(const grains_sim *sim)
{
    const sim_ranks *r = &sim->ranks;
    return sim_ranks_local(sim) && sim->step == 0 && (!r->holds_share || (r->dealt && r->dealt_to == r->n_ids)) &&
           !sim->has_pending;
}

int sim_ranks_added_own(const grains_sim *sim, uint32_t i)
{
    const sim_ranks *r = &sim->ranks;
    uint32_t id = sim->pt.id[i];
    return (id >= r->dealt_from && id < r->dealt_to) || id % (uint32_t)r->peers.size == (uint32_t)r->peers.rank;
}

/* From here the ranks deal: those added before stay on every rank, as
 * spawned ones do until a cut. */
static void start_dealing(sim_ranks *r, size_t held)
{
    if (r->dealt)
        return;
    r->n_ids = r->dealt_from = r->dealt_to = held;
    r->holds_share = 1;
    r->dealt = 1;
}

/* Ids from n_ids on counted, and held by other ranks. */
static grains_status count_others(grains_sim *sim, size_t n, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    grains_status s = n ? particles_reserve_id(&sim->pt, r->n_ids + n - 1, err) : GRAINS_OK;
    for (size_t k = 0; s == GRAINS_OK && k < n; k++)
        sim->pt.slot[r->n_ids + k] = UINT32_MAX;
    if (s == GRAINS_OK)
        r->n_ids += n;
    return s;
}

grains_status grains_sim_deal_range(grains_sim *sim, size_t first, size_t count, size_t whole, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    if (!sim_ranks_local(sim) && first == 0 && count == whole) /* one process (or every rank holding all) */
        return GRAINS_OK;
    if (!may_deal(sim) || r->range_next < r->range_end || first > whole || count > whole - first)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a range of ids to deal (ids %zu to %zu of %zu) is "
                                "dealt by ranks that hold their own particles alone, before the first step, the "
                                "last range's particles all added", first, first + count, whole);
    start_dealing(r, sim->pt.n);
    size_t base = r->n_ids;
    grains_status s = particles_reserve(&sim->pt, sim->pt.n + count, err); /* (not grown by half as they come) */
    if (s == GRAINS_OK)
        s = count_others(sim, whole, err);
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
    sim->pt.R[i] *= sim_grow_scale(&sim->p, grains_sim_time(sim)); /* growing: at the scale of now */
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
    if (!may_deal(sim))
        return grains_sim_add_particle(sim, p, err);
    grains_status s = sim_check_particle(sim, p, err); /* on every rank alike: each stops with the message */
    if (s != GRAINS_OK)
        return s;
    start_dealing(r, sim->pt.n);
    size_t id = r->n_ids;
    s = count_others(sim, 1, err);
    if (s == GRAINS_OK && id % (size_t)r->peers.size == (size_t)r->peers.rank)
        s = hold(sim, p, id, err);
    if (s != GRAINS_OK)
        return s;
    r->dealt_to = r->n_ids;
    sim->tagged |= p->tag != 0; /* what every rank writes and sends follows it */
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

void sim_ranks_dealt_tags(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    if (!r->dealt)
        return;
    uint64_t tagged = (uint64_t)sim->tagged;
    r->peers.max(r->peers.ctx, &tagged, 1);
    sim->tagged = tagged != 0;
}
