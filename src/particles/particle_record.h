/* A particle as bytes between ranks: every field a rank holds it by (not f
 * and t, which a rebuild zeroes, nor slot, the holder's own), in one order
 * for the rebuild's move (decomp/rank_move.c) and the writer's gather
 * (decomp/rank_writer.c). */
#ifndef GRAINS_PARTICLES_PARTICLE_RECORD_H
#define GRAINS_PARTICLES_PARTICLE_RECORD_H

#include <string.h>

#include "particles/particles.h"

#define PARTICLE_RECORD_FIELDS(X) X(x) X(v) X(w) X(q) X(R) X(mat) X(tag) X(id)

static inline size_t particle_record_bytes(const grains_particles *pt)
{
    size_t bytes = 0;
#define PARTICLE_RECORD_SIZE(field) bytes += sizeof *pt->field;
    PARTICLE_RECORD_FIELDS(PARTICLE_RECORD_SIZE)
#undef PARTICLE_RECORD_SIZE
    return bytes;
}

/* Particle i of pt put at `at`; returns the byte after it. */
static inline char *particle_record_put(char *at, const grains_particles *pt, size_t i)
{
#define PARTICLE_RECORD_PUT(field)                \
    memcpy(at, &pt->field[i], sizeof *pt->field); \
    at += sizeof *pt->field;
    PARTICLE_RECORD_FIELDS(PARTICLE_RECORD_PUT)
#undef PARTICLE_RECORD_PUT
    return at;
}

/* The record at `at` into place i of pt; returns the byte after it. */
static inline const char *particle_record_take(const char *at, grains_particles *pt, size_t i)
{
#define PARTICLE_RECORD_TAKE(field)               \
    memcpy(&pt->field[i], at, sizeof *pt->field); \
    at += sizeof *pt->field;
    PARTICLE_RECORD_FIELDS(PARTICLE_RECORD_TAKE)
#undef PARTICLE_RECORD_TAKE
    return at;
}

#endif
