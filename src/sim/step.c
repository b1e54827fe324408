/* One timestep, one shape for every integrator (integrate/integrator.h):
 * the integrator begins, boundaries move, neighbours update if stale,
 * sources add (bonds, spawning), the integrator advances, time advances. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/hooks.h"
#include "neighbor/block_share.h"
#include "sim/sim_internal.h"

#ifdef _OPENMP
#include <omp.h>
#define THREAD_ID() omp_get_thread_num()
#define THREAD_COUNT() omp_get_num_threads()
#else
#define THREAD_ID() 0
#define THREAD_COUNT() 1
#endif

/* How far any mesh element (a wall's point, a membrane's patch) has moved
 * since the lists were built. */
static real elements_moved(const grains_sim *sim)
{
    return fmax(walls_displacement(&sim->wl), sim_membranes_count(&sim->mb) ? sim_membranes_displacement(&sim->mb) : 0);
}

/* A pair listed within the skin can touch only after the two have closed
 * it: particles by 2 x their bound, a particle and a wall (or a membrane's
 * patch) by the particle's bound plus the element's displacement; a
 * newcomer, listed nowhere, as soon as it comes within reach of anything
 * (sim/newcomers.c). */
static int lists_stale(const grains_sim *sim)
{
    real elements = elements_moved(sim);
    return sim->need_rebuild || sim->displacement > sim->p.skin / 2 || sim->displacement + elements > sim->p.skin ||
           sim_strays_close(sim, elements) || sim->diag.history_failed || sim_newcomers_near(sim, elements);
}

/* Boundaries move to where the forces of this step see them: at t with
 * Euler (forces from x(t), v(t)), at t + dt with Verlet (forces from
 * x(t + dt), v(t + dt/2)): the row's place_at and rates_at. */
static grains_status move_boundaries(grains_sim *sim, grains_error *err)
{
    if (!sim->wl.any_moving)
        return GRAINS_OK;
    real t = grains_sim_time(sim), dt = sim->p.dt;
    const integrator *in = sim->integrator;
    return walls_move(&sim->wl, sim->mesh, t + in->place_at * dt, t + in->rates_at * dt, err);
}

/* fn on this thread's region of every colour phase (those of the threads
 * a smaller team lacks shared out) and on its part of the newcomers after
 * the blocks; the largest squared speed it saw. */
static real move_own_regions(grains_sim *sim, particle_loop_fn fn)
{
    const grains_grid *g = &sim->grid;
    real most = 0, v2;
    for (int phase = 0; phase < g->n_phases; phase++)
        for (int t = THREAD_ID(); t < sim->nthreads; t += THREAD_COUNT()) {
            uint32_t b0, b1, lo, hi;
            block_share(g, sim->block_work, phase, t, sim->nthreads, &b0, &b1);
            block_particles(g, b0, b1, &lo, &hi);
            integrate_view own = sim_view(sim, lo, hi);
            own.own = 1;
            fn(&own, &v2);
            most = v2 > most ? v2 : most; /* (speed2_max's: a state not finite is INFINITY) */
        }
    integrate_view late = sim_view(sim, g->n_particles, sim->pt.n);
    fn(&late, &v2);
    return v2 > most ? v2 : most;
}

/* What each thread of the step's team does: every loop is shared out among
 * the team, with no fork and join between them. */
