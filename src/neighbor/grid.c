/* Hashed cell grid: open addressing on packed cell coordinates. */
#include "neighbor/grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#define COORD_BITS 20
#define COORD_LIMIT (1 << (COORD_BITS - 1)) /* |c| below this can be packed */
#define LEVEL_SHIFT 60                      /* the level above the three coordinates */

static uint64_t pack(int level, const int64_t c[3])
{
    uint64_t m = (1u << COORD_BITS) - 1;
    return (uint64_t)level << LEVEL_SHIFT | ((uint64_t)(c[0] + COORD_LIMIT) & m) |
           (((uint64_t)(c[1] + COORD_LIMIT) & m) << COORD_BITS) | (((uint64_t)(c[2] + COORD_LIMIT) & m) << (2 * COORD_BITS));
}

static int level_of_key(uint64_t key) { return (int)(key >> LEVEL_SHIFT); }

static size_t hash_slot(uint64_t key, size_t n_slots)
{
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15ull;
    key ^= key >> 29;
    return (size_t)(key & (n_slots - 1));
}

/* floor(v) as an integer, held within +-2^40 (far outside the cells that
 * can exist, 2^19 a side): a coordinate of 1e300, or not a number, must
 * not overflow the conversion (undefined behaviour) but lie beyond every cell. */
static int64_t cell_coord(real v)
{
    const real far = 1099511627776.0; /* 2^40 */
    v = floor(v);
    return v < far ? (v > -far ? (int64_t)v : -(int64_t)far) : (isnan(v) ? -(int64_t)far : (int64_t)far);
}

void grid_coords(const grains_grid *g, int level, vec3 x, int64_t c[3])
{
    const real *edge = g->level[level].edge;
    c[0] = cell_coord((x.x - g->origin.x) / edge[0]);
    c[1] = cell_coord((x.y - g->origin.y) / edge[1]);
    c[2] = cell_coord((x.z - g->origin.z) / edge[2]);
}

void grid_reach(const grains_grid *g, int level, vec3 x, real reach, int64_t lo[3], int64_t hi[3])
{
    grid_coords(g, level, v3_sub(x, v3(reach, reach, reach)), lo);
    grid_coords(g, level, v3_add(x, v3(reach, reach, reach)), hi);
    for (int k = 0; k < 3; k++) /* a range wider than a period visits each cell once */
        if ((g->box.mask >> k & 1) && hi[k] - lo[k] + 1 >= g->level[level].cells[k]) {
            lo[k] = 0;
            hi[k] = g->level[level].cells[k] - 1;
        }
}

int grid_reach_images(const grains_grid *g, const periodic_box *box, int level, vec3 x, real reach,
                      int64_t lo[][3], int64_t hi[][3])
{
    grid_reach(g, level, x, reach, lo[0], hi[0]);
    if (!box->sheared)
        return 1;
    const grid_level *lv = &g->level[level];
    int64_t z_lo = lo[0][2], z_hi = hi[0][2], n_z = lv->cells[2];
    if (z_hi - z_lo + 1 >= n_z) { /* every row: a partner may lie anywhere along x */
        lo[0][0] = 0;
        hi[0][0] = lv->cells[0] - 1;
        return 1;
    }
    int boxes = 0;
    const int64_t y_lo = lo[0][1], y_hi = hi[0][1];
    for (int64_t n = grid_floor_div(z_lo, n_z); n <= grid_floor_div(z_hi, n_z); n++, boxes++) {
        /* the rows of the n-th image above: a partner there is at its x + n shift */
        grid_reach(g, level, v3(x.x - (real)n * box->shift, x.y, x.z), reach, lo[boxes], hi[boxes]);
        lo[boxes][1] = y_lo, hi[boxes][1] = y_hi;
        lo[boxes][2] = z_lo > n * n_z ? z_lo : n * n_z;
        hi[boxes][2] = z_hi < (n + 1) * n_z - 1 ? z_hi : (n + 1) * n_z - 1;
    }
    return boxes;
}

/* c with its periodic coordinates brought into [0, cells). */
static void wrap_cell(const grains_grid *g, int level, const int64_t c[3], int64_t w[3])
{
    for (int k = 0; k < 3; k++) {
        w[k] = c[k];
        if (g->box.mask >> k & 1) {
            int64_t n = g->level[level].cells[k];
            w[k] %= n;
            w[k] += w[k] < 0 ? n : 0;
        }
    }
}

static int in_range(const int64_t c[3])
{
    for (int k = 0; k < 3; k++)
        if (c[k] < -COORD_LIMIT + 2 || c[k] >= COORD_LIMIT - 2)
            return 0;
    return 1;
}

uint32_t grid_find(const grains_grid *g, int level, const int64_t c_in[3])
{
    int64_t wrapped[3];
    const int64_t *c = c_in;
    if (g->box.mask) {
        wrap_cell(g, level, c_in, wrapped);
        c = wrapped;
    }
    if (!in_range(c) || g->n_slots == 0)
        return GRID_NONE;
    uint64_t key = pack(level, c);
    for (size_t s = hash_slot(key, g->n_slots);; s = (s + 1) & (g->n_slots - 1)) {
        uint32_t cell = g->slot[s];
        if (cell == 0)
            return GRID_NONE;
        if (g->key[cell - 1] == key)
            return cell - 1;
    }
}

