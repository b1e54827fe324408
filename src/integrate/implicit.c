/* Newton's method and matrix-free conjugate gradients for the implicit
 * steps (see implicit.h for the equations).
 *
 * The pair loops go block colour by block colour as the force loop does
 * (sim/forces.c), and each dot product sums fixed chunks of particles in a
 * fixed order: results are bit-identical for any number of threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/van_der_waals.h"
#include "integrate/implicit.h"

#ifdef _OPENMP
#include <omp.h>
#define THREAD_ID() omp_get_thread_num()
#else
#define THREAD_ID() 0
#endif

#define CHUNK 256          /* particles per partial sum of a dot product */
#define CG_TOL 1e-10       /* CG stops at this fraction of the first residual (preconditioned norm) */
#define CG_MAX_ITER 1000
#define FREE_ITERATIONS 3  /* Newton iterations before the contact set is frozen */

static grains_status grow(void *pp, size_t *cap, size_t need, size_t size, grains_error *err)
{
    void **p = pp;
    if (need <= *cap)
        return GRAINS_OK;
    size_t n = need + need / 2 + 16;
    void *q = realloc(*p, n * size);
    if (!q)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the implicit solver");
    *p = q;
    *cap = n;
    return GRAINS_OK;
}

grains_status implicit_reserve(grains_sim *sim, grains_error *err)
{
    sim_variational *vi = &sim->vi;
    size_t n = sim->pt.n;
    if (n > vi->cap) {
        vec3 **arrays[] = {&vi->x0, &vi->b, &vi->xa, &vi->vq, &vi->r, &vi->z, &vi->d, &vi->Ad, &vi->dq, &vi->diag};
        size_t cap = n + n / 2 + 16;
        for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++) {
            vec3 *q = realloc(*arrays[k], cap * sizeof(vec3));
            if (!q)
                return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the implicit solver");
            *arrays[k] = q;
        }
        real *part = realloc(vi->partial, (cap / CHUNK + 1) * sizeof(real));
        if (!part)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the implicit solver");
        vi->partial = part;
        vi->cap = cap;
    }
    return grow(&vi->term, &vi->term_cap, sim->nb.n + 1, sizeof(vi_term), err);
}

void sim_variational_free(sim_variational *vi)
{
    vec3 *arrays[] = {vi->x0, vi->b, vi->xa, vi->vq, vi->r, vi->z, vi->d, vi->Ad, vi->dq, vi->diag};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        free(arrays[k]);
    free(vi->term);
    free(vi->partial);
    memset(vi, 0, sizeof *vi);
}

/* ---- one pair ---- */

/* The potential's part of a pair along its normal n (partner to i). */
typedef struct {
    vec3 n;
    real delta;  /* [L] overlap, Eq. 7 (negative: apart) */
    real R_eff;
    real f;      /* [F] force on i along n: the spring (Eq. 20 linear, Eq. 5 Hertz) less any attraction */
    real k;      /* [F/L] df/d(delta) of the spring (van der Waals' left out of Newton's matrix) */
    real c;      /* [M/T] the normal dashpot (Eq. 31 linear, Eq. 18 Hertz) */
    int touching;
} pair_terms;

/* The terms of a pair at centre offset dx, or 0 when it exerts nothing (apart
 * beyond any attraction's reach, or centres coinciding: d2 == 0). With the
 * contact set frozen (`frozen`: this pair's terms as recorded then), whether
 * the pair touches and its dashpot are those recorded, whatever its overlap
 * now: the linear spring pulls through a small gap (k_n delta < 0), Hertz's
 * is 0 there (continuous at delta = 0, as is its derivative). */
