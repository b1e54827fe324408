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

/* yes ? a : b, one component at a time: a loop gcc vectorises, where a
 * select of the whole (b the value loaded) may become a masked store that
 * it does not. */
static inline quat quat_select(int yes, quat a, quat b)
{
    quat r = {yes ? a.q0 : b.q0, yes ? a.q1 : b.q1, yes ? a.q2 : b.q2, yes ? a.q3 : b.q3};
    return r;
}

/* The factor (cos a, sin a * axis/|axis|) with a = scale * |axis|, from
 * |axis|^2 alone. SPIRAL's angles are tiny (|w| dt / 2, |alpha| dt^2 / 4):
 * below a = 1e-2 the Taylor series of cos a and sin(a)/a to a^6 are exact
 * to double precision (next terms < 3e-21 relative) and need no root,
 * division or libm call. */
#define QUAT_SERIES_A2 1e-4 /* a^2 below which the series are used */

static inline int quat_turn_is_small(real scale, real axis2) { return scale * scale * axis2 < QUAT_SERIES_A2; }

/* The factor by the series alone (quat_turn_is_small). */
static inline quat quat_turn_small(real scale, vec3 axis, real axis2)
{
    real a2 = scale * scale * axis2;
    real c = 1 - a2 / 2 * (1 - a2 / 12 * (1 - a2 / 30));
    real s_over = scale * (1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42))); /* sin(a) / |axis| */
    quat r = {c, s_over * axis.x, s_over * axis.y, s_over * axis.z};
    return r;
}

static inline quat quat_turn(real scale, vec3 axis, real axis2)
{
    if (quat_turn_is_small(scale, axis2))
        return quat_turn_small(scale, axis, axis2);
    real norm = sqrt(axis2), a = scale * norm;
    real s_over = sin(a) / norm;
    quat r = {cos(a), s_over * axis.x, s_over * axis.y, s_over * axis.z};
    return r;
}

/* SPIRAL, synchronous form (Eqs. 46-47) with phi = dt/2 |w|, theta =
 * (dt/2)^2 |alpha|; each factor is applied only when its vector is non-zero,
 * as the paper says. q maps body to world coordinates and w, alpha are world-
 * frame vectors, so the turns multiply from the left:
 * q <- (cos phi, sin phi w/|w|) (cos theta, sin theta alpha/|alpha|) q.
 * The printed Eq. 46 multiplies from the right, which turns about the axis
 * q* w q instead of w: the same only while q is the identity (`body_frame`
 * keeps the printed form, compat = "tinydem"). */
__attribute__((always_inline)) static inline quat quat_spiral(quat q, real dt, vec3 w, vec3 alpha, int body_frame)
{
    real w2 = v3_dot(w, w), alpha2 = v3_dot(alpha, alpha);
    if (body_frame) {
        if (w2 > 0)
            q = quat_mul(q, quat_turn(dt / 2, w, w2));
        if (alpha2 > 0)
            q = quat_mul(q, quat_turn(dt * dt / 4, alpha, alpha2));
        return q;
    }
    if (alpha2 > 0)
        q = quat_mul(quat_turn(dt * dt / 4, alpha, alpha2), q);
    if (w2 > 0)
        q = quat_mul(quat_turn(dt / 2, w, w2), q);
    return q;
}

#endif
