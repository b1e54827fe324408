/* One simulation shared among processes (ranks): each rank evaluates the
 * contacts of its own cell blocks and integrates its own particles, and the
 * ranks exchange what they computed once per step, so that every rank
 * holds the whole state and the results are bit for bit those of one
 * process, for any number of ranks (docs/architecture.md, "MPI").
 *
 * The library makes no MPI call: a caller hands it the one collective it
 * needs. src/parallel/ (grains_parallel) gives it over MPI. */
#ifndef GRAINS_RANKS_H
#define GRAINS_RANKS_H

#include <stddef.h>

#include "grains/error.h"
#include "grains/sim.h"

typedef struct {
    int rank, size;   /* this process's rank, of size (>= 1) */
    /* Every rank's `bytes` at `mine`, concatenated in rank order into a new
     * buffer (freed by the caller with free), and counts[r] the bytes of
     * rank r (size of them). Collective: every rank calls it with its own
     * data. It does not return when it cannot: it stops every rank. */
    void *(*allgather)(void *ctx, const void *mine, size_t bytes, size_t *counts);
    void *ctx;
} grains_ranks;

/* Shares `sim` among the ranks (size 1: alone, as without). Every rank
 * creates the same simulation, shares it, and calls every function that
 * changes it (steps included) with the same arguments. Explicit
 * integrators only; a step refuses, on every rank, what is not shared yet:
 * implicit integrators, the contacts output, a guided particle; and
 * grains_sim_relax refuses a shared simulation. */
grains_status grains_sim_share(grains_sim *sim, const grains_ranks *ranks, grains_error *err);

/* Makes every rank's copy whole between steps: the contact histories of
 * the cell blocks other ranks own (collective). Before reading contacts
 * or writing a checkpoint of a shared simulation. */
grains_status grains_sim_gather(grains_sim *sim, grains_error *err);

#endif
