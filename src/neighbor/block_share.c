/* A thread's share of a colour phase's blocks, weighed by their work. */
#include "neighbor/block_share.h"

void block_particles(const grains_grid *g, uint32_t b_lo, uint32_t b_hi, uint32_t *lo, uint32_t *hi)
{
    *lo = g->first[g->block_start[b_lo]];
    *hi = g->first[g->block_start[b_hi]];
}

/* The first block b of [b0, b1] whose work since b0 is at least k / n of
 * the phase's (b1 for k = n). */
static uint32_t cut(const uint64_t *work, uint32_t b0, uint32_t b1, int k, int n)
{
    uint64_t total = work[b1] - work[b0];
    uint32_t lo = b0, hi = b1; /* the answer lies in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((work[mid] - work[b0]) * (uint64_t)n >= total * (uint64_t)k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void block_share(const grains_grid *g, const uint64_t *work, int phase, int t, int n_threads, uint32_t *lo,
                 uint32_t *hi)
{
    uint32_t b0 = g->phase_start[phase], b1 = g->phase_start[phase + 1];
    *lo = t == 0 ? b0 : cut(work, b0, b1, t, n_threads);
    *hi = t + 1 >= n_threads ? b1 : cut(work, b0, b1, t + 1, n_threads);
}
