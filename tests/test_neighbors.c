/* The neighbour search over size classes (src/neighbor/grid.h): for size
 * ratios 1.2, 10, 50 and 100, open and periodic,
 * - the lists hold exactly the pairs closer than R_i + R_j + pad (checked
 *   against every pair, nearest images along periodic axes), each once, in
 *   the list of the one stored first, and exactly the (particle, element)
 *   pairs closer than R_i + R_e + pad;
 * - a listed partner lies within one cell, of the listing particle's
 *   level, of that particle: the fact that lets the blocks of one level and
 *   colour write their pairs' forces in parallel without races;
 * - the lists do not depend on the thread count;
 * - a build for some particles (a rank's) gives each its whole list;
 * - lists built again in the same storage, as the cloud grows denser and
 *   sparser on one side, are those of a fresh build, for 1 to 3 threads;
 * - a small particle's cells are its own size: at ratio 50 there are two
 *   levels, the small one of cells 2 R_small + pad.
 * - a share of the particles (a process's under MPI: here a slab of the
 *   cloud, stored in reverse order, on one of three OpenMP threads whose
 *   reductions stand in for MPI's) builds the same levels, origin and
 *   blocks as the whole, and orders its particles as the whole orders them;
 * Then, through the simulation: a periodic gas of small spheres in shells
 * around large ones (ratio 10) conserves momentum to rounding and gives bit-identical states
 * with 1, 2 and 3 threads. */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "check.h"
#include "cloud.h"
#include "neighbor/block_share.h"
#include "neighbor/neighbor.h"
#include "support.h"
#include "util/rng.h"

/* The cloud moved into the grid's order (as sim_rebuild moves particles). */
static void sort_cloud(cloud *c, const uint32_t *where)
{
    vec3 *x = malloc(c->n * sizeof *x);
    real *R = malloc(c->n * sizeof *R);
    for (size_t i = 0; i < c->n; i++)
        x[where[i]] = c->x[i], R[where[i]] = c->R[i];
    free(c->x), free(c->R);
    c->x = x, c->R = R;
}

static int listed(const grains_neighbors *nb, uint32_t i, uint32_t j)
{
    int times = 0;
    for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++)
        times += nb->j[k] == j;
    return times;
}

/* Every pair and every (particle, element) pair within reach listed once,
 * none beyond; returns how many pairs the lists hold. */
static size_t check_complete(test_ctx *t, const cloud *c, const grains_neighbors *nb, real pad, const char *what)
{
    size_t in_reach = 0, wrong = 0;
    for (uint32_t i = 0; i < c->n; i++)
        for (uint32_t j = i + 1; j < c->n; j++) {
            vec3 d = periodic_delta(&c->box, v3_sub(c->x[i], c->x[j]));
            real reach = c->R[i] + c->R[j] + pad;
            int near = v3_dot(d, d) < reach * reach;
            in_reach += near;
            wrong += listed(nb, i, j) != near;
        }
    for (uint32_t i = 0; i < c->n; i++)
        for (uint32_t e = 0; e < c->mesh->n_elements; e++) {
            vec3 d = grains_mesh_offset(c->mesh, e, c->x[i]);
            real reach = c->R[i] + c->mesh->elements[e].R + pad;
            int near = v3_dot(d, d) < reach * reach;
            in_reach += near;
            wrong += listed(nb, i, e | STORE_MESH_BIT) != near;
        }
    CHECK(t, wrong == 0 && nb->n == in_reach, "%s: %zu pairs within reach, lists hold %zu, %zu wrong", what,
          in_reach, nb->n, wrong);
    return in_reach;
}

/* Each listed partner within one cell of the lister's level (wrapped). */
static void check_one_cell(test_ctx *t, const cloud *c, const grains_grid *g, const grains_neighbors *nb,
                           const char *what)
{
    size_t far = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        int l = grid_level_of(g, i);
        int64_t ci[3], cj[3];
        grid_coords(g, l, c->x[i], ci);
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            if (nb->j[k] & STORE_MESH_BIT)
                continue;
            grid_coords(g, l, c->x[nb->j[k]], cj);
            for (int a = 0; a < 3; a++) {
                int64_t d = llabs(ci[a] - cj[a]), n = g->level[l].cells[a];
                if (c->box.mask >> a & 1)
                    d = d < n - d ? d : n - d;
                far += d > 1;
            }
        }
    }
    CHECK(t, far == 0, "%s: %zu listed partners beyond one cell of the lister's level", what, far);
}