static int pair_terms_of(const grains_sim *sim, const hm_law *law, vec3 dx, real R_i, real R_j, int wall,
                         real rho_i, real rho_j, const vi_term *frozen, pair_terms *t)
{
    const grains_params *p = &sim->p;
    const hm_params *hp = &sim->hp;
    real d2 = v3_dot(dx, dx), reach = R_i + R_j + (p->hamaker > 0 ? p->vdw_cutoff : 0);
    if ((d2 >= reach * reach && !(frozen && frozen->touching)) || d2 == 0)
        return 0;
    const vec3 zero = {0, 0, 0};
    hm_pair pr = {dx, R_i, R_j, zero, zero, zero, zero, wall, law, rho_i, rho_j};
    hm_motion m = hm_relative_motion(hp, &pr);
    t->n = m.n;
    t->delta = m.delta;
    t->R_eff = m.R_eff;
    t->f = t->k = t->c = 0;
    t->touching = frozen ? frozen->touching : m.delta > 0;
    if (t->touching) {
        coefficients c = hp->normal == HM_NORMAL_LINEAR ? linear_coefficients(hp, law, m.R_eff, m.m_eff, wall ? R_i : fmin(R_i, R_j))
                                    : contact_coefficients(law, m.R_eff, m.m_eff, fmax(m.delta, 0));
        t->f = c.kn * m.delta;
        t->k = hp->normal == HM_NORMAL_LINEAR ? c.kn : 1.5 * c.kn; /* Hertz: f ~ delta^(3/2) */
        t->c = frozen ? frozen->c : c.cn;      /* Hertz's ~ delta^(1/4) has no derivative at 0 */
    }
    if (p->hamaker > 0)
        t->f -= vdw_attraction(p->hamaker, p->vdw_delta0, p->vdw_cutoff, R_i, R_j, wall, -m.delta);
    return 1;
}

/* Particle i's listed partner at entry k: the offset to it, its radius and
 * density, its velocity (0 for a wall), and the pair's law; 0 when the pair
 * does not touch by choice (pairs' contact = false). */
typedef struct {
    vec3 dx, v;
    real R, rho;
    int wall;
    uint32_t j;
    const hm_law *law;
} partner;

static int partner_of(const grains_sim *sim, uint32_t i, const vec3 *x, const vec3 *v, uint32_t k, partner *o)
{
    const grains_particles *pt = &sim->pt;
    uint32_t entry = sim->nb.j[k] & ~STORE_HIST_BIT;
    o->j = entry & STORE_INDEX_MASK;
    o->wall = (entry & STORE_MESH_BIT) != 0;
    if (o->wall) {
        const grains_mesh_element *el = &sim->mesh->elements[o->j];
        o->law = hm_law_pw(&sim->hp, pt->mat[i], el->material);
        o->dx = grains_mesh_offset(sim->mesh, o->j, x[i]);
        o->v = v3(0, 0, 0);
        o->R = el->R;
        o->rho = 0;
    } else {
        o->law = hm_law_pp(&sim->hp, pt->mat[i], pt->mat[o->j]);
        o->dx = periodic_delta(&sim->box, v3_sub(x[i], x[o->j]));
        o->v = v[o->j];
        o->R = pt->R[o->j];
        o->rho = sim->hp.rho[pt->mat[o->j]];
    }
    return !o->law->no_contact;
}

/* Particle i's listed elements from entry *first on (they come last), with
 * the ghost-free selection (sim/mesh_select.h) at positions x in c: an
 * element that touches but makes no contact is a ghost. None with compat =
 * "tinydem", or with fewer than two elements. */
static int select_ghosts(const grains_sim *sim, uint32_t i, const vec3 *x, mesh_candidate *c, uint32_t *first)
{
    const grains_neighbors *nb = &sim->nb;
    uint32_t end = nb->start[i + 1], k0 = end;
    while (k0 > nb->start[i] && (nb->j[k0 - 1] & STORE_MESH_BIT))
        k0--;
    *first = k0;
    if (!c || end - k0 < 2)
        return 0;
    sim_select_mesh_contacts(sim, i, x[i], sim->pt.mat[i], k0, end, c, 1, 0);
    return 1;
}

/* Whether list entry k of particle i is a ghost by the selection in c. */
static int ghost(int selected, const mesh_candidate *c, uint32_t first, uint32_t k)
{
    return selected && k >= first && c[k - first].touching && !c[k - first].keep;
}

