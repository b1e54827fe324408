/* grains run: the command's part of a run (its arguments, the ranks, the
 * progress line and what it says when the run stops); the library's run
 * loop (run/loop.c) steps it and writes its frames and checkpoints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run.h"
#include "util/clock.h"

/* A step's failure that every rank reaches at the same step: the merged
 * diagnostics' verdict, or a refusal of what the step was given (every
 * rank is given the same). Any other (memory) may be one rank's alone. */
static int failed_everywhere(const grains_error *err)
{
    return err->status == GRAINS_ERR_UNSTABLE || err->status == GRAINS_ERR_ARG;
}

/* The state is still the last good one when a step fails: keep it on disk. */
static int step_failed(grains_sim *sim, run_job *j, grains_error *err)
{
    if (j->rk && !failed_everywhere(err))
        return cli_ranks_fail(j->rk, err, EXIT_INPUT); /* the others may wait for this rank */
    cli_report(err);
    if (err->status != GRAINS_ERR_UNSTABLE)
        return EXIT_INPUT;
    grains_error werr = {.status = GRAINS_OK};
    if (run_keep_last_good(&j->out, sim, err, &werr) != GRAINS_OK)
        cli_report(&werr);
    else if (grains_sim_stopped(sim))
        fprintf(stderr, "grains: the last checkpoint stays\n");
    else
        fprintf(stderr, "grains: the last good state (t = %.9g) is in %s/particles_last_good.*\n",
                grains_sim_time(sim), j->out.sc->output_dir);
    return EXIT_UNSTABLE;
}

/* SIGINT or SIGTERM at a step's end: the loop wrote a checkpoint there
 * (err: GRAINS_OK) or could not; 128 + the signal. */
static int interrupted(const run_output *o, const grains_sim *sim, int sig, const grains_error *err)
{
    if (err->status != GRAINS_OK) {
        cli_report(err);
        fprintf(stderr, "grains: interrupted at step %ld; the last checkpoint stays\n", grains_sim_steps(sim));
    } else {
        fprintf(stderr,
                "grains: interrupted at step %ld (t = %.9g): checkpoint in %s/checkpoint.grains; continue with "
                "grains run --resume %s\n",
                grains_sim_steps(sim), grains_sim_time(sim), o->sc->output_dir, o->sc->output_dir);
    }
    return 128 + sig;
}

/* A signal caught part-way through a step (sim's GRAINS_ERR_STOPPED): the
 * state is no step's, so the last checkpoint stays; 128 + the signal.
 * Ranks are stopped all at once (another may be past the step). */
static int stopped_in_step(const run_job *j, const grains_error *err)
{
    int status = 128 + run_signals_caught();
    if (j->rk && j->rk->share.size > 1)
        return cli_ranks_fail(j->rk, err, status);
    cli_report(err);
    fprintf(stderr, "grains: interrupted; the last checkpoint stays\n");
    return status;
}

/* Rank 0's output, or a rank's gathering for it, failed: the other ranks
 * cannot know, so all stop. */
static int output_failed(const run_job *j, const grains_error *err)
{
    if (j->rk && j->rk->share.rank != 0)
        return cli_ranks_fail(j->rk, err, EXIT_INPUT);
    cli_report(err);
    if (j->rk)
        cli_ranks_abort(j->rk, EXIT_INPUT);
    return EXIT_INPUT;
}

/* A settled stage past its max_time, or a stage's change refused: every
 * rank found the same, rank 0 says it; the last checkpoint stays. */
static int stage_failed(const run_job *j, const grains_error *err)
{
    if (j->rk && j->rk->share.rank != 0)
        return EXIT_UNSTABLE;
    cli_report(err);
    fprintf(stderr, "grains: the last checkpoint stays\n");
    return EXIT_UNSTABLE;
}

/* What the command gives the run loop: the stop question (a signal caught
 * by this process, or under mpirun by any rank: each rank asks at the same
 * step, so they stop at the same one), the progress line, the stages. */
typedef struct {
    const run_job *j;
    progress pg;
    double t_end;
} run_view;

static int caught(void *ctx)
{
    const run_job *j = ((run_view *)ctx)->j;
    return j->rk && j->rk->share.size > 1 ? cli_ranks_caught(j->rk) : run_signals_caught();
}

static void stepped(void *ctx, const grains_sim *sim)
{
    run_view *v = ctx;
    progress_update(&v->pg, grains_sim_time(sim), v->t_end, grains_sim_count(sim));
}

static void stage_began(void *ctx, int k, double t)
{
    const run_output *o = &((run_view *)ctx)->j->out;
    const grains_scenario_stage *st = &o->sc->stages[k];
    if (!o->quiet)
        printf("stage %d%s%s%s begins at t = %.6g s\n", k, st->name[0] ? " (" : "", st->name, st->name[0] ? ")" : "",
               t);
}

