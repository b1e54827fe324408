/* A run's named values (grains_run_open's keys and values, a resume's) as
 * the words of a command line, which the run's record keeps for its
 * checkpoints: "FILE", then "--set", "KEY=VALUE" for each (a resume's
 * threads as "--threads", "N", the one option besides a length it takes). */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"

static grains_status out_of_memory(grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a run's values");
}

/* A key is a scenario's name: not empty, no '=' (it would split elsewhere). */
static grains_status check_pair(const char *key, const char *value, int k, grains_error *err)
{
    if (!key || !value)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a run's value %d: its %s is missing", k + 1,
                                key ? "value" : "key");
    if (!key[0] || strchr(key, '='))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a run's value %d: '%s' is no scenario key", k + 1,
                                key);
    return GRAINS_OK;
}

static char *joined(const char *key, const char *sep, const char *value)
{
    size_t n = strlen(key) + strlen(sep) + strlen(value) + 1;
    char *w = malloc(n);
    if (w)
        strcat(strcat(strcpy(w, key), sep), value);
    return w;
}

/* One pair's two words at w[0], w[1]. */
static int pair_words(char **w, const char *key, const char *value, int resume)
{
    int threads = resume && strcmp(key, "threads") == 0;
    w[0] = strdup(threads ? "--threads" : "--set");
    w[1] = threads ? strdup(value) : joined(key, "=", value);
    return w[0] && w[1];
}

void run_words_free(char **words)
{
    for (int a = 0; words && words[a]; a++)
        free(words[a]);
    free(words);
}

grains_status run_named_words(const char *scenario, int n, const char *const *keys, const char *const *values,
                              int resume, char ***out, int *argc, grains_error *err)
{
    if (n < 0 || (n > 0 && (!keys || !values)))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a run's values: %d of them and no list", n);
    for (int k = 0; k < n; k++) {
        grains_status s = check_pair(keys[k], values[k], k, err);
        if (s != GRAINS_OK)
            return s;
    }
    char **w = calloc(2 * (size_t)n + 2, sizeof *w);
    if (!w)
        return out_of_memory(err);
    int a = 0, ok = 1;
    if (scenario) /* (a file named like an option, "--quiet", is ./--quiet) */
        ok = (w[a++] = scenario[0] == '-' ? joined(".", "/", scenario) : strdup(scenario)) != NULL;
    for (int k = 0; ok && k < n; k++, a += 2)
        ok = pair_words(w + a, keys[k], values[k], resume);
    if (!ok) { /* (a pair may hold its second word and not its first) */
        for (int k = 0; k < 2 * n + 1; k++)
            free(w[k]);
        free(w);
        return out_of_memory(err);
    }
    *out = w;
    *argc = a;
    return GRAINS_OK;
}
