/* Normal sub-model "linear" with its damping (contact/submodels.c): the
 * linear spring-dashpot of the improved-velocity-Verlet paper. k_n fixed,
 * from the tolerated overlap (Eq. 27: k_n = m* V0^2 / delta^2), or matching
 * Hertz's contact time at V0 (Eq. 1); k_t by Eq. 6; damping by Eq. 31,
 * sqrt(4 m* k_n / (1 + (pi / ln e)^2)) = 2 beta sqrt(m* k_n), the tangential
 * one scaled by sqrt(k_t / k_n) (Section 5.1). */
#ifndef GRAINS_CONTACT_NORMAL_LINEAR_H
#define GRAINS_CONTACT_NORMAL_LINEAR_H

#include <math.h>

#include "grains/params.h"

/* Its coefficients (improved-velocity-Verlet paper Eqs. 1, 6, 27, 31). */
typedef struct {
    real k_n;            /* [M/T^2] fixed normal stiffness, or 0 */
    real V0;             /* [L/T] impact velocity of Eqs. 1 and 27 */
    real overlap_tol;    /* [-] Eq. 27's overlap / smaller diameter, or 0 for Eq. 1 */
} linear_coeffs;

static inline linear_coeffs linear_coeffs_of(const grains_params *p)
{
    return (linear_coeffs){p->k_n, p->V0, p->overlap_tol};
}

/* Eq. 1: the linear stiffness whose contact time matches Hertz's at V0 (contact/hertz_mindlin.c). */
real hm_linear_kn_hertz(real m_eff, real E_eff, real R_eff, real V0);

static inline coefficients linear_coefficients(const linear_coeffs *lc, const hm_law *law, real R_eff, real m_eff,
                                               real R_small)
{
    coefficients c;
    if (lc->k_n > 0) {
        c.kn = lc->k_n;
    } else if (lc->overlap_tol > 0) {
        real d = lc->overlap_tol * 2 * R_small;
        c.kn = m_eff * lc->V0 * lc->V0 / (d * d);                    /* Eq. 27 */
    } else {
        c.kn = hm_linear_kn_hertz(m_eff, law->E_eff, R_eff, lc->V0); /* Eq. 1 */
    }
    c.ks = law->kt_over_kn * c.kn;                                   /* Eq. 6 */
    c.cn = 2 * law->beta * sqrt(m_eff * c.kn);                       /* Eq. 31 */
    c.cs = sqrt(law->kt_over_kn) * c.cn;
    return c;
}

/* d f_n / d delta, and the spring's energy k delta^2 / 2 at stiffness k. */
static inline real linear_stiffness(const coefficients *c) { return c->kn; }
static inline real linear_energy(real k, real delta) { return 0.5 * k * delta * delta; }

#endif
