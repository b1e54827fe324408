/* A rebuild's move of the particles among ranks, without any rank holding
 * them all (decomp/ranks.c): each rank has binned its own particles in a grid
 * of the whole's frame, and every rank holds the merged table of the
 * whole's blocks with each block's new owner (decomp/block_table.h,
 * decomp/rank_cut.h). Each particle goes whole to the owner of its block, and
 * as a copy to the owners of the blocks that may hold a partner of it in a
 * listed pair (grid_pair_blocks): each rank then holds its own particles
 * and every partner of them, and, binned with the copies counted out
 * (grid_particles.n_copies), stores them in the whole's relative order. */
#ifndef GRAINS_DECOMP_RANK_MOVE_H
#define GRAINS_DECOMP_RANK_MOVE_H

#include "grains/ranks.h"
#include "neighbor/grid.h"
#include "particles/particles.h"
#include "decomp/block_table.h"

/* The particles held after the move: `own` of them, then the copies. */
typedef struct {
    grains_particles pt; /* every field but slot, and f and t with_sums alone; n = own + copies */
    size_t own;
    void *send, *recv;   /* the exchange's buffers, kept for the next */
    size_t send_cap, recv_cap;
} rank_held;

/* Who holds a particle beyond the ranks that may pair it: every rank,
 * where everywhere[i] is set (NULL: none; the insertion regions' reach);
 * rank r, for each (r << 32 | i) in to[0 .. n_to) (the new owner of an own
 * particle's bonded partner). */
typedef struct {
    const uint8_t *everywhere;
    const uint64_t *to;
    size_t n_to;
} rank_also;

/* Moves the particles of `from` (n = g->n_particles, in g's order: this
 * rank's own, and copies of others' where copy[i] is set, which stay; copy
 * NULL: none) to the ranks that must hold them: the owner of each block of
 * the table t is owner[k] for its entry k; and those `also` names (NULL:
 * none); with_sums, their force sums f and t too (else not: a rebuild
 * zeroes them). Fills `to` (any earlier contents replaced). Collective
 * (ranks->alltoall); an error (memory) on this rank alone. */
grains_status rank_move(const grains_particles *from, const uint8_t *copy, const rank_also *also,
                        const grains_grid *g, const block_table *t, const int *owner, const grains_ranks *ranks,
                        int with_sums, rank_held *to, grains_error *err);

void rank_held_free(rank_held *h);

#endif
