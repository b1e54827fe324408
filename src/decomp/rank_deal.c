/* The particles a run starts with, dealt among ranks that hold their own
 * particles alone (grains_ranks.local): each is held by one rank alone,
 * that of its id modulo the ranks (grains_sim_add_dealt, every rank given
 * every particle) or that of its range of ids (grains_sim_deal_range, each
 * rank given its own, as it reads its part of a file), so that no rank
 * holds every particle at the start. The API's two are the core's
 * (sim/deal.c); the dealing's state and its rules are here. The first step's rebuild moves each
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
int sim_ranks_may_deal(const rank_sim *sim)
{
    const sim_ranks *r = sim->ranks;
    return rank_local(sim) && *sim->step == 0 && (!r->holds_share || (r->dealt && r->dealt_to == r->n_ids)) &&
           !*sim->has_pending;
}

int sim_ranks_added_own(const rank_sim *sim, uint32_t i)
{
    const sim_ranks *r = sim->ranks;
    uint32_t id = sim->pt->id[i];
    return (id >= r->dealt_from && id < r->dealt_to) || id % (uint32_t)r->peers.size == (uint32_t)r->peers.rank;
}

/* From here the ranks deal: those added before stay on every rank, as
 * spawned ones do until a cut. */
void sim_ranks_start_dealing(sim_ranks *r, size_t held)
{
    if (r->dealt)
        return;
    r->n_ids = r->dealt_from = r->dealt_to = held;
    r->holds_share = 1;
    r->dealt = 1;
}

grains_status sim_ranks_open_range(const rank_sim *sim, size_t first, size_t count, size_t whole, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    if (!sim_ranks_may_deal(sim) || r->range_next < r->range_end || first > whole || count > whole - first)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a range of ids to deal (ids %zu to %zu of %zu) is "
                                "dealt by ranks that hold their own particles alone, before the first step, the "
                                "last range's particles all added", first, first + count, whole);
    sim_ranks_start_dealing(r, sim->pt->n);
    size_t base = r->n_ids;
    grains_status s = particles_reserve(sim->pt, sim->pt->n + count, err); /* (not grown by half as they come) */
    if (s == GRAINS_OK)
        s = sim_ranks_count_others(sim, whole, err);
    if (s != GRAINS_OK)
        return s;
    r->dealt_to = r->n_ids;
    r->range_next = base + first;
    r->range_end = base + first + count;
    r->ranged = 1;
    *sim->need_rebuild = 1;
    return GRAINS_OK;
}

int sim_ranks_range_id(const rank_sim *sim, size_t *id)
{
    const sim_ranks *r = sim->ranks;
    *id = r->range_next;
    return r->range_next < r->range_end ? 1 : r->ranged && r->dealt ? -1 : 0;
}

void sim_ranks_range_taken(const rank_sim *sim) { sim->ranks->range_next++; }

grains_status sim_ranks_deal_one(const rank_sim *sim, size_t *id, int *mine, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    sim_ranks_start_dealing(r, sim->pt->n);
    *id = r->n_ids;
    *mine = *id % (size_t)r->peers.size == (size_t)r->peers.rank;
    return sim_ranks_count_others(sim, 1, err);
}

void sim_ranks_dealt_all(const rank_sim *sim) { sim->ranks->dealt_to = sim->ranks->n_ids; }

/* Ids from n_ids on counted, and held by other ranks. */
grains_status sim_ranks_count_others(const rank_sim *sim, size_t n, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    grains_status s = n ? particles_reserve_id(sim->pt, r->n_ids + n - 1, err) : GRAINS_OK;
    for (size_t k = 0; s == GRAINS_OK && k < n; k++)
        sim->pt->slot[r->n_ids + k] = UINT32_MAX;
    if (s == GRAINS_OK)
        r->n_ids += n;
    return s;
}

void sim_ranks_dealt_tags(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    if (!r->dealt)
        return;
    uint64_t tagged = (uint64_t)*sim->tagged;
    r->peers.max(r->peers.ctx, &tagged, 1);
    *sim->tagged = tagged != 0;
}
