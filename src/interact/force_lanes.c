/* The common run's contacts in lanes (contact/lanes.h). A block's particles
 * are walked as the scalar loop walks them (interact/forces.c): each touching
 * partner, and each wall contact that the mesh selection keeps, takes a
 * lane of its kind, with its history's place in the block's stream. When a
 * kind's lanes are full, both kinds are evaluated and their results applied
 * in list order: springs to the histories, reactions to the partners and
 * the walls' sums, and the rest to the open sums of the particle, added to
 * its totals once after its last contact, as the scalar loop adds its
 * register sums. The same operations in the same order: the same bits
 * (tests/test_lanes.c). */
#include "contact/lanes.h"
#include "geometry/mesh_offset.h"
#include "interact/contact_visit.h"

_Static_assert(LANE_SPRINGS == STORE_FULL_WIDTH, "a lane holds a whole history");
_Static_assert(sizeof(hm_history) == LANE_SPRINGS * sizeof(real), "a history is its springs' reals");

enum { PAIRS, WALLS, KINDS };

/* The lanes of both kinds, and where each lane's results go. */
typedef struct {
    contact_lanes L[KINDS];
    uint32_t i[KINDS][LANES];
    uint32_t j[KINDS][LANES];     /* the partner, or the wall's body */
    size_t place[KINDS][LANES];   /* the history's place in the block's stream */
    real *slot[KINDS][LANES];     /* and where it was, while the block's overflow stays put: */
    size_t ovf_grown;             /* the stream's ovf_grown when the batch was begun */
    int n[KINDS];
    uint8_t order[KINDS * LANES]; /* kind * LANES + lane, in list order */
    int n_order;
    const hm_law *wall_law;       /* the law of every wall lane */
} lane_batch;

/* The force and torque sums of the particle whose lanes are being applied. */
typedef struct {
    uint32_t i; /* UINT32_MAX: none open */
    vec3 f, t;
} open_sum;

/* One block's walk: where its results go (the block's walk, copied at
 * hand), and its lanes. */
typedef struct {
    block_walk at;
    int walls_in_lanes; /* no membrane patches, no servo walls */
    const store_layout *narrow; /* the run keeps fewer springs than a lane (a friction mode that acts in
                                 * no pair): the lane takes them unpacked, the absent ones 0, and gives
                                 * back the kept ones; NULL: whole histories, copied as they are */
    int fixed;                  /* some grains stay put (force_view.fixed_lanes): the pairs' lanes take
                                 * each side's density, +inf for those */
    lane_batch b;
    open_sum o;
} lane_walk;

static inline void close_sum(const grains_particles *pt, open_sum *o)
{
    if (o->i == UINT32_MAX)
        return;
    pt->f[o->i] = v3_add(pt->f[o->i], o->f);
    pt->t[o->i] = v3_add(pt->t[o->i], o->t);
    o->i = UINT32_MAX;
}

/* Makes particle i's sums the open ones. (A particle with no contact is
 * never opened: adding its zero sums would change no bit, its totals being
 * sums of non-zero terms or +0.) */
static inline void open_sum_of(const grains_particles *pt, open_sum *o, uint32_t i)
{
    if (o->i == i)
        return;
    close_sum(pt, o);
    *o = (open_sum){i, {0, 0, 0}, {0, 0, 0}};
}

/* An empty batch. */
static inline void begin_batch(lane_walk *w)
{
    w->b.n[PAIRS] = w->b.n[WALLS] = w->b.n_order = 0;
    w->b.ovf_grown = w->at.s->ovf_grown;
}

/* Where lane l of kind k's springs go: the slot its history was read from,
 * or, if the block's overflow has grown since the batch was begun (and may
 * have moved), the slot found again by its place. */
static inline real *lane_slot(const lane_walk *w, int k, int l, int moved)
{
    return moved ? store_slot(w->at.s, w->b.place[k][l]) : w->b.slot[k][l];
}

/* Lane l of kind k's results, applied: what is the particle's to its open
 * sum o, the largest overlap to d (both the walk's, held in registers while
 * a batch is applied); the springs packed into a narrow layout (NULL: the
 * whole history). */
