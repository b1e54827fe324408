/* The scenario's `friction_test` group: the membrane paper's friction test
 * (Section 3.2) as a scenario. A sphere of `radius` starts at `position`,
 * is held at `velocity` across `axis` and free along it, and does not
 * rotate (grains_sim_guide); the run writes friction.csv.
 *
 *   friction_test = { radius = 0.002; position = [0.004, 0.008, 0.0051];
 *                     velocity = [0.05, 0.0, 0.0]; axis = [0.0, 0.0, 1.0]; material = 0; };
 *
 * Values are checked where they are read, the material and the velocity's
 * direction when the scenario is finished; errors name the group's line. */
#include "scenario/scenario_friction.h"

#include <math.h>
#include <string.h>

#include "scenario/config_value.h"

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

static grains_status bad(const config_setting_t *s, const char *expected, const char *path, grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "friction_test.%s: expected %s",
                            config_setting_name(s), expected);
}

static grains_status read_vec3(const config_setting_t *s, grains_vec3 *out, const char *path, grains_error *err)
{
    real v[3];
    if (config_numbers(s, v, 3) != 3)
        return bad(s, "[x, y, z] (finite numbers)", path, err);
    *out = (grains_vec3){v[0], v[1], v[2]};
    return GRAINS_OK;
}

static grains_status read_field(const config_setting_t *s, grains_scenario_friction *f, const char *path,
                                grains_error *err)
{
    const char *name = config_setting_name(s);
    real r;
    if (strcmp(name, "radius") == 0)
        return config_number(s, &f->radius) && f->radius > 0 ? GRAINS_OK : bad(s, "a number > 0", path, err);
    if (strcmp(name, "material") == 0) {
        if (!config_number(s, &r) || r != floor(r) || r < 0 || r >= GRAINS_MAX_MATERIALS)
            return bad(s, "a material index (an integer >= 0)", path, err);
        f->material = (int)r;
        return GRAINS_OK;
    }
    if (strcmp(name, "position") == 0)
        return read_vec3(s, &f->position, path, err);
    if (strcmp(name, "velocity") == 0)
        return read_vec3(s, &f->velocity, path, err);
    if (strcmp(name, "axis") == 0)
        return read_vec3(s, &f->axis, path, err);
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s),
                            "friction_test: unknown field '%s' (known: radius, position, velocity, axis, material)",
                            name);
}

grains_status scenario_read_friction(grains_scenario *sc, const config_setting_t *g, const char *path,
                                     grains_error *err)
{
    grains_scenario_friction *f = &sc->friction;
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "friction_test: expected a group { radius = ...; position = [...]; velocity = [...]; }");
    *f = (grains_scenario_friction){.on = 1, .axis = {0, 0, 1}, .line = line_of(g)};
    grains_status s = GRAINS_OK;
    for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++)
        s = read_field(config_setting_get_elem(g, (unsigned)b), f, path, err);
    if (s == GRAINS_OK && !(f->radius > 0))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, f->line, "friction_test: give the sphere's radius (> 0)");
    return s;
}

grains_status scenario_finish_friction(const grains_scenario *sc, grains_error *err)
{
    const grains_scenario_friction *f = &sc->friction;
    if (!f->on)
        return GRAINS_OK;
    if (f->material >= sc->params.n_materials)
        return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, f->line,
                                "friction_test.material = %d: materials are 0 to %d", f->material,
                                sc->params.n_materials - 1);
    grains_vec3 n = f->axis, v = f->velocity;
    real len = sqrt(n.x * n.x + n.y * n.y + n.z * n.z), along = (v.x * n.x + v.y * n.y + v.z * n.z) / len;
    real speed = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (!(len > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, f->line, "friction_test.axis: must not be zero");
    if (!(speed > 0) || fabs(along) > 1e-12 * speed)
        return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, f->line,
                                "friction_test.velocity: must be non-zero and across the axis (velocity . axis = 0)");
    return GRAINS_OK;
}