static void forces_and_motion_team(grains_sim *sim)
{
    int tid = THREAD_ID();
    force_diag *d = &sim->thread[tid].diag;
    *d = force_diag_empty();
    sim->v2_thread[tid] = 0;
    force_view fv = sim_forces_of(sim);
    if (sim->regions_weighed)
        fv.block_work = sim->block_work, fv.block_next = sim->block_next, fv.block_regions = sim->nthreads;
    sim_forces(&fv, d, &sim->thread[tid].queue, sim->cand_thread ? sim->cand_thread[tid] : NULL);
    if (sim->rec.requested) {
#pragma omp single
        contact_record_sums(&sim->rec, &sim->pt, sim->step); /* the contacts' sums, before bonds and the update */
    }
    if (sim_bonds_count(&sim->bonds)) { /* after every contact: one order of summation */
        const bonds_view bv = sim_bonds_of(sim);
        size_t n_own; /* its own particles' bonds alone (listed at the cut) */
        const uint32_t *own = rank_bonds_own(&sim->rank_view, &n_own);
        sim_bond_forces(&bv, sim_ranks_halo_steps(sim) ? own : NULL, n_own, sim->nthreads, d);
    }
    sim_plane_forces(sim);    /* 2D: out of the plane, nothing */
    sim_check_finite(sim, d); /* ends with a barrier: all slots are final */
    force_diag total = sim_reduce_diag(sim);
    if (sim_shared(sim)) { /* every rank's verdict, on the master thread (MPI funneled) */
#pragma omp master
        sim_ranks_diag(&sim->rank_view, total);
#pragma omp barrier
        total = rank_verdict(&sim->rank_view);
    }
    if (sim_stable(sim, &total)) {
        if (sim->guide.on) {
#pragma omp single
            sim_guide_hold(sim); /* its barrier: the update sees the held force */
        }
        particle_loop_fn update = sim->kernels->loop[sim->integrator->update];
        if (sim->regions_weighed) {
            sim->v2_thread[tid] = move_own_regions(sim, update);
            return;
        }
        slot_run alone;
        size_t n_runs;
        const slot_run *runs = sim_own_runs(sim, &alone, &n_runs); /* a rank's own */
        slot_run late;
        int newcomers = sim_newcomers_run(sim, &late); /* on ranks: every rank moves them alike */
        for (size_t r = 0; r < n_runs + (size_t)newcomers; r++) {
            slot_run run = r < n_runs ? runs[r] : late;
            integrate_view view = sim_view(sim, run.lo, run.hi);
            real v2 = 0;
            update(&view, &v2);
            if (r == 0 || v2 > sim->v2_thread[tid])
                sim->v2_thread[tid] = v2;
        }
    }
}

/* Forces, check and integration in one parallel region. One thread runs
 * the same loops without a region (orphaned worksharing runs serially):
 * libgomp's barriers cost a dozen futex calls per step even in a team of one. */
static force_diag forces_and_motion(grains_sim *sim)
{
    sim->regions_weighed = sim_weigh_blocks(sim);
    if (sim->nthreads > 1) {
#pragma omp parallel num_threads(sim->nthreads)
        forces_and_motion_team(sim);
    } else {
        forces_and_motion_team(sim);
    }
    sim->regions_weighed = 0;
    return sim_shared(sim) ? rank_verdict(&sim->rank_view) : sim_reduce_diag(sim);
}

/* The largest squared speed the threads saw. */
static real max_speed2(const grains_sim *sim)
{
    real max_v2 = 0;
    for (int t = 0; t < sim->nthreads; t++)
        max_v2 = fmax(max_v2, sim->v2_thread[t]);
    return max_v2;
}

/* Shared among ranks between rebuilds: every particle moves, the own ones
 * and the copies of others' (those of the halo as their owners move them,
 * from the same inputs), in runs that end where the own ones start or end;
 * the largest speed is over the own ones alone. */
static void begin_own_team(grains_sim *sim, particle_loop_fn fn)
{
    slot_run alone;
    size_t n_runs;
    const slot_run *runs = sim_own_runs(sim, &alone, &n_runs);
    real own = 0, v2;
    uint32_t at = 0, n = (uint32_t)sim->pt.n;
    for (size_t r = 0; r <= n_runs; r++) {
        uint32_t lo = r < n_runs ? runs[r].lo : n;
        integrate_view others = sim_view(sim, at, lo);
        if (at < lo)
            fn(&others, &v2);
        if (r == n_runs)
            break;
        integrate_view mine = sim_view(sim, runs[r].lo, runs[r].hi);
        fn(&mine, &v2);
        own = v2 > own ? v2 : own;
        at = runs[r].hi;
    }
    sim->v2_thread[THREAD_ID()] = own;
}

