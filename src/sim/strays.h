/* Strays (sim/strays.c): grains lost so far out of the meshes' box that
 * nothing can reach them before the lists are rebuilt anyway. Their speeds
 * do not bound the others' displacement since the rebuild (which a grain
 * falling away at 50 m/s would otherwise make a rebuild every step or two);
 * a bound of their own, and their clearances at the rebuild, say when they
 * could meet something unlisted.
 *
 * The bound (docs/architecture.md, "The rebuild"): the
 * distance to a convex set changes no faster than the position, so a stray
 * at distance d_s from the box E and a grain at d_j <= D (the largest of the
 * others') are at least d_s - D apart; an element lies within its radius of
 * E. A stray and the rest close by at most (its motion) + (theirs): they
 * cannot touch while that stays below the clearance, nor two strays while
 * twice their motion stays below theirs. */
#ifndef GRAINS_SIM_STRAYS_H
#define GRAINS_SIM_STRAYS_H

#include <stdint.h>

#include "math/vec3.h"

#define STRAYS_MAX 64 /* more lost grains: none is a stray (the pairs among them are checked pair by pair) */

typedef struct {
    uint32_t n;                 /* strays since the last rebuild */
    uint32_t id[STRAYS_MAX];    /* their ids, ascending */
    uint32_t slot[STRAYS_MAX];  /* where this rank holds each (UINT32_MAX: it does not) */
    real moved;                 /* [L] bound on any stray's motion since the rebuild */
    real clear_rest;            /* [L] how far a stray and another grain or a mesh must close to interact */
    real clear_each;            /* [L] how far two strays must close (INFINITY: one stray) */
    real v2_far;                /* the step's largest squared speed among the strays */
} sim_strays;

/* A stray as a rank offers it at the rebuild (every rank's, gathered). */
typedef struct {
    uint32_t id, pad_;
    real x[3];
    real dist; /* [L] from the box E */
} stray_offer;

#endif
