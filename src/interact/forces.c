/* The force loops. Pairs are visited block colour by block colour (see
 * neighbor/grid.h): within one colour no two blocks write to the same
 * particle, so each thread owns every particle it writes, and each
 * particle's sum runs in the same order (colour, block, cell, list) for any
 * thread count: bit-identical results without atomics.
 * Each pair is evaluated once and applied to both sides (Eqs. 55-59); a
 * mesh element is a wall (infinitely heavy), so only the particle moves. */
#include <limits.h>
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#define THREAD_ID() omp_get_thread_num()
#else
#define THREAD_ID() 0
#endif

#include "interact/mesh_select.h"
#include "neighbor/block_share.h"
#include "interact/contact_visit.h"

/* The pair's cohesion law's pull on i across gap s along the unit normal n
 * (from the partner to i). */
static inline vec3 attraction(const hm_law *law, vec3 n, real R_i, real R_j, int wall, real s)
{
    return v3_scale(-hm_attraction(law, R_i, R_j, wall, s), n);
}

/* The pull on i of a partner at dx that is not touching it (d2 =
 * |dx|^2 >= reach^2): 0 beyond the pair's law's reach. */
static inline vec3 far_attraction(const hm_law *law, vec3 dx, real d2, real R_i, real R_j, int wall)
{
    real reach = R_i + R_j + hm_pair_attraction_reach(law);
    if (d2 >= reach * reach)
        return v3(0, 0, 0);
    real d = sqrt(d2);
    return attraction(law, v3_scale(1 / d, dx), R_i, R_j, wall, d - R_i - R_j);
}

/* The flags of contacts_of, constant in each compiled copy: a periodic box,
 * an attraction across gaps, several materials (each pair's law looked up),
 * bonds, and the sub-models beyond the common ones. */
typedef struct {
    int periodic, attracting, mixed, bonded, extended;
} pair_flags;

/* One contact through the kernel with its springs in the store's entry e:
 * in place where the entry is a whole hm_history (the common loop, compiled
 * with extended = 0, runs only then), through a copy where the run keeps
 * fewer springs (a friction mode that acts in no pair). */
__attribute__((always_inline)) static inline void contact_in_entry(const force_view *fv, const hm_pair *pr, real *e,
                                                                  hm_result *r, const int extended)
{
    if (!extended || fv->cs->layout.width == STORE_FULL_WIDTH) {
        hm_contact(fv->hp, pr, (hm_history *)e, r, extended);
        return;
    }
    hm_history h;
    store_unpack(&fv->cs->layout, e, &h);
    hm_contact(fv->hp, pr, &h, r, extended);
    store_pack(&fv->cs->layout, e, &h);
}

/* A servo wall's control needs its contacts' stiffness and damping. */
static inline void add_stiffness(vec3 *wall_sum, int body, const hm_result *r)
{
    vec3 *sum = &wall_sum[WALL_SUMS * body + 2];
    sum->x += r->k_tangent;
    sum->y += r->c_n;
}

/* The barycentric weights of point p (on it) in the patch's triangle; a
 * membrane vertex of the MSS_particle model (a point element) is all its own. */
static inline void patch_weights(const grains_mesh *m, const grains_mesh_element *el, vec3 p, real a[3])
{
    if (el->n == 1) {
        a[0] = 1;
        return;
    }
    vec3 x0 = m->vertices[el->v[0]], e1 = v3_sub(m->vertices[el->v[1]], x0), e2 = v3_sub(m->vertices[el->v[2]], x0);
    vec3 q = v3_sub(p, x0);
    real d11 = v3_dot(e1, e1), d12 = v3_dot(e1, e2), d22 = v3_dot(e2, e2), q1 = v3_dot(q, e1), q2 = v3_dot(q, e2);
    real det = d11 * d22 - d12 * d12;
    a[1] = (d22 * q1 - d12 * q2) / det;
    a[2] = (d11 * q2 - d12 * q1) / det;
    a[0] = 1 - a[1] - a[2];
}

/* The density that gives a vertex sphere of the MSS_particle model (a point
 * element of body -1 - k) its vertex's mass. */
static inline real vertex_density(const force_view *fv, const grains_mesh_element *el)
{
    real R = el->R;
    return 3 / (4 * HM_PI * R * R * R * fv->mb->inv_mass[sim_membranes_vertex(fv->mb, -1 - el->body, el->v[0])]);
}

