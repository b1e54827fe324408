/* grains run --resume DIR: the run whose outputs are in DIR, continued
 * from DIR/checkpoint.grains to its end (or to a larger N_frames), built
 * again from the scenario and options it was started with, in the folder
 * it was started in, and writing on where its outputs stood. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run.h"
#include "grains/checkpoint.h"

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

static int resume_run(const run_resume_options *ro, run_record *r, const char *path, const char *out, const cli_ranks *rk)
{
    grains_scenario sc;
    run_flags fl;
    grains_error err;
    grains_sim *sim = NULL;
    int argc = 0, left = 0;
    char **argv = run_resume_args(r, ro, ro->quiet, &argc);
    grains_status s = argv ? run_rebuild_scenario(r, argv, argc, out, rk->share.rank == 0, &sc, &fl, &err)
                           : grains_error_set(&err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the run's options");
    if (s == GRAINS_OK)
        s = frames_left(r, &sc, &left, &err);
    if (s != GRAINS_OK || !left)
        s = run_checked_record(path, s, &err);
    int status = 0;
    if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL)) { /* (rank 0 alone checked the inputs) */
        status = EXIT_INPUT;
    } else if (!left) {
        printf("grains: the run in %s is complete (frames 0 to %zu); --set N_frames=N (or t_end=T) extends it\n", out,
               r->n_frames - 1);
    } else { /* its particles are the checkpoint's: each rank reads its share */
        grains_ranks share = cli_share(rk, &sc, !sc.rank_holds_all);
        s = run_load_setting(&sc, &share, &sim, &err);
        if (s == GRAINS_OK) /* the stages' changes up to its own, then the state replaces what they set */
            s = run_stages_start(&sc, r, sim, 1, &err);
        if (s == GRAINS_OK) /* (the CRC checked as the state is read) */
            s = grains_checkpoint_read_sim(path, sim, &err);
        if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL)) { /* a rank may run out of memory alone */
            grains_sim_destroy(sim);
            status = EXIT_INPUT;
        } else {
            run_record now = *r; /* its checkpoints record the options it runs with now */
            now.argc = argc;
            now.argv = argv;
            run_job job = {.out = {.sc = &sc, .quiet = fl.quiet, .record = &now}, .rk = rk, .shared = 1};
            if (rk->share.rank == 0)
                run_remove_stale_temporaries(out);
            status = run_with(sim, &job); /* (which destroys it) */
        }
    }
    free(argv);
    return status;
}

int cli_resume(int argc, char **argv, const cli_ranks *rk)
{
    run_resume_options ro;
    grains_error err;
    if (run_resume_parse(argc, argv, &ro, &err) != GRAINS_OK) {
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
        s = run_checked_record(path, s, &err);
    free(bytes);
    if (s == GRAINS_OK && !realpath(ro.dir, out))
        s = grains_error_set(&err, GRAINS_ERR_IO, ro.dir, 0, "cannot resolve: %s", strerror(errno));
    if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL)) { /* a rank may run out of memory alone */
        if (decoded)
            run_record_free(&r);
        return EXIT_INPUT;
    }
    if (path[0] != '/') /* (the checkpoint is read again, by every rank: its full path) */
        snprintf(path, sizeof path, "%s/checkpoint.grains", out);
    int status = resume_run(&ro, &r, path, out, rk);
    run_record_free(&r);
    return status;
}
