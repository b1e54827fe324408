/* The scenario's `materials` and `pairs` lists: groups of named fields.
 *
 *   materials = ( { rho = 7800.0; E = 2.0e11; nu = 0.29; },     # material 1
 *                 { fixed = true; fixed_velocity = [0.1, 0.0, 0.0]; } );  # 2: grains that stay put, or move so
 *   pairs = ( { between = [0, 1]; e_n = 0.6; mu_s = 0.2; },
 *             { between = [1, 1]; contact = false; } );  # material 1 passes through itself
 *
 * Material 0 is the run's own rho, E, nu; a field a material leaves out is
 * material 0's (filled by scenario_materials_finish, after every override).
 * A material may give the sub-models' coefficients (k_roll, ...: a pair
 * that gives none takes its two materials' geometric mean). A pair value
 * left out is -1: the run's value (grains_params_pair). */
#include "scenario/scenario_materials.h"

#include "core/coeffs.h"
#include "scenario/config_value.h"

#include <math.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t offset;
} field;

static const field material_fields[] = {
    {"rho", offsetof(grains_material, rho)},
    {"E", offsetof(grains_material, E)},
    {"nu", offsetof(grains_material, nu)},
};

static const field pair_fields[] = {
    {"e_n", offsetof(grains_pair_values, e_n)},
    {"mu_s", offsetof(grains_pair_values, mu_s)},
    {"mu_r", offsetof(grains_pair_values, mu_r)},
    {"mu_t", offsetof(grains_pair_values, mu_t)},
    {"mu_s_dyn", offsetof(grains_pair_values, mu_s_dyn)},
    {"mu_r_dyn", offsetof(grains_pair_values, mu_r_dyn)},
    {"mu_t_dyn", offsetof(grains_pair_values, mu_t_dyn)},
};

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

/* One numeric field of entry `what` (e.g. "materials[1]") into base + offset;
 * `also` names the entry's other, non-numeric fields for the message, and
 * `after` (", k_roll, ...", or "") the fields read elsewhere. */
static grains_status read_field(const config_setting_t *s, const field *fields, int n_fields, const char *also,
                                const char *after, void *base, const char *what, const char *path, grains_error *err)
{
    const char *name = config_setting_name(s);
    for (int f = 0; f < n_fields; f++)
        if (strcmp(name, fields[f].name) == 0) {
            if (!config_number(s, (real *)((char *)base + fields[f].offset)))
                return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.%s: expected a finite number",
                                        what, name);
            return GRAINS_OK;
        }
    char known[320];
    snprintf(known, sizeof known, "%s", also);
    for (int f = 0; f < n_fields; f++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", *known ? ", " : "", fields[f].name);
    snprintf(known + strlen(known), sizeof known - strlen(known), "%s", after);
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s: unknown field '%s' (known: %s)", what, name,
                            known);
}

/* A pair's field (restitution, friction) given to one material: it is
 * a pair's, said with the pairs entry that would take it. */
static grains_status pair_field_here(const config_setting_t *s, int material, const char *what, const char *path,
                                     grains_error *err)
{
    const char *name = config_setting_name(s);
    for (int f = 0; f < COUNT(pair_fields); f++)
        if (strcmp(name, pair_fields[f].name) == 0)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s),
                                    "%s: %s belongs to a pair of materials, not to one (a material has rho, E, nu "
                                    "and the sub-models' coefficients): pairs = ( { between = [0, %d]; %s = ...; } ) sets it between material 0 "
                                    "and this one (docs/model.md, Several materials)", what, name, material, name);
    return GRAINS_OK;
}

/* `fixed = true` (its grains stay put) or `fixed_velocity = [vx, vy, vz]`
 * (they move so) of material m: 1 when s is one of them, with *status. */
static int read_fixed(const config_setting_t *s, grains_material *m, const char *what, const char *path,
                      grains_error *err, grains_status *status)
{
    const char *name = config_setting_name(s);
    real v[3];
    *status = GRAINS_OK;
    if (strcmp(name, "fixed") == 0) {
        if (config_setting_type(s) != CONFIG_TYPE_BOOL)
            *status = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.fixed: expected true or false",
                                       what);
        else
            m->fixed = config_setting_get_bool(s);
        return 1;
    }
    if (strcmp(name, "fixed_velocity") != 0)
        return 0;
    if (config_numbers(s, v, 3) != 3)
        *status = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s),
                                   "%s.fixed_velocity: expected three finite numbers, [vx, vy, vz]", what);
    else
        m->fixed_velocity = (grains_vec3){v[0], v[1], v[2]};
    return 1;
}

/* A sub-model's coefficient for this pair or material (core/coeffs.h, into
 * coeff[] and its bit of *given), its own from now. */
