/* The scenario's `membranes` list and `triaxial` group (docs/scenario.md,
 * "Membranes" and "Triaxial test"):
 *
 *   membranes = (
 *     { shape = "cylinder"; radius = 0.025; height = 0.1; spacing = 0.004; origin = [0.0, 0.0, 0.0];
 *       pin_bottom = 0; pin_top = 1;
 *       E = 1.25e6; thickness = 3e-4; density = 1000.0; gamma = 0.15; k_el = 1e-3; k_diss = 1e-4;
 *       pressure = 1e5; pressure_ramp = 0.01; material = 1; }
 *   );
 *   triaxial = { membrane = 0; bottom = 0; top = 1; };
 *
 * Values are checked where they are read, pins against `meshes` when the
 * scenario is finished; errors name the entry's line. */
#include "scenario/scenario_membranes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario/config_value.h"

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

static grains_status bad(const config_setting_t *s, const char *what, const char *expected, const char *path,
                         grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.%s: expected %s", what,
                            config_setting_name(s), expected);
}

/* An index setting: an integer in [lo, hi). */
static grains_status read_index(const config_setting_t *s, int lo, int hi, int *out, const char *what,
                                const char *path, grains_error *err)
{
    real r;
    if (!config_number(s, &r) || r != floor(r) || r < lo || r >= hi) {
        char expected[64];
        snprintf(expected, sizeof expected, "an integer from %d to %d", lo, hi - 1);
        return bad(s, what, expected, path, err);
    }
    *out = (int)r;
    return GRAINS_OK;
}

static grains_status read_shape(const config_setting_t *s, grains_scenario_membrane *e, const char *what,
                                const char *path, grains_error *err)
{
    const char *v = config_setting_type(s) == CONFIG_TYPE_STRING ? config_setting_get_string(s) : "";
    if (strcmp(v, "cylinder") == 0)
        e->shape = GRAINS_SHAPE_CYLINDER;
    else if (strcmp(v, "sheet") == 0)
        e->shape = GRAINS_SHAPE_SHEET;
    else
        return bad(s, what, "\"cylinder\" or \"sheet\" (or file = \"...\" instead)", path, err);
    return GRAINS_OK;
}

static grains_status read_control(const config_setting_t *s, grains_membrane_material *m, const char *what,
                                  const char *path, grains_error *err)
{
    const char *v = config_setting_type(s) == CONFIG_TYPE_STRING ? config_setting_get_string(s) : "";
    if (strcmp(v, "applied") == 0)
        m->pressure_control = GRAINS_PRESSURE_APPLIED;
    else if (strcmp(v, "felt") == 0)
        m->pressure_control = GRAINS_PRESSURE_FELT;
    else
        return bad(s, what, "\"applied\" (the pressure on the membrane) or \"felt\" (the stress the grains feel)",
                   path, err);
    return GRAINS_OK;
}

static grains_status read_file(const config_setting_t *s, grains_scenario_membrane *e, const char *what,
                               const char *path, grains_error *err)
{
    if (config_setting_type(s) != CONFIG_TYPE_STRING || strlen(config_setting_get_string(s)) >= GRAINS_PATH_MAX)
        return bad(s, what, "a string (at most 1023 characters)", path, err);
    snprintf(e->file, GRAINS_PATH_MAX, "%s", config_setting_get_string(s));
    e->shape = GRAINS_SHAPE_FILE;
    return GRAINS_OK;
}

/* The numbers of an entry: name, where, how many, whether > 0 (else >= 0). */
typedef struct {
    const char *name;
    real *dst;
    int n;
    int positive;
} number_field;

static grains_status read_numbers(const config_setting_t *s, const number_field *f, const char *what,
                                  const char *path, grains_error *err)
{
    int n = f->n == 1 ? (config_number(s, f->dst) ? 1 : -1) : config_numbers(s, f->dst, f->n);
    if (n != f->n)
        return bad(s, what, f->n == 1 ? "a finite number" : f->n == 2 ? "[a, b]" : "[x, y, z]", path, err);
    for (int k = 0; k < n && f->n == 1; k++)
        if (f->positive >= 0 && !(f->positive ? f->dst[k] > 0 : f->dst[k] >= 0))
            return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(s), "%s.%s = %g: must be %s", what,
                                    f->name, f->dst[k], f->positive ? "> 0" : ">= 0");
    return GRAINS_OK;
}

