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

grains_status run_scenario_args(int argc, char **argv, grains_scenario *sc, run_flags *flags, grains_error *err)
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
    grains_status s = grains_scenario_finish(sc, err);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (s == GRAINS_OK && cores > 0 && sc->params.threads > 4 * cores) /* (libgomp aborts where it cannot make them) */
        s = grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                             "threads = %d: at most %ld, 4 for each of this machine's %ld cores (results are the same "
                             "for any number)", sc->params.threads, 4 * cores, cores);
    return s;
}
