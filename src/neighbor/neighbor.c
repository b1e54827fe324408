/* Building the candidate lists from the cell grid, and re-attaching histories. */
#include "neighbor/neighbor.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#define LIST_LIMIT 0xF0000000u /* offsets are 32-bit */

/* Lists change little between rebuilds: little headroom. */
static int grow_list(grains_neighbors *nb, size_t need)
{
    if (need <= nb->cap)
        return 1;
    size_t ncap = array_grown(need, 32);
    if (!array_resize((void **)&nb->j, ncap, sizeof *nb->j))
        return 0;
    nb->cap = ncap;
    return 1;
}

/* Whether the cell lies in [lo, hi] (per axis; along a periodic axis the
 * range, at most one period, may wrap). */
static int cell_in_box(const grains_grid *g, int level, uint32_t cell, const int64_t lo[3], const int64_t hi[3])
{
    int64_t c[3];
    grid_cell_coords(g, cell, c);
    return grid_coords_in(g, level, c, lo, hi);
}

/* Cells [lo, hi] span more cells than the level has occupied ones: then
 * scanning those is cheaper (a grain far larger than a smaller level's
 * cells, or a fuzzed state), and the scan is bounded whatever the box.
 * The two ways visit cells in different orders, so the choice counts the
 * whole's cells, which a rank holding a share of the particles chooses as
 * one process does (its grid holds fewer). */
static int scan_cells(const grains_grid *g, int level, const int64_t lo[3], const int64_t hi[3])
{
    double span = (double)(hi[0] - lo[0] + 1) * (double)(hi[1] - lo[1] + 1) * (double)(hi[2] - lo[2] + 1);
    return span > (double)g->level[level].cells_whole;
}

/* The partners j > i within reach in one cell, counted on from `count`, and
 * written to out[count] while count < room (out may be NULL where room is
 * 0); returns the new count. `periodic`: 0 none, 1 a periodic box, 2 a
 * sheared one. */
__attribute__((always_inline)) static inline uint32_t cell_partners(const grains_grid *g, const periodic_box *box,
                                                                    const vec3 *x, const real *R, uint32_t i,
                                                                    real pad, uint32_t cell, uint32_t *out,
                                                                    uint32_t room, uint32_t count, const int periodic)
{
    uint32_t from = g->first[cell] > i ? g->first[cell] : i + 1; /* (the cell is in particle order) */
    for (uint32_t j = from; j < g->first[cell + 1]; j++) {
        vec3 dx = v3_sub(x[i], x[j]);
        if (periodic)
            dx = periodic_delta_as(box, dx, NULL, periodic == 2);
        real reach = R[i] + R[j] + pad;
        if (v3_dot(dx, dx) < reach * reach) {
            if (count < room)
                out[count] = j;
            count++;
        }
    }
    return count;
}

/* The cells around one cell (its own level's, [c - 1, c + 1] on each axis,
 * GRID_NONE where empty), found once for the particles that share it: a
 * particle's reach within its own level never leaves them. */
typedef struct {
    int level; /* -1: empty */
    int64_t c[3];
    uint32_t cell[27];
} cell_cache;

/* Whether the cells [lo, hi] lie among c's neighbours, which the cache then
 * holds (filled around c first if it held another cell's); 0: the caller
 * finds the cells itself. */
static int cached_cells(const grains_grid *g, cell_cache *cc, int level, const int64_t c[3], const int64_t lo[3],
                        const int64_t hi[3])
{
    for (int k = 0; k < 3; k++)
        if (lo[k] < c[k] - 1 || hi[k] > c[k] + 1)
            return 0;
    if (cc->level == level && cc->c[0] == c[0] && cc->c[1] == c[1] && cc->c[2] == c[2])
        return 1;
    int64_t d[3];
    int a = 0;
    for (d[2] = c[2] - 1; d[2] <= c[2] + 1; d[2]++)
        for (d[1] = c[1] - 1; d[1] <= c[1] + 1; d[1]++)
            for (d[0] = c[0] - 1; d[0] <= c[0] + 1; d[0]++)
                cc->cell[a++] = grid_find(g, level, d);
    cc->level = level;
    memcpy(cc->c, c, sizeof cc->c);
    return 1;
}

