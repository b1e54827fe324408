/* A run resumed from its checkpoint: what may change (more frames, the
 * threads), the run's options again, its scenario rebuilt in the folder it
 * began in with its inputs checked unchanged, the temporaries a killed run
 * left. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grains/checkpoint.h"
#include "io/atomic_file.h"
#include "run/run.h"

/* The temporaries a killed run left in its output folder: regular files
 * of the names io/atomic_file.c gives, never a file of the user's. */
void run_remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));)
        if (atomic_is_temporary(e->d_name)) {
            char path[PATH_MAX + 256];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
                unlink(path);
        }
    closedir(d);
}

/* Whether a --set's value gives the run's length (N_frames, or t_end). */
static int sets_length(const char *value)
{
    return strncmp(value, "N_frames=", 9) == 0 || strncmp(value, "t_end=", 6) == 0;
}

grains_status run_resume_parse(int argc, char **argv, run_resume_options *ro, grains_error *err)
{
    memset(ro, 0, sizeof *ro);
    for (int a = 0; a < argc; a++) {
        const char *opt = argv[a];
        if (strcmp(opt, "--quiet") == 0 || strcmp(opt, "-q") == 0) {
            ro->quiet = 1;
            continue;
        }
        int takes = strcmp(opt, "--resume") == 0 || strcmp(opt, "--set") == 0 || strcmp(opt, "--threads") == 0;
        if (!takes || a + 1 >= argc)
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                    "%s%s: a resumed run takes only --resume DIR, --set N_frames=N (or t_end=T), "
                                    "--threads N and --quiet (the rest is the run's own)",
                                    opt, takes ? " needs a value" : "");
        const char *value = argv[++a];
        if (strcmp(opt, "--resume") == 0) {
            ro->dir = value;
        } else if (strcmp(opt, "--set") == 0 && !sets_length(value)) {
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                    "--set %s: a resumed run may change only N_frames, or t_end where the run gives "
                                    "it (the rest would not be the same run)", value);
        } else if (ro->n_extra + 2 > 8) {
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%s %s: too many options for a resumed run", opt,
                                    value);
        } else {
            ro->extra[ro->n_extra++] = opt;
            ro->extra[ro->n_extra++] = value;
        }
    }
    return GRAINS_OK;
}

/* The run's options, then the resume's; a length the resume gives replaces
 * the one the run was given (--set t_end=7 at the start, --set N_frames=90
 * now: the run's t_end is dropped, not refused as given twice). */
char **run_resume_args(const run_record *r, const run_resume_options *ro, int quiet, int *argc)
{
    char **argv = calloc((size_t)r->argc + (size_t)ro->n_extra + 2, sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0, new_length = 0;
    for (int a = 0; a + 1 < ro->n_extra; a += 2)
        new_length |= strcmp(ro->extra[a], "--set") == 0 && sets_length(ro->extra[a + 1]);
    for (int a = 0; a < r->argc; a++) {
        if (new_length && a + 1 < r->argc && strcmp(r->argv[a], "--set") == 0 && sets_length(r->argv[a + 1])) {
            a++;
            continue;
        }
        argv[n++] = r->argv[a];
    }
    for (int a = 0; a < ro->n_extra; a++)
        argv[n++] = (char *)ro->extra[a];
    if (quiet)
        argv[n++] = "--quiet";
    *argc = n;
    return argv;
}

/* The scenario again, its paths from the folder the run began in (the
 * process's own folder is left alone: another run in it may be writing),
 * writing to `out`; refused when an input changed since (checked where
 * `checks`: rank 0 alone reads the inputs through, the particles' file
 * too, which the checkpoint replaces). */
grains_status run_rebuild_scenario(const run_record *r, char **argv, int argc, const char *out, int checks,
                                      grains_scenario *sc, run_flags *fl, grains_error *err)
{
    grains_status s = run_scenario_args_from(r->cwd, argc, argv, sc, fl, err);
    uint32_t crc = r->inputs_crc;
    if (s == GRAINS_OK && checks)
        s = run_inputs_crc(sc, &crc, err);
    if (s == GRAINS_OK && crc != r->inputs_crc)
        s = grains_error_set(err, GRAINS_ERR_ARG, sc->source[0] ? sc->source : NULL, 0,
                             "the scenario or a file it reads has changed since the run began: a resumed run needs "
                             "the inputs it began with");
    if (!out) /* (the scenario's own) */
        return s;
    size_t len = strlen(out);
    if (len >= sizeof sc->output_dir) /* (realpath gives up to PATH_MAX) */
        return grains_error_set(err, GRAINS_ERR_ARG, out, 0, "the output folder's path is too long");
    memcpy(sc->output_dir, out, len + 1);
    return s;
}

/* An error met before the state is read, or a run with no state left to
 * read, may come of a damaged record: its bytes were peeked at, not
 * checked (grains_checkpoint_peek_app). The whole file's CRC, checked
 * now, names the damage where there is any. */
grains_status run_checked_record(const char *path, grains_status s, grains_error *err)
{
    void *app = NULL;
    size_t n = 0;
    grains_error damaged;
    if (grains_checkpoint_read_app(path, &app, &n, &damaged) != GRAINS_OK) {
        *err = damaged;
        s = damaged.status;
    }
    free(app);
    return s;
}

