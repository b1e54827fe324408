/* Strays: grains lost so far out of the meshes' box that nothing can reach
 * them (sim/strays.h). Each test states the fact it checks:
 * - a grain flung away from a box of meshes and grains meets nothing: the
 *   lists are rebuilt for it only when it may have flown back the distance
 *   it was at, once each time that distance has nearly doubled (its speed in
 *   the others' bound would rebuild them every half skin it flies: 6,000 times);
 * - a stray that comes back meets the grain in its way: the lists are
 *   rebuilt before they touch, and the collision is the one a scene
 *   without meshes (so without strays) computes, bit for bit, momentum kept;
 * - two strays that fly at each other far outside the box collide as they
 *   do without meshes;
 * - of two lost grains, the one just beyond the box joins the rest and the
 *   far one is a stray, and the thermo's lost energy is theirs (the grain
 *   inside is at rest); more than STRAYS_MAX lost grains: none is, and
 *   the simulation counts that rebuild (grains_sim_strays_overflowed);
 * - a bed of grains with a stray gives the same bits on 1 and 3 threads,
 *   and resumed from a checkpoint written with the stray, the same bits as
 *   the run that went on. */
#include <math.h>
#include <unistd.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "sim/sim_internal.h"
#include "support.h"

static const double R = 0.005;

/* Grains of radius R between a floor at z = 0 and a lid at z = 0.1, both
 * [-0.1, 0.1]^2 (the box E), or no meshes at all; no gravity. */
static grains_sim *box_scene(int meshes, int threads)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.threads = threads;
    grains_sim *sim = scene(&p);
    if (meshes) {
        plate(sim, 0.1, 0, grains_motion_fixed());
        plate(sim, 0.1, 0.1, grains_motion_fixed());
    }
    return sim;
}

static grains_vec3 v3g(double x, double y, double z) { return (grains_vec3){x, y, z}; }

static void flung_away(test_ctx *t)
{
    grains_sim *sim = box_scene(1, 1);
    for (int k = 0; k < 5; k++)
        add(sim, v3g(-0.04 + 0.02 * k, 0, 0.05), v3g(0, 0, 0), v3g(0, 0, 0), R);
    add(sim, v3g(0, 0, -0.3), v3g(0, 0, -20), v3g(0, 0, 0), R); /* 0.3 m below the floor, leaving at 20 m/s */
    long steps = 3000;
    advance(sim, steps);
    const grains_params *p = grains_sim_params(sim);
    double old_rule = (double)steps * 20 * p->dt / (p->skin / 2);
    printf("  flung away: %zu rebuilds in %ld steps (its speed in the bound: %.0f); the stray fell %.3f m\n",
           sim->n_rebuilds, steps, old_rule, -0.3 - get(sim, 5).x.z);
    CHECK(t, sim->strays.n == 1 && sim->strays.id[0] == 5, "the flung grain is a stray (%u)", sim->strays.n);
    /* its bound assumes it flies back: the lists are rebuilt when it may have closed its clearance
     * d - 3 R (d its distance to the box, the rest within R of it, R its own radius and the rest's),
     * by which time it is 2 d - 3 R >= 1.95 d away (d >= 0.3 m = 60 R): at most one rebuild for each
     * factor 1.95 of its distance, beyond the first build */
    double factors = ceil(log(-get(sim, 5).x.z / 0.3) / log(1.95));
    CHECK(t, (double)sim->n_rebuilds <= 1 + factors && old_rule > 1000, "the lists rebuilt %zu times in %ld steps, "
          "at most once a factor 1.95 of its distance (%.0f), where its speed would have made %.0f rebuilds",
          sim->n_rebuilds, steps, factors, old_rule);
    grains_sim_destroy(sim);
}

/* Whether a and b hold the same particles, bit for bit. */
static int same(const grains_sim *a, const grains_sim *b) { return same_particles(a, b); }