static void begin_team(grains_sim *sim, particle_loop_fn fn)
{
    if (sim_ranks_halo_steps(sim)) {
        begin_own_team(sim, fn);
        return;
    }
    if (sim->regions_weighed) {
        sim->v2_thread[THREAD_ID()] = move_own_regions(sim, fn);
        return;
    }
    integrate_view view = sim_view(sim, 0, sim->pt.n);
    fn(&view, &sim->v2_thread[THREAD_ID()]);
}

/* The row's begin (Verlet's first half kick and drift), before any
 * neighbour search: the positions the forces see are then x(t + dt). */
static void begin(grains_sim *sim)
{
    particle_loop_fn fn = sim->kernels->loop[sim->integrator->begin]; /* this CPU's copy */
    if (!fn)
        return;
    sim->regions_weighed = sim_weigh_blocks(sim);
    if (sim->nthreads > 1) {
#pragma omp parallel num_threads(sim->nthreads)
        begin_team(sim, fn);
    } else {
        begin_team(sim, fn);
    }
    sim->regions_weighed = 0;
    slot_run all = {0, (uint32_t)sim->pt.n}, alone;
    size_t n_runs = 1;
    int own = sim_ranks_halo_steps(sim); /* the speeds noted: the own ones' (begin_team) */
    sim_strays_split(sim, own ? sim_own_runs(sim, &alone, &n_runs) : &all, n_runs);
    if (own)
        sim_ranks_begun(&sim->rank_view);
    sim_strays_advance(sim, 1);
}

/* The membranes' vertices by the row's scheme (integrate/vertices.c). */
static void move_vertices(grains_sim *sim, void (*fn)(const vertex_view *))
{
    if (!fn || !sim_membranes_vertex_count(&sim->mb))
        return;
    sim_membranes_move(&sim->mb, fn, sim->p.g, sim->p.dt);
    sim_membranes_place(&sim->mb, sim->mesh); /* the patches where the vertices are */
}

/* Pinned vertices where their meshes are (after the vertices or the
 * meshes moved), and the patches with them. */
static void pin_vertices(grains_sim *sim)
{
    if (!sim_membranes_any_pinned(&sim->mb))
        return;
    sim_membranes_follow(&sim->mb, &sim->wl);
    sim_membranes_place(&sim->mb, sim->mesh);
}

/* The membranes' own forces, before anything moves in this advance: a
 * non-finite one stops the step there. */
static grains_status membrane_forces(grains_sim *sim, grains_error *err)
{
    /* at the time of the positions the begin has moved them to */
    real t = grains_sim_time(sim) + sim->integrator->place_at * sim->p.dt;
    long bad = sim_membranes_vertex_count(&sim->mb) ? sim_membranes_forces(&sim->mb, t) : -1;
    if (bad < 0)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_UNSTABLE, NULL, 0,
                            "non-finite force on a membrane vertex (%ld of all membranes' vertices) at t = %.9g "
                            "(step %ld); likely cause: dt = %g is too large for the membrane's springs",
                            bad, grains_sim_time(sim), sim->step, sim->p.dt);
}

/* Neighbours, if the lists are stale. */
static grains_status refresh_lists(grains_sim *sim, grains_error *err)
{
    return lists_stale(sim) ? sim_rebuild(sim, err) : GRAINS_OK;
}

/* What adds to the system: bonds formed at the first step, spawned
 * particles (then new lists). */
