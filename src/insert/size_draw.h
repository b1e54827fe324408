/* Radii drawn from an insertion region's size distribution. */
#ifndef GRAINS_INSERT_SIZE_DRAW_H
#define GRAINS_INSERT_SIZE_DRAW_H

#include "grains/params.h"
#include "util/rng.h"

/* One radius: uniform by R_lo + u (R_hi - R_lo) with one number (TinyDEM's
 * rule, the same numbers as before regions existed); discrete by the
 * shares of number, or of mass turned into number (share / R^3); lognormal
 * by Box-Muller, drawn again outside [R_lo, R_hi]. */
real size_draw(const grains_size_distribution *d, grains_rng *rng);

/* The probability that a draw is radius d->R[j] (discrete laws). */
double size_draw_share(const grains_size_distribution *d, int j);

#endif