double implicit_energy(const grains_sim *sim)
{
    const grains_particles *pt = &sim->pt;
    double V = 0;
    mesh_candidate *c = sim->cand_thread ? sim->cand_thread[0] : NULL;
    for (uint32_t i = 0; i < pt->n; i++) {
        V -= implicit_mass(sim, i) * v3_dot(sim->p.g, pt->x[i]);
        uint32_t first;
        int selected = select_ghosts(sim, i, pt->x, c, &first);
        for (uint32_t k = sim->nb.start[i]; k < sim->nb.start[i + 1]; k++) {
            partner o;
            pair_terms t;
            if (ghost(selected, c, first, k) || !partner_of(sim, i, pt->x, pt->v, k, &o) ||
                !pair_terms_of(sim, o.law, o.dx, pt->R[i], o.R, o.wall, sim->hp.rho[pt->mat[i]], o.rho, NULL, &t) ||
                !t.touching)
                continue;
            V += (sim->hp.normal == HM_NORMAL_LINEAR ? 0.5 : 4.0 / 15) * t.k * t.delta * t.delta; /* Hertz: 2/5 K delta^(5/2), k = 3/2 K delta^(1/2) */
        }
    }
    return V;
}

/* ---- loops over the particles ---- */

void implicit_team(grains_sim *sim, implicit_team_fn fn, void *ctx)
{
    if (sim->nthreads > 1) {
#pragma omp parallel num_threads(sim->nthreads)
        fn(sim, ctx);
    } else {
        fn(sim, ctx); /* orphaned worksharing runs serially, without libgomp's team setup */
    }
}

typedef void (*particle_fn)(grains_sim *sim, const void *ctx, uint32_t i, vec3 *wall_sum, force_diag *d);

typedef struct {
    particle_fn fn;
    const void *ctx;
    int wall_sums;  /* each block's sums for the walls start at zero and go to fn */
} colour_ctx;

/* fn for every particle, block colour by block colour: within a colour no
 * two blocks write to the same particle (neighbor/grid.h). */
static void colour_team(grains_sim *sim, void *ctx)
{
    const colour_ctx *c = ctx;
    const grains_grid *g = &sim->grid;
    force_diag *d = &sim->diag_thread[THREAD_ID()];
    for (int colour = 0; colour < GRID_COLOURS; colour++) {
#pragma omp for schedule(dynamic, 1)
        for (uint32_t b = g->colour_start[colour]; b < g->colour_start[colour + 1]; b++) {
            vec3 *wall_sum = c->wall_sums ? &sim->wl.block_sum[WALL_SUMS * sim->wl.n * b] : NULL;
            if (wall_sum)
                memset(wall_sum, 0, WALL_SUMS * sim->wl.n * sizeof *wall_sum);
            for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
                c->fn(sim, c->ctx, i, wall_sum, d);
        }
    }
}

static void by_colour(grains_sim *sim, particle_fn fn, const void *ctx, int wall_sums)
{
    colour_ctx c = {fn, ctx, wall_sums};
    implicit_team(sim, colour_team, &c);
}

static void clear(const grains_sim *sim, vec3 *a)
{
    memset(a, 0, sim->pt.n * sizeof *a);
}

/* Vector operations over the particles: y = a + s x, and a . b. */
typedef struct {
    vec3 *y;
    const vec3 *a, *x, *b;
    real s;
} vector_ctx;

static void axpy_team(grains_sim *sim, void *ctx)
{
    const vector_ctx *c = ctx;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
        c->y[i] = v3_axpy(c->a[i], c->s, c->x[i]);
}

/* y = a + s x (y may be a or x) */
static void axpy(grains_sim *sim, vec3 *y, const vec3 *a, real s, const vec3 *x)
{
    vector_ctx c = {y, a, x, NULL, s};
    implicit_team(sim, axpy_team, &c);
}

static void dot_team(grains_sim *sim, void *ctx)
{
    const vector_ctx *c = ctx;
    const long n = (long)sim->pt.n, chunks = (n + CHUNK - 1) / CHUNK;
#pragma omp for schedule(static)
    for (long k = 0; k < chunks; k++) {
        real s = 0;
        for (long i = k * CHUNK; i < n && i < (k + 1) * CHUNK; i++)
            s += v3_dot(c->a[i], c->b[i]);
        sim->vi.partial[k] = s;
    }
}

