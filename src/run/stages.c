/* A run's stages (grains_scenario.stages; docs/scenario.md, "Stages"):
 * before each step, whether the stage has ended (its duration, its time,
 * or settled: looked at every check_every steps of it), and then the next
 * one's changes (motions, insertion regions, gravity). Every rank decides
 * alike: from the time, and from the kinetic energy summed over them. The
 * run's record keeps where it is, so that a resumed run goes on in its
 * stage. */
#include <math.h>

#include "run/run.h"

/* Stage k's changes, in the order: motions, meshes removed, regions closed or opened, parameters
 * and gravity. */
static grains_status apply(const grains_scenario *sc, int k, grains_sim *sim, grains_error *err)
{
    const grains_scenario_stage *st = &sc->stages[k];
    grains_status s = GRAINS_OK;
    for (int m = 0; s == GRAINS_OK && m < st->n_motions; m++)
        s = grains_sim_set_motion(sim, (size_t)st->motion_mesh[m], &st->motion[m], err);
    for (int r = 0; s == GRAINS_OK && r < 32; r++)
        if (st->remove >> r & 1)
            s = grains_sim_remove_mesh(sim, (size_t)r, err);
    for (int r = 0; s == GRAINS_OK && r < GRAINS_MAX_SPAWNS; r++)
        if ((st->close >> r & 1) || (st->open >> r & 1))
            s = grains_sim_spawn_open(sim, r, (int)(st->open >> r & 1), err);
    if (s == GRAINS_OK && grains_scenario_stage_sets(st)) { /* the parameters as of this stage, g with them */
        grains_params p;
        grains_scenario_stage_params(sc, k, &p);
        s = grains_sim_set_params(sim, &p, err);
    } else if (s == GRAINS_OK && st->set_g) {
        s = grains_sim_set_gravity(sim, st->g, err);
    }
    if (s != GRAINS_OK && err) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        grains_error_set(err, s, sc->source[0] ? sc->source : NULL, st->line, "stages[%d] as it begins: %s", k, why);
    }
    return s;
}

grains_status run_stages_start(const grains_scenario *sc, run_record *r, grains_sim *sim, int resumed,
                               grains_error *err)
{
    if (!sc->n_stages)
        return GRAINS_OK;
    if (!resumed) {
        r->stage = 0;
        r->stage_began = grains_sim_time(sim);
        r->stage_step = grains_sim_steps(sim);
    }
    if (r->stage < 0 || r->stage > sc->n_stages)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "the run's record names stage %d: the scenario has %d",
                                r->stage, sc->n_stages);
    grains_status s = GRAINS_OK;
    /* (a resumed run: the checkpoint's state then replaces the motions and the regions' states) */
    for (int k = 0; s == GRAINS_OK && k <= r->stage && k < sc->n_stages; k++)
        s = apply(sc, k, sim, err);
    return s;
}

/* Whether the stage r is in, begun at r's time and step, has ended before this step. */
static grains_status ended(const grains_scenario *sc, const run_record *r, grains_sim *sim, int *done,
                           grains_error *err)
{
    const grains_scenario_stage *st = &sc->stages[r->stage];
    double t = grains_sim_time(sim), half = grains_sim_params(sim)->dt / 2;
    long steps = grains_sim_steps(sim) - r->stage_step;
    *done = 0;
    if (st->duration > 0)
        *done = t - r->stage_began >= st->duration - half;
    else if (st->until_time >= 0)
        *done = t >= st->until_time - half;
    else if (steps > 0 && (steps % st->check_every == 0 || t - r->stage_began > st->max_time)) {
        /* settled: every rank looks at the same steps, and at every step past max_time (a check_every
         * longer than max_time would let it pass unseen) */
        grains_sim_gather_thermo(sim);
        grains_thermo th;
        grains_sim_thermo(sim, &th);
        double held = th.e_kin + th.e_rot - th.e_lost; /* (a lost grain falls for ever) */
        *done = held < st->kinetic_energy;
        if (!*done && t - r->stage_began > st->max_time)
            return grains_error_set(err, GRAINS_ERR_NOT_MET, sc->source[0] ? sc->source : NULL, st->line,
                                    "stages[%d] (\"%s\") did not settle within max_time = %g: E_kin + E_rot = %g%s, "
                                    "above kinetic_energy = %g, at t = %g", r->stage, st->name, st->max_time, held,
                                    th.n_lost ? " (the lost grains' energy left out)" : "", st->kinetic_energy, t);
    }
    return GRAINS_OK;
}

grains_status run_stages_step(const grains_scenario *sc, run_record *r, grains_sim *sim, int *began,
                              grains_error *err)
{
    *began = 0;
    int done = 0;
    grains_status s = GRAINS_OK;
    /* (a stage may end as it begins; after the last, r->stage is n_stages) */
    while (s == GRAINS_OK && r->stage < sc->n_stages && (s = ended(sc, r, sim, &done, err)) == GRAINS_OK && done) {
        r->stage++;
        r->stage_began = grains_sim_time(sim);
        r->stage_step = grains_sim_steps(sim);
        if (r->stage < sc->n_stages) {
            s = apply(sc, r->stage, sim, err);
            *began = 1;
        }
    }
    return s;
}
