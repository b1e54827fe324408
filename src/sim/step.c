/* One timestep, in the order of TinyDEM's step(): neighbours, spawning,
 * contact forces, instability check, integration. */
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "sim/sim_internal.h"

static real largest_radius(const grains_particles *pt)
{
    real R = 0;
    for (size_t i = 0; i < pt->n; i++)
        R = fmax(R, pt->R[i]);
    return R;
}

/* Where each particle goes: in the dead candidate list when it is long
 * enough (it is rebuilt below), else in memory of its own. */
static uint32_t *move_table(grains_sim *sim, int *owned)
{
    *owned = !sim->nb.j || sim->nb.cap < sim->pt.n;
    return *owned ? malloc((sim->pt.n ? sim->pt.n : 1) * sizeof(uint32_t)) : sim->nb.j;
}

/* Bins the particles, moves them into spatial order and renames the
 * contact keys after them. */
static grains_status sort_particles(grains_sim *sim, grains_error *err)
{
    grains_particles *pt = &sim->pt;
    int owned;
    uint32_t *where = move_table(sim, &owned);
    if (!where)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory sorting particles");
    /* The old candidate list is dead from here on (histories re-attach by
     * their keys), so the grid may sort in its memory. */
    grains_status s = grid_build(&sim->grid, pt->x, pt->n, sim->cell, where, sim->nb.h, sim->nb.cap * sizeof *sim->nb.h, err);
    if (s == GRAINS_OK) {
        store_remap(&sim->cs, where, sim->nthreads);
        particles_permute(pt, where);
    }
    if (owned)
        free(where);
    return s;
}

grains_status sim_rebuild(grains_sim *sim, grains_error *err)
{
    grains_particles *pt = &sim->pt;
    real R_big = largest_radius(pt);
    /* A cell must hold every pair within reach (2 R_big + skin), and every
     * particle a spawn attempt of radius R_max may touch after moving skin/2. */
    sim->cell = fmax(2 * R_big, R_big + sim->p.R_max) + sim->p.skin;
    grains_status s = store_compact(&sim->cs, err);
    if (s == GRAINS_OK)
        s = sort_particles(sim, err);
    if (s == GRAINS_OK)
        s = neighbors_build_pairs(&sim->nb, &sim->grid, pt->x, pt->R, pt->n, sim->p.skin, sim->nthreads, err);
    if (s == GRAINS_OK)
        s = neighbors_build_mesh(&sim->nb, &sim->grid, sim->mesh, pt->x, pt->R, pt->n, R_big, sim->p.skin, err);
    if (s != GRAINS_OK)
        return s;
    neighbors_attach_contacts(&sim->nb, &sim->cs, sim->nthreads);
    s = store_reserve_spare(&sim->cs, sim->nb.n_touching, err);
    sim->displacement = 0;
    sim->need_rebuild = 0;
    sim->n_rebuilds++;
    return s;
}

static int lists_stale(const grains_sim *sim)
{
    return sim->need_rebuild || sim->displacement > sim->p.skin / 2 || store_overflowed(&sim->cs);
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
    i = (long)sim->pt.id[i];
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
