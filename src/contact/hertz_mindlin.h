/* Visco-elastic Hertz-Mindlin contact with sliding, rolling and twisting
 * friction, TinyDEM Eqs. 5-40 and 50-54. One function serves particle-particle
 * and particle-wall contacts; the wall convention (R_j = E_j = m_j = inf) is
 * applied once, in hm_params_init and the geometry step. */
#ifndef GRAINS_CONTACT_HERTZ_MINDLIN_H
#define GRAINS_CONTACT_HERTZ_MINDLIN_H

#include "contact/coefficients.h"
#include "core/coeffs.h"
#include "grains/params.h"
#include "math/pi.h"
#include "math/vec3.h"

/* The constants of one pair of materials, particle-particle or particle-
 * wall, derived once (TinyDEM Eqs. 12-25 without the contact radius a). */
typedef struct {
    real kn, ks;         /* 4/3 E* and 8 G* (Eqs. 12-13, 15-16) */
    real beta;           /* damping factor of the pair's e_n, Eq. 21 (or Tsuji's, damping_tsuji.h) */
    real cs_over_cn;     /* sqrt((1-nu) / (10 (2-nu))), Eq. 25, or sqrt(k_s / k_n) for the
                          *   damping laws restitution (improved-velocity-Verlet Section 5.1) and tsuji */
    real mu_s, mu_r, mu_t;
    real mu_s_dyn, mu_r_dyn, mu_t_dyn; /* Luding's dynamic coefficients (= static for TinyDEM) */
    real E_eff;          /* E*, for the linear model's Eq. 1 */
    real kt_over_kn;     /* linear model, Eq. 6: 4 G* / E* = 2 (1 - nu) / (2 - nu) for one material */
    int no_contact;      /* the pair passes through each other (pairs' contact = false) */
    real coeff[N_COEFFS]; /* the sub-models' own coefficients for this pair (core/coeffs.h) */
} hm_law;

/* The normal sub-models the kernel tells apart. */
enum { HM_NORMAL_HERTZ = 0, HM_NORMAL_LINEAR = 1, HM_NORMAL_JKR = 2 };



/* The sub-models, one header each (contact/submodels.c lists them): each
 * owns its coefficients (read from the parameters by its *_coeffs_of, kept
 * in hm_params under its name), its springs and dashpots, and where it acts
 * beyond touching, its reach; a normal law its stiffness and potential
 * energy for the implicit rows. */
#include "contact/cohesion_jkr.h"
#include "contact/normal_hertz.h"
#include "contact/normal_linear.h"
#include "contact/rolling.h"
#include "contact/van_der_waals.h"

/* Constants fixed for the run. */
typedef struct {
    int n_materials;
    real rho[GRAINS_MAX_MATERIALS];                      /* [M/L^3] per material */
    hm_law pp[GRAINS_MAX_MATERIALS][GRAINS_MAX_MATERIALS]; /* particle with particle */
    hm_law pw[GRAINS_MAX_MATERIALS][GRAINS_MAX_MATERIALS + 1]; /* particle with wall: [m][1 + wall
                                                            * material], [m][0] rigid (E = inf) */
    real dt;
    int increment_first; /* GRAINS_FRICTION_INCREMENT_THEN_FORCE, or a Verlet integrator */
    int half_step;       /* improved velocity Verlet: velocities and springs in the half-step plane */
    int normal;          /* HM_NORMAL_*: the normal sub-model (contact/submodels.h) */
    int holds;           /* its contacts hold beyond touching (JKR): the loops reach hm_hold_gap past it */
    int attracts;        /* a cohesion law pulls across gaps (van der Waals): hm_attraction, out to
                          * hm_attraction_reach beyond touching */
    int rolling_model;   /* GRAINS_ROLLING_*: the rolling sub-model (contact/rolling.h) */
    rolling_traits rolling_traits; /* what its spring is to the loops outside the kernel */
    real attraction_reach; /* the farthest any pair's cohesion law pulls beyond touching (van der Waals'
                            * cut-off; 0: none) */
} hm_params;

/* Static friction springs of one contact (Eq. 50), zero at first touch. */
typedef struct {
    real us[3];  /* [L] sliding */
    real ur[3];  /* [L] rolling */
    real ut;     /* [L] twisting */
} hm_history;

/* One side-by-side state of the two bodies. For a wall, j's velocities are 0,
 * `wall` is 1 and x_ij is measured to the closest point on the element. */
typedef struct {
    vec3 x_ij;         /* x_i - x_j, Eq. 8 */
    real R_i, R_j;     /* radii (R_j is the element radius for a wall) */
    vec3 v_i, v_j, w_i, w_j;
    int wall;
    const hm_law *law; /* the pair of materials */
    real rho_i, rho_j; /* [M/L^3] densities (rho_j unused for a wall) */
} hm_pair;

/* Result: force on i (j gets -f), torques on i and on j. */
typedef struct {
    vec3 f, t_i, t_j;
    real delta;        /* [L] overlap, Eq. 7 */
    real R_eff;        /* [L] R*, Eq. 17 */
    real k_tangent;    /* [M/T^2] d|f_n|/d delta of the spring (hm_contact only; a servo wall's
                        * control reads it) */
    real c_n;          /* [M/T] normal dashpot (hm_contact only) */
} hm_result;

/* Derives every pair's constants from the materials and pair values. */
void hm_params_init(hm_params *hp, const grains_params *p);

/* The law of particle materials a and b, or of particle material a and a
 * wall of material b (GRAINS_RIGID for none). */
