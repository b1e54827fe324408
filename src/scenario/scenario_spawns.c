/* The scenario's `spawns`, `tag_regions`, `sinks` and `probes` lists: groups of named fields.
 *
 *   spawns = ( { min = [-0.1, -0.1, 0.3]; max = [0.1, 0.1, 0.4]; tag = 1; count = 500;
 *                sizes = "discrete"; radii = [0.002, 0.004]; fractions = [0.5, 0.5];
 *                fractions_of = "mass"; } );
 *   tag_regions = ( { min = [-1, -1, 0]; max = [0, 1, 0.1]; tag = 2; } );
 *   sinks = ( { min = [-1, -1, -0.2]; max = [1, 1, -0.1]; region = "box"; } );
 *   probes = ( { name = "outlet"; point = [0, 0, 0.1]; normal = [0, 0, -1]; sizes = [0.003]; },
 *              { name = "bin"; min = [-1, -1, -0.2]; max = [1, 1, 0]; } );
 *
 * A field a region leaves out is the run's own (scenario_spawns_finish). */
#include "scenario/scenario_spawns.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "scenario/config_value.h"

#define UNSET_INT INT_MIN
#define UNSET_LONG LONG_MIN

static int line_of(const config_setting_t *s) { return (int)config_setting_source_line(s); }

static grains_status bad(const config_setting_t *s, const char *what, const char *expected, const char *path,
                         grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s.%s: expected %s", what,
                            config_setting_name(s), expected);
}

/* The index of a string setting's value in `names`, or -1. */
static int choice_of(const config_setting_t *s, const grains_choice_list *list)
{
    return config_setting_type(s) == CONFIG_TYPE_STRING ? grains_choice_find(list, config_setting_get_string(s)) : -1;
}

static int integer_of(const config_setting_t *s, long lo, long hi, long *out)
{
    real r;
    if (!config_number(s, &r) || r != floor(r) || r < (real)lo || r > (real)hi)
        return 0;
    *out = (long)r;
    return 1;
}

static int vec3_of(const config_setting_t *s, grains_vec3 *out)
{
    real r[3];
    if (config_numbers(s, r, 3) != 3)
        return 0;
    *out = (grains_vec3){r[0], r[1], r[2]};
    return 1;
}

/* The integer fields of a region. */
static int read_integer(const config_setting_t *s, const char *name, grains_spawn_region *r)
{
    long v;
    if (strcmp(name, "material") == 0 || strcmp(name, "tag") == 0) {
        if (!integer_of(s, -1000000, 1000000, &v))
            return 0;
        *(name[0] == 'm' ? &r->material : &r->tag) = (int)v;
        return 1;
    }
    long *dst = strcmp(name, "count") == 0 ? &r->count : strcmp(name, "rate") == 0 ? &r->rate : &r->full_after;
    return integer_of(s, -1000000000000L, 1000000000000L, dst);
}

static const char *const share_names[] = {"number", "mass", NULL};
static const grains_choice_list shares = {share_names, NULL, 2};

#define KNOWN_FIELDS "region, min, max, material, tag, count, rate, full_after, v0, w0, sizes, R_min, R_max, radii, " \
                     "fractions, fractions_of, median, sigma"

