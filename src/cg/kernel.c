/* The coarse-graining kernel on a grid's nodes (cg/kernel.h). */
#include "cg/kernel.h"

#include <math.h>

/* The kernels' shapes, unnormalized (the normalization is the nodes' sum).
 * The Gaussian, exp(-r^2 / 2w^2), is taken as the product of its axes'
 * factors (cg_kernel_weights), lowered to 0 at its cut 3w: a kernel that
 * jumps at its edge leaves a ripple of the grains' layers in the fields (a
 * lattice's density at w = a: 1.3% cut as it is, 0.32% lowered;
 * tests/test_cg.c). Lucy's at r < c = 2w: */
static double lucy(const cg_kernel *k, double r)
{
    double u = r / k->reach;
    return (1 + 3 * u) * (1 - u) * (1 - u) * (1 - u);
}

void cg_kernel_init(cg_kernel *k, const grains_cg_grid *grid)
{
    k->grid = *grid;
    k->reach = grid->kernel == GRAINS_CG_GAUSSIAN ? 3 * grid->width : 2 * grid->width;
    const double lo[3] = {grid->lo.x, grid->lo.y, grid->lo.z}, hi[3] = {grid->hi.x, grid->hi.y, grid->hi.z};
    k->stencil = 1;
    k->row = 1;
    for (int a = 0; a < 3; a++) {
        k->cell[a] = (hi[a] - lo[a]) / grid->n[a];
        k->half[a] = grid->averaged[a] ? 0 : (int)ceil(k->reach / k->cell[a]);
        k->stencil *= (size_t)(2 * k->half[a] + 1);
        k->row = (size_t)(2 * k->half[a] + 1) > k->row ? (size_t)(2 * k->half[a] + 1) : k->row;
    }
}

/* Along axis a: the nodes within reach of p, [*j0, *j1]; 0 when the point
 * is beyond the grid's reach (an averaged axis: outside [lo, hi], unless
 * periodic, which takes every point). */
static int axis_nodes(const cg_kernel *k, int a, double p, double lo, double hi, int *j0, int *j1)
{
    if (k->grid.averaged[a]) {
        *j0 = *j1 = 0;
        return k->grid.periodic[a] || (p >= lo && p <= hi);
    }
    if (!(p >= lo - k->reach && p <= hi + k->reach))
        return 0;
    *j0 = (int)ceil((p - k->reach - lo) / k->cell[a] - 0.5);
    *j1 = (int)floor((p + k->reach - lo) / k->cell[a] - 0.5);
    return 1;
}

size_t cg_kernel_weights(const cg_kernel *k, const double p[3], size_t *at, double *w, double *scratch)
{
    const grains_cg_grid *g = &k->grid;
    const double lo[3] = {g->lo.x, g->lo.y, g->lo.z}, hi[3] = {g->hi.x, g->hi.y, g->hi.z};
    int j0[3], j1[3];
    double *d2[3], *e[3]; /* per axis, per node within reach: the squared distance, and its Gaussian factor */
    for (int a = 0; a < 3; a++) {
        if (!axis_nodes(k, a, p[a], lo[a], hi[a], &j0[a], &j1[a]))
            return 0;
        d2[a] = scratch + (size_t)(2 * a) * (size_t)k->row, e[a] = d2[a] + k->row;
        for (int j = j0[a]; j <= j1[a]; j++) {
            double d = g->averaged[a] ? 0 : lo[a] + (j + 0.5) * k->cell[a] - p[a];
            d2[a][j - j0[a]] = d * d;
            e[a][j - j0[a]] = exp(-d * d / (2 * g->width * g->width)); /* (the Gaussian is their product) */
        }
    }
    double sum = 0, reach2 = k->reach * k->reach;
    size_t m = 0;
    for (int z = j0[2]; z <= j1[2]; z++)
        for (int y = j0[1]; y <= j1[1]; y++)
            for (int x = j0[0]; x <= j1[0]; x++) {
                int i[3] = {x - j0[0], y - j0[1], z - j0[2]};
                double r2 = d2[0][i[0]] + d2[1][i[1]] + d2[2][i[2]];
                if (r2 >= reach2)
                    continue;
                double phi = g->kernel == GRAINS_CG_GAUSSIAN ? e[0][i[0]] * e[1][i[1]] * e[2][i[2]] - exp(-4.5)
                                                             : lucy(k, sqrt(r2));
                sum += phi; /* every node of the lattice: the grid's and beyond */
                if (x < 0 || x >= g->n[0] || y < 0 || y >= g->n[1] || z < 0 || z >= g->n[2])
                    continue;
                at[m] = (size_t)x + (size_t)g->n[0] * ((size_t)y + (size_t)g->n[1] * (size_t)z);
                w[m++] = phi;
            }
    for (size_t q = 0; q < m; q++)
        w[q] /= sum;
    return sum > 0 ? m : 0;
}
