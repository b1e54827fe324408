/* Newton's method and matrix-free conjugate gradients for the implicit
 * steps (see implicit.h for the equations).
 *
 * The field's pair loops are thread-count independent (interact/implicit_field.c),
 * and each dot product here sums fixed chunks of particles in a fixed
 * order: results are bit-identical for any number of threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/implicit.h"
#include "util/array.h"

#define CHUNK 256          /* particles per partial sum of a dot product */
#define CG_TOL 1e-10       /* CG stops at this fraction of the first residual (preconditioned norm) */
#define CG_MAX_ITER 1000
#define FREE_ITERATIONS 3  /* Newton iterations before the contact set is frozen */

grains_status implicit_reserve(implicit_solver *s, size_t n, grains_error *err)
{
    if (n <= s->cap)
        return GRAINS_OK;
    void **vectors[] = {(void **)&s->x0, (void **)&s->b, (void **)&s->xa, (void **)&s->vq, (void **)&s->r,
                        (void **)&s->z,  (void **)&s->d, (void **)&s->Ad, (void **)&s->dq, (void **)&s->diag};
    size_t cap = array_grown(n, 2);
    for (size_t k = 0; k < sizeof vectors / sizeof *vectors; k++)
        if (!array_resize(vectors[k], cap, sizeof(vec3)))
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the implicit solver");
    if (!array_resize((void **)&s->mass_diag, cap, sizeof *s->mass_diag) ||
        !array_resize((void **)&s->partial, cap / CHUNK + 1, sizeof *s->partial))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the implicit solver");
    s->cap = cap;
    return GRAINS_OK;
}

void implicit_solver_free(implicit_solver *s)
{
    vec3 *arrays[] = {s->x0, s->b, s->xa, s->vq, s->r, s->z, s->d, s->Ad, s->dq, s->diag};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        free(arrays[k]);
    free(s->mass_diag);
    free(s->partial);
    memset(s, 0, sizeof *s);
}

/* ---- loops over the particles ---- */

void implicit_team(int nthreads, implicit_team_fn fn, void *ctx)
{
    if (nthreads > 1) {
#pragma omp parallel num_threads(nthreads)
        fn(ctx);
    } else {
        fn(ctx); /* orphaned worksharing runs serially, without libgomp's team setup */
    }
}

real implicit_max_norm(size_t n, const vec3 *a)
{
    real m2 = 0;
    for (size_t i = 0; i < n; i++)
        m2 = fmax(m2, v3_dot(a[i], a[i]));
    return sqrt(m2);
}

/* One solve: the solver, the field, the particles, the problem. */
typedef struct {
    implicit_solver *s;
    const implicit_field *f;
    const integrate_view *v;
    const implicit_problem *pb;
} solve_ctx;

static long n_of(const solve_ctx *c) { return (long)c->v->pt->n; }

static void clear(const solve_ctx *c, vec3 *a)
{
    memset(a, 0, c->v->pt->n * sizeof *a);
}

/* Vector operations over the particles: y = a + s x, and a . b. */
typedef struct {
    const solve_ctx *c;
    vec3 *y;
    const vec3 *a, *x, *b;
    real s;
} vector_ctx;

static void axpy_team(void *ctx)
{
    const vector_ctx *c = ctx;
    const long n = n_of(c->c);
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
        c->y[i] = v3_axpy(c->a[i], c->s, c->x[i]);
}

/* y = a + s x (y may be a or x) */
static void axpy(const solve_ctx *c, vec3 *y, const vec3 *a, real s, const vec3 *x)
{
    vector_ctx vc = {c, y, a, x, NULL, s};
    implicit_team(c->f->nthreads, axpy_team, &vc);
}

static void dot_team(void *ctx)
{
    const vector_ctx *c = ctx;
    const long n = n_of(c->c), chunks = (n + CHUNK - 1) / CHUNK;
#pragma omp for schedule(static)
    for (long k = 0; k < chunks; k++) {
        real s = 0;
        for (long i = k * CHUNK; i < n && i < (k + 1) * CHUNK; i++)
            s += v3_dot(c->a[i], c->b[i]);
        c->c->s->partial[k] = s;
    }
}

/* a . b, in chunks summed in order. */
static real dot(const solve_ctx *c, const vec3 *a, const vec3 *b)
{
    vector_ctx vc = {c, NULL, a, NULL, b, 0};
    implicit_team(c->f->nthreads, dot_team, &vc);
    const long chunks = (n_of(c) + CHUNK - 1) / CHUNK;
    real s = 0;
    for (long k = 0; k < chunks; k++)
        s += c->s->partial[k];
    return s;
}

/* ---- conjugate gradients ---- */

/* A's diagonal without the pairs, m / h + w_q m c, for the problem. */
static void mass_diagonal_team(void *ctx)
{
    const solve_ctx *c = ctx;
    const long n = n_of(c);
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = particle_mass(c->v, (uint32_t)i);
        c->s->mass_diag[i] = m / c->pb->h + c->pb->w_q * m * particle_drag(c->v, (uint32_t)i);
    }
}

/* z = P^-1 r, P the diagonal of A. */
typedef struct {
    const solve_ctx *c;
    const vec3 *r;
    vec3 *z;
} precondition_ctx;