void grid_cell_coords(const grains_grid *g, uint32_t cell, int64_t c[3])
{
    uint64_t m = (1u << COORD_BITS) - 1;
    for (int k = 0; k < 3; k++)
        c[k] = (int64_t)((g->key[cell] >> (COORD_BITS * k)) & m) - COORD_LIMIT;
}

int grid_block_coords(const grains_grid *g, uint32_t b, int64_t bc[3])
{
    uint32_t cell = g->block_start[b];
    int level = 0;
    while (level + 1 < g->n_levels && cell >= g->level[level + 1].cell_start)
        level++;
    grid_cell_coords(g, cell, bc);
    for (int k = 0; k < 3; k++)
        bc[k] /= g->level[level].block; /* binned coordinates are >= 0 */
    return level;
}

uint32_t grid_find_block(const grains_grid *g, int level, const int64_t bc_in[3])
{
    /* the blocks of a phase are in (z, y, x) order */
    int64_t bc[3];
    for (int k = 0; k < 3; k++) {
        bc[k] = bc_in[k];
        if (g->box.mask >> k & 1) {
            int64_t n = g->level[level].cells[k] / g->level[level].block;
            bc[k] = (bc[k] % n + n) % n;
        } else if (bc[k] < 0) {
            return GRID_NONE;
        }
    }
    int phase = GRID_COLOURS * level + (int)((bc[0] & 1) | (bc[1] & 1) << 1 | (bc[2] & 1) << 2);
    uint32_t lo = g->phase_start[phase], hi = g->phase_start[phase + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int64_t at[3];
        grid_block_coords(g, mid, at);
        int cmp = at[2] != bc[2] ? (at[2] < bc[2] ? -1 : 1)
                  : at[1] != bc[1] ? (at[1] < bc[1] ? -1 : 1)
                  : at[0] != bc[0] ? (at[0] < bc[0] ? -1 : 1)
                                   : 0;
        if (cmp == 0)
            return mid;
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return GRID_NONE;
}

void grid_pair_blocks(const grains_grid *g, int level, vec3 x, real R, int64_t lo[3], int64_t hi[3])
{
    const grid_level *lv = &g->level[level];
    /* The pairs' test |dx|^2 < reach^2 in floating point may admit a pair
     * a few ulps beyond the reach: a relative margin of 1e-9 covers it,
     * and x -/+ the reach rounds monotonically onto the partner's side. */
    grid_reach(g, level, x, (R + lv->R_top + g->pad) * (1 + 1e-9), lo, hi);
    for (int k = 0; k < 3; k++) {
        int64_t n = lv->cells[k] / lv->block;
        lo[k] = grid_floor_div(lo[k], lv->block);
        hi[k] = grid_floor_div(hi[k], lv->block);
        if ((g->box.mask >> k & 1) && hi[k] - lo[k] + 1 >= n) { /* each block once */
            lo[k] = 0;
            hi[k] = n - 1;
        }
    }
}

/* Block coordinates in a key: 19 bits each (cell coordinates < 2^18). */
#define KEY_BLOCK_BITS 19
#define KEY_BLOCK_MASK ((UINT64_C(1) << KEY_BLOCK_BITS) - 1)
#define KEY_PHASE_SHIFT 57 /* key >> 57: level * 8 + colour */

/* The key of a level's block at bc (>= 0, each below 2^19). */
static uint64_t block_key(int level, const uint64_t bc[3])
{
    uint64_t colour = (bc[0] & 1) | (bc[1] & 1) << 1 | (bc[2] & 1) << 2;
    return (uint64_t)level << LEVEL_SHIFT | colour << KEY_PHASE_SHIFT | bc[2] << (2 * KEY_BLOCK_BITS) |
           bc[1] << KEY_BLOCK_BITS | bc[0];
}

uint64_t grid_block_key(const grains_grid *g, uint32_t b)
{
    int64_t bc[3];
    int level = grid_block_coords(g, b, bc);
    uint64_t u[3] = {(uint64_t)bc[0], (uint64_t)bc[1], (uint64_t)bc[2]};
    return block_key(level, u);
}

uint64_t grid_key_at(const grains_grid *g, int level, const int64_t bc[3])
{
    uint64_t u[3];
    for (int k = 0; k < 3; k++) {
        int64_t c = bc[k];
        if (g->box.mask >> k & 1) {
            int64_t n = g->level[level].cells[k] / g->level[level].block;
            c = (c % n + n) % n;
        }
        if (c < 0 || c > (int64_t)KEY_BLOCK_MASK)
            return GRID_NO_KEY;
        u[k] = (uint64_t)c;
    }
    return block_key(level, u);
}

int grid_key_coords(uint64_t key, int64_t bc[3])
{
    for (int k = 0; k < 3; k++)
        bc[k] = (int64_t)(key >> (KEY_BLOCK_BITS * k) & KEY_BLOCK_MASK);
    return level_of_key(key);
}

/* Room for `need` cells; grows by 1/8 (a pack has ~0.3-0.6 cells per particle). */
static int reserve_cells(grains_grid *g, size_t need)
{
    if (need <= g->cap_cells)
        return 1;
    size_t cap = array_grown(need, 8);
    int ok = array_resize((void **)&g->key, cap, sizeof *g->key);
    ok = array_resize((void **)&g->first, cap + 1, sizeof *g->first) && ok;
    if (ok)
        g->cap_cells = cap;
    return ok;
}

/* A table for n cells, at most 2/3 full, re-filled from the cells. */
static int reserve_slots(grains_grid *g, size_t n)
{
    size_t want = 16;
    while (2 * want < 3 * n)
        want *= 2;
    if (want != g->n_slots) {
        uint32_t *s = realloc(g->slot, want * sizeof *s);
        if (!s)
            return 0;
        g->slot = s;
        g->n_slots = want;
    }
    memset(g->slot, 0, g->n_slots * sizeof *g->slot);
    for (size_t c = 0; c < g->n_cells; c++) {
        size_t s = hash_slot(g->key[c], g->n_slots);
        while (g->slot[s])
            s = (s + 1) & (g->n_slots - 1);
        g->slot[s] = (uint32_t)c + 1;
    }
    return 1;
}

/* The cell of key `key`, created if new; GRID_NONE when memory runs out. */
static uint32_t find_or_add(grains_grid *g, uint64_t key)
{
    size_t s = hash_slot(key, g->n_slots);
    for (;; s = (s + 1) & (g->n_slots - 1)) {
        uint32_t cell = g->slot[s];
        if (cell == 0)
            break;
        if (g->key[cell - 1] == key)
            return cell - 1;
    }
    if (3 * (g->n_cells + 1) > 2 * g->n_slots || g->n_cells == g->cap_cells) {
        if (!reserve_cells(g, g->n_cells + 1) || !reserve_slots(g, g->n_cells + g->n_cells / 2 + 16))
            return GRID_NONE;
        return find_or_add(g, key);
    }
    uint32_t cell = (uint32_t)g->n_cells++;
    g->key[cell] = key;
    g->first[cell] = 0; /* particle count while binning */
    g->slot[s] = cell + 1;
    return cell;
}

/* Size classes by doubling from the smallest radius R_s: class k holds
 * [2^k R_s, 2^(k+1) R_s) (the last class everything larger). Exact: the
 * bounds are R_s times powers of two. */
static int size_class(real R, real R_s)
{
    int k = 0;
    for (real bound = 2 * R_s; k + 1 < GRID_MAX_LEVELS && R >= bound; bound *= 2)
        k++;
    return k;
}

/* The share's values combined with every other share's (in place). */
static void shares_min(const grid_share *sh, real *v, int n)
{
    if (sh)
        sh->min(sh->ctx, v, n);
}

static void shares_max(const grid_share *sh, real *v, int n)
{
    if (sh)
        sh->max(sh->ctx, v, n);
}

static void shares_sum(const grid_share *sh, uint64_t *v, int n)
{
    if (sh)
        sh->sum(sh->ctx, v, n);
}

/* The smallest radius of all shares; an error (on every share) when one
 * holds a radius that is not a positive number. */
static grains_status smallest_radius(const grid_particles *in, real *R_s, grains_error *err)
{
    const real *R = in->R;
    uint64_t bad = 0;
    size_t first_bad = 0;
    *R_s = INFINITY;
    for (size_t i = 0; i < in->n; i++) {
        if (!(R[i] > 0) || !isfinite(R[i]))
            first_bad = bad++ ? first_bad : i;
        else
            *R_s = R[i] < *R_s ? R[i] : *R_s; /* (as fmin: inline, not libm's call per particle) */
    }
    uint64_t bad_here = bad;
    shares_sum(in->share, &bad, 1);
    shares_min(in->share, R_s, 1);
    if (bad_here)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "a particle's radius is %g", R[first_bad]);
    if (bad)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "a particle's radius is not a positive number");
    return GRAINS_OK;
}

