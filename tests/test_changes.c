/* What a run changes between steps (sim/changes.c: a scenario's stages, a
 * program). Each test states the fact it checks:
 * - friction, restitution and drag set before the first step give the bits
 *   of a run created with them (every derived constant follows);
 * - a sphere sliding on a floor decelerates at mu g with the friction it
 *   has now: mu = 0.4, then 0.1 from t1;
 * - a change of another parameter, or one that would switch a friction mode
 *   on, is refused and changes nothing;
 * - gravity set mid-run: a free grain's acceleration follows at once;
 * - a closed insertion region adds nothing until it opens again;
 * - by name (grains_sim_set_named_params, grains_scenario_param): the bits
 *   of the struct's change, every name of the one list taken and read back,
 *   a dynamic friction following its static one, an unknown name refused
 *   with nothing changed. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "grains/scenario.h"
#include "support.h"

static grains_params sliding_params(double mu)
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = p.R_max = 0.005;
    p.mu_s = mu, p.mu_t = 2 * mu / 3, p.mu_r = 0.1;
    p.e_n = 0.5;
    return p;
}

/* A sphere thrown along a floor without spin, after `steps`. */
static grains_sim *slider(grains_params p, const grains_params *set, long steps)
{
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 2, 0);
    add(sim, (grains_vec3){0, 0, 0.005}, (grains_vec3){1.0, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    grains_error err;
    if (set && grains_sim_set_params(sim, set, &err) != GRAINS_OK) {
        fprintf(stderr, "FAIL: set_params: %s\n", err.message);
        exit(1);
    }
    advance(sim, steps);
    return sim;
}

static void same_as_created(test_ctx *t)
{
    grains_params a = sliding_params(0.4), b = sliding_params(0.1);
    b.e_n = 0.3;
    b.eta = 1e-3;
    grains_sim *changed = slider(a, &b, 3000), *created = slider(b, NULL, 3000);
    CHECK(t, same_particle(get(changed, 0), get(created, 0)),
          "mu_s, mu_t, e_n and eta set before the first step: the bits of a run created with them");
    grains_sim_destroy(changed);
    grains_sim_destroy(created);
}

static void friction_from_now(test_ctx *t)
{
    grains_params p = sliding_params(0.4);
    grains_sim *sim = slider(p, NULL, 0);
    double dt = grains_sim_params(sim)->dt;
    long n = (long)(0.02 / dt); /* sliding lasts 2 v / (7 mu g) = 73 ms at mu = 0.4 */
    double v0 = get(sim, 0).v.x;
    advance(sim, n);
    double v1 = get(sim, 0).v.x, a1 = (v0 - v1) / ((double)n * dt);
    grains_params q = p;
    q.mu_s = 0.1, q.mu_t = 0.2 / 3;
    grains_error err;
    CHECK(t, grains_sim_set_params(sim, &q, &err) == GRAINS_OK, "mu_s 0.4 -> 0.1: %s", err.message);
    advance(sim, n);
    double v2 = get(sim, 0).v.x, a2 = (v1 - v2) / ((double)n * dt);
    printf("  sliding: decelerates at %.4f m/s^2 with mu = 0.4 (mu g = %.4f), then %.4f with 0.1 (%.4f)\n", a1,
           0.4 * 9.81, a2, 0.1 * 9.81);
    /* (the contact's first bounce settles within the first ms: 2% of the interval) */
    CHECK_REL(t, a1, 0.4 * 9.81, 2e-2, "sliding friction decelerates at mu g");
    CHECK_REL(t, a2, 0.1 * 9.81, 2e-2, "and at the new mu g from the change on");
    grains_params bad = *grains_sim_params(sim);
    bad.E *= 2;
    grains_particle before = get(sim, 0);
    CHECK(t, grains_sim_set_params(sim, &bad, &err) == GRAINS_ERR_ARG, "E is the run's own: %s", err.message);
    bad = *grains_sim_params(sim);
    bad.mu_r = 0, bad.mu_r_dyn = -1; /* rolling friction acts: its springs are kept */
    CHECK(t, grains_sim_set_params(sim, &bad, &err) == GRAINS_ERR_ARG, "rolling friction cannot stop: %s",
          err.message);
    advance(sim, 1);
    CHECK(t, grains_sim_params(sim)->mu_s == 0.1 && grains_sim_params(sim)->E == p.E &&
             grains_sim_params(sim)->mu_r == 0.1 && before.x.x < get(sim, 0).x.x,
          "refused changes changed nothing");
    grains_sim_destroy(sim);
}

static void gravity_now(test_ctx *t)
{
    grains_params p = sliding_params(0.4);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 1}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.005);
    advance(sim, 100);
    grains_error err;
    CHECK(t, grains_sim_set_gravity(sim, (grains_vec3){3, 0, -2}, &err) == GRAINS_OK, "gravity set");
    grains_particle a = get(sim, 0);
    advance(sim, 100);
    grains_particle b = get(sim, 0);
    double T = 100 * grains_sim_params(sim)->dt;
    CHECK_ABS(t, b.v.x - a.v.x, 3 * T, 1e-12, "a free grain accelerates at the new g along x");
    CHECK_ABS(t, b.v.z - a.v.z, -2 * T, 1e-12, "and along z");
    CHECK(t, grains_sim_set_gravity(sim, (grains_vec3){NAN, 0, 0}, &err) != GRAINS_OK,
          "a gravity that is not finite is refused");
    grains_sim_destroy(sim);
}

