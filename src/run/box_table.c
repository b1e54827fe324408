/* box.csv (docs/scenario.md, "A box that moves: box.csv"; docs/model.md,
 * "A box held at a pressure"): a row per frame with a moving box's height
 * and offset and the mean of the grains' stress over the frame's samples
 * (grains_sim_box), which the row then clears. */
#include <stdlib.h>

#include "core/changeable.h"
#include "run/run.h"

/* Whether the scenario's box moves, at its start or from a stage on. */
static int box_moves(const grains_scenario *sc)
{
    int on = sc->params.shear_rate != 0 || sc->params.box_pressure > 0;
    const int keys[2] = {changeable_find("shear_rate"), changeable_find("box_pressure")};
    for (int k = 0; k < sc->n_stages; k++)
        for (int j = 0; j < 2; j++) {
            real v = sc->stages[k].set[keys[j]];
            on |= v == v && v != 0; /* (NAN: unchanged) */
        }
    return on;
}

grains_status run_box_open(run_output *o, long resume_len, grains_error *err)
{
    if (!box_moves(o->sc))
        return GRAINS_OK;
    return run_table_open(&o->box, o->sc->output_dir, "box.csv",
                          "step,time,L_z,shift,shear_velocity,height_rate,samples,solid_fraction,"
                          "sxx,syy,szz,sxy,sxz,syz,pressure,mu\n",
                          resume_len, err);
}

grains_status run_box_write(run_output *o, grains_sim *sim, grains_error *err)
{
    if (!o->box)
        return GRAINS_OK;
    grains_box_state b;
    grains_sim_box(sim, &b);
    grains_sim_clear_box_means(sim);
    const double *s = b.mean_stress, p_zz = -s[8];
    /* mu: the shear stress over the normal one on the z faces (none while they carry no push) */
    double mu = p_zz > 0 ? -s[2] / s[8] : 0;
    fprintf(o->box, "%ld,%.9g,%.12g,%.12g,%.9g,%.9g,%ld,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
            grains_sim_steps(sim), grains_sim_time(sim), b.L_z, b.shift, b.shear_velocity, b.height_rate,
            b.samples, b.mean_solid_fraction, s[0], s[4], s[8], s[1], s[2], s[5], -(s[0] + s[4] + s[8]) / 3, mu);
    if (fflush(o->box) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write box.csv");
    return GRAINS_OK;
}