/* The levels of radii R: the occupied classes, the largest first, each with
 * its largest radius and cell edge; level_of_class maps classes to levels. */
static grains_status plan_levels(grains_grid *g, const grid_particles *in, real pad, int level_of_class[], real *R_s,
                                 grains_error *err)
{
    grains_status s = smallest_radius(in, R_s, err);
    if (s != GRAINS_OK)
        return s;
    real top[GRID_MAX_LEVELS] = {0};
    uint64_t count[GRID_MAX_LEVELS] = {0};
    for (size_t i = 0; i < in->n; i++) {
        int k = size_class(in->R[i], *R_s);
        count[k] += !in->copy || !in->copy[i];
        top[k] = in->R[i] > top[k] ? in->R[i] : top[k];
    }
    shares_max(in->share, top, GRID_MAX_LEVELS);
    shares_sum(in->share, count, GRID_MAX_LEVELS);
    memset(g->level, 0, sizeof g->level); /* the state holds one level past the last: none of an earlier build */
    g->n_levels = 0;
    for (int k = GRID_MAX_LEVELS; k-- > 0;) {
        level_of_class[k] = g->n_levels;
        if (!count[k])
            continue;
        grid_level *lv = &g->level[g->n_levels++];
        *lv = (grid_level){.R_top = top[k], .h = 2 * top[k] + pad, .n_particles = count[k]};
        lv->edge[0] = lv->edge[1] = lv->edge[2] = lv->h;
    }
    return GRAINS_OK;
}

