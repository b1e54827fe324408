/* The last good state (src/sim/last_good.c). The fact checked: a step that
 * fails its check leaves the simulation exactly as it was before the step,
 * for every explicit integrator. Euler checks before it moves anything;
 * the Verlet rows have drifted the grains, kicked their velocities and
 * moved the meshes by then, and must put all of it back. A run stopped by
 * an unstable step is compared bit for bit with a twin that took one step
 * fewer. */
#include <string.h>

#include "check.h"
#include "support.h"

/* Two grains closing head-on at 40 m/s under a vibrating floor: with dt at
 * Eq. 49 their overlap passes max_overlap within a few steps of touching. */
static grains_sim *collision(grains_integrator in)
{
    grains_params p = scene_params();
    p.integrator = in;
    p.max_overlap = 0.05;
    p.g = (grains_vec3){0, 0, -9.81};
    grains_params_derive(&p);
    grains_sim *sim = scene(&p);
    grains_motion shake = grains_motion_fixed();
    shake.type = GRAINS_MOTION_VIBRATE;
    shake.amplitude = 1e-3;
    shake.frequency = 50;
    shake.axis = (grains_vec3){0, 0, 1};
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-1, -1, 0}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){1, -1, 0}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){1, 1, 0}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-1, 1, 0}, &err);
    uint32_t v[4] = {0, 1, 2, 3};
    grains_mesh_add_element(m, 4, v, 0, 0, &err);
    grains_sim_add_mesh(sim, m, &shake, &err);
    grains_mesh_destroy(m);
    add(sim, (grains_vec3){-0.02, 0, 0.05}, (grains_vec3){20, 0, 0}, (grains_vec3){0, 30, 0}, 0.004);
    add(sim, (grains_vec3){0.02, 0, 0.05}, (grains_vec3){-20, 0, 0}, (grains_vec3){0, 0, 5}, 0.004);
    add(sim, (grains_vec3){0.3, 0, 0.0045}, (grains_vec3){0.1, 0, 0}, (grains_vec3){0, 0, 0}, 0.004);
    return sim;
}

static void last_good(test_ctx *t, grains_integrator in, const char *name)
{
    grains_sim *a = collision(in);
    grains_error err;
    long steps = 0;
    grains_status s = GRAINS_OK;
    while (s == GRAINS_OK && steps < 100000)
        if ((s = grains_sim_step(a, &err)) == GRAINS_OK)
            steps++;
    CHECK(t, s == GRAINS_ERR_UNSTABLE, "%s: the collision fails its check (%s)", name, grains_status_string(s));
    CHECK(t, grains_sim_steps(a) == steps, "%s: the failed step is not counted", name);
    grains_sim *b = collision(in);
    grains_sim_advance(b, steps, &err);
    int same = 1;
    for (size_t i = 0; i < grains_sim_count(a); i++)
        same = same && same_particle(get(a, i), get(b, i));
    grains_wall wa, wb;
    grains_sim_get_wall(a, 0, &wa);
    grains_sim_get_wall(b, 0, &wb);
    CHECK(t, same, "%s: after the failed step %ld every grain is where it was before it", name, steps + 1);
    CHECK(t, !memcmp(&wa.shift, &wb.shift, sizeof wa.shift) && !memcmp(&wa.velocity, &wb.velocity, sizeof wa.velocity),
          "%s: the vibrating floor is back where it was (z %.17g against %.17g)", name, wa.shift.z, wb.shift.z);
    const grains_mesh *ma = grains_sim_mesh(a), *mb = grains_sim_mesh(b);
    CHECK(t, !memcmp(ma->vertices, mb->vertices, ma->n_vertices * sizeof *ma->vertices),
          "%s: the floor's vertices are back", name);
    /* and the run can go on from there: with a smaller dt nothing stops it */
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* A speed whose square a double cannot hold (|v| = 1e160, set past the
 * input checks) is not written on: Euler finds it after its update, with no
 * copy of the state before, names the grain and takes no step more; the
 * Verlet rows, which keep a copy after a particle was set, put it back. */
static void non_finite(test_ctx *t, grains_integrator in, const char *name)
{
    grains_params p = scene_params();
    p.integrator = in;
    grains_params_derive(&p);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0.05}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.004);
    add(sim, (grains_vec3){0.02, 0, 0.05}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.004);
    grains_error err;
    CHECK(t, grains_sim_advance(sim, 10, &err) == GRAINS_OK, "%s: 10 quiet steps: %s", name, err.message);
    grains_particle fast = get(sim, 1);
    fast.v.x = 1e160;
    grains_sim_set_particle(sim, 1, &fast);
    grains_status s = grains_sim_step(sim, &err);
    int euler = in == GRAINS_INTEGRATOR_EULER;
    CHECK(t, s == GRAINS_ERR_UNSTABLE && err.particle == 1 && strstr(err.message, "whose square is not finite"),
          "%s: the step fails on particle 1 (%s: %s)", name, grains_status_string(s), err.message);
    CHECK(t, grains_sim_steps(sim) == 10 && grains_sim_stopped(sim) == euler, "%s: not counted; %s", name,
          euler ? "no step more" : "the state put back");
    if (euler)
        CHECK(t, grains_sim_step(sim, &err) == GRAINS_ERR_ARG && strstr(err.message, "not finite and was not kept"),
              "%s: a later step is refused: %s", name, err.message);
    else
        CHECK(t, same_particle(get(sim, 1), fast), "%s: particle 1 is as it was set", name);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    non_finite(&t, GRAINS_INTEGRATOR_EULER, "euler");
    non_finite(&t, GRAINS_INTEGRATOR_VERLET, "verlet");
    last_good(&t, GRAINS_INTEGRATOR_EULER, "euler");
    last_good(&t, GRAINS_INTEGRATOR_VERLET, "verlet");
    last_good(&t, GRAINS_INTEGRATOR_VERLET_IMPROVED, "verlet_improved");
    return test_report(&t, "test_last_good");
}
