/* Bonded contacts (libgran; variational-integrator paper Section 3.3):
 * validation case 5 against the exact three-body solution, a bonded pair
 * spinning as one rigid body, breakage, thread invariance and bad input. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "grains/io.h"
#include "support.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846

/* Case 5: the pair stays bonded; contact and bond forces follow the exact
 * solution within the step's second-order error, (pi / 200)^2 of the peak
 * at t_c / 200 (measured 3.6e-5); the pair's own oscillation after the
 * impact has the period 2 pi / sqrt(2 k_B / m) (crossings interpolated
 * linearly: 1e-4); momentum is exact; the energy comes back to within the
 * step error (Euler, first order: pi / 200 relative; Verlet: its square). */
static void bonded_pair_impact(test_ctx *t)
{
    const char *names[3] = {"euler", "verlet", "verlet_improved"};
    for (int k = 0; k < 3; k++) {
        bp_setup s = bp_default((grains_integrator)k);
        bp_result r;
        grains_error err;
        CHECK(t, bp_run(&s, &r, &err) == GRAINS_OK, "case 5 runs: %s", err.message);
        printf("  %s: forces %.3g %.3g, period %.9g (%.9g), energy %.3g, momentum %.3g, reported force %.3g\n",
               names[k], r.err_contact, r.err_bond, r.period, bp_bond_period(&s), r.energy_drift, r.momentum,
               r.bond_force_err);
        double h = PI / s.steps_per_tc;
        CHECK(t, r.bonds == 1 && !r.broken, "one bond, formed from proximity (d/100), never broken");
        CHECK(t, r.err_contact < h * h, "contact force = exact solution (%.3g)", r.err_contact);
        CHECK(t, r.err_bond < h * h, "bond force = exact solution (%.3g)", r.err_bond);
        CHECK(t, r.bond_force_err < 1e-12, "grains_bond.force is k_B |delta| (%.3g)", r.bond_force_err);
        CHECK_REL(t, r.period, bp_bond_period(&s), 1e-4, "the pair's period after the impact");
        CHECK_REL(t, r.pair_speed, r.ref_pair_speed, h * h, "the pair's velocity after the impact");
        CHECK(t, fabs(r.momentum) < 1e-18, "momentum conserved (%.3g kg m/s of 1e-6)", r.momentum);
        CHECK(t, fabs(r.energy_drift) < (k == 0 ? h : h * h), "energy conserved to the step error (%.3g)",
              r.energy_drift);
    }
}

static grains_params pair_params(void)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 1e-3;
    p.rho = 2500, p.E = 1e7;
    p.bond_kn = 1e4;
    p.dt = 1e-6;
    return p;
}

/* Two bonded spheres, 2R apart along x, spinning about z at omega with the
 * velocities of a rigid body: they keep their distance (the centripetal
 * pull stretches the bond by m omega^2 R / k_B), each sphere turns with
 * the pair, and the angular momentum is conserved to round-off (the bond's
 * torques balance its force's moment exactly). */
static void rigid_rotation(test_ctx *t)
{
    for (int integ = 0; integ < 3; integ++) {
        grains_params p = pair_params();
        p.integrator = (grains_integrator)integ;
        grains_sim *sim = scene(&p);
        double R = 1e-3, w = 50, m = 4 * PI / 3 * p.rho * R * R * R, I = 0.4 * m * R * R;
        add(sim, (grains_vec3){-R, 0, 0}, (grains_vec3){0, -w * R, 0}, (grains_vec3){0, 0, w}, R);
        add(sim, (grains_vec3){R, 0, 0}, (grains_vec3){0, w * R, 0}, (grains_vec3){0, 0, w}, R);
        grains_error err;
        CHECK(t, grains_sim_add_bond(sim, 1, 0, &err) == GRAINS_OK, "bond: %s", err.message);
        double L0 = 2 * m * w * R * R + 2 * I * w, worst_d = 0;
        long steps = (long)(2 * PI / w / p.dt); /* one revolution */
        for (long s = 0; s < steps; s++) {
            step(sim);
            grains_particle a = get(sim, 0), b = get(sim, 1);
            double dx = b.x.x - a.x.x, dy = b.x.y - a.x.y;
            worst_d = nan_max(worst_d, fabs(sqrt(dx * dx + dy * dy) - 2 * R));
        }
        grains_particle a = get(sim, 0), b = get(sim, 1);
        double L = m * (a.x.x * a.v.y - a.x.y * a.v.x + b.x.x * b.v.y - b.x.y * b.v.x) + I * (a.w.z + b.w.z);
        printf("  integrator %d: distance within %.3g m, spins %.6f %.6f (pair %g), L %.3g\n", integ, worst_d, a.w.z,
               b.w.z, w, L / L0 - 1);
        /* stretch m w^2 R / k_B = 6.5e-8 m, twice that at the swing's peak */
        CHECK(t, worst_d < 4 * m * w * w * R / p.bond_kn, "bonded spheres keep their distance (%.3g)", worst_d);
        CHECK_REL(t, a.w.z, w, 1e-3, "sphere 0 turns with the pair");
        CHECK_REL(t, b.w.z, w, 1e-3, "sphere 1 turns with the pair");
        CHECK_REL(t, L, L0, 1e-12, "angular momentum conserved");
        grains_sim_destroy(sim);
    }
}

