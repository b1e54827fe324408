/* What a step's force loop saw (contacts, the largest overlap, the first force that is not
 * finite), per thread, merged in a fixed order and over the ranks (interact/forces.c). */
#ifndef GRAINS_INTERACT_FORCE_DIAG_H
#define GRAINS_INTERACT_FORCE_DIAG_H

#include <limits.h>
#include <math.h>
#include <stddef.h>

#include "grains/real.h"

/* What the force loop saw, reduced in a fixed order. */
typedef struct {
    size_t n_contacts;
    real max_num, max_den;  /* largest delta / (2 R*) as a fraction */
    long max_overlap_i;     /* particle with the largest overlap */
    long non_finite;        /* lowest particle with a non-finite force, or LONG_MAX */
    long overlap_id, non_finite_id; /* their ids, where ranks hold their own particles alone: then the
                             * two above are places in the whole's order, merged as one process's */
    int history_failed;     /* a contact history could not be stored */
    int bonds_broke;        /* a bond broke (then every rank rebuilds its lists) */
    real max_force;         /* largest pair force (variational integrator and relaxation only) */
} force_diag;

/* Nothing seen yet. */
static inline force_diag force_diag_empty(void)
{
    return (force_diag){.max_den = 1, .max_overlap_i = -1, .non_finite = LONG_MAX, .overlap_id = -1,
                        .non_finite_id = -1};
}

/* Largest relative overlap delta / (2 R*) kept as a fraction, compared by
 * cross-multiplication: no division per contact. */
static inline void note_overlap(force_diag *d, real delta, real two_R_eff, long i)
{
    d->n_contacts++;
    real lhs = delta * d->max_den, rhs = d->max_num * two_R_eff;
    if (lhs > rhs || (lhs == rhs && i < d->max_overlap_i)) {
        d->max_num = delta;
        d->max_den = two_R_eff;
        d->max_overlap_i = i;
    }
}

/* A contact whose centres coincide has no normal: report it as unbounded overlap. */
static inline void note_singular(force_diag *d, long i)
{
    d->max_num = INFINITY;
    d->max_den = 1;
    d->max_overlap_i = i;
}

/* d's findings added to total's (order-free: sums, maxima, ties to the
 * lowest index). */
void force_diag_merge(force_diag *total, const force_diag *d);

#endif