/* A membrane patch (body -1 - k) at the point of barycentric weights a:
 * the velocity there, mixed from its vertices' (membrane paper Section 2.5). */
static inline vec3 patch_velocity(const force_view *fv, const grains_mesh_element *el, const real a[3])
{
    vec3 v = {0, 0, 0};
    for (int k = 0; k < el->n; k++)
        v = v3_axpy(v, a[k], fv->mb->v[sim_membranes_vertex(fv->mb, -1 - el->body, el->v[k])]);
    return v;
}

/* Forces on a patch's vertices that sum to zero and have the moment tau:
 * tau's part in the plane from forces along the normal (phi_k, the
 * gradients of the barycentric weights along g = n x tau), its part along
 * the normal from forces psi n x r_k about the centroid. */
static inline void patch_couple(const grains_mesh *m, const grains_mesh_element *el, vec3 tau, vec3 F[3])
{
    vec3 x[3] = {m->vertices[el->v[0]], m->vertices[el->v[1]], m->vertices[el->v[2]]};
    vec3 e1 = v3_sub(x[1], x[0]), e2 = v3_sub(x[2], x[0]), N = v3_cross(e1, e2);
    vec3 n = v3_scale(1 / v3_norm(N), N), c = v3_scale(1.0 / 3, v3_add(v3_add(x[0], x[1]), x[2]));
    real tn = v3_dot(tau, n);
    vec3 g = v3_cross(n, v3_axpy(tau, -tn, n));
    real d11 = v3_dot(e1, e1), d12 = v3_dot(e1, e2), d22 = v3_dot(e2, e2), g1 = v3_dot(g, e1), g2 = v3_dot(g, e2);
    real det = d11 * d22 - d12 * d12, phi[3], r2 = 0;
    phi[1] = (d22 * g1 - d12 * g2) / det;
    phi[2] = (d11 * g2 - d12 * g1) / det;
    phi[0] = -phi[1] - phi[2];
    for (int k = 0; k < 3; k++)
        r2 += v3_dot(v3_sub(x[k], c), v3_sub(x[k], c));
    for (int k = 0; k < 3; k++)
        F[k] = v3_add(v3_scale(phi[k], n), v3_scale(tn / r2, v3_cross(n, v3_sub(x[k], c))));
}

/* The reaction of a contact with element el on what the element belongs
 * to: a wall's block sums, or (a patch) the vertices, logged for the
 * block. A patch's vertices take -f by the barycentric weights a of the
 * closest point p (membrane paper Section 2.5), and a couple that gives
 * them the moment the particle's torque and lever arm took: momentum and
 * angular momentum are kept to round-off. A vertex sphere of the
 * MSS_particle model takes -f; it has no spin, so the torque a sphere of
 * its own would take is dropped (as the vertices' spins are in Section 3). */
static inline void react(const block_walk *w, const grains_mesh_element *el, vec3 x_i, vec3 p, const real a[3],
                         const hm_result *r)
{
    const force_view *fv = w->fv;
    patch_log *plog = w->plog;
    if (el->body >= 0) {
        add_to_wall(w->wall_sum, el->body, x_i, r->f, r->t_i);
        return;
    }
    if (el->n == 1) {
        plog->rec[plog->n++] = (patch_record){sim_membranes_vertex(fv->mb, -1 - el->body, el->v[0]), v3_neg(r->f)};
        return;
    }
    vec3 F[3];
    patch_couple(fv->mesh, el, v3_sub(v3_cross(v3_sub(p, x_i), r->f), r->t_i), F);
    for (int k = 0; k < 3; k++)
        plog->rec[plog->n++] = (patch_record){sim_membranes_vertex(fv->mb, -1 - el->body, el->v[k]),
                                              v3_sub(F[k], v3_scale(a[k], r->f))};
}

