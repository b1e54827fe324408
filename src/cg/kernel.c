/* The coarse-graining kernel on a grid's nodes (cg/kernel.h). */
#include "cg/kernel.h"

#include <math.h>

/* The kernel's shape at distance r (< reach), unnormalized: the
 * normalization is the nodes' sum. The Gaussian is lowered to 0 at its cut:
 * a kernel that jumps at its edge leaves a ripple of the grains' layers in
 * the fields (a lattice's density at w = a: 1.3% cut as it is, 0.32%
 * lowered; tests/test_cg.c). */
static double shape(const cg_kernel *k, double r)
{
    double w = k->grid.width;
    if (k->grid.kernel == GRAINS_CG_GAUSSIAN)
        return exp(-r * r / (2 * w * w)) - exp(-4.5); /* (0 at r = 3w) */
    double u = r / k->reach; /* Lucy: c = 2w */
    return (1 + 3 * u) * (1 - u) * (1 - u) * (1 - u);
}

void cg_kernel_init(cg_kernel *k, const grains_cg_grid *grid)
{
    k->grid = *grid;
    k->reach = grid->kernel == GRAINS_CG_GAUSSIAN ? 3 * grid->width : 2 * grid->width;
    const double lo[3] = {grid->lo.x, grid->lo.y, grid->lo.z}, hi[3] = {grid->hi.x, grid->hi.y, grid->hi.z};
    k->stencil = 1;
    for (int a = 0; a < 3; a++) {
        k->cell[a] = (hi[a] - lo[a]) / grid->n[a];
        k->half[a] = grid->averaged[a] ? 0 : (int)ceil(k->reach / k->cell[a]);
        k->stencil *= (size_t)(2 * k->half[a] + 1);
    }
}

/* Along axis a: the nodes within reach of p, [*j0, *j1]; 0 when the point
 * is beyond the grid's reach (an averaged axis takes every point). */
static int axis_nodes(const cg_kernel *k, int a, double p, double lo, double hi, int *j0, int *j1)
{
    if (k->grid.averaged[a]) {
        *j0 = *j1 = 0;
        return 1;
    }
    if (!(p >= lo - k->reach && p <= hi + k->reach))
        return 0;
    *j0 = (int)ceil((p - k->reach - lo) / k->cell[a] - 0.5);
    *j1 = (int)floor((p + k->reach - lo) / k->cell[a] - 0.5);
    return 1;
}

size_t cg_kernel_weights(const cg_kernel *k, const double p[3], size_t *at, double *w)
{
    const grains_cg_grid *g = &k->grid;
    const double lo[3] = {g->lo.x, g->lo.y, g->lo.z}, hi[3] = {g->hi.x, g->hi.y, g->hi.z};
    int j0[3], j1[3];
    for (int a = 0; a < 3; a++)
        if (!axis_nodes(k, a, p[a], lo[a], hi[a], &j0[a], &j1[a]))
            return 0;
    double sum = 0;
    size_t m = 0;
    int j[3];
    for (j[2] = j0[2]; j[2] <= j1[2]; j[2]++)
        for (j[1] = j0[1]; j[1] <= j1[1]; j[1]++)
            for (j[0] = j0[0]; j[0] <= j1[0]; j[0]++) {
                double r2 = 0;
                for (int a = 0; a < 3; a++)
                    if (!g->averaged[a]) {
                        double d = lo[a] + (j[a] + 0.5) * k->cell[a] - p[a];
                        r2 += d * d;
                    }
                double r = sqrt(r2);
                if (r >= k->reach)
                    continue;
                double phi = shape(k, r);
                sum += phi; /* every node of the lattice: the grid's and beyond */
                if (j[0] < 0 || j[0] >= g->n[0] || j[1] < 0 || j[1] >= g->n[1] || j[2] < 0 || j[2] >= g->n[2])
                    continue;
                at[m] = (size_t)j[0] + (size_t)g->n[0] * ((size_t)j[1] + (size_t)g->n[1] * (size_t)j[2]);
                w[m++] = phi;
            }
    for (size_t q = 0; q < m; q++)
        w[q] /= sum;
    return sum > 0 ? m : 0;
}
