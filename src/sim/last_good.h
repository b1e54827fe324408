/* The last good state: a copy taken before a step that may fail, put back when it does
 * (sim/last_good.c). */
#ifndef GRAINS_SIM_LAST_GOOD_H
#define GRAINS_SIM_LAST_GOOD_H

#include <stdint.h>

#include "boundary/walls.h"
#include "grains/sim.h"
#include "math/quat.h"

/* A copy of the state before a step that may fail (sim/last_good.c):
 * per particle held, its id (ids[k]), x, v, w (x[3 k ..]) and q; the
 * membrane vertices' x then v; the meshes as bodies. */
typedef struct {
    vec3 *x;
    quat *q;
    uint32_t *ids;
    vec3 *vertex;
    wall_body *body;
    size_t n, n_vertices, cap, cap_q, cap_ids, cap_vertex, cap_body;
    int held;
    long idle;           /* steps since the particles were last copied */
} sim_last_good;

/* Whether this step's begin must be preceded by a copy of the particles
 * and membrane vertices (given the last step's top speed); the copy (the
 * meshes always, the rest when `particles`), and its restoring after a
 * failed step (the lists are then stale). */
int sim_last_good_needed(const grains_sim *sim, real v_max);
grains_status sim_last_good_take(grains_sim *sim, int particles, grains_error *err);
void sim_last_good_restore(grains_sim *sim);
void sim_last_good_free(sim_last_good *g);

#endif
