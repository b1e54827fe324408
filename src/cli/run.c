/* grains run: frames every N_steps steps, N_frames times, after frame 0
 * (TinyDEM Section 6), with VTK and/or CSV frames and a thermo table. */
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
    if (grains_sim_stopped(sim)) {
        fprintf(stderr, "grains: the last checkpoint stays\n");
        return EXIT_UNSTABLE;
    }
    grains_error werr;
    if (run_write_frame(&j->out, sim, "_last_good", &werr) != GRAINS_OK)
        cli_report(&werr);
    else
        fprintf(stderr, "grains: the last good state (t = %.9g) is in %s/particles_last_good.*\n",
                grains_sim_time(sim), j->out.sc->output_dir);
    return EXIT_UNSTABLE;
}

/* SIGINT or SIGTERM: a checkpoint at this step, and 128 + the signal. */
static int interrupted(run_output *o, grains_sim *sim, int sig)
{
    grains_error err;
    if (run_write_checkpoint(o, sim, NULL, &err) != GRAINS_OK) {
        cli_report(&err);
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
    int status = 128 + signals_caught();
    if (j->rk && j->rk->share.size > 1)
        return cli_ranks_fail(j->rk, err, status);
    cli_report(err);
    fprintf(stderr, "grains: interrupted; the last checkpoint stays\n");
    return status;
}

/* A checkpoint every `every` steps (none for 0), after the frame of the step. */
static int checkpoint_due(const grains_sim *sim, long every) { return every > 0 && grains_sim_steps(sim) % every == 0; }

/* A signal caught by this process, or under mpirun by any rank (each
 * rank asks at the same step: they stop at the same one). */
static int caught(const run_job *j)
{
    return j->rk && j->rk->share.size > 1 ? cli_ranks_caught(j->rk) : signals_caught();
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

/* The stage the run is in ends before this step when it says so, and the next one's changes are
 * made; an error (a settled stage past its max_time, a change refused) stops the run, its last
 * checkpoint kept: 0 or the exit status. */
static int next_stage(grains_sim *sim, run_job *j)
{
    run_output *o = &j->out;
    grains_error err;
    int began;
    if (run_stages_step(o->sc, o->record, sim, &began, &err) != GRAINS_OK) {
        if (j->rk && j->rk->share.rank != 0) /* (every rank found the same: rank 0 says it) */
            return EXIT_UNSTABLE;
        cli_report(&err);
        fprintf(stderr, "grains: the last checkpoint stays\n");
        return EXIT_UNSTABLE;
    }
    if (began && !o->quiet) {
        const grains_scenario_stage *st = &o->sc->stages[o->record->stage];
        printf("stage %d%s%s%s begins at t = %.6g s\n", o->record->stage, st->name[0] ? " (" : "", st->name,
               st->name[0] ? ")" : "", grains_sim_time(sim));
    }
    return 0;
}

/* The steps up to frame f, then the frame; 0 or the exit status. */
static int run_to_frame(grains_sim *sim, run_job *j, long f, long every, progress *pg, double t_end)
{
    const grains_params *p = grains_sim_params(sim);
    run_output *o = &j->out;
    grains_error err;
    while (grains_sim_steps(sim) < f * p->N_steps) {
        int stopped = o->sc->n_stages ? next_stage(sim, j) : 0;
        if (stopped)
            return stopped;
        /* the frame's contacts: those of its last step (interact/contact_record.h) */
        grains_sim_record_contacts(sim, o->sc->write_contacts && grains_sim_steps(sim) == f * p->N_steps - 1);
        if (grains_sim_step(sim, &err) != GRAINS_OK)
            return err.status == GRAINS_ERR_STOPPED ? stopped_in_step(j, &err) : step_failed(sim, j, &err);
        progress_update(pg, grains_sim_time(sim), t_end, grains_sim_count(sim));
        int sig = caught(j);
        if (sig)
            return interrupted(o, sim, sig);
        if (checkpoint_due(sim, every) && grains_sim_steps(sim) < f * p->N_steps &&
            run_write_checkpoint(o, sim, NULL, &err) != GRAINS_OK)
            return output_failed(j, &err);
    }
    char label[32];
    snprintf(label, sizeof label, "%06ld", f);
    if (run_write_frame(o, sim, label, &err) != GRAINS_OK ||
        (checkpoint_due(sim, every) && run_write_checkpoint(o, sim, NULL, &err) != GRAINS_OK))
        return output_failed(j, &err);
    int sig = caught(j);
    return sig ? interrupted(o, sim, sig) : 0;
}

int run_frames(grains_sim *sim, run_job *j)
{
    const grains_params *p = grains_sim_params(sim);
    const run_output *o = &j->out;
    long every = o->sc->checkpoint_every < 0 ? p->N_steps : o->sc->checkpoint_every;
    if (every > 0) {
        signals_catch();
        grains_sim_ask_stop(sim, signals_asked, NULL);
    }
    progress pg;
    progress_init(&pg, !o->quiet && isatty(STDERR_FILENO));
    double t_end = (double)(p->N_frames * p->N_steps) * p->dt;
    int status = 0;
    grains_error err;
    /* a run that starts empty shows its first spawned grains in frame 0 */
    if (o->n_frames == 0 && grains_sim_steps(sim) == 0 && grains_sim_count(sim) == 0 &&
        grains_sim_spawn_ahead(sim, &err) != GRAINS_OK)
        return err.status == GRAINS_ERR_STOPPED ? stopped_in_step(j, &err) : (cli_report(&err), EXIT_INPUT);
    for (long f = (long)o->n_frames; f <= p->N_frames && status == 0; f++) {
        status = run_to_frame(sim, j, f, every, &pg, t_end);
    }
    progress_done(&pg);
    return status;
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
