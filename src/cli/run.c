/* grains run: frames every N_steps steps, N_frames times, after frame 0
 * (TinyDEM Section 6), with VTK and/or CSV frames and a thermo table. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

typedef struct {
    const grains_scenario *sc;
    char **files;      /* frame file names for the .pvd */
    char **mesh_files; /* mesh frames, when a mesh moves */
    double *times;
    size_t n_frames;
    FILE *thermo;
    FILE *walls;       /* walls.csv, with meshes */
    char **membrane_files; /* membrane frames, with membranes */
    triaxial_log triaxial;
    friction_log friction;
    int meshes_move;
    int quiet;
} run_output;

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
static grains_status open_walls(run_output *o, const grains_sim *sim, const char *dir, grains_error *err)
{
    if (!grains_sim_mesh_count(sim))
        return GRAINS_OK;
    char path[2 * GRAINS_PATH_MAX];
    snprintf(path, sizeof path, "%s/walls.csv", dir);
    o->walls = fopen(path, "w");
    if (!o->walls)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write");
    fputs("step,time,mesh,x,y,z,angle,vx,vy,vz,omega,fx,fy,fz,tx,ty,tz\n", o->walls);
    return GRAINS_OK;
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

typedef grains_status (*frame_writer)(const char *path, const grains_sim *sim, grains_error *err);

static grains_status write_mesh_file(const char *path, const grains_sim *sim, grains_error *err)
{
    return grains_vtk_write_mesh(path, grains_sim_mesh(sim), err);
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
    grains_status s = write(path, sim, err);
    if (s == GRAINS_OK && !(files[o->n_frames] = strdup(name)))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
    if (s == GRAINS_OK) {
        snprintf(path, sizeof path, "%s/%s.pvd", dir, stem);
        s = grains_pvd_write(path, (const char *const *)files, o->times, o->n_frames + 1, err);
    }
    return s;
}

static grains_status open_outputs(run_output *o, const grains_sim *sim, grains_error *err)
{
    const char *dir = o->sc->output_dir;
    grains_status s = grains_output_dir(dir, err);
    if (s != GRAINS_OK)
        return s;
    char path[2 * GRAINS_PATH_MAX];
    size_t cap = (size_t)o->sc->params.N_frames + 2;
    o->files = calloc(cap, sizeof *o->files);
    o->mesh_files = calloc(cap, sizeof *o->mesh_files);
    o->membrane_files = calloc(cap, sizeof *o->membrane_files);
    o->times = calloc(cap, sizeof *o->times);
    if (!o->files || !o->mesh_files || !o->membrane_files || !o->times)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu frames", cap);
    snprintf(path, sizeof path, "%s/thermo.csv", dir);
    o->thermo = fopen(path, "w");
    if (!o->thermo)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write");
    fputs("step,time,N,contacts,E_kin,E_rot,max_overlap", o->thermo);
    if (grains_sim_membrane_count(sim))
        fputs(",E_membrane", o->thermo);
    if (o->sc->params.bond_kn > 0)
        fputs(",bonds,broken", o->thermo);
    if (grains_integrator_variational(o->sc->params.integrator))
        fputs(",newton,newton_most,cg,newton_update", o->thermo);
    fputc('\n', o->thermo);
    o->meshes_move = any_moving(sim);
    if (o->sc->write_vtk && grains_sim_mesh(sim) && !o->meshes_move) {
        snprintf(path, sizeof path, "%s/mesh.vtp", dir);
        s = grains_vtk_write_mesh(path, grains_sim_mesh(sim), err);
    }
    if (s == GRAINS_OK)
        s = triaxial_open(&o->triaxial, o->sc, sim, err);
    if (s == GRAINS_OK)
        s = friction_open(&o->friction, o->sc, sim, err);
    return s == GRAINS_OK ? open_walls(o, sim, dir, err) : s;
}

static void close_outputs(run_output *o)
{
    for (size_t k = 0; o->files && k < o->n_frames; k++)
        free(o->files[k]);
    for (size_t k = 0; o->mesh_files && k < o->n_frames; k++)
        free(o->mesh_files[k]);
    for (size_t k = 0; o->membrane_files && k < o->n_frames; k++)
        free(o->membrane_files[k]);
    free(o->membrane_files);
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
    fputc('\n', o->thermo);
    if (fflush(o->thermo) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write thermo.csv");
    if (!o->quiet)
        printf("frame %zu: t=%.6g, %zu particles, %zu contacts, E_kin=%.4g, E_rot=%.4g\n", o->n_frames, th.time,
               th.n_particles, th.n_contacts, th.e_kin, th.e_rot);
    return GRAINS_OK;
}

/* Writes frame number `k` (or a frame with the given label). */
static grains_status write_frame(run_output *o, const grains_sim *sim, const char *label, grains_error *err)
{
    const char *dir = o->sc->output_dir;
    char path[2 * GRAINS_PATH_MAX], name[64];
    grains_status s = GRAINS_OK;
    if (o->sc->write_csv) {
        snprintf(path, sizeof path, "%s/particles%s.csv", dir, label);
        s = grains_csv_write(path, sim, err);
    }
    if (s == GRAINS_OK && o->sc->write_vtk) {
        snprintf(name, sizeof name, "particles%s.vtp", label);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        s = grains_vtk_write_particles(path, sim, err);
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

/* The state is still the last good one when a step fails: keep it on disk. */
static int step_failed(grains_sim *sim, run_output *o, grains_error *err)
{
    cli_report(err);
    if (err->status != GRAINS_ERR_UNSTABLE)
        return EXIT_INPUT;
    grains_error werr;
    if (write_frame(o, sim, "_last_good", &werr) != GRAINS_OK)
        cli_report(&werr);
    else
        fprintf(stderr, "grains: the last good state (t = %.9g) is in %s/particles_last_good.*\n",
                grains_sim_time(sim), o->sc->output_dir);
    return EXIT_UNSTABLE;
}

static int run_frames(grains_sim *sim, run_output *o, const cli_flags *fl)
{
    const grains_params *p = grains_sim_params(sim);
    grains_error err;
    char label[32];
    progress pg;
    progress_init(&pg, !fl->quiet && isatty(STDERR_FILENO));
    double t_end = (double)(p->N_frames * p->N_steps) * p->dt;
    if (write_frame(o, sim, "000000", &err) != GRAINS_OK) {
        cli_report(&err);
        return EXIT_INPUT;
    }
    for (long f = 1; f <= p->N_frames; f++) {
        for (long k = 0; k < p->N_steps; k++) {
            if (grains_sim_step(sim, &err) != GRAINS_OK) {
                progress_done(&pg);
                return step_failed(sim, o, &err);
            }
            progress_update(&pg, grains_sim_time(sim), t_end, grains_sim_count(sim));
        }
        snprintf(label, sizeof label, "%06ld", f);
        if (write_frame(o, sim, label, &err) != GRAINS_OK) {
            progress_done(&pg);
            cli_report(&err);
            return EXIT_INPUT;
        }
    }
    progress_done(&pg);
    return 0;
}

int cli_run(int argc, char **argv)
{
    grains_scenario sc;
    cli_flags fl;
    grains_error err;
    grains_sim *sim = NULL;
    if (cli_scenario(argc, argv, &sc, &fl, &err) != GRAINS_OK || cli_load(&sc, &sim, &err) != GRAINS_OK) {
        cli_report(&err);
        return EXIT_INPUT;
    }
    run_output o = {0};
    o.sc = &sc;
    o.quiet = fl.quiet;
    int status;
    if (open_outputs(&o, sim, &err) != GRAINS_OK) {
        cli_report(&err);
        status = EXIT_INPUT;
    } else {
        status = run_frames(sim, &o, &fl);
    }
    close_outputs(&o);
    grains_sim_destroy(sim);
    return status;
}
