/* The scenario's `stages` list (docs/scenario.md, "Stages"):
 *
 *   stages = (
 *     { name = "fill"; duration = 0.3; close = [1]; },
 *     { name = "settle"; until = "settled"; kinetic_energy = 1e-4; max_time = 1.0; },
 *     { name = "open"; until_time = 1.4; open = [1];
 *       motions = ( { mesh = 1; type = "linear"; velocity = [0.5, 0.0, 0.0]; } );
 *       g = [0.0, 0.0, -9.81]; }
 *   );
 *
 * Each stage ends one way (a duration, a time, or settled below a kinetic
 * energy within max_time) and changes, as it begins, meshes' motions,
 * which insertion regions add grains, and gravity. */
#include "scenario/scenario_stages.h"

#include <math.h>
#include <string.h>

#include "core/changeable.h"
#include "scenario/config_value.h"
#include "scenario/scenario_meshes.h"

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

static grains_status bad(const config_setting_t *s, const char *what, const char *expected, const char *path,
                         grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.%s: expected %s", what,
                            config_setting_name(s), expected);
}

/* A list of indices below `most` (insertion regions, meshes) as a bit mask. */
static int indices_of(const config_setting_t *s, int most, uint32_t *mask)
{
    real r[32];
    int n = config_setting_type(s) == CONFIG_TYPE_ARRAY || config_setting_type(s) == CONFIG_TYPE_LIST
                ? config_numbers(s, r, 32) : -1;
    if (n < 0 || n != config_setting_length(s))
        return 0;
    for (int k = 0; k < n; k++) {
        if (r[k] != floor(r[k]) || r[k] < 0 || r[k] >= most)
            return 0;
        *mask |= 1u << (int)r[k];
    }
    return 1;
}

/* motions = ( { mesh = k; type = ...; ... }, ... ): the mesh's index, then its motion's fields. */
static grains_status read_motions(const config_setting_t *list, grains_scenario_stage *st, const char *what,
                                  const char *path, grains_error *err)
{
    grains_status s = config_group_list(list, "motions", GRAINS_MAX_STAGE_MOTIONS, path, err);
    for (int k = 0; s == GRAINS_OK && k < config_setting_length(list); k++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)k);
        const config_setting_t *mesh = config_setting_get_member(g, "mesh");
        char here[64];
        snprintf(here, sizeof here, "%s.motions[%d]", what, k);
        real m;
        if (!mesh || !config_number(mesh, &m) || m != floor(m) || m < 0 || m > GRAINS_SCENARIO_MESHES)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                    "%s: expected mesh = the run's index of a mesh (0 to %d, as walls.csv numbers "
                                    "them)", here, GRAINS_SCENARIO_MESHES);
        grains_scenario_mesh e = {.motion = grains_motion_fixed()};
        s = scenario_read_motion(g, &e, here, "mesh", path, err); /* (the rest is a motion group) */
        if (s == GRAINS_OK && e.motion.type == GRAINS_MOTION_TABLE)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                 "%s: a stage's motion cannot be a table (give the table to the mesh in meshes)",
                                 here);
        st->motion_mesh[k] = (int)m;
        st->motion[k] = e.motion;
        st->n_motions = k + 1;
    }
    return s;
}

/* set = { mu_s = 0.2; ... }: the parameters a stage changes (GRAINS_CHANGEABLE_PARAMS). */
static grains_status read_set(const config_setting_t *g, grains_scenario_stage *st, const char *what,
                              const char *path, grains_error *err)
{
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return bad(g, what, "a group { mu_s = ...; e_n = ...; }", path, err);
    for (int b = 0; b < config_setting_length(g); b++) {
        const config_setting_t *f = config_setting_get_elem(g, (unsigned)b);
        int k = changeable_find(config_setting_name(f));
        char here[48];
        snprintf(here, sizeof here, "%s.set", what);
        if (k < 0)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f),
                                    "%s: '%s' cannot change mid-run (a stage may set %sand g beside set)", here,
                                    config_setting_name(f), changeable_names());
        if (!config_number(f, &st->set[k]))
            return bad(f, here, "a finite number", path, err);
    }
    return GRAINS_OK;
}