/* Visits the candidates of i (j > i within reach): those of its own level,
 * then those of each smaller level (stored after it), each in the cells its
 * reach covers; returns how many, and writes the first `room` of them to
 * `out`. Order: levels, cells in a fixed order, particles in cell order, so
 * the list is the same for any threads (and whether a cell was found through
 * the cache `cc` or the hash). Compiled without periodic images, with them
 * and with a sheared box's (the test costs the plain search 15% of its
 * instructions). */
__attribute__((always_inline)) static inline uint32_t candidates_of(const grains_grid *g, const vec3 *x, const real *R,
                                                                   uint32_t i, real pad, uint32_t *out,
                                                                   uint32_t room, cell_cache *cc, const int periodic)
{
    uint32_t count = 0;
    const periodic_box box = g->box; /* a copy: the stores to out[] cannot alias it */
    const int own = grid_level_of(g, i);
    for (int m = own; m < g->n_levels; m++) {
        int64_t lo[GRID_IMAGE_BOXES][3], hi[GRID_IMAGE_BOXES][3], d[3], c[3];
        int boxes = grid_reach_images(g, &box, m, x[i], R[i] + g->level[m].R_top + pad, lo, hi);
        if (scan_cells(g, m, lo[0], hi[0])) {
            for (uint32_t cell = g->level[m].cell_start; cell < g->level[m + 1].cell_start; cell++)
                for (int r = 0; r < boxes; r++)
                    if (cell_in_box(g, m, cell, lo[r], hi[r])) { /* (the boxes are apart along z) */
                        count = cell_partners(g, &box, x, R, i, pad, cell, out, room, count, periodic);
                        break;
                    }
            continue;
        }
        grid_coords(g, m, x[i], c);
        for (int r = 0; r < boxes; r++) {
            int cached = m == own && cached_cells(g, cc, m, c, lo[r], hi[r]);
            for (d[2] = lo[r][2]; d[2] <= hi[r][2]; d[2]++)
                for (d[1] = lo[r][1]; d[1] <= hi[r][1]; d[1]++)
                    for (d[0] = lo[r][0]; d[0] <= hi[r][0]; d[0]++) {
                        uint32_t cell = cached ? cc->cell[(d[2] - c[2] + 1) * 9 + (d[1] - c[1] + 1) * 3 +
                                                          d[0] - c[0] + 1]
                                               : grid_find(g, m, d);
                        if (cell != GRID_NONE)
                            count = cell_partners(g, &box, x, R, i, pad, cell, out, room, count, periodic);
                    }
        }
    }
    return count;
}

static uint32_t pair_candidates(const grains_grid *g, const vec3 *x, const real *R, uint32_t i, real pad,
                                uint32_t *out, uint32_t room, cell_cache *cc)
{
    return g->box.sheared ? candidates_of(g, x, R, i, pad, out, room, cc, 2)
           : g->box.mask  ? candidates_of(g, x, R, i, pad, out, room, cc, 1)
                          : candidates_of(g, x, R, i, pad, out, room, cc, 0);
}

/* Records the pair (i, e) when particle i is within reach of element e. */
static int consider(grains_neighbors *nb, size_t *count, const grains_mesh *mesh, size_t e, const vec3 *x,
                    const real *R, uint32_t i, real pad)
{
    if (nb->listed && !nb->listed[i])
        return 1;
    vec3 d = grains_mesh_offset(mesh, e, x[i]);
    real reach = R[i] + mesh->elements[e].R + pad;
    if (v3_dot(d, d) >= reach * reach)
        return 1;
    if (!array_reserve((void **)&nb->scratch, &nb->scratch_cap, 2 * (*count + 1), sizeof *nb->scratch, 1))
        return 0;
    nb->scratch[2 * *count] = i;
    nb->scratch[2 * *count + 1] = (uint32_t)e;
    (*count)++;
    return 1;
}

