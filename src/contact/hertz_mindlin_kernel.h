/* The Hertz-Mindlin contact of TinyDEM as an inline kernel: a pure function
 * of the run's constants, one contact's geometry and its spring history
 * (TinyDEM Eqs. 5-40, 50-54; see hertz_mindlin.c for the departures from the
 * printed paper). Included by hertz_mindlin.h only. */
#ifndef GRAINS_CONTACT_HERTZ_MINDLIN_KERNEL_H
#define GRAINS_CONTACT_HERTZ_MINDLIN_KERNEL_H

#include <math.h>

#define HM_PI 3.14159265358979323846

/* Spring and dashpot coefficients of one contact. */
typedef struct {
    real kn, ks, cn, cs;
} coefficients;

static inline coefficients contact_coefficients(const hm_law *law, real R_eff, real m_eff, real delta)
{
    coefficients c;
    real a = sqrt(R_eff * delta);                         /* Eq. 14 */
    c.kn = law->kn * a;                                   /* Eq. 12 */
    c.ks = law->ks * a;                                   /* Eq. 13 */
    c.cn = sqrt(5 * m_eff * c.kn) * law->beta;            /* Eq. 18 */
    c.cs = law->cs_over_cn * c.cn;                        /* Eq. 25 (= Eq. 19) */
    return c;
}

/* The linear spring-dashpot of the improved-velocity-Verlet paper: k_n
 * fixed, from the tolerated overlap (Eq. 27: k_n = m* V0^2 / delta^2), or
 * matching Hertz's contact time at V0 (Eq. 1); k_t by Eq. 6; damping by
 * Eq. 31, sqrt(4 m* k_n / (1 + (pi / ln e)^2)) = 2 beta sqrt(m* k_n), the
 * tangential one scaled by sqrt(k_t / k_n) (Section 5.1). */
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

/* Eq. 51: turn a spring into the tangent plane of n, keeping its length.
 * (One square root: |u| / |t| = sqrt(|u|^2 / |t|^2).) */
static inline vec3 project_spring(vec3 u, vec3 n)
{
    real un = v3_dot(u, n);
    if (un == 0)
        return u;
    vec3 t = v3_axpy(u, -un, n);
    real after2 = v3_dot(t, t);
    return after2 > 0 ? v3_scale(sqrt(v3_dot(u, u) / after2), t) : t;
}

/* Eqs. 11, 39, 53, 54 for a vector mode: when the trial force breaks the
 * static limit mu |f_n| it slides: the force is clipped to mu_dyn |f_n|
 * and the spring reset so that it reproduces the clipped force. With
 * mu_dyn = mu this is TinyDEM; mu_dyn < mu is Luding's (2008) static and
 * dynamic friction as libgran has it. Compared in squares so that the root
 * is taken only when sliding. */
static inline vec3 coulomb_vector(vec3 f, real mu, real mu_dyn, real fn_norm, real k, real c, vec3 v, vec3 *u)
{
    real f2 = v3_dot(f, f), limit = mu * fn_norm;
    if (f2 > limit * limit) {
        f = v3_scale(mu_dyn * fn_norm / sqrt(f2), f);     /* Eq. 53 */
        *u = v3_scale(-1 / k, v3_axpy(f, c, v));          /* Eq. 54 */
    }
    return f;
}