static void region_closed(test_ctx *t)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 0.005;
    p.N_max = 1000;
    p.N_spawn = 2;
    p.s_min = (grains_vec3){0, 0, 0};
    p.s_max = (grains_vec3){1, 1, 1};
    grains_sim *sim = scene(&p);
    advance(sim, 10);
    size_t n = grains_sim_count(sim);
    grains_error err;
    CHECK(t, grains_sim_spawn_open(sim, 0, 0, &err) == GRAINS_OK, "closed");
    advance(sim, 10);
    CHECK(t, n > 0 && grains_sim_count(sim) == n && grains_sim_spawn_report(sim, 0).stop == GRAINS_SPAWN_CLOSED,
          "a closed region adds nothing (%zu grains)", n);
    grains_sim_spawn_open(sim, 0, 1, &err);
    advance(sim, 10);
    CHECK(t, grains_sim_count(sim) > n, "opened again, it adds (%zu grains)", grains_sim_count(sim));
    CHECK(t, grains_sim_spawn_open(sim, 1, 1, &err) == GRAINS_ERR_RANGE, "a region the run lacks: %s", err.message);
    grains_sim_destroy(sim);
}

/* One parameter by name as the run stands. */
static double named(const grains_sim *sim, const char *name)
{
    double v[3] = {NAN, NAN, NAN};
    return grains_scenario_param(grains_sim_params(sim), name, v, 3) == 1 ? v[0] : NAN;
}

static void by_name(test_ctx *t)
{
    grains_params a = sliding_params(0.4), b = sliding_params(0.1);
    b.e_n = 0.3, b.eta = 1e-3;
    grains_sim *by_struct = slider(a, &b, 0), *sim = slider(a, NULL, 0);
    const char *names[] = {"mu_s", "mu_t", "e_n", "eta"};
    const double values[] = {0.1, 2 * 0.1 / 3, 0.3, 1e-3};
    grains_error err;
    CHECK(t, grains_sim_set_named_params(sim, 4, names, values, &err) == GRAINS_OK, "set by name: %s", err.message);
    advance(sim, 3000), advance(by_struct, 3000);
    CHECK(t, same_particle(get(sim, 0), get(by_struct, 0)), "by name, the bits of the same change by struct");
    CHECK(t, named(sim, "mu_s") == 0.1 && named(sim, "mu_s_dyn") == 0.1 && named(sim, "e_n") == 0.3,
          "read back: mu_s %g, its dynamic value %g (followed), e_n %g", named(sim, "mu_s"), named(sim, "mu_s_dyn"),
          named(sim, "e_n"));
    int k = 0;
    for (; grains_changeable_name(k); k++) {
        const char *one = grains_changeable_name(k);
        if (strcmp(one, "shear_rate") == 0 || strcmp(one, "box_pressure") == 0) {
            double v = 1; /* the slider's box is not periodic: refused, kept */
            CHECK(t, grains_sim_set_named_params(sim, 1, &one, &v, &err) == GRAINS_ERR_RANGE &&
                         strstr(err.message, "periodic") && named(sim, one) == 0,
                  "%s without a periodic box: refused (%s), reads %g", one, err.message, named(sim, one));
            continue;
        }
        double v = named(sim, one) / 2; /* (within its range: a dynamic value below its static one) */
        grains_status s = grains_sim_set_named_params(sim, 1, &one, &v, &err);
        CHECK(t, s == GRAINS_OK && v > 0 && named(sim, one) == v, "%s = %g by name: %s, reads %g", one, v,
              s == GRAINS_OK ? "taken" : err.message, named(sim, one));
    }
    CHECK(t, k == GRAINS_N_CHANGEABLE && grains_changeable_name(-1) == NULL, "the list: %d names", k);
    const char *bad[] = {"mu_s", "E"};
    double before = named(sim, "mu_s"), two[] = {0.7, 1e9};
    CHECK(t, grains_sim_set_named_params(sim, 2, bad, two, &err) == GRAINS_ERR_ARG && named(sim, "mu_s") == before,
          "E is the run's own, and mu_s stays %g: %s", named(sim, "mu_s"), err.message);
    double g[3];
    CHECK(t, grains_scenario_param(grains_sim_params(sim), "g", g, 3) == 3 && g[2] == -9.81, "g by name: %g %g %g",
          g[0], g[1], g[2]);
    CHECK(t, grains_scenario_param(grains_sim_params(sim), "dt", g, 1) == 1 && g[0] == grains_sim_params(sim)->dt,
          "dt by name");
    CHECK(t, grains_scenario_param(grains_sim_params(sim), "t_end", g, 1) == 0 &&
                 grains_scenario_param(grains_sim_params(sim), "no_such", g, 1) == 0 &&
                 grains_scenario_param(grains_sim_params(sim), "integrator", g, 1) == 0,
          "no value for the scenario's own keys, unknown names, or choices");
    CHECK(t, grains_scenario_param(grains_sim_params(sim), "g", NULL, 0) == 3 &&
                 grains_scenario_param(grains_sim_params(sim), "g", NULL, 3) == 0,
          "g's count asked with no room; nothing written through no array");
    grains_sim_destroy(sim);
    grains_sim_destroy(by_struct);
}

int main(void)
{
    test_ctx t = {0, 0};
    same_as_created(&t);
    friction_from_now(&t);
    gravity_now(&t);
    region_closed(&t);
    by_name(&t);
    return test_report(&t, "test_changes");
}
