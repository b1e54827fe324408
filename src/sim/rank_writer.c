/* Rank 0's copy of every particle, to write, when the ranks hold their own
 * particles alone (grains_ranks.local; sim/rank_local.c). Every rank sends
 * its own particles with their places in the whole's order: the particles
 * of the blocks before theirs in the merged table, plus their places in
 * their blocks, which their owner holds whole. Rank 0 lays them out as one
 * process stores them, so that the thermo's sums and the frames (by id)
 * read the single process's values in its order; and every bond
 * (sim/rank_bonds.c). Collective; the copy holds until the next step or
 * rebuild. */
#include <stdlib.h>
#include <string.h>

#include "sim/particle_record.h"
#include "sim/sim_internal.h"
#include "util/array.h"

/* A particle as it travels to the writer: its place, then its record
 * (sim/particle_record.h). */
static size_t record_bytes(const grains_particles *pt) { return sizeof(uint32_t) + particle_record_bytes(pt); }

static void writer_failed(const grains_sim *sim)
{
    const grains_ranks *pr = &sim->ranks.peers;
    if (pr->fail)
        pr->fail(pr->ctx, "out of memory gathering the particles to write: stopping them all");
    abort();
}

/* Our own particles, each with its place in the whole's order, into the
 * send buffer; their bytes. */
static size_t put_own(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    const grains_grid *g = &sim->grid;
    const grains_particles *pt = &sim->pt;
    const uint64_t *first = r->table_first;
    size_t own = 0, record = record_bytes(pt);
    for (size_t i = 0; i < pt->n; i++)
        own += r->mine[i];
    if (!array_reserve((void **)&r->send, &r->send_cap, own * record + 1, 1, 4))
        writer_failed(sim);
    char *at = r->send;
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        if (r->owner[b] != r->peers.rank)
            continue;
        uint32_t i0 = g->first[g->block_start[b]], i1 = g->first[g->block_start[b + 1]];
        uint64_t base = first[block_table_find(&r->table, grid_block_key(g, b))];
        for (uint32_t i = i0; i < i1; i++) {
            uint32_t place = (uint32_t)(base + (i - i0));
            memcpy(at, &place, sizeof place);
            at = particle_record_put(at + sizeof place, pt, i);
        }
    }
    return (size_t)(at - r->send);
}

/* Before the first rebuild of dealt particles (sim/rank_deal.c), whose
 * whole's order is the ids': each particle at its id, sent by its owner. */
static size_t put_dealt(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    const grains_particles *pt = &sim->pt;
    size_t own = 0, record = record_bytes(pt);
    for (uint32_t i = 0; i < pt->n; i++)
        own += (size_t)sim_ranks_added_own(sim, i);
    if (!array_reserve((void **)&r->send, &r->send_cap, own * record + 1, 1, 4))
        writer_failed(sim);
    char *at = r->send;
    for (uint32_t i = 0; i < pt->n; i++)
        if (sim_ranks_added_own(sim, i)) {
            memcpy(at, &pt->id[i], sizeof pt->id[i]);
            at = particle_record_put(at + sizeof pt->id[i], pt, i);
        }
    return (size_t)(at - r->send);
}

/* Every rank's records at their places in rank 0's copy. */
static void take_all(grains_sim *sim, const char *all, size_t bytes)
{
    grains_particles *w = &sim->ranks.whole;
    grains_error err;
    w->n = 0;
    if (particles_reserve(w, sim->ranks.n_ids, &err) != GRAINS_OK ||
        particles_reserve_ids(w, sim->ranks.n_ids, &err) != GRAINS_OK)
        writer_failed(sim);
    w->n = sim->ranks.n_ids;
    for (const char *at = all, *end = all + bytes; at < end;) {
        uint32_t place;
        memcpy(&place, at, sizeof place);
        at = particle_record_take(at + sizeof place, w, place);
        w->slot[w->id[place]] = place;
    }
}

void sim_ranks_local_gather(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    if (!sim_ranks_local(sim) || !r->holds_share || r->writer_whole)
        return;
    sim_ranks_dealt_tags(sim);
    size_t P = (size_t)r->peers.size, bytes = r->dealt ? put_dealt(sim) : put_own(sim), total = 0;
    memset(r->send_counts, 0, P * sizeof *r->send_counts);
    r->send_counts[0] = bytes; /* to rank 0 alone (its own to itself) */
    r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
    for (size_t q = 0; q < P; q++)
        total += r->counts[q];
    if (r->peers.rank == 0)
        take_all(sim, r->recv, total);
    sim_ranks_gather_bonds(sim); /* (with their index over the whole's order, its slots) */
    /* every own particle sent, and every particle received: kept, they
     * would stay with the rank until the next such gather (at 10^5 on 2
     * ranks 7.8 MB on each and 12.5 MB more on rank 0) */
    sim_ranks_drop_exchange(r, 1, r->peers.rank == 0);
    r->writer_whole = 1;
}