/* All particles of a level in cells touching the element's box grown by
 * that level's reach: through the hash when the box spans few cells, else
 * by scanning the level's occupied cells. */
static int element_candidates(grains_neighbors *nb, size_t *count, const grains_grid *g, int level,
                              const grains_mesh *mesh, size_t e, const vec3 *x, const real *R, real pad)
{
    const grains_mesh_element *el = &mesh->elements[e];
    real reach = g->level[level].R_top + pad;
    int64_t lo[3], hi[3], c[3];
    grid_coords(g, level, v3_sub(el->lo, v3(reach, reach, reach)), lo);
    grid_coords(g, level, v3_add(el->hi, v3(reach, reach, reach)), hi);
    for (int k = 0; k < 3; k++) /* a range wider than a period visits each cell once */
        if ((g->box.mask >> k & 1) && hi[k] - lo[k] + 1 >= g->level[level].cells[k]) {
            lo[k] = 0;
            hi[k] = g->level[level].cells[k] - 1;
        }
    uint32_t from = g->level[level].cell_start, to = g->level[level + 1].cell_start;
    if (scan_cells(g, level, lo, hi)) {
        for (uint32_t cell = from; cell < to; cell++)
            if (cell_in_box(g, level, cell, lo, hi))
                for (uint32_t i = g->first[cell]; i < g->first[cell + 1]; i++)
                    if (!consider(nb, count, mesh, e, x, R, i, pad))
                        return 0;
        return 1;
    }
    for (c[2] = lo[2]; c[2] <= hi[2]; c[2]++)
        for (c[1] = lo[1]; c[1] <= hi[1]; c[1]++)
            for (c[0] = lo[0]; c[0] <= hi[0]; c[0]++) {
                uint32_t cell = grid_find(g, level, c);
                if (cell != GRID_NONE)
                    for (uint32_t i = g->first[cell]; i < g->first[cell + 1]; i++)
                        if (!consider(nb, count, mesh, e, x, R, i, pad))
                            return 0;
            }
    return 1;
}

/* Mesh candidates into scratch as (particle, element) pairs, element by
 * element, level by level. */
static int collect_mesh(grains_neighbors *nb, size_t *count, const grains_grid *g, const grains_mesh *mesh,
                        const vec3 *x, const real *R, real pad)
{
    *count = 0;
    for (size_t e = 0; mesh && e < mesh->n_elements; e++)
        for (int level = 0; level < g->n_levels && !mesh->elements[e].off; level++)
            if (!element_candidates(nb, count, g, level, mesh, e, x, R, pad))
                return 0;
    return 1;
}

/* Places the mesh entries after each particle's pairs: scratch is in element
 * order, so walking it backwards from each segment's end leaves each
 * particle's elements in ascending order; start is restored after. */
static void place_mesh(grains_neighbors *nb, size_t count)
{
    for (size_t k = count; k-- > 0;) {
        uint32_t i = nb->scratch[2 * k], at = --nb->start[i + 1];
        nb->j[at] = nb->scratch[2 * k + 1] | STORE_MESH_BIT;
    }
    for (size_t k = 0; k < count; k++)
        nb->start[nb->scratch[2 * k] + 1]++;
}

/* One thread's share of a build: particles [lo, hi), whose lists go to
 * j[base, base + room) in the pass that finds them (lists change little
 * between rebuilds: the room is what the last build's lists of the same
 * share took, with the headroom of j). A share that does not fit (the first
 * build, lists that grew) is `full`: its lists are counted only. */
typedef struct {
    size_t lo, hi, base, room, used;
    int full;
} list_share;

/* The shares of n particles among `parts`, j's capacity divided among them
 * as the last build's lists (of nb->n_particles) were, or by particles. */