/* Eqs. 40, 53, 54 for twisting, in scalar form. */
static inline real coulomb_scalar(real f, real mu, real mu_dyn, real fn_norm, real k, real c, real v, real *u)
{
    real f_abs = fabs(f);
    if (f_abs > mu * fn_norm) {
        f = mu_dyn * fn_norm / f_abs * f;
        *u = -1 / k * (f + c * v);
    }
    return f;
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

__attribute__((always_inline)) static inline hm_motion hm_relative_motion(const hm_params *hp, const hm_pair *pr)
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
    if (hp->half_step) {
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

/* Force and torques of the four modes, Eqs. 31-33; on j by Eqs. 55-59
 * (tau_s scales with r_j / r_i). */
__attribute__((always_inline)) static inline void hm_compose(const hm_motion *k, real f_n, vec3 f_s, vec3 f_r, real f_t,
                                                             int wall, hm_result *out)
{
    vec3 fs_x_n = v3_cross(f_s, k->n);
    vec3 tau_rt = v3_add(v3_scale(k->R_eff, v3_cross(k->n, f_r)), v3_scale(f_t * k->R_eff, k->n));
    out->f = v3_axpy(f_s, f_n, k->n);
    out->t_i = v3_add(v3_scale(k->r_i, fs_x_n), tau_rt);
    out->t_j = wall ? v3(0, 0, 0) : v3_sub(v3_scale(k->r_j, fs_x_n), tau_rt);
    out->delta = k->delta;
    out->R_eff = k->R_eff;
}

__attribute__((always_inline)) static inline void hm_contact(const hm_params *hp, const hm_pair *pr, hm_history *h, hm_result *out)
{
    hm_motion k = hm_relative_motion(hp, pr);
    const vec3 n = k.n, n_v = k.n_v;
    const real delta = k.delta, v_n = k.v_n, v_t = k.v_t;
    vec3 v_s = k.v_s, v_r = k.v_r;
    const hm_law *law = pr->law;
    coefficients c = hp->linear ? linear_coefficients(hp, law, k.R_eff, k.m_eff,
                                                      pr->wall ? pr->R_i : fmin(pr->R_i, pr->R_j))
                                : contact_coefficients(law, k.R_eff, k.m_eff, delta);

    /* Springs projected onto the current tangent plane, Eq. 51 (the half-
     * step plane first with the improved Verlet). */
    vec3 u_s = project_spring(load3(h->us), n_v);
    vec3 u_r = project_spring(load3(h->ur), n_v);
    real u_t = h->ut;
    if (hp->increment_first) { /* Eq. 52 before the force */
        u_s = v3_axpy(u_s, hp->dt, v_s);
        u_r = v3_axpy(u_r, hp->dt, v_r);
        u_t += hp->dt * v_t;
    }
    if (hp->half_step) { /* springs and damping velocities to the full-step plane, rescaled */
        u_s = project_spring(u_s, n);
        u_r = project_spring(u_r, n);
        v_s = project_spring(v_s, n);
        v_r = project_spring(v_r, n);
    }

    /* Forces, Eqs. 5-6, 10, 34-35 with k_r = k_n, c_r = c_n, k_t = k_s, c_t = c_s.
     * f_n lies along n, so |f_n| is the magnitude of its scalar factor. */
    real f_n = c.kn * delta - c.cn * v_n;
    vec3 f_s = v3_sub(v3_scale(-c.ks, u_s), v3_scale(c.cs, v_s));
    vec3 f_r = v3_sub(v3_scale(-c.kn, u_r), v3_scale(c.cn, v_r));
    real f_t = -c.ks * u_t - c.cs * v_t;

    if (!hp->increment_first) { /* Eq. 52 after the force (TinyDEM) */
        u_s = v3_axpy(u_s, hp->dt, v_s);
        u_r = v3_axpy(u_r, hp->dt, v_r);
        u_t += hp->dt * v_t;
    }

    /* Coulomb's law for each mode on its own, Eqs. 11, 39, 40, 53, 54. */
    real fn_norm = fabs(f_n);
    f_s = coulomb_vector(f_s, law->mu_s, law->mu_s_dyn, fn_norm, c.ks, c.cs, v_s, &u_s);
    f_r = coulomb_vector(f_r, law->mu_r, law->mu_r_dyn, fn_norm, c.kn, c.cn, v_r, &u_r);
    f_t = coulomb_scalar(f_t, law->mu_t, law->mu_t_dyn, fn_norm, c.ks, c.cs, v_t, &u_t);
    store3(h->us, u_s);
    store3(h->ur, u_r);
    h->ut = u_t;

    hm_compose(&k, f_n, f_s, f_r, f_t, pr->wall, out);
    out->k_tangent = hp->linear ? c.kn : 1.5 * c.kn; /* Hertz: k delta^(3/2) */
    out->c_n = c.cn;
}

#endif
