/* Hertz-Mindlin contact of TinyDEM (R. Vetter, 2025), term for term:
 * normal and shear forces Eqs. 5-25, relative velocities Eqs. 26-30 and 36-38,
 * torques Eqs. 31-33, rolling/twisting resistance Eqs. 34-35, Coulomb limits
 * Eqs. 11, 39-40, springs Eqs. 50-54.
 *
 * Two places depart from the printed paper on purpose:
 * - Eq. 26 is printed with n x (r_i w_i - r_j w_j); the velocity of the
 *   contact point needs n x (r_i w_i + r_j w_j) (both surface points move
 *   with their own spin), which is also what TinyDEM's source computes.
 * - The order of force and spring increment is selectable: the paper's
 *   (force from the old spring, then Eq. 52) is the default. */
#include "contact/hertz_mindlin.h"

#include <math.h>

#define PI HM_PI


real hm_beta(real e_n)
{
    if (e_n <= 0)
        return 1;
    if (e_n >= 1)
        return 0;
    real r = PI / log(e_n);
    return 1 / sqrt(1 + r * r); /* Eq. 21 */
}

void hm_params_init(hm_params *hp, const grains_params *p)
{
    real nu = p->nu, E = p->E;
    real G = E / (2 * (1 + nu));                  /* Eq. 16 */
    real E_pp = E / (2 * (1 - nu * nu));          /* Eq. 22 */
    real G_pp = E / (4 * (2 - nu) * (1 + nu));    /* Eq. 23 */
    real E_pw = E / (1 - nu * nu);                /* wall: E_j = inf in Eq. 15 */
    real G_pw = G / (2 - nu);                     /* wall: G_j = inf in Eq. 16 */
    hp->rho = p->rho;
    hp->kn_pp = 4.0 / 3.0 * E_pp;                 /* Eq. 12 without a */
    hp->ks_pp = 8 * G_pp;                         /* Eq. 13 without a */
    hp->kn_pw = 4.0 / 3.0 * E_pw;
    hp->ks_pw = 8 * G_pw;
    hp->beta = hm_beta(p->e_n);
    if (p->contact_model == GRAINS_CONTACT_HERTZ_RESTITUTION) {
        /* Eq. 32's eta_n, -2 sqrt(5/6) ln(e) / sqrt(pi^2 + ln^2 e) (R* delta)^(1/4)
         * sqrt(3/2 (4/3 E*) m*), is Eq. 18's beta sqrt(5 m* k_n) term for term;
         * the tangential dashpot is scaled by sqrt(k_t / k_n) (Section 5.1). */
        hp->cs_over_cn_pp = sqrt(hp->ks_pp / hp->kn_pp);
        hp->cs_over_cn_pw = sqrt(hp->ks_pw / hp->kn_pw);
    } else {
        hp->cs_over_cn_pp = hp->cs_over_cn_pw = sqrt((1 - nu) / (10 * (2 - nu))); /* Eq. 25 */
    }
    hp->mu_s = p->mu_s;
    hp->mu_r = p->mu_r;
    hp->mu_t = p->mu_t;
    /* -1 (not derived yet) means the static value */
    hp->mu_s_dyn = p->mu_s_dyn < 0 ? p->mu_s : p->mu_s_dyn;
    hp->mu_r_dyn = p->mu_r_dyn < 0 ? p->mu_r : p->mu_r_dyn;
    hp->mu_t_dyn = p->mu_t_dyn < 0 ? p->mu_t : p->mu_t_dyn;
    hp->dt = p->dt;
    /* Velocity Verlet increments the springs before the force (improved-
     * velocity-Verlet paper Eqs. 15-16 and Section 4). */
    hp->increment_first = p->friction_order == GRAINS_FRICTION_INCREMENT_THEN_FORCE ||
                          p->integrator != GRAINS_INTEGRATOR_EULER;
    hp->half_step = p->integrator == GRAINS_INTEGRATOR_VERLET_IMPROVED;
    hp->linear = p->contact_model == GRAINS_CONTACT_LINEAR;
    hp->k_n = p->k_n;
    hp->V0 = p->V0;
    hp->overlap_tol = p->overlap_tol;
    hp->E_pp = E_pp;
    hp->E_pw = E_pw;
    hp->kt_over_kn = 2 * (1 - nu) / (2 - nu);     /* Eq. 6 */
}

real hm_linear_kn_hertz(real m_eff, real E_eff, real R_eff, real V0)
{
    return 1.2024 * pow(sqrt(m_eff) * E_eff * E_eff * R_eff * V0, 0.4); /* Eq. 1 */
}

