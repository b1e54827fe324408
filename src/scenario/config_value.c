/* Numbers from libconfig settings. */
#include "scenario/config_value.h"

#include <math.h>

int config_number(const config_setting_t *s, real *out)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: *out = (real)config_setting_get_int64(s); return 1;
    case CONFIG_TYPE_FLOAT: *out = config_setting_get_float(s); return isfinite(*out);
    default: return 0;
    }
}

int config_numbers(const config_setting_t *s, real *out, int max)
{
    int type = config_setting_type(s);
    if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST)
        return -1;
    int n = config_setting_length(s);
    if (n > max)
        return -1;
    for (int a = 0; a < n; a++)
        if (!config_number(config_setting_get_elem(s, (unsigned)a), &out[a]))
            return -1;
    return n;
}

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

grains_status config_group_list(const config_setting_t *list, const char *key, int max, const char *path,
                                grains_error *err)
{
    if (config_setting_type(list) != CONFIG_TYPE_LIST)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(list),
                                "%s: expected a list of groups, ( { ... }, { ... } )", key);
    int n = config_setting_length(list);
    if (n > max)
        return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(list), "%s: at most %d entries, got %d", key,
                                max, n);
    for (int a = 0; a < n; a++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        if (config_setting_type(g) != CONFIG_TYPE_GROUP)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g), "%s[%d]: expected a group { ... }", key,
                                    a);
    }
    return GRAINS_OK;
}