static void plan_shares(const grains_neighbors *nb, list_share *sh, int parts, size_t n)
{
    size_t prev_n = nb->n_particles, prev_total = prev_n ? nb->start[prev_n] : 0;
    for (int t = 0; t < parts; t++) {
        size_t lo = n * (size_t)t / (size_t)parts;
        double part = prev_total ? (double)nb->start[lo < prev_n ? lo : prev_n] / (double)prev_total
                                 : (n ? (double)lo / (double)n : 0);
        size_t base = part < 1 ? (size_t)(part * (double)nb->cap) : nb->cap;
        if (t > 0 && base < sh[t - 1].base)
            base = sh[t - 1].base;
        sh[t] = (list_share){.lo = lo, .hi = n * (size_t)(t + 1) / (size_t)parts, .base = base};
    }
    for (int t = 0; t < parts; t++)
        sh[t].room = (t + 1 < parts ? sh[t + 1].base : nb->cap) - sh[t].base;
}

/* Share sh's lists, each followed by the room its mesh entries take (their
 * count in nb->start[i + 1], to which the pairs are added). */
static void fill_share(grains_neighbors *nb, const grains_grid *g, const vec3 *x, const real *R, list_share *sh)
{
    cell_cache cc = {.level = -1};
    for (size_t i = sh->lo; i < sh->hi; i++) {
        size_t left = sh->full ? 0 : sh->room - sh->used;
        uint32_t room = left < UINT32_MAX ? (uint32_t)left : UINT32_MAX;
        uint32_t *out = room ? nb->j + sh->base + sh->used : NULL;
        uint32_t pairs = !nb->listed || nb->listed[i] ? pair_candidates(g, x, R, (uint32_t)i, g->pad, out, room, &cc)
                                                       : 0;
        size_t need = (size_t)pairs + nb->start[i + 1];
        nb->start[i + 1] += pairs;
        if (need <= left)
            sh->used += need;
        else
            sh->full = 1;
    }
}

/* The shares moved together, in order: each to its first particle's
 * offset, which lies at or below its base (those before it took no more
 * than their room). */
static void join_shares(grains_neighbors *nb, const list_share *sh, int parts)
{
    for (int t = 0; t < parts; t++)
        if (sh[t].used && nb->start[sh[t].lo] != sh[t].base)
            memmove(nb->j + nb->start[sh[t].lo], nb->j + sh[t].base, sh[t].used * sizeof *nb->j);
}

/* Offsets from the counts in start[1..n]; an error past LIST_LIMIT. */
static grains_status sum_counts(grains_neighbors *nb, size_t n, size_t *total_out, grains_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += nb->start[i + 1];
        if (total >= LIST_LIMIT)
            return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0,
                                    "more than %u neighbour pairs among %zu particles (the last one counted lists %u): "
                                    "they crowd far closer than their radii allow, or the skin is far too large",
                                    LIST_LIMIT, n, nb->start[i + 1]);
        nb->start[i + 1] = (uint32_t)total;
    }
    *total_out = total;
    return GRAINS_OK;
}

/* The lists again, in place, once j holds them all (the pass after the
 * counts, when a share did not fit). */
static void fill_in_place(grains_neighbors *nb, const grains_grid *g, const vec3 *x, const real *R, size_t n,
                          int nthreads)
{
#pragma omp parallel num_threads(nthreads)
    {
        cell_cache cc = {.level = -1};
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++)
            if (nb->start[i + 1] > nb->start[i]) /* (no pairs at all: j may be NULL) */
                pair_candidates(g, x, R, (uint32_t)i, g->pad, nb->j + nb->start[i], nb->start[i + 1] - nb->start[i],
                                &cc);
    }
}

