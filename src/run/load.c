/* From a scenario to a simulation: the mesh and initial particles, checked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"
#include "membrane/sheet.h"

/* The simulation's error about element e of a mesh read from `path`
 * ("mesh element e ..."), located at the element's line there; about one
 * of its vertices ("mesh vertex v ..."), at the file. */
static grains_status in_mesh_file(grains_status s, const char *path, const grains_mesh *mesh, grains_error *err)
{
    size_t e;
    if (s == GRAINS_OK || !err || err->file[0])
        return s;
    if (sscanf(err->message, "mesh element %zu", &e) == 1 && e < mesh->n_elements) {
        snprintf(err->file, sizeof err->file, "%s", path);
        err->line = mesh->elements[e].line;
    } else if (sscanf(err->message, "mesh vertex %zu", &e) == 1 && e < mesh->n_vertices) {
        snprintf(err->file, sizeof err->file, "%s", path);
    }
    return s;
}

/* A file the scenario names (`what`, given at `line` of the scenario
 * file) that could not be opened: the error names the scenario's line and
 * the path the reader tried, made absolute, since a relative path is taken
 * from the scenario file's folder. */
static grains_status named_file(grains_status s, const grains_scenario *sc, const char *what, int line,
                                const char *path, grains_error *err)
{
    if (s != GRAINS_ERR_IO || !err || err->line != 0 || strcmp(err->file, path) != 0 || line <= 0)
        return s; /* (a path from the command line is the user's own, from where they are) */
    char tried[2 * GRAINS_PATH_MAX], why[sizeof err->message];
    char cwd[GRAINS_PATH_MAX];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(tried, sizeof tried, "%s/%s", cwd, path);
    else
        snprintf(tried, sizeof tried, "%s", path);
    snprintf(why, sizeof why, "%s", err->message);
    return grains_error_set(err, s, sc->source, line, "%s: %s: %s (a relative path is taken from the scenario file's "
                            "folder)", what, tried, why);
}

static grains_status load_mesh(const grains_scenario *sc, grains_sim *sim, grains_error *err)
{
    const grains_params *p = &sc->params;
    grains_mesh *mesh = NULL;
    grains_status s = GRAINS_OK;
    if (strcmp(sc->mesh, GRAINS_BUILTIN_HOURGLASS) == 0)
        s = grains_off_parse(grains_hourglass_off, GRAINS_BUILTIN_HOURGLASS, p->R_mesh, p->n_mesh_radii, &mesh, err);
    else if (sc->mesh[0])
        s = named_file(grains_mesh_read(sc->mesh, p->R_mesh, p->n_mesh_radii, &mesh, err), sc, "mesh",
                       grains_scenario_line(sc, "mesh"), sc->mesh, err);
    if (s == GRAINS_OK && mesh)
        s = in_mesh_file(grains_sim_set_mesh(sim, mesh, err), sc->mesh, mesh, err);
    grains_mesh_destroy(mesh);
    return s;
}

/* Prefixes err's message with where the scenario gave entry k of `list`
 * (at `line`; k < 0: the group `list` itself), when the message names no
 * file of its own. */
static grains_status at_entry(grains_status s, const grains_scenario *sc, const char *list, int k, int line,
                              grains_error *err)
{
    if (s == GRAINS_OK || !err || err->file[0])
        return s;
    char why[sizeof err->message];
    snprintf(why, sizeof why, "%s", err->message);
    if (k < 0)
        return grains_error_set(err, s, sc->source, line, "%s: %s", list, why);
    return grains_error_set(err, s, sc->source, line, "%s[%d]: %s", list, k, why);
}

/* Mesh k of the scenario's `meshes`: its file with its radii, its material,
 * its motion (a table's rows from their file). */