/* a . b, in chunks summed in order. */
static real dot(grains_sim *sim, const vec3 *a, const vec3 *b)
{
    vector_ctx c = {NULL, a, NULL, b, 0};
    implicit_team(sim, dot_team, &c);
    const long chunks = ((long)sim->pt.n + CHUNK - 1) / CHUNK;
    real s = 0;
    for (long k = 0; k < chunks; k++)
        s += sim->vi.partial[k];
    return s;
}

real implicit_max_norm(const grains_sim *sim, const vec3 *a)
{
    real m2 = 0;
    for (size_t i = 0; i < sim->pt.n; i++)
        m2 = fmax(m2, v3_dot(a[i], a[i]));
    return sqrt(m2);
}

/* ---- forces and Newton's matrix ---- */

typedef struct {
    const vec3 *x, *v;
    real w_c, w_q, a_k, a_c;
    vec3 *out;
    int mode;    /* IMPLICIT_TERMS, IMPLICIT_FROZEN */
} forces_ctx;

static vec3 outer_diag(vec3 n, real a) { return v3(a * n.x * n.x, a * n.y * n.y, a * n.z * n.z); }

static void forces_of(grains_sim *sim, const void *ctx, uint32_t i, vec3 *wall_sum, force_diag *d)
{
    const forces_ctx *c = ctx;
    const grains_particles *pt = &sim->pt;
    real m = implicit_mass(sim, i);
    vec3 f_i = v3_sub(v3_scale(c->w_c * m, sim->p.g), v3_scale(c->w_q * m * implicit_drag(sim, i), c->v[i]));
    vec3 diag_i = {0, 0, 0};
    const int frozen = c->mode & IMPLICIT_FROZEN;
    /* with the contact set frozen, the ghosts are too (their terms do not touch) */
    mesh_candidate *cand = !frozen && sim->cand_thread ? sim->cand_thread[THREAD_ID()] : NULL;
    uint32_t first;
    int selected = select_ghosts(sim, i, c->x, cand, &first);
    for (uint32_t k = sim->nb.start[i]; k < sim->nb.start[i + 1]; k++) {
        partner o;
        pair_terms t;
        vi_term *term = &sim->vi.term[k];
        if (c->mode & IMPLICIT_TERMS) {
            term->a = 0;
            if (!frozen)
                term->touching = 0;
        }
        if (ghost(selected, cand, first, k) || !partner_of(sim, i, c->x, c->v, k, &o))
            continue;
        if (!pair_terms_of(sim, o.law, o.dx, pt->R[i], o.R, o.wall, sim->hp.rho[pt->mat[i]], o.rho,
                           frozen ? term : NULL, &t)) {
            if (v3_dot(o.dx, o.dx) == 0)
                note_singular(d, i);
            continue;
        }
        real v_n = v3_dot(v3_sub(c->v[i], o.v), t.n);
        vec3 f = v3_scale(c->w_c * t.f - c->w_q * t.c * v_n, t.n);
        f_i = v3_add(f_i, f);
        if (!o.wall)
            c->out[o.j] = v3_sub(c->out[o.j], f);
        else if (wall_sum) { /* frictionless: a force through the centre, no torque */
            vec3 *sum = &wall_sum[WALL_SUMS * sim->mesh->elements[o.j].body];
            sum[0] = v3_add(sum[0], f);
            sum[1] = v3_add(sum[1], v3_cross(c->x[i], f));
        }
        if (t.delta > 0) {
            note_overlap(d, t.delta, 2 * t.R_eff, i);
            d->max_force = fmax(d->max_force, fabs(t.f));
        }
        if (c->mode & IMPLICIT_TERMS) {
            real a = c->a_k * t.k + c->a_c * t.c;
            *term = (vi_term){t.n, a, t.c, t.touching};
            diag_i = v3_add(diag_i, outer_diag(t.n, a));
            if (!o.wall)
                sim->vi.diag[o.j] = v3_add(sim->vi.diag[o.j], outer_diag(t.n, a));
        }
    }
    c->out[i] = v3_add(c->out[i], f_i);
    if (c->mode & IMPLICIT_TERMS)
        sim->vi.diag[i] = v3_add(sim->vi.diag[i], diag_i);
}

