/* Numbers from libconfig settings, for every scenario reader. */
#ifndef GRAINS_IO_CONFIG_VALUE_H
#define GRAINS_IO_CONFIG_VALUE_H

#include <libconfig.h>

#include "grains/real.h"

/* A finite number (an integer or a float setting). */
int config_number(const config_setting_t *s, real *out);

/* An array or list of at most `max` finite numbers: their count, or -1. */
int config_numbers(const config_setting_t *s, real *out, int max);

#endif
