/* Prescribed rigid motions of a mesh as functions of time (pure functions
 * of the motion and t; the servo's state lives in boundary/walls.c). */
#ifndef GRAINS_BOUNDARY_MOTION_H
#define GRAINS_BOUNDARY_MOTION_H

#include "grains/error.h"
#include "grains/motion.h"
#include "math/vec3.h"

/* Where a motion has taken its mesh, and how fast it goes. */
typedef struct {
    vec3 shift;      /* [L] translation from the file's position */
    real angle;      /* [rad] turn about the axis through point + shift */
    vec3 velocity;   /* [L/T] d shift / dt */
    real omega;      /* [1/T] d angle / dt */
} motion_state;

/* The pose at t_pose and the rates at t_rate (the integrators want
 * positions and velocities at different times: Verlet's forces see
 * x(t + dt) and v(t + dt/2)). FIXED and SERVO give the zero pose. */
motion_state motion_at(const grains_motion *m, real t_pose, real t_rate);

/* Checks every value of the motion; names the key in the message. The
 * axis must have a length > 0 (it is normalised by the caller). */
grains_status motion_check(const grains_motion *m, grains_error *err);

/* r turned by `angle` about the unit vector `axis` (Rodrigues). */
vec3 motion_turn(vec3 axis, real angle, vec3 r);

#endif