__attribute__((always_inline)) static inline int wall_contact(const block_walk *w, uint32_t i, int mat_i,
                                                              uint32_t *entry, vec3 dx, const hm_history *inherit,
                                                              hm_result *r, const pair_flags fl)
{
    const force_view *fv = w->fv;
    store_stream *s = w->s;
    const int attracting = fl.attracting, mixed = fl.mixed, extended = fl.extended;
    uint32_t e = *entry & STORE_INDEX_MASK;
    const grains_particles *pt = &fv->pt;
    const vec3 zero = {0, 0, 0};
    const grains_mesh_element *el = &fv->mesh->elements[e];
    real R_e = el->R;
    const hm_law *law = hm_law_pw(fv->hp, mat_i, el->material);
    if (mixed && law->no_contact) {
        end_contact(s, entry);
        return 0;
    }
    real touch = pt->R[i] + R_e, d2 = v3_dot(dx, dx);
    const int sticky = extended && fv->hp->holds;
    real reach = sticky ? touch + hold_gap(law, pt->R[i], R_e, 1, *entry) : touch;
    if (d2 >= reach * reach) {
        end_contact(s, entry);
        if (!attracting)
            return 0;
        r->f = far_attraction(law, dx, d2, pt->R[i], R_e, 1);
        r->t_i = zero;
        real a[3];
        if (el->body < 0)
            patch_weights(fv->mesh, el, v3_sub(pt->x[i], dx), a);
        react(w, el, pt->x[i], v3_sub(pt->x[i], dx), a, r);
        return 1;
    }
    if (d2 == 0) {
        pass_singular(s, w->d, *entry, i);
        return 0;
    }
    int is_new = !(*entry & STORE_HIST_BIT);
    real *h = contact_history(s, entry);
    if (!h)
        return 0;
    if (is_new && inherit) /* it takes over the springs of a contact it superseded */
        store_pack(&fv->cs->layout, h, inherit);
    vec3 v_j = zero, w_j = zero;
    real a[3]; /* a patch's barycentric weights at the closest point */
    const wall_body *wb = el->body >= 0 ? &fv->wl->body[el->body] : NULL;
    if (!wb) {
        patch_weights(fv->mesh, el, v3_sub(pt->x[i], dx), a);
        v_j = patch_velocity(fv, el, a);
    } else if (wb->moving)
        wall_motion(wb, pt->x[i], dx, d2, pt->R[i], touch, &v_j, &w_j);
    hm_pair pr = {dx, pt->R[i], R_e, pt->v[i], v_j, pt->w[i], w_j, 1, law,
                  fv->hp->rho[mat_i], 0};
    if (!wb && el->n == 1) { /* a vertex sphere: a partner of its radius and mass, not a wall */
        pr.wall = 0;
        pr.rho_j = vertex_density(fv, el);
    }
    contact_in_entry(fv, &pr, h, r, extended);
    if (attracting)
        r->f = v3_add(r->f, attraction(law, v3_scale(1 / (touch - r->delta), dx), pt->R[i], R_e, 1, -r->delta));
    if (extended && fv->rec->requested)
        contact_record_add(fv->rec, i, e, 1, pt->x[i], v3_sub(pt->x[i], dx), r->f, r->delta);
    react(w, el, pt->x[i], v3_sub(pt->x[i], dx), a, r);
    if (wb && wb->motion.type == GRAINS_MOTION_SERVO)
        add_stiffness(w->wall_sum, el->body, r);
    note_overlap(w->d, r->delta, 2 * r->R_eff, i);
    return 1;
}

/* The listed elements [k0, end) of particle i, each on its own (compat =
 * "tinydem": every contact counts, as TinyDEM has it). */
__attribute__((always_inline)) static inline void all_mesh_contacts(const block_walk *w, uint32_t i, int mat_i,
                                                                    uint32_t k0, uint32_t end, vec3 *f_i, vec3 *t_i,
                                                                    const pair_flags fl)
{
    const force_view *fv = w->fv;
    hm_result r;
    for (uint32_t k = k0; k < end; k++) {
        uint32_t *entry = &fv->nb.j[k];
        vec3 dx = grains_mesh_offset(fv->mesh, *entry & STORE_INDEX_MASK, fv->pt.x[i]);
        if (wall_contact(w, i, mat_i, entry, dx, NULL, &r, fl)) {
            *f_i = v3_add(*f_i, r.f);
            *t_i = v3_add(*t_i, r.t_i);
        }
    }
}

/* The listed elements [k0, end) of particle i, ghost-free: a particle
 * touching several elements at a vertex or edge they share gets one
 * contact there (interact/mesh_select.h). */
