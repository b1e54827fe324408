/* Whether a simulation can start: its particles and spawn box fit the cell
 * grid, and no cell holds more particles than spheres of radius R_min can
 * fill it without overlapping beyond max_overlap. A particle at x = 1e300,
 * or 10^5 copies of one row of a CSV file (whose neighbour search would be
 * quadratic), is refused here with the particle named, before a frame is
 * written, rather than at the first rebuild.
 *
 * On ranks that hold their own particles alone, the checks are
 * collective and read no rank's copy of every particle: the extent is
 * each rank's own merged, and the cells and pairs are checked by the home
 * ranks of their cell blocks (decomp/rank_start.c). Where particles tie, the
 * smaller id is named, so that the messages are one process's on any
 * number of ranks. */
#include <stdlib.h>

#include "decomp/start_set.h"
#include "sim/sim_internal.h"

#define SPAN_CELLS ((double)GRID_SPAN_CELLS) /* grid_build's limit along an axis */

/* Out of memory: an error alone; on ranks, whose others wait for this one
 * in the next collective, every rank stops. */
static grains_status out_of_memory(const grains_sim *sim, const start_set *set, grains_error *err)
{
    if (set->shared)
        sim_start_failed(&sim->rank_view);
    return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory checking the particles");
}

/* Whether the run still adds particles. */
static int spawns(const grains_sim *sim)
{
    return sim->p.N_max > (long)grains_sim_count(sim) && grains_params_n_spawns(&sim->p) > 0;
}

/* The extremes of the particles' positions along each axis, each with the
 * smallest id that reaches it (UINT32_MAX: none), and their smallest and
 * largest radius: one rank's own, then the whole's. */
typedef struct {
    real lo[3], hi[3], R_min, R_max;
    uint32_t at_lo[3], at_hi[3];
} extent;

static void extent_add(extent *e, real c_lo, uint32_t id_lo, real c_hi, uint32_t id_hi, int k)
{
    if (id_lo != UINT32_MAX && (c_lo < e->lo[k] || (c_lo == e->lo[k] && id_lo < e->at_lo[k])))
        e->lo[k] = c_lo, e->at_lo[k] = id_lo;
    if (id_hi != UINT32_MAX && (c_hi > e->hi[k] || (c_hi == e->hi[k] && id_hi < e->at_hi[k])))
        e->hi[k] = c_hi, e->at_hi[k] = id_hi;
}

static extent own_extent(const start_set *own)
{
    extent e = {.R_min = INFINITY, .R_max = 0};
    for (int k = 0; k < 3; k++)
        e.lo[k] = INFINITY, e.hi[k] = -INFINITY, e.at_lo[k] = e.at_hi[k] = UINT32_MAX;
    for (size_t i = 0; i < own->n; i++) {
        e.R_min = fmin(e.R_min, own->R[i]);
        e.R_max = fmax(e.R_max, own->R[i]);
        for (int k = 0; k < 3; k++) {
            real c = (&own->x[i].x)[k];
            extent_add(&e, c, own->id[i], c, own->id[i], k);
        }
    }
    return e;
}

/* The whole's extent: every rank's merged, the same on each. */
static extent whole_extent(const grains_sim *sim, const start_set *own)
{
    extent mine = own_extent(own), *all = sim_start_gather(&sim->rank_view, own, &mine, sizeof mine), e = all[0];
    for (int r = 1; r < own->size; r++) {
        e.R_min = fmin(e.R_min, all[r].R_min);
        e.R_max = fmax(e.R_max, all[r].R_max);
        for (int k = 0; k < 3; k++)
            extent_add(&e, all[r].lo[k], all[r].at_lo[k], all[r].hi[k], all[r].at_hi[k], k);
    }
    free(all);
    return e;
}

/* The smallest cell edge any level of the first rebuild can have (cells
 * are 2 R_top + pad, R_top at least the smallest radius), from the
 * particles and, while it spawns, the spawn radii. */
