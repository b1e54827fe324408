/* A sheared periodic box (Lees & Edwards 1972; docs/model.md, "Sheared
 * periodic boxes"): the offset of the images above and below, which the
 * run carries from step to step (and its checkpoints), and what the
 * images' motion asks of the lists. */
#include <math.h>

#include "sim/sim_internal.h"

void sim_shear_frame(grains_sim *sim)
{
    periodic_box *b = &sim->box;
    b->sheared = (b->mask & 5) == 5 && (sim->p.shear_rate != 0 || sim->shear_shift != 0);
    b->shear_v = b->sheared ? sim->p.shear_rate * b->L[2] : 0;
    b->shift = sim->shear_shift;
}

/* The offset `steps` steps on from the run's (in [0, L_x)). */
static real shift_after(const grains_sim *sim, real steps)
{
    const periodic_box *b = &sim->box;
    return wrap_coordinate(sim->shear_shift + steps * b->shear_v * sim->p.dt, 0, b->L[0], b->inv_L[0]);
}

void sim_shear_place(grains_sim *sim, real at)
{
    if (!sim->box.sheared)
        return;
    sim->box.shift = at != 0 ? shift_after(sim, at) : sim->shear_shift;
    /* a pair across the images closes by the change of their offset, as
     * two grains that each moved half of it (the lists' bound, sim/step.c) */
    sim->displacement += 0.5 * fabs(sim->box.shear_v) * sim->p.dt;
}

void sim_shear_advance(grains_sim *sim)
{
    if (!sim->box.sheared)
        return;
    sim->shear_shift = shift_after(sim, 1);
    sim->box.shift = sim->shear_shift;
}

grains_status sim_shear_refusals(const grains_sim *sim, grains_error *err)
{
    if (!sim->box.sheared && !(sim->p.box_pressure > 0))
        return GRAINS_OK;
    if ((sim->mesh && sim->mesh->n_elements) || sim_membranes_count(&sim->mb))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "%s takes no meshes or membranes yet (they would have to move with the box): remove "
                                "them, or shear or press between walls",
                                sim->box.sheared ? "shear_rate: a sheared periodic box"
                                                 : "box_pressure: a box whose height moves");
    return GRAINS_OK;
}
