/* What a run says when it starts (what runs, for how long, where the
 * output goes) and when it ends (the time it took, how to open the
 * result). Not with --quiet. */
#include <stdio.h>

#include "cli/run.h"

void banner_start(const run_output *o, const grains_sim *sim)
{
    if (o->quiet)
        return;
    const grains_params *p = grains_sim_params(sim);
    const grains_scenario *sc = o->sc;
    long steps = p->N_frames * p->N_steps;
    printf("grains %s: %s\n", GRAINS_VERSION,
           sc->source[0] ? sc->source : "the default simulation (TinyDEM's hourglass, Table 2)");
    printf("  %zu particles", grains_sim_count(sim));
    int regions = grains_params_n_spawns(p);
    if (regions)
        printf(", spawning up to %ld in all from %d region%s", p->N_max, regions, regions == 1 ? "" : "s");
    printf("; dt = %.4g s, %ld frames of %ld steps to t = %.6g s; %d thread%s\n", p->dt, p->N_frames, p->N_steps,
           (double)steps * p->dt, grains_sim_threads(sim), grains_sim_threads(sim) == 1 ? "" : "s");
    if (o->record->n_frames > 0)
        printf("  resuming %s/ after frame %zu (step %ld)\n", sc->output_dir, o->record->n_frames - 1,
               grains_sim_steps(sim));
    printf("  output: %s/\n", sc->output_dir);
    fflush(stdout);
}

/* Why each insertion region stopped, or that it still adds. */
static void print_spawn_reports(const grains_sim *sim)
{
    const grains_params *p = grains_sim_params(sim);
    for (int k = 0; k < grains_params_n_spawns(p); k++) {
        grains_spawn_report r = grains_sim_spawn_report(sim, k);
        long count = grains_params_spawn(p, k).count;
        double dt = p->dt;
        printf("  spawn region %d: %ld added; ", k, r.added);
        switch (r.stop) {
        case GRAINS_SPAWN_COUNT_REACHED: printf("its count %ld reached at t = %.6g s\n", count, (double)r.stop_step * dt); break;
        case GRAINS_SPAWN_FULL:
            printf("stopped full at t = %.6g s (no attempt fit for full_after = %ld steps)\n", (double)r.stop_step * dt,
                   grains_params_spawn(p, k).full_after);
            break;
        case GRAINS_SPAWN_N_MAX: printf("the run holds N_max = %ld particles\n", p->N_max); break;
        case GRAINS_SPAWN_CLOSED: printf("closed by a stage at t = %.6g s\n", (double)r.stop_step * dt); break;
        case GRAINS_SPAWN_ACTIVE:
            if (r.idle_steps > 0)
                printf("still adding; full for the last %ld steps (no attempt fit)\n", r.idle_steps);
            else
                printf("still adding when the run ended\n");
            break;
        }
    }
}

/* Under mpirun: what rank 0's steps exchanged, and the time it took. */
static void print_ranks_report(const run_job *j, const grains_sim *sim, double seconds)
{
    grains_ranks_stats st = grains_sim_ranks_stats(sim);
    if (!j->rk || j->rk->share.size < 2 || st.steps == 0)
        return;
    double cuts = st.cuts ? (double)st.cuts : 1;
    char readers[64] = ""; /* the halo's messages, when the steps sent it alone */
    if (st.halo_steps)
        snprintf(readers, sizeof readers, ", to %.3g ranks per step", (double)st.messages / (double)st.halo_steps);
    char held[96] = ""; /* when the ranks hold their own particles alone */
    size_t n = grains_sim_count(sim);
    if (n && st.held < (double)n)
        snprintf(held, sizeof held, ", held %.3g%% of them (its own, and copies of their partners)",
                 100 * st.held / (double)n);
    printf("ranks: %d; rank 0 sent %.3g bytes per step and received %.3g (its halo alone on %ld of %ld steps: "
           "%.3g%% of its particles%s), %.3g s in exchanges (%.3g%% of the steps' time), "
           "and built the lists of %.3g%% of the "
           "particles%s; the most work a rank got over the mean: %.3f (mean of %ld cuts, %ld of them bisected anew), "
           "%.3f at worst\n",
           j->rk->share.size, st.bytes / (double)st.steps, st.received / (double)st.steps, st.halo_steps, st.steps,
           st.particles > 0 ? 100 * st.halo / st.particles : 0.0, readers, st.seconds,
           seconds > 0 ? 100 * st.seconds / seconds : 0.0, st.cuts ? 100 * st.listed / cuts : 100.0, held,
           st.cuts ? st.imbalance / cuts : 1.0, st.cuts, st.bisections, st.worst);
}

void banner_end(const run_job *j, const grains_sim *sim, long steps, double seconds)
{
    const run_output *o = &j->out;
    if (o->quiet)
        return;
    const grains_scenario *sc = o->sc;
    printf("done: %ld steps in %.3g s (%.3g steps/s, %zu particles at the end; %.3g s of it writing frames and "
           "checkpoints; the lists rebuilt %zu times since the start)\n", steps, seconds,
           seconds > 0 ? (double)steps / seconds : 0.0, grains_sim_count(sim), o->output_seconds,
           grains_sim_rebuilds(sim));
    print_spawn_reports(sim);
    print_ranks_report(j, sim, seconds);
    if (grains_sim_strays_overflowed(sim))
        printf("note: %zu rebuilds of the lists found more than 64 grains lost out of the meshes' box: past 64 none "
               "is kept apart and the fastest sets every rebuild (slower, the same results; remove_lost = true "
               "takes lost grains out)\n", grains_sim_strays_overflowed(sim));
    if (sc->write_vtk)
        printf("open %s/particles.pvd in ParaView%s%s; the thermo table is %s/thermo.csv\n", sc->output_dir,
               grains_sim_mesh_count(sim) ? (o->meshes_move ? ", and mesh.pvd" : ", and mesh.vtp") : "",
               grains_sim_membrane_count(sim) ? ", membranes.pvd" : "", sc->output_dir);
    else if (sc->write_csv)
        printf("the frames are %s/particlesNNNNNN.csv (ParaView: TableToPoints on x, y, z); the thermo table is "
               "%s/thermo.csv\n", sc->output_dir, sc->output_dir);
    else
        printf("the thermo table is %s/thermo.csv\n", sc->output_dir);
}