static inline void apply_lane(lane_walk *w, const grains_particles *pt, int k, int l, int moved, open_sum *o,
                              force_diag *d, const store_layout *narrow)
{
    const contact_lanes *L = &w->b.L[k];
    uint32_t i = w->b.i[k][l], j = w->b.j[k][l];
    vec3 f = lane_vec(L->f, l), t_i = lane_vec(L->t_i, l);
    open_sum_of(pt, o, i);
    o->f = v3_add(o->f, f);
    o->t = v3_add(o->t, t_i);
    if (k == PAIRS) {
        pt->f[j] = v3_sub(pt->f[j], f);
        pt->t[j] = v3_add(pt->t[j], lane_vec(L->t_j, l));
    } else {
        add_to_wall(w->at.wall_sum, (int)j, pt->x[i], f, t_i);
    }
    note_overlap(d, L->delta[l], 2 * L->R_eff[l], i);
    real *h = lane_slot(w, k, l, moved);
    if (narrow) {
        real springs[LANE_SPRINGS];
        for (int a = 0; a < LANE_SPRINGS; a++)
            springs[a] = L->h[a][l];
        store_pack(narrow, h, (const hm_history *)springs);
        return;
    }
    for (int a = 0; a < LANE_SPRINGS; a++)
        h[a] = L->h[a][l];
}

/* Evaluates the batch's lanes and applies their results in list order (a
 * batch of pairs alone: in lane order, which is its list order), the
 * springs to histories of the layout `narrow` (NULL: whole ones). */
static inline void apply_batch_in(lane_walk *w, const store_layout *narrow)
{
    const hm_params *hp = w->at.fv->hp;
    lane_batch *b = &w->b;
    if (b->n[PAIRS])
        lanes_contacts(hp, hm_law_pp(hp, 0, 0), hp->rho[0], &b->L[PAIRS], b->n[PAIRS], 0, w->fixed);
    if (b->n[WALLS])
        lanes_contacts(hp, b->wall_law, hp->rho[0], &b->L[WALLS], b->n[WALLS], 1, 0);
    const grains_particles *pt = &w->at.fv->pt;
    open_sum o = w->o;
    force_diag d = *w->at.d;
    int moved = b->ovf_grown != w->at.s->ovf_grown;
    if (b->n[WALLS] == 0) {
        for (int l = 0; l < b->n[PAIRS]; l++)
            apply_lane(w, pt, PAIRS, l, moved, &o, &d, narrow);
    } else {
        for (int a = 0; a < b->n_order; a++)
            apply_lane(w, pt, b->order[a] / LANES, b->order[a] % LANES, moved, &o, &d, narrow);
    }
    w->o = o;
    *w->at.d = d;
    begin_batch(w);
}

/* The batch applied to whole histories, to narrow ones, and to the walk's. */
static void apply_batch_whole(lane_walk *w) { apply_batch_in(w, NULL); }
static void apply_batch_narrow(lane_walk *w) { apply_batch_in(w, w->narrow); }
static void apply_batch(lane_walk *w)
{
    if (w->narrow)
        apply_batch_narrow(w);
    else
        apply_batch_whole(w);
}

/* A lane of kind k for particle i's contact with j (a partner, or a wall's
 * body), its state and history h (of the layout `narrow`, unpacked, the
 * absent springs 0; NULL: a whole one), and where some grains stay put
 * (`fixed`) each side's density: the batch is applied when it is full. */
static inline void add_lane(lane_walk *w, int k, uint32_t i, uint32_t j, vec3 dx, real R_j, vec3 v_j, vec3 w_j,
                            real *h, const store_layout *narrow, const int fixed, real rho_i, real rho_j)
{
    const grains_particles *pt = &w->at.fv->pt;
    lane_batch *b = &w->b;
    int l = b->n[k]++;
    hm_history whole;
    if (narrow)
        store_unpack(narrow, h, &whole);
    lanes_put(&b->L[k], l, dx, pt->R[i], R_j, pt->v[i], v_j, pt->w[i], w_j, narrow ? (const real *)&whole : h);
    if (fixed)
        b->L[k].rho_i[l] = rho_i, b->L[k].rho_j[l] = rho_j;
    b->i[k][l] = i;
    b->j[k][l] = j;
    b->place[k][l] = store_last_place(w->at.s);
    b->slot[k][l] = h;
    b->order[b->n_order++] = (uint8_t)(k * LANES + l);
    if (b->n[k] == LANES) {
        if (narrow)
            apply_batch_narrow(w);
        else
            apply_batch_whole(w);
    }
}