grains_status neighbors_build(grains_neighbors *nb, const grains_grid *g, const grains_mesh *mesh, const vec3 *x,
                              const real *R, size_t n, const uint8_t *listed, int nthreads, grains_error *err)
{
    size_t n_mesh = 0, total = 0;
    const int parts = nthreads > 0 ? nthreads : 1;
    list_share *sh = malloc((size_t)parts * sizeof *sh);
    nb->listed = listed;
    if (n > STORE_INDEX_MASK || (mesh && mesh->n_elements > STORE_INDEX_MASK)) {
        free(sh);
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %u particles or mesh elements",
                                STORE_INDEX_MASK);
    }
    if (!sh || !array_reserve((void **)&nb->start, &nb->cap_start, n + 1, sizeof *nb->start, 4) ||
        !collect_mesh(nb, &n_mesh, g, mesh, x, R, g->pad)) {
        free(sh);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the neighbour list");
    }
    plan_shares(nb, sh, parts, n); /* (from the last build's offsets, before they are overwritten) */
    nb->n_particles = n;
    memset(nb->start, 0, (n + 1) * sizeof *nb->start);
    for (size_t k = 0; k < n_mesh; k++)
        nb->start[nb->scratch[2 * k] + 1]++;
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (int t = 0; t < parts; t++)
        fill_share(nb, g, x, R, &sh[t]);
    int full = 0;
    for (int t = 0; t < parts; t++)
        full |= sh[t].full;
    grains_status s = sum_counts(nb, n, &total, err);
    if (s == GRAINS_OK && !full)
        join_shares(nb, sh, parts);
    else if (s == GRAINS_OK && !grow_list(nb, total))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu neighbour pairs", total);
    else if (s == GRAINS_OK)
        fill_in_place(nb, g, x, R, n, nthreads);
    free(sh);
    if (s != GRAINS_OK) {
        nb->n_particles = 0; /* (its offsets are counts: no plan for the next build) */
        return s;
    }
    nb->n = total;
    place_mesh(nb, n_mesh);
    nb->listed = NULL;
    return GRAINS_OK;
}

size_t neighbors_collect_keys(const grains_neighbors *nb, store_key *keys, int drop_mesh)
{
    size_t h = 0;
    for (size_t i = 0; i < nb->n_particles; i++)
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t j = nb->j[k];
            if (!(j & STORE_HIST_BIT))
                continue;
            int dead = drop_mesh && (j & STORE_MESH_BIT);
            keys[h++] = (store_key){dead ? STORE_DEAD : (uint32_t)i, j & ~STORE_HIST_BIT};
        }
    return h;
}

static uint32_t find_entry(const grains_neighbors *nb, store_key key)
{
    if (key.i >= nb->n_particles)
        return STORE_DEAD;
    for (uint32_t k = nb->start[key.i]; k < nb->start[key.i + 1]; k++)
        if (nb->j[k] == key.j)
            return k;
    return STORE_DEAD;
}

void neighbors_attach_contacts(grains_neighbors *nb, store_key *keys, size_t n, int nthreads)
{
    /* Found first, marked after: a mark written while another thread reads
     * the same list in find_entry would be a data race (ThreadSanitizer
     * saw it). Pairs are distinct, so each entry is marked by one key only. */
#pragma omp parallel num_threads(nthreads)
    {
#pragma omp for schedule(static)
        for (size_t k = 0; k < n; k++) {
            uint32_t at = find_entry(nb, keys[k]);
            if (at == STORE_DEAD)
                keys[k].i = STORE_DEAD;
            else
                keys[k].j = at;
        }
#pragma omp for schedule(static)
        for (size_t k = 0; k < n; k++)
            if (keys[k].i != STORE_DEAD)
                nb->j[keys[k].j] |= STORE_HIST_BIT;
    }
}

static uint32_t marked(const grains_neighbors *nb, uint32_t from, uint32_t to)
{
    uint32_t c = 0;
    for (uint32_t k = from; k < to; k++)
        c += (nb->j[k] & STORE_HIST_BIT) != 0;
    return c;
}