/* Sort key of a cell: level, colour, then block, then position inside the
 * block (coordinates of binned particles are >= 0: the origin is their
 * corner, and < 2^18, so block coordinates fit 19 bits). */
typedef struct {
    uint64_t major; /* level (4 bits), colour (3 bits), block coordinates (3 x 19 bits) */
    uint32_t minor; /* cell inside the block */
    uint32_t cell;
} cell_order;

static cell_order order_of(const grains_grid *g, uint32_t cell)
{
    int64_t c[3];
    grid_cell_coords(g, cell, c);
    int level = level_of_key(g->key[cell]);
    uint64_t B = (uint64_t)g->level[level].block, b[3], r[3];
    for (int k = 0; k < 3; k++) {
        b[k] = (uint64_t)c[k] / B;
        r[k] = (uint64_t)c[k] % B;
    }
    cell_order o = {block_key(level, b), (uint32_t)((r[2] * B + r[1]) * B + r[0]), cell};
    return o;
}

static int before(const cell_order *a, const cell_order *b)
{
    return a->major != b->major ? a->major < b->major : a->minor < b->minor;
}

static void sift_down(cell_order *a, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && before(&a[child], &a[child + 1]))
            child++;
        if (!before(&a[root], &a[child]))
            return;
        cell_order t = a[root];
        a[root] = a[child];
        a[child] = t;
    }
}

/* Heap sort: in place, n log n always. (qsort would allocate a buffer the
 * size of the array, which at a rebuild sets the run's peak memory.) */
static void heap_sort(cell_order *a, size_t n)
{
    for (size_t k = n / 2; k-- > 0;)
        sift_down(a, k, n);
    for (size_t end = n; end-- > 1;) {
        cell_order t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

static int phase_of(const cell_order *o) { return (int)(o->major >> KEY_PHASE_SHIFT); }

/* The cells into their phases' runs, in place (counted, then each swapped
 * into the next free place of its phase's run); at[p]: where phase p's
 * run begins (at[GRID_MAX_PHASES]: n). */
static void split_phases(cell_order *a, uint32_t n, uint32_t at[GRID_MAX_PHASES + 1])
{
    uint32_t next[GRID_MAX_PHASES] = {0};
    for (uint32_t k = 0; k < n; k++)
        next[phase_of(&a[k])]++;
    at[0] = 0;
    for (int p = 0; p < GRID_MAX_PHASES; p++)
        at[p + 1] = at[p] + next[p], next[p] = at[p];
    for (int p = 0; p < GRID_MAX_PHASES; p++)
        while (next[p] < at[p + 1]) {
            int q = phase_of(&a[next[p]]);
            if (q == p) {
                next[p]++;
                continue;
            }
            cell_order t = a[next[q]];
            a[next[q]++] = a[next[p]];
            a[next[p]] = t;
        }
}

/* The cells in order: split by phase (the keys' top bits), then each
 * phase's run heap-sorted, the runs over the threads. The keys are
 * distinct, so the order is the same on any number. */
static void sort_cells(cell_order *a, uint32_t n, int threads)
{
    uint32_t at[GRID_MAX_PHASES + 1];
    (void)threads; /* (a build without OpenMP) */
    split_phases(a, n, at);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 1 ? threads : 1) if (threads > 1)
    for (int p = 0; p < GRID_MAX_PHASES; p++)
        heap_sort(a + at[p], at[p + 1] - at[p]);
}

/* Block edge from a level's number of particles alone: ~64 cells per block
 * (a pack has ~0.5 cells per particle) and colour phase work of many blocks
 * at large N, at least 2 (the race-free minimum). */
static int block_edge(size_t n_particles)
{
    int B = (int)cbrt((double)n_particles / 1024.0);
    return B < 2 ? 2 : (B > 8 ? 8 : B);
}

static int reserve_blocks(grains_grid *g, size_t need)
{
    return array_reserve((void **)&g->block_start, &g->cap_blocks, need + 1, sizeof *g->block_start, 4);
}

/* Marks where each block and phase begins in the sorted cells. */
static int mark_blocks(grains_grid *g, const cell_order *sorted)
{
    size_t blocks = 0;
    for (uint32_t k = 0; k < g->n_cells; k++)
        blocks += k == 0 || sorted[k].major != sorted[k - 1].major;
    if (!reserve_blocks(g, blocks))
        return 0;
    g->n_blocks = 0;
    g->n_phases = GRID_COLOURS * g->n_levels;
    int phase = -1;
    for (uint32_t k = 0; k < g->n_cells; k++)
        if (k == 0 || sorted[k].major != sorted[k - 1].major) {
            while (phase < (int)(sorted[k].major >> KEY_PHASE_SHIFT))
                g->phase_start[++phase] = (uint32_t)g->n_blocks;
            g->block_start[g->n_blocks++] = k;
        }
    while (phase < GRID_MAX_PHASES) /* the phases of absent levels are empty */
        g->phase_start[++phase] = (uint32_t)g->n_blocks;
    g->block_start[g->n_blocks] = (uint32_t)g->n_cells;
    return 1;
}

/* Renumbers the cells in sorted order and places their particles one after
 * another, in each cell by id: key and first by new number, where[i] (which
 * held i's old cell) becomes i's new place. `sorted` is reused for the old
 * keys and counts. */
static void renumber(grains_grid *g, cell_order *sorted, uint32_t *where, const uint32_t *by_id, size_t n)
{
    for (uint32_t k = 0; k < g->n_cells; k++) {
        uint32_t old = sorted[k].cell;
        sorted[k].major = g->key[old];
        sorted[k].minor = g->first[old]; /* count */
        g->first[old] = k;               /* old number -> new */
    }
    for (size_t i = 0; i < n; i++)
        where[i] = g->first[where[i]];
    uint32_t next = 0;
    for (uint32_t k = 0; k < g->n_cells; k++) {
        g->key[k] = sorted[k].major;
        g->first[k] = next;
        next += sorted[k].minor;
        sorted[k].minor = g->first[k]; /* fill cursor */
    }
    g->first[g->n_cells] = next;
    for (size_t k = 0; k < n; k++) {
        size_t i = by_id ? by_id[k] : k;
        where[i] = sorted[where[i]].minor++;
    }
}

/* Where each level's cells and particles begin, once the cells are numbered. */
static void mark_levels(grains_grid *g)
{
    uint32_t cell = 0;
    for (int l = 0; l <= g->n_levels; l++) {
        while (cell < g->n_cells && level_of_key(g->key[cell]) < l)
            cell++;
        g->level[l].cell_start = cell;
        g->level[l].particle_start = g->first[cell];
    }
}

/* Each level's block edge from its number of particles (a periodic grid
 * fixed its blocks in fit_period). */
static void size_blocks(grains_grid *g)
{
    for (int l = 0; l < g->n_levels && !g->box.mask; l++)
        g->level[l].block = block_edge(g->level[l].n_particles);
}

/* Orders cells by (level, colour, block, place in block), renumbers them so,
 * and places the particles. Uses `scratch` (n_cells entries). */
static int sort_by_colour(grains_grid *g, cell_order *scratch, uint32_t *where, const grid_particles *in)
{
    size_blocks(g);
    for (uint32_t c = 0; c < g->n_cells; c++)
        scratch[c] = order_of(g, c);
    sort_cells(scratch, (uint32_t)g->n_cells, in->threads);
    if (!mark_blocks(g, scratch))
        return 0;
    renumber(g, scratch, where, in->by_id, in->n);
    mark_levels(g);
    return reserve_slots(g, g->n_cells); /* the table now maps keys to new numbers */
}

/* The corners of all shares' positions ((0, 0, 0) for none). */
static vec3 lower_corner(const grid_particles *in, vec3 *upper)
{
    const vec3 *x = in->x;
    real lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < in->n; i++) {
        real c[3] = {x[i].x, x[i].y, x[i].z};
        for (int k = 0; k < 3; k++) { /* (fmin and fmax of a number and NaN, inline) */
            lo[k] = c[k] < lo[k] ? c[k] : lo[k];
            hi[k] = c[k] > hi[k] ? c[k] : hi[k];
        }
    }
    shares_min(in->share, lo, 3);
    shares_max(in->share, hi, 3);
    int none = !(lo[0] <= hi[0]);
    *upper = none ? v3(0, 0, 0) : v3(hi[0], hi[1], hi[2]);
    return none ? v3(0, 0, 0) : v3(lo[0], lo[1], lo[2]);
}

