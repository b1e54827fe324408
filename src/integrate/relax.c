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
static double imbalance(grains_sim *sim)
{
    sim_variational *vi = &sim->vi;
    implicit_forces(sim, sim->pt.x, sim->pt.v, 1, 0, vi->r, 0, 0, 0);
    sim->diag = sim_reduce_diag(sim);
    real g = v3_norm(sim->p.g), worst = 0;
    for (uint32_t i = 0; i < sim->pt.n; i++) {
        real ref = g > 0 ? implicit_mass(sim, i) * g : sim->diag.max_force;
        if (ref > 0)
            worst = fmax(worst, v3_norm(vi->r[i]) / ref);
    }
    return worst;
}

/* One pseudo-step of h from the current positions; 0 when refused (Newton
 * failed, or a particle moved more than skin/4: the lists may miss a contact),
 * the positions then as they were. */
static int pseudo_step(grains_sim *sim, real h, int *newton, real *moved)
{
    sim_variational *vi = &sim->vi;
    grains_particles *pt = &sim->pt;
    memcpy(vi->x0, pt->x, pt->n * sizeof *pt->x);
    memset(vi->b, 0, pt->n * sizeof *vi->b);
    implicit_problem pb = {h, 1, 1, 0};
    grains_error ignored;
    int ok = implicit_solve(sim, &pb, &ignored) == GRAINS_OK;
    for (size_t i = 0; i < pt->n; i++)
        vi->dq[i] = v3_sub(pt->x[i], vi->x0[i]);
    *moved = implicit_max_norm(sim, vi->dq);
    *newton = vi->newton_last;
    if (ok && *moved <= sim->p.skin / 4)
        return 1;
    memcpy(pt->x, vi->x0, pt->n * sizeof *pt->x);
    return 0;
}

static grains_status lists(grains_sim *sim, grains_error *err)
{
    grains_status s = GRAINS_OK;
    if (sim->need_rebuild || sim->displacement > sim->p.skin / 2)
        s = sim_rebuild(sim, err);
    return s == GRAINS_OK ? implicit_reserve(sim, err) : s;
}

grains_status grains_sim_relax(grains_sim *sim, double force_tol, long max_steps, grains_relax_result *out,
                               grains_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(force_tol > 0 && force_tol < 1) || max_steps < 1)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "relaxation: force_tol = %g must be in (0, 1) and max_steps = %ld >= 1", force_tol,
                                max_steps);
    if (sim->bonds.n > 0 || sim->p.bond_tolerance > 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "relaxation minimises a potential, but bonds' springs depend on the path and have none");
    grains_status s = lists(sim, err);
    if (s != GRAINS_OK)
        return s;
    out->energy_start = implicit_energy(sim);
    real h = sim->p.dt;
    while ((out->imbalance = imbalance(sim)) > force_tol && out->steps < max_steps) {
        int newton;
        real moved;
        if (!pseudo_step(sim, h, &newton, &moved)) {
            if ((h /= SHRINK) < sim->p.dt / 1e6)
                return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                                        "relaxation: no pseudo-step down to %g s converges (Newton, newton_tol = %g)",
                                        h, sim->p.newton_tol);
            continue;
        }
        out->steps++;
        out->newton += newton;
        sim->displacement += moved;
        if (newton <= QUICK_NEWTON && moved < sim->p.skin / 8)
            h *= GROW;
        if ((s = lists(sim, err)) != GRAINS_OK)
            return s;
    }
    out->converged = out->imbalance <= force_tol;
    out->energy_end = implicit_energy(sim);
    memset(sim->pt.v, 0, sim->pt.n * sizeof *sim->pt.v);
    memset(sim->pt.w, 0, sim->pt.n * sizeof *sim->pt.w);
    sim->max_overlap = sim->diag.max_num / sim->diag.max_den;
    if (sim->wl.n) /* the static load on each mesh */
        implicit_forces(sim, sim->pt.x, sim->pt.v, 1, 0, sim->vi.r, IMPLICIT_WALLS, 0, 0);
    return GRAINS_OK;
}