/* One field of region `what`. */
static grains_status read_region_field(const config_setting_t *s, grains_spawn_region *r, int *n_fractions,
                                       const char *what, const char *path, grains_error *err)
{
    const char *name = config_setting_name(s);
    grains_size_distribution *d = &r->sizes;
    const grains_choice_list *list = strcmp(name, "region") == 0  ? &grains_spawn_regions
                                     : strcmp(name, "sizes") == 0 ? &grains_size_laws
                                     : strcmp(name, "fractions_of") == 0 ? &shares
                                                                          : NULL;
    if (list) {
        int c = choice_of(s, list);
        char names[128];
        if (c < 0)
            return bad(s, what, grains_choice_expected(list, names, sizeof names), path, err);
        if (list == &grains_spawn_regions)
            r->cylinder = c;
        else if (list == &shares)
            d->by_mass = c;
        else
            d->law = (grains_size_law)c;
        return GRAINS_OK;
    }
    grains_vec3 *v = strcmp(name, "min") == 0 ? &r->lo : strcmp(name, "max") == 0 ? &r->hi
                   : strcmp(name, "v0") == 0 ? &r->v0 : strcmp(name, "w0") == 0 ? &r->w0 : NULL;
    if (v)
        return vec3_of(s, v) ? GRAINS_OK : bad(s, what, "three finite numbers", path, err);
    real *x = strcmp(name, "R_min") == 0 ? &d->R_lo : strcmp(name, "R_max") == 0 ? &d->R_hi
            : strcmp(name, "median") == 0 ? &d->median : strcmp(name, "sigma") == 0 ? &d->sigma : NULL;
    if (x)
        return config_number(s, x) ? GRAINS_OK : bad(s, what, "a finite number", path, err);
    if (strcmp(name, "radii") == 0)
        return (d->n = config_numbers(s, d->R, GRAINS_MAX_SIZES)) >= 1
                   ? GRAINS_OK : bad(s, what, "1 to 16 finite numbers", path, err);
    if (strcmp(name, "fractions") == 0)
        return (*n_fractions = config_numbers(s, d->fraction, GRAINS_MAX_SIZES)) >= 1
                   ? GRAINS_OK : bad(s, what, "1 to 16 finite numbers", path, err);
    if (!strcmp(name, "material") || !strcmp(name, "tag"))
        return read_integer(s, name, r) ? GRAINS_OK : bad(s, what, "an integer from -1000000 to 1000000", path, err);
    if (!strcmp(name, "count") || !strcmp(name, "rate") || !strcmp(name, "full_after"))
        return read_integer(s, name, r) ? GRAINS_OK
                                        : bad(s, what, "an integer of at most 1e12 in magnitude", path, err);
    return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(s), "%s: unknown field '%s' (known: %s)", what, name,
                            KNOWN_FIELDS);
}

static const grains_spawn_region unset_region = {
    .lo = {NAN, NAN, NAN}, .hi = {NAN, NAN, NAN}, .material = UNSET_INT, .tag = UNSET_INT, .rate = UNSET_LONG,
    .v0 = {NAN, NAN, NAN}, .w0 = {NAN, NAN, NAN},
    .sizes = {.law = GRAINS_SIZES_UNIFORM, .R_lo = NAN, .R_hi = NAN, .median = NAN, .sigma = NAN}};

/* A region's fields; what the law needs is there, and nothing another law reads. */
static grains_status read_region(const config_setting_t *g, grains_spawn_region *r, const char *what,
                                 const char *path, grains_error *err)
{
    *r = unset_region;
    int n_fractions = 0;
    for (int b = 0; b < config_setting_length(g); b++) {
        grains_status s = read_region_field(config_setting_get_elem(g, (unsigned)b), r, &n_fractions, what, path, err);
        if (s != GRAINS_OK)
            return s;
    }
    const grains_size_distribution *d = &r->sizes;
    int discrete = d->law == GRAINS_SIZES_DISCRETE, lognormal = d->law == GRAINS_SIZES_LOGNORMAL;
    if (discrete != (d->n > 0) || discrete != (n_fractions > 0) || (discrete && n_fractions != d->n))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "%s: sizes = \"discrete\" goes with radii = [...] and as many fractions = [...], "
                                "and they with it", what);
    if (lognormal != !isnan(d->median) || lognormal != !isnan(d->sigma))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "%s: sizes = \"lognormal\" goes with median = ... and sigma = ..., and they with it",
                                what);
    return GRAINS_OK;
}

grains_status scenario_read_spawns(grains_params *p, const config_setting_t *list, const char *path,
                                   grains_error *err)
{
    grains_status s = config_group_list(list, "spawns", GRAINS_MAX_SPAWNS, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    if (s == GRAINS_OK && n == 0)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(list),
                             "spawns: an empty list; leave it out for the run's spawn box, or set N_max = 0 for none");
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        char what[32];
        snprintf(what, sizeof what, "spawns[%d]", a);
        s = read_region(config_setting_get_elem(list, (unsigned)a), &p->spawn[a], what, path, err);
    }
    if (s == GRAINS_OK)
        p->n_spawns = n;
    return s;
}

