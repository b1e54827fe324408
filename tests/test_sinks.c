/* Outlets (grains_params.sink, remove_lost). Each test states the physical
 * fact it checks:
 * - a grain falling freely into a box sink is removed at the end of the
 *   first step that puts its centre inside, logged with that step's time
 *   and its velocity then (free fall from rest: v = g t, exactly the
 *   steps' sum n g dt, to round-off: the step before's would be g dt less);
 * - a cylinder sink takes a grain inside its circle and leaves one in its
 *   box's corner;
 * - remove_lost takes a grain that flies out of the meshes' box, and one
 *   resting on the floor stays;
 * - the counts by sink and tag add up to the grains removed; every grain
 *   the stream's insertion region added is in the run or was removed
 *   (the balance of grains, tag by tag);
 * - sinks give the same bits on 1 and 3 threads, and across a checkpoint;
 * - a sink of no volume, or outside the periodic box, is refused. */
#include <math.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "support.h"

/* Grains falling from rest at z = 0.5, one at each of xs[k] (y = 0), tags k % 2,
 * above a floor at z = -1; the sinks of p. */
static grains_sim *fallers(grains_params p, const double *xs, int n)
{
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = p.R_max = 0.005;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 2, -1);
    for (int k = 0; k < n; k++) {
        grains_particle q = {{xs[k], 0, 0.5}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, 0.005, 0, k % 2};
        grains_error err;
        if (grains_sim_add_particle(sim, &q, &err) != GRAINS_OK)
            exit(1);
    }
    return sim;
}

static grains_sink box_sink(double x0, double x1, double z0, double z1, int cylinder)
{
    return (grains_sink){{x0, -0.1, z0}, {x1, 0.1, z1}, cylinder};
}

static void box_removes_on_entry(test_ctx *t)
{
    grains_params p = scene_params();
    p.n_sinks = 1;
    p.sink[0] = box_sink(-0.1, 0.1, -0.2, 0.0, 0); /* its top at z = 0: the grain falls 0.5 m to it */
    const double xs[2] = {0, 0.5};                 /* the second falls beside it */
    grains_sim *sim = fallers(p, xs, 2);
    double dt = grains_sim_params(sim)->dt;
    long steps = 0;
    while (grains_sim_count(sim) == 2 && steps < 1000000) {
        advance(sim, 1);
        steps++;
    }
    const grains_removal *log;
    size_t n = grains_sim_removals(sim, &log);
    double T = sqrt(2 * 0.5 / 9.81); /* the centre reaches z = 0 at t = sqrt(2 h / g) */
    CHECK(t, n == 1 && log[0].id == 0 && log[0].sink == 0 && log[0].step == steps, "one removal, of grain 0, logged");
    if (n == 1) {
        printf("  box sink: grain 0 removed at t = %.6f s (sqrt(2h/g) = %.6f, dt = %.3g) at z = %.6f, v = %.6f m/s "
               "(g t = %.6f)\n", log[0].time, T, dt, log[0].x.z, log[0].v.z, 9.81 * log[0].time);
        CHECK(t, log[0].x.z <= 0 && log[0].x.z > -9.81 * T * dt * 1.01, "removed at the first step inside");
        CHECK(t, fabs(log[0].time - T) < 1.5 * dt, "when free fall brings it there");
        /* (mutation: the step before's velocity logged, g dt = 3e-5 of it less, failed here and passed 1e-3) */
        CHECK_REL(t, -log[0].v.z, 9.81 * log[0].time, 1e-12, "falling at g t");
    }
    CHECK(t, grains_sim_count(sim) == 1 && get(sim, 0).x.x == 0.5, "the other grain, id 0 now, falls on");
    CHECK(t, grains_sim_removed(sim, 0, 0, 1) == 1 && grains_sim_removed(sim, 0, 0, 0) == 1 &&
             grains_sim_removed(sim, 0, 1, 0) == 0, "counted once, with its tag 0");
    grains_sim_clear_removals(sim);
    CHECK(t, grains_sim_removals(sim, &log) == 0 && grains_sim_removed(sim, 0, 0, 1) == 1,
          "the log clears, the count stays");
    grains_sim_destroy(sim);
}