/* Along each periodic axis, per level: the block edge B, then 2B m cells
 * spanning the period (m as large as cells of edge >= h allow). */
static grains_status fit_period(grains_grid *g, grid_level *lv, grains_error *err)
{
    const periodic_box *box = &g->box;
    int B = block_edge(lv->n_particles);
    for (int k = 0; k < 3; k++)
        if (box->mask >> k & 1) {
            if (!(box->L[k] >= 4 * lv->h))
                return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0,
                                        "periodic box: the period along %c (%g) must be at least 4 cells of %g "
                                        "(2 R + skin of the largest particles, R = %g)",
                                        "xyz"[k], box->L[k], lv->h, lv->R_top);
            if (!(box->L[k] / lv->h < GRID_SPAN_CELLS))
                return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0,
                                        "periodic box: the period along %c (%g) is more than %d cells of %g",
                                        "xyz"[k], box->L[k], GRID_SPAN_CELLS, lv->h);
            int fit = (int)(box->L[k] / (2 * lv->h));
            B = fit < B ? fit : B;
        }
    lv->block = B;
    for (int k = 0; k < 3; k++)
        if (box->mask >> k & 1) {
            lv->cells[k] = 2 * B * (int64_t)(box->L[k] / (2 * B * lv->h));
            lv->edge[k] = box->L[k] / (real)lv->cells[k];
        }
    return GRAINS_OK;
}

/* The grid's frame: levels, origin, periods; before binning. */
static grains_status frame(grains_grid *g, const grid_particles *in, real pad, int level_of_class[], real *R_s,
                           grains_error *err)
{
    grains_status s = plan_levels(g, in, pad, level_of_class, R_s, err);
    if (s != GRAINS_OK)
        return s;
    vec3 hi, lo = lower_corner(in, &hi);
    real span = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    real h_min = g->n_levels ? g->level[g->n_levels - 1].h : 1;
    if (!(span / h_min < GRID_SPAN_CELLS))
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0,
                                "particles spread over %g, more than %d cells of %g: confine them with a mesh",
                                span, GRID_SPAN_CELLS, h_min);
    for (int l = 0; s == GRAINS_OK && l < g->n_levels && g->box.mask; l++)
        s = fit_period(g, &g->level[l], err);
    const periodic_box *box = &g->box;
    g->origin = box->mask ? v3(box->mask & 1 ? box->lo[0] : lo.x, box->mask & 2 ? box->lo[1] : lo.y,
                               box->mask & 4 ? box->lo[2] : lo.z)
                          : lo;
    return s;
}

