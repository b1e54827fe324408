/* grains_sim_relax: relaxation to a static packing (integrate/relax.c)
 * over the simulation's force field (interact/implicit_field.c). */
#include <string.h>

#include "sim/sim_internal.h"

grains_status grains_sim_relax(grains_sim *sim, double force_tol, long max_steps, grains_relax_result *out,
                               grains_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(force_tol > 0 && force_tol < 1) || max_steps < 1)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "relaxation: force_tol = %g must be in (0, 1) and max_steps = %ld >= 1", force_tol,
                                max_steps);
    if (sim_shared(sim))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "relaxation does not run on several ranks yet");
    if (sim_membranes_count(&sim->mb) > 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "relaxation moves the particles alone, and a membrane's vertices are not part of its "
                                "potential: not with membranes");
    if (sim->guide.on)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "relaxation ends with every velocity 0, which would stop the guided particle (%u)",
                                sim->guide.id);
    for (int k = 0; k < sim->p.n_materials; k++)
        if (sim->motion[k].fixed)
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "relaxation moves every grain, and materials[%d]'s stay put (fixed): not with "
                                    "grains that stay put", k);
    if (sim_bonds_count(&sim->bonds) > 0 || sim->p.bond_tolerance > 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "relaxation minimises a potential, but bonds' springs depend on the path and have none");
    implicit_field field;
    grains_status s = sim_implicit_field(sim, &field, err);
    integrate_view view = sim_view(sim, 0, sim->pt.n);
    if (s != GRAINS_OK || (s = implicit_relax(&sim->vi, &field, &view, force_tol, max_steps, out, err)) != GRAINS_OK)
        return s;
    memset(sim->pt.v, 0, sim->pt.n * sizeof *sim->pt.v);
    memset(sim->pt.w, 0, sim->pt.n * sizeof *sim->pt.w);
    sim->diag = sim_reduce_diag(sim); /* the last evaluation: the forces at the end */
    sim->max_overlap = sim->diag.max_num / sim->diag.max_den;
    /* the static load on each mesh */
    implicit_eval loads = {sim->pt.x, sim->pt.v, 1, 0, sim->vi.r, IMPLICIT_WALLS, 0, 0, NULL};
    field.forces(field.self, &loads);
    return GRAINS_OK;
}
