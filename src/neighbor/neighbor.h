/* Verlet candidate lists, rebuilt only when some particle may have moved more
 * than half the skin. One list per particle i, in CSR order: its partners
 * j > i (a half list), then its mesh elements, marked e | STORE_MESH_BIT.
 * An entry whose pair has a contact history is marked STORE_HIST_BIT; the
 * histories follow the lists' order (contact/store.h). */
#ifndef GRAINS_NEIGHBOR_H
#define GRAINS_NEIGHBOR_H

#include "contact/store.h"
#include "grains/mesh.h"
#include "neighbor/grid.h"

typedef struct {
    size_t n_particles;
    uint32_t *start;        /* n_particles + 1 offsets into j, h */
    uint32_t *j;            /* partner particle, or element | STORE_MESH_BIT; | STORE_HIST_BIT */
    size_t n, cap, cap_start;
    uint32_t *scratch;      /* (particle, element) pairs while building */
    size_t scratch_cap;
    const uint8_t *listed;  /* while building: the particles that get a list (NULL: all) */
} grains_neighbors;

/* The lists of `n` particles binned in `g` (with the grid's pad): pairs
 * i < j with |x_i - x_j| < R_i + R_j + pad, and elements closer than
 * R_i + R_e + pad, found through each level's cells from each element's
 * bounding box grown by that level's R_top + pad (TinyDEM Section 3.3).
 * `mesh` may be NULL. With `listed` (per particle), the particles with
 * listed[i] == 0 get an empty list and every other one its whole list, as
 * built without (a rank lists the particles it may pair with its own). */
grains_status neighbors_build(grains_neighbors *nb, const grains_grid *g, const grains_mesh *mesh, const vec3 *x,
                              const real *R, size_t n, const uint8_t *listed, int nthreads, grains_error *err);

/* Names the histories by the pairs of the lists' marked entries, in list
 * order: keys[k] = (i, j) or (i, element | STORE_MESH_BIT); `drop_mesh`
 * names the mesh contacts' histories STORE_DEAD instead. Returns how many. */
size_t neighbors_collect_keys(const grains_neighbors *nb, store_key *keys, int drop_mesh);

/* Marks the new lists' entries of the keys' pairs; keys[k].j becomes the
 * entry's index, or keys[k].i STORE_DEAD when the pair is no longer listed
 * (its contact ends). */
void neighbors_attach_contacts(grains_neighbors *nb, store_key *keys, size_t n, int nthreads);

/* Per cell block b: pending[b], the listed pairs of its particles that
 * touch but have no history yet (they start this step), and live[b], those
 * that have one. */
void neighbors_count_contacts(const grains_neighbors *nb, const grains_grid *g, const grains_mesh *mesh,
                              const vec3 *x, const real *R, uint32_t *pending, uint32_t *live, int nthreads);

/* After store_windows: keys[k].j (an entry index) becomes the place of its
 * history in the new order, using `first` (n_particles entries) as scratch. */
void neighbors_place_histories(const grains_neighbors *nb, const grains_grid *g, const contact_store *cs,
                               store_key *keys, size_t n, uint32_t *first, int nthreads);

void neighbors_free(grains_neighbors *nb);

/* The lists as built (checkpoints), and back: lists of n_particles whose
 * entries name particles below n_particles and elements below n_elements,
 * or an error (no file name). */
void neighbors_write_state(const grains_neighbors *nb, bytes_out *o);
grains_status neighbors_read_state(grains_neighbors *nb, bytes_in *in, size_t n_particles, size_t n_elements,
                                   grains_error *err);

#endif
