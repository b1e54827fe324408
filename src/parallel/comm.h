/* The ranks of an MPI run, as grains uses them. Every MPI call of grains
 * lives in src/parallel/ (the library itself, grains_lib, has none and runs
 * alone); a caller sees ranks only through these functions. */
#ifndef GRAINS_PARALLEL_COMM_H
#define GRAINS_PARALLEL_COMM_H

#include "grains/error.h"
#include "grains/ranks.h"
#include "neighbor/grid.h"

typedef struct grains_comm grains_comm;

/* Starts MPI (once per process; with or without mpirun) and returns the
 * world's ranks; an error when MPI cannot start. */
grains_status comm_start(int *argc, char ***argv, grains_comm **out, grains_error *err);
/* Ends MPI: every rank calls it, after its last use of `c`. */
void comm_stop(grains_comm *c);

int comm_rank(const grains_comm *c);
int comm_size(const grains_comm *c);

/* The reductions that frame a rank's share of the grid (neighbor/grid.h):
 * min and max of reals and sums of integers over every rank, the same
 * result on each. Valid while `c` is. */
grid_share comm_grid_share(grains_comm *c);

/* The ranks as grains_sim_share takes them (grains/ranks.h): this rank,
 * their number, and their collectives: an all-gather and an all-to-all of
 * bytes (MPI_Allgatherv, MPI_Alltoallv), sums and maxima of integers
 * (MPI_Allreduce), and messages between neighbours (MPI_Isend, MPI_Irecv). */
grains_ranks comm_ranks(grains_comm *c);

/* A value of this rank's (rider() >= 0, e.g. a caught signal) that rides
 * with every maximum of the ranks' collectives (grains_ranks.max: each
 * step's largest speed when it sends the halo alone), so that a check of
 * it after such a step costs no reduction of its own. comm_rider_max:
 * 1 and its largest over the ranks at the last maximum, if one carried
 * it since it was last asked; else 0 (then reduce it yourself). The same
 * on every rank, as the maxima are. */
void comm_ride(grains_comm *c, int (*rider)(void));
int comm_rider_max(grains_comm *c, int *max);

/* Stops every rank with `status` (after a message on one). */
void comm_abort(grains_comm *c, int status);
/* A failure of this rank alone, which the others cannot know of (they
 * may be waiting in a collective): this rank says why on the descriptor
 * of comm_say_to (stderr unless told), naming itself when there are
 * several, and every rank stops with `status`. */
void comm_fail(grains_comm *c, int status, const char *why) __attribute__((noreturn));
/* Where comm_fail speaks: a rank other than 0 sends its stderr to
 * /dev/null (one rank speaks), and keeps the terminal's here. */
void comm_say_to(grains_comm *c, int fd);

#endif