/* The key of the cell of the particle at x of radius R: its level's (its
 * size class's), its coordinates wrapped into the periods. */
static uint64_t cell_key(const grains_grid *g, vec3 x, real R, real R_s, const int level_of_class[])
{
    int level = level_of_class[size_class(R, R_s)];
    int64_t c[3], wrapped[3];
    grid_coords(g, level, x, c);
    wrap_cell(g, level, c, wrapped);
    return pack(level, wrapped);
}

/* Each particle into the cell of its level; where[i] its cell. The keys
 * are found first on the build's threads where `keys` (room for n) is
 * given, else one by one; the cells are then found or made in the
 * particles' order (the last build's, so that a cell's particles mostly
 * follow one another: a key as the last one's is its cell, unlooked-up). */
static int bin(grains_grid *g, const grid_particles *in, real R_s, const int level_of_class[], uint32_t *where,
               uint64_t *keys)
{
    size_t n = in->n;
    if (keys) {
#pragma omp parallel for schedule(static) num_threads(in->threads) if (in->threads > 1)
        for (size_t i = 0; i < n; i++)
            keys[i] = cell_key(g, in->x[i], in->R[i], R_s, level_of_class);
    }
    uint64_t last = 0;
    uint32_t cell = GRID_NONE;
    for (size_t i = 0; i < n; i++) {
        uint64_t key = keys ? keys[i] : cell_key(g, in->x[i], in->R[i], R_s, level_of_class);
        if (cell == GRID_NONE || key != last) {
            if ((cell = find_or_add(g, key)) == GRID_NONE)
                return 0;
            last = key;
        }
        where[i] = cell;
        g->first[cell]++;
    }
    return 1;
}

/* Each level's occupied cells in the whole: the cells holding a particle
 * of this share's own (not a copy), summed over the shares. When a share
 * lists its particles it owns whole blocks, so no cell is counted twice.
 * where[i]: particle i's cell, before the sort. */
static int count_whole_cells(grains_grid *g, const grid_particles *in, const uint32_t *where)
{
    uint8_t *own = calloc(g->n_cells + 1, 1);
    if (!own)
        return 0;
    for (size_t i = 0; i < in->n; i++)
        own[where[i]] |= !in->copy || !in->copy[i];
    uint64_t count[GRID_MAX_LEVELS] = {0};
    for (size_t c = 0; c < g->n_cells; c++)
        count[level_of_key(g->key[c])] += own[c];
    free(own);
    shares_sum(in->share, count, GRID_MAX_LEVELS);
    for (int l = 0; l < GRID_MAX_LEVELS; l++)
        g->level[l].cells_whole = count[l];
    return 1;
}

grains_status grid_check_frame(const grains_grid *g, const grid_particles *in, real pad, const periodic_box *box,
                               grains_error *err)
{
    grains_grid probe = *g; /* (frame writes its levels, origin and box alone: values, no tables) */
    int level_of_class[GRID_MAX_LEVELS];
    real R_s;
    probe.pad = pad;
    probe.box = *box;
    return frame(&probe, in, pad, level_of_class, &R_s, err);
}

grains_status grid_build(grains_grid *g, const grid_particles *in, real pad, const periodic_box *box, uint32_t *where,
                         void *ws, size_t ws_bytes, grains_error *err)
{
    size_t n = in->n;
    int level_of_class[GRID_MAX_LEVELS];
    real R_s;
    g->pad = pad;
    g->box = *box;
    grains_status s = frame(g, in, pad, level_of_class, &R_s, err);
    if (s != GRAINS_OK) {
        g->n_levels = 0;
        return s;
    }
    g->n_particles = n;
    /* Start from the last build's cell count; tables grow as cells appear. */
    size_t expect = g->n_cells + g->n_cells / 8 + 16;
    g->n_cells = 0;
    uint64_t *keys = in->threads > 1 && ws && ws_bytes >= n * sizeof *keys ? ws : NULL; /* (dead before the sort) */
    if (!reserve_cells(g, expect) || !reserve_slots(g, expect) || !bin(g, in, R_s, level_of_class, where, keys) ||
        !count_whole_cells(g, in, where))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the cell grid");
    size_t need = (g->n_cells ? g->n_cells : 1) * sizeof(cell_order);
    cell_order *scratch = ws && ws_bytes >= need ? ws : malloc(need);
    int sorted = scratch && sort_by_colour(g, scratch, where, in);
    if (scratch != ws)
        free(scratch);
    if (!sorted)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the cell grid");
    return GRAINS_OK;
}

/* Shrinks the tables to the cells and blocks kept (a shrink that fails
 * keeps the larger table, which still serves). */
