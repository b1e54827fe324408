/* The Hertz-Mindlin contact of TinyDEM as an inline kernel: a pure function
 * of the run's constants, one contact's geometry and its spring history
 * (TinyDEM Eqs. 5-40, 50-54; see hertz_mindlin.c for the departures from the
 * printed paper). Included by hertz_mindlin.h only. */
#ifndef GRAINS_CONTACT_HERTZ_MINDLIN_KERNEL_H
#define GRAINS_CONTACT_HERTZ_MINDLIN_KERNEL_H

#include <math.h>

#include "contact/friction_spring.h"

/* The branches of the kernel that depend on the run's sub-models: read
 * from hm_params at run time (hm_case_of), or constants where a loop is
 * compiled for one case (contact/lanes.c), so that the compiler can drop
 * the others and evaluate several contacts at once in vector registers. */
typedef struct {
    int normal;          /* HM_NORMAL_* */
    int half_step;       /* improved velocity Verlet */
    int increment_first; /* Eq. 52 before the force */
    int linear_kn;       /* how the linear law finds its spring: LINEAR_KN_*, or -1 as each pair says */
} hm_case;

static inline hm_case hm_case_of(const hm_params *hp)
{
    hm_case c = {hp->normal, hp->half_step, hp->increment_first, -1};
    return c;
}

static inline vec3 load3(const real *a) { return v3(a[0], a[1], a[2]); }
static inline void store3(real *a, vec3 v) { a[0] = v.x; a[1] = v.y; a[2] = v.z; }

/* The geometry and relative motion of one contact (or bond). */
typedef struct {
    vec3 n, n_v;       /* unit normal, and the one the velocities are measured against */
    real delta;        /* [L] overlap, Eq. 7 (negative: apart) */
    real r_i, r_j;     /* [L] centre to contact point */
    real R_eff, m_eff, r_roll;
    real v_n, v_t;     /* normal and twisting velocities */
    vec3 v_s, v_r;     /* sliding and rolling velocities */
} hm_motion;

__attribute__((always_inline)) static inline hm_motion hm_relative_motion(const hm_params *hp, const hm_pair *pr,
                                                                            const int half_step)
{
    hm_motion k;
    /* Geometry, Eqs. 7-9 and 29-30; a wall is infinitely large and heavy. */
    real d = v3_norm(pr->x_ij);
    k.n = v3_scale(1 / d, pr->x_ij);
    k.delta = pr->R_i + pr->R_j - d;
    k.r_i = pr->R_i - k.delta / 2;
    k.r_j = pr->R_j - k.delta / 2;
    real V_i = pr->R_i * pr->R_i * pr->R_i;               /* m = 4/3 pi rho R^3 */
    if (pr->wall) {
        k.R_eff = pr->R_i;                                /* Eq. 17 with R_j = inf */
        k.m_eff = 4 * HM_PI / 3 * pr->rho_i * V_i;        /* Eq. 20 with m_j = inf */
        k.r_roll = k.r_i;                                 /* Eq. 36 with r_j = inf */
    } else {
        real V_j = pr->R_j * pr->R_j * pr->R_j;
        k.R_eff = pr->R_i * pr->R_j / (pr->R_i + pr->R_j); /* Eq. 17 */
        if (pr->rho_i == pr->rho_j)                       /* Eq. 20 */
            k.m_eff = 4 * HM_PI / 3 * pr->rho_i * (V_i * V_j / (V_i + V_j));
        else if (isinf(pr->rho_j))                        /* a grain that stays put: m_j = inf */
            k.m_eff = 4 * HM_PI / 3 * pr->rho_i * V_i;
        else if (isinf(pr->rho_i))
            k.m_eff = 4 * HM_PI / 3 * pr->rho_j * V_j;
        else
            k.m_eff = 4 * HM_PI / 3 * (pr->rho_i * V_i * (pr->rho_j * V_j) / (pr->rho_i * V_i + pr->rho_j * V_j));
        k.r_roll = k.r_i * k.r_j / (k.r_i + k.r_j);       /* Eq. 36 */
    }

    /* The velocities are measured against n, or with the improved velocity
     * Verlet against the half-step normal n' from x(t + dt) - dt/2 v(t + dt/2),
     * in phase with the half-step velocities (improved-velocity-Verlet
     * paper, Section 4). */
    vec3 v_ij = v3_sub(pr->v_i, pr->v_j);
    k.n_v = k.n;
    if (half_step) {
        vec3 x_half = v3_axpy(pr->x_ij, -hp->dt / 2, v_ij);
        k.n_v = v3_scale(1 / v3_norm(x_half), x_half);
    }

    /* Relative velocities, Eqs. 26-28 (sign of r_j w_j: see file header), 36-38. */
    vec3 spin = pr->wall ? v3_scale(k.r_i, pr->w_i) : v3_add(v3_scale(k.r_i, pr->w_i), v3_scale(k.r_j, pr->w_j));
    vec3 v = v3_add(v_ij, v3_cross(k.n_v, spin));
    k.v_n = v3_dot(v, k.n_v);
    k.v_s = v3_axpy(v, -k.v_n, k.n_v);
    vec3 w = v3_sub(pr->w_i, pr->w_j);
    k.v_r = v3_scale(k.r_roll, v3_cross(w, k.n_v));
    k.v_t = k.R_eff * v3_dot(w, k.n_v);
    return k;
}