static grains_status sources(grains_sim *sim, grains_error *err)
{
    grains_status s = GRAINS_OK;
    if (!sim_bonds_formed(&sim->bonds) && sim->p.bond_tolerance > 0) {
        sim_bonds_mark_formed(&sim->bonds);
        const bonds_view bv = sim_bonds_of(sim);
        const uint8_t *mine = rank_holds_share(&sim->rank_view) ? rank_mine(&sim->rank_view) : NULL; /* pairs with an own one */
        size_t had = sim_bonds_count(&sim->bonds);
        s = sim_bonds_form(&bv, &sim->nb, mine, grains_sim_count(sim), err);
        sim->need_rebuild |= sim_bonds_count(&sim->bonds) > had; /* the index by slot */
        if (s != GRAINS_OK ||
            (sim_ranks_bonds_formed(&sim->rank_view) && (s = sim_rebuild(sim, err)) != GRAINS_OK)) /* (the whole's count) */
            return s;
    }
    size_t added = 0;
    if (sim->spawned_ahead == sim->step) /* grains_sim_spawn_ahead did this step's */
        sim->spawned_ahead = -1;
    else if ((s = sim_spawn_step(sim, &added, err)) != GRAINS_OK)
        return s;
    /* (those that may wait as newcomers wait, unless one is already within reach) */
    return added && (sim->need_rebuild || sim_newcomers_near(sim, elements_moved(sim))) ? sim_rebuild(sim, err)
                                                                                         : GRAINS_OK;
}

/* An explicit row's advance: the membranes' forces; the particles'
 * forces, check and the row's update in one team; the walls' sums gathered
 * in block order; the membranes' vertices moved. */
static grains_status explicit_advance(grains_sim *sim, grains_error *err)
{
    grains_status s = membrane_forces(sim, err);
    if (s == GRAINS_OK && sim_shared(sim))
        s = sim_ranks_before_forces(&sim->rank_view, err); /* what the ranks do not share refused; the cut, if none holds */
    if (s != GRAINS_OK)
        return s;
    sim->rec.valid = 0;
    int sample = sim_box_sample_begin(sim); /* (records the contacts) */
    if (sim->rec.requested && !contact_record_begin(&sim->rec, &sim->pt, sim->grid.n_blocks, sim->nthreads)) {
        sim_box_sample_take(sim, sample, 0);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory recording the contacts");
    }
    force_diag total = forces_and_motion(sim);
    sim_box_sample_take(sim, sample, sim_stable(sim, &total));
    slot_run alone;
    size_t n_runs;
    const slot_run *runs = sim_own_runs(sim, &alone, &n_runs); /* (the update's) */
    sim_strays_split(sim, runs, n_runs);
    if (total.bonds_broke) /* merged over the ranks: every rank rebuilds */
        sim->need_rebuild = 1;
    if (sim_shared(sim) && sim_stable(sim, &total))
        sim_ranks_exchange_step(&sim->rank_view); /* each rank's particles, or the halo each reads, and the largest speed */
    const membrane_view mv = sim_membranes_of(sim);
    if (sim_membranes_count(&sim->mb))
        sim_gather_patch_logs(&mv); /* the grains' push on the membranes */
    if (sim->wl.n && (!sim_shared(sim) || sim_ranks_sums_each_step(sim))) {
        if (!rank_holds_share(&sim->rank_view)) /* (else summed by block names in the step's exchange) */
            walls_gather(&sim->wl, sim->grid.n_blocks);
        sim_membranes_pull_walls(&sim->mb, &sim->wl);
    }
    sim->diag = total;
    if (!sim_stable(sim, &total)) {
        if (sim->pt.f) /* f and t: one block */
            memset(sim->pt.f, 0, 2 * sim->pt.cap * sizeof *sim->pt.f);
        real kept = sim->max_overlap;
        sim->max_overlap = total.max_num / total.max_den; /* (the message's) */
        grains_status refused = sim_report_unstable(sim, &total, err);
        sim->max_overlap = kept; /* the thermo stays the last good step's (an inf overlap is no figure to write) */
        return refused;
    }
    sim->max_overlap = total.max_num / total.max_den;
    sim_strays_advance(sim, sim->integrator->update_moves);
    if (sim_membranes_count(&sim->mb)) /* from the push gathered above, now the step has held; the time membrane_forces() applied */
        sim_hold_confinement(&mv, grains_sim_time(sim) + sim->integrator->place_at * sim->p.dt, sim->p.dt);
    move_vertices(sim, sim->integrator->vertex_update);
    pin_vertices(sim);
    return GRAINS_OK;
}