/* A rank lists only the particles that may pair with its own: each
 * particle given a list has the one a whole build gives it (the same
 * partners in the same order, mesh elements included), the others none. */
static void check_some_listed(test_ctx *t, const cloud *c, const grains_grid *g, const grains_neighbors *whole,
                              const char *what)
{
    uint8_t *listed = malloc(c->n);
    for (size_t i = 0; i < c->n; i++)
        listed[i] = c->x[i].x < 0 || i % 7 == 0; /* a region, and scattered ones */
    grains_neighbors some = {0};
    grains_error err;
    grains_status s = neighbors_build(&some, g, c->mesh, c->x, c->R, c->n, listed, 1, &err);
    int same = s == GRAINS_OK, empty = 1;
    size_t kept = 0;
    for (size_t i = 0; same && i < c->n; i++) {
        uint32_t n = some.start[i + 1] - some.start[i], n_whole = whole->start[i + 1] - whole->start[i];
        if (!listed[i]) {
            empty &= n == 0;
            continue;
        }
        same = n == n_whole && !memcmp(some.j + some.start[i], whole->j + whole->start[i], n * sizeof *some.j);
        kept += n;
    }
    CHECK(t, same && empty && kept > 0 && kept < whole->n,
          "%s: a build for some particles gives each its whole list (%zu of %zu entries), the others none", what,
          kept, whole->n);
    neighbors_free(&some);
    free(listed);
}

/* Which ranks must hold each particle, from the blocks' owners alone
 * (grid_pair_blocks): with the blocks given to 3 ranks by slabs of their
 * centres along x (of the small particles' extent), each listed pair's particles are each
 * in the other's owner's set, so each owner holds both and evaluates the
 * pair. Prints how many (particle, other rank) entries the sets hold
 * against the pairs' need. */
static void check_pair_blocks(test_ctx *t, const cloud *c, const grains_grid *g, const grains_neighbors *nb,
                              const char *what)
{
    uint8_t *owner = malloc(g->n_blocks + 1), *of = malloc(c->n), *holds = calloc(c->n, 1), *needs = calloc(c->n, 1);
    double *at = malloc((g->n_blocks + 1) * sizeof *at), lo_x = INFINITY, hi_x = -INFINITY;
    for (uint32_t b = 0; b < g->n_blocks; b++) { /* each block's centre along x */
        int64_t bc[3];
        const grid_level *lv = &g->level[grid_block_coords(g, b, bc)];
        at[b] = g->origin.x + ((double)bc[0] + 0.5) * lv->block * lv->edge[0];
        if (lv == &g->level[g->n_levels - 1]) /* slabs of the small ones' extent */
            lo_x = nan_min(lo_x, at[b]), hi_x = nan_max(hi_x, at[b]);
    }
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        int slab = (int)(3 * (at[b] - lo_x) / (hi_x - lo_x));
        owner[b] = (uint8_t)(slab < 0 ? 0 : slab < 3 ? slab : 2);
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
            of[i] = owner[b];
    }
    size_t held = 0, needed = 0, missing = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        for (int m = 0; m < g->n_levels; m++) {
            int64_t lo[3], hi[3], bc[3];
            grid_pair_blocks(g, m, c->x[i], c->R[i], lo, hi);
            for (bc[2] = lo[2]; bc[2] <= hi[2]; bc[2]++)
                for (bc[1] = lo[1]; bc[1] <= hi[1]; bc[1]++)
                    for (bc[0] = lo[0]; bc[0] <= hi[0]; bc[0]++) {
                        uint32_t b = grid_find_block(g, m, bc);
                        holds[i] |= (uint8_t)(b == GRID_NONE ? 0 : 1u << owner[b]);
                    }
        }
        holds[i] &= (uint8_t)~(1u << of[i]);
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t j = nb->j[k];
            if ((j & STORE_MESH_BIT) || of[i] == of[j])
                continue;
            needs[i] |= (uint8_t)(1u << of[j]);
            needs[j] |= (uint8_t)(1u << of[i]);
        }
    }
    for (uint32_t i = 0; i < c->n; i++) {
        missing += (needs[i] & ~holds[i]) != 0;
        held += (holds[i] & 1) + (holds[i] >> 1 & 1) + (holds[i] >> 2 & 1);
        needed += (needs[i] & 1) + (needs[i] >> 1 & 1) + (needs[i] >> 2 & 1);
    }
    printf("  %-18s blocks' reach: %zu copies held on 3 ranks for the %zu the pairs need\n", what, held, needed);
    CHECK(t, missing == 0 && needed > 0,
          "%s: each listed pair's owners hold both particles by the blocks' reach (%zu missing; %zu copies held, "
          "%zu needed)", what, missing, held, needed);
    free(owner), free(of), free(holds), free(needs), free(at);
}

