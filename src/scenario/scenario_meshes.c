/* The scenario's `meshes` list (docs/scenario.md, "Meshes that move"):
 *
 *   meshes = (
 *     { file = "drum.stl"; R_mesh = [0.0]; material = 1;
 *       motion = { type = "rotate"; axis = [0.0, 1.0, 0.0]; point = [0.0, 0.0, 0.0]; omega = 3.14; }; },
 *     { file = "lid.off";
 *       motion = { type = "servo"; axis = [0.0, 0.0, -1.0]; force = 100.0; max_speed = 0.05; }; }
 *   );
 *
 * Each motion is checked as a whole (boundary/motion.c) and its errors name
 * the entry's line. */
#include "scenario/scenario_meshes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boundary/motion.h"
#include "scenario/config_value.h"
#include "grains/mesh.h"

#define PI 3.14159265358979323846

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

static grains_status bad(const config_setting_t *s, const char *what, const char *expected, const char *path,
                         grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.%s: expected %s", what,
                            config_setting_name(s), expected);
}

static grains_status read_vec3(const config_setting_t *s, grains_vec3 *v, const char *what, const char *path,
                               grains_error *err)
{
    real r[3];
    if (config_numbers(s, r, 3) != 3)
        return bad(s, what, "three finite numbers, [x, y, z]", path, err);
    *v = (grains_vec3){r[0], r[1], r[2]};
    return GRAINS_OK;
}

static grains_status read_real(const config_setting_t *s, real *v, const char *what, const char *path,
                               grains_error *err)
{
    return config_number(s, v) ? GRAINS_OK : bad(s, what, "a finite number", path, err);
}

static grains_status read_string(const config_setting_t *s, char *dst, const char *what, const char *path,
                                 grains_error *err)
{
    if (config_setting_type(s) != CONFIG_TYPE_STRING || strlen(config_setting_get_string(s)) >= GRAINS_PATH_MAX)
        return bad(s, what, "a string (at most 1023 characters)", path, err);
    snprintf(dst, GRAINS_PATH_MAX, "%s", config_setting_get_string(s));
    return GRAINS_OK;
}

static grains_status read_type(const config_setting_t *s, grains_motion *m, const char *what, const char *path,
                               grains_error *err)
{
    int k = -1;
    if (config_setting_type(s) == CONFIG_TYPE_STRING)
        k = grains_choice_find(&grains_motions, config_setting_get_string(s));
    if (k >= 0) {
        m->type = (grains_motion_type)k;
        return GRAINS_OK;
    }
    char names[128];
    return bad(s, what, grains_choice_expected(&grains_motions, names, sizeof names), path, err);
}

/* Servo targets given as a stress over an area. */
typedef struct {
    real stress, area;
} servo_stress;

static grains_status read_motion_field(const config_setting_t *f, grains_scenario_mesh *e, servo_stress *ss,
                                       const char *what, const char *path, grains_error *err)
{
    const char *name = config_setting_name(f);
    grains_motion *m = &e->motion;
    real rpm;
    grains_status s;
    if (strcmp(name, "type") == 0)
        return read_type(f, m, what, path, err);
    if (strcmp(name, "velocity") == 0)
        return read_vec3(f, &m->velocity, what, path, err);
    if (strcmp(name, "axis") == 0 || strcmp(name, "direction") == 0)
        return read_vec3(f, &m->axis, what, path, err);
    if (strcmp(name, "point") == 0)
        return read_vec3(f, &m->point, what, path, err);
    if (strcmp(name, "rpm") == 0) {
        if ((s = read_real(f, &rpm, what, path, err)) == GRAINS_OK)
            m->omega = rpm * 2 * PI / 60;
        return s;
    }
    if (strcmp(name, "table") == 0)
        return read_string(f, e->table, what, path, err);
    const struct {
        const char *name;
        real *dst;
    } reals[] = {{"omega", &m->omega},         {"amplitude", &m->amplitude}, {"frequency", &m->frequency},
                 {"phase", &m->phase},         {"force", &m->force},         {"max_speed", &m->max_speed},
                 {"gain", &m->gain},           {"travel", &m->travel},       {"stress", &ss->stress},
                 {"area", &ss->area},          {"load_after", &m->load_after}, {"load_speed", &m->load_speed}};
    for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++)
        if (strcmp(name, reals[k].name) == 0)
            return read_real(f, reals[k].dst, what, path, err);
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f),
                            "%s: unknown field '%s' (known: type, velocity, axis, direction, point, omega, rpm, "
                            "amplitude, frequency, phase, table, force, stress, area, max_speed, gain, travel, load_after, "
                            "load_speed)",
                            what, name);
}

