/* Semi-implicit Euler for translation and rotation with the SPIRAL quaternion
 * update (TinyDEM Eqs. 41-48), Stokes drag from one viscosity (Eqs. 3-4). */
#include <math.h>

#include "integrate/integrator.h"
#include "math/quat.h"


void integrate_euler_spiral(const integrate_view *view, real *max_v2_out)
{
    grains_particles *pt = view->pt;
    const grains_params *p = view->p;
    const material_motion *motion = view->motion;
    const real dt = p->dt;
    const vec3 g = p->g;
    const int body_frame = p->compat == GRAINS_COMPAT_TINYDEM;
    real max_v2 = 0;
    const long n = (long)pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        const material_motion *mm = &motion[pt->mat[i]];
        const real inv_rho_volume = mm->inv_rho_volume, drag = mm->drag;
        real inv_R = 1 / pt->R[i];
        real inv_m = inv_rho_volume * inv_R * inv_R * inv_R;           /* m = 4/3 pi rho R^3 */
        real inv_I = 2.5 * inv_m * inv_R * inv_R;                      /* I = 2/5 m R^2 */
        real c = drag * inv_R * inv_R;                                 /* Eq. 3: 9 eta / (2 rho R^2) */
        real gamma = 10 * c / 3;                                       /* Eq. 4 */
        vec3 a = v3_sub(v3_add(v3_scale(inv_m, pt->f[i]), g), v3_scale(c, pt->v[i]));     /* Eq. 41 */
        vec3 alpha = v3_sub(v3_scale(inv_I, pt->t[i]), v3_scale(gamma, pt->w[i]));         /* Eq. 42 */
        pt->f[i] = pt->t[i] = v3(0, 0, 0); /* ready for the next step's sums */
        pt->v[i] = v3_axpy(pt->v[i], dt, a);                           /* Eq. 43 */
        pt->x[i] = v3_axpy(pt->x[i], dt, pt->v[i]);                    /* Eq. 44, new velocity */
        pt->q[i] = quat_spiral(pt->q[i], dt, pt->w[i], alpha, body_frame);         /* Eqs. 46-48, before Eq. 45 */
        pt->w[i] = v3_axpy(pt->w[i], dt, alpha);                       /* Eq. 45 */
        real v2 = v3_dot(pt->v[i], pt->v[i]);
        if (v2 > max_v2)
            max_v2 = v2;
    }
    *max_v2_out = max_v2;
}
