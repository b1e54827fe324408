/* Relaxation to a static packing: the variational integrator's quasi-static
 * limit (variational-integrator paper Section 2 with the inertia of the
 * step before dropped: p_k = 0, alpha = 1, no dashpots). Each pseudo-step
 * solves R(q) = -M (q - q_k) / h + h F(q) = 0 (integrate/implicit.h with b = 0,
 * w_c = 1, w_q = 0), the stationary point of V(q) + |q - q_k|^2_M / (2 h^2):
 * a proximal step, so V never rises, and a fixed point is a static packing,
 * F(q) = 0. */
#include <math.h>
#include <string.h>

#include "integrate/implicit.h"

#define GROW 2            /* h after a quick step */
#define SHRINK 4          /* h after a refused one */
#define QUICK_NEWTON 4    /* Newton iterations of a quick step */

/* Largest |net force| over the particles, per weight (or per the largest
 * contact force without gravity), at the current positions. */
static double imbalance(implicit_solver *s, const implicit_field *f, const integrate_view *v)
{
    const grains_particles *pt = v->pt;
    implicit_eval e = {pt->x, pt->v, 1, 0, s->r, 0, 0, 0, NULL};
    real max_force = f->forces(f->self, &e);
    real g = v3_norm(v->p->g), worst = 0;
    for (uint32_t i = 0; i < pt->n; i++) {
        real ref = g > 0 ? particle_mass(v, i) * g : max_force;
        if (ref > 0)
            worst = fmax(worst, v3_norm(s->r[i]) / ref);
    }
    return worst;
}

/* One pseudo-step of h from the current positions; 0 when refused (Newton
 * failed, or a particle moved more than skin/4: the lists may miss a contact),
 * the positions then as they were. */
static int pseudo_step(implicit_solver *s, const implicit_field *f, const integrate_view *v, real h, int *newton,
                       real *moved)
{
    grains_particles *pt = v->pt;
    memcpy(s->x0, pt->x, pt->n * sizeof *pt->x);
    memset(s->b, 0, pt->n * sizeof *s->b);
    implicit_problem pb = {h, 1, 1, 0};
    grains_error ignored;
    int ok = implicit_solve(s, f, v, &pb, &ignored) == GRAINS_OK;
    for (size_t i = 0; i < pt->n; i++)
        s->dq[i] = v3_sub(pt->x[i], s->x0[i]);
    *moved = implicit_max_norm(pt->n, s->dq);
    *newton = s->newton_last;
    if (ok && *moved <= v->p->skin / 4)
        return 1;
    memcpy(pt->x, s->x0, pt->n * sizeof *pt->x);
    return 0;
}

grains_status implicit_relax(implicit_solver *s, const implicit_field *f, const integrate_view *v,
                             double force_tol, long max_steps, grains_relax_result *out, grains_error *err)
{
    const grains_params *p = v->p;
    grains_status st = f->refresh(f->self, 0, err);
    if (st == GRAINS_OK)
        st = implicit_reserve(s, v->pt->n, err);
    if (st != GRAINS_OK)
        return st;
    out->energy_start = f->energy(f->self);
    real h = p->dt;
    while ((out->imbalance = imbalance(s, f, v)) > force_tol && out->steps < max_steps) {
        int newton;
        real moved;
        if (!pseudo_step(s, f, v, h, &newton, &moved)) {
            if ((h /= SHRINK) < p->dt / 1e6)
                return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                                        "relaxation: no pseudo-step down to %g s converges (Newton, newton_tol = %g)",
                                        h, p->newton_tol);
            continue;
        }
        out->steps++;
        out->newton += newton;
        if (newton <= QUICK_NEWTON && moved < p->skin / 8)
            h *= GROW;
        if ((st = f->refresh(f->self, moved, err)) != GRAINS_OK)
            return st;
    }
    out->converged = out->imbalance <= force_tol;
    out->energy_end = f->energy(f->self);
    return GRAINS_OK;
}
