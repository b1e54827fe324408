/* Particle store: one array per field (structure of arrays). Index = id:
 * particles are only ever appended, so contact keys (i, j) stay valid. */
#ifndef GRAINS_PARTICLES_H
#define GRAINS_PARTICLES_H

#include <stddef.h>

#include "grains/error.h"
#include "math/quat.h"

typedef struct {
    size_t n, cap;
    vec3 *x;     /* [L] position */
    vec3 *v;     /* [L/T] velocity */
    vec3 *w;     /* [1/T] angular velocity */
    quat *q;     /* orientation */
    real *R;     /* [L] radius */
    vec3 *f;     /* [ML/T^2] contact force sum of the current step */
    vec3 *t;     /* [ML^2/T^2] contact torque sum of the current step */
} grains_particles;

/* Grows the arrays to hold at least `need` particles (geometric growth). */
grains_status particles_reserve(grains_particles *pt, size_t need, grains_error *err);
void particles_free(grains_particles *pt);

#endif