/* Whether the partner of list entry *entry, at squared distance d2,
 * touches particle i (within `touch`): if not, its contact ends; at zero
 * distance there is no normal and the step is noted as singular. */
static inline int touches(lane_walk *w, uint32_t *entry, uint32_t i, real d2, real touch)
{
    if (d2 >= touch * touch) {
        end_contact(w->at.s, entry);
        return 0;
    }
    if (d2 == 0) {
        pass_singular(w->at.s, w->at.d, *entry, i);
        return 0;
    }
    return 1;
}

/* Particle i's contact with the wall element of list entry *entry at dx
 * (centre minus closest point), which takes over the springs `inherit` if
 * it is new and has them: wall_contact (interact/forces.c) for the common run,
 * with the kernel in a lane. */
static void wall_lane(lane_walk *w, uint32_t i, uint32_t *entry, vec3 dx, const hm_history *inherit)
{
    const force_view *fv = w->at.fv;
    const grains_mesh_element *el = &fv->mesh->elements[*entry & STORE_INDEX_MASK];
    const hm_law *law = hm_law_pw(fv->hp, 0, el->material);
    real R_i = fv->pt.R[i], touch = R_i + el->R, d2 = v3_dot(dx, dx);
    if (!touches(w, entry, i, d2, touch))
        return;
    if (w->b.n[WALLS] && law != w->b.wall_law)
        apply_batch(w);
    w->b.wall_law = law;
    int is_new = !(*entry & STORE_HIST_BIT);
    real *h = contact_history(w->at.s, entry);
    if (!h)
        return;
    if (is_new && inherit)
        store_pack(&fv->cs->layout, h, inherit);
    vec3 v_j = {0, 0, 0}, w_j = {0, 0, 0};
    const wall_body *wb = &fv->wl->body[el->body];
    if (wb->moving)
        wall_motion(wb, fv->pt.x[i], dx, d2, R_i, touch, &v_j, &w_j);
    add_lane(w, WALLS, i, (uint32_t)el->body, dx, el->R, v_j, w_j, h, w->narrow, 0, 0, 0);
}

/* Particle i's listed elements [k0, end): the selection of mesh_contacts
 * (interact/forces.c), and the contacts in lanes. */
static void mesh_lanes(lane_walk *w, uint32_t i, uint32_t k0, uint32_t end)
{
    const force_view *fv = w->at.fv;
    mesh_candidate *c = w->at.cand;
    int n = (int)(end - k0);
    if (n < 2) {
        uint32_t *entry = &fv->nb.j[k0];
        wall_lane(w, i, entry, mesh_element_offset(fv->mesh, *entry & STORE_INDEX_MASK, fv->pt.x[i]), NULL);
        return;
    }
    select_with_donors(fv, w->at.s, i, 0, k0, end, c, 0, 0);
    for (int a = 0; a < n; a++) {
        uint32_t *entry = &fv->nb.j[k0 + (uint32_t)a];
        if (c[a].touching && !c[a].keep) /* a ghost: no contact */
            end_contact(w->at.s, entry);
        else
            wall_lane(w, i, entry, c[a].dx, c[a].keep && c[a].donor >= 0 ? &c[a].inherited : NULL);
    }
}

/* Particle i's listed elements [k0, end), in lanes where they can go. */
static void mesh_entries(lane_walk *w, uint32_t i, uint32_t k0, uint32_t end)
{
    if (w->walls_in_lanes) {
        mesh_lanes(w, i, k0, end);
        return;
    }
    const grains_particles *pt = &w->at.fv->pt;
    apply_batch(w); /* i's sums are open before its elements add to them */
    open_sum_of(pt, &w->o, i);
    sim_mesh_contacts(&w->at, i, k0, end, &w->o.f, &w->o.t);
}

