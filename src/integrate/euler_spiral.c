/* Semi-implicit Euler for translation and rotation with the SPIRAL quaternion
 * update (TinyDEM Eqs. 41-48), Stokes drag from one viscosity (Eqs. 3-4).
 *
 * The particles go in runs of CHUNK. A run of one material whose SPIRAL
 * angles all lie where quat_turn uses its series (every run of a dense
 * pack: the angles are ~1e-4) takes a loop without branches, which gcc
 * vectorises; any other run takes the general loop. Both compute the same
 * operations in the same order: the same bits (tests/test_lanes.c). */
#include <math.h>

#include "integrate/integrator.h"
#include "math/quat.h"
#include "util/loops.h"

#define CHUNK 256

/* Particle i's inverse mass and moment of inertia, translational and
 * rotational drag rates (Eqs. 3-4), from its radius and material. */
typedef struct {
    real inv_m, inv_I, c, gamma;
} euler_rates;

__attribute__((always_inline)) static inline euler_rates rates_of(const material_motion *mm, real R)
{
    euler_rates r;
    real inv_R = 1 / R;
    r.inv_m = mm->inv_rho_volume * inv_R * inv_R * inv_R;             /* m = 4/3 pi rho R^3 */
    r.inv_I = 2.5 * r.inv_m * inv_R * inv_R;                          /* I = 2/5 m R^2 */
    r.c = mm->drag * inv_R * inv_R;                                   /* Eq. 3: 9 eta / (2 rho R^2) */
    r.gamma = 10 * r.c / 3;                                           /* Eq. 4 */
    return r;
}

static inline vec3 angular_acceleration(const euler_rates *r, vec3 t, vec3 w)
{
    return v3_sub(v3_scale(r->inv_I, t), v3_scale(r->gamma, w));       /* Eq. 42 */
}

/* The general loop: any materials, any angles, either frame. */
static void update_any(grains_particles *pt, const grains_params *p, const material_motion *motion, long lo,
                       long hi)
{
    const real dt = p->dt;
    const int body_frame = p->compat == GRAINS_COMPAT_TINYDEM;
    for (long i = lo; i < hi; i++) {
        euler_rates r = rates_of(&motion[pt->mat[i]], pt->R[i]);
        vec3 a = v3_sub(v3_add(v3_scale(r.inv_m, pt->f[i]), p->g), v3_scale(r.c, pt->v[i])); /* Eq. 41 */
        vec3 alpha = angular_acceleration(&r, pt->t[i], pt->w[i]);
        pt->f[i] = pt->t[i] = v3(0, 0, 0); /* ready for the next step's sums */
        pt->v[i] = v3_axpy(pt->v[i], dt, a);                           /* Eq. 43 */
        pt->x[i] = v3_axpy(pt->x[i], dt, pt->v[i]);                    /* Eq. 44, new velocity */
        pt->q[i] = quat_spiral(pt->q[i], dt, pt->w[i], alpha, body_frame); /* Eqs. 46-48, before Eq. 45 */
        pt->w[i] = v3_axpy(pt->w[i], dt, alpha);                       /* Eq. 45 */
    }
}

/* Whether update_lanes may take [lo, hi): world frame, one material, and
 * every SPIRAL angle small enough for quat_turn's series. */
static int lanes_fit(const grains_particles *pt, const grains_params *p, const material_motion *mm, long lo,
                     long hi)
{
    if (p->compat == GRAINS_COMPAT_TINYDEM || p->n_materials != 1)
        return 0;
    const real dt = p->dt;
    int small = 1;
    for (long i = lo; i < hi; i++) {
        euler_rates r = rates_of(mm, pt->R[i]);
        vec3 alpha = angular_acceleration(&r, pt->t[i], pt->w[i]);
        small &= quat_turn_is_small(dt * dt / 4, v3_dot(alpha, alpha)) &
                 quat_turn_is_small(dt / 2, v3_dot(pt->w[i], pt->w[i]));
    }
    return small;
}

/* [lo, hi) as update_any computes it there, without branches: quat_spiral's
 * "only when its vector is non-zero" is a select, the turns are series. */
static void update_lanes(grains_particles *pt, const grains_params *p, const material_motion *mm, long lo,
                         long hi)
{
    const real dt = p->dt;
    const vec3 g = p->g, zero = {0, 0, 0};
    const real *restrict R = pt->R;
    vec3 *restrict x = pt->x, *restrict v = pt->v, *restrict w = pt->w, *restrict f = pt->f, *restrict t = pt->t;
    quat *restrict q = pt->q;
    LOOP_INDEPENDENT
    for (long i = lo; i < hi; i++) {
        euler_rates r = rates_of(mm, R[i]);
        vec3 v_i = v[i], w_i = w[i];
        vec3 a = v3_sub(v3_add(v3_scale(r.inv_m, f[i]), g), v3_scale(r.c, v_i)); /* Eq. 41 */
        vec3 alpha = angular_acceleration(&r, t[i], w_i);
        real alpha2 = v3_dot(alpha, alpha), w2 = v3_dot(w_i, w_i);
        f[i] = zero;
        t[i] = zero;
        v_i = v3_axpy(v_i, dt, a);                                     /* Eq. 43 */
        v[i] = v_i;
        x[i] = v3_axpy(x[i], dt, v_i);                                 /* Eq. 44 */
        quat q_i = q[i];                                               /* Eqs. 46-48 */
        q_i = alpha2 > 0 ? quat_mul(quat_turn_small(dt * dt / 4, alpha, alpha2), q_i) : q_i;
        q[i] = w2 > 0 ? quat_mul(quat_turn_small(dt / 2, w_i, w2), q_i) : q_i;
        w[i] = v3_axpy(w_i, dt, alpha);                                /* Eq. 45 */
    }
}

void integrate_euler_spiral(const integrate_view *view, real *max_v2_out)
{
    grains_particles *pt = view->pt;
    const grains_params *p = view->p;
    const long first = (long)view->lo, n = (long)view->hi, n_chunks = (n - first + CHUNK - 1) / CHUNK;
    real max_v2 = 0;
#pragma omp for schedule(static)
    for (long c = 0; c < n_chunks; c++) {
        long lo = first + c * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
        if (lanes_fit(pt, p, view->motion, lo, hi))
            update_lanes(pt, p, view->motion, lo, hi);
        else
            update_any(pt, p, view->motion, lo, hi);
        for (long i = lo; i < hi; i++) {
            max_v2 = speed2_max(max_v2, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i]));
        }
    }
    *max_v2_out = max_v2;
}
