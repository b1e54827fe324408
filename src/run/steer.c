/* A run steered from a program (grains/run.h): `grains run`'s scenario,
 * simulation and outputs in one process, stepped and written when the
 * program asks. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grains/checkpoint.h"
#include "grains/run.h"
#include "run/run.h"

struct grains_run {
    grains_scenario sc;
    grains_sim *sim;
    run_record record;  /* its options (argv, owned here) and folder */
    int decoded;        /* the record read from a checkpoint (run_record_free frees it) */
    char **words;       /* the options the record points to (a resume's own, when decoded) */
    run_output out;
    int opened;         /* the outputs opened (the first frame or checkpoint) */
    int record_last;    /* each advance's last step records its contacts (grains_run_record_contacts) */
};

static grains_status out_of_memory(grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a run");
}

/* An empty run, its outputs' view of its scenario and record set (they
 * open at the first frame or checkpoint: open_outputs). */
static grains_run *new_run(void)
{
    grains_run *run = calloc(1, sizeof *run);
    if (run)
        run->out = (run_output){.sc = &run->sc, .quiet = 1, .record = &run->record};
    return run;
}

grains_status grains_run_open(grains_run **out, const char *scenario, int n, const char *const *keys,
                              const char *const *values, grains_error *err)
{
    grains_run *run = new_run();
    if (!run)
        return out_of_memory(err);
    run_flags fl;
    grains_status s = run_named_words(scenario, n, keys, values, 0, &run->words, &run->record.argc, err);
    run->record.argv = run->words;
    if (s == GRAINS_OK)
        s = run_record_check(run->record.argc, run->record.argv, err);
    if (s == GRAINS_OK && !getcwd(run->record.cwd, sizeof run->record.cwd))
        s = grains_error_set(err, GRAINS_ERR_IO, NULL, 0, "cannot name the current folder: %s", strerror(errno));
    if (s == GRAINS_OK) /* (its paths resolved now: a later chdir of the program's moves none of its files) */
        s = run_scenario_args_from(run->record.cwd, run->record.argc, run->record.argv, &run->sc, &fl, err);
    if (s == GRAINS_OK)
        s = run_load(&run->sc, NULL, &run->sim, err);
    if (s == GRAINS_OK)
        s = run_inputs_crc(&run->sc, &run->record.inputs_crc, err);
    if (s == GRAINS_OK)
        s = run_stages_start(&run->sc, &run->record, run->sim, 0, err);
    /* a run that starts empty shows its first spawned grains in frame 0, as grains run's */
    if (s == GRAINS_OK && grains_sim_count(run->sim) == 0)
        s = grains_sim_spawn_ahead(run->sim, err);
    if (s != GRAINS_OK) {
        grains_run_close(run);
        return s;
    }
    *out = run;
    return GRAINS_OK;
}

/* The run of the checkpoint's record, built in the folder it began in:
 * its scenario, its setting and the checkpoint's state. */
static grains_status rebuild(grains_run *run, const char *path, const run_resume_options *ro, grains_error *err)
{
    int argc = 0;
    char **argv = run_resume_args(&run->record, ro, 1, &argc);
    if (!argv)
        return out_of_memory(err);
    run_flags fl;
    grains_status s = run_rebuild_scenario(&run->record, argv, argc, NULL, 1, &run->sc, &fl, err);
    if (s == GRAINS_OK)
        s = run_load_setting(&run->sc, NULL, &run->sim, err);
    if (s == GRAINS_OK) /* the stages' changes up to its own, then the state replaces what they set */
        s = run_stages_start(&run->sc, &run->record, run->sim, 1, err);
    if (s == GRAINS_OK)
        s = grains_checkpoint_read_sim(path, run->sim, err);
    free(argv);
    return s;
}

/* The checkpoint's record, and the words that may follow its own (kept in
 * run->words: ro points to them). */
static grains_status read_record(grains_run *run, const char *path, int n, const char *const *keys,
                                 const char *const *values, run_resume_options *ro, grains_error *err)
{
    int argc = 0;
    grains_status s = run_named_words(NULL, n, keys, values, 1, &run->words, &argc, err);
    if (s == GRAINS_OK)
        s = run_resume_parse(argc, run->words, ro, err);
    void *bytes = NULL;
    size_t size = 0;
    if (s == GRAINS_OK)
        s = grains_checkpoint_peek_app(path, &bytes, &size, err);
    if (s == GRAINS_OK && (s = run_record_decode(&run->record, bytes, size, path, err)) == GRAINS_OK)
        run->decoded = 1;
    if (s != GRAINS_OK && bytes)
        s = run_checked_record(path, s, err);
    free(bytes);
    return s;
}