grains_status scenario_read_tag_rules(grains_params *p, const config_setting_t *list, const char *path,
                                      grains_error *err)
{
    grains_status s = config_group_list(list, "tag_regions", GRAINS_MAX_TAG_RULES, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        const config_setting_t *lo = config_setting_get_member(g, "min"), *hi = config_setting_get_member(g, "max"),
                               *tag = config_setting_get_member(g, "tag");
        grains_tag_rule *t = &p->tag_rule[a];
        long v;
        if (config_setting_length(g) != 3 || !lo || !hi || !tag || !vec3_of(lo, &t->lo) || !vec3_of(hi, &t->hi) ||
            !integer_of(tag, -1000000, 1000000, &v))
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                 "tag_regions[%d]: expected { min = [x, y, z]; max = [x, y, z]; tag = integer; }", a);
        else
            t->tag = (int)v;
    }
    if (s == GRAINS_OK)
        p->n_tag_rules = n;
    return s;
}

/* One sink: { min = [...]; max = [...]; region = "box" or "cylinder"; }. */
static grains_status read_sink(const config_setting_t *g, grains_sink *k_sink, int k, const char *path,
                               grains_error *err)
{
    int has_lo = 0, has_hi = 0;
    *k_sink = (grains_sink){{0, 0, 0}, {0, 0, 0}, 0};
    for (int b = 0; b < config_setting_length(g); b++) {
        const config_setting_t *f = config_setting_get_elem(g, (unsigned)b);
        const char *name = config_setting_name(f);
        char what[32], names[128];
        snprintf(what, sizeof what, "sinks[%d]", k);
        if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
            int lo = name[1] == 'i';
            if (!vec3_of(f, lo ? &k_sink->lo : &k_sink->hi))
                return bad(f, what, "three finite numbers", path, err);
            *(lo ? &has_lo : &has_hi) = 1;
        } else if (strcmp(name, "region") == 0) {
            int c = choice_of(f, &grains_spawn_regions);
            if (c < 0)
                return bad(f, what, grains_choice_expected(&grains_spawn_regions, names, sizeof names), path, err);
            k_sink->cylinder = c;
        } else {
            return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f),
                                    "%s: unknown field '%s' (known: min, max, region)", what, name);
        }
    }
    if (!has_lo || !has_hi)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g),
                                "sinks[%d]: expected { min = [x, y, z]; max = [x, y, z]; region = \"box\" or "
                                "\"cylinder\"; }", k);
    return GRAINS_OK;
}

/* A probe's name: letters, digits, '_' and '-', 1 to 31 of them. */
static int name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 31)
        return 0;
    for (size_t c = 0; c < n; c++)
        if (!(isalnum((unsigned char)name[c]) || name[c] == '_' || name[c] == '-'))
            return 0;
    return 1;
}

/* One probe's field into q (its name into name); 0 if it is none of them. */
static grains_status probe_field(const config_setting_t *f, grains_probe *q, char *name, unsigned *given, int k,
                                 const char *path, grains_error *err)
{
    static const char *const fields[] = {"name", "point", "normal", "radius", "min", "max", "sizes"};
    const char *field = config_setting_name(f);
    char what[32];
    snprintf(what, sizeof what, "probes[%d]", k);
    int which = -1;
    for (int a = 0; a < 7; a++)
        if (strcmp(field, fields[a]) == 0)
            which = a;
    grains_vec3 *vec[] = {NULL, &q->point, &q->normal, NULL, &q->lo, &q->hi};
    int ok = 1;
    if (which == 0)
        ok = config_setting_type(f) == CONFIG_TYPE_STRING && name_valid(config_setting_get_string(f)) &&
             snprintf(name, 32, "%s", config_setting_get_string(f)) > 0;
    else if (which == 3)
        ok = config_number(f, &q->radius);
    else if (which == 6)
        ok = (q->n_sizes = config_numbers(f, q->size, GRAINS_MAX_PROBE_SIZES)) >= 1;
    else if (which > 0)
        ok = vec3_of(f, vec[which]);
    else
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(f), "%s: unknown field '%s' (known: name, point, "
                                "normal, radius, min, max, sizes)", what, field);
    *given |= 1u << which;
    return ok ? GRAINS_OK : bad(f, what, which == 0 ? "a name of letters, digits, _ and - (1 to 31)" :
                                         which == 3 ? "a finite number" : which == 6 ? "1 to 8 radii" :
                                         "three finite numbers", path, err);
}

