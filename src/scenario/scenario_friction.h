/* The scenario's `friction_test` group (docs/scenario.md, "Friction test"). */
#ifndef GRAINS_SCENARIO_SCENARIO_FRICTION_H
#define GRAINS_SCENARIO_SCENARIO_FRICTION_H

#include <libconfig.h>

#include "grains/scenario.h"

/* friction_test = { radius = 0.002; position = [...]; velocity = [0.05, 0.0, 0.0]; axis = [0.0, 0.0, 1.0]; } */
grains_status scenario_read_friction(grains_scenario *sc, const config_setting_t *group, const char *path,
                                     grains_error *err);

/* Its material exists, its velocity is across its axis. */
grains_status scenario_finish_friction(const grains_scenario *sc, grains_error *err);

#endif