/* Particle i's listed partner of entry *entry: its contact, in a lane;
 * across a periodic box (NULL: none; `sheared`: its own, a constant of
 * the copy) by the nearest image, moving as it moves. Where some
 * grains stay put (`fixed`; rho_i, i's density, +inf for such a grain), two
 * of them have no contact, as the scalar loop's pair of no contact. */
__attribute__((always_inline)) static inline void pair_lane(lane_walk *w, const grains_particles *pt, uint32_t i,
                                                            uint32_t *entry, vec3 x_i, real R_i,
                                                            const periodic_box *box, const int sheared,
                                                            const store_layout *narrow, const int fixed, real rho_i)
{
    uint32_t j = *entry & STORE_INDEX_MASK;
    if (!partner_ours(j, w->at.mine)) {
        pass_contact(w->at.s, *entry);
        return;
    }
    real rho_j = fixed ? w->at.fv->hp->rho[pt->mat[j]] : 0;
    if (fixed && isinf(rho_i) && isinf(rho_j)) {
        end_contact(w->at.s, entry);
        return;
    }
    vec3 dx = v3_sub(x_i, pt->x[j]);
    real n_z = 0; /* the periods of a sheared box between j and its image */
    if (box)
        dx = periodic_delta_as(box, dx, &n_z, sheared);
    real touch = R_i + pt->R[j], d2 = v3_dot(dx, dx);
    if (!touches(w, entry, i, d2, touch))
        return;
    real *h = contact_history(w->at.s, entry);
    if (h)
        add_lane(w, PAIRS, i, j, dx, pt->R[j], sheared ? periodic_image_velocity(box, pt->v[j], n_z) : pt->v[j],
                 pt->w[j], h, narrow, fixed, rho_i, rho_j);
}

/* Particle i's listed partners j > i, then its mesh elements: contacts_of
 * (interact/forces.c) for the common run, with the contacts in lanes. The
 * partners go in runs of 64: which need a visit first, then those. A
 * periodic box (box; NULL: none), `sheared` or not, gives the partners'
 * nearest images (the meshes are not periodic). Where some grains stay put
 * (`fixed`), one of them touches no wall, as the scalar loop's wall of no
 * contact. */
__attribute__((always_inline)) static inline void lane_contacts_of(lane_walk *w, uint32_t i, const periodic_box *box,
                                                                   const int sheared, const store_layout *narrow,
                                                                   const int fixed)
{
    const grains_neighbors *nb = &w->at.fv->nb;
    const grains_particles *pt = &w->at.fv->pt;
    const vec3 x_i = pt->x[i];
    const real R_i = pt->R[i], rho_i = fixed ? w->at.fv->hp->rho[pt->mat[i]] : 0;
    const uint32_t end = nb->start[i + 1];
    uint32_t k = nb->start[i];
    for (;;) {
        uint32_t run = end - k < 64 ? end - k : 64, n_pairs;
        uint64_t visit = entries_to_visit(pt, box, sheared, nb->j, k, run, x_i, R_i, &n_pairs);
        for (; visit; visit &= visit - 1)
            pair_lane(w, pt, i, &nb->j[k + (uint32_t)__builtin_ctzll(visit)], x_i, R_i, box, sheared, narrow, fixed,
                      rho_i);
        k += n_pairs;
        if (n_pairs < run || k == end)
            break;
    }
    if (k == end) /* the elements come last */
        return;
    if (w->at.mine)
        pass_contacts(nb, w->at.s, k, end);
    else if (fixed && isinf(rho_i))
        for (; k < end; k++)
            end_contact(w->at.s, &nb->j[k]);
    else
        mesh_entries(w, i, k, end);
}

/* Whether a wall's contacts can go into lanes: a membrane's patches take
 * their reactions through the patch logs, a servo wall its contacts'
 * stiffness; those stay in the scalar loop. Without `cand` (compat =
 * "tinydem") no element is selected away, which the scalar loop does. */