static real smallest_cell(const grains_sim *sim, const extent *e)
{
    real R = spawns(sim) || !grains_sim_count(sim) ? sim->p.R_min : e->R_min;
    return 2 * R + sim->p.skin;
}

/* Along each axis, the extent of the particles and (while it spawns) the
 * spawn regions, against what the grid spans. */
static grains_status check_extent(const grains_sim *sim, const extent *e, grains_error *err)
{
    real h = smallest_cell(sim, e);
    for (int k = 0; k < 3; k++) {
        if (sim->box.mask >> k & 1) { /* the grid spans the period, in cells of its largest grains and more */
            real R = spawns(sim) ? fmax(e->R_max, sim->p.R_max) : e->R_max, h_top = 2 * R + sim->p.skin;
            if (!(sim->box.L[k] < SPAN_CELLS * h))
                return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                        "box_max: the periodic box spans %g along %c, more than the %g (%.0f cells "
                                        "of %g) the neighbour grid spans", sim->box.L[k], "xyz"[k], SPAN_CELLS * h,
                                        SPAN_CELLS, h);
            if (!(sim->box.L[k] >= 4 * h_top))
                return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                        "box_max: the periodic box's period along %c (%g) must be at least 4 cells of "
                                        "%g (2 R + skin of the largest grains, R = %g)", "xyz"[k], sim->box.L[k],
                                        h_top, R);
            continue;
        }
        real lo = INFINITY, hi = -INFINITY;
        for (int r = 0; spawns(sim) && r < grains_params_n_spawns(&sim->p); r++) {
            grains_spawn_region g = grains_params_spawn(&sim->p, r);
            lo = fmin(lo, (&g.lo.x)[k]), hi = fmax(hi, (&g.hi.x)[k]);
        }
        uint32_t at_lo = e->lo[k] < lo ? e->at_lo[k] : UINT32_MAX, at_hi = e->hi[k] > hi ? e->at_hi[k] : UINT32_MAX;
        lo = fmin(lo, e->lo[k]), hi = fmax(hi, e->hi[k]);
        if (!(hi - lo < SPAN_CELLS * h)) {
            if (at_hi == UINT32_MAX && at_lo == UINT32_MAX)
                return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                        "%s span%s %g along %c, more than the %g (%.0f cells of %g) "
                                        "the neighbour grid spans", sim->p.n_spawns ? "spawns: the regions" :
                                        "s_max: the spawn box", sim->p.n_spawns ? "" : "s", hi - lo, "xyz"[k], SPAN_CELLS * h,
                                        SPAN_CELLS, h);
            uint32_t id = at_hi != UINT32_MAX ? at_hi : at_lo;
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "particles%s spread over %g along %c, more than the %g (%.0f cells of %g) the "
                                    "neighbour grid spans; e.g. particle %u at %c = %g",
                                    !spawns(sim) ? "" : sim->p.n_spawns ? " and the spawn regions" : " and the spawn box", hi - lo, "xyz"[k], SPAN_CELLS * h,
                                    SPAN_CELLS, h, id, "xyz"[k], at_hi != UINT32_MAX ? e->hi[k] : e->lo[k]);
        }
    }
    return GRAINS_OK;
}

/* Most spheres of radius r, overlapping by at most a fraction f of their
 * diameter, whose centres lie in a cube of edge h: they are disjoint balls of
 * radius r (1 - f) in the cube grown by r. */
static double most_in_cell(real h, real r, real f)
{
    double inner = r * (1 - f);
    return (h + 2 * r) * (h + 2 * r) * (h + 2 * r) / (4.18879 * inner * inner * inner) + 1;
}

/* The first over-full cell of the blocks a rank checks, in the grid's
 * order (its block's key, then its place in the block), and the two
 * smallest ids in it. */
typedef struct {
    int found;
    uint64_t key;
    uint32_t place, n, id_a, id_b;
    vec3 x_a;
    real h;
    double most;
} crowded;

