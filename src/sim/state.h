/* A simulation's whole state as a stream (checkpoints, io/checkpoint.c):
 * everything the next step reads, in storage order, the lists and contact
 * histories as they stand, so that the steps after a resume take the same
 * sums in the same order as the run that was never stopped. */
#ifndef GRAINS_SIM_STATE_H
#define GRAINS_SIM_STATE_H

#include "grains/sim.h"
#include "util/bytes.h"

/* An ARG error while contacts set by grains_sim_set_contacts wait for the
 * next step (they are not in the store yet). Shared among ranks, every
 * rank calls it (collective) and rank 0 writes, what one process would:
 * ranks holding every particle make rank 0's copy whole (grains_sim_gather)
 * and rank 0 writes it; ranks holding their own alone send theirs, a
 * window at a time, as rank 0 writes (decomp/rank_stream.c). o: rank 0's
 * stream (NULL: it writes nothing, and takes part); the others' unused. */
grains_status sim_write_state(grains_sim *sim, bytes_out *o, grains_error *err);
/* Whether this process writes the state: rank 0, or one alone. */
int sim_state_writer(const grains_sim *sim);

/* Into a simulation built from the same scenario (meshes, membranes,
 * materials, integrator, dt; its particles are replaced). Every count is
 * checked against the stream and every index against what it names; on
 * failure (an error without a file name) the simulation must be destroyed. */
grains_status sim_read_state(grains_sim *sim, bytes_in *in, grains_error *err);

#endif
