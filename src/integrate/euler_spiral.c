/* Semi-implicit Euler for translation and rotation with the SPIRAL quaternion
 * update (TinyDEM Eqs. 41-48), Stokes drag from one viscosity (Eqs. 3-4).
 *
 * The particles go in runs of CHUNK. A run of one material in the world
 * frame takes a loop without branches, which gcc vectorises, its turns by
 * the series where every SPIRAL angle lies where quat_turn uses them (every
 * run of a dense pack: the angles are ~1e-4); any other run takes the
 * general loop. Both compute the same operations in the same order: the
 * same bits (tests/test_lanes.c). */
#include <math.h>

#include "integrate/integrator.h"
#include "integrate/motion_rates.h"
#include "math/quat.h"
#include "util/loops.h"

#define CHUNK 256

/* The general loop: any materials (those that stay put too), any angles,
 * either frame. */
static void update_any(grains_particles *pt, const grains_params *p, const material_motion *motion, long lo,
                       long hi)
{
    const real dt = p->dt;
    const int body_frame = p->compat == GRAINS_COMPAT_TINYDEM;
    for (long i = lo; i < hi; i++) {
        const material_motion *mm = &motion[pt->mat[i]];
        if (held_in_place(pt, mm, i)) { /* a grain that stays put, or moves at its material's velocity */
            pt->x[i] = v3_axpy(pt->x[i], dt, pt->v[i]);
            continue;
        }
        motion_rates r = motion_rates_of(mm, pt->R[i]);
        vec3 a = linear_acceleration(&r, pt->f[i], p->g, pt->v[i]);
        vec3 alpha = angular_acceleration(&r, pt->t[i], pt->w[i]);
        pt->f[i] = pt->t[i] = v3(0, 0, 0); /* ready for the next step's sums */
        pt->v[i] = v3_axpy(pt->v[i], dt, a);                           /* Eq. 43 */
        pt->x[i] = v3_axpy(pt->x[i], dt, pt->v[i]);                    /* Eq. 44, new velocity */
        pt->q[i] = quat_spiral(pt->q[i], dt, pt->w[i], alpha, body_frame); /* Eqs. 46-48, before Eq. 45 */
        pt->w[i] = v3_axpy(pt->w[i], dt, alpha);                       /* Eq. 45 */
    }
}

/* The inputs of a run's turns, kept in case one is too large for the series. */
typedef struct {
    quat q[CHUNK];
    vec3 w[CHUNK], alpha[CHUNK];
} turns_kept;

/* [lo, hi) of one material in the world frame as update_any computes it
 * there, in a loop without branches: quat_spiral's "only when its vector
 * is non-zero" is a select, the turns are series, and the turns' inputs
 * are kept; where some SPIRAL angle was too large for the series, the run's
 * turns are taken again from them, each as quat_spiral takes it. */
static void update_lanes(grains_particles *pt, const grains_params *p, const material_motion *mm, long lo,
                         long hi)
{
    const real dt = p->dt;
    const vec3 g = p->g, zero = {0, 0, 0};
    const real *restrict R = pt->R;
    vec3 *restrict x = pt->x, *restrict v = pt->v, *restrict w = pt->w, *restrict f = pt->f, *restrict t = pt->t;
    quat *restrict q = pt->q;
    turns_kept kept;
    int small = 1;
    LOOP_INDEPENDENT
    for (long i = lo; i < hi; i++) {
        motion_rates r = motion_rates_of(mm, R[i]);
        vec3 v_i = v[i], w_i = w[i];
        vec3 a = linear_acceleration(&r, f[i], g, v_i);                /* Eq. 41 */
        vec3 alpha = angular_acceleration(&r, t[i], w_i);              /* Eq. 42 */
        real alpha2 = v3_dot(alpha, alpha), w2 = v3_dot(w_i, w_i);
        f[i] = zero;
        t[i] = zero;
        v_i = v3_axpy(v_i, dt, a);                                     /* Eq. 43 */
        v[i] = v_i;
        x[i] = v3_axpy(x[i], dt, v_i);                                 /* Eq. 44 */
        quat q_i = q[i];                                               /* Eqs. 46-48 */
        kept.q[i - lo] = q_i, kept.w[i - lo] = w_i, kept.alpha[i - lo] = alpha;
        small &= quat_turn_is_small(dt * dt / 4, alpha2) & quat_turn_is_small(dt / 2, w2);
        q_i = quat_select(alpha2 > 0, quat_mul(quat_turn_small(dt * dt / 4, alpha, alpha2), q_i), q_i);
        q[i] = quat_select(w2 > 0, quat_mul(quat_turn_small(dt / 2, w_i, w2), q_i), q_i);
        w[i] = v3_axpy(w_i, dt, alpha);                                /* Eq. 45 */
    }
    if (!small)
        for (long i = lo; i < hi; i++)
            q[i] = quat_spiral(kept.q[i - lo], dt, kept.w[i - lo], kept.alpha[i - lo], 0);
}

void integrate_euler_spiral(const integrate_view *view, real *max_v2_out)
{
    grains_particles *pt = view->pt;
    const grains_params *p = view->p;
    const long first = (long)view->lo, n = (long)view->hi, n_chunks = (n - first + CHUNK - 1) / CHUNK;
    real max_v2 = 0;
    long c0, c1;
    integrate_chunks(view, n_chunks, &c0, &c1);
    for (long c = c0; c < c1; c++) {
        long lo = first + c * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
        const material_motion *mm = run_material(pt, p, view->motion, lo, hi);
        if (mm)
            update_lanes(pt, p, mm, lo, hi);
        else
            update_any(pt, p, view->motion, lo, hi);
        for (long i = lo; i < hi; i++) {
            max_v2 = speed2_max(max_v2, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i]));
        }
    }
    *max_v2_out = max_v2;
}