/* The twisting spring: two bonded spheres along x, spun in opposite senses
 * about the axis, oscillate at omega = sqrt(2 k_o R*^2 / I), since the
 * twisting torque is R* k_o u_t with u_t = R* (theta_i - theta_j). The
 * period from the zero crossings of w_x, interpolated (dt = period / 200:
 * (2 pi / 200)^2 / 24 = 4e-5 is Verlet's frequency error). */
static void twisting(test_ctx *t)
{
    grains_params p = pair_params();
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    grains_sim *sim = scene(&p);
    double R = 1e-3, m = 4 * PI / 3 * p.rho * R * R * R, I = 0.4 * m * R * R, R_eff = R / 2;
    add(sim, (grains_vec3){-R, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){10, 0, 0}, R);
    add(sim, (grains_vec3){R, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){-10, 0, 0}, R);
    grains_error err;
    grains_sim_add_bond(sim, 0, 1, &err);
    grains_params_derive(&p);
    double omega = sqrt(2 * p.bond_ko * R_eff * R_eff / I), period = 2 * PI / omega;
    double last = 10, first = -1, cross = 0;
    int n = 0;
    while (grains_sim_time(sim) < 5.2 * period) {
        step(sim);
        double w = get(sim, 0).w.x;
        if (last * w < 0) {
            cross = grains_sim_time(sim) - p.dt * w / (w - last);
            if (n++ == 0)
                first = cross;
        }
        last = w;
    }
    double measured = 2 * (cross - first) / (n - 1);
    printf("  twisting: period %.9g s (sqrt(2 k_o R*^2 / I): %.9g), %d crossings\n", measured, period, n);
    CHECK_REL(t, measured, period, 1e-4, "twisting spring's period");
    grains_sim_destroy(sim);
}

/* Pulled apart: a bond whose limit is below the pull breaks, then the two
 * separate freely (no contact pulls); above the limit it holds. */
static void breakage(test_ctx *t)
{
    for (int strong = 0; strong < 2; strong++) {
        grains_params p = pair_params();
        double v = 0.05, R = 1e-3, m = 4 * PI / 3 * p.rho * R * R * R;
        double peak = v * sqrt(2 * p.bond_kn * m / 2); /* k_B x_max, x_max = v_rel / omega, m* = m / 2 */
        p.bond_max_force = strong ? 2 * peak : peak / 2;
        grains_sim *sim = scene(&p);
        add(sim, (grains_vec3){-R, 0, 0}, (grains_vec3){-v / 2, 0, 0}, (grains_vec3){0, 0, 0}, R);
        add(sim, (grains_vec3){R, 0, 0}, (grains_vec3){v / 2, 0, 0}, (grains_vec3){0, 0, 0}, R);
        grains_error err;
        grains_sim_add_bond(sim, 0, 1, &err);
        for (int s = 0; s < 2000; s++) /* 2 ms: a third of the bond's period is 0.2 ms */
            step(sim);
        grains_bond b;
        grains_sim_get_bond(sim, 0, &b);
        double gap = get(sim, 1).x.x - get(sim, 0).x.x - 2 * R;
        printf("  limit %.3g N (peak %.3g N): broken %d, gap %.3g m\n", p.bond_max_force, peak, b.broken, gap);
        if (strong) {
            CHECK(t, !b.broken && gap < 1e-4, "a bond above the pull holds the pair together");
        } else {
            CHECK(t, b.broken && b.force == 0, "a bond below the pull breaks");
            CHECK(t, gap > 0.01 * R, "then the spheres part (gap %.3g m)", gap);
        }
        grains_sim_destroy(sim);
    }
}

