/* The scenario's `spawns` (insertion regions), `tag_regions` and `sinks` lists
 * (docs/scenario.md, "Insertion", "Tags" and "Outlets"). */
#ifndef GRAINS_SCENARIO_SCENARIO_SPAWNS_H
#define GRAINS_SCENARIO_SCENARIO_SPAWNS_H

#include <libconfig.h>

#include "grains/params.h"
#include "grains/scenario.h"

grains_status scenario_read_spawns(grains_params *p, const config_setting_t *list, const char *path,
                                   grains_error *err);
grains_status scenario_read_tag_rules(grains_params *p, const config_setting_t *list, const char *path,
                                      grains_error *err);
/* `probes`: planes { name; point; normal; radius; sizes; } and boxes
 * { name; min; max; sizes; }, names unique (sc->probe_name). */
grains_status scenario_read_probes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                   grains_error *err);
grains_status scenario_read_sinks(grains_params *p, const config_setting_t *list, const char *path,
                                  grains_error *err);

/* A field a region leaves out is the run's own (s_min, N_spawn, v0, R_min,
 * ...), taken after every override. */
void scenario_spawns_finish(grains_params *p);

#endif