grains_status scenario_read_motion(const config_setting_t *g, grains_scenario_mesh *e, const char *here,
                                   const char *skip, const char *path, grains_error *err)
{
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g), "%s: expected a group { type = ...; ... }",
                                here);
    servo_stress ss = {NAN, NAN};
    grains_status s = GRAINS_OK;
    for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++) {
        const config_setting_t *f = config_setting_get_elem(g, (unsigned)b);
        if (!skip || strcmp(config_setting_name(f), skip) != 0)
            s = read_motion_field(f, e, &ss, here, path, err);
    }
    if (s != GRAINS_OK)
        return s;
    if (!isnan(ss.stress) || !isnan(ss.area)) {
        if (isnan(ss.stress) || isnan(ss.area) || !(ss.area > 0))
            return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(g),
                                    "%s: a servo's stress needs both stress and area (> 0)", here);
        e->motion.force = ss.stress * ss.area;
        if (!isfinite(e->motion.force))
            return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(g),
                                    "%s: stress x area = %g x %g is not a finite force", here, ss.stress, ss.area);
    }
    if (e->motion.type == GRAINS_MOTION_TABLE) {
        if (!e->table[0])
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                    "%s: a table motion needs table = \"file.csv\" (columns t,x,y,z,angle)", here);
        return GRAINS_OK; /* rows are checked when the table is read */
    }
    if ((s = motion_check(&e->motion, err)) != GRAINS_OK && err) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        grains_error_set(err, s, path, line_of(g), "%s: %s", here, why);
    }
    return s;
}

/* An entry's motion group. */
static grains_status read_motion_of(const config_setting_t *g, grains_scenario_mesh *e, const char *what,
                                    const char *path, grains_error *err)
{
    char here[48];
    snprintf(here, sizeof here, "%s.motion", what);
    return scenario_read_motion(g, e, here, NULL, path, err);
}

static grains_status read_entry_field(const config_setting_t *f, grains_scenario_mesh *e, const char *what,
                                      const char *path, grains_error *err)
{
    const char *name = config_setting_name(f);
    real r;
    if (strcmp(name, "file") == 0)
        return read_string(f, e->file, what, path, err);
    if (strcmp(name, "motion") == 0)
        return read_motion_of(f, e, what, path, err);
    if (strcmp(name, "R_mesh") == 0) {
        int n = config_numbers(f, e->R_mesh, GRAINS_MAX_MESH_RADII);
        if (n < 1)
            return bad(f, what, "1 to 64 finite numbers", path, err);
        for (int k = 0; k < n; k++)
            if (e->R_mesh[k] < 0)
                return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(f), "%s.R_mesh[%d] = %g: must be >= 0",
                                        what, k, e->R_mesh[k]);
        e->n_radii = n;
        return GRAINS_OK;
    }
    if (strcmp(name, "material") == 0) {
        if (!config_number(f, &r) || r != floor(r) || r < -1 || r >= GRAINS_MAX_MATERIALS)
            return bad(f, what, "a material number (-1 rigid)", path, err);
        e->material = (int)r;
        return GRAINS_OK;
    }
    if (strcmp(name, "periodic") == 0) {
        if (config_setting_type(f) != CONFIG_TYPE_BOOL)
            return bad(f, what, "true or false", path, err);
        e->periodic = config_setting_get_bool(f);
        return GRAINS_OK;
    }
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f),
                            "%s: unknown field '%s' (known: file, R_mesh, material, motion, periodic)", what, name);
}

grains_status scenario_read_meshes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                   grains_error *err)
{
    if (config_setting_type(list) != CONFIG_TYPE_LIST)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(list),
                                "meshes: expected a list of groups, ( { file = ...; }, { ... } )");
    int n = config_setting_length(list);
    if (n > GRAINS_SCENARIO_MESHES)
        return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(list), "meshes: at most %d entries, got %d",
                                GRAINS_SCENARIO_MESHES, n);
    grains_status s = GRAINS_OK;
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        char what[32];
        snprintf(what, sizeof what, "meshes[%d]", a);
        if (config_setting_type(g) != CONFIG_TYPE_GROUP)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g), "%s: expected a group { ... }", what);
        grains_scenario_mesh *e = &sc->meshes[a];
        memset(e, 0, sizeof *e);
        e->material = GRAINS_MESH_MATERIAL_DEFAULT;
        e->motion = grains_motion_fixed();
        e->line = line_of(g);
        for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++)
            s = read_entry_field(config_setting_get_elem(g, (unsigned)b), e, what, path, err);
        if (s == GRAINS_OK && !e->file[0])
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, e->line, "%s: file = \"...\" names the mesh file", what);
    }
    if (s == GRAINS_OK)
        sc->n_meshes = n;
    return s;
}