/* The work of each block before it, as sim/block_work.c weighs it (a unit
 * per particle and per listed entry); the most one block has in *most. */
static uint64_t *block_work(const grains_grid *g, const grains_neighbors *nb, uint64_t *most)
{
    uint64_t *work = malloc((g->n_blocks + 1) * sizeof *work), sum = 0;
    *most = 0;
    for (uint32_t b = 0; work && b < g->n_blocks; b++) {
        uint32_t lo, hi;
        block_particles(g, b, b + 1, &lo, &hi);
        uint64_t w = (hi - lo) + (nb->start[hi] - nb->start[lo]);
        work[b] = sum;
        sum += w;
        *most = w > *most ? w : *most;
    }
    if (work)
        work[g->n_blocks] = sum;
    return work;
}

/* The threads' shares of each colour phase (neighbor/block_share.h), for
 * 2, 3 and 5 threads: one after another, together the phase's blocks,
 * each within one block's work of an even share of the phase; their
 * particles over all phases every particle once. */
static void check_block_shares(test_ctx *t, const grains_grid *g, const grains_neighbors *nb, const char *what)
{
    uint64_t most;
    uint64_t *work = block_work(g, nb, &most);
    uint8_t *seen = malloc(g->n_particles);
    int in_order = work && seen, even = 1, once = 1;
    for (int n = 2; in_order && n <= 5; n += n == 2 ? 1 : 2) {
        memset(seen, 0, g->n_particles);
        for (int phase = 0; phase < g->n_phases; phase++) {
            uint32_t at = g->phase_start[phase], end = g->phase_start[phase + 1];
            uint64_t total = work[end] - work[at];
            for (int k = 0; k < n; k++) {
                uint32_t lo, hi, p0, p1;
                block_share(g, work, phase, k, n, &lo, &hi);
                in_order &= lo == at && hi >= lo;
                even &= (work[hi] - work[lo]) * (uint64_t)n <= total + (uint64_t)n * most;
                block_particles(g, lo, hi, &p0, &p1);
                for (uint32_t p = p0; p < p1; p++)
                    seen[p]++;
                at = hi;
            }
            in_order &= at == end;
        }
        for (size_t p = 0; p < g->n_particles; p++)
            once &= seen[p] == 1;
    }
    CHECK(t, in_order && once, "%s: the threads' shares of each phase follow one another and hold each particle once",
          what);
    CHECK(t, even, "%s: each thread's share within one block's work of an even share", what);
    free(work), free(seen);
}

/* The cells in the order the colour phases take them: each block's key
 * (level, colour, block coordinates) above the last's, and within a block
 * the cells by their place in it (z, then y, then x). */
static void check_cell_order(test_ctx *t, const grains_grid *g, const char *what)
{
    int in_order = 1;
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        in_order &= b == 0 || grid_block_key(g, b - 1) < grid_block_key(g, b);
        int64_t last = -1;
        for (uint32_t cell = g->block_start[b]; cell < g->block_start[b + 1]; cell++) {
            int64_t c[3], B = g->level[g->key[cell] >> 60].block;
            grid_cell_coords(g, cell, c);
            int64_t place = ((c[2] % B) * B + c[1] % B) * B + c[0] % B;
            in_order &= place > last;
            last = place;
        }
    }
    CHECK(t, in_order, "%s: the cells sorted by level, colour, block and place in the block", what);
}

/* A build on 2 and 3 threads (the cells' keys found and their sort by
 * phases over the threads, in a workspace as a rebuild's) gives the
 * first's places and cells. */
