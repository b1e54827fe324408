/* Visco-elastic Hertz-Mindlin contact with sliding, rolling and twisting
 * friction, TinyDEM Eqs. 5-40 and 50-54. One function serves particle-particle
 * and particle-wall contacts; the wall convention (R_j = E_j = m_j = inf) is
 * applied once, in hm_params_init and the geometry step. */
#ifndef GRAINS_CONTACT_HERTZ_MINDLIN_H
#define GRAINS_CONTACT_HERTZ_MINDLIN_H

#include "grains/params.h"
#include "math/vec3.h"

/* Constants fixed for the run, derived once from the material. */
typedef struct {
    real rho;            /* [M/L^3] */
    real kn_pp, ks_pp;   /* 4/3 E* and 8 G* for two particles (Eqs. 12-13, 22-23) */
    real kn_pw, ks_pw;   /* the same against a wall: E* = E/(1-nu^2), G* = G/(2-nu) */
    real beta;           /* damping factor, Eq. 21 */
    real cs_over_cn_pp;  /* sqrt((1-nu) / (10 (2-nu))), Eq. 25, or sqrt(k_s / k_n) for */
    real cs_over_cn_pw;  /*   hertz_restitution (improved-velocity-Verlet Section 5.1) */
    real mu_s, mu_r, mu_t;
    real mu_s_dyn, mu_r_dyn, mu_t_dyn; /* Luding's dynamic coefficients (= static for TinyDEM) */
    real dt;
    int increment_first; /* GRAINS_FRICTION_INCREMENT_THEN_FORCE, or a Verlet integrator */
    int half_step;       /* improved velocity Verlet: velocities and springs in the half-step plane */
    /* Linear spring-dashpot model (improved-velocity-Verlet paper Eqs. 1, 6, 27, 31) */
    int linear;
    real k_n;            /* [M/T^2] fixed normal stiffness, or 0 */
    real V0;             /* [L/T] impact velocity of Eqs. 1 and 27 */
    real overlap_tol;    /* [-] Eq. 27's overlap / smaller diameter, or 0 for Eq. 1 */
    real E_pp, E_pw;     /* E* of two particles and of a particle and a wall */
    real kt_over_kn;     /* Eq. 6: 2 (1 - nu) / (2 - nu) */
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
} hm_pair;

/* Result: force on i (j gets -f), torques on i and on j. */
typedef struct {
    vec3 f, t_i, t_j;
    real delta;        /* [L] overlap, Eq. 7 */
    real R_eff;        /* [L] R*, Eq. 17 */
} hm_result;

void hm_params_init(hm_params *hp, const grains_params *p);

/* Eq. 21: beta = 1 / sqrt(1 + (pi / ln e_n)^2); 1 at e_n = 0, 0 at e_n = 1. */
real hm_beta(real e_n);

/* Eq. 1: the linear stiffness whose contact time matches Hertz's at V0. */
real hm_linear_kn_hertz(real m_eff, real E_eff, real R_eff, real V0);

/* hm_contact(hp, pair, history, result) evaluates one overlapping contact
 * (the caller checked |x_ij| < R_i + R_j) and advances its springs by one
 * step. It is defined inline in contact/hertz_mindlin_kernel.h so that the
 * force loop can keep the state in registers. */
#include "contact/hertz_mindlin_kernel.h"

#endif
