/* A sphere's rates of motion from its radius and material: inverse mass and
 * moment of inertia, and the Stokes drag rates of TinyDEM Eqs. 3-4, with
 * the accelerations they give (Eqs. 41-42). Euler's and Verlet's loops take
 * them from here, so that both compute the same operations in one order. */
#ifndef GRAINS_INTEGRATE_MOTION_RATES_H
#define GRAINS_INTEGRATE_MOTION_RATES_H

#include "integrate/integrator.h"
#include "math/vec3.h"

typedef struct {
    real inv_m, inv_I, c, gamma;
} motion_rates;

__attribute__((always_inline)) static inline motion_rates motion_rates_of(const material_motion *mm, real R)
{
    motion_rates r;
    real inv_R = 1 / R;
    r.inv_m = mm->inv_rho_volume * inv_R * inv_R * inv_R; /* m = 4/3 pi rho R^3 */
    r.inv_I = 2.5 * r.inv_m * inv_R * inv_R;              /* I = 2/5 m R^2 */
    r.c = mm->drag * inv_R * inv_R;                       /* Eq. 3: 9 eta / (2 rho R^2) */
    r.gamma = 10 * r.c / 3;                               /* Eq. 4 */
    return r;
}

/* The one material every particle of a run has, for the loops without
 * branches (in the world frame: compat = "tinydem" turns in the body's),
 * or NULL: the general loops. (Material 0, the only one then, never stays
 * put: grains_material.fixed is a listed material's.) */
static inline const material_motion *one_material(const grains_params *p, const material_motion *motion)
{
    return p->n_materials == 1 && p->compat != GRAINS_COMPAT_TINYDEM ? motion : NULL;
}

/* The same for the particles [lo, hi) of a run of several materials: material 0
 * where they are all of it (a run of grains that stay put, say, whose others
 * lie elsewhere), else NULL. The two kinds of loop give the same bits. */
static inline const material_motion *run_material(const grains_particles *pt, const grains_params *p,
                                                  const material_motion *motion, long lo, long hi)
{
    const material_motion *one = one_material(p, motion);
    if (one || p->compat == GRAINS_COMPAT_TINYDEM)
        return one;
    for (long i = lo; i < hi; i++)
        if (pt->mat[i] != 0)
            return NULL;
    return motion;
}

/* f / m + g - c v (Eq. 41). */
static inline vec3 linear_acceleration(const motion_rates *r, vec3 f, vec3 g, vec3 v)
{
    return v3_sub(v3_add(v3_scale(r->inv_m, f), g), v3_scale(r->c, v));
}

/* t / I - gamma w (Eq. 42). */
static inline vec3 angular_acceleration(const motion_rates *r, vec3 t, vec3 w)
{
    return v3_sub(v3_scale(r->inv_I, t), v3_scale(r->gamma, w));
}

#endif
