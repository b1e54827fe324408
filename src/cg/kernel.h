/* The coarse-graining kernel on a grid's nodes (grains/fields.h): the
 * weights with which a point's quantity goes to the nodes within reach of
 * it, normalized so that they sum to one over the nodes of the unbounded
 * lattice (those beyond the grid's faces are then dropped, not folded in). */
#ifndef GRAINS_CG_KERNEL_H
#define GRAINS_CG_KERNEL_H

#include <stddef.h>

#include "grains/fields.h"

typedef struct {
    grains_cg_grid grid;
    double cell[3];   /* [L] the cells' size */
    double reach;     /* [L] where the kernel ends */
    int half[3];      /* nodes within reach on either side (0 along an averaged axis) */
    size_t stencil;   /* nodes in a point's reach: the product of 2 half + 1 */
    size_t row;       /* the most along one axis */
} cg_kernel;

/* The kernel of a checked grid (grains_cg_create checks it). */
void cg_kernel_init(cg_kernel *k, const grains_cg_grid *grid);

/* A point's weights: the nodes within reach, at most k->stencil of them,
 * as cell indices (at[m], into the grid's x-fastest order) and weights
 * (w[m]) that sum to 1 over every node of the lattice, those inside the
 * grid kept; how many. 0 if the point reaches no node. scratch: room for
 * 6 k->row values. */
size_t cg_kernel_weights(const cg_kernel *k, const double p[3], size_t *at, double *w, double *scratch);

#endif
