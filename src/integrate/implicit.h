/* Newton's method with matrix-free conjugate gradients for the implicit
 * steps of the variational integrator (integrate/variational.c) and of
 * relaxation to a static packing (integrate/relax.c); variational-integrator paper
 * Section 2 and Algorithm 1.
 *
 * Both solve R(q) = 0 for the positions q = pt.x, with
 *   R(q) = b - M (q - q0) / h + h [w_c F(q_a) + w_q Q(q_a, (q - q0) / h)],
 *   q_a = (1 - alpha) q0 + alpha q,
 * F the forces with a potential (contact springs, gravity, van der Waals)
 * and Q the dashpots (contact damping, Stokes drag). Newton's matrix is
 *   A = -dR/dq = M / h + h w_c alpha K + w_q C,
 * K the springs' stiffness along each contact normal, C the dashpots'
 * (their dependence on q through the normal is left out: Newton converges
 * linearly instead of quadratically, at a rate of order the overlap / R). */
#ifndef GRAINS_INTEGRATE_IMPLICIT_H
#define GRAINS_INTEGRATE_IMPLICIT_H

#include "sim/sim_internal.h"

typedef struct {
    real h;       /* [T] step */
    real alpha;   /* where F and Q are taken */
    real w_c;     /* weight of F */
    real w_q;     /* weight of Q */
} implicit_problem;

/* The arrays of sim->vi for the particles and list entries there are now. */
grains_status implicit_reserve(grains_sim *sim, grains_error *err);

/* implicit_forces' modes (bits): record each pair's terms; take which
 * pairs touch from the terms recorded (the frozen contact set), not from
 * their overlaps. */
#define IMPLICIT_TERMS 1
#define IMPLICIT_FROZEN 2
/* ... and sum what each mesh gave the particles into the walls' block sums
 * (gathered by walls_gather in block order: thread-count independent). */
#define IMPLICIT_WALLS 4

/* out = w_c F(x) + w_q Q(x, v) per particle, F with gravity, Q with drag;
 * notes contacts and overlaps in the threads' diag slots (reset here). With
 * IMPLICIT_TERMS, also each listed pair's part of Newton's matrix (a = a_k k
 * + a_c c) and the matrix's diagonal, vi.diag, without the mass. */
void implicit_forces(grains_sim *sim, const vec3 *x, const vec3 *v, real w_c, real w_q, vec3 *out, int mode,
                     real a_k, real a_c);

/* Newton iterations on pt.x from the guess there, b in vi.b and q0 in
 * vi.x0, until no particle moves more than newton_tol R_min. Leaves the
 * iterations and CG iterations in vi, whether the contact set was frozen in
 * vi.frozen (IMPLICIT_FROZEN or 0), the last evaluation's overlaps in
 * sim->diag. An UNSTABLE error after newton_max_iter iterations (pt.x is then
 * the last iterate). */
grains_status implicit_solve(grains_sim *sim, const implicit_problem *pb, grains_error *err);

/* m_i = 4/3 pi rho R^3 and the Stokes factor c_i = 9 eta / (2 rho R^2) of
 * Eq. 3 (drag force -m_i c_i v). */
static inline real implicit_mass(const grains_sim *sim, uint32_t i)
{
    real R = sim->pt.R[i];
    return R * R * R / sim->motion[sim->pt.mat[i]].inv_rho_volume;
}

static inline real implicit_drag(const grains_sim *sim, uint32_t i)
{
    real R = sim->pt.R[i];
    return sim->motion[sim->pt.mat[i]].drag / (R * R);
}

/* fn(sim, ctx) on every thread of a team of sim->nthreads, or on this one
 * alone without a team; fn's loops are `omp for` worksharing. */
typedef void (*implicit_team_fn)(grains_sim *sim, void *ctx);
void implicit_team(grains_sim *sim, implicit_team_fn fn, void *ctx);

/* The potential of the contacts' normal springs (linear k delta^2 / 2,
 * Hertz 2/5 K delta^5/2) and of gravity, -m g . x; van der Waals' is left out. */
double implicit_energy(const grains_sim *sim);

/* Largest |a_i| over the particles. */
real implicit_max_norm(const grains_sim *sim, const vec3 *a);

#endif
