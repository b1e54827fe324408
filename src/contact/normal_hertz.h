/* Normal sub-model "hertz" with the damping sub-models "tinydem" and
 * "restitution" (contact/submodels.c): TinyDEM's visco-elastic Hertz
 * spring, stiffnesses proportional to the contact radius a = sqrt(R* delta)
 * (Eqs. 12-14), dashpots from e_n by Eqs. 18-21 (the tangential one by
 * Eq. 25, or sqrt(k_t / k_n) of the normal one for "restitution", which
 * hertz_mindlin.c puts in law->cs_over_cn). */
#ifndef GRAINS_CONTACT_NORMAL_HERTZ_H
#define GRAINS_CONTACT_NORMAL_HERTZ_H

#include <math.h>

/* The springs and dashpots of a Hertz contact of radius a. */
static inline coefficients hertz_coefficients_at(const hm_law *law, real a, real m_eff)
{
    coefficients c;
    c.kn = law->kn * a;                                   /* Eq. 12 */
    c.ks = law->ks * a;                                   /* Eq. 13 */
    c.cn = sqrt(5 * m_eff * c.kn) * law->beta;            /* Eq. 18 */
    c.cs = law->cs_over_cn * c.cn;                        /* Eq. 25 (= Eq. 19) */
    return c;
}

static inline coefficients contact_coefficients(const hm_law *law, real R_eff, real m_eff, real delta)
{
    return hertz_coefficients_at(law, sqrt(R_eff * delta), m_eff); /* Eq. 14 */
}

/* d f_n / d delta of f_n = K delta^(3/2) (3/2 K delta^(1/2), K delta^(1/2) the
 * coefficient kn at delta), and the spring's energy 2/5 K delta^(5/2) = 4/15 k delta^2
 * at that stiffness k. */
static inline real hertz_stiffness(const coefficients *c) { return 1.5 * c->kn; }
static inline real hertz_energy(real k, real delta) { return 4.0 / 15 * k * delta * delta; }

#endif