static grains_status read_field(const config_setting_t *s, grains_scenario_membrane *e, const char *what,
                                const char *path, grains_error *err)
{
    const char *name = config_setting_name(s);
    grains_membrane_material *m = &e->material;
    real origin[3] = {0, 0, 0};
    const number_field numbers[] = {
        {"radius", &e->radius, 1, 1},       {"height", &e->height, 1, 1},
        {"spacing", &e->spacing, 1, 1},     {"size", e->size, 2, -1},
        {"E", &m->E, 1, 1},                 {"thickness", &m->d, 1, 1},
        {"density", &m->rho, 1, 1},         {"gamma", &m->gamma, 1, 0},
        {"k_el", &m->k_el, 1, 0},           {"k_diss", &m->k_diss, 1, 0},
        {"pressure", &m->pressure, 1, -1},  {"pressure_ramp", &m->pressure_ramp, 1, 0},
        {"pressure_after", &m->pressure_after, 1, 0}, {"control_time", &m->control_time, 1, 0},
        {"vertex_radius", &m->vertex_radius, 1, 0}};
    if (strcmp(name, "shape") == 0)
        return read_shape(s, e, what, path, err);
    if (strcmp(name, "file") == 0)
        return read_file(s, e, what, path, err);
    if (strcmp(name, "pressure_control") == 0)
        return read_control(s, m, what, path, err);
    if (strcmp(name, "origin") == 0) {
        number_field f = {"origin", origin, 3, -1};
        grains_status st = read_numbers(s, &f, what, path, err);
        e->origin = (grains_vec3){origin[0], origin[1], origin[2]};
        return st;
    }
    if (strcmp(name, "pin_bottom") == 0)
        return read_index(s, -1, GRAINS_SCENARIO_MESHES, &e->pin_bottom, what, path, err);
    if (strcmp(name, "pin_top") == 0)
        return read_index(s, -1, GRAINS_SCENARIO_MESHES, &e->pin_top, what, path, err);
    if (strcmp(name, "pin_edges") == 0)
        return read_index(s, -1, GRAINS_SCENARIO_MESHES, &e->pin_edges, what, path, err);
    if (strcmp(name, "pin_all") == 0)
        return read_index(s, -1, GRAINS_SCENARIO_MESHES, &e->pin_all, what, path, err);
    if (strcmp(name, "material") == 0)
        return read_index(s, 0, GRAINS_MAX_MATERIALS, &m->material, what, path, err);
    for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++)
        if (strcmp(name, numbers[k].name) == 0)
            return read_numbers(s, &numbers[k], what, path, err);
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s),
                            "%s: unknown field '%s' (known: shape, file, radius, height, size, spacing, origin, "
                            "pin_bottom, pin_top, pin_edges, pin_all, E, thickness, density, gamma, k_el, k_diss, pressure, "
                            "pressure_after, pressure_ramp, pressure_control, control_time, vertex_radius, material)",
                            what, name);
}

/* A membrane's defaults: the paper's latex membrane (Table 2), free. */
static void membrane_default(grains_scenario_membrane *e, int line)
{
    memset(e, 0, sizeof *e);
    e->shape = -1;
    e->pin_bottom = e->pin_top = e->pin_edges = e->pin_all = -1;
    e->material = (grains_membrane_material){.E = 1.25e6, .d = 3e-4, .rho = 1000};
    e->line = line;
}

/* What each shape needs, once the entry is read; a cylinder's servo
 * measures the grains' push about the cylinder's axis, z through origin. */
static grains_status check_entry(grains_scenario_membrane *e, const char *what, const char *path,
                                 grains_error *err)
{
    if ((int)e->shape < 0)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, e->line,
                                "%s: give shape = \"cylinder\" or \"sheet\", or file = \"...\"", what);
    if (e->shape == GRAINS_SHAPE_CYLINDER && !(e->radius > 0 && e->height > 0 && e->spacing > 0))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, e->line,
                                "%s: a cylinder needs radius, height and spacing (> 0)", what);
    if (e->shape == GRAINS_SHAPE_SHEET && !(e->size[0] > 0 && e->size[1] > 0 && e->spacing > 0))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, e->line,
                                "%s: a sheet needs size = [Lx, Ly] and spacing (> 0)", what);
    if ((e->pin_bottom >= 0 || e->pin_top >= 0) && e->shape != GRAINS_SHAPE_CYLINDER)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, e->line, "%s: pin_bottom and pin_top are a cylinder's",
                                what);
    if (e->pin_edges >= 0 && e->shape != GRAINS_SHAPE_SHEET)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, e->line, "%s: pin_edges is a sheet's", what);
    grains_membrane_material *m = &e->material;
    if (m->pressure_control == GRAINS_PRESSURE_FELT && e->shape != GRAINS_SHAPE_CYLINDER)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, e->line,
                                "%s: pressure_control = \"felt\" is a cylinder's (the stress is measured about its "
                                "axis)", what);
    if (m->pressure_control == GRAINS_PRESSURE_FELT && !(m->pressure > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, path, e->line,
                                "%s: pressure = %g: pressure_control = \"felt\" holds a confining pressure > 0", what,
                                m->pressure);
    m->axis_point = e->origin;
    m->axis = (grains_vec3){0, 0, 1};
    return GRAINS_OK;
}