/* A cluster of touching spheres bonded by proximity gives bit-identical
 * trajectories on 1, 2 and 3 threads. */
static grains_sim *bonded_cluster(int threads)
{
    grains_params p = pair_params();
    p.threads = threads;
    p.g = (grains_vec3){0, 0, -9.81};
    p.bond_tolerance = 0.01;
    p.bond_damping = 0.1;
    p.R_max = 1e-3;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 0.05, -1e-3);
    for (int k = 0; k < 200; k++) /* a 10 x 20 sheet, touching rows, spinning a little */
        add(sim, (grains_vec3){(k % 10) * 2e-3, (k / 10) * 2e-3, 2e-3 + 1e-4 * (k % 3)},
            (grains_vec3){0.01 * (k % 7) - 0.03, 0, 0}, (grains_vec3){0, 0, k % 5}, 1e-3);
    for (int s = 0; s < 3000; s++)
        step(sim);
    return sim;
}

static void thread_invariance(test_ctx *t)
{
    grains_sim *one = bonded_cluster(1);
    CHECK(t, grains_sim_bond_count(one) > 100, "bonds formed in the sheet (%zu)", grains_sim_bond_count(one));
    for (int threads = 2; threads <= 3; threads++) {
        grains_sim *many = bonded_cluster(threads);
        int same = grains_sim_bond_count(one) == grains_sim_bond_count(many);
        for (size_t k = 0; same && k < grains_sim_count(one); k++)
            same = same_particle(get(one, k), get(many, k));
        CHECK(t, same, "bonded sheet on %d threads = on 1, bit for bit", threads);
        grains_sim_destroy(many);
    }
    grains_sim_destroy(one);
}

/* A bond's springs are state, named by the pair's ids: a spinning,
 * vibrating bonded pair copied into a fresh simulation with its bond's
 * state put back continues bit for bit; with fresh springs it does not. */
static grains_sim *spinning_pair(void)
{
    grains_params p = pair_params();
    p.bond_damping = 0.05;
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0.01, 0}, (grains_vec3){0, 0, 5}, 1e-3);
    add(sim, (grains_vec3){2e-3, 0, 0}, (grains_vec3){0.001, -0.01, 0}, (grains_vec3){3, 0, -5}, 1e-3);
    grains_error err;
    grains_sim_add_bond(sim, 0, 1, &err);
    return sim;
}

static void state_put_back(test_ctx *t)
{
    grains_sim *a = spinning_pair();
    for (int s = 0; s < 2000; s++)
        step(a);
    grains_bond bond;
    grains_sim_get_bond(a, 0, &bond);
    grains_sim *b = scene(grains_sim_params(a)), *fresh = scene(grains_sim_params(a));
    grains_error err;
    for (size_t i = 0; i < 2; i++) {
        grains_particle q = get(a, i);
        grains_sim_add_particle(b, &q, &err);
        grains_sim_add_particle(fresh, &q, &err);
    }
    grains_sim_add_bond(b, 0, 1, &err);
    grains_sim_add_bond(fresh, 0, 1, &err);
    CHECK(t, grains_sim_set_bond(b, 0, &bond, &err) == GRAINS_OK, "bond state put back (%s)", err.message);
    for (int s = 0; s < 2000; s++) {
        step(a);
        step(b);
        step(fresh);
    }
    CHECK(t, same_particle(get(a, 0), get(b, 0)) && same_particle(get(a, 1), get(b, 1)),
          "a bonded pair continues bit for bit with its bond's springs put back");
    CHECK(t, !same_particle(get(a, 0), get(fresh, 0)), "with fresh springs it goes on differently");
    grains_bond wrong = bond;
    wrong.b = 0;
    CHECK(t, grains_sim_set_bond(b, 0, &wrong, &err) == GRAINS_ERR_RANGE, "a state for another pair is refused");
    wrong = bond;
    wrong.us[1] = NAN;
    CHECK(t, grains_sim_set_bond(b, 0, &wrong, &err) == GRAINS_ERR_RANGE, "a NaN spring is refused");
    CHECK(t, grains_sim_set_bond(b, 1, &bond, &err) == GRAINS_ERR_RANGE, "a bond that does not exist is refused");
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(fresh);
}

