/* The scenario's lists of materials and of pair values (libconfig groups). */
#ifndef GRAINS_SCENARIO_SCENARIO_MATERIALS_H
#define GRAINS_SCENARIO_SCENARIO_MATERIALS_H

#include <libconfig.h>

#include "grains/params.h"

/* materials = ( { rho = ...; E = ...; nu = ...; }, ... ): materials 1, 2, ... */
grains_status scenario_read_materials(grains_params *p, const config_setting_t *list, const char *path,
                                      grains_error *err);

/* pairs = ( { between = [a, b]; e_n = ...; mu_s = ...; ... }, ... ) */
grains_status scenario_read_pairs(grains_params *p, const config_setting_t *list, const char *path,
                                  grains_error *err);

/* A material's field left out is material 0's (rho, E, nu as finally set). */
void scenario_materials_finish(grains_params *p);

#endif
