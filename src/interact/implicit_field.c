/* The force field of the implicit solver (integrate/implicit.h): the
 * contacts' normal springs and dashpots, gravity, Stokes drag and van der
 * Waals over the neighbour lists and meshes, and the pairs' part of
 * Newton's matrix (variational-integrator paper Section 2).
 *
 * The pair loops go block colour by block colour as the force loop does
 * (interact/forces.c): within a colour no two blocks write to the same particle,
 * so results are bit-identical for any number of threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/implicit.h"
#include "interact/interact.h"
#include "util/array.h"

#ifdef _OPENMP
#include <omp.h>
#define THREAD_ID() omp_get_thread_num()
#else
#define THREAD_ID() 0
#endif

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
static int pair_terms_of(const implicit_pairs *ip, const hm_law *law, vec3 dx, real R_i, real R_j, int wall,
                         real rho_i, real rho_j, const implicit_term *frozen, pair_terms *t)
{
    const hm_params *hp = ip->fv.hp;
    real d2 = v3_dot(dx, dx), reach = R_i + R_j + hm_pair_attraction_reach(law);
    if ((d2 >= reach * reach && !(frozen && frozen->touching)) || d2 == 0)
        return 0;
    const vec3 zero = {0, 0, 0};
    hm_pair pr = {dx, R_i, R_j, zero, zero, zero, zero, wall, law, rho_i, rho_j};
    hm_motion m = hm_relative_motion(hp, &pr, hp->half_step);
    t->n = m.n;
    t->delta = m.delta;
    t->R_eff = m.R_eff;
    t->f = t->k = t->c = 0;
    t->touching = frozen ? frozen->touching : m.delta > 0;
    if (t->touching) {
        coefficients c = hm_normal_spring(hp, law, m.R_eff, m.m_eff, m.delta, wall ? R_i : fmin(R_i, R_j));
        t->f = c.kn * m.delta;
        t->k = hm_normal_stiffness(hp, &c);
        t->c = frozen ? frozen->c : c.cn;      /* Hertz's ~ delta^(1/4) has no derivative at 0 */
    }
    if (hp->attracts)
        t->f -= hm_attraction(law, R_i, R_j, wall, -m.delta);
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

static int partner_of(const implicit_pairs *ip, uint32_t i, const vec3 *x, const vec3 *v, uint32_t k, partner *o)
{
    const grains_particles *pt = &ip->fv.pt;
    uint32_t entry = ip->fv.nb.j[k] & ~STORE_HIST_BIT;
    o->j = entry & STORE_INDEX_MASK;
    o->wall = (entry & STORE_MESH_BIT) != 0;
    if (o->wall) {
        const grains_mesh_element *el = &ip->fv.mesh->elements[o->j];
        o->law = hm_law_pw(ip->fv.hp, pt->mat[i], el->material);
        o->dx = grains_mesh_offset(ip->fv.mesh, o->j, x[i]);
        o->v = v3(0, 0, 0);
        o->R = el->R;
        o->rho = 0;
    } else {
        o->law = hm_law_pp(ip->fv.hp, pt->mat[i], pt->mat[o->j]);
        o->dx = periodic_delta(ip->fv.box, v3_sub(x[i], x[o->j]));
        o->v = v[o->j];
        o->R = pt->R[o->j];
        o->rho = ip->fv.hp->rho[pt->mat[o->j]];
    }
    return !o->law->no_contact;
}

/* Particle i's listed elements from entry *first on (they come last), with
 * the ghost-free selection (interact/mesh_select.h) at positions x in c: an
 * element that touches but makes no contact is a ghost. None with compat =
 * "tinydem", or with fewer than two elements. */
static int select_ghosts(const implicit_pairs *ip, uint32_t i, const vec3 *x, mesh_candidate *c, uint32_t *first)
{
    const grains_neighbors *nb = &ip->fv.nb;
    uint32_t end = nb->start[i + 1], k0 = end;
    while (k0 > nb->start[i] && (nb->j[k0 - 1] & STORE_MESH_BIT))
        k0--;
    *first = k0;
    if (!c || end - k0 < 2)
        return 0;
    sim_select_mesh_contacts(&ip->fv, i, x[i], ip->fv.pt.mat[i], k0, end, c, 1, 0);
    return 1;
}

/* Whether list entry k of particle i is a ghost by the selection in c. */
static int ghost(int selected, const mesh_candidate *c, uint32_t first, uint32_t k)
{
    return selected && k >= first && c[k - first].touching && !c[k - first].keep;
}

