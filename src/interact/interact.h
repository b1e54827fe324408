/* The interactions of a step: the force loop over pairs and mesh elements (interact/forces.c,
 * force_lanes.c) and the implicit rows' force field (implicit_field.c), each through the view
 * the core makes of the simulation (force_view, implicit_pairs): none of them sees the core's
 * state (sim/sim_internal.h) or the ranks. */
#ifndef GRAINS_INTERACT_INTERACT_H
#define GRAINS_INTERACT_INTERACT_H

#include "bonds/bonds.h"
#include "boundary/walls.h"
#include "contact/store.h"
#include "geometry/periodic.h"
#include "grains/sim.h"
#include "integrate/implicit.h"
#include "integrate/integrator.h"
#include "interact/contact_record.h"
#include "interact/force_diag.h"
#include "interact/mesh_select.h"
#include "membrane/membranes.h"
#include "membrane/patches.h"
#include "neighbor/grid.h"
#include "neighbor/neighbor.h"
#include "particles/particles.h"

struct block_walk;
/* The contacts of cell block b's particles in the common run (one material,
 * open or periodic box, no attraction, bonds or extended sub-models, any friction modes),
 * evaluated in lanes (interact/force_lanes.c). One copy per instruction set
 * (sim/kernels.h). */
typedef void (*block_lanes_fn)(const struct block_walk *w, uint32_t b);

/* What the force loop sees of a simulation (the core makes it once a step:
 * sim_forces_of): the particles, their lists and histories, the laws, the
 * meshes as bodies (their blocks' sums written) and as membrane patches
 * (their blocks' logs written), the periodic box, the bonds (a bonded pair
 * has no contact), the contacts' record, and which blocks and partners this
 * process evaluates. Nothing of ranks: a block to visit in part is one whose
 * pairs count only with a partner marked in `mine`. */
typedef struct force_view {
    grains_particles pt;          /* the particles' arrays and the lists as they stand in this step (copied: */
    grains_neighbors nb;          /* the loops reach their arrays with one load less) */
    contact_store *cs;
    const hm_params *hp;
    const grains_grid *grid;
    const periodic_box *box;
    const grains_mesh *mesh;      /* or NULL */
    walls *wl;
    const sim_membranes *mb;
    patch_log *patch_logs;        /* per block, with membranes */
    const sim_bonds *bonds;       /* their index by slot */
    int any_bonds;                /* the whole has bonds (their index may be elsewhere) */
    contact_record *rec;
    block_lanes_fn lanes;         /* the vector kernel's (this CPU's copy), or NULL: scalar loops */
    const uint8_t *visit;         /* per block: 2 all its pairs, 1 those with a partner in mine, 0 none; NULL: all */
    const uint8_t *mine;          /* per particle: this process's own */
    int mixed;                    /* several materials, or a pair that does not touch: each pair's law looked up */
    int fixed_lanes;              /* with mixed: the only other materials are copies of material 0 whose grains
                                   * stay put (hm_fixed_copies), which the lanes take */
    const uint64_t *block_work;   /* per block, the work before it: each thread walks its region of each colour
                                   * phase (neighbor/block_share.h), then helps the others with theirs; NULL: the
                                   * blocks go to the threads as they come */
    uint32_t *block_next;         /* with block_work: per phase and region, the next block of the region */
    int block_regions;            /* with block_work: the regions of each phase, one a thread (a team that has
                                   * fewer threads shares the rest) */
} force_view;

/* One cell block's walk through the force loop: the view, the block's
 * stream of histories, where its verdict, its walls' sums and its patch log
 * go, the thread's room for a particle's mesh candidates (NULL: compat =
 * "tinydem"), and the partners whose pairs are its own (NULL: every one;
 * partner_ours, interact/contact_visit.h). */
typedef struct block_walk {
    const force_view *fv;
    store_stream *s;
    force_diag *d;
    vec3 *wall_sum;
    patch_log *plog;
    mesh_candidate *cand;
    const uint8_t *mine;
} block_walk;

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

/* What one thread writes for itself in the force loop, on cache lines of
 * its own: a line two threads write is passed back and forth between their
 * cores at each write (the queue's head and count change with every
 * history an insertion displaces). */
#define THREAD_LINE 64
typedef struct {
    _Alignas(THREAD_LINE) force_diag diag;
    store_queue queue;
} thread_own;

/* The next three are worksharing loops for every thread of one parallel
 * region (grains_sim_step), each thread passing its own diag slot. */

/* Contact forces of the current positions into pt.f, pt.t (interact/forces.c);
 * `cand` is the thread's room for one particle's mesh candidates (NULL:
 * every mesh contact counts, compat = "tinydem"). */
void sim_forces(const force_view *fv, force_diag *d, store_queue *q, mesh_candidate *cand);

/* The lanes' kernel (block_lanes_fn, this build's copy), and where
 * particle i's listed elements [k0, end) cannot go into lanes, their mesh
 * contacts one at a time, into its sums f_i, t_i. */
void sim_block_lane_contacts(const block_walk *w, uint32_t b);
void sim_mesh_contacts(const block_walk *w, uint32_t i, uint32_t k0, uint32_t end, vec3 *f_i, vec3 *t_i);

/* The candidates of particle i (at x_i) among its listed elements [k0, end):
 * closest points, features, whether they touch, and which make contacts
 * (interact/mesh_select.h); `extended` admits JKR's reach. */
void sim_select_mesh_contacts(const force_view *fv, uint32_t i, vec3 x_i, int mat_i, uint32_t k0, uint32_t end,
                              mesh_candidate *c, int mixed, int extended);


/* What the implicit solver's pair loops see (the core makes it:
 * sim_implicit_pairs_of): the force loop's view, the particles' masses,
 * drag and gravity, the terms per list entry, and per thread its diag slot
 * and room for a particle's mesh candidates (NULL: compat = "tinydem"). */
typedef struct {
    force_view fv;
    integrate_view whole;
    sim_implicit_terms *terms;
    thread_own *thread;
    mesh_candidate **cand_thread;
    int nthreads;
} implicit_pairs;

/* The implicit solver's pair loops (interact/implicit_field.c; `self` the
 * pairs' view): the forces of an evaluation, Newton's matrix times u, the
 * potential energy; room for the terms of n_entries list entries. The core
 * assembles them into the solver's field with its own check and refresh
 * (sim_implicit_field, sim/implicit_field.c). */
real implicit_pairs_forces(void *self, const implicit_eval *e);
void implicit_pairs_product(void *self, const real *mass_diag, const vec3 *u, vec3 *y);
double implicit_pairs_energy(void *self);
grains_status implicit_terms_reserve(sim_implicit_terms *t, size_t n_entries, grains_error *err);
void sim_implicit_terms_free(sim_implicit_terms *t);

/* The implicit solver's force field over the simulation, with room for the
 * terms of every listed pair (sim/implicit_field.c). */
grains_status sim_implicit_field(grains_sim *sim, implicit_field *f, grains_error *err);

#endif
