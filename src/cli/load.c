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
        s = grains_off_read(sc->mesh, p->R_mesh, p->n_mesh_radii, &mesh, err);
    if (s == GRAINS_OK && mesh)
        s = grains_sim_set_mesh(sim, mesh, err);
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
    if ((s = load_mesh(sc, sim, err)) == GRAINS_OK)
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
