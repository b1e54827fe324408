/* triaxial.csv (docs/scenario.md, "Triaxial test"; membrane paper Section
 * 3.1): a row per frame with the axial strain eps = ln(h0 / h), the
 * confining stress the grains feel from the membrane, the platens' axial
 * stress and their difference, the deviatoric stress. */
#include <math.h>
#include <string.h>

#include "run/run.h"

#define PI 3.14159265358979323846

/* The mean height of mesh k's vertices where its file puts them. */
static double file_height(const grains_sim *sim, int k)
{
    const grains_mesh *m = grains_sim_mesh(sim);
    double z = 0;
    size_t n = 0;
    for (size_t e = 0; e < m->n_elements; e++)
        if (m->elements[e].body == k)
            for (int c = 0; c < m->elements[e].n; c++, n++)
                z += m->vertices[m->elements[e].v[c]].z;
    grains_wall w;
    grains_sim_get_wall(sim, (size_t)k, &w);
    return n ? z / (double)n - w.shift.z : 0;
}

grains_status triaxial_open(triaxial_log *t, const grains_scenario *sc, const grains_sim *sim, long resume_len,
                            grains_error *err)
{
    memset(t, 0, sizeof *t);
    if (!sc->triaxial.on)
        return GRAINS_OK;
    grains_status s = run_table_open(&t->f, sc->output_dir, "triaxial.csv",
                                     "time,strain,sigma_c,sigma_p,sigma_d,height,radius,sigma_c_applied\n", resume_len,
                                     err);
    if (s != GRAINS_OK)
        return s;
    t->gap0 = file_height(sim, sc->triaxial.top) - file_height(sim, sc->triaxial.bottom);
    return GRAINS_OK;
}

/* Whether the top platen has begun to load. */
static int loading(const grains_scenario *sc, const grains_sim *sim)
{
    const grains_motion *m = &sc->meshes[sc->triaxial.top].motion;
    return m->type == GRAINS_MOTION_SERVO && m->load_after > 0 && grains_sim_time(sim) > m->load_after;
}

grains_status triaxial_row(triaxial_log *t, const grains_scenario *sc, const grains_sim *sim, grains_error *err)
{
    if (!t->f)
        return GRAINS_OK;
    grains_wall top, bottom;
    grains_sim_get_wall(sim, (size_t)sc->triaxial.top, &top);
    grains_sim_get_wall(sim, (size_t)sc->triaxial.bottom, &bottom);
    double h = t->gap0 + top.shift.z - bottom.shift.z;
    if (!loading(sc, sim)) /* the strain counts from the gap at which loading begins */
        t->h0 = h;
    grains_membrane_load load;
    const grains_scenario_membrane *e = &sc->membranes[sc->triaxial.membrane];
    grains_sim_membrane_load(sim, (size_t)sc->triaxial.membrane, e->origin, (grains_vec3){0, 0, 1}, &load);
    double area = PI * load.mean_radius * load.mean_radius;
    double sigma_c = load.radial_push / load.area, sigma_p = (top.force.z - bottom.force.z) / 2 / area;
    fprintf(t->f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", grains_sim_time(sim), log(t->h0 / h), sigma_c,
            sigma_p, sigma_p - sigma_c, h, load.mean_radius, load.pressure);
    if (fflush(t->f) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, sc->output_dir, 0, "cannot write triaxial.csv");
    return GRAINS_OK;
}

void triaxial_close(triaxial_log *t)
{
    if (t->f)
        fclose(t->f);
    t->f = NULL;
}
