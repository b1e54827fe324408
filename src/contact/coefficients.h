/* Spring and dashpot coefficients of one contact, as a normal law gives
 * them (contact/normal_hertz.h, normal_linear.h). */
#ifndef GRAINS_CONTACT_COEFFICIENTS_H
#define GRAINS_CONTACT_COEFFICIENTS_H

#include "grains/real.h"

typedef struct {
    real kn, ks, cn, cs;
} coefficients;

#endif
