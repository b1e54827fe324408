/* The servo that holds the confining stress the grains feel
 * (GRAINS_PRESSURE_FELT). A triaxial cell controls the stress on the
 * sample, and the membrane paper's sigma_d = sigma_p - sigma_c (Section
 * 3.1) assumes it; the pressure a membrane applies (Eq. 18) reaches the
 * grains only in part, since the triangles next to its pinned rims hand a
 * share to the platens (case 1: 86 kPa felt of 100 kPa applied).
 *
 * After each step the felt stress sigma_f (the grains' push on the
 * membrane, radial about its axis, over its area: the `sigma_c` of
 * triaxial.csv) is compared with the stress asked for, sigma (with its ramp,
 * at the time the step applied it), and the difference is integrated into
 * the servo's addition c to the pressure applied, sigma + c:
 *   dc/dt = (sigma - sigma_f) / tau,   c kept within [-sigma, 9 sigma],
 * an integral controller whose time constant tau (control_time, default
 * 2000 dt) is long beside the membrane's vertices' response to a change of
 * pressure (a few hundred steps), so that the step's noise averages out.
 * The bounds keep a membrane that no grain touches from winding the
 * pressure up without end; a small cell whose pinned rims carry much of the
 * pressure needs more than twice the stress asked for (40 grains in a
 * membrane 10 mm in radius, 3 rings high: 2.4 times).
 * Every rank holds every membrane and the whole's patch logs in one order:
 * every rank computes the same bits. */
#include <math.h>

#include "membrane/forces.h"
#include "membrane/patches.h"

/* The servo's time constant: the membrane's own, or 2000 dt. */
static real control_time(real dt, const membrane_material *mat)
{
    return mat->control_time > 0 ? mat->control_time : 2000 * dt;
}

void sim_hold_confinement(const membrane_view *v, real t, real dt)
{
    sim_membranes *mb = v->mb;
    for (size_t k = 0; k < mb->n; k++) {
        const membrane *m = &mb->list[k];
        if (m->mat.pressure_control != GRAINS_PRESSURE_FELT)
            continue;
        real sigma = membrane_pressure_at(&m->mat, t);
        grains_membrane_load load; /* what triaxial.csv's sigma_c reads, by the same call */
        sim_membrane_load_at(v, k, m->mat.axis_point, m->mat.axis, t, &load); /* (its area and push) */
        real felt = load.area > 0 ? load.radial_push / load.area : 0;
        real c = mb->held[k] + dt / control_time(dt, &m->mat) * (sigma - felt);
        mb->held[k] = fmin(9 * sigma, fmax(-sigma, c));
    }
}