void neighbors_place_histories(const grains_neighbors *nb, const grains_grid *g, const contact_store *cs,
                               store_key *keys, size_t n, uint32_t *first, int nthreads)
{
    const long n_blocks = (long)g->n_blocks;
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (long b = 0; b < n_blocks; b++) {
        size_t place = cs->block[b].base;
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++) {
            first[i] = (uint32_t)place;
            place += marked(nb, nb->start[i], nb->start[i + 1]);
        }
    }
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (size_t k = 0; k < n; k++)
        if (keys[k].i != STORE_DEAD)
            keys[k].j = first[keys[k].i] + marked(nb, nb->start[keys[k].i], keys[k].j);
}

static int touches(vec3 d, real reach) { return v3_dot(d, d) < reach * reach; }

void neighbors_count_contacts(const grains_neighbors *nb, const grains_grid *g, const grains_mesh *mesh,
                              const vec3 *x, const real *R, uint32_t *pending, uint32_t *live, int nthreads)
{
    const long n_blocks = (long)g->n_blocks;
#pragma omp parallel for schedule(dynamic, 4) num_threads(nthreads)
    for (long b = 0; b < n_blocks; b++) {
        uint32_t p = 0, l = 0;
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++) {
            for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
                uint32_t j = nb->j[k], e = j & STORE_INDEX_MASK;
                if (j & STORE_HIST_BIT)
                    l++;
                else if (j & STORE_MESH_BIT)
                    p += touches(grains_mesh_offset(mesh, e, x[i]), R[i] + mesh->elements[e].R);
                else
                    p += touches(periodic_delta(&g->box, v3_sub(x[i], x[j])), R[i] + R[j]);
            }
        }
        pending[b] = p;
        live[b] = l;
    }
}

void neighbors_free(grains_neighbors *nb)
{
    free(nb->start);
    free(nb->j);
    free(nb->scratch);
    memset(nb, 0, sizeof *nb);
}

void neighbors_write_state(const grains_neighbors *nb, bytes_out *o)
{
    bytes_put_u64(o, nb->n_particles);
    bytes_put_u64(o, nb->n);
    if (nb->start)
        bytes_put_u32s(o, nb->start, nb->n_particles + 1);
    else /* never built: no lists */
        bytes_put_u32(o, 0);
    bytes_put_u32s(o, nb->j, nb->n);
}

/* Why the lists read are not ones a build makes, or NULL. */
static const char *lists_invalid(const grains_neighbors *nb, size_t n_elements)
{
    if (nb->start[0] != 0 || nb->start[nb->n_particles] != nb->n)
        return "the neighbour lists' extent";
    for (size_t i = 0; i < nb->n_particles; i++) {
        if (nb->start[i + 1] < nb->start[i] || nb->start[i + 1] > nb->n)
            return "the neighbour lists' offsets";
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t e = nb->j[k], at = e & STORE_INDEX_MASK;
            if ((e & STORE_MESH_BIT) ? at >= n_elements : (at <= i || at >= nb->n_particles))
                return "a neighbour list's entry";
        }
    }
    return NULL;
}

grains_status neighbors_read_state(grains_neighbors *nb, bytes_in *in, size_t n_particles, size_t n_elements,
                                   grains_error *err)
{
    size_t n_lists, n;
    if (!bytes_get_count(in, 4, n_particles, &n_lists) || !bytes_get_count(in, 4, LIST_LIMIT, &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the neighbour lists' counts");
    if (!array_reserve((void **)&nb->start, &nb->cap_start, n_lists + 1, sizeof *nb->start, 8) || !grow_list(nb, n))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu neighbour pairs", n);
    nb->n_particles = n_lists;
    nb->n = n;
    bytes_get_u32s(in, nb->start, n_lists + 1);
    bytes_get_u32s(in, nb->j, n);
    if (in->bad) {
        nb->n_particles = nb->n = 0;
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the neighbour lists");
    }
    const char *why = lists_invalid(nb, n_elements);
    if (why) {
        nb->n_particles = nb->n = 0;
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: %s", why);
    }
    return GRAINS_OK;
}
