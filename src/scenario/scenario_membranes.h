/* The scenario's `membranes` list and `triaxial` group. */
#ifndef GRAINS_SCENARIO_SCENARIO_MEMBRANES_H
#define GRAINS_SCENARIO_SCENARIO_MEMBRANES_H

#include <libconfig.h>

#include "grains/scenario.h"

/* membranes = ( { shape = "cylinder"; radius = ...; height = ...; spacing = ...; ... }, ... ) */
grains_status scenario_read_membranes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                      grains_error *err);

/* triaxial = { membrane = 0; bottom = 0; top = 1; } */
grains_status scenario_read_triaxial(grains_scenario *sc, const config_setting_t *group, const char *path,
                                     grains_error *err);

/* Pins and platens name meshes that exist, materials the run has. */
grains_status scenario_finish_membranes(const grains_scenario *sc, grains_error *err);

#endif