static void refused(test_ctx *t)
{
    grains_params p = pair_params();
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3);
    grains_error err;
    CHECK(t, grains_sim_add_bond(sim, 0, 0, &err) == GRAINS_ERR_RANGE && strstr(err.message, "two different"),
          "a particle bonded to itself: %s", err.message);
    CHECK(t, grains_sim_add_bond(sim, 0, 5, &err) == GRAINS_ERR_RANGE, "a bond to a missing particle: %s",
          err.message);
    grains_sim_destroy(sim);
    p.bond_kn = 0;
    sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3);
    add(sim, (grains_vec3){2e-3, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3);
    CHECK(t, grains_sim_add_bond(sim, 0, 1, &err) == GRAINS_ERR_RANGE && strstr(err.message, "bond_kn"),
          "a bond without stiffness: %s", err.message);
    grains_sim_destroy(sim);
    p = pair_params();
    p.bond_tolerance = 0.5;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "bond_tolerance"),
          "tolerance out of range: %s", err.message);
    p = pair_params();
    p.bond_kr = -2;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "bond_kr"),
          "negative stiffness: %s", err.message);
}

/* A frame draws the intact bonds: three grains in a row bonded 0-1, 1-2
 * and 0-2, bond 0-2 broken by hand: the particles' VTP holds Lines 0-1 and
 * 1-2 (in (a, b) order, as grains_sim_bond_pairs gives them) and not the
 * broken one, read back by the library's frame reader; with no bond the
 * frame has no Lines (mutation: the broken one written, or none, fails). */
static void frame_lines(test_ctx *t)
{
    grains_params p = pair_params();
    grains_sim *sim = scene(&p);
    for (int k = 0; k < 3; k++)
        add(sim, (grains_vec3){2e-3 * k, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3);
    grains_error err;
    grains_sim_add_bond(sim, 1, 2, &err);
    grains_sim_add_bond(sim, 0, 1, &err);
    grains_sim_add_bond(sim, 0, 2, &err);
    grains_bond broken;
    grains_sim_get_bond(sim, 1, &broken); /* (sorted: 0-1, 0-2, 1-2) */
    broken.broken = 1;
    int set = broken.a == 0 && broken.b == 2 && grains_sim_set_bond(sim, 1, &broken, &err) == GRAINS_OK;
    char path[] = "/tmp/grains_bond_lines_XXXXXX";
    int fd = mkstemp(path);
    grains_frame *f = NULL;
    int lines = 0, ok = set && fd >= 0 && grains_vtk_write_particles(path, sim, GRAINS_VTK_ASCII, &err) == GRAINS_OK &&
                        grains_frame_read(path, &f, &err) == GRAINS_OK;
    for (int k = 0; ok && k < grains_frame_array_count(f); k++) {
        grains_frame_array a = grains_frame_get(f, k);
        if (a.part == GRAINS_FRAME_LINES && strcmp(a.name, "connectivity") == 0)
            lines = a.tuples == 4 && a.values[0] == 0 && a.values[1] == 1 && a.values[2] == 1 && a.values[3] == 2;
    }
    grains_frame_free(f);
    CHECK(t, lines, "a frame's Lines are the intact bonds 0-1 and 1-2, the broken 0-2 left out (%s)",
          ok ? "read" : err.message);
    grains_sim_destroy(sim);
    grains_sim *alone = scene(&p);
    add(alone, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3);
    f = NULL;
    ok = grains_vtk_write_particles(path, alone, GRAINS_VTK_ASCII, &err) == GRAINS_OK &&
         grains_frame_read(path, &f, &err) == GRAINS_OK;
    int none = ok;
    for (int k = 0; ok && k < grains_frame_array_count(f); k++)
        none = none && grains_frame_get(f, k).part != GRAINS_FRAME_LINES;
    grains_frame_free(f);
    CHECK(t, none, "without bonds, no Lines");
    grains_sim_destroy(alone);
    if (fd >= 0)
        close(fd), unlink(path);
}

int main(void)
{
    test_ctx t = {0, 0};
    bonded_pair_impact(&t);
    rigid_rotation(&t);
    twisting(&t);
    breakage(&t);
    thread_invariance(&t);
    refused(&t);
    state_put_back(&t);
    frame_lines(&t);
    return test_report(&t, "test_bonds");
}
