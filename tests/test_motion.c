/* Free motion and invariances: SPIRAL keeps |q| = 1 and turns exactly by
 * |w| t at constant w; a scene translated or mirrored moves the same way;
 * any thread count gives bit-identical results. */
#include <string.h>

#include "check.h"
#include "math/quat.h"
#include "support.h"

/* Constant w (no torque): after n steps q = (cos(|w| t / 2), sin(|w| t / 2) w/|w|). */
static void spiral_exact(test_ctx *t)
{
    grains_params p = scene_params();
    grains_sim *sim = scene(&p);
    grains_vec3 w = {3.1, -4.7, 12.9};
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, w, 1e-3);
    long n = 10000;
    advance(sim, n);
    grains_particle q = get(sim, 0);
    double wn = sqrt(w.x * w.x + w.y * w.y + w.z * w.z), half = wn * grains_sim_time(sim) / 2;
    double qn = sqrt(q.q.q0 * q.q.q0 + q.q.q1 * q.q.q1 + q.q.q2 * q.q.q2 + q.q.q3 * q.q.q3);
    CHECK_ABS(t, qn, 1, 1e-12, "|q| after 10^4 SPIRAL steps");
    CHECK_ABS(t, q.q.q0, cos(half), 1e-11, "q0 = cos(|w| t / 2)");
    CHECK_ABS(t, q.q.q1, sin(half) * w.x / wn, 1e-11, "q1");
    CHECK_ABS(t, q.q.q3, sin(half) * w.z / wn, 1e-11, "q3");
    grains_sim_destroy(sim);
}

/* A small frictional cluster falling onto a floor. */
static grains_sim *cluster_with(double shift, int mirror, int threads, long steps, grains_integrator integrator)
{
    grains_params p = scene_params();
    p.integrator = integrator;
    p.g = (grains_vec3){0, 0, -9.81};
    p.threads = threads;
    p.mu_s = 0.4;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, shift);
    for (int k = 0; k < 60; k++) {
        double x = 0.011 * (k % 4) + 1e-4 * k, y = 0.011 * ((k / 4) % 4), z = 0.01 + 0.011 * (k / 16);
        double wx = 3.0 * (k % 3) - 2;
        add(sim, (grains_vec3){mirror ? -x : x, y, z + shift}, (grains_vec3){mirror ? -0.1 : 0.1, 0, 0},
            (grains_vec3){wx, 0, mirror ? -1.5 : 1.5}, 4e-3 + 1e-4 * (k % 5));
    }
    advance(sim, steps);
    return sim;
}

static grains_sim *cluster(double shift, int mirror, int threads, long steps)
{
    return cluster_with(shift, mirror, threads, steps, GRAINS_INTEGRATOR_EULER);
}

static void translation(test_ctx *t)
{
    /* Shifting by 0.37 changes the round-off of every position (ulp 5.6e-17);
     * the collision cascade amplifies such differences by e every ~100
     * steps (measured: 1.4e-15 at step 750, 8.8e-14 at 1000, 2e-8 at 3000).
     * A force that depended on absolute position would differ at O(1). */
    grains_sim *a = cluster(0, 0, 1, 1000), *b = cluster(0.37, 0, 1, 1000);
    double worst = 0;
    for (size_t i = 0; i < grains_sim_count(a); i++)
        worst = nan_max(worst, fabs(get(b, i).x.z - 0.37 - get(a, i).x.z) + fabs(get(b, i).x.x - get(a, i).x.x));
    /* positions ~0.4 carry round-off of 0.4 * 2^-52 per operation */
    CHECK(t, worst < 1e-12, "a translated scene moves the same way: worst difference %.3g m", worst);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* x -> -x with v_x, w_y, w_z flipped (w is a pseudovector). Negation is
 * exact, but mirrored particles land in other grid cells, so forces are
 * summed in another order: round-off, amplified as in translation(). */
static void mirror(test_ctx *t)
{
    grains_sim *a = cluster(0, 0, 1, 1000), *b = cluster(0, 1, 1, 1000);
    double worst = 0;
    for (size_t i = 0; i < grains_sim_count(a); i++) {
        grains_particle pa = get(a, i), pb = get(b, i);
        worst = nan_max(worst, fabs(pa.x.x + pb.x.x) + fabs(pa.x.y - pb.x.y) + fabs(pa.x.z - pb.x.z));
    }
    CHECK(t, worst < 1e-12, "a mirrored scene moves as the mirror image: worst difference %.3g m", worst);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* One thread runs without an OpenMP region, more with one; the Verlet
 * schemes add a drift before the search and a kick after the forces. */
static void threads(test_ctx *t)
{
    const char *names[] = {"euler", "verlet", "verlet_improved"};
    for (int k = 0; k < 3; k++) {
        grains_integrator in = (grains_integrator)k;
        grains_sim *a = cluster_with(0, 0, 1, 3000, in), *b = cluster_with(0, 0, 2, 3000, in),
                   *c = cluster_with(0, 0, 3, 3000, in);
        int same = 1;
        for (size_t i = 0; i < grains_sim_count(a); i++) {
            grains_particle pa = get(a, i), pb = get(b, i), pc = get(c, i);
            same = same && memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&pa, &pc, sizeof pa) == 0;
        }
        CHECK(t, same, "%s: 1, 2 and 3 threads give bit-identical states", names[k]);
        grains_sim_destroy(a);
        grains_sim_destroy(b);
        grains_sim_destroy(c);
    }
}

/* 2D mode (Section 3.1): conforming inputs stay in their plane exactly. */
static void planar(test_ctx *t)
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.N_max = 200;
    p.N_spawn = 20;
    p.v0 = (grains_vec3){0.2, 0, -1};
    p.s_min = (grains_vec3){-0.05, 0.0123, 0.02};
    p.s_max = (grains_vec3){0.05, 0.0123, 0.2};
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    advance(sim, 4000);
    int in_plane = 1;
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_particle q = get(sim, i);
        in_plane = in_plane && q.x.y == 0.0123 && q.v.y == 0 && q.w.x == 0 && q.w.z == 0;
    }
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    CHECK(t, grains_sim_count(sim) == 200 && th.n_contacts > 50, "2D run has particles in contact (%zu, %zu)",
          grains_sim_count(sim), th.n_contacts);
    CHECK(t, in_plane, "2D particles stay exactly in the plane y = 0.0123 and rotate about y only");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    spiral_exact(&t);
    translation(&t);
    mirror(&t);
    threads(&t);
    planar(&t);
    return test_report(&t, "test_motion");
}
