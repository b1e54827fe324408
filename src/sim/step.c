/* One timestep, in the order of TinyDEM's step(): neighbours, spawning,
 * contact forces, instability check, integration. */
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "sim/sim_internal.h"

static int lists_stale(const grains_sim *sim)
{
    return sim->need_rebuild || sim->displacement > sim->p.skin / 2 || sim->cs.failed;
}

/* Lowest index of a particle whose force or torque is not finite, or -1. */
static long first_non_finite(const grains_sim *sim)
{
    const grains_particles *pt = &sim->pt;
    long bad = LONG_MAX;
    const long n = (long)pt->n;
#pragma omp parallel for schedule(static) num_threads(sim->nthreads) reduction(min : bad)
    for (long i = 0; i < n; i++)
        if (!v3_isfinite(pt->f[i]) || !v3_isfinite(pt->t[i]))
            bad = i < bad ? i : bad;
    return bad == LONG_MAX ? -1 : bad;
}

/* `i` is a storage index; the message names the particle's id. */
static grains_status unstable(const grains_sim *sim, long i, grains_error *err, const char *what)
{
    i = (long)particles_id_of(&sim->pt, (uint32_t)i);
    double t = grains_sim_time(sim);
    grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                     "%s on particle %ld at t = %.9g (step %ld); likely cause: the timestep dt = %g is too large "
                     "for this stiffness (Eq. 49 gives %g) or particles were placed overlapping",
                     what, i, t, sim->step, sim->p.dt, grains_params_default_dt(&sim->p));
    if (err) {
        err->particle = i;
        err->time = t;
    }
    return GRAINS_ERR_UNSTABLE;
}

static grains_status check_stable(const grains_sim *sim, grains_error *err)
{
    long bad = first_non_finite(sim);
    if (bad >= 0)
        return unstable(sim, bad, err, "non-finite contact force");
    if (sim->max_overlap > sim->p.max_overlap) {
        char what[160];
        snprintf(what, sizeof what, "overlap delta/(2R*) = %.3g beyond max_overlap = %g", sim->max_overlap,
                 sim->p.max_overlap);
        return unstable(sim, sim->diag.max_overlap_i, err, what);
    }
    return GRAINS_OK;
}

grains_status grains_sim_step(grains_sim *sim, grains_error *err)
{
    grains_status s = GRAINS_OK;
    if (lists_stale(sim) && (s = sim_rebuild(sim, err)) != GRAINS_OK)
        return s;
    size_t added = 0;
    if ((s = sim_spawn(sim, &added, err)) != GRAINS_OK)
        return s;
    if (added && (s = sim_rebuild(sim, err)) != GRAINS_OK)
        return s;
    sim_forces(sim);
    if ((s = check_stable(sim, err)) != GRAINS_OK)
        return s;
    real v_max = integrate_euler_spiral(&sim->pt, &sim->p, sim->nthreads);
    sim->displacement += v_max * sim->p.dt;
    sim->step++;
    return GRAINS_OK;
}

grains_status grains_sim_advance(grains_sim *sim, long n, grains_error *err)
{
    for (long k = 0; k < n; k++) {
        grains_status s = grains_sim_step(sim, err);
        if (s != GRAINS_OK)
            return s;
    }
    return GRAINS_OK;
}
