/* Probes (grains_params.probe; sim/probes.c): what crossed each plane,
 * summed by tag and size class over the run, and what a box holds. */
#ifndef GRAINS_SIM_PROBES_H
#define GRAINS_SIM_PROBES_H

#include <stdint.h>

#include "grains/sim.h"
#include "util/bytes.h"

/* A plane's sums over the grains of one tag and size class that crossed it. */
typedef struct {
    int32_t probe, tag, size;
    int64_t number;
    double mass, momentum[3];
} probe_sum;

/* A crossing found in a step. */
typedef struct {
    int32_t probe, sign;
    uint32_t id;
    uint32_t at; /* the grain's place in storage */
} probe_crossing;

typedef struct {
    double *before;           /* per plane and id: the centre's distance along the normal at the step's start */
    size_t n_ids, cap_before; /* ids measured; room */
    double jump;              /* [L] a change of distance at least this is a periodic wrap, not a crossing */
    double *z_before;         /* a sheared box: per id, the centre's z at the step's start (a grain
                               * that wraps along z moves along x with the images: no crossing) */
    size_t cap_z;
    probe_sum *sum;           /* sorted by (probe, tag, size) */
    size_t n_sum, cap_sum;
    probe_crossing *found;    /* a step's crossings */
    size_t cap_found;
} sim_probes;

struct grains_sim;
/* At a step's start: every grain's distance to every plane. */
grains_status sim_probes_before(struct grains_sim *sim, grains_error *err);
/* At its end (before the outlets): the grains whose centres changed side,
 * summed in id order. */
grains_status sim_probes_after(struct grains_sim *sim, grains_error *err);
void sim_probes_free(sim_probes *pr);
/* The planes' sums, for checkpoints. */
void sim_probes_write_state(const sim_probes *pr, bytes_out *o);
grains_status sim_probes_read_state(sim_probes *pr, bytes_in *in, const grains_params *p, grains_error *err);

#endif