static int walls_fit_lanes(const force_view *fv, const mesh_candidate *cand)
{
    if (!cand || fv->mb->n)
        return 0;
    for (size_t k = 0; k < fv->wl->n; k++)
        if (fv->wl->body[k].motion.type == GRAINS_MOTION_SERVO)
            return 0;
    return 1;
}

/* Particle i's contacts in an open box, across a periodic one or a
 * sheared one, with whole histories or narrow ones, where grains all move
 * or some stay put: a copy each, so that the common one (open, whole, all
 * moving) tests none. */
#define LANE_COPY(name, box, sheared, narrow, fixed) \
    static void name(lane_walk *w, uint32_t i) { lane_contacts_of(w, i, box, sheared, narrow, fixed); }
LANE_COPY(open_lane_contacts, NULL, 0, NULL, 0)
LANE_COPY(open_narrow_lane_contacts, NULL, 0, w->narrow, 0)
LANE_COPY(open_fixed_lane_contacts, NULL, 0, NULL, 1)
LANE_COPY(open_narrow_fixed_lane_contacts, NULL, 0, w->narrow, 1)
LANE_COPY(periodic_lane_contacts, w->at.fv->box, 0, NULL, 0)
LANE_COPY(periodic_narrow_lane_contacts, w->at.fv->box, 0, w->narrow, 0)
LANE_COPY(periodic_fixed_lane_contacts, w->at.fv->box, 0, NULL, 1)
LANE_COPY(periodic_narrow_fixed_lane_contacts, w->at.fv->box, 0, w->narrow, 1)
LANE_COPY(sheared_lane_contacts, w->at.fv->box, 1, NULL, 0)
LANE_COPY(sheared_narrow_lane_contacts, w->at.fv->box, 1, w->narrow, 0)
LANE_COPY(sheared_fixed_lane_contacts, w->at.fv->box, 1, NULL, 1)
LANE_COPY(sheared_narrow_fixed_lane_contacts, w->at.fv->box, 1, w->narrow, 1)

typedef void (*lane_contacts_fn)(lane_walk *, uint32_t);

/* The copy for this walk: [fixed][box: open, periodic, sheared][narrow]. */
static const lane_contacts_fn lane_contacts_copies[2][3][2] = {
    {{open_lane_contacts, open_narrow_lane_contacts},
     {periodic_lane_contacts, periodic_narrow_lane_contacts},
     {sheared_lane_contacts, sheared_narrow_lane_contacts}},
    {{open_fixed_lane_contacts, open_narrow_fixed_lane_contacts},
     {periodic_fixed_lane_contacts, periodic_narrow_fixed_lane_contacts},
     {sheared_fixed_lane_contacts, sheared_narrow_fixed_lane_contacts}}};

void sim_block_lane_contacts(const block_walk *block, uint32_t b)
{
    const force_view *fv = block->fv;
    const grains_grid *g = fv->grid;
    lane_walk w;
    w.at = *block;
    w.walls_in_lanes = walls_fit_lanes(fv, block->cand);
    w.narrow = fv->cs->layout.width != STORE_FULL_WIDTH ? &fv->cs->layout : NULL;
    w.fixed = fv->fixed_lanes;
    begin_batch(&w);
    w.b.wall_law = NULL;
    w.o.i = UINT32_MAX;
    uint32_t lo = g->first[g->block_start[b]], hi = g->first[g->block_start[b + 1]];
    if (!fv->box->mask && !w.narrow && !w.fixed) { /* the common run */
        for (uint32_t i = lo; i < hi; i++)
            open_lane_contacts(&w, i);
    } else {
        int box = fv->box->sheared ? 2 : fv->box->mask != 0;
        lane_contacts_fn contacts = lane_contacts_copies[w.fixed][box][w.narrow != NULL];
        for (uint32_t i = lo; i < hi; i++)
            contacts(&w, i);
    }
    apply_batch(&w);
    close_sum(&fv->pt, &w.o);
}
