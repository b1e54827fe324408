/* Velocity Verlet for translation and rotation (improved-velocity-Verlet
 * paper, Section 3.1): half kick and drift before the forces (Eqs. 8-9),
 * half kick after (Eqs. 19-20). Which velocities the contact law sees, and
 * against which normal, is the kernel's business (hp->half_step). The force
 * sums carry a(t) from one step's second kick to the next step's first. */
#include <math.h>

#include "integrate/integrator.h"
#include "math/quat.h"


/* Acceleration and angular acceleration of particle i from its sums, gravity
 * and Stokes drag (TinyDEM Eqs. 1-4, as in integrate_euler_spiral). */
static inline void accelerations(const grains_particles *pt, const grains_params *p, const material_motion *motion,
                                 long i, vec3 *a, vec3 *alpha)
{
    const real inv_rho_volume = motion[pt->mat[i]].inv_rho_volume, drag = motion[pt->mat[i]].drag;
    real inv_R = 1 / pt->R[i];
    real inv_m = inv_rho_volume * inv_R * inv_R * inv_R; /* m = 4/3 pi rho R^3 */
    real inv_I = 2.5 * inv_m * inv_R * inv_R;            /* I = 2/5 m R^2 */
    real c = drag * inv_R * inv_R;                       /* Eq. 3 */
    *a = v3_sub(v3_add(v3_scale(inv_m, pt->f[i]), p->g), v3_scale(c, pt->v[i]));
    *alpha = v3_sub(v3_scale(inv_I, pt->t[i]), v3_scale(10 * c / 3, pt->w[i])); /* Eq. 4 */
}

void integrate_verlet_drift(const integrate_view *view, real *max_v2_out)
{
    grains_particles *pt = view->pt;
    const grains_params *p = view->p;
    const material_motion *motion = view->motion;
    const real dt = p->dt, half = dt / 2;
    const vec3 zero = {0, 0, 0};
    const int body_frame = p->compat == GRAINS_COMPAT_TINYDEM;
    real max_v2 = 0;
    const long n = (long)view->hi;
#pragma omp for schedule(static)
    for (long i = (long)view->lo; i < n; i++) {
        vec3 a, alpha;
        accelerations(pt, p, motion, i, &a, &alpha);
        pt->f[i] = pt->t[i] = zero; /* ready for this step's sums */
        pt->v[i] = v3_axpy(pt->v[i], half, a);             /* Eq. 8 */
        pt->w[i] = v3_axpy(pt->w[i], half, alpha);
        pt->x[i] = v3_axpy(pt->x[i], dt, pt->v[i]);        /* Eq. 9 */
        pt->q[i] = quat_spiral(pt->q[i], dt, pt->w[i], zero, body_frame); /* exact rotation by w(t + dt/2) dt */
        max_v2 = speed2_max(max_v2, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i]));
    }
    *max_v2_out = max_v2;
}

/* The speed it notes is that of the step's end: positions stay, so the
 * displacement bound does not take it (update_moves = 0), but the next
 * step's last good copy (sim/last_good.c) and the check for a non-finite
 * state do. */
void integrate_verlet_kick(const integrate_view *view, real *max_v2_out)
{
    grains_particles *pt = view->pt;
    const grains_params *p = view->p;
    const material_motion *motion = view->motion;
    const real half = p->dt / 2;
    const long n = (long)view->hi;
    real max_v2 = 0;
#pragma omp for schedule(static)
    for (long i = (long)view->lo; i < n; i++) {
        vec3 a, alpha;
        accelerations(pt, p, motion, i, &a, &alpha);
        pt->v[i] = v3_axpy(pt->v[i], half, a);             /* Eq. 20 */
        pt->w[i] = v3_axpy(pt->w[i], half, alpha);
        max_v2 = speed2_max(max_v2, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i]));
    }
    *max_v2_out = max_v2;
}