/* An implicit row's advance: Newton iterations over the force field of
 * this step's lists (interact/implicit_field.c), the check, the update. */
static grains_status implicit_advance(grains_sim *sim, grains_error *err)
{
    sim->rec.valid = 0; /* recording: explicit rows only */
    implicit_field field;
    grains_status s = sim_implicit_field(sim, &field, err);
    if (s != GRAINS_OK)
        return s;
    integrate_view view = sim_view(sim, 0, sim->pt.n);
    real moved = 0;
    if ((s = sim->integrator->advance(&sim->vi, &field, &view, &moved, err)) != GRAINS_OK)
        return s;
    sim->displacement += moved;
    return GRAINS_OK;
}

/* Everything the step does after the row's begin; on failure the state
 * is put back to before the begin (sim/last_good.c). */
static grains_status after_begin(grains_sim *sim, grains_error *err)
{
    const integrator *in = sim->integrator;
    grains_status s;
    sim_shear_place(sim, in->place_at); /* (as the boundaries) */
    if ((s = sim_shear_refusals(sim, err)) != GRAINS_OK)
        return s;
    move_vertices(sim, in->vertex_begin);
    if ((s = move_boundaries(sim, err)) != GRAINS_OK)
        return s;
    pin_vertices(sim);
    if ((s = refresh_lists(sim, err)) != GRAINS_OK || (s = sources(sim, err)) != GRAINS_OK)
        return s;
    return in->advance ? implicit_advance(sim, err) : explicit_advance(sim, err);
}

grains_status grains_sim_step(grains_sim *sim, grains_error *err)
{
    grains_status s;
    if (sim->stopped)
        return sim_refuse_stopped(sim, err);
    if ((s = sim_last_good_take(sim, sim_last_good_needed(sim, sqrt(max_speed2(sim))), err)) != GRAINS_OK)
        return s;
    if (sim->p.n_probes && (s = sim_probes_before(sim, err)) != GRAINS_OK)
        return s;
    begin(sim); /* (a Verlet drift's speeds, or else the last update's, finite) */
    s = max_speed2(sim) < INFINITY ? after_begin(sim, err) : sim_non_finite_state(sim, err);
    if (s == GRAINS_OK && !(max_speed2(sim) < INFINITY))
        s = sim_non_finite_state(sim, err);
    if (s != GRAINS_OK) {
        sim_last_good_restore(sim);
        return s;
    }
    real t_old = grains_sim_time(sim);
    sim->step++;
    sim_shear_advance(sim);
    sim_box_advance(sim);
    real grown = sim_grow(&sim->pt, &sim->p, t_old, grains_sim_time(sim));
    sim->displacement += grown; /* a pair's gap closed by it */
    sim->strays.moved += grown;
    sim_apply_tag_rules(sim);
    if (sim->p.n_probes && (s = sim_probes_after(sim, err)) != GRAINS_OK)
        return s;
    return sim_sinks_apply(sim, err);
}

int grains_sim_stopped(const grains_sim *sim) { return sim->stopped != 0; }

grains_status grains_sim_advance(grains_sim *sim, long n, grains_error *err)
{
    for (long k = 0; k < n; k++) {
        grains_status s = grains_sim_step(sim, err);
        if (s != GRAINS_OK)
            return s;
    }
    return GRAINS_OK;
}