grains_status scenario_read_membranes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                      grains_error *err)
{
    if (config_setting_type(list) != CONFIG_TYPE_LIST)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(list),
                                "membranes: expected a list of groups, ( { shape = ...; }, { ... } )");
    int n = config_setting_length(list);
    if (n > GRAINS_SCENARIO_MEMBRANES)
        return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(list), "membranes: at most %d entries, got %d",
                                GRAINS_SCENARIO_MEMBRANES, n);
    grains_status s = GRAINS_OK;
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        char what[32];
        snprintf(what, sizeof what, "membranes[%d]", a);
        if (config_setting_type(g) != CONFIG_TYPE_GROUP)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g), "%s: expected a group { ... }", what);
        grains_scenario_membrane *e = &sc->membranes[a];
        membrane_default(e, line_of(g));
        for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++)
            s = read_field(config_setting_get_elem(g, (unsigned)b), e, what, path, err);
        if (s == GRAINS_OK)
            s = check_entry(e, what, path, err);
    }
    if (s == GRAINS_OK)
        sc->n_membranes = n;
    return s;
}

grains_status scenario_read_triaxial(grains_scenario *sc, const config_setting_t *g, const char *path,
                                     grains_error *err)
{
    grains_scenario_triaxial *t = &sc->triaxial;
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "triaxial: expected a group { membrane = 0; bottom = 0; top = 1; }");
    *t = (grains_scenario_triaxial){1, 0, -1, -1, line_of(g)};
    grains_status s = GRAINS_OK;
    for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++) {
        const config_setting_t *f = config_setting_get_elem(g, (unsigned)b);
        const char *name = config_setting_name(f);
        if (strcmp(name, "membrane") == 0)
            s = read_index(f, 0, GRAINS_SCENARIO_MEMBRANES, &t->membrane, "triaxial", path, err);
        else if (strcmp(name, "bottom") == 0)
            s = read_index(f, 0, GRAINS_SCENARIO_MESHES, &t->bottom, "triaxial", path, err);
        else if (strcmp(name, "top") == 0)
            s = read_index(f, 0, GRAINS_SCENARIO_MESHES, &t->top, "triaxial", path, err);
        else
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f),
                                 "triaxial: unknown field '%s' (known: membrane, bottom, top)", name);
    }
    if (s == GRAINS_OK && (t->bottom < 0 || t->top < 0 || t->bottom == t->top))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, t->line,
                             "triaxial: bottom and top name the two platens (two different meshes[] entries)");
    return s;
}

/* A mesh index a membrane or the triaxial group names exists. */
static grains_status mesh_exists(const grains_scenario *sc, int k, const char *what, int line, grains_error *err)
{
    if (k < sc->n_meshes)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, line,
                            "%s = %d: no such mesh (meshes lists %d); a pinned vertex needs a mesh to move with", what,
                            k, sc->n_meshes);
}

grains_status scenario_finish_membranes(const grains_scenario *sc, grains_error *err)
{
    grains_status s = GRAINS_OK;
    for (int k = 0; s == GRAINS_OK && k < sc->n_membranes; k++) {
        const grains_scenario_membrane *e = &sc->membranes[k];
        const int pins[] = {e->pin_bottom, e->pin_top, e->pin_edges, e->pin_all};
        const char *names[] = {"pin_bottom", "pin_top", "pin_edges", "pin_all"};
        for (int p = 0; s == GRAINS_OK && p < 4; p++)
            s = mesh_exists(sc, pins[p], names[p], e->line, err);
        if (s == GRAINS_OK && e->material.material >= sc->params.n_materials)
            s = grains_error_set(err, GRAINS_ERR_RANGE, sc->source, e->line,
                                 "membranes[%d].material = %d: materials are 0 to %d", k, e->material.material,
                                 sc->params.n_materials - 1);
    }
    const grains_scenario_triaxial *t = &sc->triaxial;
    if (s != GRAINS_OK || !t->on)
        return s;
    if (t->membrane >= sc->n_membranes || sc->membranes[t->membrane].shape != GRAINS_SHAPE_CYLINDER)
        return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, t->line,
                                "triaxial.membrane = %d: not a cylinder of membranes (%d listed)", t->membrane,
                                sc->n_membranes);
    if ((s = mesh_exists(sc, t->bottom, "triaxial.bottom", t->line, err)) != GRAINS_OK)
        return s;
    return mesh_exists(sc, t->top, "triaxial.top", t->line, err);
}