grains_status grains_run_resume(grains_run **out, const char *path, int n, const char *const *keys,
                                const char *const *values, grains_error *err)
{
    char full[PATH_MAX];
    if (!path)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a resume needs a checkpoint's path");
    grains_run *run = new_run();
    if (!run)
        return out_of_memory(err);
    run_resume_options ro;
    grains_status s = read_record(run, path, n, keys, values, &ro, err);
    if (s == GRAINS_OK && !realpath(path, full)) /* (read again by the state's reader) */
        s = grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot resolve: %s", strerror(errno));
    if (s == GRAINS_OK)
        s = rebuild(run, full, &ro, err);
    if (s != GRAINS_OK) {
        grains_run_close(run);
        return s;
    }
    *out = run;
    return GRAINS_OK;
}

void grains_run_close(grains_run *run)
{
    if (!run)
        return;
    if (run->opened)
        run_close_outputs(&run->out);
    grains_sim_destroy(run->sim);
    if (run->decoded)
        run_record_free(&run->record);
    run_words_free(run->words);
    free(run);
}

grains_sim *grains_run_sim(grains_run *run) { return run->sim; }

const grains_scenario *grains_run_scenario(const grains_run *run) { return &run->sc; }

const char *grains_run_output_dir(const grains_run *run) { return run->sc.output_dir; }

const char *grains_run_source(const grains_run *run) { return run->sc.source; }

const char *grains_run_probe_name(const grains_run *run, int k)
{
    return k >= 0 && k < run->sc.params.n_probes ? run->sc.probe_name[k] : NULL;
}

void grains_run_record_contacts(grains_run *run, int on) { run->record_last = on != 0; }

grains_status grains_run_advance(grains_run *run, long n, grains_error *err)
{
    if (n < 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%ld steps: a run advances 0 steps or more", n);
    run_stop stop;
    for (long k = 0; k < n; k++) /* (a frame's contacts: those of the step before it) */
        if (run_step(&run->out, run->sim, NULL, (run->sc.write_contacts || run->record_last) && k == n - 1, &stop,
                     err) != GRAINS_OK)
            return err->status;
    return GRAINS_OK;
}

static grains_status open_outputs(grains_run *run, grains_error *err);

/* How the loop stopped, as a status: a signal's as GRAINS_ERR_STOPPED
 * (with where its checkpoint is, or why there is none). */
static grains_status stopped(grains_run *run, run_stop stop, int sig, grains_error *err)
{
    if (stop == RUN_INTERRUPTED && err->status == GRAINS_OK)
        return grains_error_set(err, GRAINS_ERR_STOPPED, NULL, 0,
                                "signal %d at step %ld (t = %.9g): checkpoint in %s/checkpoint.grains", sig,
                                grains_sim_steps(run->sim), grains_sim_time(run->sim), run->sc.output_dir);
    if (stop == RUN_STEP_FAILED) { /* (the step's error stands, the last good state beside it) */
        grains_error werr;
        if (run_keep_last_good(&run->out, run->sim, err, &werr) != GRAINS_OK)
            return *err = werr, werr.status;
    }
    return err->status;
}

grains_status grains_run_to_end(grains_run *run, int catch_signals, grains_error *err)
{
    grains_status s = open_outputs(run, err);
    if (s != GRAINS_OK)
        return s;
    run_signals saved;
    run_driver d = {.caught = catch_signals ? run_signals_asked : NULL};
    if (catch_signals) {
        run_signals_catch(&saved);
        grains_sim_ask_stop(run->sim, run_signals_asked, NULL);
    }
    int sig;
    run_stop stop = run_loop(&run->out, run->sim, &d, &sig, err);
    if (catch_signals) {
        grains_sim_ask_stop(run->sim, NULL, NULL);
        run_signals_restore(&saved);
    }
    return stop == RUN_ENDED ? GRAINS_OK : stopped(run, stop, sig, err);
}

/* The outputs, at the first frame or checkpoint: a resumed run's as its
 * checkpoint left them. */
static grains_status open_outputs(grains_run *run, grains_error *err)
{
    if (run->opened)
        return GRAINS_OK;
    if (run->decoded)
        run_remove_stale_temporaries(run->sc.output_dir);
    grains_status s = run_open_outputs(&run->out, run->sim, err);
    if (s != GRAINS_OK) {
        run_close_outputs(&run->out);
        return s;
    }
    run->opened = 1;
    return GRAINS_OK;
}

grains_status grains_run_write_frame(grains_run *run, grains_error *err)
{
    grains_status s = open_outputs(run, err);
    return s == GRAINS_OK ? run_write_frame(&run->out, run->sim, NULL, err) : s;
}

size_t grains_run_frames(const grains_run *run) { return run->opened ? run->out.n_frames : run->record.n_frames; }

grains_status grains_run_write_checkpoint(grains_run *run, const char *path, grains_error *err)
{
    grains_status s = open_outputs(run, err);
    return s == GRAINS_OK ? run_write_checkpoint(&run->out, run->sim, path, err) : s;
}
