/* The rolling sub-model "type_c" (contact/submodels.c): the elastic-plastic
 * spring-dashpot of Ai, Chen, Rotter and Ooi (2011), their model C, as
 * LIGGGHTS' epsd has it. The spring acts on the relative rotation of the
 * two bodies about axes in the tangent plane, theta_r (kept in the
 * history's rolling reals, in radians), with stiffness
 *   k_r = 2.25 k_n mu_r^2 R*^2        (k_n the normal spring, secant)
 * and a torque limited to full mobilisation, M_m = mu_r R* |f_n|: beyond it
 * the spring slips (it is reset to hold M_m; mu_r_dyn in place of mu_r for
 * the torque then, as for the other modes). Below the limit a dashpot
 *   C_r = rolling_damping x 2 sqrt(I_r k_r),
 *   I_r = 1 / (1 / (I_i + m_i R_i^2) + 1 / (I_j + m_j R_j^2)),
 * damps the relative rolling spin; at full mobilisation it is off (Ai et
 * al.'s f = 0). Unlike the TinyDEM spring the torque does not depend on
 * the relative speed once rolling, and a particle at rest on a slope
 * below atan(mu_r) stays at rest. */
#ifndef GRAINS_CONTACT_ROLLING_TYPE_C_H
#define GRAINS_CONTACT_ROLLING_TYPE_C_H

#include <math.h>

#include "grains/params.h"
#include "math/pi.h"
#include "math/vec3.h"

/* Its traits (contact/rolling.h): the spring holds a relative rotation,
 * odd under the pair's exchange; the scalar kernel's alone. */
enum { ROLLING_TYPE_C_ODD = 1, ROLLING_TYPE_C_IN_LANES = 0 };

/* Its coefficient (core/coeffs.h), per pair of materials: the rolling
 * dashpot's fraction of critical [-], in [0, 1] (core/params.c checks the
 * upper bound in every pair). */
#define ROLLING_TYPE_C_COEFFS(X)                                                                              \
    X(TYPE_C_DAMPING, "rolling_damping", "-", 0.3, 0,                                                         \
      "type_c rolling: the dashpot's fraction of critical damping, in [0, 1]; default 0.3 (Ai et al. 2011)")

/* I + m R^2 = 7/5 m R^2 of a solid sphere about a point of its surface. */
static inline real type_c_inertia(real rho, real R) { return 1.4 * (4 * HM_PI / 3 * rho * R * R * R) * R * R; }

/* The rolling torque on i (j takes its opposite) from the relative
 * rolling spin w_r (tangential), advancing the spring *theta by one step
 * (before the torque with increment_first, after it otherwise). */
static inline vec3 type_c_torque(vec3 *theta, vec3 w_r, real k_r, real c_r, real limit, real limit_dyn, real dt,
                                 int increment_first)
{
    if (!(k_r > 0)) { /* mu_r = 0: no resistance */
        *theta = v3(0, 0, 0);
        return *theta;
    }
    if (increment_first)
        *theta = v3_axpy(*theta, dt, w_r);
    vec3 M = v3_scale(-k_r, *theta);
    real M2 = v3_dot(M, M);
    if (M2 > limit * limit) { /* full mobilisation: the spring slips, no dashpot */
        M = v3_scale(limit_dyn / sqrt(M2), M);
        *theta = v3_scale(-1 / k_r, M);
        return M;
    }
    if (!increment_first)
        *theta = v3_axpy(*theta, dt, w_r);
    return v3_axpy(M, -c_r, w_r);
}

#endif