void implicit_forces(grains_sim *sim, const vec3 *x, const vec3 *v, real w_c, real w_q, vec3 *out, int mode,
                     real a_k, real a_c)
{
    for (int t = 0; t < sim->nthreads; t++)
        sim->diag_thread[t] = force_diag_empty();
    clear(sim, out);
    if (mode & IMPLICIT_TERMS)
        clear(sim, sim->vi.diag);
    forces_ctx c = {x, v, w_c, w_q, a_k, a_c, out, mode};
    int wall_sums = (mode & IMPLICIT_WALLS) && sim->wl.n;
    by_colour(sim, forces_of, &c, wall_sums);
    if (wall_sums)
        walls_gather(&sim->wl, sim->grid.n_blocks);
}

/* y = A u: the mass and drag on the diagonal, each pair's a n n^T on the
 * relative displacement. */
typedef struct {
    const implicit_problem *pb;
    const vec3 *u;
    vec3 *y;
} product_ctx;

static real mass_diagonal(const grains_sim *sim, const implicit_problem *pb, uint32_t i)
{
    real m = implicit_mass(sim, i);
    return m / pb->h + pb->w_q * m * implicit_drag(sim, i);
}

static void product_of(grains_sim *sim, const void *ctx, uint32_t i, vec3 *wall_sum, force_diag *d)
{
    (void)wall_sum;
    (void)d;
    const product_ctx *c = ctx;
    const vec3 u_i = c->u[i];
    vec3 y_i = v3_scale(mass_diagonal(sim, c->pb, i), u_i);
    for (uint32_t k = sim->nb.start[i]; k < sim->nb.start[i + 1]; k++) {
        const vi_term *t = &sim->vi.term[k];
        if (t->a == 0)
            continue;
        uint32_t entry = sim->nb.j[k], j = entry & STORE_INDEX_MASK;
        int wall = (entry & STORE_MESH_BIT) != 0;
        vec3 du = wall ? u_i : v3_sub(u_i, c->u[j]);
        vec3 f = v3_scale(t->a * v3_dot(t->n, du), t->n);
        y_i = v3_add(y_i, f);
        if (!wall)
            c->y[j] = v3_sub(c->y[j], f);
    }
    c->y[i] = v3_add(c->y[i], y_i);
}

static void product(grains_sim *sim, const implicit_problem *pb, const vec3 *u, vec3 *y)
{
    clear(sim, y);
    product_ctx c = {pb, u, y};
    by_colour(sim, product_of, &c, 0);
}

/* ---- conjugate gradients ---- */

/* z = P^-1 r, P the diagonal of A. */
typedef struct {
    const implicit_problem *pb;
    const vec3 *r;
    vec3 *z;
} precondition_ctx;

static void precondition_team(grains_sim *sim, void *ctx)
{
    const precondition_ctx *c = ctx;
    const vec3 *diag = sim->vi.diag;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = mass_diagonal(sim, c->pb, (uint32_t)i);
        c->z[i] = v3(c->r[i].x / (m + diag[i].x), c->r[i].y / (m + diag[i].y), c->r[i].z / (m + diag[i].z));
    }
}

static void precondition(grains_sim *sim, const implicit_problem *pb, const vec3 *r, vec3 *z)
{
    precondition_ctx c = {pb, r, z};
    implicit_team(sim, precondition_team, &c);
}

/* Solves A dq = r (r is consumed) by conjugate gradients preconditioned by
 * A's diagonal; returns the iterations taken. */