/* One probe: a plane (point and normal) or a box (min and max). */
static grains_status read_probe(const config_setting_t *g, grains_probe *q, char *name, int k, const char *path,
                                grains_error *err)
{
    unsigned given = 0;
    *q = (grains_probe){0};
    for (int b = 0; b < config_setting_length(g); b++) {
        grains_status s = probe_field(config_setting_get_elem(g, (unsigned)b), q, name, &given, k, path, err);
        if (s != GRAINS_OK)
            return s;
    }
    int plane = (given & 6u) == 6u, box = (given & 48u) == 48u, name_given = given & 1u;
    q->box = box;
    if (!name_given || plane == box || (box && (given & 14u)) || (plane && (given & 48u)))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g), "probes[%d]: expected { name = \"...\"; "
                                "point = [x, y, z]; normal = [x, y, z]; } (a plane; radius and sizes optional) or "
                                "{ name = \"...\"; min = [x, y, z]; max = [x, y, z]; } (a box)", k);
    return GRAINS_OK;
}

grains_status scenario_read_probes(grains_scenario *sc, const config_setting_t *list, const char *path,
                                   grains_error *err)
{
    grains_status s = config_group_list(list, "probes", GRAINS_MAX_PROBES, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    for (int a = 0; s == GRAINS_OK && a < n; a++) {
        const config_setting_t *g = config_setting_get_elem(list, (unsigned)a);
        s = read_probe(g, &sc->params.probe[a], sc->probe_name[a], a, path, err);
        for (int b = 0; s == GRAINS_OK && b < a; b++)
            if (strcmp(sc->probe_name[a], sc->probe_name[b]) == 0)
                s = grains_error_set(err, GRAINS_ERR_PARSE, path, line_of(g), "probes[%d]: the name \"%s\" is "
                                     "probes[%d]'s too", a, sc->probe_name[a], b);
    }
    if (s == GRAINS_OK)
        sc->params.n_probes = n;
    return s;
}

grains_status scenario_read_sinks(grains_params *p, const config_setting_t *list, const char *path,
                                  grains_error *err)
{
    grains_status s = config_group_list(list, "sinks", GRAINS_MAX_SINKS, path, err);
    int n = s == GRAINS_OK ? config_setting_length(list) : 0;
    for (int a = 0; s == GRAINS_OK && a < n; a++)
        s = read_sink(config_setting_get_elem(list, (unsigned)a), &p->sink[a], a, path, err);
    if (s == GRAINS_OK)
        p->n_sinks = n;
    return s;
}

static void fill_vec3(grains_vec3 *v, grains_vec3 run)
{
    if (isnan(v->x))
        *v = run;
}

void scenario_spawns_finish(grains_params *p)
{
    for (int k = 0; k < p->n_spawns; k++) {
        grains_spawn_region *r = &p->spawn[k];
        fill_vec3(&r->lo, p->s_min);
        fill_vec3(&r->hi, p->s_max);
        fill_vec3(&r->v0, p->v0);
        fill_vec3(&r->w0, p->w0);
        if (r->material == UNSET_INT)
            r->material = p->spawn_material;
        if (r->tag == UNSET_INT)
            r->tag = k;
        if (r->rate == UNSET_LONG)
            r->rate = p->N_spawn;
        if (isnan(r->sizes.R_lo))
            r->sizes.R_lo = p->R_min;
        if (isnan(r->sizes.R_hi))
            r->sizes.R_hi = p->R_max;
        if (r->sizes.law != GRAINS_SIZES_LOGNORMAL)
            r->sizes.median = r->sizes.sigma = 0;
    }
}
