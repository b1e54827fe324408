/* One step of the variational integrator (variational-integrator paper,
 * Section 2, Algorithm 1), for any alpha of Eq. 2:
 *   b = p_k + h/2 Q(q_k, p_k / m)                          (Eqs. 14, 29)
 *   solve R(q_k+1) = 0 by Newton (Eqs. 17, 29-30, sim/implicit.c) with
 *   R(q) = b - M (q - q_k) / h + h [(1 - alpha) F(q_a) + Q(q_a, (q - q_k) / h) / 2]
 *   p_k+1 = M (q_k+1 - q_k) / h + h alpha F(q_a)           (Eq. 31)
 * from the guess q_k + h p_k / m. Without dashpots, alpha = 0 is symplectic
 * (semi-implicit) Euler, the same steps as TinyDEM's integrator, and
 * alpha = 1/2 the implicit midpoint rule: second order, symplectic.
 *
 * Spins: the contacts are frictionless (the integrator needs a potential,
 * grains_params_check), so no torque acts and a spin only decays by Stokes
 * drag (Eq. 4, trapezoidal rule); the orientation turns with SPIRAL. */
#include <math.h>
#include <string.h>

#include "sim/implicit.h"

typedef struct {
    real h, alpha;
} step_ctx;

/* b = m v_k + h/2 Q(q_k, v_k), from Q in b. */
static void start_momentum_team(grains_sim *sim, void *ctx)
{
    const step_ctx *c = ctx;
    sim_variational *vi = &sim->vi;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        vi->b[i] = v3_axpy(v3_scale(c->h / 2, vi->b[i]), implicit_mass(sim, (uint32_t)i), vi->v0[i]);
        sim->pt.x[i] = v3_axpy(vi->x0[i], c->h, vi->v0[i]); /* Algorithm 1's first guess */
    }
}

static void midpoint_team(grains_sim *sim, void *ctx)
{
    const step_ctx *c = ctx;
    sim_variational *vi = &sim->vi;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
        vi->xa[i] = v3_add(v3_scale(1 - c->alpha, vi->x0[i]), v3_scale(c->alpha, sim->pt.x[i]));
}

/* Eq. 31 with F(q_a) in Ad, and the spins and orientations. */
static void end_team(grains_sim *sim, void *ctx)
{
    const step_ctx *c = ctx;
    sim_variational *vi = &sim->vi;
    grains_particles *pt = &sim->pt;
    const real h = c->h;
    const long n = (long)pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = implicit_mass(sim, (uint32_t)i);
        vi->dq[i] = v3_sub(pt->x[i], vi->x0[i]);
        vec3 v = v3_scale(1 / h, vi->dq[i]);
        pt->v[i] = c->alpha > 0 ? v3_axpy(v, h * c->alpha / m, vi->Ad[i]) : v; /* Eq. 31 */
        real decay = h * 10 * implicit_drag(sim, (uint32_t)i) / 3;             /* Eq. 4 */
        vec3 w = v3_scale((1 - decay / 2) / (1 + decay / 2), pt->w[i]);
        pt->q[i] = quat_spiral(pt->q[i], h, pt->w[i], v3_scale(1 / h, v3_sub(w, pt->w[i])));
        pt->w[i] = w;
    }
}

grains_status sim_variational_step(grains_sim *sim, grains_error *err)
{
    grains_status s = implicit_reserve(sim, err);
    if (s != GRAINS_OK)
        return s;
    sim_variational *vi = &sim->vi;
    grains_particles *pt = &sim->pt;
    const real h = sim->p.dt;
    const real alpha = sim->p.integrator == GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT ? 0.5 : 0;
    step_ctx c = {h, alpha};
    memcpy(vi->x0, pt->x, pt->n * sizeof *pt->x);
    memcpy(vi->v0, pt->v, pt->n * sizeof *pt->v);
    implicit_forces(sim, vi->x0, vi->v0, 0, 1, vi->b, 0, 0, 0); /* Q(q_k, v_k) */
    implicit_team(sim, start_momentum_team, &c);
    implicit_problem pb = {h, alpha, 1 - alpha, 0.5};
    if ((s = implicit_solve(sim, &pb, err)) != GRAINS_OK) {
        memcpy(pt->x, vi->x0, pt->n * sizeof *pt->x); /* the step is not taken */
        return s;
    }
    if (alpha > 0) { /* F(q_a) at the converged q, for Eq. 31 */
        implicit_team(sim, midpoint_team, &c);
        implicit_forces(sim, vi->xa, vi->v0, 1, 0, vi->Ad, vi->frozen, 0, 0);
    }
    implicit_team(sim, end_team, &c);
    sim->displacement += implicit_max_norm(sim, vi->dq);
    return GRAINS_OK;
}
