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

#define PI 3.14159265358979323846

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
    hp->cs_over_cn = sqrt((1 - nu) / (10 * (2 - nu))); /* Eq. 25 */
    hp->mu_s = p->mu_s;
    hp->mu_r = p->mu_r;
    hp->mu_t = p->mu_t;
    hp->dt = p->dt;
    hp->increment_first = p->friction_order == GRAINS_FRICTION_INCREMENT_THEN_FORCE;
}

/* Spring and dashpot coefficients of one contact. */
typedef struct {
    real kn, ks, cn, cs;
} coefficients;

static coefficients contact_coefficients(const hm_params *hp, real R_eff, real m_eff, real delta, int wall)
{
    coefficients c;
    real a = sqrt(R_eff * delta);                         /* Eq. 14 */
    c.kn = (wall ? hp->kn_pw : hp->kn_pp) * a;            /* Eq. 12 */
    c.ks = (wall ? hp->ks_pw : hp->ks_pp) * a;            /* Eq. 13 */
    c.cn = sqrt(5 * m_eff * c.kn) * hp->beta;             /* Eq. 18 */
    c.cs = hp->cs_over_cn * c.cn;                         /* Eq. 25 (= Eq. 19) */
    return c;
}

/* Eq. 51: turn a spring into the tangent plane of n, keeping its length. */
static vec3 project_spring(vec3 u, vec3 n)
{
    real before = v3_norm(u);
    vec3 t = v3_axpy(u, -v3_dot(u, n), n);
    real after = v3_norm(t);
    return after > 0 ? v3_scale(before / after, t) : t;
}

/* Eqs. 11, 39, 53, 54 for a vector mode: clip |f| <= mu |f_n| and, when
 * sliding, reset the spring so that it reproduces the clipped force. */
static vec3 coulomb_vector(vec3 f, real mu, real fn_norm, real k, real c, vec3 v, vec3 *u)
{
    real f_norm = v3_norm(f);
    if (f_norm > mu * fn_norm) {
        f = v3_scale(mu * fn_norm / f_norm, f);           /* Eq. 53 */
        *u = v3_scale(-1 / k, v3_axpy(f, c, v));          /* Eq. 54 */
    }
    return f;
}

/* Eqs. 40, 53, 54 for twisting, in scalar form. */
static real coulomb_scalar(real f, real mu, real fn_norm, real k, real c, real v, real *u)
{
    real f_abs = fabs(f);
    if (f_abs > mu * fn_norm) {
        f = mu * fn_norm / f_abs * f;
        *u = -1 / k * (f + c * v);
    }
    return f;
}

static vec3 load3(const real *a) { return v3(a[0], a[1], a[2]); }
static void store3(real *a, vec3 v) { a[0] = v.x; a[1] = v.y; a[2] = v.z; }

void hm_contact(const hm_params *hp, const hm_pair *pr, hm_history *h, hm_result *out)
{
    /* Geometry, Eqs. 7-9 and 29-30; a wall is infinitely large and heavy. */
    real d = v3_norm(pr->x_ij);
    vec3 n = v3_scale(1 / d, pr->x_ij);
    real delta = pr->R_i + pr->R_j - d;
    real r_i = pr->R_i - delta / 2;
    real r_j = pr->R_j - delta / 2;
    real m_i = 4 * PI / 3 * hp->rho * pr->R_i * pr->R_i * pr->R_i;
    real R_eff, m_eff, r_roll;
    if (pr->wall) {
        R_eff = pr->R_i;                                  /* Eq. 17 with R_j = inf */
        m_eff = m_i;                                      /* Eq. 20 with m_j = inf */
        r_roll = r_i;                                     /* Eq. 36 with r_j = inf */
    } else {
        real m_j = 4 * PI / 3 * hp->rho * pr->R_j * pr->R_j * pr->R_j;
        R_eff = 1 / (1 / pr->R_i + 1 / pr->R_j);          /* Eq. 17 */
        m_eff = 1 / (1 / m_i + 1 / m_j);                  /* Eq. 20 */
        r_roll = 1 / (1 / r_i + 1 / r_j);                 /* Eq. 36 */
    }
    coefficients c = contact_coefficients(hp, R_eff, m_eff, delta, pr->wall);

    /* Relative velocities, Eqs. 26-28 (sign of r_j w_j: see file header), 36-38. */
    vec3 spin = pr->wall ? v3_scale(r_i, pr->w_i) : v3_add(v3_scale(r_i, pr->w_i), v3_scale(r_j, pr->w_j));
    vec3 v = v3_add(v3_sub(pr->v_i, pr->v_j), v3_cross(n, spin));
    vec3 v_n = v3_scale(v3_dot(v, n), n);
    vec3 v_s = v3_sub(v, v_n);
    vec3 w = v3_sub(pr->w_i, pr->w_j);
    vec3 v_r = v3_scale(r_roll, v3_cross(w, n));
    real v_t = R_eff * v3_dot(w, n);

    /* Springs projected onto the current tangent plane, Eq. 51. */
    vec3 u_s = project_spring(load3(h->us), n);
    vec3 u_r = project_spring(load3(h->ur), n);
    real u_t = h->ut;
    if (hp->increment_first) { /* Eq. 52 before the force */
        u_s = v3_axpy(u_s, hp->dt, v_s);
        u_r = v3_axpy(u_r, hp->dt, v_r);
        u_t += hp->dt * v_t;
    }

    /* Forces, Eqs. 5-6, 10, 34-35 with k_r = k_n, c_r = c_n, k_t = k_s, c_t = c_s. */
    vec3 f_n = v3_sub(v3_scale(c.kn * delta, n), v3_scale(c.cn, v_n));
    vec3 f_s = v3_sub(v3_scale(-c.ks, u_s), v3_scale(c.cs, v_s));
    vec3 f_r = v3_sub(v3_scale(-c.kn, u_r), v3_scale(c.cn, v_r));
    real f_t = -c.ks * u_t - c.cs * v_t;

    if (!hp->increment_first) { /* Eq. 52 after the force (TinyDEM) */
        u_s = v3_axpy(u_s, hp->dt, v_s);
        u_r = v3_axpy(u_r, hp->dt, v_r);
        u_t += hp->dt * v_t;
    }

    /* Coulomb's law for each mode on its own, Eqs. 11, 39, 40, 53, 54. */
    real fn_norm = v3_norm(f_n);
    f_s = coulomb_vector(f_s, hp->mu_s, fn_norm, c.ks, c.cs, v_s, &u_s);
    f_r = coulomb_vector(f_r, hp->mu_r, fn_norm, c.kn, c.cn, v_r, &u_r);
    f_t = coulomb_scalar(f_t, hp->mu_t, fn_norm, c.ks, c.cs, v_t, &u_t);
    store3(h->us, u_s);
    store3(h->ur, u_r);
    h->ut = u_t;

    /* Torques, Eqs. 31-33; on j by Eqs. 55-59 (tau_s scales with r_j / r_i). */
    vec3 fs_x_n = v3_cross(f_s, n);
    vec3 tau_rt = v3_add(v3_scale(R_eff, v3_cross(n, f_r)), v3_scale(f_t * R_eff, n));
    out->f = v3_add(f_n, f_s);
    out->t_i = v3_add(v3_scale(r_i, fs_x_n), tau_rt);
    out->t_j = pr->wall ? v3(0, 0, 0) : v3_sub(v3_scale(r_j, fs_x_n), tau_rt);
    out->delta = delta;
    out->R_eff = R_eff;
}