/* One field of stage `what`. */
static grains_status read_field(const config_setting_t *f, grains_scenario_stage *st, const char *what, const char *path,
                                grains_error *err)
{
    const char *name = config_setting_name(f);
    if (strcmp(name, "name") == 0) {
        const char *v = config_setting_type(f) == CONFIG_TYPE_STRING ? config_setting_get_string(f) : NULL;
        if (!v || strlen(v) >= sizeof st->name)
            return bad(f, what, "a string of at most 31 characters", path, err);
        snprintf(st->name, sizeof st->name, "%s", v);
        return GRAINS_OK;
    }
    if (strcmp(name, "until") == 0) {
        const char *v = config_setting_type(f) == CONFIG_TYPE_STRING ? config_setting_get_string(f) : NULL;
        if (!v || strcmp(v, "settled") != 0)
            return bad(f, what, "\"settled\" (or give duration or until_time)", path, err);
        st->settled = 1;
        return GRAINS_OK;
    }
    real *x = strcmp(name, "duration") == 0 ? &st->duration : strcmp(name, "until_time") == 0 ? &st->until_time
            : strcmp(name, "kinetic_energy") == 0 ? &st->kinetic_energy : strcmp(name, "max_time") == 0
            ? &st->max_time : NULL;
    if (x)
        return config_number(f, x) ? GRAINS_OK : bad(f, what, "a finite number", path, err);
    if (strcmp(name, "check_every") == 0) {
        real r;
        if (!config_number(f, &r) || r != floor(r) || r < 1 || r > 1e9)
            return bad(f, what, "a number of steps, 1 to 1e9", path, err);
        st->check_every = (long)r;
        return GRAINS_OK;
    }
    if (strcmp(name, "open") == 0 || strcmp(name, "close") == 0)
        return indices_of(f, GRAINS_MAX_SPAWNS, name[0] == 'o' ? &st->open : &st->close)
                   ? GRAINS_OK : bad(f, what, "a list of insertion regions' indices, 0 to 7", path, err);
    if (strcmp(name, "remove_meshes") == 0)
        return indices_of(f, GRAINS_SCENARIO_MESHES + 1, &st->remove)
                   ? GRAINS_OK : bad(f, what, "a list of the run's mesh indices (as walls.csv numbers them)", path,
                                     err);
    if (strcmp(name, "g") == 0) {
        real r[3];
        if (config_numbers(f, r, 3) != 3)
            return bad(f, what, "three finite numbers", path, err);
        st->g = (grains_vec3){r[0], r[1], r[2]};
        st->set_g = 1;
        return GRAINS_OK;
    }
    if (strcmp(name, "motions") == 0)
        return read_motions(f, st, what, path, err);
    if (strcmp(name, "set") == 0)
        return read_set(f, st, what, path, err);
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f),
                            "%s: unknown field '%s' (known: name, duration, until_time, until, kinetic_energy, "
                            "max_time, check_every, motions, remove_meshes, open, close, g, set)", what, name);
}

/* Stage k's end: one way, with what it needs, and nothing another way reads. */
static grains_status check_end(const config_setting_t *g, const grains_scenario_stage *st, const char *what,
                               const char *path, grains_error *err)
{
    int ways = (st->duration != 0) + (st->until_time != -1) + st->settled;
    if (ways != 1)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "%s: give one end: duration = T, until_time = T, or until = \"settled\" (with "
                                "kinetic_energy and max_time)", what);
    if (st->duration != 0 && !(st->duration > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(g), "%s: duration = %g: must be > 0", what,
                                st->duration);
    if (st->settled != (st->kinetic_energy != 0) || st->settled != (st->max_time != 0))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "%s: until = \"settled\" goes with kinetic_energy = E and max_time = T, and they "
                                "with it", what);
    if (st->settled && (!(st->kinetic_energy > 0) || !(st->max_time > 0)))
        return grains_error_set(err, GRAINS_ERR_RANGE, path, line_of(g),
                                "%s: kinetic_energy = %g and max_time = %g: both must be > 0", what,
                                st->kinetic_energy, st->max_time);
    return GRAINS_OK;
}

