/* Radius growth (grow_from, grow_time; insert/grow.c). Each test states the
 * physical fact it checks:
 * - a free sphere grows linearly from grow_from x R to R by grow_time and
 *   stays there (to the round-off of the per-step ratios, 1e-12);
 * - growth does not move a free sphere: its momentum is unchanged (it is
 *   at rest, so exactly zero);
 * - two spheres placed apart that growth brings into overlap push each
 *   other apart symmetrically: the lists see the contact even though
 *   neither moved (growth counts in the skin budget), and the total
 *   momentum stays zero to round-off. */
#include <math.h>

#include "check.h"
#include "support.h"

static void grows_linearly(test_ctx *t)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.R_min = p.R_max = 0.001;
    p.grow_from = 0.5;
    p.dt = 1e-6;
    p.grow_time = 1000 * p.dt;
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.001);
    CHECK_REL(t, get(sim, 0).R, 0.0005, 1e-15, "radius at t = 0 is grow_from x R");
    advance(sim, 250);
    CHECK_REL(t, get(sim, 0).R, 0.0005 + 0.0005 * 0.25, 1e-12, "radius a quarter of the way is linear in t");
    advance(sim, 1000);
    grains_particle q = get(sim, 0);
    CHECK_REL(t, q.R, 0.001, 1e-12, "radius after grow_time is R");
    CHECK(t, q.v.x == 0 && q.v.y == 0 && q.v.z == 0, "growth alone does not move a free sphere");
    printf("  a sphere grown from 0.5 R over 1000 steps: R = %.15g m after 1250\n", q.R);
    grains_sim_destroy(sim);
}

static void growth_makes_contact(test_ctx *t)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.R_min = p.R_max = 0.001;
    p.E = 1e7;
    p.grow_from = 0.8;
    p.grow_time = 0.002;
    p.dt = grains_params_default_dt(&p) / 4;
    p.skin = 1e-4; /* the start's gap is beyond the skin: only a rebuild for the growth lists the pair */
    grains_sim *sim = scene(&p);
    /* 1.9 mm apart: 0.3 mm gap at the start (radii 0.8 mm), 0.1 mm overlap when grown */
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.001);
    add(sim, (grains_vec3){0.0019, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.001);
    long steps = (long)ceil(p.grow_time / p.dt) + 10;
    advance(sim, steps);
    grains_particle a = get(sim, 0), b = get(sim, 1);
    printf("  two spheres grown into contact: v = %.6g and %.6g m/s\n", a.v.x, b.v.x);
    CHECK(t, a.v.x < 0 && b.v.x > 0, "spheres grown into overlap push each other apart");
    CHECK(t, fabs(a.v.x + b.v.x) <= 1e-12 * fabs(a.v.x), "equal spheres get opposite velocities (momentum zero)");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    grows_linearly(&t);
    growth_makes_contact(&t);
    return test_report(&t, "test_grow");
}
