/* The particles the start's checks read (sim/check_start.c): one
 * process's, or on ranks that hold their own alone, each rank's own, then
 * spread by cell block to their blocks' home ranks (decomp/rank_start.c), so
 * that no rank reads every particle and each cell and each pair is
 * checked on one rank whole. */
#ifndef GRAINS_DECOMP_START_SET_H
#define GRAINS_DECOMP_START_SET_H

#include "decomp/rank_sim.h"

typedef struct {
    vec3 *x;
    real *R;
    uint32_t *id;
    uint8_t *copy;      /* per particle: 1 another home's, there to pair with (NULL: none) */
    size_t n;
    int shared;         /* a rank's share: share frames the grids as the whole's */
    grid_share share;
    int rank, size;     /* this rank of size (one process: 0 of 1) */
    int owns_arrays;    /* x, R, id and copy are this set's to free */
} start_set;

/* The particles `sim` holds that the checks read: one process's (views
 * of its arrays), or this rank's own, copied, when the ranks hold their
 * own alone (sim_start_shared). An error on this rank alone: out of memory. */
int sim_start_shared(const rank_sim *sim);
grains_status sim_start_own(const rank_sim *sim, start_set *own, grains_error *err);

/* The rank that checks the cells of a block (by its key, neighbor/grid.h)
 * and the pairs of its particles: a hash, so that crowded regions spread
 * over the ranks. */
int sim_start_home(const start_set *s, uint64_t key);

/* Each own particle to the home of its block in a grid of pad `pad` and
 * as a copy to the homes of the blocks that may hold a partner
 * (collective): the set each rank checks, sorted by id. */
grains_status sim_start_spread(const rank_sim *sim, const start_set *own, real pad, start_set *out,
                               grains_error *err);

/* Every rank's `bytes` at `mine`, in rank order (collective; one process:
 * a copy). The caller frees it. */
void *sim_start_gather(const rank_sim *sim, const start_set *s, const void *mine, size_t bytes);

void sim_start_free(start_set *s);

/* Out of memory on this rank alone, in the collective checks: says so
 * and stops every rank (they may wait for it). */
void sim_start_failed(const rank_sim *sim) __attribute__((noreturn));

#endif