static void check_sort_threads(test_ctx *t, const cloud *c, real pad, const grains_grid *g, const uint32_t *where,
                               const char *what)
{
    int same = 1;
    for (int threads = 2; threads <= 3; threads++) {
        grains_grid g2 = {0};
        uint32_t *where2 = malloc(c->n * sizeof *where2);
        size_t ws_bytes = 16 * c->n;
        void *ws = malloc(ws_bytes);
        grains_error err;
        grid_particles in = {c->x, c->R, NULL, c->n, NULL, NULL, threads};
        same &= where2 && ws && grid_build(&g2, &in, pad, &c->box, where2, ws, ws_bytes, &err) == GRAINS_OK &&
                g2.n_cells == g->n_cells && g2.n_blocks == g->n_blocks;
        same = same && memcmp(where2, where, c->n * sizeof *where) == 0 &&
               memcmp(g2.key, g->key, g->n_cells * sizeof *g->key) == 0;
        grid_free(&g2);
        free(where2), free(ws);
    }
    CHECK(t, same, "%s: the same cells and places sorted on 1, 2 and 3 threads", what);
}

static void lists(test_ctx *t, double ratio, int periodic)
{
    const real pad = 0.3e-3;
    char what[64];
    snprintf(what, sizeof what, "ratio %g, %s", ratio, periodic ? "periodic" : "open");
    cloud c = make_cloud(3000, 12, ratio, periodic, 7u + (unsigned)ratio);
    uint32_t *where = malloc(c.n * sizeof *where);
    grains_grid g = {0};
    grains_neighbors nb = {0}, nb2 = {0};
    grains_error err;
    grid_particles in = {c.x, c.R, NULL, c.n, NULL, NULL, 1};
    grains_status s = grid_build(&g, &in, pad, &c.box, where, NULL, 0, &err);
    CHECK(t, s == GRAINS_OK, "%s: grid built (%s)", what, s == GRAINS_OK ? "" : err.message);
    if (s == GRAINS_OK) {
        check_cell_order(t, &g, what);
        check_sort_threads(t, &c, pad, &g, where, what);
        sort_cloud(&c, where);
        s = neighbors_build(&nb, &g, c.mesh, c.x, c.R, c.n, NULL, 1, &err);
        s = s == GRAINS_OK ? neighbors_build(&nb2, &g, c.mesh, c.x, c.R, c.n, NULL, 2, &err) : s;
        CHECK(t, s == GRAINS_OK, "%s: lists built", what);
    }
    if (s == GRAINS_OK) {
        size_t pairs = check_complete(t, &c, &nb, pad, what);
        check_one_cell(t, &c, &g, &nb, what);
        int same = nb.n == nb2.n;
        for (size_t k = 0; same && k < nb.n; k++)
            same = nb.j[k] == nb2.j[k];
        CHECK(t, same, "%s: the same lists with 1 and 2 threads", what);
        check_some_listed(t, &c, &g, &nb, what);
        check_pair_blocks(t, &c, &g, &nb, what);
        check_block_shares(t, &g, &nb, what);
        const grid_level *small = &g.level[g.n_levels - 1];
        printf("  %-18s %d level(s), small cells %.3g mm, %zu pairs\n", what, g.n_levels, 1e3 * small->h, pairs);
        if (ratio >= 10)
            CHECK(t, g.n_levels == 2 && small->h == 2 * small->R_top + pad && small->R_top < 1.2e-3 * (1 + 1e-15),
                  "%s: two levels, the small one of cells 2 R_small + pad", what);
    }
    neighbors_free(&nb), neighbors_free(&nb2);
    grid_free(&g);
    free(where);
    free_cloud(&c);
}

/* The cloud's half on one side of x = 0 (side -1 or +1) drawn towards the
 * origin by f (< 1: denser, its lists longer; > 1: sparser). */
static void squeeze(cloud *c, int side, double f)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->x[i].x * side > 0)
            c->x[i] = v3_scale(f, c->x[i]);
}

/* Whether two builds hold the same lists. */
static int same_lists(const grains_neighbors *a, const grains_neighbors *b)
{
    int same = a->n == b->n && a->n_particles == b->n_particles;
    for (size_t i = 0; same && i <= a->n_particles; i++)
        same = a->start[i] == b->start[i];
    for (size_t k = 0; same && k < a->n; k++)
        same = a->j[k] == b->j[k];
    return same;
}

