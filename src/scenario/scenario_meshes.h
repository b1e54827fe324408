/* The scenario's `meshes` list: files, radii, materials and motions. */
#ifndef GRAINS_SCENARIO_SCENARIO_MESHES_H
#define GRAINS_SCENARIO_SCENARIO_MESHES_H

#include <libconfig.h>

#include "grains/scenario.h"

/* meshes = ( { file = "drum.stl"; R_mesh = [0.0]; material = 1; motion = { type = "rotate"; ... }; }, ... ) */
grains_status scenario_read_meshes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                   grains_error *err);

/* A motion group (`here` names it in errors; a field named `skip`, if any, is not the motion's)
 * into e->motion (a table's file into e->table), checked as a whole at its line. */
grains_status scenario_read_motion(const config_setting_t *g, grains_scenario_mesh *e, const char *here,
                                   const char *skip, const char *path, grains_error *err);

#endif