/* The torque of a rolling force f_r at the contact, R* n x f_r (Eq. 33). */
static inline vec3 rolling_torque(const hm_motion *k, vec3 f_r) { return v3_scale(k->R_eff, v3_cross(k->n, f_r)); }

/* Force and torques of the four modes, Eqs. 31-33, the rolling torque
 * tau_r given; on j by Eqs. 55-59 (tau_s scales with r_j / r_i). */
__attribute__((always_inline)) static inline void hm_compose(const hm_motion *k, real f_n, vec3 f_s, vec3 tau_r,
                                                             real f_t, int wall, hm_result *out)
{
    vec3 fs_x_n = v3_cross(f_s, k->n);
    vec3 tau_rt = v3_add(tau_r, v3_scale(f_t * k->R_eff, k->n));
    out->f = v3_axpy(f_s, f_n, k->n);
    out->t_i = v3_add(v3_scale(k->r_i, fs_x_n), tau_rt);
    out->t_j = wall ? v3(0, 0, 0) : v3_sub(v3_scale(k->r_j, fs_x_n), tau_rt);
    out->delta = k->delta;
    out->R_eff = k->R_eff;
}

/* The normal sub-model's springs and dashpots, and the elastic normal force
 * (with JKR's adhesion when chosen). */
__attribute__((always_inline)) static inline coefficients normal_part(const hm_pair *pr, const hm_motion *k,
                                                                      const int normal, const int linear_kn,
                                                                      real *f_elastic)
{
    const hm_law *law = pr->law;
    coefficients c;
    if (normal == HM_NORMAL_JKR) {
        real W = law->coeff[COEFF_JKR_W];
        real a = jkr_contact_radius(W, k->R_eff, law->E_eff, k->delta);
        c = hertz_coefficients_at(law, a, k->m_eff);
        *f_elastic = jkr_force(W, k->R_eff, law->E_eff, a);
    } else if (normal == HM_NORMAL_LINEAR) {
        real R_small = pr->wall || pr->R_i < pr->R_j ? pr->R_i : pr->R_j; /* (fmin is a call: no vectors) */
        c = hm_linear_coefficients_in(law, k->R_eff, k->m_eff, R_small, linear_kn);
        *f_elastic = c.kn * k->delta;
    } else {
        c = contact_coefficients(law, k->R_eff, k->m_eff, k->delta);
        *f_elastic = c.kn * k->delta;                      /* Eq. 5 */
    }
    return c;
}

/* Type C's rolling torque for this contact (rolling_type_c.h); the spring
 * u_r holds the relative rotation. */
static inline vec3 type_c_part(const hm_params *hp, const hm_pair *pr, const hm_motion *k, vec3 n, real kn,
                               real load, vec3 *u_r)
{
    const hm_law *law = pr->law;
    vec3 w = v3_sub(pr->w_i, pr->w_j);
    vec3 w_r = v3_axpy(w, -v3_dot(w, n), n);
    real k_r = 2.25 * kn * law->mu_r * law->mu_r * k->R_eff * k->R_eff;
    real J_i = type_c_inertia(pr->rho_i, pr->R_i);
    real I_r = pr->wall ? J_i : 1 / (1 / J_i + 1 / type_c_inertia(pr->rho_j, pr->R_j));
    real c_r = law->coeff[COEFF_TYPE_C_DAMPING] * 2 * sqrt(I_r * k_r);
    return type_c_torque(u_r, w_r, k_r, c_r, law->mu_r * k->R_eff * load, law->mu_r_dyn * k->R_eff * load, hp->dt,
                         hp->increment_first);
}

/* A spring-form rolling model's spring k_r, dashpot c_r and the rolling
 * velocity v_r they act on (contact/rolling.h): the TinyDEM spring's k_n,
 * c_n and r_roll (w_i - w_j) x n (Eqs. 34, 36), or the model's own. */
__attribute__((always_inline)) static inline void hm_rolling_spring(const hm_pair *pr, const hm_motion *k,
                                                                    const coefficients *c, const int model,
                                                                    real *k_r, real *c_r, vec3 *v_r)
{
    if (model == GRAINS_ROLLING_SDS) { /* (the pair's k_roll and gamma_roll) */
        sds_coeffs sds = {pr->law->coeff[COEFF_SDS_K_ROLL], pr->law->coeff[COEFF_SDS_GAMMA_ROLL]};
        sds_spring(&sds, k->R_eff, v3_sub(pr->w_i, pr->w_j), k->n_v, k_r, c_r, v_r);
        return;
    }
    *k_r = c->kn, *c_r = c->cn, *v_r = k->v_r;
}

