/* The integrators as rows of one table (src/integrate/integrators.c). Every
 * step has one shape (src/sim/step.c):
 *   begin (Verlet's half kick and drift) -> boundaries placed at t + place_at dt
 *   -> neighbours if stale -> sources (bond formation, spawning) -> advance
 *   (forces, check, update; or Newton iterations over the same forces) -> t += dt.
 * A row names its functions; an explicit row's `update` runs in the force
 * loop's thread team, after every thread has found the forces stable. */
#ifndef GRAINS_INTEGRATE_INTEGRATOR_H
#define GRAINS_INTEGRATE_INTEGRATOR_H

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grains/error.h"
#include "grains/params.h"
#include "math/pi.h"
#include "particles/particles.h"

/* The implicit rows' solver and the force field it iterates over
 * (integrate/implicit.h). */
typedef struct implicit_solver implicit_solver;
typedef struct implicit_field implicit_field;

/* Per material, for the integrators: 1 / (4/3 pi rho) and the Stokes
 * factor 9 eta / (2 rho) of Eq. 3, so that no particle divides by rho; and
 * for a fixed material (grains_material.fixed) the velocity its grains
 * keep, without spin. */
typedef struct {
    real inv_rho_volume, drag;
    int fixed;
    vec3 velocity;
} material_motion;

/* Material k's. */
static inline material_motion material_motion_of(const grains_params *p, int k)
{
    grains_material m = grains_params_material(p, k);
    grains_vec3 v = m.fixed_velocity;
    return (material_motion){3 / (4 * HM_PI * m.rho), 9 * p->eta / (2 * m.rho), m.fixed,
                             {v.x, v.y, v.z}}; /* Eq. 3 */
}

/* Whether grain i stays put (its material's fixed): if so, its velocity
 * is its material's, its spin none and its sums cleared, whatever acted. */
static inline int held_in_place(grains_particles *pt, const material_motion *mm, long i)
{
    if (!mm->fixed)
        return 0;
    pt->v[i] = mm->velocity;
    pt->w[i] = pt->f[i] = pt->t[i] = (vec3){0, 0, 0};
    return 1;
}

/* What a particle loop of an integrator reads: the particles, the run's
 * constants, each material's, and the particles [lo, hi) it moves (all of
 * them, but for a rank's update: its own, decomp/ranks.c), shared out
 * among the calling team, or the calling thread's own range. */
typedef struct {
    grains_particles *pt;
    const grains_params *p;
    const material_motion *motion;
    size_t lo, hi;
    int own; /* 1: [lo, hi) is this thread's alone; 0: the team's, each thread an even part */
} integrate_view;

/* The chunks [*c0, *c1) of the view's n_chunks that this thread moves: all
 * of its own range's, or its even part of the team's (as a static
 * worksharing loop parts them; no barrier after). */
static inline void integrate_chunks(const integrate_view *v, long n_chunks, long *c0, long *c1)
{
    *c0 = 0, *c1 = n_chunks;
#ifdef _OPENMP
    if (!v->own) {
        long t = omp_get_thread_num(), n_threads = omp_get_num_threads();
        *c0 = n_chunks * t / n_threads;
        *c1 = n_chunks * (t + 1) / n_threads;
    }
#endif
}

/* What a membrane-vertex loop reads and moves (integrate/vertices.c):
 * point masses without spin or drag. */
typedef struct {
    vec3 *x, *v;
    const vec3 *f;        /* the forces on them, without gravity */
    const real *inv_mass;
    size_t n;
    vec3 g;
    real dt;
} vertex_view;

/* m_i = 4/3 pi rho R^3 and the Stokes factor c_i = 9 eta / (2 rho R^2) of
 * Eq. 3 (drag force -m_i c_i v). */
static inline real particle_mass(const integrate_view *v, uint32_t i)
{
    real R = v->pt->R[i];
    return R * R * R / v->motion[v->pt->mat[i]].inv_rho_volume;
}

static inline real particle_drag(const integrate_view *v, uint32_t i)
{
    real R = v->pt->R[i];
    return v->motion[v->pt->mat[i]].drag / (R * R);
}

/* The explicit particle loops. Each is compiled once per instruction set
 * (sim/kernels.h), so a row names its loops by these, and the step runs the
 * copy of the set this CPU takes. */
typedef enum {
    LOOP_NONE,         /* nothing */
    LOOP_EULER_SPIRAL, /* integrate_euler_spiral */
    LOOP_VERLET_DRIFT, /* integrate_verlet_drift */
    LOOP_VERLET_KICK,  /* integrate_verlet_kick */
    N_PARTICLE_LOOPS
} particle_loop;

typedef void (*particle_loop_fn)(const integrate_view *v, real *max_v2);

typedef struct {
    grains_integrator kind;
    real place_at;  /* the boundaries are placed at t + place_at dt ... */
    real rates_at;  /* ... with their rates at t + rates_at dt */
    /* Before the boundaries move (every thread of a team calls it, each on
     * its part: integrate_chunks); notes the largest squared speed. */
    particle_loop begin;
    /* After the forces (as begin): the update; notes the largest
     * squared speed where it moves the particles. LOOP_NONE for implicit rows. */
    particle_loop update;
    /* Whether `update` moves positions (then the step's displacement bound
     * grows by the largest speed after it). */
    int update_moves;
    /* The same scheme for the membranes' vertices (serial loops): before
     * the boundaries move, and after the forces. NULL: nothing then. */
    void (*vertex_begin)(const vertex_view *v);
    void (*vertex_update)(const vertex_view *v);
    /* The whole advance of an implicit row: Newton iterations over the
     * field's forces, the field's check, the update; `moved` bounds how far
     * a particle went. On failure nothing has moved. NULL for explicit rows. */
    grains_status (*advance)(implicit_solver *s, const implicit_field *f, const integrate_view *v, real *moved,
                             grains_error *err);
} integrator;

/* The row of `kind`. */
const integrator *integrator_of(grains_integrator kind);

/* The explicit loops (integrate/euler_spiral.c, integrate/velocity_verlet.c). */
void integrate_euler_spiral(const integrate_view *v, real *max_v2);
void integrate_verlet_drift(const integrate_view *v, real *max_v2);
void integrate_verlet_kick(const integrate_view *v, real *max_v2);
void integrate_vertices_euler(const vertex_view *v);
void integrate_vertices_drift(const vertex_view *v);
void integrate_vertices_kick(const vertex_view *v);

/* The variational step (integrate/variational.c), an implicit row's advance. */
grains_status integrate_variational(implicit_solver *s, const implicit_field *f, const integrate_view *v,
                                    real *moved, grains_error *err);

#endif