__attribute__((always_inline)) static inline void mesh_contacts(const block_walk *w, uint32_t i, int mat_i,
                                                                uint32_t k0, uint32_t end, vec3 *f_i, vec3 *t_i,
                                                                const pair_flags fl)
{
    const force_view *fv = w->fv;
    mesh_candidate *c = w->cand;
    if (!c || end - k0 < 2) {
        all_mesh_contacts(w, i, mat_i, k0, end, f_i, t_i, fl);
        return;
    }
    select_with_donors(fv, w->s, i, mat_i, k0, end, c, fl.mixed, fl.extended);
    int n = (int)(end - k0);
    hm_result r;
    for (int a = 0; a < n; a++) {
        uint32_t *entry = &fv->nb.j[k0 + (uint32_t)a];
        if (c[a].touching && !c[a].keep) { /* a ghost: no contact */
            end_contact(w->s, entry);
            continue;
        }
        const hm_history *inherit = c[a].keep && c[a].donor >= 0 ? &c[a].inherited : NULL;
        if (wall_contact(w, i, mat_i, entry, c[a].dx, inherit, &r, fl)) {
            *f_i = v3_add(*f_i, r.f);
            *t_i = v3_add(*t_i, r.t_i);
        }
    }
}

/* Particle i's contact with the partner of list entry *entry (j > i): the
 * force on i added to *f_i, *t_i, the reaction to j as it comes. */
__attribute__((always_inline)) static inline void pair_contact(const force_view *fv, uint32_t i, uint32_t *entry,
                                                               store_stream *s, force_diag *d, const uint8_t *mine,
                                                               const pair_flags fl, vec3 *f_i, vec3 *t_i)
{
    const grains_particles *pt = &fv->pt;
    const hm_params *hp = fv->hp;
    const vec3 x_i = pt->x[i];
    const real R_i = pt->R[i];
    const int mat_i = fl.mixed ? pt->mat[i] : 0;
    const uint32_t j = *entry & STORE_INDEX_MASK;
    if (!partner_ours(j, mine)) {
        pass_contact(s, *entry);
        return;
    }
    const int mat_j = fl.mixed ? pt->mat[j] : 0;
    const hm_law *law = hm_law_pp(hp, mat_i, mat_j);
    if ((fl.mixed && law->no_contact) || (fl.bonded && sim_bonds_join(fv->bonds, i, j))) {
        end_contact(s, entry);
        return;
    }
    vec3 dx = v3_sub(x_i, pt->x[j]), v_j = pt->v[j]; /* (its image's, across a sheared box) */
    if (fl.periodic)
        dx = periodic_delta_moving(fv->box, dx, &v_j);
    real touch = R_i + pt->R[j];
    real reach = fl.extended && hp->holds ? touch + hold_gap(law, R_i, pt->R[j], 0, *entry)
                                                            : touch;
    real d2 = v3_dot(dx, dx);
    if (d2 >= reach * reach) {
        end_contact(s, entry);
        if (fl.attracting) {
            vec3 f = far_attraction(law, dx, d2, R_i, pt->R[j], 0);
            *f_i = v3_add(*f_i, f);
            pt->f[j] = v3_sub(pt->f[j], f);
        }
        return;
    }
    if (d2 == 0) {
        pass_singular(s, d, *entry, i);
        return;
    }
    real *h = contact_history(s, entry);
    if (!h)
        return;
    hm_pair pr = {dx, R_i, pt->R[j], pt->v[i], v_j, pt->w[i], pt->w[j], 0, law,
                  hp->rho[mat_i], hp->rho[mat_j]};
    hm_result r;
    contact_in_entry(fv, &pr, h, &r, fl.extended);
    if (fl.attracting)
        r.f = v3_add(r.f, attraction(law, v3_scale(1 / (touch - r.delta), dx), R_i, pt->R[j], 0, -r.delta));
    if (fl.extended && fv->rec->requested)
        contact_record_add(fv->rec, i, j, 0, x_i, v3_sub(x_i, dx), r.f, r.delta);
    *f_i = v3_add(*f_i, r.f);
    *t_i = v3_add(*t_i, r.t_i);
    pt->f[j] = v3_sub(pt->f[j], r.f);
    pt->t[j] = v3_add(pt->t[j], r.t_j);
    note_overlap(d, r.delta, 2 * r.R_eff, i);
}

/* Particle i's listed partners from entry k on, up to its first mesh
 * element: where those begin. Where a partner apart and without history
 * needs nothing (no attraction, no JKR reach), they go in runs of 64: which
 * need a visit first, then those (entries_to_visit); else one by one. */
