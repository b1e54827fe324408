/* Scalar and vector types shared by the whole library.
 * `real` is the one place the floating-point precision is chosen (design.md). */
#ifndef GRAINS_REAL_H
#define GRAINS_REAL_H

typedef double real;

/* A 3-vector, used for positions, velocities, forces. */
typedef struct {
    real x, y, z;
} grains_vec3;

/* A unit quaternion (q0 scalar part, q1..q3 vector part) for orientation. */
typedef struct {
    real q0, q1, q2, q3;
} grains_quat;

#endif
