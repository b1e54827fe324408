/* The run loop (TinyDEM Section 6: frames every N_steps steps, N_frames
 * times after frame 0): the one `grains run` and a program's run
 * (grains_run_to_end, grains_run_advance) both step through. Before each
 * step the stage may end and the next begin; the frame's last step records
 * its contacts; after each step the caller's stop question is asked (a
 * signal: a checkpoint at that step), and a checkpoint is written every
 * `checkpoint_every` steps. Among ranks every rank calls it alike: each
 * step's verdict and the stop question are agreed (the caller's). */
#include "run/run.h"

grains_status run_step(run_output *o, grains_sim *sim, const run_driver *d, int contacts, run_stop *stop,
                       grains_error *err)
{
    int began = 0;
    if (o->sc->n_stages && run_stages_step(o->sc, o->record, sim, &began, err) != GRAINS_OK) {
        *stop = RUN_STAGE_FAILED;
        return err->status;
    }
    if (began && d && d->stage_began)
        d->stage_began(d->ctx, o->record->stage, grains_sim_time(sim));
    /* the frame's contacts: those of its last step (interact/contact_record.h) */
    grains_sim_record_contacts(sim, contacts);
    if (grains_sim_step(sim, err) != GRAINS_OK) {
        *stop = err->status == GRAINS_ERR_STOPPED ? RUN_STOPPED_IN_STEP : RUN_STEP_FAILED;
        return err->status;
    }
    return GRAINS_OK;
}

long run_checkpoint_every(const grains_scenario *sc, const grains_params *p)
{
    return sc->checkpoint_every < 0 ? p->N_steps : sc->checkpoint_every;
}

/* A checkpoint every `every` steps (none for 0). */
static int checkpoint_due(const grains_sim *sim, long every) { return every > 0 && grains_sim_steps(sim) % every == 0; }

/* The caller's stop question after a step or a frame: a signal stops the
 * run with a checkpoint at this step (its failure in err). */
static int asked_to_stop(run_output *o, grains_sim *sim, const run_driver *d, run_stop *stop, int *signal,
                         grains_error *err)
{
    int sig = d && d->caught ? d->caught(d->ctx) : 0;
    if (!sig)
        return 0;
    *signal = sig;
    *stop = RUN_INTERRUPTED;
    if (run_write_checkpoint(o, sim, NULL, err) == GRAINS_OK)
        err->status = GRAINS_OK;
    return 1;
}

/* The steps up to frame f, then the frame: 0, or 1 with *stop set. */
static int to_frame(run_output *o, grains_sim *sim, const run_driver *d, long f, long every, run_stop *stop,
                    int *signal, grains_error *err)
{
    long end = f * grains_sim_params(sim)->N_steps;
    while (grains_sim_steps(sim) < end) {
        if (run_step(o, sim, d, o->sc->write_contacts && grains_sim_steps(sim) == end - 1, stop, err) != GRAINS_OK)
            return 1;
        if (d && d->stepped)
            d->stepped(d->ctx, sim);
        if (asked_to_stop(o, sim, d, stop, signal, err))
            return 1;
        if (checkpoint_due(sim, every) && grains_sim_steps(sim) < end &&
            run_write_checkpoint(o, sim, NULL, err) != GRAINS_OK)
            return *stop = RUN_OUTPUT_FAILED, 1;
    }
    char label[32];
    snprintf(label, sizeof label, "%06ld", f);
    if (run_write_frame(o, sim, label, err) != GRAINS_OK ||
        (checkpoint_due(sim, every) && run_write_checkpoint(o, sim, NULL, err) != GRAINS_OK))
        return *stop = RUN_OUTPUT_FAILED, 1;
    return asked_to_stop(o, sim, d, stop, signal, err);
}

run_stop run_loop(run_output *o, grains_sim *sim, const run_driver *d, int *signal, grains_error *err)
{
    const grains_params *p = grains_sim_params(sim);
    long every = run_checkpoint_every(o->sc, p);
    run_stop stop = RUN_ENDED;
    *signal = 0;
    err->status = GRAINS_OK;
    /* a run that starts empty shows its first spawned grains in frame 0 */
    if (o->n_frames == 0 && grains_sim_steps(sim) == 0 && grains_sim_count(sim) == 0 &&
        grains_sim_spawn_ahead(sim, err) != GRAINS_OK)
        return err->status == GRAINS_ERR_STOPPED ? RUN_STOPPED_IN_STEP : RUN_START_FAILED;
    for (long f = (long)o->n_frames; f <= p->N_frames; f++)
        if (to_frame(o, sim, d, f, every, &stop, signal, err))
            return stop;
    return RUN_ENDED;
}

grains_status run_keep_last_good(run_output *o, grains_sim *sim, const grains_error *why, grains_error *err)
{
    if (why->status != GRAINS_ERR_UNSTABLE || grains_sim_stopped(sim))
        return GRAINS_OK;
    return run_write_frame(o, sim, "_last_good", err);
}
