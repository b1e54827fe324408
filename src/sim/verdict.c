/* The step's verdicts: whether the forces of a step may stand (the threads' diags combined,
 * the forces checked finite), and the errors that
 * say why not (naming the particle, the time and the likely cause). */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "sim/sim_internal.h"

/* The id of the particle at storage index i, or (ranks holding their own
 * alone: i a place in the whole's order) the id noted with it. */
static long id_noted(const grains_sim *sim, long i, long id)
{
    return rank_holds_share(&sim->rank_view) ? id : (long)particles_id_of(&sim->pt, (uint32_t)i);
}

/* The message names the particle's id. */
static grains_status unstable(const grains_sim *sim, long i, grains_error *err, const char *what)
{
    double t = grains_sim_time(sim), dt49 = grains_params_default_dt(&sim->p);
    double fall = v3_norm(sim->p.g) * sim->p.dt * sim->p.dt / sim->p.R_min; /* a step's fall from rest, in R_min */
    char cause[320];
    if (!(fall < 0.1)) /* (a gravity a stage or a program set: the grains' placing is not to blame) */
        snprintf(cause, sizeof cause, "gravity |g| = %g moves a grain %.3g R_min in one step from rest: a g for "
                 "these units?", v3_norm(sim->p.g), fall);
    else if (sim->p.dt > dt49 * (1 + 1e-12))
        snprintf(cause, sizeof cause, "the timestep dt = %g is above Eq. 49's %g for this stiffness", sim->p.dt, dt49);
    else if (sim->step < 3)
        snprintf(cause, sizeof cause, "particles placed overlapping (or on a wall: mind its radius R_mesh) at the start");
    else
        snprintf(cause, sizeof cause,
                 "a material too soft for the speeds here (E = %g: raise it, or lower the speeds), or grains "
                 "pressed together by a wall or a load; dt = %g already follows Eq. 49", sim->p.E, sim->p.dt);
    grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0, "%s on particle %ld at t = %.9g (step %ld); likely cause: %s",
                     what, i, t, sim->step, cause);
    if (err) {
        err->particle = i;
        err->time = t;
    }
    return GRAINS_ERR_UNSTABLE;
}

/* Whether the forces of this step may be applied: finite, overlaps within
 * bounds. A pure function of the reduced diagnostics, so every thread of
 * the step's team reaches the same verdict. */
int sim_stable(const grains_sim *sim, const force_diag *total)
{
    return total->non_finite == LONG_MAX && !(total->max_num > sim->p.max_overlap * total->max_den);
}

grains_status sim_report_unstable(const grains_sim *sim, const force_diag *total, grains_error *err)
{
    if (total->non_finite != LONG_MAX)
        return unstable(sim, id_noted(sim, total->non_finite, total->non_finite_id), err, "non-finite contact force");
    char what[160];
    snprintf(what, sizeof what, "overlap delta/(2R*) = %.3g beyond max_overlap = %g", sim->max_overlap,
             sim->p.max_overlap);
    return unstable(sim, id_noted(sim, total->max_overlap_i, total->overlap_id), err, what);
}

grains_status sim_refuse_stopped(const grains_sim *sim, grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "step %ld %s: the simulation is in no state of the run; "
                            "go on from a checkpoint", sim->step,
                            sim->stopped == SIM_STOPPED_ASKED    ? "was stopped part-way on request"
                            : sim->stopped == SIM_STOPPED_REBUILD ? "failed part-way through a rebuild of the lists"
                                                                  : "left a state that is not finite and was not kept");
}

/* The first particle (storage index) whose position is not finite, or
 * whose velocity or spin squared is not (as speed2_max counts them), or -1. */
static long first_non_finite(const grains_sim *sim)
{
    const grains_particles *pt = &sim->pt;
    for (size_t i = 0; i < pt->n; i++)
        if (!v3_isfinite(pt->x[i]) ||
            !(speed2_max(0, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i])) < INFINITY))
            return (long)i;
    return -1;
}

/* After a step whose update left a speed that is not finite (a finite
 * force that overflowed a velocity: the update counts it as infinite):
 * the particle named, the state put back where it was kept (sim/last_good.c);
 * where it was not, the simulation takes no step more. */
grains_status sim_non_finite_state(grains_sim *sim, grains_error *err)
{
    long i = first_non_finite(sim);
    long id = i < 0 ? -1 : id_noted(sim, i, (long)sim->pt.id[i]);
    const sim_last_good *g = &sim->last_good;
    int kept = g->held && (g->n > 0 || sim->pt.n == 0); /* the particles too, not the meshes alone */
    sim_last_good_restore(sim);
    if (!kept) {
        sim->stopped = SIM_STOPPED_LOST;
        return unstable(sim, id, err, "a velocity or spin whose square is not finite (the state before the step "
                                      "was not kept: it is lost)");
    }
    return unstable(sim, id, err, "a velocity or spin whose square is not finite");
}

force_diag sim_reduce_diag(const grains_sim *sim)
{
    force_diag total = force_diag_empty();
    for (int t = 0; t < sim->nthreads; t++)
        force_diag_merge(&total, &sim->thread[t].diag);
    return total;
}

void sim_check_finite(const grains_sim *sim, force_diag *d)
{
    const grains_particles *pt = &sim->pt;
    slot_run alone;
    size_t n_runs;
    const slot_run *runs = sim_own_runs(sim, &alone, &n_runs);
    for (size_t r = 0; r < n_runs; r++) { /* a rank's own runs, one barrier after them all */
        const long n = (long)runs[r].hi;
#pragma omp for schedule(static) nowait
        for (long i = (long)runs[r].lo; i < n; i++)
            if ((!v3_isfinite(pt->f[i]) || !v3_isfinite(pt->t[i])) && i < d->non_finite)
                d->non_finite = i;
    }
#pragma omp barrier
}