static void precondition_team(void *ctx)
{
    const precondition_ctx *p = ctx;
    const implicit_solver *s = p->c->s;
    const long n = n_of(p->c);
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = s->mass_diag[i];
        vec3 d = s->diag[i];
        p->z[i] = v3(p->r[i].x / (m + d.x), p->r[i].y / (m + d.y), p->r[i].z / (m + d.z));
    }
}

static void precondition(const solve_ctx *c, const vec3 *r, vec3 *z)
{
    precondition_ctx p = {c, r, z};
    implicit_team(c->f->nthreads, precondition_team, &p);
}

/* Solves A dq = r (r is consumed) by conjugate gradients preconditioned by
 * A's diagonal; returns the iterations taken. */
static long conjugate_gradients(const solve_ctx *c)
{
    implicit_solver *s = c->s;
    const implicit_field *f = c->f;
    clear(c, s->dq);
    precondition(c, s->r, s->z);
    memcpy(s->d, s->z, c->v->pt->n * sizeof *s->d);
    real rz = dot(c, s->r, s->z), rz0 = rz;
    long it = 0;
    while (rz > CG_TOL * CG_TOL * rz0 && it < CG_MAX_ITER) {
        it++;
        f->product(f->self, s->mass_diag, s->d, s->Ad);
        real dAd = dot(c, s->d, s->Ad);
        if (!(dAd > 0))
            break; /* A is not positive along d: keep what was found */
        real step = rz / dAd;
        axpy(c, s->dq, s->dq, step, s->d);
        axpy(c, s->r, s->r, -step, s->Ad);
        precondition(c, s->r, s->z);
        real rz_next = dot(c, s->r, s->z);
        axpy(c, s->d, s->z, rz_next / rz, s->d);
        rz = rz_next;
    }
    return it;
}

/* ---- Newton ---- */

/* q_a and the step's velocity (q - q0) / h at the iterate. */
static void iterate_team(void *ctx)
{
    const solve_ctx *c = ctx;
    implicit_solver *s = c->s;
    const vec3 *x = c->v->pt->x;
    const long n = n_of(c);
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        vec3 dq = v3_sub(x[i], s->x0[i]);
        s->xa[i] = v3_axpy(s->x0[i], c->pb->alpha, dq);
        s->vq[i] = v3_scale(1 / c->pb->h, dq);
    }
}

static void residual_team(void *ctx)
{
    const solve_ctx *c = ctx;
    implicit_solver *s = c->s;
    const long n = n_of(c);
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = particle_mass(c->v, (uint32_t)i);
        s->r[i] = v3_add(s->b[i], v3_sub(v3_scale(c->pb->h, s->r[i]), v3_scale(m, s->vq[i])));
    }
}

/* s.r = R(q) (Eq. 29 in the form of implicit.h), and Newton's matrix. */
static void residual(const solve_ctx *c, int frozen)
{
    implicit_solver *s = c->s;
    const implicit_problem *pb = c->pb;
    implicit_team(c->f->nthreads, iterate_team, (void *)c);
    implicit_eval e = {s->xa, s->vq, pb->w_c, pb->w_q, s->r, IMPLICIT_TERMS | frozen, pb->h * pb->w_c * pb->alpha,
                       pb->w_q, s->diag};
    c->f->forces(c->f->self, &e);
    implicit_team(c->f->nthreads, residual_team, (void *)c);
}

grains_status implicit_solve(implicit_solver *s, const implicit_field *f, const integrate_view *v,
                             const implicit_problem *pb, grains_error *err)
{
    const grains_params *p = v->p;
    const solve_ctx c = {s, f, v, pb};
    implicit_team(f->nthreads, mass_diagonal_team, (void *)&c);
    s->cg_last = 0;
    s->frozen = 0;
    for (int it = 1; it <= p->newton_max_iter; it++) {
        /* A contact that starts or ends within the step makes R kinked (the
         * spring) or even discontinuous (the linear model's dashpot), and
         * Newton may then cycle between its sides: after FREE_ITERATIONS the
         * contacts touching at the iterate stay so until the step ends. */
        if (it > FREE_ITERATIONS)
            s->frozen = IMPLICIT_FROZEN;
        residual(&c, s->frozen);
        s->cg_last += conjugate_gradients(&c);
        axpy(&c, v->pt->x, v->pt->x, 1, s->dq);
        s->update_last = implicit_max_norm(v->pt->n, s->dq) / p->R_min;
        if (!isfinite(s->update_last))
            return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                                    "implicit step at t = %.9g (step %ld): the Newton update is not finite; "
                                    "likely cause: particles placed with coinciding centres", f->time, f->step);
        if (s->update_last <= p->newton_tol) {
            s->newton_last = it;
            s->newton_most = it > s->newton_most ? it : s->newton_most;
            return GRAINS_OK;
        }
    }
    s->newton_last = p->newton_max_iter;
    return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                            "implicit step at t = %.9g (step %ld): Newton did not converge in newton_max_iter = %d "
                            "iterations (last update %.3g R_min, newton_tol = %g); reduce dt or raise newton_max_iter",
                            f->time, f->step, p->newton_max_iter, s->update_last, p->newton_tol);
}
