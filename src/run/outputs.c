/* A run's outputs: VTK and CSV frames with their .pvd series, the tables
 * (thermo.csv, walls.csv, triaxial.csv, friction.csv) a row per frame, and
 * checkpoints that record where they stand (docs/checkpoints.md). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grains/checkpoint.h"
#include "run/run.h"
#include "util/clock.h"

int run_meshes_move(const grains_sim *sim)
{
    grains_wall w;
    for (size_t k = 0; k < grains_sim_mesh_count(sim); k++) {
        grains_sim_get_wall(sim, k, &w);
        if (w.moving)
            return 1;
    }
    return 0;
}

/* Whether a mesh is away from its file's pose: one set moving and stopped
 * between two frames (a gate opened from a program) is drawn where it is. */
static int meshes_moved(const grains_sim *sim)
{
    grains_wall w;
    for (size_t k = 0; k < grains_sim_mesh_count(sim); k++) {
        grains_sim_get_wall(sim, k, &w);
        if (w.moving || w.angle != 0 || w.shift.x != 0 || w.shift.y != 0 || w.shift.z != 0)
            return 1;
    }
    return 0;
}

/* walls.csv: a row per mesh and frame, from the last step's contact sums. */
static grains_status open_walls(run_output *o, const grains_sim *sim, grains_error *err)
{
    if (!grains_sim_mesh_count(sim))
        return GRAINS_OK;
    return run_table_open(&o->walls, o->sc->output_dir, "walls.csv",
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

/* Whether the run removes particles (sinks, remove_lost). */
static int removes(const run_output *o) { return o->sc->params.n_sinks > 0 || o->sc->params.remove_lost; }

/* The tags the run's insertion regions and tag rules give, sorted, each once. */
static void declared_tags(run_output *o)
{
    const grains_params *p = &o->sc->params;
    int n = 0;
    for (int k = 0; k < grains_params_n_spawns(p); k++)
        o->tags[n++] = grains_params_spawn(p, k).tag;
    for (int k = 0; k < p->n_tag_rules; k++)
        o->tags[n++] = p->tag_rule[k].tag;
    for (int a = 1; a < n; a++) /* (a few: insertion sort) */
        for (int b = a; b > 0 && o->tags[b - 1] > o->tags[b]; b--) {
            int t = o->tags[b];
            o->tags[b] = o->tags[b - 1];
            o->tags[b - 1] = t;
        }
    o->n_tags = 0;
    for (int a = 0; a < n; a++)
        if (o->n_tags == 0 || o->tags[o->n_tags - 1] != o->tags[a])
            o->tags[o->n_tags++] = o->tags[a];
}

/* The removal counts' columns: per sink (sinkK, and lost_removed), then with two
 * tags or more per sink and tag (sinkK_tagT, lost_removed_tagT). */
static void removal_columns(const run_output *o, FILE *f, const grains_sim *sim)
{
    const grains_params *p = &o->sc->params;
    int by_tag = o->n_tags >= 2;
    for (int k = p->remove_lost ? -1 : 0; k < p->n_sinks; k++) {
        int kk = k < 0 ? p->n_sinks : k; /* (lost last) */
        int sink = kk == p->n_sinks ? -1 : kk;
        if (sim) {
            fprintf(f, ",%zu", grains_sim_removed(sim, sink, 0, 1));
            for (int t = 0; by_tag && t < o->n_tags; t++)
                fprintf(f, ",%zu", grains_sim_removed(sim, sink, o->tags[t], 0));
        } else {
            fprintf(f, sink < 0 ? ",lost_removed" : ",sink%d", sink);
            for (int t = 0; by_tag && t < o->n_tags; t++)
                fprintf(f, sink < 0 ? ",lost_removed_tag%d" : ",sink%d_tag%d", sink < 0 ? o->tags[t] : sink, o->tags[t]);
        }
    }
}

/* thermo.csv's header: the columns this run writes. */
static grains_status open_thermo(run_output *o, const grains_sim *sim, long resume_len, grains_error *err)
{
    char *h = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&h, &size);
    if (!mem)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for thermo.csv's header");
    fprintf(mem, "step,time,N,contacts,E_kin,E_rot,max_overlap%s%s%s%s%s",
            grains_sim_membrane_count(sim) ? ",E_membrane" : "", o->sc->params.bond_kn > 0 ? ",bonds,broken" : "",
            grains_integrator_variational(o->sc->params.integrator) ? ",newton,newton_most,cg,newton_update" : "",
            grains_sim_mesh(sim) ? ",lost" : "", o->sc->thermo_imbalance ? ",imbalance" : "");
    removal_columns(o, mem, NULL);
    if (o->sc->n_stages)
        fputs(",stage", mem);
    fputc('\n', mem);
    grains_status s = fclose(mem) == 0 ? run_table_open(&o->thermo, o->sc->output_dir, "thermo.csv", h, resume_len, err)
                                       : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
    free(h);
    return s;
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
        if (r->mesh_from < 0 || (long)k < r->mesh_from)
            snprintf(name, sizeof name, "mesh.vtp");
        else
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

static const char *const table_names[RUN_TABLES] = {"thermo.csv", "walls.csv", "triaxial.csv", "friction.csv",
                                                    "sinks.csv", "probes.csv", "box.csv"};

static FILE *table_file(const run_output *o, int k)
{
    FILE *const files[RUN_TABLES] = {o->thermo, o->walls, o->triaxial.f, o->friction.f, o->sinks, o->probes, o->box};
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
            s = run_table_verify(o->sc->output_dir, table_names[k], o->record->table[k], err);
    return s;
}

/* A new run's tables where they will be: none may be anything but a
 * regular file (a FIFO, a device, a folder, a symlink), checked before
 * the run writes its first file, so that a refusal leaves the folder as
 * it was. */
static grains_status tables_placeable(const run_output *o, grains_error *err)
{
    for (int k = 0; k < RUN_TABLES; k++) {
        char path[2 * GRAINS_PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", o->sc->output_dir, table_names[k]);
        if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
            return grains_error_set(err, GRAINS_ERR_IO, path, 0, "exists and is not a regular file: not written");
    }
    return GRAINS_OK;
}

static grains_status open_tables(run_output *o, const grains_sim *sim, grains_error *err)
{
    const run_table_sum *t = o->record->table;
    memcpy(o->sums, t, sizeof o->sums); /* (zeros for a new run) */
    declared_tags(o);
    grains_status s = open_thermo(o, sim, t[TABLE_THERMO].len, err);
    if (s == GRAINS_OK && removes(o))
        s = run_table_open(&o->sinks, o->sc->output_dir, "sinks.csv", "step,time,sink,id,uid,tag,x,y,z,vx,vy,vz\n",
                           t[TABLE_SINKS].len, err);
    if (s == GRAINS_OK && o->sc->params.n_probes)
        s = run_probes_open(o, t[TABLE_PROBES].len, err);
    if (s == GRAINS_OK)
        s = run_box_open(o, t[TABLE_BOX].len, err);
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
static int writes(const run_output *o) { return o->rank == 0; }

grains_status run_open_outputs(run_output *o, const grains_sim *sim, grains_error *err)
{
    if (!writes(o)) {
        o->n_frames = o->record->n_frames;
        return GRAINS_OK;
    }
    const char *dir = o->sc->output_dir;
    grains_status s = o->record->n_frames ? verify_tables(o, err) : tables_placeable(o, err);
    if (s == GRAINS_OK)
        s = grains_output_dir(dir, err);
    if (s != GRAINS_OK)
        return s;
    size_t frames = (size_t)o->sc->params.N_frames, cap = (frames > o->record->n_frames ? frames : o->record->n_frames) + 2;
    o->files = calloc(cap, sizeof *o->files);
    o->mesh_files = calloc(cap, sizeof *o->mesh_files);
    o->membrane_files = calloc(cap, sizeof *o->membrane_files);
    o->contact_files = calloc(cap, sizeof *o->contact_files);
    o->times = calloc(cap, sizeof *o->times);
    if (!o->files || !o->mesh_files || !o->membrane_files || !o->contact_files || !o->times)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu frames", cap);
    o->cap = cap;
    if (o->record->n_frames) {
        o->meshes_move = o->record->mesh_from >= 0;
    } else {
        o->meshes_move = meshes_moved(sim);
        for (int k = 0; k < o->sc->n_stages; k++) /* (a stage may set a mesh moving: frames of the meshes) */
            o->meshes_move |= o->sc->stages[k].n_motions > 0;
        o->record->mesh_from = o->meshes_move ? 0 : -1;
    }
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
    if (o->sinks)
        fclose(o->sinks);
    if (o->probes)
        fclose(o->probes);
    if (o->box)
        fclose(o->box);
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
    removal_columns(o, o->thermo, sim);
    if (o->sc->n_stages)
        fprintf(o->thermo, ",%d", o->record->stage);
    fputc('\n', o->thermo);
    if (fflush(o->thermo) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write thermo.csv");
    if (!o->quiet)
        printf("frame %zu: t=%.6g, %zu particles, %zu contacts, E_kin=%.4g, E_rot=%.4g\n", o->n_frames, th.time,
               th.n_particles, th.n_contacts, th.e_kin, th.e_rot);
    return GRAINS_OK;
}

/* sinks.csv: a row per particle the outlets removed since the last rows, then the log cleared. */
static grains_status write_removals(run_output *o, grains_sim *sim, grains_error *err)
{
    if (!o->sinks)
        return GRAINS_OK;
    const grains_removal *log;
    size_t n = grains_sim_removals(sim, &log);
    for (size_t k = 0; k < n; k++) {
        const grains_removal *r = &log[k];
        fprintf(o->sinks, "%ld,%.9g,%d,%zu,%llu,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", r->step, r->time, r->sink, r->id,
                (unsigned long long)r->uid, r->tag, r->x.x, r->x.y, r->x.z, r->v.x, r->v.y, r->v.z);
    }
    if (fflush(o->sinks) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write sinks.csv");
    grains_sim_clear_removals(sim);
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

/* A mesh set moving after the outputs opened (a program's grains_sim_set_motion): its series
 * begins with this frame, the frames before it showing mesh.vtp, written when they opened. */
static grains_status begin_mesh_series(run_output *o, grains_error *err)
{
    for (size_t k = 0; k < o->n_frames; k++)
        if (!(o->mesh_files[k] = strdup("mesh.vtp")))
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
    o->meshes_move = 1;
    o->record->mesh_from = (long)o->n_frames;
    return GRAINS_OK;
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
        if (s == GRAINS_OK && !o->meshes_move && grains_sim_mesh(sim) && meshes_moved(sim))
            s = begin_mesh_series(o, err);
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
    if (s == GRAINS_OK)
        s = write_removals(o, sim, err);
    if (s == GRAINS_OK && o->probes)
        s = run_probes_write(o, sim, err);
    if (s == GRAINS_OK)
        s = run_box_write(o, sim, err);
    o->n_frames++;
    return s;
}

/* Room in the series for one more frame than written (a program steering
 * a run writes as many as it likes). */
static grains_status frame_room(run_output *o, grains_error *err)
{
    if (o->n_frames + 1 < o->cap)
        return GRAINS_OK;
    size_t cap = 2 * o->cap + 8;
    char ***lists[] = {&o->files, &o->mesh_files, &o->membrane_files, &o->contact_files};
    for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
        char **grown = realloc(*lists[k], cap * sizeof **lists[k]);
        if (!grown)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu frames", cap);
        memset(grown + o->cap, 0, (cap - o->cap) * sizeof *grown);
        *lists[k] = grown;
    }
    double *times = realloc(o->times, cap * sizeof *times);
    if (!times)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu frames", cap);
    o->times = times;
    o->cap = cap;
    return GRAINS_OK;
}

grains_status run_write_frame(run_output *o, grains_sim *sim, const char *label, grains_error *err)
{
    char number[32];
    snprintf(number, sizeof number, "%06zu", o->n_frames);
    double t0 = wall_seconds();
    grains_status s = writes(o) ? frame_room(o, err) : GRAINS_OK;
    if (s == GRAINS_OK)
        s = write_frame_now(o, sim, label ? label : number, err);
    o->output_seconds += wall_seconds() - t0;
    return s;
}

static grains_status write_checkpoint_now(run_output *o, grains_sim *sim, const char *path, grains_error *err)
{
    if (!writes(o))
        return grains_checkpoint_write(NULL, sim, NULL, 0, err);
    grains_status removals = write_removals(o, sim, err); /* (the log is not in the checkpoint) */
    if (removals != GRAINS_OK)
        return removals;
    run_record r = *o->record;
    r.n_frames = o->n_frames;
    r.times = o->times;
    for (int k = 0; k < RUN_TABLES; k++) {
        grains_status st = table_file(o, k) ? run_table_sum_extend(table_file(o, k), table_names[k], &o->sums[k], err)
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
    char own[2 * GRAINS_PATH_MAX];
    snprintf(own, sizeof own, "%s/checkpoint.grains", o->sc->output_dir);
    s = grains_checkpoint_write(path ? path : own, sim, bytes, n, err);
    free(bytes);
    return s;
}

grains_status run_write_checkpoint(run_output *o, grains_sim *sim, const char *path, grains_error *err)
{
    double t0 = wall_seconds();
    grains_status s = write_checkpoint_now(o, sim, path, err);
    o->output_seconds += wall_seconds() - t0;
    return s;
}