/* A grain in the middle of the box moving out of it at 0.5 m/s along x, one
 * at x = x0 flying at it at 2 m/s; with the meshes and without. They meet
 * just outside the box, where the rest's bound is tight (the grain leaving
 * is the farthest of the rest). Whether a contact would be missed by a
 * bound short of the rest's motion depends on where the rebuilds fall:
 * 16 starts a tenth of the skin apart. Returns whether all held. */
static int comes_back_from(test_ctx *t, double x0, int print)
{
    grains_sim *boxed = box_scene(1, 1), *bare = box_scene(0, 1);
    grains_sim *both[2] = {boxed, bare};
    for (int k = 0; k < 2; k++) {
        add(both[k], v3g(0, 0, 0.05), v3g(0.5, 0, 0), v3g(0, 0, 0), R);
        add(both[k], v3g(x0, 0, 0.05), v3g(-2, 0, 0), v3g(0, 0, 0), R);
    }
    step(boxed), step(bare);
    int was_stray = boxed->strays.n == 1 && boxed->strays.id[0] == 1;
    double dt = grains_sim_params(boxed)->dt;
    long steps = (long)(0.3 / dt); /* they touch at t = (x0 - 2 R) / 2.5 = 0.236 s, at x = 0.118 */
    advance(boxed, steps), advance(bare, steps);
    grains_particle a = get(boxed, 0), s = get(boxed, 1);
    if (print)
        printf("  comes back: after %ld steps v = %.6f and %.6f m/s (sum %.3g), %zu rebuilds (%zu without "
               "meshes)\n", steps + 1, a.v.x, s.v.x, a.v.x + s.v.x + 1.5, boxed->n_rebuilds, bare->n_rebuilds);
    int ok = was_stray && a.v.x < -0.5 && s.v.x > -1.5 && same(boxed, bare) && fabs(a.v.x + s.v.x + 1.5) <= 1e-12 &&
             boxed->n_rebuilds < bare->n_rebuilds;
    CHECK(t, ok, "from x0 = %.5f: a stray at first (%d), they collided (the grain inside turned back: v = %.6f "
          "m/s), as without meshes bit for bit, momentum kept, in fewer rebuilds (%zu, %zu)", x0, was_stray, a.v.x,
          boxed->n_rebuilds, bare->n_rebuilds);
    grains_sim_destroy(boxed), grains_sim_destroy(bare);
    return ok;
}

static void comes_back(test_ctx *t)
{
    double skin = 0.6 * R;
    for (int k = 0; k < 16; k++)
        comes_back_from(t, 0.6 + 0.1 * skin * k, k == 0);
}

static void strays_meet(test_ctx *t)
{
    grains_sim *boxed = box_scene(1, 1), *bare = box_scene(0, 1);
    grains_sim *both[2] = {boxed, bare};
    for (int k = 0; k < 2; k++) {
        add(both[k], v3g(0.5, 0, 0.05), v3g(1, 0, 0), v3g(0, 0, 0), R);
        add(both[k], v3g(0.9, 0.002, 0.05), v3g(-1, 0, 0), v3g(0, 0, 0), R); /* off-centre: they spin */
    }
    step(boxed), step(bare);
    int were_strays = boxed->strays.n == 2;
    long steps = (long)(0.25 / grains_sim_params(boxed)->dt); /* they touch at t = (0.4 - 2 R) / 2 = 0.195 s */
    advance(boxed, steps), advance(bare, steps);
    grains_particle a = get(boxed, 0), b = get(boxed, 1);
    printf("  strays meet: v = %.6f and %.6f m/s, w_z = %.3f rad/s, %zu rebuilds (%zu without meshes)\n", a.v.x,
           b.v.x, a.w.z, boxed->n_rebuilds, bare->n_rebuilds);
    CHECK(t, were_strays, "both are strays at first");
    CHECK(t, a.v.x < 1 && b.v.x > -1 && a.w.z != 0, "they collided, off centre");
    CHECK(t, same(boxed, bare), "as they do without meshes, bit for bit");
    grains_sim_destroy(boxed), grains_sim_destroy(bare);
}

