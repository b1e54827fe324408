/* One simulation shared among processes (ranks): each rank evaluates the
 * contacts of its own cell blocks (a region of space) and integrates its
 * own particles, and the ranks exchange what the others read once per
 * step, so that the results are bit for bit those of one process, for any
 * number of ranks (docs/architecture.md, "MPI").
 *
 * The library makes no MPI call: a caller hands it the collectives it
 * needs. src/parallel/ (grains_parallel) gives them over MPI. */
#ifndef GRAINS_RANKS_H
#define GRAINS_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "grains/api.h"
#include "grains/error.h"
#include "grains/sim.h"

GRAINS_API_BEGIN

typedef struct {
    int rank, size;   /* this process's rank, of size (>= 1) */
    /* Every rank's `bytes` at `mine`, concatenated in rank order into
     * `into` (room for *cap bytes; grown with realloc, *cap with it, when
     * short: NULL and 0 for a new buffer), which it returns (the caller
     * frees it, or keeps it for the next call: the exchanges at rebuilds
     * move most of the state, and a buffer received into before takes them
     * many times faster than fresh pages), and counts[r] the bytes of
     * rank r (size of them). Collective: every rank calls it with its own
     * data. It does not return when it cannot: it stops every rank. */
    void *(*allgather)(void *ctx, const void *mine, size_t bytes, size_t *counts, void *into, size_t *cap);
    void *ctx;
    /* At a rebuild the blocks go to the ranks by the last bisection's
     * planes unless that gives a rank more than `rebalance` times the mean
     * work; then they are bisected anew. 0 or 1: anew at every rebuild. */
    double rebalance;
    /* A failure of this rank alone (memory for an exchange): says why,
     * naming this rank, and stops every rank, which may be waiting for it
     * in a collective. It does not return. NULL: the message goes to
     * stderr and this process aborts. */
    void (*fail)(void *ctx, const char *why);
    /* Each rank's bytes for each other rank: `send` holds this rank's for
     * rank 0, 1, ... in turn (send_counts[r] bytes for rank r, 0 for
     * itself); returned, in `into` as allgather's, the bytes each rank
     * sent this one, in rank order (recv_counts[r] from rank r).
     * Collective; it does not return when it cannot. */
    void *(*alltoall)(void *ctx, const void *send, const size_t *send_counts, size_t *recv_counts, void *into,
                      size_t *cap);
    /* v[0 .. n) summed over the ranks, in place, the same on every rank
     * (integers: in any order). Collective; it does not return when it
     * cannot. */
    void (*sum)(void *ctx, uint64_t *v, size_t n);
    /* v[0 .. n) the largest over the ranks, in place, the same on every
     * rank. Collective; it does not return when it cannot. */
    void (*max)(void *ctx, uint64_t *v, size_t n);
    /* As alltoall, when each rank knows beforehand the bytes it receives
     * from each other (recv_counts, 0 for itself): only the ranks with
     * bytes for each other exchange messages, point to point (the steps'
     * halo, between neighbouring regions), whatever the number of ranks.
     * Collective in that every rank calls it; it does not return when it
     * cannot. */
    void *(*neighbours)(void *ctx, const void *send, const size_t *send_counts, const size_t *recv_counts,
                        void *into, size_t *cap);
    /* Nonzero: each rank holds its own particles and copies of those that
     * may pair with them alone, not every particle (docs/architecture.md,
     * "MPI", stage 2): at a rebuild each rank bins its own, the blocks are
     * cut from their table merged over the ranks, and each particle goes
     * whole to its new owner and as a copy to the ranks that may pair it.
     * grains_sim_gather and grains_sim_gather_particles lay out on rank 0
     * what one process holds (bonds, every particle), a window at a time;
     * a frame and its thermo need only grains_sim_particle_window and
     * grains_sim_gather_thermo, and a checkpoint neither
     * (grains_checkpoint_write: every rank sends its share, a window at a
     * time). Meshes
     * and membranes (whole on every rank), insertion regions and bonds go
     * (a rank holds the bonds of its own particles, and a bonded partner's
     * copy however far; bonds are added before the first step or formed at
     * it); the particles a run starts with may be dealt among the ranks
     * (grains_sim_add_dealt), so that no rank holds them all, or added
     * by every rank alike, as a particle added after the first step must
     * be (spawning does so). Not contact histories set after the
     * first step: a step refuses those (grains_sim_ranks_hold_own tells
     * beforehand). 0: every rank holds every particle. */
    int local;
    /* The particles rank 0 is sent at a time to write a frame, when the
     * ranks hold their own alone (grains_sim_particle_window): its memory
     * for them. 0: GRAINS_FRAME_WINDOW. The frames' bytes are the same for any. */
    size_t window;
} grains_ranks;

/* Whether ranks that each hold their own particles alone (local) take
 * this simulation as it is. */
int grains_sim_ranks_hold_own(const grains_sim *sim);

/* Shares `sim` among the ranks (size 1: alone, as without). Every rank
 * creates the same simulation, shares it, and calls every function that
 * changes it (steps included) with the same arguments. Explicit
 * integrators only; a step refuses, on every rank, what is not shared yet:
 * implicit integrators, the contacts output, a guided particle; and
 * grains_sim_relax refuses a shared simulation. */
grains_status grains_sim_share(grains_sim *sim, const grains_ranks *ranks, grains_error *err);

