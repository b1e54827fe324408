/* Range checks of the insertion regions and tag rules (grains_params_check's part). */
#ifndef GRAINS_PARAMS_SPAWN_H
#define GRAINS_PARAMS_SPAWN_H

#include "grains/params.h"

grains_status params_check_spawns(const grains_params *p, grains_error *err);

#endif