static void fit_tables(grains_grid *g)
{
    size_t cap = g->n_cells + 1;
    if (cap < g->cap_cells && array_resize((void **)&g->key, cap, sizeof *g->key) &&
        array_resize((void **)&g->first, cap + 1, sizeof *g->first))
        g->cap_cells = cap;
    if (g->n_blocks + 1 < g->cap_blocks &&
        array_resize((void **)&g->block_start, g->n_blocks + 1, sizeof *g->block_start))
        g->cap_blocks = g->n_blocks + 1;
}

int grid_keep(grains_grid *g, const uint32_t *count)
{
    uint32_t cells = 0, blocks = 0, next = 0, b = 0;
    for (int p = 0; p < GRID_MAX_PHASES; p++) {
        uint32_t end = g->phase_start[p + 1]; /* (the old start, read before it is written over) */
        g->phase_start[p] = blocks;
        for (; b < end; b++) { /* in place: what is written lies at or before what is read */
            uint32_t from = cells;
            for (uint32_t c = g->block_start[b]; c < g->block_start[b + 1]; c++)
                if (count[c]) {
                    g->key[cells] = g->key[c];
                    g->first[cells++] = next;
                    next += count[c];
                }
            if (cells > from)
                g->block_start[blocks++] = from;
        }
    }
    g->phase_start[GRID_MAX_PHASES] = blocks;
    g->block_start[blocks] = cells;
    g->first[cells] = next;
    g->n_cells = cells;
    g->n_blocks = blocks;
    g->n_particles = next;
    mark_levels(g);
    fit_tables(g);
    return reserve_slots(g, cells);
}

void grid_free(grains_grid *g)
{
    free(g->key);
    free(g->first);
    free(g->slot);
    free(g->block_start);
    memset(g, 0, sizeof *g);
}

static void write_level(const grid_level *lv, bytes_out *o)
{
    bytes_put_real(o, lv->R_top);
    bytes_put_real(o, lv->h);
    bytes_put_reals(o, lv->edge, 3);
    for (int k = 0; k < 3; k++)
        bytes_put_i64(o, lv->cells[k]);
    bytes_put_u32(o, (uint32_t)lv->block);
    bytes_put_u32(o, lv->cell_start);
    bytes_put_u32(o, lv->particle_start);
    bytes_put_u64(o, lv->n_particles);
}

void grid_write_state(const grains_grid *g, bytes_out *o)
{
    bytes_put_real(o, g->pad);
    bytes_put_reals(o, (const real *)&g->origin, 3);
    bytes_put_u64(o, g->n_particles);
    bytes_put_u64(o, g->n_cells);
    bytes_put_u32(o, (uint32_t)g->n_levels);
    for (int l = 0; l <= g->n_levels; l++)
        write_level(&g->level[l], o);
    for (size_t c = 0; c < g->n_cells; c++)
        bytes_put_u64(o, g->key[c]);
    bytes_put_u32s(o, g->first, g->n_cells ? g->n_cells + 1 : 0);
    bytes_put_u32s(o, g->phase_start, GRID_MAX_PHASES + 1);
    bytes_put_u64(o, g->n_blocks);
    bytes_put_u32s(o, g->block_start, g->n_cells ? g->n_blocks + 1 : 0);
}

void grid_write_state_head(const grains_grid *frame, const grid_blocks *bl, bytes_out *o)
{
    uint64_t n_particles = 0, n_cells = 0;
    for (size_t b = 0; b < bl->n; b++) {
        n_particles += bl->particles[b];
        n_cells += bl->cells[b];
    }
    bytes_put_real(o, frame->pad);
    bytes_put_reals(o, (const real *)&frame->origin, 3);
    bytes_put_u64(o, n_particles);
    bytes_put_u64(o, n_cells);
    bytes_put_u32(o, (uint32_t)frame->n_levels);
    size_t b = 0;
    uint32_t cell = 0, particle = 0;
    for (int l = 0; l <= frame->n_levels; l++) { /* as mark_levels: a block's cells are of its level */
        for (; b < bl->n && level_of_key(bl->key[b]) < l; b++) {
            cell += bl->cells[b];
            particle += bl->particles[b];
        }
        grid_level lv = frame->level[l];
        lv.cell_start = cell;
        lv.particle_start = particle;
        write_level(&lv, o);
    }
}

void grid_write_state_tail(const grid_blocks *bl, bytes_out *o)
{
    int phase = -1; /* as mark_blocks: the blocks' keys order them by phase */
    for (size_t b = 0; b < bl->n; b++)
        for (; phase < (int)(bl->key[b] >> KEY_PHASE_SHIFT); phase++)
            bytes_put_u32(o, (uint32_t)b); /* phase_start[phase + 1] */
    for (; phase < GRID_MAX_PHASES; phase++)
        bytes_put_u32(o, (uint32_t)bl->n);
    bytes_put_u64(o, bl->n);
    uint32_t cell = 0;
    for (size_t b = 0; b < bl->n; b++) {
        bytes_put_u32(o, cell);
        cell += bl->cells[b];
    }
    if (bl->n)
        bytes_put_u32(o, cell);
}

static void read_level(grid_level *lv, bytes_in *in)
{
    lv->R_top = bytes_get_real(in);
    lv->h = bytes_get_real(in);
    bytes_get_reals(in, lv->edge, 3);
    for (int k = 0; k < 3; k++)
        lv->cells[k] = bytes_get_i64(in);
    lv->block = (int)(bytes_get_u32(in) & 0xFF);
    lv->cell_start = bytes_get_u32(in);
    lv->particle_start = bytes_get_u32(in);
    lv->n_particles = (size_t)bytes_get_u64(in);
}

