/* What grains push on membranes through their patches, logged per cell block in the force
 * loop and added to the vertices in block order (membrane/patches.c), and the confining
 * servo that reads it (membrane/confine.c). */
#ifndef GRAINS_MEMBRANE_PATCHES_H
#define GRAINS_MEMBRANE_PATCHES_H

#include <stdint.h>

#include "grains/sim.h"
#include "math/vec3.h"
#include "util/bytes.h"

/* What a cell block's particles gave membrane vertices through patch
 * contacts, in the block's order (interact/forces.c), added to the vertices in
 * block order after the force loop: the same sums for any thread count. */
typedef struct {
    uint32_t vertex;   /* of all membranes' vertices */
    vec3 f;
} patch_record;

typedef struct {
    patch_record *rec;  /* room for 3 per listed patch of the block's particles */
    uint32_t n;
} patch_log;

/* Room in each block's patch log for its particles' listed patches. */
grains_status sim_reserve_patch_logs(grains_sim *sim, grains_error *err);

/* The grains' push on membrane k's vertices in the patch logs (the last
 * step's), each along its vertex's outward direction from the axis through
 * point along the unit axis. */
double sim_patch_logs_radial(const grains_sim *sim, size_t k, vec3 point, vec3 axis);
/* Membrane k's load about the axis through `point` (grains_sim_membrane_load)
 * with its pressure at time t. */
void sim_membrane_load_at(const grains_sim *sim, size_t k, vec3 point, vec3 axis, real t, grains_membrane_load *out);

/* The patch logs' forces onto the membranes' vertices, blocks in order
 * (the whole's: ranks holding their own particles alone read every
 * rank's, ranks.named_logs). */
void sim_gather_patch_logs(grains_sim *sim);

/* After a step that held: each membrane under GRAINS_PRESSURE_FELT moves
 * its servo's addition to the pressure towards the felt stress asked for
 * at t, the time the step applied its pressure (membrane/confine.c). */
void sim_hold_confinement(grains_sim *sim, real t);
/* Ranks holding their own particles alone: the named logs laid out per
 * entry of the whole's table, as one process's per block, to write
 * (malloc'd, pointing into ranks.named_records), or NULL. */
patch_log *sim_patch_logs_whole(const grains_sim *sim);

/* The patch logs of the last step (membrane/patches.c), for checkpoints (those
 * of n_blocks blocks: the grid's, or the whole's on rank 0 of ranks that
 * hold their own alone), and back after sim_reserve_patch_logs. */
void sim_patch_logs_write(const patch_log *logs, size_t n_blocks, bytes_out *o);
grains_status sim_patch_logs_read_state(grains_sim *sim, bytes_in *in, grains_error *err);

#endif
