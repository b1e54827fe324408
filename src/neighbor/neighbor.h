/* Verlet candidate lists, rebuilt only when some particle may have moved more
 * than half the skin. One list per particle i, in CSR order: its partners
 * j > i (a half list), then its mesh elements, marked e | STORE_MESH_BIT.
 * Each entry carries the handle of its contact history (STORE_NONE while
 * the pair does not touch). */
#ifndef GRAINS_NEIGHBOR_H
#define GRAINS_NEIGHBOR_H

#include "contact/store.h"
#include "grains/mesh.h"
#include "neighbor/grid.h"

typedef struct {
    size_t n_particles;
    uint32_t *start;        /* n_particles + 1 offsets into j, h */
    uint32_t *j;            /* partner particle, or element | STORE_MESH_BIT */
    int32_t *h;             /* contact handle */
    size_t n, cap, cap_start;
    uint32_t *scratch;      /* (particle, element) pairs while building */
    size_t scratch_cap;
} grains_neighbors;

/* The lists of `n` particles binned in `g`: pairs i < j with
 * |x_i - x_j| < R_i + R_j + skin, and elements closer than R_i + R_e + skin,
 * found through the grid from each element's bounding box grown by
 * R_max + skin (TinyDEM Section 3.3). `mesh` may be NULL. */
grains_status neighbors_build(grains_neighbors *nb, const grains_grid *g, const grains_mesh *mesh, const vec3 *x,
                              const real *R, size_t n, real R_max, real skin, int nthreads, grains_error *err);

/* Names each store entry by the pair whose list entry holds its handle:
 * keys[h] = (i, j) or (i, element | STORE_MESH_BIT); entries no list entry
 * holds get STORE_DEAD. Call after store_merge_overflow. */
void neighbors_collect_keys(const grains_neighbors *nb, const contact_store *cs, store_key *keys, int nthreads);

/* Points the new lists at the entries named by keys; an entry whose pair is
 * no longer listed is left unreferenced (its contact ends). */
void neighbors_attach_contacts(grains_neighbors *nb, const contact_store *cs, const store_key *keys, int nthreads);

/* Per cell block b: pending[b], the listed pairs of its particles that
 * touch but have no history yet (they start this step), and live[b], those
 * that have one. */
void neighbors_count_contacts(const grains_neighbors *nb, const grains_grid *g, const grains_mesh *mesh,
                              const vec3 *x, const real *R, uint32_t *pending, uint32_t *live, int nthreads);

void neighbors_free(grains_neighbors *nb);

#endif
