/* grains run --resume DIR: the run whose outputs are in DIR, continued
 * from DIR/checkpoint.grains to its end (or to a larger N_frames), built
 * again from the scenario and options it was started with, in the folder
 * it was started in, and writing on where its outputs stood. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run.h"
#include "grains/checkpoint.h"

/* Whether `name` is a temporary of an output file (NAME.XXXXXX, from
 * io/atomic_file.c) that a killed run left behind. */
static int stale_temporary(const char *name)
{
    size_t n = strlen(name);
    if (n < 12 || name[n - 7] != '.')
        return 0;
    for (size_t k = n - 6; k < n; k++)
        if (!((name[k] >= '0' && name[k] <= '9') || (name[k] >= 'a' && name[k] <= 'z') ||
              (name[k] >= 'A' && name[k] <= 'Z')))
            return 0;
    const char *ext[] = {".vtp", ".pvd", ".csv", ".grains"};
    for (size_t e = 0; e < sizeof ext / sizeof *ext; e++) {
        size_t m = strlen(ext[e]);
        if (n - 7 > m && strncmp(name + n - 7 - m, ext[e], m) == 0)
            return 1;
    }
    return 0;
}

/* The temporaries a killed run left in its output folder. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));)
        if (stale_temporary(e->d_name)) {
            char path[PATH_MAX + 256];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

/* What --resume may change: the frames (only more of them), the threads
 * (the results are the same for any), the progress lines. */
typedef struct {
    const char *dir;
    const char *extra[8];  /* options added after the run's own */
    int n_extra;
    int quiet;
} resume_options;

static grains_status resume_parse(int argc, char **argv, resume_options *ro, grains_error *err)
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
        } else if (strcmp(opt, "--set") == 0 && strncmp(value, "N_frames=", 9) != 0 &&
                   strncmp(value, "t_end=", 6) != 0) {
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

/* The run's options, then the resume's. */
static char **resume_args(const run_record *r, const resume_options *ro, int quiet, int *argc)
{
    char **argv = calloc((size_t)r->argc + (size_t)ro->n_extra + 2, sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0;
    for (int a = 0; a < r->argc; a++)
        argv[n++] = r->argv[a];
    for (int a = 0; a < ro->n_extra; a++)
        argv[n++] = (char *)ro->extra[a];
    if (quiet)
        argv[n++] = "--quiet";
    *argc = n;
    return argv;
}

/* The scenario again, in the folder the run began in, writing to `out`;
 * refused when an input changed since (checked where `checks`: rank 0
 * alone reads the inputs through, the particles' file too, which the
 * checkpoint replaces). */
static grains_status rebuild_scenario(const run_record *r, char **argv, int argc, const char *out, int checks,
                                      grains_scenario *sc, cli_flags *fl, grains_error *err)
{
    if (chdir(r->cwd) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, r->cwd, 0, "cannot enter the folder the run began in: %s",
                                strerror(errno));
    grains_status s = cli_scenario(argc, argv, sc, fl, err);
    uint32_t crc = r->inputs_crc;
    if (s == GRAINS_OK && checks)
        s = run_inputs_crc(sc, &crc, err);
    if (s == GRAINS_OK && crc != r->inputs_crc)
        s = grains_error_set(err, GRAINS_ERR_ARG, sc->source[0] ? sc->source : NULL, 0,
                             "the scenario or a file it reads has changed since the run began: a resumed run needs "
                             "the inputs it began with");
    size_t len = strlen(out);
    if (len >= sizeof sc->output_dir) /* (realpath gives up to PATH_MAX) */
        return grains_error_set(err, GRAINS_ERR_ARG, out, 0, "the output folder's path is too long");
    memcpy(sc->output_dir, out, len + 1);
    return s;
}

/* Whether frames remain: 0 and a note when the run is complete, an error
 * when N_frames would end it before the frames it wrote. */
static grains_status frames_left(const run_record *r, const grains_scenario *sc, int *left, grains_error *err)
{
    size_t want = (size_t)sc->params.N_frames + 1;
    *left = r->n_frames < want;
    if (r->n_frames > want)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "N_frames = %ld: the run has written frames 0 to %zu already", sc->params.N_frames,
                                r->n_frames - 1);
    return GRAINS_OK;
}

/* An error met before the state is read, or a run with no state left to
 * read, may come of a damaged record: its bytes were peeked at, not
 * checked (grains_checkpoint_peek_app). The whole file's CRC, checked
 * now, names the damage where there is any. */
static grains_status checked_record(const char *path, grains_status s, grains_error *err)
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

static int resume_run(const resume_options *ro, run_record *r, const char *path, const char *out, const cli_ranks *rk)
{
    grains_scenario sc;
    cli_flags fl;
    grains_error err;
    grains_sim *sim = NULL;
    int argc = 0, left = 0;
    char **argv = resume_args(r, ro, ro->quiet, &argc);
    grains_status s = argv ? rebuild_scenario(r, argv, argc, out, rk->share.rank == 0, &sc, &fl, &err)
                           : grains_error_set(&err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the run's options");
    if (s == GRAINS_OK)
        s = frames_left(r, &sc, &left, &err);
    if (s != GRAINS_OK || !left)
        s = checked_record(path, s, &err);
    int status = 0;
    if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL)) { /* (rank 0 alone checked the inputs) */
        status = EXIT_INPUT;
    } else if (!left) {
        printf("grains: the run in %s is complete (frames 0 to %zu); --set N_frames=N (or t_end=T) extends it\n", out,
               r->n_frames - 1);
    } else { /* its particles are the checkpoint's: each rank reads its share */
        grains_ranks share = cli_share(rk, &sc, !sc.rank_holds_all);
        s = cli_load_setting(&sc, &share, &sim, &err);
        if (s == GRAINS_OK) /* (the CRC checked as the state is read) */
            s = grains_checkpoint_read_sim(path, sim, &err);
        if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL)) { /* a rank may run out of memory alone */
            grains_sim_destroy(sim);
            status = EXIT_INPUT;
        } else {
            run_record now = *r; /* its checkpoints record the options it runs with now */
            now.argc = argc;
            now.argv = argv;
            run_output o = {.sc = &sc, .quiet = fl.quiet, .record = &now, .rk = rk, .shared = 1};
            if (rk->share.rank == 0)
                remove_stale_temporaries(out);
            status = run_with(sim, &o); /* (which destroys it) */
        }
    }
    free(argv);
    return status;
}

