/* A guided particle (grains_sim_guide): held at a constant velocity across
 * one axis, free along it, without spin. The membrane paper's friction test
 * (Section 3.2) drags a sphere so across a membrane: "its horizontal motion
 * at constant velocity ... is enforced externally", and rolling is
 * suppressed.
 *
 * The hold is a force, not a reset of the state: with n the unit axis,
 * between the step's forces and the update the force sum becomes
 *   f' = (f . n) n + m (c v_perp - g_perp),   t' = (10 c / 3) I w = 0,
 * (c the Stokes factor of TinyDEM Eq. 3, v_perp and g_perp the parts across
 * n) so that every kick of the explicit rows adds nothing across n: the
 * velocity there stays the one set, and the drift moves the particle by
 * exactly velocity dt per step. Along n the contacts, gravity and drag act
 * as on any particle. The contact force f before the hold is kept: a
 * friction test reads it. */
#include <math.h>

#include "sim/sim_internal.h"

/* a - (a . n) n */
static vec3 across(vec3 a, vec3 n) { return v3_axpy(a, -v3_dot(a, n), n); }

/* The force and torque that hold slot i: its contact force f along the
 * axis, and what cancels gravity and drag across it. */
static void hold(grains_sim *sim, uint32_t i)
{
    grains_particles *pt = &sim->pt;
    const sim_guide *g = &sim->guide;
    integrate_view view = sim_view(sim, 0, pt->n);
    real m = particle_mass(&view, i), c = particle_drag(&view, i);
    vec3 along = v3_scale(v3_dot(pt->f[i], g->axis), g->axis);
    vec3 cancel = v3_sub(v3_scale(c, across(pt->v[i], g->axis)), across(sim->p.g, g->axis));
    pt->f[i] = v3_axpy(along, m, cancel);
    pt->t[i] = v3(0, 0, 0); /* w = 0: the drag's torque is 0 too */
}

void sim_guide_hold(grains_sim *sim)
{
    uint32_t i = sim->pt.slot[sim->guide.id];
    sim->guide.f_contact = sim->pt.f[i];
    hold(sim, i);
}

grains_status grains_sim_guide(grains_sim *sim, const grains_guide *g, grains_error *err)
{
    vec3 n = g->axis, v = g->velocity;
    real len = sqrt(v3_dot(n, n));
    if (g->id >= sim->pt.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "guide: particle %zu does not exist (%zu particles)",
                                g->id, sim->pt.n);
    if (!(len > 0 && isfinite(len) && isfinite(v3_dot(v, v))))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "guide: the axis must be finite and not zero, the velocity finite");
    n = v3_scale(1 / len, n);
    if (fabs(v3_dot(v, n)) > 1e-12 * sqrt(v3_dot(v, v)))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "guide: the velocity must be across the axis (velocity . axis = 0); the motion along "
                                "the axis is the particle's own");
    if (sim->integrator->advance)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "guide: integrator \"%s\" is implicit; a guided particle needs an explicit one "
                                "(euler, verlet, verlet_improved)",
                                grains_choice_name(&grains_integrators, (int)sim->integrator->kind));
    sim->guide = (sim_guide){1, (uint32_t)g->id, v, n, v3(0, 0, 0)};
    uint32_t i = sim->pt.slot[g->id];
    grains_particles *pt = &sim->pt;
    pt->v[i] = v3_axpy(v, v3_dot(pt->v[i], n), n);
    pt->w[i] = v3(0, 0, 0);
    hold(sim, i); /* the sums Verlet's first drift reads: nothing across the axis */
    return GRAINS_OK;
}

grains_vec3 grains_sim_guide_force(const grains_sim *sim)
{
    return sim->guide.on ? sim->guide.f_contact : v3(0, 0, 0);
}
