/* Normal sub-model "linear" with its damping (contact/submodels.c): the
 * linear spring-dashpot of the improved-velocity-Verlet paper. k_n fixed,
 * from the tolerated overlap (Eq. 27: k_n = m* V0^2 / delta^2), or matching
 * Hertz's contact time at V0 (Eq. 1); k_t by Eq. 6; damping by Eq. 31,
 * sqrt(4 m* k_n / (1 + (pi / ln e)^2)) = 2 beta sqrt(m* k_n), the tangential
 * one scaled by sqrt(k_t / k_n) (Section 5.1). */
#ifndef GRAINS_CONTACT_NORMAL_LINEAR_H
#define GRAINS_CONTACT_NORMAL_LINEAR_H

#include <math.h>

#include "contact/coefficients.h"
#include "grains/params.h"

/* Its coefficients, each a scenario key (core/coeffs.h), per pair of
 * materials (a material's own mix by the geometric mean):
 * X(ID, name, unit, default, least, doc). V0 > 0 and overlap_tol < 1 are
 * checked in every pair (core/params.c). */
#define NORMAL_LINEAR_COEFFS(X)                                                                                \
    X(LINEAR_K_N, "k_n", "M/T^2", 0, 0, "linear model: normal stiffness (>= 0); 0 = per pair by Eq. 1 or 27") \
    X(LINEAR_V0, "V0", "L/T", 1, 0, "linear model: characteristic impact velocity of Eqs. 1 and 27 (> 0)")  \
    X(LINEAR_OVERLAP_TOL, "overlap_tol", "-", 0, 0,                                                           \
      "linear model: k_n by Eq. 27 for this overlap / smaller diameter, in [0, 1); 0 = Eq. 1")

/* Eq. 1: the linear stiffness whose contact time matches Hertz's at V0 (contact/hertz_mindlin.c). */
real hm_linear_kn_hertz(real m_eff, real E_eff, real R_eff, real V0);

/* Its coefficients for one pair (hm_linear_coefficients reads them from the pair's law). */
typedef struct {
    real k_n, V0, overlap_tol;
} linear_coeffs;

/* How a pair's normal spring is found: given, by Eq. 27 or by Eq. 1 (a
 * call to pow, which does not vectorise: contact/lanes.c compiles loops for
 * the other two). */
enum { LINEAR_KN_GIVEN, LINEAR_KN_EQ27, LINEAR_KN_EQ1 };

static inline int linear_kn_kind(const linear_coeffs *lc)
{
    return lc->k_n > 0 ? LINEAR_KN_GIVEN : lc->overlap_tol > 0 ? LINEAR_KN_EQ27 : LINEAR_KN_EQ1;
}

/* The normal spring of a pair of E* at R*, m* and the smaller radius, found
 * as `kind` says (a constant where a loop is compiled for it). */
__attribute__((always_inline)) static inline real linear_kn_by(const linear_coeffs *lc, const int kind, real E_eff,
                                                               real R_eff, real m_eff, real R_small)
{
    if (kind == LINEAR_KN_GIVEN)
        return lc->k_n;
    if (kind == LINEAR_KN_EQ27) {
        real d = lc->overlap_tol * 2 * R_small;
        return m_eff * lc->V0 * lc->V0 / (d * d);           /* Eq. 27 */
    }
    return hm_linear_kn_hertz(m_eff, E_eff, R_eff, lc->V0); /* Eq. 1 */
}

/* The same, fixed, by Eq. 27 or by Eq. 1 as the pair's coefficients say. */
static inline real linear_kn(const linear_coeffs *lc, real E_eff, real R_eff, real m_eff, real R_small)
{
    return linear_kn_by(lc, linear_kn_kind(lc), E_eff, R_eff, m_eff, R_small);
}

/* The springs and dashpots from the normal spring kn, k_t / k_n and Eq.
 * 21's beta of the pair. */
static inline coefficients linear_springs(real kn, real kt_over_kn, real beta, real m_eff)
{
    coefficients c;
    c.kn = kn;
    c.ks = kt_over_kn * c.kn;             /* Eq. 6 */
    c.cn = 2 * beta * sqrt(m_eff * c.kn); /* Eq. 31 */
    c.cs = sqrt(kt_over_kn) * c.cn;
    return c;
}

/* d f_n / d delta, and the spring's energy k delta^2 / 2 at stiffness k. */
static inline real linear_stiffness(const coefficients *c) { return c->kn; }
static inline real linear_energy(real k, real delta) { return 0.5 * k * delta * delta; }

#endif
