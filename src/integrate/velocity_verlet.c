/* Velocity Verlet for translation and rotation (improved-velocity-Verlet
 * paper, Section 3.1): half kick and drift before the forces (Eqs. 8-9),
 * half kick after (Eqs. 19-20). Which velocities the contact law sees, and
 * against which normal, is the kernel's business (hp->half_step). The force
 * sums carry a(t) from one step's second kick to the next step's first.
 * Accelerations as Euler's (TinyDEM Eqs. 1-4, integrate/motion_rates.h).
 *
 * As in integrate/euler_spiral.c the particles go in runs of CHUNK: a run
 * of one material in the world frame takes loops without branches, which
 * gcc vectorises, its turns too where all lie where quat_turn uses its
 * series; any other run the general loop. Both compute the same operations
 * in the same order: the same bits (tests/test_lanes.c). */
#include <math.h>

#include "integrate/integrator.h"
#include "integrate/motion_rates.h"
#include "math/quat.h"
#include "util/loops.h"

#define CHUNK 256

static void drift_any(grains_particles *pt, const grains_params *p, const material_motion *motion, long lo, long hi)
{
    const real dt = p->dt, half = dt / 2;
    const vec3 zero = {0, 0, 0};
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
        pt->f[i] = pt->t[i] = zero; /* ready for this step's sums */
        pt->v[i] = v3_axpy(pt->v[i], half, a);             /* Eq. 8 */
        pt->w[i] = v3_axpy(pt->w[i], half, alpha);
        pt->x[i] = v3_axpy(pt->x[i], dt, pt->v[i]);        /* Eq. 9 */
        pt->q[i] = quat_spiral(pt->q[i], dt, pt->w[i], zero, body_frame); /* exact rotation by w(t + dt/2) dt */
    }
}

/* [lo, hi) of one material as drift_any computes it there, in a loop
 * without branches: the turns by the series ("only when w is not zero" a
 * select), each turn's quaternion kept; where some turn was too large for
 * the series, those of the run are taken again from the kept ones, each as
 * quat_spiral takes it. */
static void drift_lanes(grains_particles *pt, const grains_params *p, const material_motion *mm, long lo, long hi)
{
    const real dt = p->dt, half = dt / 2;
    const vec3 g = p->g, zero = {0, 0, 0};
    const real *restrict R = pt->R;
    vec3 *restrict x = pt->x, *restrict v = pt->v, *restrict w = pt->w, *restrict f = pt->f, *restrict t = pt->t;
    quat *restrict q = pt->q, kept[CHUNK];
    int small = 1;
    LOOP_INDEPENDENT
    for (long i = lo; i < hi; i++) {
        motion_rates r = motion_rates_of(mm, R[i]);
        vec3 a = linear_acceleration(&r, f[i], g, v[i]);
        vec3 alpha = angular_acceleration(&r, t[i], w[i]);
        f[i] = zero;
        t[i] = zero;
        vec3 v_i = v3_axpy(v[i], half, a), w_i = v3_axpy(w[i], half, alpha); /* Eq. 8 */
        v[i] = v_i;
        w[i] = w_i;
        x[i] = v3_axpy(x[i], dt, v_i);                                          /* Eq. 9 */
        real w2 = v3_dot(w_i, w_i);
        quat q_i = q[i];
        kept[i - lo] = q_i;
        small &= quat_turn_is_small(half, w2);
        q[i] = quat_select(w2 > 0, quat_mul(quat_turn_small(half, w_i, w2), q_i), q_i);
    }
    if (!small)
        for (long i = lo; i < hi; i++)
            q[i] = quat_spiral(kept[i - lo], dt, w[i], zero, 0);
}

static void kick_any(grains_particles *pt, const grains_params *p, const material_motion *motion, long lo, long hi)
{
    const real half = p->dt / 2;
    for (long i = lo; i < hi; i++) {
        const material_motion *mm = &motion[pt->mat[i]];
        if (mm->fixed) /* held by the drift */
            continue;
        motion_rates r = motion_rates_of(mm, pt->R[i]);
        vec3 a = linear_acceleration(&r, pt->f[i], p->g, pt->v[i]);
        vec3 alpha = angular_acceleration(&r, pt->t[i], pt->w[i]);
        pt->v[i] = v3_axpy(pt->v[i], half, a);             /* Eq. 20 */
        pt->w[i] = v3_axpy(pt->w[i], half, alpha);
    }
}

/* kick_any for one material: its rates from a constant, not a gather. */
static void kick_lanes(grains_particles *pt, const grains_params *p, const material_motion *mm, long lo, long hi)
{
    const real half = p->dt / 2;
    const vec3 g = p->g;
    const real *restrict R = pt->R;
    vec3 *restrict v = pt->v, *restrict w = pt->w;
    const vec3 *restrict f = pt->f, *restrict t = pt->t;
    LOOP_INDEPENDENT
    for (long i = lo; i < hi; i++) {
        motion_rates r = motion_rates_of(mm, R[i]);
        vec3 a = linear_acceleration(&r, f[i], g, v[i]);
        vec3 alpha = angular_acceleration(&r, t[i], w[i]);
        v[i] = v3_axpy(v[i], half, a);                     /* Eq. 20 */
        w[i] = v3_axpy(w[i], half, alpha);
    }
}

static real speeds_max(const grains_particles *pt, long lo, long hi, real max_v2)
{
    for (long i = lo; i < hi; i++)
        max_v2 = speed2_max(max_v2, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i]));
    return max_v2;
}

typedef void (*run_fn)(grains_particles *pt, const grains_params *p, const material_motion *motion, long lo,
                       long hi);

/* The view's particles in runs of CHUNK (this thread's part: integrate_chunks), each by
 * `lanes` where the run has one material (run_material), else by `any`;
 * notes the largest squared speed after them. */
static void in_runs(const integrate_view *view, run_fn lanes, run_fn any, real *max_v2_out)
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
            lanes(pt, p, mm, lo, hi);
        else
            any(pt, p, view->motion, lo, hi);
        max_v2 = speeds_max(pt, lo, hi, max_v2);
    }
    *max_v2_out = max_v2;
}

void integrate_verlet_drift(const integrate_view *view, real *max_v2_out)
{
    in_runs(view, drift_lanes, drift_any, max_v2_out);
}

/* The speed it notes is that of the step's end: positions stay, so the
 * displacement bound does not take it (update_moves = 0), but the next
 * step's last good copy (sim/last_good.c) and the check for a non-finite
 * state do. */
void integrate_verlet_kick(const integrate_view *view, real *max_v2_out)
{
    in_runs(view, kick_lanes, kick_any, max_v2_out);
}
