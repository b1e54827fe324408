/* Normal sub-model "linear" with its damping (contact/submodels.c): the
 * linear spring-dashpot of the improved-velocity-Verlet paper. k_n fixed,
 * from the tolerated overlap (Eq. 27: k_n = m* V0^2 / delta^2), or matching
 * Hertz's contact time at V0 (Eq. 1); k_t by Eq. 6; damping by Eq. 31,
 * sqrt(4 m* k_n / (1 + (pi / ln e)^2)) = 2 beta sqrt(m* k_n), the tangential
 * one scaled by sqrt(k_t / k_n) (Section 5.1). */
#ifndef GRAINS_CONTACT_NORMAL_LINEAR_H
#define GRAINS_CONTACT_NORMAL_LINEAR_H

#include <math.h>

static inline coefficients linear_coefficients(const hm_params *hp, const hm_law *law, real R_eff, real m_eff,
                                               real R_small)
{
    coefficients c;
    if (hp->k_n > 0) {
        c.kn = hp->k_n;
    } else if (hp->overlap_tol > 0) {
        real d = hp->overlap_tol * 2 * R_small;
        c.kn = m_eff * hp->V0 * hp->V0 / (d * d);                    /* Eq. 27 */
    } else {
        c.kn = hm_linear_kn_hertz(m_eff, law->E_eff, R_eff, hp->V0); /* Eq. 1 */
    }
    c.ks = law->kt_over_kn * c.kn;                                   /* Eq. 6 */
    c.cn = 2 * law->beta * sqrt(m_eff * c.kn);                       /* Eq. 31 */
    c.cs = sqrt(law->kt_over_kn) * c.cn;
    return c;
}

#endif
