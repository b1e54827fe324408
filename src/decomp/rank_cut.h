/* Recursive coordinate bisection of cell blocks among ranks (decomp/ranks.c):
 * the blocks as points at the centres of their regions, weighted by their
 * work, split along the widest axis where the work divides as the ranks
 * do. The points come from a block's level and coordinates alone (its key,
 * neighbor/grid.h), so any rank cuts them alike from its own grid of the
 * same frame, whichever particles it binned. */
#ifndef GRAINS_DECOMP_RANK_CUT_H
#define GRAINS_DECOMP_RANK_CUT_H

#include <stddef.h>
#include <stdint.h>

#include "neighbor/grid.h"

/* A block where it lies: the centre of its region, its work and its
 * index (in the caller's list of blocks). */
typedef struct {
    real c[3]; /* [L] */
    uint64_t w;
    uint32_t b;
} block_point;

/* A plane of the bisection: blocks with c[axis] < at go to the left ranks. */
typedef struct {
    int axis;
    real at;
} cut_plane;

/* The point of the block with key `key` (grid_block_key) in grid g's frame. */
block_point rank_cut_point(const grains_grid *g, uint64_t key, uint64_t work, uint32_t b);

/* The points p[0, n) to ranks [0, size): owner[p[k].b] for each, and the
 * planes (size - 1 of them, in preorder). Reorders p. */
void rank_cut_bisect(block_point *p, size_t n, int size, int *owner, cut_plane *planes);

/* The rank the recorded planes give a point. */
int rank_cut_by_planes(const cut_plane *planes, block_point pt, int size);

#endif
