/* One step of the variational integrator (variational-integrator paper,
 * Section 2, Algorithm 1), alpha = 0 or 1/2 (Eq. 2). With the forced
 * discrete Legendre transforms of the discrete Lagrange-d'Alembert principle
 * (Eq. 4; Kane et al. 2000, the paper's [18]),
 *   p_k   = -D1 L_d(q_k, q_k+1) - Q_d^-(q_k, q_k+1)      (Eq. 15: solved for q_k+1)
 *   p_k+1 =  D2 L_d(q_k, q_k+1) + Q_d^+(q_k, q_k+1)      (Eq. 16 with Q_d^+)
 * so that, with F = -dV/dq and Q the dashpots (Eqs. 5-6, 28):
 *   R(q) = p_k - M (q - q_k) / h + h [(1 - alpha) F(q_a) + Q(q_a, (q - q_k) / h) / 2] = 0
 *   p_k+1 = M (q_k+1 - q_k) / h + h [alpha F(q_a) + Q(q_k+1-alpha, (q_k+1 - q_k) / h) / 2]
 * with q_a = q_k+alpha, solved by Newton from Algorithm 1's guess
 * q_k + h p_k / m (integrate/implicit.c). This is Eqs. 29 and 31 with Eq. 14's
 * Q_d^p(q_k, p_k) taken as what Eq. 14 equates it with, Q_d^+(q_k-1, q_k),
 * carried in the momentum; the paper's evaluation of Q at (q_k, p_k / m)
 * makes the dashpots first order (measured: a damped oscillator's error fell
 * 12-fold for a 10x smaller h at alpha = 1/2; this form: second order).
 *
 * Without dashpots, alpha = 0 is symplectic (semi-implicit) Euler, TinyDEM's
 * scheme, and alpha = 1/2 the implicit midpoint rule: second order and
 * symplectic.
 *
 * Spins: the contacts are frictionless (the integrator needs a potential,
 * grains_params_check), so no torque acts and a spin only decays by Stokes
 * drag (Eq. 4, trapezoidal rule); the orientation turns with SPIRAL. */
#include <math.h>
#include <string.h>

#include "integrate/implicit.h"

typedef struct {
    real h, alpha;
} step_ctx;

/* The start: q_k kept, b = p_k, and Algorithm 1's first guess. */
static void start_team(grains_sim *sim, void *ctx)
{
    const step_ctx *c = ctx;
    sim_variational *vi = &sim->vi;
    grains_particles *pt = &sim->pt;
    const long n = (long)pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        vi->x0[i] = pt->x[i];
        vi->b[i] = v3_scale(implicit_mass(sim, (uint32_t)i), pt->v[i]);
        pt->x[i] = v3_axpy(pt->x[i], c->h, pt->v[i]);
    }
}

/* Where Q_d^+ takes Q, q_k+1-alpha, with the step's velocity in vq. */
static void end_point_team(grains_sim *sim, void *ctx)
{
    const step_ctx *c = ctx;
    sim_variational *vi = &sim->vi;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        vi->dq[i] = v3_sub(sim->pt.x[i], vi->x0[i]);
        vi->xa[i] = v3_axpy(vi->x0[i], 1 - c->alpha, vi->dq[i]);
        vi->vq[i] = v3_scale(1 / c->h, vi->dq[i]);
    }
}

/* p_k+1 with alpha F + Q / 2 in Ad, and the spins and orientations. */
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
        pt->v[i] = v3_axpy(vi->vq[i], h / m, vi->Ad[i]);
        real decay = h * 10 * implicit_drag(sim, (uint32_t)i) / 3; /* Eq. 4 */
        vec3 w = v3_scale((1 - decay / 2) / (1 + decay / 2), pt->w[i]);
        pt->q[i] = quat_spiral(pt->q[i], h, pt->w[i], v3_scale(1 / h, v3_sub(w, pt->w[i])),
                               sim->p.compat == GRAINS_COMPAT_TINYDEM);
        pt->w[i] = w;
    }
}

static real alpha_of(const grains_sim *sim)
{
    return sim->p.integrator == GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT ? 0.5 : 0;
}

/* The solve: q_k+1 in pt.x (q_k in vi.x0) and nothing else changed, or an
 * error with pt.x as it was. */
static grains_status solve(grains_sim *sim, grains_error *err)
{
    grains_status s = implicit_reserve(sim, err);
    if (s != GRAINS_OK)
        return s;
    const real alpha = alpha_of(sim);
    step_ctx c = {sim->p.dt, alpha};
    implicit_team(sim, start_team, &c);
    implicit_problem pb = {c.h, alpha, 1 - alpha, 0.5};
    if ((s = implicit_solve(sim, &pb, err)) != GRAINS_OK)
        memcpy(sim->pt.x, sim->vi.x0, sim->pt.n * sizeof *sim->pt.x); /* the step is not taken */
    return s;
}

/* Velocities, spins and orientations from the solve. */
static void finish(grains_sim *sim)
{
    sim_variational *vi = &sim->vi;
    const real alpha = alpha_of(sim);
    step_ctx c = {sim->p.dt, alpha};
    /* q_k+1-alpha is the solve's q_a at alpha = 1/2 (its contact set then), q_k+1 at 0 */
    implicit_team(sim, end_point_team, &c);
    implicit_forces(sim, vi->xa, vi->vq, alpha, 0.5, vi->Ad, alpha > 0 ? vi->frozen : 0, 0, 0);
    implicit_team(sim, end_team, &c);
    sim->displacement += implicit_max_norm(sim, vi->dq);
}

grains_status integrate_variational(grains_sim *sim, grains_error *err)
{
    grains_status s = solve(sim, err);
    if (s != GRAINS_OK)
        return s;
    force_diag total = sim->diag;
    sim->max_overlap = total.max_num / total.max_den;
    if (!sim_stable(sim, &total)) { /* only the positions have moved */
        memcpy(sim->pt.x, sim->vi.x0, sim->pt.n * sizeof *sim->pt.x);
        return sim_report_unstable(sim, &total, err);
    }
    finish(sim);
    if (sim->wl.n) /* the force of the particles on each mesh at the end of the step, q_k+1 and v_k+1 */
        implicit_forces(sim, sim->pt.x, sim->pt.v, 1, 1, sim->vi.r, IMPLICIT_WALLS, 0, 0);
    return GRAINS_OK;
}