int run_frames(grains_sim *sim, run_job *j)
{
    const grains_params *p = grains_sim_params(sim);
    run_output *o = &j->out;
    if (run_checkpoint_every(o->sc, p) > 0) { /* (a checkpoint to stop at) */
        run_signals_catch(NULL);
        grains_sim_ask_stop(sim, run_signals_asked, NULL);
    }
    run_view view = {.j = j, .t_end = (double)(p->N_frames * p->N_steps) * p->dt};
    progress_init(&view.pg, !o->quiet && isatty(STDERR_FILENO));
    run_driver d = {.caught = caught, .stepped = stepped, .stage_began = stage_began, .ctx = &view};
    int sig;
    grains_error err;
    run_stop stop = run_loop(o, sim, &d, &sig, &err);
    progress_done(&view.pg);
    switch (stop) {
    case RUN_ENDED: return 0;
    case RUN_INTERRUPTED: return interrupted(o, sim, sig, &err);
    case RUN_STOPPED_IN_STEP: return stopped_in_step(j, &err);
    case RUN_STEP_FAILED: return step_failed(sim, j, &err);
    case RUN_STAGE_FAILED: return stage_failed(j, &err);
    case RUN_OUTPUT_FAILED: return output_failed(j, &err);
    case RUN_START_FAILED: break;
    }
    cli_report(&err);
    return EXIT_INPUT;
}

int run_with(grains_sim *sim, run_job *j)
{
    run_output *o = &j->out;
    grains_error err;
    int status;
    grains_status s = GRAINS_OK;
    if (j->rk && !j->shared) { /* each rank its own alone, unless asked otherwise */
        grains_ranks share = cli_share(j->rk, o->sc, !o->sc->rank_holds_all && grains_sim_ranks_hold_own(sim));
        s = grains_sim_share(sim, &share, &err);
    }
    o->rank = j->rk ? j->rk->share.rank : 0;
    if (s == GRAINS_OK)
        s = run_open_outputs(o, sim, &err);
    int failed = j->rk ? cli_ranks_failed(j->rk, s != GRAINS_OK ? &err : NULL) /* one rank may fail alone */
                       : s != GRAINS_OK && (cli_report(&err), 1);
    if (failed) {
        status = EXIT_INPUT;
    } else {
        banner_start(o, sim);
        long step0 = grains_sim_steps(sim);
        double t0 = wall_seconds();
        status = run_frames(sim, j);
        if (status == 0)
            banner_end(j, sim, grains_sim_steps(sim) - step0, wall_seconds() - t0);
    }
    run_close_outputs(o);
    grains_sim_destroy(sim);
    return status;
}

/* The scenario and simulation of a new run, and its record for
 * checkpoints; *dealt when its particles were dealt among the ranks. The
 * record's CRC of the inputs on rank 0 alone, which writes the
 * checkpoints (ranks dealt the particles read a part of their file each). */
static grains_status prepare(int argc, char **argv, const cli_ranks *rk, grains_scenario *sc, run_flags *fl,
                             run_record *r, grains_sim **sim, int *dealt, grains_error *err)
{
    grains_status s = run_record_check(argc, argv, err);
    if (s == GRAINS_OK)
        s = run_scenario_args(argc, argv, sc, fl, err);
    if (s == GRAINS_OK && !getcwd(r->cwd, sizeof r->cwd))
        s = grains_error_set(err, GRAINS_ERR_IO, NULL, 0, "cannot name the current folder: %s", strerror(errno));
    if (s != GRAINS_OK)
        return s;
    *dealt = cli_deals(rk, sc);
    grains_ranks deal = *dealt ? cli_share(rk, sc, 1) : (grains_ranks){0};
    s = run_load(sc, *dealt ? &deal : NULL, sim, err);
    if (s == GRAINS_OK)
        s = run_stages_start(sc, r, *sim, 0, err);
    if (s == GRAINS_OK && (!rk || rk->share.rank == 0)) /* (its failure is agreed with the load's) */
        s = run_inputs_crc(sc, &r->inputs_crc, err);
    return s;
}

int cli_run(int argc, char **argv, const cli_ranks *rk)
{
    for (int a = 0; a < argc; a++)
        if (strcmp(argv[a], "--resume") == 0)
            return cli_resume(argc, argv, rk);
    grains_scenario sc;
    run_flags fl;
    grains_error err;
    grains_sim *sim = NULL;
    run_record record = {.argc = argc, .argv = argv};
    int dealt = 0;
    grains_status s = prepare(argc, argv, rk, &sc, &fl, &record, &sim, &dealt, &err);
    if (cli_ranks_failed(rk, s != GRAINS_OK ? &err : NULL) || /* a rank may run out of memory alone */
        (dealt && cli_check_dealt(rk, &sc, sim))) {
        grains_sim_destroy(sim);
        return EXIT_INPUT;
    }
    cli_warnings(&sc, sim); /* (dealt: collective; rank 0 speaks) */
    run_job job = {.out = {.sc = &sc, .quiet = fl.quiet, .record = &record}, .rk = rk};
    return run_with(sim, &job);
}
