/* What a run can represent, from its own scales: finite numbers are not
 * enough (a grain thrown at 1e200 m/s, a radius of 1e300, a wall vibrating
 * at 1e300 Hz are finite, and each turns the state to inf or NaN within a
 * step). The bounds follow from the step: nothing may move farther in one
 * step than the smallest grain's radius (else it passes through grains
 * unseen), nor turn more than a radian; a vibration needs two steps a
 * period to be sampled at all; a grain's mass and moment of inertia and
 * their inverses must be normal numbers; a mesh vertex must lie within
 * 10^9 grain radii of the origin, where a double still resolves a
 * millionth of a radius. Each is checked where the thing enters the
 * simulation, so `grains check` and `grains run` refuse alike. */
#include <math.h>
#include <stdio.h>

#include "sim/sim_internal.h"

#define PI 3.14159265358979323846
#define FARTHEST_RADII 1e9 /* a vertex's distance from the origin, in R_min */

/* |a| without overflow in the squares (|a| = 1e200 is 1e200, not inf),
 * nor in 1 / max (a subnormal 5e-324: its squares are 0, its 1 / m inf). */
static real length(vec3 a)
{
    real m = fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z)));
    return m > 0 && isfinite(m) && isfinite(1 / m) ? m * v3_norm(v3_scale(1 / m, a)) : isfinite(m) ? v3_norm(a) : m;
}

grains_status sim_scale_particle(const grains_sim *sim, const grains_particle *p, grains_error *err)
{
    real R = p->R, dt = sim->p.dt;
    real inv_m = sim->motion[p->material].inv_rho_volume / (R * R * R), inv_I = 2.5 * inv_m / (R * R);
    if (!isnormal(inv_m) || !isnormal(inv_I))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "particle radius R = %g: its mass or moment of inertia (density %g) is beyond "
                                "what a double holds", R, grains_params_material(&sim->p, p->material).rho);
    const material_motion *mm = &sim->motion[p->material]; /* a grain that stays put moves so */
    real v = length(mm->fixed ? mm->velocity : p->v), w = mm->fixed ? 0 : length(p->w);
    if (!(v * dt <= R))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "particle speed |v| = %g moves it %g of its radius R = %g in a step (dt = %g): "
                                "more than its radius, it would pass through grains unseen", v, v * dt / R, R, dt);
    if (!(w * dt <= 1))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "particle spin |w| = %g turns it %g rad in a step (dt = %g): more than 1 rad", w,
                                w * dt, dt);
    return GRAINS_OK;
}

grains_status sim_scale_mesh(const grains_sim *sim, const grains_mesh *mesh, grains_error *err)
{
    real far = FARTHEST_RADII * sim->p.R_min;
    for (size_t k = 0; k < mesh->n_vertices; k++) {
        vec3 x = mesh->vertices[k];
        if (!(fabs(x.x) <= far && fabs(x.y) <= far && fabs(x.z) <= far))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "mesh vertex %zu at (%g, %g, %g) is farther than %g (10^9 x R_min = %g) from "
                                    "the origin: a double no longer resolves a grain's overlap there",
                                    k, x.x, x.y, x.z, far, sim->p.R_min);
    }
    return GRAINS_OK;
}

/* The fastest a table's rows move a point at distance `reach`. */
static real fastest_row(const grains_motion *m, real reach)
{
    real most = 0;
    for (size_t k = 1; k < m->n_table; k++) {
        const grains_motion_sample *a = &m->table[k - 1], *b = &m->table[k];
        real v = (v3_norm(v3_sub(b->x, a->x)) + fabs(b->angle - a->angle) * reach) / (b->t - a->t);
        most = v > most ? v : most;
    }
    return most;
}

/* The fastest a mesh point at distance `reach` from the motion's point
 * moves: a bound from the motion's own numbers. */
static real fastest(const grains_motion *m, real reach)
{
    switch (m->type) {
    case GRAINS_MOTION_LINEAR: return length(m->velocity);
    case GRAINS_MOTION_ROTATE: return length(m->velocity) + fabs(m->omega) * reach;
    case GRAINS_MOTION_VIBRATE: return m->amplitude * 2 * PI * m->frequency;
    case GRAINS_MOTION_TABLE: return fastest_row(m, reach);
    case GRAINS_MOTION_SERVO: return fmax(m->max_speed, m->load_speed) + length(m->velocity);
    default: return 0;
    }
}

double grains_sim_mesh_speed(const grains_sim *sim, size_t k)
{
    if (k >= sim->wl.n || sim->wl.body[k].removed)
        return 0;
    return fastest(&sim->wl.body[k].motion, sim->wl.body[k].reach);
}

grains_status sim_scale_motion(const grains_sim *sim, const grains_motion *m, real reach, grains_error *err)
{
    real dt = sim->p.dt, R = sim->p.R_min, v = fastest(m, reach);
    if (m->type == GRAINS_MOTION_VIBRATE && !(2 * m->frequency * dt <= 1))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "frequency = %g: a period is %g steps of dt = %g; a vibration needs at least 2",
                                m->frequency, 1 / (m->frequency * dt), dt);
    if (!(v * dt <= R))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "the mesh moves up to %g a step (speed %g, dt = %g): more than R_min = %g, it would "
                                "pass through grains unseen", v * dt, v, dt, R);
    return GRAINS_OK;
}

grains_status sim_scale_gravity(const grains_sim *sim, grains_vec3 g, grains_error *err)
{
    real a = length(g), dt = sim->p.dt;
    if (!(a * dt * dt <= sim->p.R_min))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "gravity |g| = %g moves a grain %g of R_min = %g in one step from rest (dt = %g): "
                                "more than its radius (a g for these units?)", a, a * dt * dt / sim->p.R_min,
                                sim->p.R_min, dt);
    return GRAINS_OK;
}

grains_status sim_scale_regions(const grains_sim *sim, grains_error *err)
{
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++) {
        grains_spawn_region r = grains_params_spawn(&sim->p, k);
        grains_particle smallest = {r.lo, r.v0, r.w0, {1, 0, 0, 0}, sim->p.R_min, r.material, r.tag};
        grains_particle largest = smallest;
        largest.R = sim->p.R_max;
        const char *key = sim->p.n_spawns ? "spawns" : "v0";
        grains_status s = sim_scale_particle(sim, &smallest, err);
        if (s == GRAINS_OK && (s = sim_scale_particle(sim, &largest, err)) != GRAINS_OK)
            key = "R_max";
        if (s != GRAINS_OK) {
            char what[sizeof err->message];
            snprintf(what, sizeof what, "%s", err->message);
            return grains_error_set(err, s, NULL, 0, "%s: %s", key, what);
        }
    }
    return GRAINS_OK;
}