grains_status scenario_read_stages(grains_scenario *sc, const config_setting_t *list, const char *path, grains_error *err)
{
    grains_status s = config_group_list(list, "stages", GRAINS_MAX_STAGES, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    if (s == GRAINS_OK && n == 0)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(list), "stages: an empty list; leave it out");
    for (int k = 0; s == GRAINS_OK && k < n; k++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)k);
        grains_scenario_stage *st = &sc->stages[k];
        *st = (grains_scenario_stage){.until_time = -1, .check_every = 100, .line = line_of(g)};
        for (int p = 0; p < GRAINS_N_CHANGEABLE; p++)
            st->set[p] = NAN;
        char what[32];
        snprintf(what, sizeof what, "stages[%d]", k);
        for (int b = 0; s == GRAINS_OK && b < config_setting_length(g); b++)
            s = read_field(config_setting_get_elem(g, (unsigned)b), st, what, path, err);
        if (s == GRAINS_OK)
            s = check_end(g, st, what, path, err);
    }
    if (s == GRAINS_OK)
        sc->n_stages = n;
    return s;
}

void grains_scenario_stage_params(const grains_scenario *sc, int k, grains_params *out)
{
    *out = sc->params;
    int mu_t_given = grains_scenario_line(sc, "mu_t") != 0;
    for (int j = 0; j <= k && j < sc->n_stages; j++) {
        const grains_scenario_stage *st = &sc->stages[j];
        for (int p = 0; p < GRAINS_N_CHANGEABLE; p++)
            if (!isnan(st->set[p]))
                *changeable_field(out, p) = st->set[p];
        mu_t_given |= !isnan(st->set[changeable_find("mu_t")]);
        if (!isnan(st->set[changeable_find("mu_s")]) && !mu_t_given) /* Section 2.2, as the scenario derives it */
            out->mu_t = isfinite(2 * out->mu_s) ? 2 * out->mu_s / 3 : out->mu_s / 3 * 2; /* (no overflow at 1e308) */
        if (st->set_g)
            out->g = st->g;
    }
}

int grains_scenario_stage_sets(const grains_scenario_stage *st)
{
    for (int p = 0; p < GRAINS_N_CHANGEABLE; p++)
        if (!isnan(st->set[p]))
            return 1;
    return 0;
}

grains_status scenario_finish_stages(const grains_scenario *sc, grains_error *err)
{
    const grains_params *p = &sc->params;
    double dt = p->dt > 0 ? p->dt : grains_params_default_dt(p), t_end = (double)(p->N_frames * p->N_steps) * dt;
    double known = 0; /* the latest time a stage is known to begin by */
    for (int k = 0; k < sc->n_stages; k++) {
        const grains_scenario_stage *st = &sc->stages[k];
        int meshes = (sc->mesh[0] ? 1 : 0) + sc->n_meshes; /* (as walls.csv numbers them) */
        for (int m = 0; m < st->n_motions; m++)
            if (st->motion_mesh[m] >= meshes)
                return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, st->line,
                                        "stages[%d].motions[%d]: mesh %d: the run has %d (0 is `mesh` when it is "
                                        "given, then meshes[] in order, as walls.csv numbers them)", k, m,
                                        st->motion_mesh[m], meshes);
        if (st->remove >> meshes)
            return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, st->line,
                                    "stages[%d]: remove_meshes names a mesh the run does not have (it has %d)", k,
                                    meshes);
        uint32_t regions = (1u << grains_params_n_spawns(p)) - 1;
        if ((st->open | st->close) & ~regions)
            return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, st->line,
                                    "stages[%d]: open or close names an insertion region the run does not have "
                                    "(it has %d)", k, grains_params_n_spawns(p));
        if (st->until_time != -1 && !(st->until_time > known))
            return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, st->line,
                                    "stages[%d]: until_time = %g: the stage begins at %g or later: it can never end "
                                    "there", k, st->until_time, known);
        if (st->until_time != -1 && st->until_time > t_end)
            return grains_error_set(err, GRAINS_ERR_RANGE, sc->source, st->line,
                                    "stages[%d]: until_time = %g is past the run's end (t = %g): it can never be met",
                                    k, st->until_time, t_end);
        known = st->until_time != -1 ? st->until_time : known + st->duration; /* (settled: at least its start) */
        grains_params p_k;
        grains_scenario_stage_params(sc, k, &p_k);
        grains_error why;
        if (grains_params_check(&p_k, &why) != GRAINS_OK)
            return grains_error_set(err, why.status, sc->source, st->line, "stages[%d]: %s", k, why.message);
    }
    return GRAINS_OK;
}