/* Whether a[0 .. n] runs from 0 up to `last` without stepping down. */
static int runs_up_to(const uint32_t *a, size_t n, size_t last)
{
    if (a[0] != 0 || a[n] != last)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (a[k + 1] < a[k])
            return 0;
    return 1;
}

/* Why a level read is not one a build makes, or NULL. */
static const char *level_invalid(const grains_grid *g, int l)
{
    const grid_level *lv = &g->level[l], *next = &g->level[l + 1];
    if (!(lv->R_top > 0) || !(lv->h >= 2 * lv->R_top) || !isfinite(lv->h) || lv->block < 2 || lv->block > 8)
        return "the cell grid's levels";
    for (int k = 0; k < 3; k++)
        if (!(lv->edge[k] >= lv->h) || !isfinite(lv->edge[k]) || lv->cells[k] < 0 || lv->cells[k] > GRID_SPAN_CELLS)
            return "the cell grid's edges";
    if (!(next->cell_start > lv->cell_start) || lv->particle_start != g->first[lv->cell_start] ||
        g->block_start[g->phase_start[GRID_COLOURS * l]] != lv->cell_start)
        return "the cell grid's levels";
    for (uint32_t c = lv->cell_start; c < next->cell_start; c++)
        if (level_of_key(g->key[c]) != l)
            return "the cell grid's levels";
    return NULL;
}

/* Why the grid read is not one a build makes, or NULL. */
static const char *grid_invalid(const grains_grid *g)
{
    if (!g->n_cells) /* never built, or built for no particles */
        return g->n_blocks || g->n_particles || g->n_levels || g->phase_start[GRID_MAX_PHASES] ? "the cell grid's blocks"
                                                                                              : NULL;
    if (!(g->pad >= 0) || !isfinite(g->pad) || !isfinite(g->origin.x) || !isfinite(g->origin.y) ||
        !isfinite(g->origin.z) || g->n_levels < 1 || g->n_levels > GRID_MAX_LEVELS)
        return "the cell grid's size or origin";
    if (g->level[0].cell_start != 0 || g->level[g->n_levels].cell_start != g->n_cells ||
        !runs_up_to(g->first, g->n_cells, g->n_particles) || !runs_up_to(g->block_start, g->n_blocks, g->n_cells) ||
        !runs_up_to(g->phase_start, GRID_MAX_PHASES, g->n_blocks) ||
        g->phase_start[g->n_phases] != g->n_blocks)
        return "the cell grid's cells and blocks";
    for (int l = 0; l < g->n_levels; l++) {
        const char *why = level_invalid(g, l);
        if (why)
            return why;
    }
    for (uint32_t c = 0; c < g->n_cells; c++) { /* every key found, at its own cell: none repeated */
        int64_t at[3];
        grid_cell_coords(g, c, at);
        if (g->first[c + 1] == g->first[c] || grid_find(g, level_of_key(g->key[c]), at) != c)
            return "the cell grid's cells";
    }
    return NULL;
}

grains_status grid_read_state(grains_grid *g, bytes_in *in, const periodic_box *box, size_t n_max, grains_error *err)
{
    g->pad = bytes_get_real(in);
    bytes_get_reals(in, (real *)&g->origin, 3);
    g->box = *box;
    g->n_particles = (size_t)bytes_get_u64(in);
    size_t n_cells;
    if (in->bad || g->n_particles > n_max || !bytes_get_count(in, 12, n_max, &n_cells))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the cell grid's counts");
    uint32_t levels = bytes_get_u32(in);
    if (levels > GRID_MAX_LEVELS)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the cell grid's levels");
    g->n_levels = (int)levels;
    g->n_phases = GRID_COLOURS * g->n_levels;
    for (int l = 0; l <= g->n_levels; l++)
        read_level(&g->level[l], in);
    if (!reserve_cells(g, n_cells + 1) || !reserve_blocks(g, n_cells))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the cell grid");
    g->n_cells = n_cells;
    g->first[0] = g->block_start[0] = 0; /* as a build of no particles leaves them */
    for (size_t c = 0; c < n_cells; c++)
        g->key[c] = bytes_get_u64(in);
    bytes_get_u32s(in, g->first, n_cells ? n_cells + 1 : 0);
    bytes_get_u32s(in, g->phase_start, GRID_MAX_PHASES + 1);
    size_t n_blocks;
    if (!bytes_get_count(in, 4, n_cells, &n_blocks))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the cell grid's blocks");
    g->n_blocks = n_blocks;
    bytes_get_u32s(in, g->block_start, n_cells ? n_blocks + 1 : 0);
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the cell grid");
    if (!reserve_slots(g, n_cells))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the cell grid");
    const char *why = grid_invalid(g);
    if (why) {
        g->n_cells = g->n_blocks = g->n_particles = 0;
        g->n_levels = g->n_phases = 0;
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: %s", why);
    }
    for (int l = 0; l < g->n_levels; l++) /* the whole's grid */
        g->level[l].cells_whole = g->level[l + 1].cell_start - g->level[l].cell_start;
    return GRAINS_OK;
}