static int crowded_before(const crowded *a, const crowded *b)
{
    return a->found && (!b->found || a->key < b->key || (a->key == b->key && a->place < b->place));
}

/* The two smallest ids among the particles binned into cell c. */
static void two_smallest(const start_set *set, const grains_grid *g, const uint32_t *where, uint32_t c, crowded *o)
{
    uint32_t a = UINT32_MAX, b = UINT32_MAX; /* by id */
    size_t ia = 0;
    for (size_t i = 0; i < set->n; i++)
        if (where[i] >= g->first[c] && where[i] < g->first[c + 1]) {
            if (set->id[i] < a)
                b = a, a = set->id[i], ia = i;
            else if (set->id[i] < b)
                b = set->id[i];
        }
    o->id_a = a, o->id_b = b, o->x_a = set->x[ia];
}

/* The first over-full cell of the home blocks. */
static crowded crowded_cell(const start_set *set, const grains_grid *g, const uint32_t *where, real r, real f)
{
    crowded o = {0};
    for (uint32_t b = 0; b < g->n_blocks && !o.found; b++) {
        uint64_t key = grid_block_key(g, b);
        if (sim_start_home(set, key) != set->rank)
            continue;
        int64_t bc[3];
        real h = g->level[grid_block_coords(g, b, bc)].h;
        double most = most_in_cell(h, r, f);
        for (uint32_t c = g->block_start[b]; c < g->block_start[b + 1] && !o.found; c++)
            if (g->first[c + 1] - g->first[c] > most) {
                o = (crowded){1, key, c - g->block_start[b], g->first[c + 1] - g->first[c], 0, 0, {0, 0, 0}, h, most};
                two_smallest(set, g, where, c, &o);
            }
    }
    return o;
}

/* The particles binned as the first rebuild will: no cell over-full.
 * On ranks, each checks its home blocks, which it holds whole. */
static grains_status check_crowding(const grains_sim *sim, const start_set *set, grains_error *err)
{
    uint32_t *where = malloc((set->n + 1) * sizeof *where);
    grains_grid g = {0};
    grid_particles in = {set->x, set->R, NULL, set->n, set->shared ? &set->share : NULL, set->copy, 1};
    if (!where)
        return out_of_memory(sim, set, err);
    grains_status s = grid_build(&g, &in, sim->p.skin, &sim->box, where, NULL, 0, err);
    if (s == GRAINS_ERR_NOMEM && set->shared)
        sim_start_failed(&sim->rank_view);
    real r = sim->p.R_min * (sim->p.grow_from > 0 ? sim->p.grow_from : 1);
    crowded mine = s == GRAINS_OK ? crowded_cell(set, &g, where, r, fmin(sim->p.max_overlap, 0.5)) : (crowded){0};
    grid_free(&g);
    free(where);
    if (s != GRAINS_OK)
        return s;
    crowded *all = sim_start_gather(&sim->rank_view, set, &mine, sizeof mine), o = all[0];
    for (int q = 1; q < set->size; q++)
        o = crowded_before(&all[q], &o) ? all[q] : o;
    free(all);
    if (!o.found)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                            "%u particles (e.g. %u and %u, at %g, %g, %g) lie in one cell of %g, where at most %.0f "
                            "spheres of R_min = %g fit without overlapping beyond max_overlap: particles given twice?",
                            o.n, o.id_a, o.id_b, o.x_a.x, o.x_a.y, o.x_a.z, o.h, o.most, r);
}

/* On ranks that hold their own alone, collective: every rank returns the
 * same. No rank reads every particle (decomp/rank_start.c). */
grains_status grains_sim_check_start(const grains_sim *sim, grains_error *err)
{
    start_set own, spread = {0};
    grains_status s = sim_start_own(&sim->rank_view, &own, err);
    if (s != GRAINS_OK)
        return s; /* (one process: a set of views fails not) */
    extent e = whole_extent(sim, &own);
    s = check_extent(sim, &e, err);
    if (s == GRAINS_OK && own.shared)
        s = sim_start_spread(&sim->rank_view, &own, sim->p.skin, &spread, err);
    if (s == GRAINS_OK)
        s = check_crowding(sim, own.shared ? &spread : &own, err);
    sim_start_free(&spread);
    sim_start_free(&own);
    return s;
}

