/* The table of integrators (integrate/integrator.h): what each runs; their names and how the
 * contact springs follow them are in their list (grains/choices.h). */
#include "integrate/integrator.h"

#include <stddef.h>

static const integrator rows[] = {
    /* TinyDEM's semi-implicit Euler with SPIRAL (Eqs. 41-48): forces from x(t), v(t) */
    {GRAINS_INTEGRATOR_EULER, 0, 0, LOOP_NONE, LOOP_EULER_SPIRAL, 1, NULL, integrate_vertices_euler, NULL},
    /* velocity Verlet (improved-Verlet Eqs. 8-20): forces from x(t + dt), v(t + dt/2) */
    {GRAINS_INTEGRATOR_VERLET, 1, 0.5, LOOP_VERLET_DRIFT, LOOP_VERLET_KICK, 0,
     integrate_vertices_drift, integrate_vertices_kick, NULL},
    {GRAINS_INTEGRATOR_VERLET_IMPROVED, 1, 0.5, LOOP_VERLET_DRIFT, LOOP_VERLET_KICK, 0,
     integrate_vertices_drift, integrate_vertices_kick, NULL},
    /* the variational integrators (variational-integrator paper Algorithm 1): walls do not move */
    {GRAINS_INTEGRATOR_VARIATIONAL_LEFT, 0, 0, LOOP_NONE, LOOP_NONE, 0, NULL, NULL, integrate_variational},
    {GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT, 0, 0, LOOP_NONE, LOOP_NONE, 0, NULL, NULL,
     integrate_variational},
};

const integrator *integrator_of(grains_integrator kind)
{
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (rows[r].kind == kind)
            return &rows[r];
    return NULL;
}
