/* Outlets (grains_params.sink, remove_lost; sim/sinks.c): what they removed,
 * logged until read, and counted by sink and tag for the whole run. */
#ifndef GRAINS_SIM_SINKS_H
#define GRAINS_SIM_SINKS_H

#include <stdint.h>

#include "grains/sim.h"
#include "util/bytes.h"

/* Particles removed so far by one sink (-1: as lost) with one tag. */
typedef struct {
    int32_t sink, tag;
    uint64_t n;
} sink_count;

typedef struct {
    grains_removal *log;   /* since grains_sim_clear_removals */
    size_t n_log, cap_log;
    sink_count *count;     /* sorted by (sink, tag) */
    size_t n_count, cap_count;
} sim_sinks;

struct grains_sim;
/* At the end of a step: the particles whose centre is in a sink, or lost
 * with remove_lost, logged, counted and removed, in id order. */
grains_status sim_sinks_apply(struct grains_sim *sim, grains_error *err);
void sim_sinks_free(sim_sinks *k);
/* The counts for checkpoints (the log is the caller's to read before). */
void sim_sinks_write_state(const sim_sinks *k, bytes_out *o);
grains_status sim_sinks_read_state(sim_sinks *k, bytes_in *in, int n_sinks, grains_error *err);

#endif
