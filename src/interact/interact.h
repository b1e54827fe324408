/* The interactions of a step: the force loop over pairs and mesh elements (interact/forces.c,
 * force_lanes.c), the contacts set by a caller (contacts.c) and the implicit rows' force field
 * (implicit_field.c). Declared for the step and the rebuild (src/sim/). */
#ifndef GRAINS_INTERACT_INTERACT_H
#define GRAINS_INTERACT_INTERACT_H

#include "contact/store.h"
#include "grains/sim.h"
#include "integrate/implicit.h"
#include "interact/force_diag.h"
#include "interact/mesh_select.h"
#include "membrane/patches.h"

/* One listed pair's part of Newton's matrix (interact/implicit_field.c): a n n^T
 * on the relative displacement, a = 0 when the pair does not touch. */
typedef struct {
    vec3 n;
    real a;
    real c;          /* the dashpot, and whether the pair touches: kept while */
    int touching;    /* the contact set is frozen (integrate/implicit.h) */
} implicit_term;

/* Per list entry, the terms of the implicit solver's last evaluation. */
typedef struct {
    implicit_term *term;
    size_t cap;
} sim_implicit_terms;

/* The next three are worksharing loops for every thread of one parallel
 * region (grains_sim_step), each thread passing its own diag slot. */

/* Contact forces of the current positions into pt.f, pt.t (interact/forces.c);
 * `cand` is the thread's room for one particle's mesh candidates (NULL:
 * every mesh contact counts, compat = "tinydem"). */
void sim_forces(grains_sim *sim, force_diag *d, store_queue *q, mesh_candidate *cand);

/* The contacts of cell block b's particles in the common run (one material,
 * open box, no attraction, bonds or extended sub-models, full histories),
 * evaluated in lanes (interact/force_lanes.c), those with partners marked in
 * `mine` only (NULL: all; partner_ours, interact/contact_visit.h); sim_mesh_contacts evaluates the
 * mesh contacts of particle i's listed elements [k0, end) one at a time,
 * into its sums f_i, t_i, where they cannot go into lanes. */
void sim_block_lane_contacts(grains_sim *sim, uint32_t b, store_stream *s, force_diag *d, vec3 *wall_sum,
                             patch_log *plog, mesh_candidate *cand, const uint8_t *mine);
void sim_mesh_contacts(grains_sim *sim, uint32_t i, uint32_t k0, uint32_t end, store_stream *s, force_diag *d,
                       vec3 *wall_sum, patch_log *plog, mesh_candidate *cand, vec3 *f_i, vec3 *t_i);

/* The candidates of particle i (at x_i) among its listed elements [k0, end):
 * closest points, features, whether they touch, and which make contacts
 * (interact/mesh_select.h); `extended` admits JKR's reach. */
void sim_select_mesh_contacts(const grains_sim *sim, uint32_t i, vec3 x_i, int mat_i, uint32_t k0, uint32_t end,
                              mesh_candidate *c, int mixed, int extended);

/* Notes the lowest particle whose force or torque is not finite. */
void sim_check_finite(const grains_sim *sim, force_diag *d);

/* The threads' diag slots combined (order-free: sums and maxima). */
force_diag sim_reduce_diag(const grains_sim *sim);

/* The springs of grains_sim_set_contacts into the store (cs.c[0 .. n_pending))
 * with their keys by storage slot, in place of the gathered ones (interact/contacts.c). */
grains_status sim_load_contacts(grains_sim *sim, store_key *keys, grains_error *err);

/* The implicit solver's pair loops over this simulation's lists
 * (interact/implicit_field.c; `self` the simulation): the forces of an
 * evaluation, Newton's matrix times u, the potential energy; room for the
 * terms of every listed pair. The core assembles them into the solver's
 * field with its own check and refresh (sim_implicit_field, sim/implicit_field.c). */
real implicit_pairs_forces(void *self, const implicit_eval *e);
void implicit_pairs_product(void *self, const real *mass_diag, const vec3 *u, vec3 *y);
double implicit_pairs_energy(void *self);
grains_status implicit_terms_reserve(grains_sim *sim, grains_error *err);
void sim_implicit_terms_free(sim_implicit_terms *t);

/* The implicit solver's force field over the simulation, with room for the
 * terms of every listed pair (sim/implicit_field.c). */
grains_status sim_implicit_field(grains_sim *sim, implicit_field *f, grains_error *err);

#endif