static long conjugate_gradients(grains_sim *sim, const implicit_problem *pb)
{
    sim_variational *vi = &sim->vi;
    clear(sim, vi->dq);
    precondition(sim, pb, vi->r, vi->z);
    memcpy(vi->d, vi->z, sim->pt.n * sizeof *vi->d);
    real rz = dot(sim, vi->r, vi->z), rz0 = rz;
    long it = 0;
    while (rz > CG_TOL * CG_TOL * rz0 && it < CG_MAX_ITER) {
        it++;
        product(sim, pb, vi->d, vi->Ad);
        real dAd = dot(sim, vi->d, vi->Ad);
        if (!(dAd > 0))
            break; /* A is not positive along d: keep what was found */
        real step = rz / dAd;
        axpy(sim, vi->dq, vi->dq, step, vi->d);
        axpy(sim, vi->r, vi->r, -step, vi->Ad);
        precondition(sim, pb, vi->r, vi->z);
        real rz_next = dot(sim, vi->r, vi->z);
        axpy(sim, vi->d, vi->z, rz_next / rz, vi->d);
        rz = rz_next;
    }
    return it;
}

/* ---- Newton ---- */

/* vi.r = R(q) (Eq. 29 in the form of implicit.h), and Newton's matrix. */
static void iterate_team(grains_sim *sim, void *ctx)
{
    const implicit_problem *pb = ctx;
    sim_variational *vi = &sim->vi;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        vec3 dq = v3_sub(sim->pt.x[i], vi->x0[i]);
        vi->xa[i] = v3_axpy(vi->x0[i], pb->alpha, dq);
        vi->vq[i] = v3_scale(1 / pb->h, dq);
    }
}

static void residual_team(grains_sim *sim, void *ctx)
{
    const implicit_problem *pb = ctx;
    sim_variational *vi = &sim->vi;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        real m = implicit_mass(sim, (uint32_t)i);
        vi->r[i] = v3_add(vi->b[i], v3_sub(v3_scale(pb->h, vi->r[i]), v3_scale(m, vi->vq[i])));
    }
}

static void residual(grains_sim *sim, const implicit_problem *pb, int frozen)
{
    implicit_team(sim, iterate_team, (void *)pb);
    implicit_forces(sim, sim->vi.xa, sim->vi.vq, pb->w_c, pb->w_q, sim->vi.r, IMPLICIT_TERMS | frozen,
                    pb->h * pb->w_c * pb->alpha, pb->w_q);
    implicit_team(sim, residual_team, (void *)pb);
}

grains_status implicit_solve(grains_sim *sim, const implicit_problem *pb, grains_error *err)
{
    sim_variational *vi = &sim->vi;
    const real scale = sim->p.R_min;
    vi->cg_last = 0;
    vi->frozen = 0;
    for (int it = 1; it <= sim->p.newton_max_iter; it++) {
        /* A contact that starts or ends within the step makes R kinked (the
         * spring) or even discontinuous (the linear model's dashpot), and
         * Newton may then cycle between its sides: after FREE_ITERATIONS the
         * contacts touching at the iterate stay so until the step ends. */
        if (it > FREE_ITERATIONS)
            vi->frozen = IMPLICIT_FROZEN;
        residual(sim, pb, vi->frozen);
        sim->diag = sim_reduce_diag(sim);
        vi->cg_last += conjugate_gradients(sim, pb);
        axpy(sim, sim->pt.x, sim->pt.x, 1, vi->dq);
        vi->update_last = implicit_max_norm(sim, vi->dq) / scale;
        if (!isfinite(vi->update_last))
            return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                                    "implicit step at t = %.9g (step %ld): the Newton update is not finite; "
                                    "likely cause: particles placed with coinciding centres", grains_sim_time(sim),
                                    sim->step);
        if (vi->update_last <= sim->p.newton_tol) {
            vi->newton_last = it;
            vi->newton_most = it > vi->newton_most ? it : vi->newton_most;
            return GRAINS_OK;
        }
    }
    vi->newton_last = sim->p.newton_max_iter;
    return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                            "implicit step at t = %.9g (step %ld): Newton did not converge in newton_max_iter = %d "
                            "iterations (last update %.3g R_min, newton_tol = %g); reduce dt or raise newton_max_iter",
                            grains_sim_time(sim), sim->step, sim->p.newton_max_iter, vi->update_last,
                            sim->p.newton_tol);
}