/* Lists built again in the same storage (each thread's share of them found
 * in one pass where the last build's room suffices, else counted, then
 * found in place), as one side of the cloud grows denser or sparser, so that
 * the shares' room falls short, fits exactly or leaves a gap: the same lists
 * as a fresh build, with 1, 2 and 3 threads. */
static void rebuilds(test_ctx *t)
{
    const real pad = 0.3e-3;
    const struct {
        int side;
        double f;
    } steps[] = {{0, 1}, {0, 1}, {-1, 0.85}, {-1, 0.85}, {-1, 1 / 0.85}, {1, 0.8}, {1, 1.1}, {0, 1}};
    cloud c = make_cloud(3000, 12, 1.2, 0, 11u);
    uint32_t *where = malloc(c.n * sizeof *where);
    grains_neighbors kept[3] = {{0}};
    int bad = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        squeeze(&c, steps[k].side, steps[k].f);
        grains_grid g = {0};
        grains_neighbors fresh = {0};
        grains_error err;
        grid_particles in = {c.x, c.R, NULL, c.n, NULL, NULL, 1};
        grains_status s = grid_build(&g, &in, pad, &c.box, where, NULL, 0, &err);
        if (s == GRAINS_OK) {
            sort_cloud(&c, where);
            s = neighbors_build(&fresh, &g, c.mesh, c.x, c.R, c.n, NULL, 1, &err);
        }
        for (int T = 1; T <= 3 && s == GRAINS_OK; T++) {
            s = neighbors_build(&kept[T - 1], &g, c.mesh, c.x, c.R, c.n, NULL, T, &err);
            if (s == GRAINS_OK && !same_lists(&fresh, &kept[T - 1]) && bad++ == 0)
                printf("  rebuild %zu, %d thread(s): not the lists of a fresh build\n", k, T);
        }
        CHECK(t, s == GRAINS_OK, "rebuild %zu: built (%s)", k, s == GRAINS_OK ? "" : err.message);
        if (k == 0 || k == 3 || k == 5)
            printf("  rebuild %zu: %zu entries\n", k, fresh.n);
        neighbors_free(&fresh);
        grid_free(&g);
    }
    CHECK(t, bad == 0, "lists built again in the same storage as the cloud changes are a fresh build's (%d differ)",
          bad);
    for (int T = 0; T < 3; T++)
        neighbors_free(&kept[T]);
    free(where);
    free_cloud(&c);
}

#ifdef _OPENMP
#define SHARES 3

/* Reductions over the threads of a team, as MPI's over ranks: each thread
 * posts its values, and each folds all posts in thread order. */
typedef struct {
    real r[SHARES][GRID_MAX_LEVELS];
    uint64_t u[SHARES][GRID_MAX_LEVELS];
} share_board;

static void board_fold(void *ctx, real *v, int n, int is_max)
{
    share_board *b = ctx;
    int me = omp_get_thread_num();
    memcpy(b->r[me], v, (size_t)n * sizeof *v);
#pragma omp barrier
    for (int k = 0; k < n; k++)
        for (int s = 0; s < SHARES; s++)
            v[k] = is_max ? nan_max(v[k], b->r[s][k]) : nan_min(v[k], b->r[s][k]);
#pragma omp barrier
}

static void board_min(void *ctx, real *v, int n) { board_fold(ctx, v, n, 0); }
static void board_max(void *ctx, real *v, int n) { board_fold(ctx, v, n, 1); }

static void board_sum(void *ctx, uint64_t *v, int n)
{
    share_board *b = ctx;
    int me = omp_get_thread_num();
    memcpy(b->u[me], v, (size_t)n * sizeof *v);
#pragma omp barrier
    for (int k = 0; k < n; k++) {
        v[k] = 0;
        for (int s = 0; s < SHARES; s++)
            v[k] += b->u[s][k];
    }
#pragma omp barrier
}