/* One contact, composed from the run's sub-models: normal (with damping
 * and cohesion), sliding, rolling, twisting, in the case cs. `extended` (a
 * constant where it is inlined) admits the sub-models beyond TinyDEM's and
 * the linear law: the rolling models but the spring, and JKR; the common
 * run's loop is compiled without them. */
__attribute__((always_inline)) static inline void hm_contact_in(const hm_params *hp, const hm_case cs,
                                                                const hm_pair *pr, hm_history *h, hm_result *out,
                                                                const int extended)
{
    const int rolling = extended ? hp->rolling_model : GRAINS_ROLLING_SPRING;
    const int type_c = rolling == GRAINS_ROLLING_TYPE_C, jkr = extended && cs.normal == HM_NORMAL_JKR;
    hm_motion k = hm_relative_motion(hp, pr, cs.half_step);
    const vec3 n = k.n, n_v = k.n_v;
    const real v_n = k.v_n, v_t = k.v_t;
    vec3 v_s = k.v_s, v_r;
    const hm_law *law = pr->law;
    real f_elastic;
    const int normal = jkr ? HM_NORMAL_JKR : cs.normal == HM_NORMAL_LINEAR ? HM_NORMAL_LINEAR : HM_NORMAL_HERTZ;
    coefficients c = normal_part(pr, &k, normal, cs.linear_kn, &f_elastic);
    real k_r, c_r;
    hm_rolling_spring(pr, &k, &c, rolling, &k_r, &c_r, &v_r);

    /* Springs projected onto the current tangent plane, Eq. 51 (the half-
     * step plane first with the improved Verlet). */
    vec3 u_s = project_spring(load3(h->us), n_v);
    vec3 u_r = project_spring(load3(h->ur), n_v);
    real u_t = h->ut;
    if (cs.increment_first) { /* Eq. 52 before the force */
        u_s = v3_axpy(u_s, hp->dt, v_s);
        if (!type_c)
            u_r = v3_axpy(u_r, hp->dt, v_r);
        u_t += hp->dt * v_t;
    }
    if (cs.half_step) { /* springs and damping velocities to the full-step plane, rescaled */
        u_s = project_spring(u_s, n);
        u_r = project_spring(u_r, n);
        v_s = project_spring(v_s, n);
        v_r = project_spring(v_r, n);
    }

    /* Forces, Eqs. 5-6, 10, 34-35 with k_t = k_s, c_t = c_s (and the rolling
     * model's k_r, c_r: TinyDEM's k_n, c_n). f_n lies along n, so |f_n| is
     * the magnitude of its scalar factor. */
    real f_n = f_elastic - c.cn * v_n;
    vec3 f_s = v3_sub(v3_scale(-c.ks, u_s), v3_scale(c.cs, v_s));
    vec3 f_r = type_c ? v3(0, 0, 0) : v3_sub(v3_scale(-k_r, u_r), v3_scale(c_r, v_r));
    real f_t = -c.ks * u_t - c.cs * v_t;

    if (!cs.increment_first) { /* Eq. 52 after the force (TinyDEM) */
        u_s = v3_axpy(u_s, hp->dt, v_s);
        if (!type_c)
            u_r = v3_axpy(u_r, hp->dt, v_r);
        u_t += hp->dt * v_t;
    }

    /* Coulomb's law for each mode on its own, Eqs. 11, 39, 40, 53, 54; the
     * load of an adhesive contact is |f_n + 2 F_c| (cohesion_jkr.h). */
    real load = jkr ? fabs(f_n + 2 * jkr_pull_off(law->coeff[COEFF_JKR_W], k.R_eff)) : fabs(f_n);
    f_s = coulomb_vector(f_s, law->mu_s, law->mu_s_dyn, load, c.ks, c.cs, v_s, &u_s);
    if (!type_c)
        f_r = coulomb_vector(f_r, law->mu_r, law->mu_r_dyn, load, k_r, c_r, v_r, &u_r);
    f_t = coulomb_scalar(f_t, law->mu_t, law->mu_t_dyn, load, c.ks, c.cs, v_t, &u_t);
    vec3 tau_r = type_c ? type_c_part(hp, pr, &k, n, c.kn, load, &u_r) : rolling_torque(&k, f_r);
    store3(h->us, u_s);
    store3(h->ur, u_r);
    h->ut = u_t;

    hm_compose(&k, f_n, f_s, tau_r, f_t, pr->wall, out);
    out->k_tangent = cs.normal == HM_NORMAL_LINEAR ? linear_stiffness(&c) : hertz_stiffness(&c);
    out->c_n = c.cn;
}

/* One contact in the run's case (hertz_mindlin.h). */
__attribute__((always_inline)) static inline void hm_contact(const hm_params *hp, const hm_pair *pr, hm_history *h,
                                                             hm_result *out, const int extended)
{
    hm_contact_in(hp, hm_case_of(hp), pr, h, out, extended);
}

#endif
