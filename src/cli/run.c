/* grains run: frames every N_steps steps, N_frames times, after frame 0
 * (TinyDEM Section 6), with VTK and/or CSV frames and a thermo table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run.h"
#include "grains/checkpoint.h"

static int any_moving(const grains_sim *sim)
{
    grains_wall w;
    for (size_t k = 0; k < grains_sim_mesh_count(sim); k++) {
        grains_sim_get_wall(sim, k, &w);
        if (w.moving)
            return 1;
    }
    return 0;
}

/* walls.csv: a row per mesh and frame, from the last step's contact sums. */
static grains_status open_walls(run_output *o, const grains_sim *sim, grains_error *err)
{
    if (!grains_sim_mesh_count(sim))
        return GRAINS_OK;
    return cli_table_open(&o->walls, o->sc->output_dir, "walls.csv",
                          "step,time,mesh,x,y,z,angle,vx,vy,vz,omega,fx,fy,fz,tx,ty,tz\n",
                          o->record->table[TABLE_WALLS].len, err);
}

static grains_status write_walls(run_output *o, const grains_sim *sim, grains_error *err)
{
    if (!o->walls)
        return GRAINS_OK;
    grains_wall w;
    for (size_t k = 0; k < grains_sim_mesh_count(sim); k++) {
        grains_sim_get_wall(sim, k, &w);
        fprintf(o->walls, "%ld,%.9g,%zu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                grains_sim_steps(sim), grains_sim_time(sim), k, w.shift.x, w.shift.y, w.shift.z, w.angle,
                w.velocity.x, w.velocity.y, w.velocity.z, w.omega, w.force.x, w.force.y, w.force.z, w.torque.x,
                w.torque.y, w.torque.z);
    }
    if (fflush(o->walls) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write walls.csv");
    return GRAINS_OK;
}

typedef grains_status (*frame_writer)(const char *path, const grains_sim *sim, grains_vtk_format format,
                                      grains_error *err);

static grains_status write_mesh_file(const char *path, const grains_sim *sim, grains_vtk_format format,
                                     grains_error *err)
{
    return grains_vtk_write_mesh(path, grains_sim_mesh(sim), format, err);
}

/* One frame of a series beside the particles' (the meshes where they are
 * now, the membranes): STEM_LABEL.vtp, its name kept in `files`, and
 * STEM.pvd over them all. */
static grains_status write_series_frame(run_output *o, const grains_sim *sim, const char *label, const char *stem,
                                        frame_writer write, char **files, grains_error *err)
{
    const char *dir = o->sc->output_dir;
    char path[2 * GRAINS_PATH_MAX], name[64];
    snprintf(name, sizeof name, "%s%s.vtp", stem, label);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    grains_status s = write(path, sim, o->sc->vtk_format, err);
    if (s == GRAINS_OK && !(files[o->n_frames] = strdup(name)))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
    if (s == GRAINS_OK) {
        snprintf(path, sizeof path, "%s/%s.pvd", dir, stem);
        s = grains_pvd_write(path, (const char *const *)files, o->times, o->n_frames + 1, err);
    }
    return s;
}

/* thermo.csv's header: the columns this run writes. */
static void thermo_header(const run_output *o, const grains_sim *sim, char *h, size_t size)
{
    snprintf(h, size, "step,time,N,contacts,E_kin,E_rot,max_overlap%s%s%s%s%s\n",
             grains_sim_membrane_count(sim) ? ",E_membrane" : "", o->sc->params.bond_kn > 0 ? ",bonds,broken" : "",
             grains_integrator_variational(o->sc->params.integrator) ? ",newton,newton_most,cg,newton_update" : "",
             grains_sim_mesh(sim) ? ",lost" : "", o->sc->thermo_imbalance ? ",imbalance" : "");
}

/* A resumed run's frame series as they were: their names and times. */
static grains_status restore_series(run_output *o, const grains_sim *sim, grains_error *err)
{
    const run_record *r = o->record;
    for (size_t k = 0; k < r->n_frames; k++) {
        char name[64];
        o->times[k] = r->times[k];
        snprintf(name, sizeof name, "particles%06zu.vtp", k);
        int ok = !o->sc->write_vtk || (o->files[k] = strdup(name));
        snprintf(name, sizeof name, "mesh%06zu.vtp", k);
        ok = ok && (!o->sc->write_vtk || !o->meshes_move || (o->mesh_files[k] = strdup(name)));
        snprintf(name, sizeof name, "membranes%06zu.vtp", k);
        ok = ok && (!o->sc->write_vtk || !grains_sim_membrane_count(sim) || (o->membrane_files[k] = strdup(name)));
        snprintf(name, sizeof name, "contacts%06zu.vtp", k);
        ok = ok && (!o->sc->write_vtk || !o->sc->write_contacts || (o->contact_files[k] = strdup(name)));
        if (!ok)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
    }
    o->n_frames = r->n_frames;
    return GRAINS_OK;
}

static const char *const table_names[RUN_TABLES] = {"thermo.csv", "walls.csv", "triaxial.csv", "friction.csv"};

static FILE *table_file(const run_output *o, int k)
{
    FILE *const files[RUN_TABLES] = {o->thermo, o->walls, o->triaxial.f, o->friction.f};
    return files[k];
}

/* A resumed run's tables, each checked against what the checkpoint
 * recorded of it, before any is cut: a table changed since, or another
 * run's checkpoint, changes nothing. */
static grains_status verify_tables(const run_output *o, grains_error *err)
{
    grains_status s = GRAINS_OK;
    for (int k = 0; s == GRAINS_OK && k < RUN_TABLES; k++)
        if (o->record->table[k].len > 0)
            s = cli_table_verify(o->sc->output_dir, table_names[k], o->record->table[k], err);
    return s;
}

static grains_status open_tables(run_output *o, const grains_sim *sim, grains_error *err)
{
    const cli_table_sum *t = o->record->table;
    char header[160];
    thermo_header(o, sim, header, sizeof header);
    memcpy(o->sums, t, sizeof o->sums); /* (zeros for a new run) */
    grains_status s = cli_table_open(&o->thermo, o->sc->output_dir, "thermo.csv", header, t[TABLE_THERMO].len, err);
    if (s == GRAINS_OK)
        s = triaxial_open(&o->triaxial, o->sc, sim, t[TABLE_TRIAXIAL].len, err);
    if (s == GRAINS_OK)
        s = friction_open(&o->friction, o->sc, sim, t[TABLE_FRICTION].len, err);
    if (s == GRAINS_OK)
        s = open_walls(o, sim, err);
    if (s == GRAINS_OK && o->record->n_frames) { /* resumed: the logs' state as it was */
        o->triaxial.h0 = o->record->triaxial_h0;
        o->friction.id = o->record->friction_id;
    }
    return s;
}

/* Whether this process writes the outputs: rank 0 of those sharing the run. */
static int writes(const run_output *o) { return !o->rk || o->rk->share.rank == 0; }

grains_status run_open_outputs(run_output *o, const grains_sim *sim, grains_error *err)
{
    if (!writes(o)) {
        o->n_frames = o->record->n_frames;
        return GRAINS_OK;
    }
    const char *dir = o->sc->output_dir;
    grains_status s = o->record->n_frames ? verify_tables(o, err) : GRAINS_OK;
    if (s == GRAINS_OK)
        s = grains_output_dir(dir, err);
    if (s != GRAINS_OK)
        return s;
    size_t cap = (size_t)o->sc->params.N_frames + 2;
    o->files = calloc(cap, sizeof *o->files);
    o->mesh_files = calloc(cap, sizeof *o->mesh_files);
    o->membrane_files = calloc(cap, sizeof *o->membrane_files);
    o->contact_files = calloc(cap, sizeof *o->contact_files);
    o->times = calloc(cap, sizeof *o->times);
    if (!o->files || !o->mesh_files || !o->membrane_files || !o->contact_files || !o->times)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu frames", cap);
    o->meshes_move = any_moving(sim);
    if (o->record->n_frames)
        s = restore_series(o, sim, err);
    else if (o->sc->write_vtk && grains_sim_mesh(sim) && !o->meshes_move) {
        char path[2 * GRAINS_PATH_MAX];
        snprintf(path, sizeof path, "%s/mesh.vtp", dir);
        s = grains_vtk_write_mesh(path, grains_sim_mesh(sim), o->sc->vtk_format, err);
    }
    return s == GRAINS_OK ? open_tables(o, sim, err) : s;
}

void run_close_outputs(run_output *o)
{
    for (size_t k = 0; o->files && k < o->n_frames; k++)
        free(o->files[k]);
    for (size_t k = 0; o->mesh_files && k < o->n_frames; k++)
        free(o->mesh_files[k]);
    for (size_t k = 0; o->membrane_files && k < o->n_frames; k++)
        free(o->membrane_files[k]);
    free(o->membrane_files);
    for (size_t k = 0; o->contact_files && k < o->n_frames; k++)
        free(o->contact_files[k]);
    free(o->contact_files);
    triaxial_close(&o->triaxial);
    friction_close(&o->friction);
    free(o->files);
    free(o->mesh_files);
    if (o->walls)
        fclose(o->walls);
    free(o->times);
    if (o->thermo)
        fclose(o->thermo);
}

static grains_status write_thermo(run_output *o, const grains_sim *sim, grains_error *err)
{
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    fprintf(o->thermo, "%ld,%.9g,%zu,%zu,%.9g,%.9g,%.6g", th.step, th.time, th.n_particles, th.n_contacts, th.e_kin,
            th.e_rot, th.max_overlap);
    if (grains_sim_membrane_count(sim))
        fprintf(o->thermo, ",%.9g", th.e_membrane);
    if (o->sc->params.bond_kn > 0)
        fprintf(o->thermo, ",%zu,%zu", th.n_bonds, th.n_broken);
    if (grains_integrator_variational(o->sc->params.integrator))
        fprintf(o->thermo, ",%d,%d,%ld,%.3g", th.newton, th.newton_most, th.cg, th.newton_update);
    if (grains_sim_mesh(sim))
        fprintf(o->thermo, ",%zu", th.n_lost);
    if (o->sc->thermo_imbalance) { /* the last cut's: 1 in one process */
        grains_ranks_stats st = grains_sim_ranks_stats(sim);
        fprintf(o->thermo, ",%.4f", st.cuts ? st.last : 1.0);
    }
    fputc('\n', o->thermo);
    if (fflush(o->thermo) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write thermo.csv");
    if (!o->quiet)
        printf("frame %zu: t=%.6g, %zu particles, %zu contacts, E_kin=%.4g, E_rot=%.4g\n", o->n_frames, th.time,
               th.n_particles, th.n_contacts, th.e_kin, th.e_rot);
    return GRAINS_OK;
}

/* The frame's particles' files, CSV and VTK, every rank alike: rank 0
 * writes them, and when the ranks hold their own alone the others send it
 * their particles a window at a time (grains_sim_particle_window), so
 * that it never holds them all; it is sent the thermo's sums before. (The
 * contacts output and the friction table's guided grain are not shared
 * yet.) A failure of the first file leaves the second's windows sent. */
static grains_status write_particle_files(run_output *o, grains_sim *sim, const char *label, grains_error *err)
{
    char path[2 * GRAINS_PATH_MAX];
    const char *dir = o->sc->output_dir;
    grains_error later;
    grains_status s = GRAINS_OK;
    grains_sim_gather_thermo(sim);
    if (o->sc->write_csv) {
        snprintf(path, sizeof path, "%s/particles%s.csv", dir, label);
        s = grains_csv_write_frame(writes(o) ? path : NULL, sim, err);
    }
    if (o->sc->write_vtk) {
        snprintf(path, sizeof path, "%s/particles%s.vtp", dir, label);
        grains_status v = grains_vtk_write_frame(writes(o) ? path : NULL, sim, o->sc->vtk_format, s ? &later : err);
        s = s ? s : v;
    }
    return s;
}

/* Writes frame number `k` (or a frame with the given label). */
static grains_status write_frame_now(run_output *o, grains_sim *sim, const char *label, grains_error *err)
{
    grains_status s = write_particle_files(o, sim, label, err);
    if (!writes(o)) {
        o->n_frames++;
        return s;
    }
    const char *dir = o->sc->output_dir;
    char path[2 * GRAINS_PATH_MAX], name[64];
    if (s == GRAINS_OK && o->sc->write_vtk) {
        snprintf(name, sizeof name, "particles%s.vtp", label);
        if (s == GRAINS_OK && !(o->files[o->n_frames] = strdup(name)))
            s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
        if (s == GRAINS_OK) {
            o->times[o->n_frames] = grains_sim_time(sim);
            snprintf(path, sizeof path, "%s/particles.pvd", dir);
            s = grains_pvd_write(path, (const char *const *)o->files, o->times, o->n_frames + 1, err);
        }
        if (s == GRAINS_OK && o->meshes_move)
            s = write_series_frame(o, sim, label, "mesh", write_mesh_file, o->mesh_files, err);
        if (s == GRAINS_OK && grains_sim_membrane_count(sim))
            s = write_series_frame(o, sim, label, "membranes", grains_vtk_write_membranes, o->membrane_files,
                                   err);
        if (s == GRAINS_OK && o->sc->write_contacts)
            s = write_series_frame(o, sim, label, "contacts", grains_vtk_write_contacts, o->contact_files, err);
    }
    if (s == GRAINS_OK)
        s = triaxial_row(&o->triaxial, o->sc, sim, err);
    if (s == GRAINS_OK)
        s = friction_row(&o->friction, o->sc, sim, err);
    if (s == GRAINS_OK)
        s = write_thermo(o, sim, err);
    if (s == GRAINS_OK)
        s = write_walls(o, sim, err);
    o->n_frames++;
    return s;
}

static grains_status write_frame(run_output *o, grains_sim *sim, const char *label, grains_error *err)
{
    double t0 = wall_seconds();
    grains_status s = write_frame_now(o, sim, label, err);
    o->output_seconds += wall_seconds() - t0;
    return s;
}

/* A step's failure that every rank reaches at the same step: the merged
 * diagnostics' verdict, or a refusal of what the step was given (every
 * rank is given the same). Any other (memory) may be one rank's alone. */
static int failed_everywhere(const grains_error *err)
{
    return err->status == GRAINS_ERR_UNSTABLE || err->status == GRAINS_ERR_ARG;
}

/* The state is still the last good one when a step fails: keep it on disk. */
static int step_failed(grains_sim *sim, run_output *o, grains_error *err)
{
    if (o->rk && !failed_everywhere(err))
        return cli_ranks_fail(o->rk, err, EXIT_INPUT); /* the others may wait for this rank */
    cli_report(err);
    if (err->status != GRAINS_ERR_UNSTABLE)
        return EXIT_INPUT;
    if (grains_sim_stopped(sim)) {
        fprintf(stderr, "grains: the last checkpoint stays\n");
        return EXIT_UNSTABLE;
    }
    grains_error werr;
    if (write_frame(o, sim, "_last_good", &werr) != GRAINS_OK)
        cli_report(&werr);
    else
        fprintf(stderr, "grains: the last good state (t = %.9g) is in %s/particles_last_good.*\n",
                grains_sim_time(sim), o->sc->output_dir);
    return EXIT_UNSTABLE;
}

/* Writes output_dir/checkpoint.grains: the simulation and where the
 * outputs stand. Every rank calls it: rank 0 writes what the others send. */
static grains_status write_checkpoint_now(run_output *o, grains_sim *sim, grains_error *err)
{
    if (!writes(o))
        return grains_checkpoint_write(NULL, sim, NULL, 0, err);
    run_record r = *o->record;
    r.n_frames = o->n_frames;
    r.times = o->times;
    for (int k = 0; k < RUN_TABLES; k++) {
        grains_status st = table_file(o, k) ? cli_table_sum_extend(table_file(o, k), table_names[k], &o->sums[k], err)
                                            : GRAINS_OK;
        if (st != GRAINS_OK)
            return st;
        r.table[k] = o->sums[k];
    }
    r.triaxial_h0 = o->triaxial.h0;
    r.friction_id = o->friction.id;
    void *bytes;
    size_t n;
    grains_status s = run_record_encode(&r, &bytes, &n, err);
    if (s != GRAINS_OK) /* (rank 0 then stops every rank: output_failed) */
        return s;
    char path[2 * GRAINS_PATH_MAX];
    snprintf(path, sizeof path, "%s/checkpoint.grains", o->sc->output_dir);
    s = grains_checkpoint_write(path, sim, bytes, n, err);
    free(bytes);
    return s;
}

static grains_status write_checkpoint(run_output *o, grains_sim *sim, grains_error *err)
{
    double t0 = wall_seconds();
    grains_status s = write_checkpoint_now(o, sim, err);
    o->output_seconds += wall_seconds() - t0;
    return s;
}

/* SIGINT or SIGTERM: a checkpoint at this step, and 128 + the signal. */
static int interrupted(run_output *o, grains_sim *sim, int sig)
{
    grains_error err;
    if (write_checkpoint(o, sim, &err) != GRAINS_OK) {
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
static int stopped_in_step(const run_output *o, const grains_error *err)
{
    int status = 128 + signals_caught();
    if (o->rk && o->rk->share.size > 1)
        return cli_ranks_fail(o->rk, err, status);
    cli_report(err);
    fprintf(stderr, "grains: interrupted; the last checkpoint stays\n");
    return status;
}

/* The caught signal, asked inside a step's long loops. */
static int signal_asked(void *ctx)
{
    (void)ctx;
    return signals_caught();
}

/* A checkpoint every `every` steps (none for 0), after the frame of the step. */
static int checkpoint_due(const grains_sim *sim, long every) { return every > 0 && grains_sim_steps(sim) % every == 0; }

/* A signal caught by this process, or under mpirun by any rank (each
 * rank asks at the same step: they stop at the same one). */
static int caught(const run_output *o)
{
    return o->rk && o->rk->share.size > 1 ? cli_ranks_caught(o->rk) : signals_caught();
}

/* Rank 0's output, or a rank's gathering for it, failed: the other ranks
 * cannot know, so all stop. */
static int output_failed(const run_output *o, const grains_error *err)
{
    if (o->rk && o->rk->share.rank != 0)
        return cli_ranks_fail(o->rk, err, EXIT_INPUT);
    cli_report(err);
    if (o->rk)
        cli_ranks_abort(o->rk, EXIT_INPUT);
    return EXIT_INPUT;
}

/* The steps up to frame f, then the frame; 0 or the exit status. */
static int run_to_frame(grains_sim *sim, run_output *o, long f, long every, progress *pg, double t_end)
{
    const grains_params *p = grains_sim_params(sim);
    grains_error err;
    while (grains_sim_steps(sim) < f * p->N_steps) {
        /* the frame's contacts: those of its last step (interact/contact_record.h) */
        grains_sim_record_contacts(sim, o->sc->write_contacts && grains_sim_steps(sim) == f * p->N_steps - 1);
        if (grains_sim_step(sim, &err) != GRAINS_OK)
            return err.status == GRAINS_ERR_STOPPED ? stopped_in_step(o, &err) : step_failed(sim, o, &err);
        progress_update(pg, grains_sim_time(sim), t_end, grains_sim_count(sim));
        int sig = caught(o);
        if (sig)
            return interrupted(o, sim, sig);
        if (checkpoint_due(sim, every) && grains_sim_steps(sim) < f * p->N_steps &&
            write_checkpoint(o, sim, &err) != GRAINS_OK)
            return output_failed(o, &err);
    }
    char label[32];
    snprintf(label, sizeof label, "%06ld", f);
    if (write_frame(o, sim, label, &err) != GRAINS_OK ||
        (checkpoint_due(sim, every) && write_checkpoint(o, sim, &err) != GRAINS_OK))
        return output_failed(o, &err);
    int sig = caught(o);
    return sig ? interrupted(o, sim, sig) : 0;
}

int run_frames(grains_sim *sim, run_output *o)
{
    const grains_params *p = grains_sim_params(sim);
    long every = o->sc->checkpoint_every < 0 ? p->N_steps : o->sc->checkpoint_every;
    if (every > 0) {
        signals_catch();
        grains_sim_ask_stop(sim, signal_asked, NULL);
    }
    progress pg;
    progress_init(&pg, !o->quiet && isatty(STDERR_FILENO));
    double t_end = (double)(p->N_frames * p->N_steps) * p->dt;
    int status = 0;
    grains_error err;
    /* a run that starts empty shows its first spawned grains in frame 0 */
    if (o->n_frames == 0 && grains_sim_steps(sim) == 0 && grains_sim_count(sim) == 0 &&
        grains_sim_spawn_ahead(sim, &err) != GRAINS_OK)
        return err.status == GRAINS_ERR_STOPPED ? stopped_in_step(o, &err) : (cli_report(&err), EXIT_INPUT);
    for (long f = (long)o->n_frames; f <= p->N_frames && status == 0; f++) {
        status = run_to_frame(sim, o, f, every, &pg, t_end);
    }
    progress_done(&pg);
    return status;
}

int run_with(grains_sim *sim, run_output *o)
{
    grains_error err;
    int status;
    grains_status s = GRAINS_OK;
    if (o->rk && !o->shared) { /* each rank its own alone, unless asked otherwise */
        grains_ranks share = cli_share(o->rk, o->sc, !o->sc->rank_holds_all && grains_sim_ranks_hold_own(sim));
        s = grains_sim_share(sim, &share, &err);
    }
    if (s == GRAINS_OK)
        s = run_open_outputs(o, sim, &err);
    int failed = o->rk ? cli_ranks_failed(o->rk, s != GRAINS_OK ? &err : NULL) /* one rank may fail alone */
                       : s != GRAINS_OK && (cli_report(&err), 1);
    if (failed) {
        status = EXIT_INPUT;
    } else {
        banner_start(o, sim);
        long step0 = grains_sim_steps(sim);
        double t0 = wall_seconds();
        status = run_frames(sim, o);
        if (status == 0)
            banner_end(o, sim, grains_sim_steps(sim) - step0, wall_seconds() - t0);
    }
    run_close_outputs(o);
    grains_sim_destroy(sim);
    return status;
}

/* The scenario and simulation of a new run, and its record for
 * checkpoints; *dealt when its particles were dealt among the ranks. The
 * record's CRC of the inputs on rank 0 alone, which writes the
 * checkpoints (ranks dealt the particles read a part of their file each). */
static grains_status prepare(int argc, char **argv, const cli_ranks *rk, grains_scenario *sc, cli_flags *fl,
                             run_record *r, grains_sim **sim, int *dealt, grains_error *err)
{
    grains_status s = run_record_check(argc, argv, err);
    if (s == GRAINS_OK)
        s = cli_scenario(argc, argv, sc, fl, err);
    if (s == GRAINS_OK && !getcwd(r->cwd, sizeof r->cwd))
        s = grains_error_set(err, GRAINS_ERR_IO, NULL, 0, "cannot name the current folder: %s", strerror(errno));
    if (s != GRAINS_OK)
        return s;
    *dealt = cli_deals(rk, sc);
    grains_ranks deal = *dealt ? cli_share(rk, sc, 1) : (grains_ranks){0};
    s = cli_load(sc, *dealt ? &deal : NULL, sim, err);
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
    cli_flags fl;
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
    run_output o = {.sc = &sc, .quiet = fl.quiet, .record = &record, .rk = rk};
    return run_with(sim, &o);
}