static inline const hm_law *hm_law_pp(const hm_params *hp, int a, int b) { return &hp->pp[a][b]; }
static inline const hm_law *hm_law_pw(const hm_params *hp, int a, int b) { return &hp->pw[a][b + 1]; }

/* Which friction modes act in some pair of the run (a static coefficient
 * above 0 between materials that touch, or with a wall): a mode that acts
 * in none keeps no spring. */
void hm_spring_modes(const hm_params *hp, int *sliding, int *rolling, int *twisting);

/* Whether the vector kernel (contact/lanes.c) composes the run's
 * sub-models: no JKR, no van der Waals, a rolling model of the lanes. */
int hm_lanes_compose(const hm_params *hp);

/* Whether the materials but 0 are all copies of it whose grains stay put
 * (grains_material.fixed): each pair that touches has material 0's law,
 * and the force loop's lanes take them (interact/force_lanes.c). */
int hm_fixed_copies(const hm_params *hp);

/* The largest gap at which a contact of particles of radius at most R_max
 * still holds (JKR; 0 for the others). */
real hm_max_hold_gap(const hm_params *hp, real R_max);

/* How far apart the surfaces of a pair whose contact holds (hp->holds, a
 * contact with a history) may be and still touch: the gap at which it
 * snaps, by the pair's work of adhesion (contact/cohesion_jkr.h). */
static inline real hm_hold_gap(const hm_law *law, real R_i, real R_j, int wall)
{
    return jkr_snap_gap(law->coeff[COEFF_JKR_W], wall ? R_i : R_i * R_j / (R_i + R_j), law->E_eff);
}

/* How far beyond touching a pair's cohesion law pulls (0: none), the
 * farthest of any pair (the lists' pad), and the pair's pull across gap s
 * (negative: an overlap) between radii R_i and R_j (a wall: R_j unused), a
 * magnitude along the line of centres (contact/van_der_waals.h; the law's
 * cut-off resolved by hm_params_init). */
static inline real hm_pair_attraction_reach(const hm_law *law)
{
    return vdw_reach(law->coeff[COEFF_VDW_A], law->coeff[COEFF_VDW_CUTOFF]);
}
static inline real hm_attraction_reach(const hm_params *hp) { return hp->attraction_reach; }
static inline real hm_attraction(const hm_law *law, real R_i, real R_j, int wall, real s)
{
    return vdw_attraction(law->coeff[COEFF_VDW_A], law->coeff[COEFF_VDW_DELTA0], law->coeff[COEFF_VDW_CUTOFF], R_i,
                          R_j, wall, s);
}

/* The linear law's coefficients of the pair (contact/normal_linear.h). */
__attribute__((always_inline)) static inline linear_coeffs hm_linear_coeffs(const hm_law *law)
{
    const linear_coeffs lc = {law->coeff[COEFF_LINEAR_K_N], law->coeff[COEFF_LINEAR_V0],
                              law->coeff[COEFF_LINEAR_OVERLAP_TOL]};
    return lc;
}

/* The linear law's springs and dashpots of the pair, its normal spring
 * found as `kn_kind` says (LINEAR_KN_*, a constant where a loop is compiled
 * for it), or as the pair's coefficients say (-1). */
__attribute__((always_inline)) static inline coefficients hm_linear_coefficients_in(const hm_law *law, real R_eff,
                                                                                   real m_eff, real R_small,
                                                                                   const int kn_kind)
{
    const linear_coeffs lc = hm_linear_coeffs(law);
    real kn = kn_kind < 0 ? linear_kn(&lc, law->E_eff, R_eff, m_eff, R_small)
                          : linear_kn_by(&lc, kn_kind, law->E_eff, R_eff, m_eff, R_small);
    return linear_springs(kn, law->kt_over_kn, law->beta, m_eff);
}
static inline coefficients hm_linear_coefficients(const hm_law *law, real R_eff, real m_eff, real R_small)
{
    return hm_linear_coefficients_in(law, R_eff, m_eff, R_small, -1);
}

/* The normal law as the implicit rows see it (a spring without adhesion):
 * its coefficients at overlap delta (c.kn the spring's f / delta; R_small
 * the smaller radius, or a wall's particle's), its stiffness d f / d delta,
 * and its potential at stiffness k (contact/normal_linear.h, normal_hertz.h). */
static inline coefficients hm_normal_spring(const hm_params *hp, const hm_law *law, real R_eff, real m_eff, real delta,
                                            real R_small)
{
    return hp->normal == HM_NORMAL_LINEAR ? hm_linear_coefficients(law, R_eff, m_eff, R_small)
                                          : contact_coefficients(law, R_eff, m_eff, fmax(delta, 0));
}
static inline real hm_normal_stiffness(const hm_params *hp, const coefficients *c)
{
    return hp->normal == HM_NORMAL_LINEAR ? linear_stiffness(c) : hertz_stiffness(c);
}
static inline real hm_normal_energy(const hm_params *hp, real k, real delta)
{
    return hp->normal == HM_NORMAL_LINEAR ? linear_energy(k, delta) : hertz_energy(k, delta);
}

/* Eq. 21: beta = 1 / sqrt(1 + (pi / ln e_n)^2); 1 at e_n = 0, 0 at e_n = 1. */
real hm_beta(real e_n);

/* hm_contact(hp, pair, history, result) evaluates one overlapping contact
 * (the caller checked |x_ij| < R_i + R_j) and advances its springs by one
 * step. It is defined inline in contact/hertz_mindlin_kernel.h so that the
 * force loop can keep the state in registers. */
#include "contact/hertz_mindlin_kernel.h"

#endif
