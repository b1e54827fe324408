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
 * linearly instead of quadratically, at a rate of order the overlap / R).
 *
 * The solver knows particles and vectors only. F, Q and the pairs' part of
 * A come from an implicit_field, which the simulation provides over its
 * neighbour lists and meshes (interact/implicit_field.c). */
#ifndef GRAINS_INTEGRATE_IMPLICIT_H
#define GRAINS_INTEGRATE_IMPLICIT_H

#include "grains/sim.h"
#include "integrate/integrator.h"

/* The field's evaluation modes (bits): record each pair's terms; take which
 * pairs touch from the terms recorded (the frozen contact set), not from
 * their overlaps; for the walls' loads alone (the force of the particles on
 * each mesh, by Newton's third law; `out` is scratch, and without meshes
 * nothing is evaluated). */
#define IMPLICIT_TERMS 1
#define IMPLICIT_FROZEN 2
#define IMPLICIT_WALLS 4

/* One evaluation: out = w_c F(x) + w_q Q(x, v) per particle, F with
 * gravity, Q with drag. With IMPLICIT_TERMS, each pair's part of Newton's
 * matrix (a = a_k k + a_c c along its normal) is recorded and the
 * diagonal of the pairs' part summed into diag (without the mass). */
typedef struct {
    const vec3 *x, *v;
    real w_c, w_q;
    vec3 *out;
    int mode;
    real a_k, a_c;
    vec3 *diag;  /* IMPLICIT_TERMS only */
} implicit_eval;

/* The force field of the particles and their contacts, provided by the
 * simulation. */
struct implicit_field {
    void *self;
    int nthreads;   /* the team of every loop, the field's and the solver's */
    double time;    /* for messages: where the run is */
    long step;
    /* One evaluation (implicit_eval); returns the largest pair force. */
    real (*forces)(void *self, const implicit_eval *e);
    /* y = mass_diag u + the pairs' part of A u, from the terms of the last
     * IMPLICIT_TERMS evaluation. */
    void (*product)(void *self, const real *mass_diag, const vec3 *u, vec3 *y);
    /* Whether the last evaluation's forces may be applied (finite, overlaps
     * within max_overlap); else the error naming the particle. */
    grains_status (*check)(void *self, grains_error *err);
    /* The potential of the contacts' normal springs and of gravity at pt.x. */
    double (*energy)(void *self);
    /* After the particles moved up to `moved`: lists rebuilt if stale,
     * room for the terms of every listed pair. */
    grains_status (*refresh)(void *self, real moved, grains_error *err);
};

/* The solver's arrays, per particle, and what its last solve took. */
struct implicit_solver {
    vec3 *x0, *b, *xa, *vq, *r, *z, *d, *Ad, *dq, *diag;
    real *mass_diag;        /* A's diagonal without the pairs: m / h + w_q m c */
    size_t cap;
    real *partial;          /* per chunk of particles: partial dot products */
    int frozen;             /* the contact set is frozen (IMPLICIT_FROZEN or 0) */
    int newton_last, newton_most;
    long cg_last;
    real update_last;       /* the last Newton update, / R_min */
};

typedef struct {
    real h;       /* [T] step */
    real alpha;   /* where F and Q are taken */
    real w_c;     /* weight of F */
    real w_q;     /* weight of Q */
} implicit_problem;

/* Room for n particles. */
grains_status implicit_reserve(implicit_solver *s, size_t n, grains_error *err);
void implicit_solver_free(implicit_solver *s);

/* Newton iterations on pt.x from the guess there, b in s.b and q0 in s.x0,
 * until no particle moves more than newton_tol R_min. Leaves the iterations
 * and CG iterations in s, whether the contact set was frozen in s.frozen.
 * An UNSTABLE error after newton_max_iter iterations (pt.x is then the last
 * iterate). */
grains_status implicit_solve(implicit_solver *s, const implicit_field *f, const integrate_view *v,
                             const implicit_problem *pb, grains_error *err);

/* fn(ctx) on every thread of a team of nthreads, or on this one alone
 * without a team; fn's loops are `omp for` worksharing. */
typedef void (*implicit_team_fn)(void *ctx);
void implicit_team(int nthreads, implicit_team_fn fn, void *ctx);

/* Largest |a_i| over n particles. */
real implicit_max_norm(size_t n, const vec3 *a);

/* Relaxation to a static packing (integrate/relax.c; grains_sim_relax):
 * pseudo-steps from pt.x; velocities are left alone. */
grains_status implicit_relax(implicit_solver *s, const implicit_field *f, const integrate_view *v,
                             double force_tol, long max_steps, grains_relax_result *out, grains_error *err);

#endif
