/* Particles removed between steps (grains_sim_remove). Each test states the
 * physical fact it checks:
 * - a grain resting on another falls freely once that one is removed: its
 *   speed grows as g t until it lands;
 * - removing grains that touch nothing leaves the others' motion as it was
 *   (their contacts' springs go on), to round-off of the sums' order;
 * - the ids close up: the grain above a removed one is the same grain one id
 *   down, with its own state;
 * - a bond to a removed grain ends, and its partner moves freely;
 * - removing gives the same bits on 1 and 3 threads, and a run saved after a
 *   removal resumes bit for bit;
 * - an id that does not exist or is named twice is refused and nothing
 *   changes. */
#include <math.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "support.h"

static void must_remove(grains_sim *sim, size_t n, const size_t *ids)
{
    grains_error err;
    if (grains_sim_remove(sim, n, ids, &err) != GRAINS_OK) {
        fprintf(stderr, "FAIL: remove: %s\n", err.message);
        exit(1);
    }
}

static grains_params gravity_params(int threads)
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = p.R_max = 0.005;
    p.mu_s = 0.4;
    p.threads = threads;
    return p;
}

/* Two grains stacked on a floor, settled: 0 below, 1 on top. */
static grains_sim *stack(void)
{
    grains_params p = gravity_params(1);
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    add(sim, (grains_vec3){0, 0, 0.005}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    add(sim, (grains_vec3){0, 0, 0.015}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    advance(sim, 20000);
    return sim;
}

static void support_removed(test_ctx *t)
{
    grains_sim *sim = stack();
    double z0 = get(sim, 1).x.z, dt = grains_sim_params(sim)->dt;
    const size_t below[1] = {0};
    must_remove(sim, 1, below);
    CHECK(t, grains_sim_count(sim) == 1 && get(sim, 0).x.z == z0, "the top grain is id 0 now, where it was");
    long n = (long)(0.02 / dt); /* it falls 2 mm in 20 ms: not yet on the floor (its gap 10 mm) */
    advance(sim, n);
    grains_particle top = get(sim, 0);
    double T = (double)n * dt;
    printf("  support removed: after %.3f s the top grain falls at %.6f m/s (g t = %.6f), %.6f m down (g t^2 / 2 = "
           "%.6f)\n", T, -top.v.z, 9.81 * T, z0 - top.x.z, 9.81 * T * T / 2);
    /* the contact's last push (its spring released at once) is gone: free fall to the integrator's O(dt) */
    CHECK_REL(t, -top.v.z, 9.81 * T, 1e-3, "a grain whose support is removed falls freely: v = g t");
    CHECK_REL(t, z0 - top.x.z, 9.81 * T * T / 2, 2e-2, "and drops g t^2 / 2");
    grains_sim_destroy(sim);
}

/* A sliding cluster on a floor (its friction springs loaded) and, far from
 * it, five grains falling from 0.5 m: they touch nothing within the steps. */
static grains_sim *cluster_and_strays(int threads, int strays_first)
{
    grains_params p = gravity_params(threads);
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 2, 0);
    for (int pass = 0; pass < 2; pass++) {
        int strays = strays_first ? pass == 0 : pass == 1;
        for (int k = 0; k < (strays ? 5 : 12); k++) {
            grains_vec3 x = strays ? (grains_vec3){1.0 + 0.05 * k, 1.0, 0.5}
                                   : (grains_vec3){0.0101 * (k % 4), 0.0101 * (k / 4), 0.005};
            add(sim, x, (grains_vec3){strays ? 0 : 0.3, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
        }
    }
    return sim;
}

static void strays_removed(test_ctx *t)
{
    /* the strays are ids 0-4, the cluster 5-16: removed, the cluster is ids 0-11 */
    grains_sim *a = cluster_and_strays(1, 1), *b = cluster_and_strays(1, 0);
    advance(a, 300);
    advance(b, 300);
    const size_t strays[5] = {0, 1, 2, 3, 4};
    size_t contacts = grains_sim_contact_count(a);
    must_remove(a, 5, strays);
    CHECK(t, grains_sim_count(a) == 12 && grains_sim_contact_count(a) == contacts,
          "12 grains and their %zu contacts stay", contacts);
    advance(a, 2000);
    advance(b, 2000);
    double worst = 0, scale = 0;
    for (size_t i = 0; i < 12; i++) { /* b's cluster is ids 0-11 from the start */
        grains_particle pa = get(a, i), pb = get(b, i);
        worst = fmax(worst, fabs(pa.x.x - pb.x.x) + fabs(pa.x.y - pb.x.y) + fabs(pa.x.z - pb.x.z));
        scale = fmax(scale, fabs(pb.x.x));
    }
    printf("  strays removed: the sliding cluster 2000 steps later differs by %.3g m (it moved %.3g m)\n", worst,
           scale);
    /* the sums' order may change with the grid: round-off of 0.05 m grown over 2000 frictional steps
     * (measured: 0, the order unchanged) */
    CHECK(t, worst < 1e-12, "removing grains that touch nothing leaves the others' motion");
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

static void bond_removed(test_ctx *t)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 0.005;
    p.bond_kn = 10; /* [N/m] sqrt(k / m) dt = 0.02 */
    p.bond_tolerance = 0.05; /* (gap over 2R: 0.01 here) */
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    add(sim, (grains_vec3){0.0101, 0, 0}, (grains_vec3){0.1, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    advance(sim, 10);
    CHECK(t, grains_sim_bond_count(sim) == 1, "the pair is bonded (%zu bond)", grains_sim_bond_count(sim));
    const size_t first[1] = {0};
    must_remove(sim, 1, first);
    double v = get(sim, 0).v.x;
    advance(sim, 1000);
    CHECK(t, grains_sim_bond_count(sim) == 0 && get(sim, 0).v.x == v,
          "a bond to a removed grain ends: its partner moves on at %.6f m/s", v);
    grains_sim_destroy(sim);
}

/* The first three grains below z = 0.012 removed (an outlet of sorts). */
static void drain(grains_sim *sim)
{
    size_t ids[64], n = 0;
    for (size_t i = 0; i < grains_sim_count(sim) && n < 3; i++)
        if (get(sim, i).x.z < 0.012)
            ids[n++] = i;
    must_remove(sim, n, ids);
}

/* A pile on a floor drained every 200 steps; saved at step 600 when asked. */
static grains_sim *drained(int threads, long steps, const char *save_at_600)
{
    grains_params p = gravity_params(threads);
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    for (int k = 0; k < 64; k++)
        add(sim, (grains_vec3){0.0102 * (k % 4), 0.0102 * ((k / 4) % 4), 0.006 + 0.0102 * (k / 16)},
            (grains_vec3){0.01 * (k % 3), -0.01 * (k % 5), 0}, (grains_vec3){0, 0, 0}, 0.005);
    for (long s = 0; s < steps; s += 100) {
        advance(sim, 100);
        if (grains_sim_steps(sim) % 200 == 0)
            drain(sim);
        grains_error err;
        if (save_at_600 && grains_sim_steps(sim) == 600 && /* (right after a removal) */
            grains_checkpoint_write(save_at_600, sim, NULL, 0, &err) != GRAINS_OK) {
            fprintf(stderr, "FAIL: checkpoint after a removal: %s\n", err.message);
            exit(1);
        }
    }
    return sim;
}

static void threads_and_resume(test_ctx *t)
{
    const char *path = "test_remove.grains";
    grains_sim *one = drained(1, 2000, path), *three = drained(3, 2000, NULL);
    CHECK(t, grains_sim_count(one) < 64 && same_particles(one, three),
          "removals every 200 steps: 1 and 3 threads give the same bits (%zu grains left)", grains_sim_count(one));
    grains_params p = gravity_params(2);
    grains_sim *resumed = scene(&p);
    floor_mesh(resumed, 1, 0);
    grains_error err;
    CHECK(t, grains_checkpoint_read_sim(path, resumed, &err) == GRAINS_OK, "read back: %s", err.message);
    for (long s = 600; s < 2000; s += 100) { /* the same removals from step 600 on */
        advance(resumed, 100);
        if (grains_sim_steps(resumed) % 200 == 0)
            drain(resumed);
    }
    CHECK(t, same_particles(one, resumed), "saved right after a removal and resumed: the same bits 1400 steps later");
    remove(path);
    grains_sim_destroy(one);
    grains_sim_destroy(three);
    grains_sim_destroy(resumed);
}

static void refusals(test_ctx *t)
{
    grains_sim *sim = stack();
    grains_error err;
    const size_t twice[2] = {1, 1}, beyond[2] = {0, 2};
    size_t contacts = grains_sim_contact_count(sim);
    grains_particle top = get(sim, 1);
    CHECK(t, grains_sim_remove(sim, 2, twice, &err) == GRAINS_ERR_ARG, "an id named twice: %s", err.message);
    CHECK(t, grains_sim_remove(sim, 2, beyond, &err) == GRAINS_ERR_ARG, "an id that does not exist: %s",
          err.message);
    CHECK(t, grains_sim_count(sim) == 2 && grains_sim_contact_count(sim) == contacts && same_particle(get(sim, 1), top),
          "refused removals change nothing");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    support_removed(&t);
    strays_removed(&t);
    bond_removed(&t);
    threads_and_resume(&t);
    refusals(&t);
    return test_report(&t, "test_remove");
}
