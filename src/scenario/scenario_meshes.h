/* The scenario's `meshes` list: files, radii, materials and motions. */
#ifndef GRAINS_SCENARIO_SCENARIO_MESHES_H
#define GRAINS_SCENARIO_SCENARIO_MESHES_H

#include <libconfig.h>

#include "grains/scenario.h"

/* meshes = ( { file = "drum.stl"; R_mesh = [0.0]; material = 1; motion = { type = "rotate"; ... }; }, ... ) */
grains_status scenario_read_meshes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                   grains_error *err);

#endif