__attribute__((always_inline)) static inline uint32_t pair_contacts(const force_view *fv, uint32_t i, uint32_t k,
                                                                    store_stream *s, force_diag *d,
                                                                    const uint8_t *mine, const pair_flags fl,
                                                                    vec3 *f_i, vec3 *t_i)
{
    const grains_particles *pt = &fv->pt;
    const grains_neighbors *nb = &fv->nb;
    const uint32_t end = nb->start[i + 1];
    if (fl.attracting || (fl.extended && fv->hp->holds)) {
        for (; k < end && !(nb->j[k] & STORE_MESH_BIT); k++) {
            prefetch_partner(pt, nb, k, end, fl.mixed);
            pair_contact(fv, i, &nb->j[k], s, d, mine, fl, f_i, t_i);
        }
        return k;
    }
    for (;;) {
        uint32_t run = end - k < 64 ? end - k : 64, n_pairs;
        const periodic_box *box = fl.periodic ? fv->box : NULL;
        uint64_t visit = entries_to_visit(pt, box, box && box->sheared, nb->j, k, run, pt->x[i], pt->R[i],
                                          &n_pairs);
        for (; visit; visit &= visit - 1)
            pair_contact(fv, i, &nb->j[k + (uint32_t)__builtin_ctzll(visit)], s, d, mine, fl, f_i, t_i);
        k += n_pairs;
        if (n_pairs < run || k == end)
            return k;
    }
}

/* The contacts of particle i: partners j > i, then mesh elements. Forces on
 * i are summed in registers and added once; reactions go to j as they come
 * (j's cell belongs to this thread for the whole colour phase). Compiled
 * twice: with `periodic`, `attracting` and `mixed` (several materials)
 * constant 0 for the common run, and general (the flags cost the common loop
 * 10% of its instructions). */
__attribute__((always_inline)) static inline void contacts_of(const block_walk *w, uint32_t i, const pair_flags fl)
{
    const force_view *fv = w->fv;
    const grains_particles *pt = &fv->pt;
    const grains_neighbors *nb = &fv->nb;
    const uint32_t end = nb->start[i + 1];
    vec3 f_i = {0, 0, 0}, t_i = {0, 0, 0};
    uint32_t k = pair_contacts(fv, i, nb->start[i], w->s, w->d, w->mine, fl, &f_i, &t_i);
    if (k < end) { /* the elements come last */
        if (w->mine)
            pass_contacts(nb, w->s, k, end);
        else
            mesh_contacts(w, i, fl.mixed ? pt->mat[i] : 0, k, end, &f_i, &t_i, fl);
    }
    pt->f[i] = v3_add(pt->f[i], f_i);
    pt->t[i] = v3_add(pt->t[i], t_i);
}

__attribute__((noinline)) static void particle_contacts(const block_walk *w, uint32_t i)
{
    contacts_of(w, i, (pair_flags){0, 0, 0, 0, 0});
}

/* Particle i's listed elements [k0, end) in the common run, one contact at
 * a time (interact/force_lanes.c, where they cannot go into lanes): in
 * place in whole histories, through a copy in narrower ones (the
 * extended copy's contact_in_entry). */
void sim_mesh_contacts(const block_walk *w, uint32_t i, uint32_t k0, uint32_t end, vec3 *f_i, vec3 *t_i)
{
    if (w->fv->cs->layout.width != STORE_FULL_WIDTH)
        mesh_contacts(w, i, 0, k0, end, f_i, t_i, (pair_flags){0, 0, 0, 0, 1});
    else
        mesh_contacts(w, i, 0, k0, end, f_i, t_i, (pair_flags){0, 0, 0, 0, 0});
}

/* With periodic boundaries, van der Waals attraction, several materials,
 * pairs that do not touch, bonds (a bonded pair has no contact), the
 * sub-models beyond the common ones (rolling type C; JKR contacts, which
 * hold beyond touching), or histories of fewer springs than hm_history. */
__attribute__((noinline)) static void particle_contacts_general(const block_walk *w, uint32_t i)
{
    const force_view *fv = w->fv;
    contacts_of(w, i, (pair_flags){fv->box->mask != 0, fv->hp->attracts, fv->mixed, fv->bonds->n > 0, 1});
}

void force_diag_merge(force_diag *total, const force_diag *d)
{
    total->n_contacts += d->n_contacts;
    real lhs = d->max_num * total->max_den, rhs = total->max_num * d->max_den;
    if (d->max_overlap_i >= 0 && (lhs > rhs || (lhs == rhs && d->max_overlap_i < total->max_overlap_i))) {
        total->max_num = d->max_num;
        total->max_den = d->max_den;
        total->max_overlap_i = d->max_overlap_i;
        total->overlap_id = d->overlap_id;
    }
    if (d->non_finite < total->non_finite) {
        total->non_finite = d->non_finite;
        total->non_finite_id = d->non_finite_id;
    }
    total->history_failed |= d->history_failed;
    total->bonds_broke |= d->bonds_broke;
    total->max_force = fmax(total->max_force, d->max_force);
}

