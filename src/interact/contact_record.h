/* The contacts of one step, recorded as the force loop evaluates them (for
 * the contacts output: grains_sim_record_contacts). Each block appends its
 * contacts to its own buffer in its visiting order, so the list read back
 * block by block is the same for any thread count. */
#ifndef GRAINS_INTERACT_CONTACT_RECORD_H
#define GRAINS_INTERACT_CONTACT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "grains/sim.h"
#include "math/vec3.h"
#include "particles/particles.h"

typedef struct {
    grains_contact_force *c;
    size_t n, cap;
    int failed;                 /* out of memory: the list is incomplete */
} contact_block;

typedef struct {
    int requested;              /* record the next steps' contacts */
    int valid;                  /* the last step's contacts are recorded */
    long step;                  /* the step they were recorded in */
    contact_block *block;       /* per grid block */
    size_t n_blocks, cap_blocks;
    uint32_t *block_of_thread;  /* the block each thread is visiting */
    const uint32_t *id;         /* the particles' ids by slot, during the step */
    vec3 *f_sum, *t_sum;        /* per particle id: the contact sums the step's force loop made */
    size_t n_particles, cap_particles;
} contact_record;


/* Before a recorded step's force loop (serial): buffers emptied, ids mapped. */
int contact_record_begin(contact_record *r, const grains_particles *pt, size_t n_blocks, int threads);
/* A contact of particle (storage index) i with partner j, or with mesh
 * element j (wall): the force f on i, the partners' centres (the closest
 * point on the element for a wall), the overlap. */
void contact_record_add(contact_record *r, uint32_t i, uint32_t j, int wall, vec3 x_i, vec3 x_j, vec3 f, real delta);
/* After the force loop, before the update (one thread): the sums. */
void contact_record_sums(contact_record *r, const grains_particles *pt, long step);
void contact_record_free(contact_record *r);

#endif