static grains_status load_entry(const grains_scenario *sc, int k, grains_sim *sim, grains_error *err)
{
    const grains_scenario_mesh *e = &sc->meshes[k];
    const real *R = e->n_radii ? e->R_mesh : sc->params.R_mesh;
    int n_radii = e->n_radii ? e->n_radii : sc->params.n_mesh_radii;
    grains_mesh *mesh = NULL;
    grains_motion motion = e->motion;
    grains_motion_sample *rows = NULL;
    grains_status s = strcmp(e->file, GRAINS_BUILTIN_HOURGLASS) == 0
                          ? grains_off_parse(grains_hourglass_off, e->file, R, n_radii, &mesh, err)
                          : grains_mesh_read(e->file, R, n_radii, &mesh, err);
    char what[48];
    snprintf(what, sizeof what, "meshes[%d].file", k);
    s = named_file(s, sc, what, e->line, e->file, err);
    if (s == GRAINS_OK && motion.type == GRAINS_MOTION_TABLE) {
        snprintf(what, sizeof what, "meshes[%d].motion.table", k);
        s = named_file(grains_motion_table_read(e->table, &rows, &motion.n_table, err), sc, what, e->line, e->table,
                       err);
    }
    motion.table = rows;
    for (size_t el = 0; s == GRAINS_OK && el < mesh->n_elements; el++)
        if (mesh->elements[el].material == GRAINS_MESH_MATERIAL_DEFAULT)
            mesh->elements[el].material = e->material;
    if (s == GRAINS_OK)
        s = at_entry(in_mesh_file(grains_sim_add_mesh(sim, mesh, &motion, err), e->file, mesh, err), sc, "meshes", k,
                     e->line, err);
    if (s == GRAINS_OK && e->periodic)
        s = at_entry(grains_sim_set_mesh_periodic(sim, grains_sim_mesh_count(sim) - 1, 1, err), sc, "meshes", k,
                     e->line, err);
    free(rows);
    grains_mesh_destroy(mesh);
    return s;
}

/* Membrane k's triangles: generated or read, moved to its origin; which
 * vertices are pinned to which mesh (-1: free) in *pins. */
static grains_status membrane_mesh(const grains_scenario *sc, int k, grains_mesh **mesh, int **pins,
                                   grains_error *err)
{
    const grains_scenario_membrane *e = &sc->membranes[k];
    size_t n_ring = 0;
    int nx = 0, ny = 0;
    grains_status s;
    if (e->shape == GRAINS_SHAPE_CYLINDER) {
        s = membrane_cylinder_mesh(mesh, &n_ring, e->radius, e->height, e->spacing, err);
    } else if (e->shape == GRAINS_SHAPE_SHEET) {
        nx = (int)fmin(1e6, round(e->size[0] / e->spacing) + 1);
        ny = (int)fmin(1e6, round(e->size[1] / (e->spacing * sqrt(3.0) / 2)) + 1);
        s = membrane_sheet_mesh(mesh, nx, ny, e->spacing, err);
    } else {
        char what[48];
        snprintf(what, sizeof what, "membranes[%d].file", k);
        s = named_file(grains_mesh_read(e->file, sc->params.R_mesh, sc->params.n_mesh_radii, mesh, err), sc, what,
                       e->line, e->file, err);
    }
    if (s != GRAINS_OK)
        return s;
    size_t n = (*mesh)->n_vertices;
    if (!(*pins = malloc(n * sizeof **pins)))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a membrane");
    for (size_t i = 0; i < n; i++) {
        grains_vec3 *x = &(*mesh)->vertices[i];
        *x = (grains_vec3){x->x + e->origin.x, x->y + e->origin.y, x->z + e->origin.z};
        size_t row = nx ? i / (size_t)nx : 0, col = nx ? i % (size_t)nx : 0;
        int rim = nx && (row == 0 || row + 1 == (size_t)ny || col == 0 || col + 1 == (size_t)nx);
        (*pins)[i] = e->pin_all >= 0                 ? e->pin_all
                     : n_ring && i < n_ring           ? e->pin_bottom
                     : n_ring && i >= n - n_ring      ? e->pin_top
                     : rim                            ? e->pin_edges
                                                      : -1;
    }
    return GRAINS_OK;
}

/* Membrane k of the scenario's `membranes`, its pinned vertices with their meshes. */
static grains_status load_membrane(const grains_scenario *sc, int k, grains_sim *sim, grains_error *err)
{
    grains_mesh *mesh = NULL;
    int *pins = NULL;
    grains_status s = membrane_mesh(sc, k, &mesh, &pins, err);
    if (s == GRAINS_OK)
        s = grains_sim_add_membrane(sim, mesh, &sc->membranes[k].material, err);
    for (size_t i = 0; s == GRAINS_OK && i < mesh->n_vertices; i++)
        if (pins[i] >= 0)
            s = grains_sim_pin_membrane_vertex(sim, (size_t)k, i, (size_t)pins[i], err);
    free(pins);
    grains_mesh_destroy(mesh);
    return at_entry(s, sc, "membranes", k, sc->membranes[k].line, err);
}