static void shares(test_ctx *t, double ratio, int periodic, int halo)
{
    const real pad = 0.3e-3;
    cloud c = make_cloud(3000, 12, ratio, periodic, 11u);
    uint32_t *where = malloc(c.n * sizeof *where);
    grains_grid whole = {0};
    grains_error err;
    grid_particles all = {c.x, c.R, NULL, c.n, NULL, NULL, 1};
    grains_status s = grid_build(&whole, &all, pad, &c.box, where, NULL, 0, &err);
    share_board board;
    grid_share share = {board_min, board_max, board_sum, &board};
    int framed = 0, ordered = 0, teams = 0;
    size_t held = 0;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(SHARES) reduction(+ : framed, ordered, teams, held)
    {
        int k = omp_get_thread_num();
        teams = omp_get_num_threads() == SHARES;
        vec3 *x = malloc(c.n * sizeof *x);
        real *R = malloc(c.n * sizeof *R);
        uint32_t *ids = malloc(4 * c.n * sizeof *ids), *by_id = ids + c.n, *mine = by_id + c.n, *at = mine + c.n;
        uint8_t *copy = malloc(c.n);
        size_t n = halo ? take_held(&c, k, SHARES, x, R, ids, by_id, copy) : take_share(&c, k, SHARES, x, R, ids, by_id);
        grains_grid g = {0};
        grains_error e;
        grid_particles part = {x, R, by_id, n, &share, halo ? copy : NULL, 1};
        if (teams && grid_build(&g, &part, pad, &c.box, mine, NULL, 0, &e) == GRAINS_OK) {
            framed = same_frame(&g, &whole);
            for (size_t m = 0; m < n; m++) /* at[place in the share] = place in the whole */
                at[mine[m]] = where[ids[m]];
            ordered = 1;
            for (size_t m = 1; m < n; m++)
                ordered = ordered && at[m - 1] < at[m];
        }
        for (size_t m = 0; m < n; m++)
            held += !halo || !copy[m];
        grid_free(&g);
        free(x), free(R), free(ids), free(copy);
    }
    CHECK(t, s == GRAINS_OK && teams == SHARES && held == c.n, "%s: three shares of %zu particles",
          periodic ? "periodic" : "open", c.n);
    const char *held_as = halo ? "with copies of others'" : "alone";
    CHECK(t, framed == SHARES,
          "ratio %g, %s, %s: each share's grid has the whole's levels, origin and blocks (%d of 3)", ratio,
          periodic ? "periodic" : "open", held_as, framed);
    CHECK(t, ordered == SHARES, "ratio %g, %s, %s: each share stores its particles in the whole's order (%d of 3)",
          ratio, periodic ? "periodic" : "open", held_as, ordered);
    grid_free(&whole);
    free(where);
    free_cloud(&c);
}
#else
static void shares(test_ctx *t, double ratio, int periodic, int halo)
{
    (void)t, (void)halo;
    printf("  shares (ratio %g, %s): skipped, a build without OpenMP\n", ratio, periodic ? "periodic" : "open");
}
#endif

/* Distance from x to the nearest of the big spheres' centres. */
static double to_big(grains_vec3 x, const grains_vec3 *big, int n)
{
    double d = INFINITY;
    for (int k = 0; k < n; k++)
        d = nan_min(d, sqrt((x.x - big[k].x) * (x.x - big[k].x) + (x.y - big[k].y) * (x.y - big[k].y) +
                         (x.z - big[k].z) * (x.z - big[k].z)));
    return d;
}

/* A periodic gas: 6 spheres of 10 mm, and shells of spheres of 1 mm around
 * them (sites 2.3 mm apart), all with random velocities of up to 1 m/s;
 * P0 gets the initial momentum / (density 4/3 pi). */