/* The potential of the contacts' normal springs (linear k delta^2 / 2,
 * Hertz 2/5 K delta^5/2) and of gravity, -m g . x; van der Waals' is left out. */
double implicit_pairs_energy(void *self)
{
    const implicit_pairs *ip = self;
    const grains_particles *pt = &ip->fv.pt;
    const integrate_view v = ip->whole;
    double V = 0;
    mesh_candidate *c = ip->cand_thread ? ip->cand_thread[0] : NULL;
    for (uint32_t i = 0; i < pt->n; i++) {
        V -= particle_mass(&v, i) * v3_dot(ip->whole.p->g, pt->x[i]);
        uint32_t first;
        int selected = select_ghosts(ip, i, pt->x, c, &first);
        for (uint32_t k = ip->fv.nb.start[i]; k < ip->fv.nb.start[i + 1]; k++) {
            partner o;
            pair_terms t;
            if (ghost(selected, c, first, k) || !partner_of(ip, i, pt->x, pt->v, k, &o) ||
                !pair_terms_of(ip, o.law, o.dx, pt->R[i], o.R, o.wall, ip->fv.hp->rho[pt->mat[i]], o.rho, NULL, &t) ||
                !t.touching)
                continue;
            V += hm_normal_energy(ip->fv.hp, t.k, t.delta);
        }
    }
    return V;
}

/* ---- loops over the particles, block colour by block colour ---- */

typedef void (*particle_fn)(const implicit_pairs *ip, const void *ctx, uint32_t i, vec3 *wall_sum, force_diag *d);

typedef struct {
    const implicit_pairs *ip;
    particle_fn fn;
    const void *ctx;
    int wall_sums;  /* each block's sums for the walls start at zero and go to fn */
} colour_ctx;

/* fn for every particle, phase by phase (a level's block colour): within a
 * phase no two blocks write to the same particle (neighbor/grid.h). */
static void colour_team(void *ctx)
{
    const colour_ctx *c = ctx;
    const implicit_pairs *ip = c->ip;
    const grains_grid *g = ip->fv.grid;
    force_diag *d = &ip->thread[THREAD_ID()].diag;
    for (int phase = 0; phase < g->n_phases; phase++) {
#pragma omp for schedule(dynamic, 1)
        for (uint32_t b = g->phase_start[phase]; b < g->phase_start[phase + 1]; b++) {
            vec3 *wall_sum = c->wall_sums ? &ip->fv.wl->block_sum[WALL_SUMS * ip->fv.wl->n * b] : NULL;
            if (wall_sum)
                memset(wall_sum, 0, WALL_SUMS * ip->fv.wl->n * sizeof *wall_sum);
            for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
                c->fn(ip, c->ctx, i, wall_sum, d);
        }
    }
}

static void by_colour(const implicit_pairs *ip, particle_fn fn, const void *ctx, int wall_sums)
{
    colour_ctx c = {ip, fn, ctx, wall_sums};
    implicit_team(ip->nthreads, colour_team, &c);
}

static void clear(const implicit_pairs *ip, vec3 *a)
{
    memset(a, 0, ip->fv.pt.n * sizeof *a);
}

/* ---- forces and Newton's matrix ---- */

static vec3 outer_diag(vec3 n, real a) { return v3(a * n.x * n.x, a * n.y * n.y, a * n.z * n.z); }