/* Adds a particle the run starts with, on ranks that hold their own
 * particles alone (local), shared before the first step: the particle
 * takes the next id of the whole and only the rank of that id modulo the
 * ranks holds it (the others count the id), so that no rank holds every
 * particle at the start; the first step moves each to its owner. Every
 * rank calls it with every particle, alike, and each checks it as
 * grains_sim_add_particle does. Otherwise (one process, ranks that hold
 * every particle, or after the first step) it is grains_sim_add_particle.
 * Until the first step, rank 0 reads every particle after
 * grains_sim_gather_particles, as between steps. grains_sim_add_bond
 * refuses dealt particles: a run with bonds given before its first step
 * adds its particles with grains_sim_add_particle. */
grains_status grains_sim_add_dealt(grains_sim *sim, const grains_particle *p, grains_error *err);

/* As grains_sim_add_dealt, when each rank is given only its own particles
 * (reading its part of a file): the ranks deal `whole` ids together, the
 * next ones, and this rank holds ids first .. first + count - 1 of them,
 * the ranges tiling 0 .. whole - 1; it then adds exactly its `count`
 * particles, in order, with grains_sim_add_dealt, which then refuses a
 * particle beyond them (ARG: the other ranks would not count its id; one
 * that every rank adds goes by grains_sim_add_particle). Collective in that
 * every rank calls it, with the same `whole`; an ARG error but before the
 * first step of ranks that hold their own alone, or with a range still to
 * add. Elsewhere (one process) the whole range is taken, as by
 * grains_sim_add_particle. */
grains_status grains_sim_deal_range(grains_sim *sim, size_t first, size_t count, size_t whole, grains_error *err);

/* Makes rank 0's copy whole between steps, for it to write: the
 * particles and contact histories of the cell blocks other ranks own
 * (collective; the other ranks' copies stay as they are, and only rank
 * 0's may be read whole). Between rebuilds a step may send only what
 * other ranks read (the halo), so that a copy's other particles are old:
 * call this before reading particles or contacts of a shared simulation
 * on rank 0. Ranks that hold their own particles alone gather the
 * particles and bonds (the contacts stay with their owners).
 * grains_checkpoint_write needs none of it: it sends what it writes. */
grains_status grains_sim_gather(grains_sim *sim, grains_error *err);

/* The particles alone (collective), into rank 0's copy: enough to read or
 * write them, as a frame does; grains_sim_gather before reading contacts. */
void grains_sim_gather_particles(grains_sim *sim);

/* The fields of grains_particle that grains_sim_particle_window asks. */
enum {
    GRAINS_FIELD_X = 1,
    GRAINS_FIELD_V = 2,
    GRAINS_FIELD_W = 4,
    GRAINS_FIELD_Q = 8,
    GRAINS_FIELD_R = 16,
    GRAINS_FIELD_MATERIAL = 32,
    GRAINS_FIELD_TAG = 64,
    GRAINS_FIELD_ALL = 127
};

/* Particles first .. first + count - 1 (ids) into out[0 .. count - 1]
 * on rank 0: the fields asked, the others as they were (out: room for
 * count, or NULL on a rank that only sends). When the ranks hold their own particles alone and
 * rank 0 has not gathered them all (grains_sim_gather_particles), each
 * rank sends rank 0 those of its own in the window (collective: every
 * rank calls it alike); else each rank reads what it holds, as
 * grains_sim_get_particle. So rank 0 writes a frame a window at a time
 * (grains_vtk_write_frame) without holding every particle. */
void grains_sim_particle_window(grains_sim *sim, unsigned fields, size_t first, size_t count, grains_particle *out);
/* The window a frame is written in: grains_ranks.window, or
 * GRAINS_FRAME_WINDOW (the scenario's frame_window by default). */
#define GRAINS_FRAME_WINDOW 32768
size_t grains_sim_frame_window(const grains_sim *sim);

/* What a frame's thermo reads of the particles, into rank 0's copy
 * (collective): when the ranks hold their own alone, the sums of the
 * particles' energies and the lost, rank 0 adding them a window at a time
 * in the ids' order, as one process does, and the bonds' counts, without
 * every particle; else grains_sim_gather_particles. */
void grains_sim_gather_thermo(grains_sim *sim);

/* What the steps of a shared simulation exchanged, for this rank. */
typedef struct {
    long steps;         /* steps with an exchange */
    long halo_steps;    /* of them, those that sent the halo alone */
    long messages;      /* the point-to-point messages those steps sent this
                         * rank's halo in (one per reader) */
    double bytes;       /* this rank's bytes sent by the steps' exchanges */
    double received;    /* the bytes it received from the other ranks in them */
    double particles;   /* this rank's particles over those steps (sum) */
    double halo;        /* of them, the ones sent (sum) */
    double seconds;     /* [s] wall time in every exchange, waiting included */
    long cuts;          /* cuts of the blocks among the ranks (one per rebuild) */
    long bisections;    /* of them, those bisected anew (the others kept the planes) */
    double last;        /* the last cut's imbalance (1 before any) */
    double held;        /* the particles this rank held at the last cut (its own and
                         * copies; every one unless the ranks hold their own alone) */
    double listed;      /* the share of the particles whose lists this rank
                         * built, summed over the cuts */
    double imbalance;   /* the most work a rank got over the mean (particles plus
                         * 3 per contact), summed over the cuts */
    double worst;       /* its largest */
} grains_ranks_stats;

grains_ranks_stats grains_sim_ranks_stats(const grains_sim *sim);

GRAINS_API_END

#endif
