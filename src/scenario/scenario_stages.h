/* The scenario's `stages` list (docs/scenario.md, "Stages"; src/run/stages.c runs them). */
#ifndef GRAINS_SCENARIO_SCENARIO_STAGES_H
#define GRAINS_SCENARIO_SCENARIO_STAGES_H

#include <libconfig.h>

#include "grains/scenario.h"

/* stages = ( { name = "..."; duration = T | until_time = T | until = "settled"; kinetic_energy = E;
 * max_time = T; check_every = N; motions = ( { mesh = k; type = ...; ... } ); open = [...];
 * close = [...]; g = [...]; }, ... ) */
grains_status scenario_read_stages(grains_scenario *sc, const config_setting_t *list, const char *path,
                                   grains_error *err);

/* What needs the rest of the scenario: the meshes and regions named exist, and every until_time
 * can be met (after the stage can begin, within the run). Errors at the stage's line. */
grains_status scenario_finish_stages(const grains_scenario *sc, grains_error *err);

#endif
