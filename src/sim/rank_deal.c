/* The particles a run starts with, dealt among ranks that hold their own
 * particles alone (grains_ranks.local): each is held by the rank of its id
 * modulo the ranks alone, so that no rank holds every particle at the
 * start. The first step's rebuild moves each to the owner of its block
 * (sim/rank_local.c: mark_copies reads the same rule for the particles
 * added since the last cut). Until then the whole's order is the ids'
 * (one process has not sorted yet): rank 0's copy to write takes each
 * particle at its id (sim/rank_writer.c), and the checkpoint's grid, lists
 * and histories are the unbuilt ones that every rank, and one process,
 * holds alike (sim/rank_state.c, sim/state.c). */
#include "sim/sim_internal.h"

/* Whether the particles added now may be dealt: ranks holding their own
 * alone, before the first step and the first rebuild, and no histories
 * waiting to be set by the ids of particles every rank would have to hold. */
static int may_deal(const grains_sim *sim)
{
    const sim_ranks *r = &sim->ranks;
    return sim_ranks_local(sim) && sim->step == 0 && (!r->holds_share || r->dealt) && !sim->has_pending;
}

int sim_ranks_dealt_own(const grains_sim *sim, uint32_t i)
{
    const sim_ranks *r = &sim->ranks;
    return sim->pt.id[i] % (uint32_t)r->peers.size == (uint32_t)r->peers.rank;
}

grains_status grains_sim_add_dealt(grains_sim *sim, const grains_particle *p, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    if (!may_deal(sim))
        return grains_sim_add_particle(sim, p, err);
    grains_status s = sim_check_particle(sim, p, err); /* on every rank alike: each stops with the message */
    if (s != GRAINS_OK)
        return s;
    if (!r->dealt) { /* those added before stay on every rank, as spawned ones do until a cut */
        r->n_ids = sim->pt.n;
        r->holds_share = 1;
        r->dealt = 1;
    }
    size_t id = r->n_ids;
    if (id % (size_t)r->peers.size == (size_t)r->peers.rank)
        return grains_sim_add_particle(sim, p, err); /* (holding a share, it counts the id) */
    if ((s = particles_reserve_id(&sim->pt, id, err)) != GRAINS_OK)
        return s;
    sim->pt.slot[id] = UINT32_MAX; /* held by another rank */
    r->n_ids++;
    sim->tagged |= p->tag != 0; /* what every rank writes and sends follows it */
    sim->need_rebuild = 1;
    return GRAINS_OK;
}
