/* Rank 0's copy of every particle, to write, when the ranks hold their own
 * particles alone (grains_ranks.local; decomp/rank_local.c). Every rank sends
 * its own particles with their places in the whole's order: the particles
 * of the blocks before theirs in the merged table, plus their places in
 * their blocks, which their owner holds whole (before the first rebuild of
 * dealt particles, whose whole's order is the ids', their ids). Rank 0
 * lays them out as one process stores them, so that the checkpoint and
 * the start's checks read the single process's values in its order; and
 * every bond (decomp/rank_bonds.c). They come a window of ids at a time
 * (decomp/rank_window.c), so that rank 0 holds the copy and a window's
 * records, not the copy and every record. Collective; the copy holds until
 * the next step or rebuild. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "particles/particle_record.h"
#include "decomp/decomp.h"
#include "util/array.h"

/* A particle as it travels to the writer: its place, then its record
 * (particles/particle_record.h). */
static size_t record_bytes(const grains_particles *pt) { return sizeof(uint32_t) + particle_record_bytes(pt); }

static void writer_failed(const rank_sim *sim)
{
    sim_ranks_stop(sim, "out of memory gathering the particles to write: stopping them all");
}

/* Each own particle's place in the whole's order (per held particle; the
 * others' unset): its id while dealt, else its block's first place in the
 * merged table plus its place in the block. */
uint32_t *sim_ranks_own_places(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const grains_grid *g = sim->grid;
    const grains_particles *pt = sim->pt;
    uint32_t *place = malloc((pt->n + 1) * sizeof *place);
    if (!place)
        writer_failed(sim);
    if (r->dealt) {
        memcpy(place, pt->id, pt->n * sizeof *place);
        return place;
    }
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        if (r->owner[b] != r->peers.rank)
            continue;
        uint32_t i0 = g->first[g->block_start[b]], i1 = g->first[g->block_start[b + 1]];
        uint64_t base = r->table_first[block_table_find(&r->table, grid_block_key(g, b))];
        for (uint32_t i = i0; i < i1; i++)
            place[i] = (uint32_t)(base + (i - i0));
    }
    for (uint32_t i = (uint32_t)g->n_particles; i < pt->n; i++) /* added since the cut (newcomers): */
        place[i] = (uint32_t)(r->n_ids - pt->n + i);            /* the last of the whole, in the ids' order */
    return place;
}

/* Our own particles of window w, each with its place, into the send
 * buffer; their bytes. */
static size_t put_window(const rank_sim *sim, size_t w, const uint32_t *place)
{
    sim_ranks *r = sim->ranks;
    const grains_particles *pt = sim->pt;
    const uint32_t *own;
    size_t n = sim_ranks_window_own(sim, w, &own);
    if (!array_reserve((void **)&r->send, &r->send_cap, n * record_bytes(pt) + 1, 1, 4))
        writer_failed(sim);
    char *at = r->send;
    for (size_t k = 0; k < n; k++) {
        memcpy(at, &place[own[k]], sizeof *place);
        at = particle_record_put(at + sizeof *place, pt, own[k]);
    }
    return (size_t)(at - r->send);
}

/* Every rank's records of a window at their places in rank 0's copy;
 * how many. */
static size_t take_window(const rank_sim *sim, const char *all, size_t bytes)
{
    grains_particles *w = &sim->ranks->whole;
    size_t n = 0;
    for (const char *at = all, *end = all + bytes; at < end; n++) {
        uint32_t place;
        memcpy(&place, at, sizeof place);
        if (place >= w->n)
            return SIZE_MAX;
        at = particle_record_take(at + sizeof place, w, place);
        if (w->id[place] >= w->n)
            return SIZE_MAX;
        w->slot[w->id[place]] = place;
    }
    return n;
}

/* The ranks disagree on what they own (a bug, not an input): all stop,
 * rather than write a copy with holes. */
static void gather_damaged(const rank_sim *sim)
{
    sim_ranks_stop(sim, "the ranks sent rank 0 particles to write out of place or not all: stopping them all");
}

/* Rank 0's copy, with room for every particle. */
static void reserve_whole(const rank_sim *sim)
{
    grains_particles *w = &sim->ranks->whole;
    grains_error err;
    w->n = 0;
    if (particles_reserve(w, sim->ranks->n_ids, &err) != GRAINS_OK ||
        particles_reserve_ids(w, sim->ranks->n_ids, &err) != GRAINS_OK)
        writer_failed(sim);
    w->n = sim->ranks->n_ids;
}

void sim_ranks_local_gather(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    if (!rank_local(sim) || !r->holds_share || r->writer_whole)
        return;
    sim_ranks_dealt_tags(sim);
    if (r->peers.rank == 0)
        reserve_whole(sim);
    uint32_t *place = sim_ranks_own_places(sim);
    size_t W = sim_ranks_frame_window(sim), taken = 0;
    for (size_t w = 0; w * W < r->n_ids; w++) {
        size_t total;
        const char *all = sim_ranks_to_writer(sim, put_window(sim, w, place), &total);
        size_t n = r->peers.rank == 0 ? take_window(sim, all, total) : 0;
        taken = n == SIZE_MAX || taken == SIZE_MAX ? SIZE_MAX : taken + n;
    }
    free(place);
    if (r->peers.rank == 0 && taken != r->n_ids)
        gather_damaged(sim);
    sim_ranks_gather_bonds(sim, r->whole.slot, r->whole.n); /* (their index over the whole's order) */
    /* a window's records sent and received: kept, they would stay with the
     * rank until the next exchange */
    sim_ranks_drop_exchange(r, 1, 1);
    r->writer_whole = 1;
}

grains_status sim_ranks_gather_writer(const rank_sim *sim, grains_error *err)
{
    if (rank_local(sim) && sim->ranks->holds_share) {
        sim_ranks_writer_sums(sim);
        sim_ranks_local_gather(sim);
        return GRAINS_OK;
    }
    return sim_ranks_exchange_contacts(sim, err);
}

void sim_ranks_gather_thermo(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    if (!rank_local(sim) || !r->holds_share || r->writer_whole) {
        sim_ranks_gather_particles(sim);
        return;
    }
    sim_ranks_writer_sums(sim);
    sim_ranks_dealt_tags(sim); /* (the frames' columns) */
    sim_ranks_window_thermo(sim);
}

void sim_ranks_gather_particles(const rank_sim *sim)
{
    if (rank_local(sim)) {
        sim_ranks_writer_sums(sim);
        sim_ranks_local_gather(sim);
    } else if (rank_shared(sim) && sim->ranks->valid) {
        sim_ranks_particles_to_writer(sim);
        sim_ranks_writer_sums(sim);
    }
}