static void forces_of(const implicit_pairs *ip, const void *ctx, uint32_t i, vec3 *wall_sum, force_diag *d)
{
    const implicit_eval *c = ctx;
    const grains_particles *pt = &ip->fv.pt;
    const integrate_view view = ip->whole;
    real m = particle_mass(&view, i);
    vec3 f_i = v3_sub(v3_scale(c->w_c * m, ip->whole.p->g), v3_scale(c->w_q * m * particle_drag(&view, i), c->v[i]));
    vec3 diag_i = {0, 0, 0};
    const int frozen = c->mode & IMPLICIT_FROZEN, terms = c->mode & IMPLICIT_TERMS;
    /* with the contact set frozen, the ghosts are too (their terms do not touch) */
    mesh_candidate *cand = !frozen && ip->cand_thread ? ip->cand_thread[THREAD_ID()] : NULL;
    uint32_t first;
    int selected = select_ghosts(ip, i, c->x, cand, &first);
    for (uint32_t k = ip->fv.nb.start[i]; k < ip->fv.nb.start[i + 1]; k++) {
        partner o;
        pair_terms t;
        implicit_term *term = &ip->terms->term[k];
        if (terms) {
            term->a = 0;
            if (!frozen)
                term->touching = 0;
        }
        if (ghost(selected, cand, first, k) || !partner_of(ip, i, c->x, c->v, k, &o))
            continue;
        if (!pair_terms_of(ip, o.law, o.dx, pt->R[i], o.R, o.wall, ip->fv.hp->rho[pt->mat[i]], o.rho,
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
            vec3 *sum = &wall_sum[WALL_SUMS * ip->fv.mesh->elements[o.j].body];
            sum[0] = v3_add(sum[0], f);
            sum[1] = v3_add(sum[1], v3_cross(c->x[i], f));
        }
        if (t.delta > 0) {
            note_overlap(d, t.delta, 2 * t.R_eff, i);
            d->max_force = fmax(d->max_force, fabs(t.f));
        }
        if (terms) {
            real a = c->a_k * t.k + c->a_c * t.c;
            *term = (implicit_term){t.n, a, t.c, t.touching};
            diag_i = v3_add(diag_i, outer_diag(t.n, a));
            if (!o.wall)
                c->diag[o.j] = v3_add(c->diag[o.j], outer_diag(t.n, a));
        }
    }
    c->out[i] = v3_add(c->out[i], f_i);
    if (terms)
        c->diag[i] = v3_add(c->diag[i], diag_i);
}

/* One evaluation into the threads' diag slots (reset here); IMPLICIT_WALLS
 * then gathers the walls' block sums in block order (thread-count
 * independent), and does nothing without meshes. */
real implicit_pairs_forces(void *self, const implicit_eval *e)
{
    const implicit_pairs *ip = self;
    int wall_sums = (e->mode & IMPLICIT_WALLS) != 0;
    if (wall_sums && !ip->fv.wl->n)
        return 0;
    for (int t = 0; t < ip->nthreads; t++)
        ip->thread[t].diag = force_diag_empty();
    clear(ip, e->out);
    if (e->mode & IMPLICIT_TERMS)
        clear(ip, e->diag);
    by_colour(ip, forces_of, e, wall_sums);
    if (wall_sums)
        walls_gather(ip->fv.wl, ip->fv.grid->n_blocks);
    real max_force = 0;
    for (int t = 0; t < ip->nthreads; t++)
        max_force = fmax(max_force, ip->thread[t].diag.max_force);
    return max_force;
}

/* y = A u: the mass and drag on the diagonal, each pair's a n n^T on the
 * relative displacement. */
typedef struct {
    const real *mass_diag;
    const vec3 *u;
    vec3 *y;
} product_ctx;

static void product_of(const implicit_pairs *ip, const void *ctx, uint32_t i, vec3 *wall_sum, force_diag *d)
{
    (void)wall_sum;
    (void)d;
    const product_ctx *c = ctx;
    const vec3 u_i = c->u[i];
    vec3 y_i = v3_scale(c->mass_diag[i], u_i);
    for (uint32_t k = ip->fv.nb.start[i]; k < ip->fv.nb.start[i + 1]; k++) {
        const implicit_term *t = &ip->terms->term[k];
        if (t->a == 0)
            continue;
        uint32_t entry = ip->fv.nb.j[k], j = entry & STORE_INDEX_MASK;
        int wall = (entry & STORE_MESH_BIT) != 0;
        vec3 du = wall ? u_i : v3_sub(u_i, c->u[j]);
        vec3 f = v3_scale(t->a * v3_dot(t->n, du), t->n);
        y_i = v3_add(y_i, f);
        if (!wall)
            c->y[j] = v3_sub(c->y[j], f);
    }
    c->y[i] = v3_add(c->y[i], y_i);
}

void implicit_pairs_product(void *self, const real *mass_diag, const vec3 *u, vec3 *y)
{
    const implicit_pairs *ip = self;
    clear(ip, y);
    product_ctx c = {mass_diag, u, y};
    by_colour(ip, product_of, &c, 0);
}

grains_status implicit_terms_reserve(sim_implicit_terms *t, size_t n_entries, grains_error *err)
{
    if (!array_reserve((void **)&t->term, &t->cap, n_entries + 1, sizeof *t->term, 2))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the implicit solver");
    return GRAINS_OK;
}

void sim_implicit_terms_free(sim_implicit_terms *t)
{
    free(t->term);
    memset(t, 0, sizeof *t);
}
