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
#include "math/quat.h"

typedef struct {
    implicit_solver *s;
    const integrate_view *v;
    real h, alpha;
} step_ctx;

/* The start: q_k kept, b = p_k, and Algorithm 1's first guess. */
static void start_team(void *ctx)
{
    const step_ctx *c = ctx;
    implicit_solver *s = c->s;
    grains_particles *pt = c->v->pt;
    const long n = (long)pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        s->x0[i] = pt->x[i];
        s->b[i] = v3_scale(particle_mass(c->v, (uint32_t)i), pt->v[i]);
        pt->x[i] = v3_axpy(pt->x[i], c->h, pt->v[i]);
    }
}

/* Where Q_d^+ takes Q, q_k+1-alpha, with the step's velocity in vq. */
static void end_point_team(void *ctx)
{
    const step_ctx *c = ctx;
    implicit_solver *s = c->s;
    const vec3 *x = c->v->pt->x;
    const long n = (long)c->v->pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        s->dq[i] = v3_sub(x[i], s->x0[i]);
        s->xa[i] = v3_axpy(s->x0[i], 1 - c->alpha, s->dq[i]);
        s->vq[i] = v3_scale(1 / c->h, s->dq[i]);
    }
}

/* p_k+1 with alpha F + Q / 2 in Ad, and the spins and orientations. */
static void end_team(void *ctx)
{
    const step_ctx *c = ctx;
    const implicit_solver *s = c->s;
    grains_particles *pt = c->v->pt;
    const real h = c->h;
    const int body_frame = c->v->p->compat == GRAINS_COMPAT_TINYDEM;
    const long n = (long)pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = particle_mass(c->v, (uint32_t)i);
        pt->v[i] = v3_axpy(s->vq[i], h / m, s->Ad[i]);
        real decay = h * 10 * particle_drag(c->v, (uint32_t)i) / 3; /* Eq. 4 */
        vec3 w = v3_scale((1 - decay / 2) / (1 + decay / 2), pt->w[i]);
        pt->q[i] = quat_spiral(pt->q[i], h, pt->w[i], v3_scale(1 / h, v3_sub(w, pt->w[i])), body_frame);
        pt->w[i] = w;
    }
}

/* The solve: q_k+1 in pt.x (q_k in s.x0) and nothing else changed, or an
 * error with pt.x as it was. */
static grains_status solve(step_ctx *c, const implicit_field *f, grains_error *err)
{
    grains_particles *pt = c->v->pt;
    grains_status st = implicit_reserve(c->s, pt->n, err);
    if (st != GRAINS_OK)
        return st;
    implicit_team(f->nthreads, start_team, c);
    implicit_problem pb = {c->h, c->alpha, 1 - c->alpha, 0.5};
    if ((st = implicit_solve(c->s, f, c->v, &pb, err)) != GRAINS_OK)
        memcpy(pt->x, c->s->x0, pt->n * sizeof *pt->x); /* the step is not taken */
    return st;
}

/* Velocities, spins and orientations from the solve. */
static void finish(step_ctx *c, const implicit_field *f)
{
    implicit_solver *s = c->s;
    /* q_k+1-alpha is the solve's q_a at alpha = 1/2 (its contact set then), q_k+1 at 0 */
    implicit_team(f->nthreads, end_point_team, c);
    implicit_eval e = {s->xa, s->vq, c->alpha, 0.5, s->Ad, c->alpha > 0 ? s->frozen : 0, 0, 0, NULL};
    f->forces(f->self, &e);
    implicit_team(f->nthreads, end_team, c);
}

grains_status integrate_variational(implicit_solver *s, const implicit_field *f, const integrate_view *v,
                                    real *moved, grains_error *err)
{
    real alpha = v->p->integrator == GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT ? 0.5 : 0;
    step_ctx c = {s, v, v->p->dt, alpha};
    grains_status st = solve(&c, f, err);
    if (st != GRAINS_OK)
        return st;
    if ((st = f->check(f->self, err)) != GRAINS_OK) { /* only the positions have moved */
        memcpy(v->pt->x, s->x0, v->pt->n * sizeof *v->pt->x);
        return st;
    }
    finish(&c, f);
    *moved = implicit_max_norm(v->pt->n, s->dq);
    /* the force of the particles on each mesh at the end of the step, q_k+1 and v_k+1 */
    implicit_eval loads = {v->pt->x, v->pt->v, 1, 1, s->r, IMPLICIT_WALLS, 0, 0, NULL};
    f->forces(f->self, &loads);
    return GRAINS_OK;
}