/* The deepest overlapping pair: depth, then the smaller ids first. */
static int deeper(double depth, long a, long b, const grains_start_overlaps *o)
{
    return depth > o->pair_depth ||
           (depth == o->pair_depth && o->pair_a >= 0 && (a < o->pair_a || (a == o->pair_a && b < o->pair_b)));
}

/* The overlaps in lists built with no pad: exactly the pairs closer than
 * R_i + R_j, by storage place (order[] gives the set's particle); each
 * counted on the home of its particle of smaller id. */
/* Whether ids a < b are held together: a bond between them, or one that
 * bond_tolerance forms at the first step (|gap| < tolerance x the smaller
 * diameter): their overlap is the bond's to hold, not a pair that flies apart. */
static int bonded(const grains_sim *sim, uint32_t a, uint32_t b, real gap, real R_a, real R_b)
{
    if (sim->p.bond_tolerance > 0 && !sim_bonds_formed(&sim->bonds) &&
        fabs(gap) < sim->p.bond_tolerance * 2 * fmin(R_a, R_b))
        return 1;
    return sim_bonds_any(sim) && sim_bonds_hold(sim_bonds_read(sim), a, b);
}

static void deepest_pair(const grains_sim *sim, const start_set *set, const grains_neighbors *nb, const vec3 *x,
                         const real *R, const uint32_t *order, grains_start_overlaps *o)
{
    for (uint32_t i = 0; i < nb->n_particles; i++)
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t j = nb->j[k];
            real gap = v3_norm(periodic_delta(&sim->box, v3_sub(x[i], x[j]))) - R[i] - R[j];
            uint32_t p = order[i], q = order[j], first = set->id[p] < set->id[q] ? p : q;
            if (gap >= 0 || (set->copy && set->copy[first]))
                continue;
            long a = set->id[first], b = set->id[first == p ? q : p];
            if (bonded(sim, (uint32_t)a, (uint32_t)b, gap, R[i], R[j]))
                continue;
            o->pairs++;
            real depth = -gap * (R[i] + R[j]) / (2 * R[i] * R[j]);
            if (deeper(depth, a, b, o))
                o->pair_depth = depth, o->pair_a = a, o->pair_b = b;
        }
}

/* Overlapping pairs among the particles, through the levelled grid and
 * lists with no pad, on copies of the positions and radii in its order. */
static grains_status pair_overlaps(const grains_sim *sim, const start_set *set, grains_start_overlaps *o,
                                   grains_error *err)
{
    size_t n = set->n;
    uint32_t *where = malloc(2 * (n + 1) * sizeof *where), *order = where ? where + n + 1 : NULL;
    vec3 *x = malloc((n + 1) * sizeof *x);
    real *R = malloc((n + 1) * sizeof *R);
    grains_grid g = {0};
    grains_neighbors nb = {0};
    grid_particles in = {set->x, set->R, NULL, n, set->shared ? &set->share : NULL, set->copy, 1};
    if (!where || !x || !R) {
        free(where), free(x), free(R);
        return out_of_memory(sim, set, err);
    }
    grains_status s = grid_build(&g, &in, 0, &sim->box, where, NULL, 0, err);
    if (s == GRAINS_ERR_NOMEM && set->shared)
        sim_start_failed(&sim->rank_view);
    for (size_t i = 0; s == GRAINS_OK && i < n; i++) {
        order[where[i]] = (uint32_t)i;
        x[where[i]] = set->x[i];
        R[where[i]] = set->R[i];
    }
    if (s == GRAINS_OK)
        s = neighbors_build(&nb, &g, NULL, x, R, n, NULL, sim->nthreads, err);
    if (s != GRAINS_OK && set->shared) /* (out of memory on this rank alone) */
        sim_start_failed(&sim->rank_view);
    if (s == GRAINS_OK)
        deepest_pair(sim, set, &nb, x, R, order, o);
    neighbors_free(&nb);
    grid_free(&g);
    free(where);
    free(x);
    free(R);
    return s;
}

