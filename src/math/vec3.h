/* 3-vector arithmetic, header only so the compiler can inline it into kernels. */
#ifndef GRAINS_MATH_VEC3_H
#define GRAINS_MATH_VEC3_H

#include <math.h>

#include "grains/real.h"

typedef grains_vec3 vec3;

static inline vec3 v3(real x, real y, real z) { vec3 r = {x, y, z}; return r; }
static inline vec3 v3_add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3 v3_sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 v3_scale(real s, vec3 a) { return v3(s * a.x, s * a.y, s * a.z); }
static inline vec3 v3_neg(vec3 a) { return v3(-a.x, -a.y, -a.z); }
static inline real v3_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline real v3_norm(vec3 a) { return sqrt(v3_dot(a, a)); }
static inline vec3 v3_cross(vec3 a, vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* a + s*b */
static inline vec3 v3_axpy(vec3 a, real s, vec3 b) { return v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline int v3_isfinite(vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* A running maximum of squared speeds taking v2, where a particle whose
 * velocity or spin is not finite (w2 not finite, or v2 a NaN) counts as
 * infinitely fast: a plain max drops a NaN, and the step's check after the
 * update must see it (sim/step.c). */
static inline real speed2_max(real most, real v2, real w2)
{
    if (!(w2 < INFINITY) || v2 != v2)
        return (real)INFINITY;
    return v2 > most ? v2 : most;
}

#endif
