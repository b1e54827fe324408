/* What grains push on membranes through their patches, logged per cell block in the force
 * loop and added to the vertices in block order (membrane/patches.c), and the confining
 * servo that reads it (membrane/confine.c). */
#ifndef GRAINS_MEMBRANE_PATCHES_H
#define GRAINS_MEMBRANE_PATCHES_H

#include <stdint.h>

#include "grains/mesh.h"
#include "grains/sim.h"
#include "math/vec3.h"
#include "membrane/membranes.h"
#include "neighbor/grid.h"
#include "neighbor/neighbor.h"
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

/* Every cell block's log (per block of the grid) and their records. */
typedef struct {
    patch_log *log;
    patch_record *records;
    size_t log_cap, records_cap;
} patch_logs;

/* What the logs are sized from: the lists (the grid's cell blocks, the
 * candidates) and the meshes' elements (a patch is an element of no body). */
typedef struct {
    const grains_grid *grid;
    const grains_neighbors *nb;
    const grains_mesh *mesh;
} patch_lists;

/* What the membranes' servo and loads see (the core makes it:
 * sim_membranes_of): the membranes, and the last step's logs in the
 * whole's order (the grid's blocks, or every rank's named ones when the
 * ranks hold their own particles alone). */
typedef struct {
    sim_membranes *mb;
    const patch_log *logs;
    size_t n_logs;
} membrane_view;

/* Room in each block's patch log for its particles' listed patches. */
grains_status sim_reserve_patch_logs(patch_logs *pl, const patch_lists *l, grains_error *err);
void sim_patch_logs_free(patch_logs *pl);

/* The grains' push on membrane k's vertices in the patch logs (the last
 * step's), each along its vertex's outward direction from the axis through
 * point along the unit axis. */
double sim_patch_logs_radial(const membrane_view *v, size_t k, vec3 point, vec3 axis);
/* Membrane k's load about the axis through `point` (grains_sim_membrane_load)
 * with its pressure at time t. */
void sim_membrane_load_at(const membrane_view *v, size_t k, vec3 point, vec3 axis, real t, grains_membrane_load *out);

/* The patch logs' forces onto the membranes' vertices, blocks in order. */
void sim_gather_patch_logs(const membrane_view *v);

/* After a step that held: each membrane under GRAINS_PRESSURE_FELT moves
 * its servo's addition to the pressure towards the felt stress asked for
 * at t, the time the step applied its pressure, by a step of dt
 * (membrane/confine.c). */
void sim_hold_confinement(const membrane_view *v, real t, real dt);

/* The patch logs of the last step (membrane/patches.c), for checkpoints (those
 * of n_blocks blocks: the grid's, or the whole's on rank 0 of ranks that
 * hold their own alone), and back after sim_reserve_patch_logs, for
 * membranes of n_vertices in all (0: no membrane, no logs). */
void sim_patch_logs_write(const patch_log *logs, size_t n_blocks, bytes_out *o);
grains_status sim_patch_logs_read_state(patch_logs *pl, const patch_lists *l, size_t n_vertices, bytes_in *in,
                                        grains_error *err);

#endif