grains_status run_add_row(void *ctx, size_t row, const grains_particle *p, grains_error *err)
{
    grains_status s = grains_sim_add_dealt(ctx, p, err); /* (dealt among ranks holding their own alone) */
    if (s != GRAINS_OK && err) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        grains_error_set(err, s, NULL, 0, "particle %zu: %s", row, why);
    }
    return s;
}

/* The particles' file, a chunk at a time; dealt among ranks, each its
 * part (src/cli/deal.c). */
static grains_status load_particles(const grains_scenario *sc, const grains_ranks *deal, grains_sim *sim,
                                    grains_error *err)
{
    if (!sc->particles[0])
        return GRAINS_OK;
    grains_status s = deal && deal->size > 1 ? run_load_part(sc->particles, deal, sim, err)
                                             : grains_csv_each(sc->particles, run_add_row, sim, err);
    s = named_file(s, sc, "particles", grains_scenario_line(sc, "particles"), sc->particles, err);
    if (s != GRAINS_OK && err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", sc->particles);
    return s;
}

/* The friction test's sphere, after every other particle, and its guide. */
static grains_status load_friction_sphere(const grains_scenario *sc, grains_sim *sim, grains_error *err)
{
    const grains_scenario_friction *f = &sc->friction;
    if (!f->on)
        return GRAINS_OK;
    grains_particle p = {f->position, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, f->radius, f->material, 0};
    grains_status s = grains_sim_add_particle(sim, &p, err);
    if (s == GRAINS_OK) {
        grains_guide g = {grains_sim_count(sim) - 1, f->velocity, f->axis};
        s = grains_sim_guide(sim, &g, err);
    }
    return at_entry(s, sc, "friction_test", -1, f->line, err);
}

grains_status run_check_start(const grains_scenario *sc, const grains_sim *sim, grains_error *err)
{
    grains_status s = grains_sim_check_start(sim, err);
    if (s != GRAINS_OK && err && !err->file[0] && sc->particles[0])
        snprintf(err->file, sizeof err->file, "%s", sc->particles);
    return s;
}

grains_status run_load_setting(const grains_scenario *sc, const grains_ranks *share, grains_sim **out,
                               grains_error *err)
{
    grains_sim *sim;
    grains_status s = grains_sim_create(&sim, &sc->params, err);
    if (s != GRAINS_OK)
        return s;
    s = load_mesh(sc, sim, err);
    for (int k = 0; s == GRAINS_OK && k < sc->n_meshes; k++)
        s = load_entry(sc, k, sim, err);
    for (int k = 0; s == GRAINS_OK && k < sc->n_membranes; k++)
        s = load_membrane(sc, k, sim, err);
    if (s == GRAINS_OK && share)
        s = grains_sim_share(sim, share, err);
    if (s != GRAINS_OK) {
        grains_sim_destroy(sim);
        return s;
    }
    *out = sim;
    return GRAINS_OK;
}

grains_status run_load(const grains_scenario *sc, const grains_ranks *deal, grains_sim **out, grains_error *err)
{
    grains_sim *sim;
    grains_status s = run_load_setting(sc, deal, &sim, err);
    if (s != GRAINS_OK)
        return s;
    s = load_particles(sc, deal, sim, err);
    if (s == GRAINS_OK)
        s = load_friction_sphere(sc, sim, err);
    if (s == GRAINS_OK && sc->bonds[0])
        s = named_file(grains_bonds_read(sc->bonds, sim, err), sc, "bonds", grains_scenario_line(sc, "bonds"),
                       sc->bonds, err);
    if (s == GRAINS_OK && !deal)
        s = run_check_start(sc, sim, err);
    if (s == GRAINS_OK && !deal)
        s = run_check_sinks(sc, sim, err);
    if (s != GRAINS_OK) {
        grains_sim_destroy(sim);
        return s;
    }
    *out = sim;
    return GRAINS_OK;
}