static grains_status read_coeff(const config_setting_t *s, real *coeff, unsigned *given, const char *what,
                                const char *path, grains_error *err)
{
    int k = coeff_find(config_setting_name(s));
    if (!config_number(s, &coeff[k]))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.%s: expected a finite number", what,
                                config_setting_name(s));
    *given |= 1u << k;
    return GRAINS_OK;
}

/* ", k_roll, gamma_roll, ...": the sub-models' coefficients a pair or a material may set. */
#define COEFF_NAME(id, name, unit, dflt, least, doc) ", " name
static const char coeff_names[] = "" GRAINS_SUBMODEL_COEFFS(COEFF_NAME);

grains_status scenario_read_materials(grains_params *p, const config_setting_t *list, const char *path,
                                      grains_error *err)
{
    grains_status s = config_group_list(list, "materials", GRAINS_MAX_MATERIALS - 1, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        grains_material *m = &p->material[a + 1];
        *m = (grains_material){.rho = NAN, .E = NAN, .nu = NAN}; /* material 0's, at finish */
        p->material_coeff_given[a + 1] = 0;
        char what[32];
        snprintf(what, sizeof what, "materials[%d]", a + 1);
        for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++)
            s = pair_field_here(config_setting_get_elem(g, (unsigned)b), a + 1, what, path, err);
        for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++) {
            config_setting_t *f = config_setting_get_elem(g, (unsigned)b);
            if (read_fixed(f, m, what, path, err, &s))
                continue;
            s = coeff_find(config_setting_name(f)) >= 0
                    ? read_coeff(f, p->material_coeff[a + 1], &p->material_coeff_given[a + 1], what, path, err)
                    : read_field(f, material_fields, COUNT(material_fields), "fixed, fixed_velocity", coeff_names, m,
                                 what, path, err);
        }
    }
    if (s == GRAINS_OK)
        p->n_materials = 1 + n;
    return s;
}

/* `between = [a, b]`: two integers. */
static grains_status read_between(const config_setting_t *s, grains_pair_values *v, const char *what,
                                  const char *path, grains_error *err)
{
    real a, b;
    int type = config_setting_type(s);
    if ((type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST) || config_setting_length(s) != 2 ||
        !config_number(config_setting_get_elem(s, 0), &a) || !config_number(config_setting_get_elem(s, 1), &b) ||
        a != floor(a) || b != floor(b) || fabs(a) > 1e6 || fabs(b) > 1e6)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s),
                                "%s.between: expected two material numbers, [a, b]", what);
    v->a = (int)a;
    v->b = (int)b;
    return GRAINS_OK;
}

/* `contact = false`: the two materials pass through each other. */
static grains_status read_contact(const config_setting_t *s, grains_pair_values *v, const char *what,
                                  const char *path, grains_error *err)
{
    if (config_setting_type(s) != CONFIG_TYPE_BOOL)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.contact: expected true or false", what);
    v->no_contact = !config_setting_get_bool(s);
    return GRAINS_OK;
}

grains_status scenario_read_pairs(grains_params *p, const config_setting_t *list, const char *path,
                                  grains_error *err)
{
    grains_status s = config_group_list(list, "pairs", GRAINS_MAX_PAIRS, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        grains_pair_values *v = &p->pair[a];
        *v = (grains_pair_values){.a = -1, .b = -1, .e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1,
                                  .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1};
        char what[32];
        snprintf(what, sizeof what, "pairs[%d]", a);
        for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++) {
            config_setting_t *f = config_setting_get_elem(g, (unsigned)b);
            if (strcmp(config_setting_name(f), "between") == 0)
                s = read_between(f, v, what, path, err);
            else if (strcmp(config_setting_name(f), "contact") == 0)
                s = read_contact(f, v, what, path, err);
            else if (coeff_find(config_setting_name(f)) >= 0)
                s = read_coeff(f, v->coeff, &v->coeff_given, what, path, err);
            else
                s = read_field(f, pair_fields, COUNT(pair_fields), "between, contact", coeff_names, v, what, path,
                               err);
        }
        if (s == GRAINS_OK && v->a < 0 && v->b < 0)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                 "%s: 'between = [a, b];' names the two materials", what);
    }
    if (s == GRAINS_OK)
        p->n_pairs = n;
    return s;
}

void scenario_materials_finish(grains_params *p)
{
    for (int k = 1; k < p->n_materials; k++) {
        grains_material *m = &p->material[k];
        if (isnan(m->rho))
            m->rho = p->rho;
        if (isnan(m->E))
            m->E = p->E;
        if (isnan(m->nu))
            m->nu = p->nu;
    }
}
