/* A thread's share of each colour phase's cell blocks, the same region in
 * every phase: the force loop walks a block's particles and the update
 * moves them on one thread, so the particles' state stays in that thread's
 * cache instead of passing between cores from loop to loop. */
#ifndef GRAINS_NEIGHBOR_BLOCK_SHARE_H
#define GRAINS_NEIGHBOR_BLOCK_SHARE_H

#include <stdint.h>

#include "neighbor/grid.h"

/* The blocks [*lo, *hi) of colour phase `phase` that thread t of a team of
 * n_threads takes, from `work` (per block and one more: the work of the
 * blocks before it): the phase's blocks cut where their work reaches
 * t / n_threads and (t + 1) / n_threads of the phase's. The threads' shares
 * cover the phase once; which thread takes a block changes no result (the
 * blocks of one phase touch no common particle). */
void block_share(const grains_grid *g, const uint64_t *work, int phase, int t, int n_threads, uint32_t *lo,
                 uint32_t *hi);

/* A thread's cursor into its region's blocks, BLOCK_NEXT_STRIDE entries
 * (a cache line) from the next thread's. */
#define BLOCK_NEXT_STRIDE 16

/* The particles [*lo, *hi) of blocks [b_lo, b_hi): one range, blocks being
 * numbered in the particles' order. */
void block_particles(const grains_grid *g, uint32_t b_lo, uint32_t b_hi, uint32_t *lo, uint32_t *hi);

#endif
