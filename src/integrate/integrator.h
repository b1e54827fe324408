/* The integrators as rows of one table (src/integrate/integrators.c). Every
 * step has one shape (src/sim/step.c):
 *   begin (Verlet's half kick and drift) -> boundaries placed at t + place_at dt
 *   -> neighbours if stale -> sources (bond formation, spawning) -> advance
 *   (forces, check, update; or Newton iterations over the same forces) -> t += dt.
 * A row names its functions; an explicit row's `update` runs in the force
 * loop's thread team, after every thread has found the forces stable. */
#ifndef GRAINS_INTEGRATE_INTEGRATOR_H
#define GRAINS_INTEGRATE_INTEGRATOR_H

#include "grains/error.h"
#include "grains/params.h"
#include "particles/particles.h"

typedef struct grains_sim grains_sim;

/* Per material, for the integrators: 1 / (4/3 pi rho) and the Stokes
 * factor 9 eta / (2 rho) of Eq. 3, so that no particle divides by rho. */
typedef struct {
    real inv_rho_volume, drag;
} material_motion;

/* What a particle loop of an integrator reads: the particles, the run's
 * constants, each material's. */
typedef struct {
    grains_particles *pt;
    const grains_params *p;
    const material_motion *motion;
} integrate_view;

typedef struct {
    grains_integrator kind;
    const char *name;
    real place_at;  /* the boundaries are placed at t + place_at dt ... */
    real rates_at;  /* ... with their rates at t + rates_at dt */
    /* Before the boundaries move (a worksharing loop for every thread of a
     * team); notes the largest squared speed; NULL: nothing. */
    void (*begin)(const integrate_view *v, real *max_v2);
    /* After the forces (a worksharing loop): the update; notes the largest
     * squared speed where it moves the particles. NULL for implicit rows. */
    void (*update)(const integrate_view *v, real *max_v2);
    /* Whether `update` moves positions (then the step's displacement bound
     * grows by the largest speed after it). */
    int update_moves;
    /* The whole advance of an implicit row (its own forces and check). */
    grains_status (*advance)(grains_sim *sim, grains_error *err);
} integrator;

/* The row of `kind`. */
const integrator *integrator_of(grains_integrator kind);

/* The explicit loops (integrate/euler_spiral.c, integrate/velocity_verlet.c). */
void integrate_euler_spiral(const integrate_view *v, real *max_v2);
void integrate_verlet_drift(const integrate_view *v, real *max_v2);
void integrate_verlet_kick(const integrate_view *v, real *max_v2);

/* The variational step (integrate/variational.c): the implicit solve and its
 * check; on failure nothing has moved. */
grains_status integrate_variational(grains_sim *sim, grains_error *err);

#endif
