/* The sliding sub-model "coulomb" and the rolling and twisting sub-models
 * "spring" (contact/submodels.c): TinyDEM's static friction springs with a
 * dashpot each (Eqs. 10, 34-35), turned into the tangent plane (Eq. 51),
 * advanced by Eq. 52 and limited by Coulomb's law (Eqs. 11, 39-40, 53-54),
 * with Luding's dynamic coefficients where they differ from the static ones. */
#ifndef GRAINS_CONTACT_FRICTION_SPRING_H
#define GRAINS_CONTACT_FRICTION_SPRING_H

#include <math.h>

#include "math/vec3.h"

/* The rolling spring's traits (contact/rolling.h): a displacement r_roll
 * (w_i - w_j) x n, even under the pair's exchange; the vector kernel's. */
enum { ROLLING_SPRING_ODD = 0, ROLLING_SPRING_IN_LANES = 1 };
/* Its coefficients (core/coeffs.h): none of its own, the normal law's k_n and c_n serve. */
#define ROLLING_SPRING_COEFFS(X)

/* Eq. 51: turn a spring into the tangent plane of n, keeping its length.
 * (One square root: |u| / |t| = sqrt(|u|^2 / |t|^2).) */
__attribute__((always_inline)) static inline vec3 project_spring(vec3 u, vec3 n)
{
    real un = v3_dot(u, n);
    if (un == 0)
        return u;
    vec3 t = v3_axpy(u, -un, n);
    real after2 = v3_dot(t, t);
    return after2 > 0 ? v3_scale(sqrt(v3_dot(u, u) / after2), t) : t;
}

/* Eqs. 11, 39, 53, 54 for a vector mode: when the trial force breaks the
 * static limit mu |f_n| it slides: the force is clipped to mu_dyn |f_n|
 * and the spring reset so that it reproduces the clipped force. With
 * mu_dyn = mu this is TinyDEM; mu_dyn < mu is Luding's (2008) static and
 * dynamic friction as libgran has it. Compared in squares so that the root
 * is taken only when sliding. */
static inline vec3 coulomb_vector(vec3 f, real mu, real mu_dyn, real fn_norm, real k, real c, vec3 v, vec3 *u)
{
    real f2 = v3_dot(f, f), limit = mu * fn_norm;
    if (f2 > limit * limit) {
        f = v3_scale(mu_dyn * fn_norm / sqrt(f2), f);     /* Eq. 53 */
        *u = v3_scale(-1 / k, v3_axpy(f, c, v));          /* Eq. 54 */
    }
    return f;
}

/* Eqs. 40, 53, 54 for twisting, in scalar form. */
static inline real coulomb_scalar(real f, real mu, real mu_dyn, real fn_norm, real k, real c, real v, real *u)
{
    real f_abs = fabs(f);
    if (f_abs > mu * fn_norm) {
        f = mu_dyn * fn_norm / f_abs * f;
        *u = -1 / k * (f + c * v);
    }
    return f;
}

#endif
