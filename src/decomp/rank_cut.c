/* Recursive coordinate bisection of cell blocks (decomp/rank_cut.h). */
#include "decomp/rank_cut.h"

#include <math.h>
#include <stdlib.h>

block_point rank_cut_point(const grains_grid *g, uint64_t key, uint64_t work, uint32_t b)
{
    int64_t bc[3];
    const grid_level *lv = &g->level[grid_key_coords(key, bc)];
    const real *o = &g->origin.x;
    block_point p = {{0, 0, 0}, work, b};
    for (int k = 0; k < 3; k++)
        p.c[k] = o[k] + ((real)bc[k] + (real)0.5) * (real)lv->block * lv->edge[k];
    return p;
}

/* Along one axis, ties along the next axes, then by block: one order on
 * every rank. (Block centres tie across a whole slab of blocks; a slab
 * split in block order, colour first, would leave a checkered boundary
 * and a larger halo.) */
static int by_axis(const block_point *a, const block_point *b, int axis)
{
    for (int k = 0; k < 3; k++) {
        int at = (axis + k) % 3;
        if (a->c[at] != b->c[at])
            return a->c[at] < b->c[at] ? -1 : 1;
    }
    return (a->b > b->b) - (a->b < b->b);
}
static int by_x(const void *a, const void *b) { return by_axis(a, b, 0); }
static int by_y(const void *a, const void *b) { return by_axis(a, b, 1); }
static int by_z(const void *a, const void *b) { return by_axis(a, b, 2); }

/* The axis along which the points spread the most (z on ties: the
 * slowest in the blocks' order, so that a cut along it leaves a rank about
 * two runs per colour; one along x or y leaves one per row of blocks). */
static int widest_axis(const block_point *p, size_t n)
{
    real lo[3], hi[3];
    for (int a = 0; a < 3; a++)
        lo[a] = hi[a] = p[0].c[a];
    for (size_t k = 1; k < n; k++)
        for (int a = 0; a < 3; a++) {
            lo[a] = p[k].c[a] < lo[a] ? p[k].c[a] : lo[a];
            hi[a] = p[k].c[a] > hi[a] ? p[k].c[a] : hi[a];
        }
    int widest = 2;
    for (int a = 1; a >= 0; a--)
        widest = hi[a] - lo[a] > hi[widest] - lo[widest] ? a : widest;
    return widest;
}

/* Recursive coordinate bisection: the blocks p[0, n) to ranks [r0, r1).
 * The widest axis is cut where the work divides as the ranks do; the
 * planes are recorded in preorder (node: the one of ranks [r0, r1); its
 * left child node + 1, its right node + the left's ranks), if `planes`. */
static void bisect(block_point *p, size_t n, int r0, int r1, int *owner, cut_plane *planes, int node)
{
    if (r1 - r0 == 1) {
        for (size_t k = 0; k < n; k++)
            owner[p[k].b] = r0;
        return;
    }
    static int (*const order[3])(const void *, const void *) = {by_x, by_y, by_z};
    int axis = n ? widest_axis(p, n) : 2;
    if (n)
        qsort(p, n, sizeof *p, order[axis]);
    uint64_t total = 0, before = 0, ranks = (uint64_t)(r1 - r0), left = ranks / 2;
    for (size_t k = 0; k < n; k++)
        total += p[k].w;
    size_t m = 0; /* a block goes left when the middle of its work is in the left's share */
    for (; m < n && (2 * before + p[m].w) * ranks <= 2 * total * left; m++)
        before += p[m].w;
    if (planes)
        planes[node] = (cut_plane){axis, m == n ? INFINITY : m == 0 ? -INFINITY : (p[m - 1].c[axis] + p[m].c[axis]) / 2};
    bisect(p, m, r0, r0 + (int)left, owner, planes, node + 1);
    bisect(p + m, n - m, r0 + (int)left, r1, owner, planes, node + (int)left);
}

int rank_cut_by_planes(const cut_plane *planes, block_point pt, int size)
{
    int r0 = 0, r1 = size, node = 0;
    while (r1 - r0 > 1) {
        int left = (r1 - r0) / 2;
        if (pt.c[planes[node].axis] < planes[node].at) {
            r1 = r0 + left;
            node += 1;
        } else {
            r0 += left;
            node += left;
        }
    }
    return r0;
}

void rank_cut_bisect(block_point *p, size_t n, int size, int *owner, cut_plane *planes)
{
    bisect(p, n, 0, size, owner, planes, 0);
}
