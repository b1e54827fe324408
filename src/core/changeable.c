/* The list of the parameters a run may change, by place and by name. */
#include <string.h>

#include "core/changeable.h"

#define CHANGEABLE_NAME(name) #name,
static const char *const names[GRAINS_N_CHANGEABLE] = {GRAINS_CHANGEABLE_PARAMS(CHANGEABLE_NAME)};

const char *grains_changeable_name(int k) { return k >= 0 && k < GRAINS_N_CHANGEABLE ? names[k] : NULL; }

real *changeable_field(grains_params *p, int k)
{
#define CHANGEABLE_FIELD(name) &p->name,
    real *field[GRAINS_N_CHANGEABLE] = {GRAINS_CHANGEABLE_PARAMS(CHANGEABLE_FIELD)};
    return field[k];
}

real changeable_get(const grains_params *p, int k) { return *changeable_field((grains_params *)p, k); } /* (read) */

int changeable_find(const char *name)
{
    for (int k = 0; name && k < GRAINS_N_CHANGEABLE; k++)
        if (strcmp(names[k], name) == 0)
            return k;
    return -1;
}

#define CHANGEABLE_LISTED(name) #name ", "
const char *changeable_names(void) { return GRAINS_CHANGEABLE_PARAMS(CHANGEABLE_LISTED); }