static grains_sim *mixed_gas(int threads, double P0[3], grains_vec3 v_big[6], int *ok)
{
    const double R = 1e-3, L = 90 * R, s = 2.3 * R;
    grains_params p = scene_params();
    p.R_min = R, p.R_max = 10 * R;
    p.periodic = 7;
    p.box_min = (grains_vec3){0, 0, 0}, p.box_max = (grains_vec3){L, L, L};
    p.mu_s = 0.3, p.mu_r = 0.1, p.mu_t = 0.1;
    p.threads = threads;
    grains_sim *sim = scene(&p);
    grains_rng rng;
    rng_seed(&rng, 99);
    grains_vec3 big[6];
    for (int k = 0; k < 6; k++)
        big[k] = (grains_vec3){(15 + 30 * (k % 3)) * R, (15 + 30 * (k / 3)) * R, 45 * R};
    int sites = 0;
    for (int k = 0; k < 6 + 39 * 39 * 39; k++) {
        grains_vec3 x = k < 6 ? big[k] : (grains_vec3){(k - 6) % 39 * s, (k - 6) / 39 % 39 * s, (k - 6) / 1521 * s};
        double d = k < 6 ? 0 : to_big(x, big, 6), r = k < 6 ? 10 * R : R, v[3];
        if (k >= 6 && (d < 11.2 * R || d > 17 * R || sites++ % 8 != 0))
            continue;
        for (int a = 0; a < 3; a++) {
            v[a] = 2 * (rng_uniform(&rng) - 0.5);
            P0[a] += r * r * r * v[a];
        }
        if (k < 6)
            v_big[k] = (grains_vec3){v[0], v[1], v[2]};
        add(sim, x, (grains_vec3){v[0], v[1], v[2]}, (grains_vec3){0, 0, 0}, r);
    }
    grains_error err;
    *ok = grains_sim_advance(sim, 2000, &err) == GRAINS_OK;
    if (!*ok)
        printf("  mixed gas: %s\n", err.message);
    return sim;
}

static void mixed_gas_invariants(test_ctx *t)
{
    double P0[3] = {0, 0, 0}, P[3] = {0, 0, 0}, ignored[3] = {0, 0, 0}, scale = 0;
    int ok[3], struck = 0;
    grains_vec3 v_big[6], unused[6];
    grains_sim *a = mixed_gas(1, P0, v_big, &ok[0]), *b = mixed_gas(2, ignored, unused, &ok[1]),
               *c = mixed_gas(3, ignored, unused, &ok[2]);
    CHECK(t, ok[0] && ok[1] && ok[2], "the mixed gas runs 2000 steps");
    int same = 1;
    for (size_t i = 0; i < grains_sim_count(a); i++) {
        grains_particle pa = get(a, i), pb = get(b, i), pc = get(c, i);
        same = same && same_particle(pa, pb) && same_particle(pa, pc);
        double m = pa.R * pa.R * pa.R;
        P[0] += m * pa.v.x, P[1] += m * pa.v.y, P[2] += m * pa.v.z;
        scale += m * (fabs(pa.v.x) + fabs(pa.v.y) + fabs(pa.v.z));
    }
    for (size_t k = 0; k < 6; k++) { /* ids 0-5 are the large ones: the small ones struck them */
        grains_particle q = get(a, k);
        struck += fabs(q.v.x - v_big[k].x) + fabs(q.v.y - v_big[k].y) + fabs(q.v.z - v_big[k].z) > 1e-3;
    }
    double drift = nan_max(fabs(P[0] - P0[0]), nan_max(fabs(P[1] - P0[1]), fabs(P[2] - P0[2]))) / scale;
    CHECK(t, struck == 6, "every large sphere changed speed by small ones' impacts (%d of 6): the pairs across "
          "size classes acted", struck);
    grains_thermo th;
    grains_sim_thermo(a, &th);
    printf("  mixed gas (ratio 10), %zu spheres, 2000 steps: %zu contacts at the end, momentum drift %.3g of "
           "sum m|v|\n", grains_sim_count(a), th.n_contacts, drift);
    CHECK(t, drift < 1e-13, "momentum is conserved among sizes 1 and 10: drift %.3g", drift);
    CHECK(t, same, "1, 2 and 3 threads give bit-identical states with two size classes");
    grains_sim_destroy(a), grains_sim_destroy(b), grains_sim_destroy(c);
}

int main(void)
{
    test_ctx t = {0, 0};
    const double ratios[4] = {1.2, 10, 50, 100};
    for (int k = 0; k < 4; k++)
        for (int periodic = 0; periodic < 2; periodic++)
            lists(&t, ratios[k], periodic);
    rebuilds(&t);
    for (int periodic = 0; periodic < 2; periodic++)
        for (int halo = 0; halo < 2; halo++) {
            shares(&t, 1.2, periodic, halo);
            shares(&t, 10, periodic, halo);
        }
    mixed_gas_invariants(&t);
    return test_report(&t, "test_neighbors");
}
