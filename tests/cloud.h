/* Clouds of spheres of two sizes for the neighbour tests, and shares of
 * them as processes under MPI would hold (tests/test_neighbors.c,
 * tests/test_comm.c). */
#ifndef GRAINS_TESTS_CLOUD_H
#define GRAINS_TESTS_CLOUD_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grains/mesh.h"
#include "neighbor/grid.h"
#include "util/rng.h"

typedef struct {
    size_t n;
    vec3 *x;
    real *R;
    periodic_box box;
    grains_mesh *mesh;
} cloud;

/* n_small spheres of radius in [1, 1.2] R_s in a cube of 30 R_s (around the
 * origin: across the faces when periodic), n_big of ratio x R_s anywhere in
 * the box, and a floor of two triangles through the small ones. */
static inline cloud make_cloud(size_t n_small, size_t n_big, double ratio, int periodic, unsigned seed)
{
    const double R_s = 1e-3, L = fmax(60 * R_s, 4.5 * (2 * 1.2 * ratio * R_s + 0.5 * R_s));
    cloud c = {n_small + n_big, malloc((n_small + n_big) * sizeof(vec3)), malloc((n_small + n_big) * sizeof(real)),
               {0}, NULL};
    grains_rng rng;
    rng_seed(&rng, seed);
    for (size_t i = 0; i < c.n; i++) {
        int big = i % (n_small / n_big + 1) == 0; /* spread through the storage order */
        double side = big ? L : 30 * R_s, lo = big ? 0 : -15 * R_s;
        c.x[i] = v3(lo + side * rng_uniform(&rng), lo + side * rng_uniform(&rng), lo + side * rng_uniform(&rng));
        c.R[i] = R_s * (big ? ratio * (1 + 0.2 * rng_uniform(&rng)) : 1 + 0.2 * rng_uniform(&rng));
    }
    if (periodic) {
        c.box.mask = 7;
        for (int k = 0; k < 3; k++)
            c.box.lo[k] = 0, c.box.L[k] = L, c.box.inv_L[k] = 1 / L;
        for (size_t i = 0; i < c.n; i++)
            c.x[i] = periodic_wrap(&c.box, c.x[i]);
    }
    grains_error err;
    grains_mesh_create(&c.mesh, &err);
    const double f = 12 * R_s;
    grains_vec3 corner[4] = {{-f, -f, 0.1 * f}, {f, -f, 0.1 * f}, {f, f, 0.1 * f}, {-f, f, 0.1 * f}};
    if (periodic) /* the floor inside the box, near its lower faces */
        for (int k = 0; k < 4; k++)
            corner[k] = v3_add(corner[k], v3(1.5 * f, 1.5 * f, 0));
    for (int k = 0; k < 4; k++)
        grains_mesh_add_vertex(c.mesh, corner[k], &err);
    uint32_t t0[3] = {0, 1, 2}, t1[3] = {0, 2, 3};
    grains_mesh_add_element(c.mesh, 3, t0, -1, 0.2 * R_s, &err);
    grains_mesh_add_element(c.mesh, 3, t1, -1, 0.2 * R_s, &err);
    grains_mesh_update_bounds(c.mesh);
    return c;
}

static inline void free_cloud(cloud *c)
{
    free(c->x);
    free(c->R);
    grains_mesh_destroy(c->mesh);
}

/* Share k of the cloud: the slab k of `shares` along x, stored from the
 * highest id down (by_id lists them up); ids[] their ids in the cloud. */
static inline size_t take_share(const cloud *c, int k, int shares, vec3 *x, real *R, uint32_t *ids, uint32_t *by_id)
{
    real lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < c->n; i++)
        lo = fmin(lo, c->x[i].x), hi = fmax(hi, c->x[i].x);
    size_t n = 0;
    for (size_t i = c->n; i-- > 0;) {
        int slab = (int)((c->x[i].x - lo) / (hi - lo) * shares);
        if ((slab < shares ? slab : shares - 1) == k)
            x[n] = c->x[i], R[n] = c->R[i], ids[n++] = (uint32_t)i;
    }
    for (size_t m = 0; m < n; m++)
        by_id[m] = (uint32_t)(n - 1 - m);
    return n;
}

static inline int cloud_by_u64(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
    return (u > v) - (u < v);
}

/* Share k as a rank holds it with a halo: take_share's particles, then
 * copies of every 4th particle of the other slabs (by id, up), marked in
 * copy[]; by_id over all held. Returns how many are held. */
static inline size_t take_held(const cloud *c, int k, int shares, vec3 *x, real *R, uint32_t *ids, uint32_t *by_id,
                               uint8_t *copy)
{
    size_t n = take_share(c, k, shares, x, R, ids, by_id), own = n;
    uint8_t *mine = calloc(c->n, 1);
    uint64_t *order = malloc(c->n * sizeof *order);
    for (size_t m = 0; m < own; m++)
        mine[ids[m]] = 1;
    for (size_t i = 0; i < c->n; i += 4)
        if (!mine[i])
            x[n] = c->x[i], R[n] = c->R[i], ids[n++] = (uint32_t)i;
    for (size_t m = 0; m < n; m++)
        order[m] = (uint64_t)ids[m] << 32 | m;
    qsort(order, n, sizeof *order, cloud_by_u64);
    for (size_t m = 0; m < n; m++)
        by_id[m] = (uint32_t)order[m];
    free(mine), free(order);
    for (size_t m = 0; m < n; m++)
        copy[m] = m >= own;
    return n;
}

/* Whether a share's grid is framed as the whole's: levels, edges, blocks, origin. */
static inline int same_frame(const grains_grid *a, const grains_grid *b)
{
    int same = a->n_levels == b->n_levels && memcmp(&a->origin, &b->origin, sizeof a->origin) == 0;
    for (int l = 0; same && l < a->n_levels; l++)
        same = a->level[l].R_top == b->level[l].R_top &&
               memcmp(a->level[l].edge, b->level[l].edge, sizeof a->level[l].edge) == 0 &&
               a->level[l].block == b->level[l].block && a->level[l].n_particles == b->level[l].n_particles;
    return same;
}

#endif
