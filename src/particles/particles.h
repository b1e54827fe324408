/* Particle store: one array per field (structure of arrays). Particles are
 * kept in spatial order (re-sorted at each neighbour-list rebuild, see
 * neighbor/grid.h), so an index is not an identity: slot[id] is where
 * particle `id` is stored now (ids count up in order of creation). */
#ifndef GRAINS_PARTICLES_H
#define GRAINS_PARTICLES_H

#include <stddef.h>
#include <stdint.h>

#include "grains/error.h"
#include "math/quat.h"
#include "util/bytes.h"

typedef struct {
    size_t n, cap;
    vec3 *x;     /* [L] position */
    vec3 *v;     /* [L/T] velocity */
    vec3 *w;     /* [1/T] angular velocity */
    quat *q;     /* orientation */
    real *R;     /* [L] radius */
    uint8_t *mat; /* material, < GRAINS_MAX_MATERIALS */
    int32_t *tag; /* the user's label (grains_particle.tag) */
    vec3 *f;     /* [ML/T^2] contact force sum of the current step */
    vec3 *t;     /* [ML^2/T^2] contact torque sum (f + cap: one block; free
                  * memory between Euler steps, used by the rebuild) */
    uint32_t *slot; /* where particle `id` is stored (slot_cap ids, at least cap) */
    size_t slot_cap;
    uint32_t *id;   /* the id of the particle stored at each index (slot's inverse:
                     * what ranks name each other's particles by) */
} grains_particles;

/* Grows the arrays to hold at least `need` particles (geometric growth). */
grains_status particles_reserve(grains_particles *pt, size_t need, grains_error *err);
void particles_free(grains_particles *pt);

/* Room in slot for ids up to n_ids - 1: a rank holding a share of the
 * particles stores fewer than their ids count. */
grains_status particles_reserve_ids(grains_particles *pt, size_t n_ids, grains_error *err);
/* Room in slot for `id`, grown by half as ids are added one by one; an
 * error beyond the ids' limit (32-bit in contact keys). */
grains_status particles_reserve_id(grains_particles *pt, size_t id, grains_error *err);

/* Moves particle i to where[i] in every field, the per-step sums f and t
 * with_sums alone (else their memory may hold a rebuild's scratch), on
 * nthreads threads (particles/permute.c); updates slot and id (of the ids
 * held, whichever they are). May destroy `where`. */
void particles_permute(grains_particles *pt, uint32_t *where, int with_sums, int nthreads);

/* Keeps the particles with keep[i] set, in their order, f and t with
 * them (velocity Verlet carries a(t) in them), and lets the arrays' room
 * go down to them (a shrink that fails keeps the room); slot follows,
 * UINT32_MAX for the ids let go. */
void particles_keep(grains_particles *pt, const uint8_t *keep);

/* Every field of every particle, in storage order (checkpoints), and back:
 * values checked (finite, R > 0, material below n_materials, slot a
 * permutation); on failure an error without a file name. */
void particles_write_state(const grains_particles *pt, bytes_out *o);
grains_status particles_read_state(grains_particles *pt, bytes_in *in, int n_materials, grains_error *err);

/* A reader that keeps a share (ranks holding their own alone, on resume):
 * the head reads the count, passes over the fields (*fields) and reads
 * the slots, each id's place in the stream (pt->slot, checked a
 * permutation; pt->n stays 0). Errors without a file name. */
grains_status particles_read_head(grains_particles *pt, bytes_in *in, size_t *n, bytes_span *fields, grains_error *err);

/* The fields of n particles, x, v, w, q, R, material, tag, f, t, one
 * after another, each in the stream's order. */
#define PARTICLES_FIELDS 9
#define PARTICLES_READ_WINDOW 32768 /* particles a field is read by */

/* What one of the readers of the fields found in its slice. */
typedef struct {
    uint32_t crc[PARTICLES_FIELDS]; /* of each field's slice */
    uint32_t field;                 /* the first whose slice failed; PARTICLES_FIELDS: none did */
    uint32_t why;                   /* how (particles_slice_error) */
} particles_slice;

/* Then each reader of the slicing's (ranks) reads the fields a window at
 * a time: those of its slice (bytes_slice), every value checked as
 * particles_read_state checks it (*found), and the others that hold a
 * particle kept; those with where[i] != UINT32_MAX kept at where[i] (kept
 * of them): slot and id follow, UINT32_MAX for the ids let go. The
 * readers' findings, gathered in reader order, give the fields' CRC and
 * the error of one reader reading them all: the first field any slice
 * failed in, of the first reader that failed in it (particles_slice_error:
 * GRAINS_OK when none did). It fails alone when memory does. */
grains_status particles_read_slice(grains_particles *pt, const bytes_in *in, const bytes_span *fields, size_t n,
                                   const uint32_t *where, size_t kept, int n_materials, const bytes_slicing *sl,
                                   particles_slice *found, grains_error *err);
grains_status particles_fields_crc(const particles_slice *found, const bytes_slicing *sl, size_t n, uint32_t *crc,
                                   grains_error *err);
grains_status particles_slice_error(const particles_slice *found, int readers, grains_error *err);

/* The id of the particle stored at index i. */
static inline uint32_t particles_id_of(const grains_particles *pt, uint32_t i) { return pt->id[i]; }

#endif