/* Particles overlapping a mesh element (its radius included), when there
 * are not too many pairs of them to try: the deepest by depth, then the
 * smaller id and element. */
static void wall_overlaps(const grains_sim *sim, const start_set *own, grains_start_overlaps *o)
{
    const grains_mesh *m = sim->mesh;
    o->walls_checked = !m || (double)grains_sim_count(sim) * (double)m->n_elements <= 5e7;
    for (size_t i = 0; m && o->walls_checked && i < own->n; i++) {
        int counted = 0;
        for (size_t e = 0; e < m->n_elements; e++) {
            const grains_mesh_element *el = &m->elements[e];
            vec3 x = own->x[i];
            real r = own->R[i];
            if (el->off || x.x < el->lo.x - r || x.y < el->lo.y - r || x.z < el->lo.z - r || x.x > el->hi.x + r ||
                x.y > el->hi.y + r || x.z > el->hi.z + r)
                continue;
            real gap = v3_norm(grains_mesh_offset(m, e, x)) - r - el->R;
            if (gap >= 0)
                continue;
            o->walls += !counted;
            counted = 1;
            double depth = -gap / (2 * r);
            long id = own->id[i];
            if (depth > o->wall_depth || (depth == o->wall_depth && o->wall_particle >= 0 &&
                                          (id < o->wall_particle || (id == o->wall_particle && e < o->wall_element))))
                o->wall_depth = depth, o->wall_particle = id, o->wall_element = e;
        }
    }
}

/* Every rank's findings as one process's: counts summed, the deepest kept. */
static void merge_overlaps(grains_start_overlaps *o, const grains_start_overlaps *q)
{
    o->pairs += q->pairs;
    if (q->pair_a >= 0 && deeper(q->pair_depth, q->pair_a, q->pair_b, o))
        o->pair_depth = q->pair_depth, o->pair_a = q->pair_a, o->pair_b = q->pair_b;
    o->walls += q->walls;
    if (q->wall_particle >= 0 &&
        (q->wall_depth > o->wall_depth ||
         (q->wall_depth == o->wall_depth && (o->wall_particle < 0 || q->wall_particle < o->wall_particle ||
                                             (q->wall_particle == o->wall_particle && q->wall_element < o->wall_element)))))
        o->wall_depth = q->wall_depth, o->wall_particle = q->wall_particle, o->wall_element = q->wall_element;
}

/* On ranks that hold their own alone, collective: every rank returns the
 * same, found by the homes of the particles' blocks (decomp/rank_start.c). */
grains_status grains_sim_start_overlaps(const grains_sim *sim, grains_start_overlaps *out, grains_error *err)
{
    grains_start_overlaps mine = {.pair_a = -1, .pair_b = -1, .wall_particle = -1};
    start_set own, spread = {0};
    grains_status s = sim_start_own(&sim->rank_view, &own, err);
    if (s != GRAINS_OK)
        return s;
    if (own.shared && grains_sim_count(sim))
        s = sim_start_spread(&sim->rank_view, &own, sim->p.skin, &spread, err);
    if (s == GRAINS_OK && grains_sim_count(sim))
        s = pair_overlaps(sim, own.shared ? &spread : &own, &mine, err);
    sim_start_free(&spread);
    if (s == GRAINS_OK)
        wall_overlaps(sim, &own, &mine);
    grains_start_overlaps *all = s == GRAINS_OK ? sim_start_gather(&sim->rank_view, &own, &mine, sizeof mine) : NULL;
    sim_start_free(&own);
    if (s != GRAINS_OK)
        return s;
    *out = all[0];
    for (int q = 1; q < own.size; q++)
        merge_overlaps(out, &all[q]);
    free(all);
    return GRAINS_OK;
}
