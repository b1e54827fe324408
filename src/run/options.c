/* Command-line options that describe a scenario. */
#include <string.h>
#include <unistd.h>

#include "run/run.h"

static grains_status need_value(int a, int argc, char **argv, grains_error *err)
{
    if (a + 1 >= argc)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%s needs a value", argv[a]);
    return GRAINS_OK;
}

static grains_status apply_option(grains_scenario *sc, run_flags *fl, int argc, char **argv, int *a,
                                  grains_error *err)
{
    const char *opt = argv[*a];
    char buf[GRAINS_PATH_MAX + 32];
    const char *key = NULL;
    if (strcmp(opt, "--quiet") == 0 || strcmp(opt, "-q") == 0) {
        fl->quiet = 1;
        return GRAINS_OK;
    }
    if (strcmp(opt, "--csv") == 0)
        return grains_scenario_set(sc, "csv=true", err);
    if (strcmp(opt, "-o") == 0)
        key = "output_dir";
    else if (strcmp(opt, "--mesh") == 0)
        key = "mesh";
    else if (strcmp(opt, "--particles") == 0)
        key = "particles";
    else if (strcmp(opt, "--threads") == 0)
        key = "threads";
    else if (strcmp(opt, "--set") != 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "unknown option '%s' (see grains --help)", opt);
    grains_status s = need_value(*a, argc, argv, err);
    if (s != GRAINS_OK)
        return s;
    const char *value = argv[++*a];
    if (!key)
        return grains_scenario_set(sc, value, err);
    if (strcmp(key, "mesh") == 0 && strcmp(value, "none") == 0)
        value = "";
    snprintf(buf, sizeof buf, "%s=%s", key, value);
    return grains_scenario_set(sc, buf, err);
}

/* `path` from the folder `base` where it is relative ("", absolute paths
 * and builtin: names stay). */
static grains_status from_base(char *path, const char *base, grains_error *err)
{
    if (!path[0] || path[0] == '/' || strncmp(path, "builtin:", 8) == 0)
        return GRAINS_OK;
    char joined[2 * GRAINS_PATH_MAX];
    int n = snprintf(joined, sizeof joined, "%s/%s", base, path);
    if (n < 0 || n >= GRAINS_PATH_MAX)
        return grains_error_set(err, GRAINS_ERR_RANGE, path, 0, "the path from %s is too long", base);
    memcpy(path, joined, (size_t)n + 1);
    return GRAINS_OK;
}

/* Every path of the scenario from `base` (the folder its relative paths
 * were given in), so that they mean the same wherever the process is. */
static grains_status paths_from(grains_scenario *sc, const char *base, grains_error *err)
{
    char *one[] = {sc->mesh, sc->particles, sc->bonds, sc->output_dir};
    grains_status s = GRAINS_OK;
    for (size_t k = 0; s == GRAINS_OK && k < sizeof one / sizeof *one; k++)
        s = from_base(one[k], base, err);
    for (int k = 0; s == GRAINS_OK && k < sc->n_meshes; k++)
        if ((s = from_base(sc->meshes[k].file, base, err)) == GRAINS_OK)
            s = from_base(sc->meshes[k].table, base, err);
    for (int k = 0; s == GRAINS_OK && k < sc->n_membranes; k++)
        s = from_base(sc->membranes[k].file, base, err);
    return s;
}

grains_status run_scenario_args_from(const char *base, int argc, char **argv, grains_scenario *sc,
                                     run_flags *flags, grains_error *err)
{
    grains_scenario_default(sc);
    flags->quiet = 0;
    const char *file = NULL;
    for (int a = 0; a < argc; a++) {
        if (argv[a][0] != '-') {
            if (file)
                return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "more than one scenario file: '%s' and '%s'",
                                        file, argv[a]);
            file = argv[a];
        } else if (strcmp(argv[a], "--quiet") && strcmp(argv[a], "-q") && strcmp(argv[a], "--csv")) {
            a++; /* skip the option's value */
        }
    }
    char from[2 * GRAINS_PATH_MAX];
    if (file && base && file[0] != '/' && snprintf(from, sizeof from, "%s/%s", base, file) > 0)
        file = from;
    if (file) {
        sc->mesh[0] = '\0'; /* a scenario file names its own mesh, if any */
        grains_status s = grains_scenario_read(sc, file, err);
        if (s != GRAINS_OK)
            return s;
    }
    for (int a = 0; a < argc; a++) {
        if (argv[a][0] != '-')
            continue;
        grains_status s = apply_option(sc, flags, argc, argv, &a, err);
        if (s != GRAINS_OK)
            return s;
    }
    grains_status s = base ? paths_from(sc, base, err) : GRAINS_OK;
    if (s == GRAINS_OK)
        s = grains_scenario_finish(sc, err);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (s == GRAINS_OK && cores > 0 && sc->params.threads > 4 * cores) /* (libgomp aborts where it cannot make them) */
        s = grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                             "threads = %d: at most %ld, 4 for each of this machine's %ld cores (results are the same "
                             "for any number)", sc->params.threads, 4 * cores, cores);
    return s;
}

grains_status run_scenario_args(int argc, char **argv, grains_scenario *sc, run_flags *flags, grains_error *err)
{
    return run_scenario_args_from(NULL, argc, argv, sc, flags, err);
}
