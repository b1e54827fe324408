/* From a scenario to a simulation: the mesh and initial particles, checked. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void cli_report(const grains_error *err)
{
    char msg[2048];
    grains_error_format(err, msg, sizeof msg);
    fprintf(stderr, "grains: %s\n", msg);
}

static grains_status load_mesh(const grains_scenario *sc, grains_sim *sim, grains_error *err)
{
    const grains_params *p = &sc->params;
    grains_mesh *mesh = NULL;
    grains_status s = GRAINS_OK;
    if (strcmp(sc->mesh, GRAINS_BUILTIN_HOURGLASS) == 0)
        s = grains_off_parse(grains_hourglass_off, GRAINS_BUILTIN_HOURGLASS, p->R_mesh, p->n_mesh_radii, &mesh, err);
    else if (sc->mesh[0])
        s = grains_mesh_read(sc->mesh, p->R_mesh, p->n_mesh_radii, &mesh, err);
    if (s == GRAINS_OK && mesh)
        s = grains_sim_set_mesh(sim, mesh, err);
    grains_mesh_destroy(mesh);
    return s;
}

/* Prefixes err's message with where the scenario gave the mesh entry, when
 * the message names no file of its own. */
static grains_status at_entry(grains_status s, const grains_scenario *sc, int k, grains_error *err)
{
    if (s == GRAINS_OK || !err || err->file[0])
        return s;
    char why[sizeof err->message];
    snprintf(why, sizeof why, "%s", err->message);
    return grains_error_set(err, s, sc->source, sc->meshes[k].line, "meshes[%d]: %s", k, why);
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
    if (s == GRAINS_OK && motion.type == GRAINS_MOTION_TABLE)
        s = grains_motion_table_read(e->table, &rows, &motion.n_table, err);
    motion.table = rows;
    for (size_t el = 0; s == GRAINS_OK && el < mesh->n_elements; el++)
        if (mesh->elements[el].material == GRAINS_MESH_MATERIAL_DEFAULT)
            mesh->elements[el].material = e->material;
    if (s == GRAINS_OK)
        s = at_entry(grains_sim_add_mesh(sim, mesh, &motion, err), sc, k, err);
    free(rows);
    grains_mesh_destroy(mesh);
    return s;
}

static grains_status load_particles(const grains_scenario *sc, grains_sim *sim, grains_error *err)
{
    if (!sc->particles[0])
        return GRAINS_OK;
    grains_particle *p = NULL;
    size_t n = 0;
    grains_status s = grains_csv_read(sc->particles, &p, &n, err);
    for (size_t i = 0; s == GRAINS_OK && i < n; i++)
        if ((s = grains_sim_add_particle(sim, &p[i], err)) != GRAINS_OK && err) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            grains_error_set(err, s, sc->particles, 0, "particle %zu: %s", i, why);
        }
    free(p);
    return s;
}

grains_status cli_load(const grains_scenario *sc, grains_sim **out, grains_error *err)
{
    grains_sim *sim;
    grains_status s = grains_sim_create(&sim, &sc->params, err);
    if (s != GRAINS_OK)
        return s;
    s = load_mesh(sc, sim, err);
    for (int k = 0; s == GRAINS_OK && k < sc->n_meshes; k++)
        s = load_entry(sc, k, sim, err);
    if (s == GRAINS_OK)
        s = load_particles(sc, sim, err);
    if (s == GRAINS_OK && sc->bonds[0])
        s = grains_bonds_read(sc->bonds, sim, err);
    if (s != GRAINS_OK) {
        grains_sim_destroy(sim);
        return s;
    }
    *out = sim;
    return GRAINS_OK;
}