int cli_resume(int argc, char **argv, const cli_ranks *rk)
{
    resume_options ro;
    grains_error err;
    if (resume_parse(argc, argv, &ro, &err) != GRAINS_OK) {
        cli_report(&err);
        return EXIT_INPUT;
    }
    char path[PATH_MAX + 32], out[PATH_MAX];
    snprintf(path, sizeof path, "%s/checkpoint.grains", ro.dir);
    void *bytes = NULL;
    size_t n = 0;
    run_record r;
    grains_status s = GRAINS_OK;
    if (access(path, F_OK) != 0)
        s = grains_error_set(&err, GRAINS_ERR_IO, ro.dir, 0,
                             "no checkpoint there (a run writes one at every frame unless checkpoint_every = 0; "
                             "one stopped before its first frame is started again)");
    if (s == GRAINS_OK) /* (the file is passed through once, as its state is read) */
        s = grains_checkpoint_peek_app(path, &bytes, &n, &err);
    int decoded = s == GRAINS_OK && (s = run_record_decode(&r, bytes, n, path, &err)) == GRAINS_OK;
    if (s != GRAINS_OK && bytes)
        s = checked_record(path, s, &err);
    free(bytes);
    if (s == GRAINS_OK && !realpath(ro.dir, out))
        s = grains_error_set(&err, GRAINS_ERR_IO, ro.dir, 0, "cannot resolve: %s", strerror(errno));
    if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL)) { /* a rank may run out of memory alone */
        if (decoded)
            run_record_free(&r);
        return EXIT_INPUT;
    }
    if (path[0] != '/') /* the checkpoint is read again after the move to the run's folder */
        snprintf(path, sizeof path, "%s/checkpoint.grains", out);
    int status = resume_run(&ro, &r, path, out, rk);
    run_record_free(&r);
    return status;
}
