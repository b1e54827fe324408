/* Numbers from libconfig settings, for every scenario reader. */
#ifndef GRAINS_SCENARIO_CONFIG_VALUE_H
#define GRAINS_SCENARIO_CONFIG_VALUE_H

#include <libconfig.h>

#include "grains/error.h"
#include "grains/real.h"

/* A finite number (an integer or a float setting). */
int config_number(const config_setting_t *s, real *out);

/* An array or list of at most `max` finite numbers: their count, or -1. */
int config_numbers(const config_setting_t *s, real *out, int max);

/* `list` (the value of scenario key `key`) is a list of at most `max`
 * groups, ( { ... }, { ... } ); else a PARSE or RANGE error at its line. */
grains_status config_group_list(const config_setting_t *list, const char *key, int max, const char *path,
                                grains_error *err);

#endif
