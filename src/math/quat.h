/* Quaternion algebra and the SPIRAL orientation update (TinyDEM Eqs. 46-48). */
#ifndef GRAINS_MATH_QUAT_H
#define GRAINS_MATH_QUAT_H

#include "math/vec3.h"

typedef grains_quat quat;

/* Hamilton product p*q = (pq - p.q, p q + q p + p x q)  (Eq. 48) */
static inline quat quat_mul(quat p, quat q)
{
    quat r;
    r.q0 = p.q0 * q.q0 - (p.q1 * q.q1 + p.q2 * q.q2 + p.q3 * q.q3);
    r.q1 = p.q0 * q.q1 + q.q0 * p.q1 + (p.q2 * q.q3 - p.q3 * q.q2);
    r.q2 = p.q0 * q.q2 + q.q0 * p.q2 + (p.q3 * q.q1 - p.q1 * q.q3);
    r.q3 = p.q0 * q.q3 + q.q0 * p.q3 + (p.q1 * q.q2 - p.q2 * q.q1);
    return r;
}

/* Rotation by `angle` about the direction of `axis` whose norm is `axis_norm`:
 * (cos angle, sin angle * axis/|axis|). */
static inline quat quat_turn(real angle, vec3 axis, real axis_norm)
{
    real s = sin(angle) / axis_norm;
    quat r = {cos(angle), s * axis.x, s * axis.y, s * axis.z};
    return r;
}

/* SPIRAL, synchronous form (Eqs. 46-47): q <- q (cos phi, sin phi w/|w|)
 * (cos theta, sin theta alpha/|alpha|), phi = dt/2 |w|, theta = (dt/2)^2 |alpha|.
 * Each factor is applied only when its vector is non-zero, as the paper says. */
static inline quat quat_spiral(quat q, real dt, vec3 w, vec3 alpha)
{
    real w_norm = v3_norm(w);
    if (w_norm > 0)
        q = quat_mul(q, quat_turn(dt / 2 * w_norm, w, w_norm));
    real alpha_norm = v3_norm(alpha);
    if (alpha_norm > 0)
        q = quat_mul(q, quat_turn(dt * dt / 4 * alpha_norm, alpha, alpha_norm));
    return q;
}

#endif