/* Block b's contacts: its particles are one range in memory, its
 * histories another. */
static void walk_block(const force_view *fv, uint32_t b, int lanes, int general, force_diag *d, store_queue *q,
                       mesh_candidate *cand)
{
    const grains_grid *g = fv->grid;
    /* a block visited in part: the pairs with our particles alone, and
     * what it finds is another's to report */
    int visit = fv->visit ? fv->visit[b] : 2;
    if (!visit)
        return;
    force_diag theirs = force_diag_empty(), *db = visit == 2 ? d : &theirs;
    const uint8_t *mine = visit == 2 ? NULL : fv->mine;
    store_stream s;
    store_open(&s, fv->cs, b, q);
    if (fv->rec->requested)
        fv->rec->block_of_thread[THREAD_ID()] = b;
    /* the block's own sums of what each mesh gave its particles */
    vec3 *wall_sum = fv->wl->n ? &fv->wl->block_sum[WALL_SUMS * fv->wl->n * b] : NULL;
    if (wall_sum)
        memset(wall_sum, 0, WALL_SUMS * fv->wl->n * sizeof *wall_sum);
    /* and its log of what they gave membrane vertices */
    patch_log *plog = fv->mb->n ? &fv->patch_logs[b] : NULL;
    if (plog)
        plog->n = 0;
    const block_walk w = {fv, &s, db, wall_sum, plog, cand, mine};
    if (lanes)
        fv->lanes(&w, b);
    else
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
            if (general)
                particle_contacts_general(&w, i);
            else
                particle_contacts(&w, i);
    store_close(&s);
    d->history_failed |= fv->cs->block[b].failed; /* any rank's: out of memory stops the run */
}

/* The phase's blocks as they come to the threads. */
static void walk_phase_shared(const force_view *fv, int phase, int lanes, int general, force_diag *d, store_queue *q,
                              mesh_candidate *cand)
{
    const grains_grid *g = fv->grid;
#pragma omp for schedule(dynamic, 1)
    for (uint32_t b = g->phase_start[phase]; b < g->phase_start[phase + 1]; b++)
        walk_block(fv, b, lanes, general, d, q, cand);
}

/* The phase's blocks by regions (neighbor/block_share.h): the thread's own
 * region first, then it helps with the others' until each is done. Each
 * region's blocks go one by one from its cursor, so each block is walked
 * once. */
static void walk_phase_regions(const force_view *fv, int phase, int lanes, int general, force_diag *d,
                               store_queue *q, mesh_candidate *cand)
{
    int n = fv->block_regions;
    for (int k = 0; k < n; k++) {
        int t = (THREAD_ID() + k) % n;
        uint32_t lo, hi, b;
        block_share(fv->grid, fv->block_work, phase, t, n, &lo, &hi);
        uint32_t *next = &fv->block_next[((size_t)phase * (size_t)n + (size_t)t) * BLOCK_NEXT_STRIDE];
        for (;;) {
#pragma omp atomic capture
            b = (*next)++;
            if (b >= hi)
                break;
            walk_block(fv, b, lanes, general, d, q, cand);
        }
    }
#pragma omp barrier
}

void sim_forces(const force_view *fv, force_diag *d, store_queue *q, mesh_candidate *cand)
{
    /* (a periodic box, histories narrower than a whole one and grains that stay put on the
     * lanes alone: the scalar kernel's common loop has no box, works in place on whole
     * histories and knows one material) */
    const int general = ((fv->box->mask != 0 || fv->cs->layout.width != STORE_FULL_WIDTH) && !fv->lanes) ||
                        !hm_lanes_compose(fv->hp) || (fv->mixed && !(fv->fixed_lanes && fv->lanes)) ||
                        fv->any_bonds || fv->rec->requested;
    const int lanes = !general && fv->lanes;
    /* The force sums start at zero: integrate_euler_spiral clears them after
     * use, sim_rebuild after lending them out, a failed step after it. */
    for (int phase = 0; phase < fv->grid->n_phases; phase++)
        if (fv->block_work)
            walk_phase_regions(fv, phase, lanes, general, d, q, cand);
        else
            walk_phase_shared(fv, phase, lanes, general, d, q, cand);
}
