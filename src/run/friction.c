/* friction.csv (docs/scenario.md, "Friction test"; membrane paper Section
 * 3.2, Fig. 6): a row per frame with the guided sphere's place along its
 * velocity (x) and along its free axis (z), and the contact force on it
 * along each (fx, fz): the friction it feels and the surface's push. */
#include <math.h>

#include "run/run.h"

grains_status friction_open(friction_log *l, const grains_scenario *sc, const grains_sim *sim, long resume_len,
                            grains_error *err)
{
    l->f = NULL;
    if (!sc->friction.on)
        return GRAINS_OK;
    l->id = grains_sim_count(sim) - 1; /* run_load adds it last (a resumed run's record says which) */
    return run_table_open(&l->f, sc->output_dir, "friction.csv", "x,fx,fz,z\n", resume_len, err);
}

static double dot(grains_vec3 a, grains_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static grains_vec3 unit(grains_vec3 a)
{
    double n = sqrt(dot(a, a));
    return (grains_vec3){a.x / n, a.y / n, a.z / n};
}

grains_status friction_row(friction_log *l, const grains_scenario *sc, const grains_sim *sim, grains_error *err)
{
    if (!l->f)
        return GRAINS_OK;
    grains_vec3 along = unit(sc->friction.velocity), up = unit(sc->friction.axis);
    grains_particle p;
    grains_sim_get_particle(sim, l->id, &p);
    grains_vec3 f = grains_sim_guide_force(sim);
    fprintf(l->f, "%.9g,%.9g,%.9g,%.9g\n", dot(p.x, along), dot(f, along), dot(f, up), dot(p.x, up));
    if (fflush(l->f) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, sc->output_dir, 0, "cannot write friction.csv");
    return GRAINS_OK;
}

void friction_close(friction_log *l)
{
    if (l->f)
        fclose(l->f);
    l->f = NULL;
}
