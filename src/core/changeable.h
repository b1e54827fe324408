/* The parameters a run may change between steps (GRAINS_CHANGEABLE_PARAMS
 * in grains/params.h) by their place in that list: what stages, the
 * checkpoints' setting and a program's named values read and write. */
#ifndef GRAINS_CORE_CHANGEABLE_H
#define GRAINS_CORE_CHANGEABLE_H

#include "grains/params.h"

/* The field of the k-th (0 <= k < GRAINS_N_CHANGEABLE). */
real *changeable_field(grains_params *p, int k);
real changeable_get(const grains_params *p, int k);
/* The place of `name` in the list; -1 when it is none of them. */
int changeable_find(const char *name);
/* "mu_s, mu_r, ..., eta, " for a message ("... %sand g"). */
const char *changeable_names(void);

#endif