static void which_are_strays(test_ctx *t)
{
    grains_sim *sim = box_scene(1, 1);
    add(sim, v3g(0, 0, 0.05), v3g(0, 0, 0), v3g(0, 0, 0), R);
    add(sim, v3g(0.1 + 1.5 * R, 0, 0.05), v3g(0.1, 0, 0), v3g(0, 0, 0), R); /* lost, beside the box */
    add(sim, v3g(0.5, 0, 0.05), v3g(1, 0, 0), v3g(0, 0, 0), R);
    step(sim);
    CHECK(t, sim->strays.n == 1 && sim->strays.id[0] == 2 && grains_sim_strays_overflowed(sim) == 0,
          "the lost grain beside the box joins the rest, the far one is a stray (%u), none past the cap",
          sim->strays.n);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    CHECK(t, th.n_lost == 2 && th.e_lost > 0 && th.e_lost == th.e_kin + th.e_rot, "the thermo's lost energy: the "
          "two lost grains', all that moves (%g of %g)", th.e_lost, th.e_kin + th.e_rot);
    grains_sim_destroy(sim);
    sim = box_scene(1, 1);
    for (int k = 0; k <= STRAYS_MAX; k++)
        add(sim, v3g(0.5 + 0.05 * (k % 8), 0.05 * (k / 8), 0.05), v3g(1, 0, 0), v3g(0, 0, 0), R);
    step(sim);
    CHECK(t, sim->strays.n == 0 && grains_sim_strays_overflowed(sim) == 1, "%d lost grains: none is a stray (%u), "
          "and the rebuild says so (%zu)", STRAYS_MAX + 1, sim->strays.n, grains_sim_strays_overflowed(sim));
    grains_sim_destroy(sim);
}

/* 6 x 6 x 6 grains in the box with speeds up to 0.5 m/s, and one leaving it. */
static grains_sim *bed(int threads)
{
    grains_sim *sim = box_scene(1, threads);
    unsigned s = 99;
    for (int i = 0; i < 216; i++) {
        double v[3];
        for (int a = 0; a < 3; a++) {
            s = s * 1103515245u + 12345u;
            v[a] = ((s >> 8) / 16777216.0 - 0.5);
        }
        add(sim, v3g(-0.06 + 0.024 * (i % 6), -0.06 + 0.024 * (i / 6 % 6), 0.015 + 0.014 * (i / 36)),
            v3g(v[0], v[1], v[2]), v3g(0, 0, 0), R);
    }
    add(sim, v3g(0.3, 0, 0.05), v3g(5, 0, 0), v3g(0, 0, 0), R);
    return sim;
}

static void threads_and_checkpoint(test_ctx *t)
{
    grains_sim *one = bed(1), *three = bed(3);
    advance(one, 400), advance(three, 400);
    CHECK(t, one->strays.n == 1 && same(one, three), "a bed with a stray: the same bits on 1 and 3 threads");
    char path[] = "/tmp/grains_strays_XXXXXX";
    int fd = mkstemp(path);
    grains_error err;
    grains_status s = fd < 0 ? GRAINS_ERR_IO : grains_checkpoint_write(path, one, NULL, 0, &err);
    grains_sim *again = bed(1);
    if (s == GRAINS_OK)
        s = grains_checkpoint_read_sim(path, again, &err);
    CHECK(t, s == GRAINS_OK && again->strays.n == 1 && again->strays.moved == one->strays.moved,
          "the stray and its bound read back from the checkpoint");
    size_t rebuilds = one->n_rebuilds;
    advance(one, 600), advance(again, 600);
    CHECK(t, same(one, again) && one->n_rebuilds > rebuilds, "resumed, the same bits 600 steps on (%zu rebuilds "
          "between)", one->n_rebuilds - rebuilds);
    if (fd >= 0)
        close(fd), unlink(path);
    grains_sim_destroy(one), grains_sim_destroy(three), grains_sim_destroy(again);
}

int main(void)
{
    test_ctx t = {0, 0};
    flung_away(&t);
    comes_back(&t);
    strays_meet(&t);
    which_are_strays(&t);
    threads_and_checkpoint(&t);
    return test_report(&t, "test_strays");
}
