/* The rolling sub-models (GRAINS_ROLLING_LIST in grains/choices.h), one
 * header each: the TinyDEM spring (contact/friction_spring.h), type C
 * (contact/rolling_type_c.h), sds (contact/rolling_sds.h). Each header
 * says what its spring is to the loops outside the kernel
 * (ROLLING_<ID>_ODD, ROLLING_<ID>_IN_LANES), so that the force loop, the
 * rebuild and the decomposition ask the run's traits and never name a
 * model; the kernel (contact/hertz_mindlin_kernel.h) takes each model's
 * spring, dashpot and rolling velocity from it (hm_rolling_spring). A new
 * model: its header, its row in choices.h, its coefficients' line in
 * core/coeffs.h, here its include, and its case in hm_rolling_spring. */
#ifndef GRAINS_CONTACT_ROLLING_H
#define GRAINS_CONTACT_ROLLING_H

#include "contact/friction_spring.h"
#include "contact/rolling_sds.h"
#include "contact/rolling_type_c.h"

/* A model's coefficients are per pair of materials, the pair's law's
 * (hm_law.coeff, core/coeffs.h). */

/* What a model's spring is to the loops outside the kernel. */
typedef struct {
    int odd;      /* its three reals change sign when the pair's particles exchange places (a relative
                   * rotation); 0: they do not (a displacement along r (w_i - w_j) x n) */
    int in_lanes; /* the vector kernel (contact/lanes.c) composes it */
} rolling_traits;

rolling_traits rolling_traits_of(grains_rolling_model model);

#endif