static void cylinder_and_lost(test_ctx *t)
{
    grains_params p = scene_params();
    p.n_sinks = 1;
    p.sink[0] = (grains_sink){{-0.1, -0.1, -0.2}, {0.1, 0.1, 0.0}, 1};
    p.remove_lost = 1;
    /* x = 0: in the circle; x = 0.095, y = 0: in it (radius 0.1); the corner (0.09, 0.09): outside it */
    grains_params q = p;
    q.g = (grains_vec3){0, 0, -9.81};
    q.R_min = q.R_max = 0.005;
    grains_sim *sim = scene(&q);
    floor_mesh(sim, 2, -1);
    const grains_vec3 at[3] = {{0, 0, 0.1}, {0.095, 0, 0.1}, {0.09, 0.09, 0.1}};
    for (int k = 0; k < 3; k++)
        add(sim, at[k], (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    /* and one thrown sideways fast: out of the floor's box (2 m + pads) within the run */
    add(sim, (grains_vec3){0, 1.0, 0.1}, (grains_vec3){0, 20, 0}, (grains_vec3){0, 0, 0}, 0.005);
    advance(sim, (long)(1.0 / grains_sim_params(sim)->dt));
    const grains_removal *log;
    size_t n = grains_sim_removals(sim, &log);
    int in_circle = 0, lost = 0;
    for (size_t k = 0; k < n; k++) {
        in_circle += log[k].sink == 0;
        lost += log[k].sink == -1;
    }
    CHECK(t, in_circle == 2 && lost == 1 && grains_sim_count(sim) == 1,
          "the cylinder takes the two in its circle, remove_lost the thrown one; the corner's lands (%zu left)",
          grains_sim_count(sim));
    grains_particle rest = get(sim, 0);
    CHECK(t, fabs(rest.x.x - 0.09) < 1e-9 && rest.x.z < -0.5,
          "the one in the corner passed through the sink's box, untouched, to the floor (z = %.4f m)", rest.x.z);
    grains_sim_destroy(sim);
}

/* A stream of grains poured through a box sink; its state after `steps`. */
static grains_sim *stream(int threads, long steps, const char *save_at_half)
{
    grains_params p = scene_params();
    p.threads = threads;
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = 0.004, p.R_max = 0.005;
    p.N_max = 300;
    p.N_spawn = 5;
    p.s_min = (grains_vec3){-0.05, -0.05, 0.2};
    p.s_max = (grains_vec3){0.05, 0.05, 0.3};
    p.n_sinks = 1;
    p.sink[0] = box_sink(-0.02, 0.02, -0.1, 0.02, 0);
    p.remove_lost = 1;
    grains_sim *sim = scene(&p);
    grains_mesh *m = square_mesh(0.2, 0, "floor");
    grains_error err;
    if (grains_sim_set_mesh(sim, m, &err) != GRAINS_OK)
        exit(1);
    grains_mesh_destroy(m);
    advance(sim, steps / 2);
    if (save_at_half && grains_checkpoint_write(save_at_half, sim, NULL, 0, &err) != GRAINS_OK)
        exit(1);
    advance(sim, steps - steps / 2);
    return sim;
}

/* The same particles, the same counts removed by each outlet (the sink
 * and remove_lost's -1) and tag, and the same log, bit for bit: b's the
 * last entries of a's (a resumed run's log begins at its resume; `whole`:
 * all of it). */
static int same_state(const grains_sim *a, const grains_sim *b, int whole)
{
    int same = same_particles(a, b);
    for (int sink = -1; sink <= 0; sink++)
        for (int tag = 0; tag <= 1; tag++)
            same = same && grains_sim_removed(a, sink, tag, tag == 1) == grains_sim_removed(b, sink, tag, tag == 1);
    const grains_removal *la, *lb;
    size_t na = grains_sim_removals(a, &la), nb = grains_sim_removals(b, &lb);
    same = same && nb > 0 && (whole ? na == nb : nb <= na);
    for (size_t k = 0; same && k < nb; k++) {
        const grains_removal *ra = &la[na - nb + k], *rb = &lb[k];
        same = ra->step == rb->step && ra->id == rb->id && ra->sink == rb->sink && ra->tag == rb->tag &&
               memcmp(&ra->x, &rb->x, sizeof ra->x) == 0 && memcmp(&ra->v, &rb->v, sizeof ra->v) == 0;
    }
    return same;
}

/* Every grain the region added is in the run or was removed: added =
 * held + removed by the sink + lost (mutation: a removal not counted). */
static void balance(test_ctx *t, const grains_sim *sim)
{
    long added = grains_sim_spawn_report(sim, 0).added;
    size_t held = grains_sim_count(sim), sunk = grains_sim_removed(sim, 0, 0, 1), lost = grains_sim_removed(sim, -1, 0, 1);
    CHECK(t, added > 0 && (size_t)added == held + sunk + lost, "the balance of grains: %ld added = %zu held + %zu "
          "removed by the sink + %zu lost", added, held, sunk, lost);
}

static void threads_and_resume(test_ctx *t)
{
    const char *path = "test_sinks.grains";
    const long steps = 12000;
    grains_sim *one = stream(1, steps, path), *three = stream(3, steps, NULL);
    size_t removed = grains_sim_removed(one, 0, 0, 1);
    CHECK(t, removed > 20 && same_state(one, three, 1), "a stream through a sink: 1 and 3 threads give the same bits "
          "(%zu removed, %zu left)", removed, grains_sim_count(one));
    balance(t, one);
    grains_params p = *grains_sim_params(one);
    p.threads = 2;
    grains_sim *resumed = scene(&p);
    grains_mesh *m = square_mesh(0.2, 0, "floor");
    grains_error err;
    grains_sim_set_mesh(resumed, m, &err);
    grains_mesh_destroy(m);
    CHECK(t, grains_checkpoint_read_sim(path, resumed, &err) == GRAINS_OK, "read back");
    advance(resumed, steps - steps / 2);
    CHECK(t, same_state(one, resumed, 0), "resumed half way: the same grains, bits and counts");
    remove(path);
    grains_sim_destroy(one);
    grains_sim_destroy(three);
    grains_sim_destroy(resumed);
}

static void refused(test_ctx *t)
{
    grains_params p = scene_params();
    grains_error err;
    p.n_sinks = 1;
    p.sink[0] = box_sink(0, 0.1, 0, 0, 0); /* no height */
    grains_params_derive(&p);
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE, "a sink of no volume: %s", err.message);
    p = scene_params();
    p.periodic = 1;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){1, 1, 1};
    p.n_sinks = 1;
    p.sink[0] = box_sink(2, 3, 0, 1, 0);
    grains_params_derive(&p);
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE, "a sink outside the periodic box: %s", err.message);
}

int main(void)
{
    test_ctx t = {0, 0};
    box_removes_on_entry(&t);
    cylinder_and_lost(&t);
    threads_and_resume(&t);
    refused(&t);
    return test_report(&t, "test_sinks");
}
