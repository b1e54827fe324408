/* The rolling sub-model "sds" (contact/rolling.h): the spring-dashpot-slider
 * of Luding (2008), as LAMMPS' granular pair style has it (`rolling sds
 * k_roll gamma_roll mu_roll`). Its spring u_r, kept in the history's rolling
 * reals, is the rolling displacement, advanced by the rolling velocity
 *   v_r = R* (w_i - w_j) x n                      (Luding 2008 Eq. 16; Wang et al. 2015 Eq. 31)
 * and turned into the tangent plane with the sliding spring (TinyDEM Eq. 51);
 * the force
 *   f_r = -k_roll u_r - gamma_roll v_r             (Luding 2008 Eq. 18)
 * slides at |f_r| = mu_r |f_n| (mu_r_dyn |f_n| while it slides), the spring
 * reset to hold it (Eqs. 53-54 of TinyDEM, as for every friction mode), and
 * acts as the torque R* n x f_r on i (its opposite on j). k_roll and
 * gamma_roll are fixed for the run, unlike the TinyDEM spring's k_n and c_n:
 * a sphere at rest on a slope below atan(mu_r) stays at rest once the spring
 * holds it, and one that rolls meets the torque mu_r R* |f_n|. */
#ifndef GRAINS_CONTACT_ROLLING_SDS_H
#define GRAINS_CONTACT_ROLLING_SDS_H

#include "math/vec3.h"

/* Its coefficients, each a scenario key (core/coeffs.h):
 * X(ID, name, unit, default, least, doc) */
#define ROLLING_SDS_COEFFS(X)                                                                                  \
    X(SDS_K_ROLL, "k_roll", "M/T^2", 0, 0, "sds rolling: the spring's stiffness k_roll (>= 0)")              \
    X(SDS_GAMMA_ROLL, "gamma_roll", "M/T", 0, 0, "sds rolling: the dashpot's gamma_roll (>= 0)")

/* Its traits (contact/rolling.h): a displacement along R* (w_i - w_j) x n,
 * even under the pair's exchange; the scalar kernel's alone. */
enum { ROLLING_SDS_ODD = 0, ROLLING_SDS_IN_LANES = 0 };

typedef struct {
    real k, gamma; /* k_roll [M/T^2], gamma_roll [M/T] */
} sds_coeffs;

/* Its spring and dashpot, and the rolling velocity they act on. */
static inline void sds_spring(const sds_coeffs *c, real R_eff, vec3 w_ij, vec3 n, real *k, real *gamma, vec3 *v_r)
{
    *k = c->k;
    *gamma = c->gamma;
    *v_r = v3_scale(R_eff, v3_cross(w_ij, n));
}

#endif
