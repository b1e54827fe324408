/* The variational integrators (variational-integrator paper Section 2,
 * Algorithm 1) and relaxation to a static packing, their quasi-static limit.
 * Physical facts checked:
 * - A sphere resting on a floor, pushed down and released, is a damped
 *   oscillator about its equilibrium overlap m g / k_n, never leaving
 *   contact (smooth dynamics): the midpoint rule (alpha = 1/2) follows the
 *   exact solution to second order in h (10x smaller h, > 70-fold smaller
 *   error), the left rule (alpha = 0) to first order (> 8-fold).
 * - Without dashpots the left rule is symplectic Euler, TinyDEM's scheme:
 *   the same trajectory as integrator euler, to round-off.
 * - Momentum: pair forces cancel, so an impact keeps the total momentum to
 *   the Newton tolerance (newton_tol R_min m / h per step).
 * - Thread count: 218 spheres settling in a box, bit-identical on 1 and 2
 *   threads.
 * - Friction and bonds have no potential: refused, with the reason. Newton
 *   that does not converge, or an overlap beyond max_overlap, is an error
 *   and the step is not taken: nothing moves or turns.
 * - Relaxation: a sphere on a floor comes to rest at overlap m g / k_n
 *   (linear) or (m g / K)^(2/3) (Hertz); a column of three at overlaps
 *   3 m g / k_n and 2 m g / k_n between its members and the floor from the
 *   bottom; a poured pile converges with every net force below 1e-6 of the
 *   particle's weight and a lower energy than it started with. */
#include <string.h>

#include "check.h"
#include "core/coeffs.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846
#define R 1e-3
#define RHO 2500.0
#define G 9.81

static double mass(void) { return 4 * PI / 3 * RHO * R * R * R; }

/* A linear, frictionless run of spheres of radius R (no spawning). */
static grains_params params(grains_integrator integrator, double k_n, double e_n, double dt)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = R;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.rho = RHO;
    p.e_n = e_n;
    p.mu_s = p.mu_r = p.mu_t = 0;
    p.g = (grains_vec3){0, 0, -G};
    p.N_max = p.N_spawn = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = k_n;
    p.integrator = integrator;
    p.dt = dt;
    p.threads = 1;
    return p;
}

static grains_status add_floor(grains_sim *sim, grains_error *err)
{
    const double L = 0.1;
    const grains_vec3 c[4] = {{-L, -L, 0}, {L, -L, 0}, {L, L, 0}, {-L, L, 0}};
    return validate_rectangles(sim, c, 1, err);
}

/* walls: 0 none, 1 a floor, 2 case 6's box */
static grains_sim *make(test_ctx *t, const grains_params *p, int walls)
{
    grains_sim *sim = NULL;
    grains_error err;
    const double d = 2 * p->R_max;
    if (grains_sim_create(&sim, p, &err) != GRAINS_OK || (walls == 1 && add_floor(sim, &err) != GRAINS_OK) ||
        (walls == 2 && box_walls(sim, BOX_WIDTH * d, BOX_HEIGHT * d, &err) != GRAINS_OK)) {
        CHECK(t, 0, "create: %s", err.message);
        grains_sim_destroy(sim);
        return NULL;
    }
    return sim;
}

static void add(grains_sim *sim, double x, double y, double z, double vx)
{
    grains_particle q = {{x, y, z}, {vx, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R, 0, 0};
    grains_error err;
    grains_sim_add_particle(sim, &q, &err);
}

/* Largest |overlap - exact| / A over two periods of the damped sphere on the floor. */
static double resting_error(test_ctx *t, grains_integrator integrator, double steps_per_tc)
{
    const double k = 10, m = mass(), e_n = 0.5;
    const double w = sqrt(k / m), t_c = PI / w, l = log(e_n);
    const double c = 2 * sqrt(m * k) / sqrt(1 + PI * PI / (l * l)); /* Eq. 31 */
    const double beta = c / (2 * m), w_d = sqrt(w * w - beta * beta);
    const double d_eq = m * G / k, A = d_eq / 2;
    grains_params p = params(integrator, k, e_n, t_c / steps_per_tc);
    grains_sim *sim = make(t, &p, 1);
    if (!sim)
        return INFINITY;
    add(sim, 0, 0, R - d_eq - A, 0);
    double worst = 0;
    grains_error err;
    for (long n = 1; n <= 4 * (long)steps_per_tc; n++) {
        if (grains_sim_step(sim, &err) != GRAINS_OK) {
            CHECK(t, 0, "resting sphere: %s", err.message);
            break;
        }
        double time = grains_sim_time(sim);
        grains_particle q;
        grains_sim_get_particle(sim, 0, &q);
        double exact = A * exp(-beta * time) * (cos(w_d * time) + beta / w_d * sin(w_d * time));
        worst = nan_max(worst, fabs(R - q.x.z - d_eq - exact) / A);
    }
    grains_sim_destroy(sim);
    return worst;
}

static void resting_sphere(test_ctx *t)
{
    const char *names[2] = {"variational_left", "variational_midpoint"};
    const double fall[2] = {8, 70};
    for (int a = 0; a < 2; a++) {
        grains_integrator in = a ? GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT : GRAINS_INTEGRATOR_VARIATIONAL_LEFT;
        double coarse = resting_error(t, in, 16), fine = resting_error(t, in, 160);
        printf("  resting sphere, %s: error %.3g (t_c/16), %.3g (t_c/160) of the amplitude\n", names[a], coarse, fine);
        CHECK(t, coarse / fine > fall[a], "%s: error falls %.3g-fold for 10x smaller h (> %g)", names[a],
              coarse / fine, fall[a]);
        CHECK(t, fine < 0.02, "%s: within %.3g of the amplitude at t_c/160", names[a], fine);
    }
}

/* Two spheres colliding off-centre, undamped, no gravity: positions after
 * the collision under euler and variational_left; and the midpoint rule's
 * momentum. */
static void impact_run(test_ctx *t, grains_integrator in, double e_n, grains_particle out[2], double *momentum_err)
{
    const double k = 10, m = mass(), t_c = PI * sqrt(m / 2 / k);
    grains_params p = params(in, k, e_n, t_c / 50);
    p.g = (grains_vec3){0, 0, 0};
    grains_sim *sim = make(t, &p, 0);
    if (!sim)
        return;
    add(sim, -1.01 * R, 0.2 * R, 0, 0.01);
    add(sim, 1.01 * R, -0.2 * R, 0, -0.02);
    const double p0 = m * (0.01 - 0.02);
    grains_error err;
    *momentum_err = 0;
    for (int n = 0; n < 400; n++) {
        if (grains_sim_step(sim, &err) != GRAINS_OK) {
            CHECK(t, 0, "impact: %s", err.message);
            break;
        }
        grains_sim_get_particle(sim, 0, &out[0]);
        grains_sim_get_particle(sim, 1, &out[1]);
        double px = m * (out[0].v.x + out[1].v.x) - p0, py = m * (out[0].v.y + out[1].v.y);
        *momentum_err = nan_max(*momentum_err, sqrt(px * px + py * py));
    }
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    CHECK(t, !grains_integrator_variational(in) || (th.newton >= 1 && th.newton_most >= th.newton && th.newton_update <= p.newton_tol),
          "thermo: Newton %d iterations (most %d), update %.3g <= newton_tol", th.newton, th.newton_most,
          th.newton_update);
    grains_sim_destroy(sim);
}

static void impact(test_ctx *t)
{
    grains_particle e[2], v[2], mid[2];
    double pe, pv, pm;
    impact_run(t, GRAINS_INTEGRATOR_EULER, 1, e, &pe);
    impact_run(t, GRAINS_INTEGRATOR_VARIATIONAL_LEFT, 1, v, &pv);
    double dx = 0;
    for (int k = 0; k < 2; k++)
        dx = nan_max(dx, nan_max(fabs(e[k].x.x - v[k].x.x), fabs(e[k].x.y - v[k].x.y)));
    printf("  undamped impact: variational_left vs euler, positions %.3g m apart after 400 steps\n", dx);
    CHECK(t, dx < 1e-15, "variational_left without dashpots is symplectic Euler: %.3g m", dx);
    impact_run(t, GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT, 0.5, mid, &pm);
    double bound = 2 * 1e-10 * R * mass() / (PI * sqrt(mass() / 2 / 10) / 50);
    printf("  damped impact, variational_midpoint: momentum off by %.3g kg m/s (bound %.3g)\n", pm, bound);
    CHECK(t, pm < bound, "momentum kept to the Newton tolerance: %.3g < %.3g", pm, bound);
    CHECK(t, mid[1].x.x - mid[0].x.x > 2 * R, "the spheres part after the impact");
}

/* 218 spheres settling (case 6's start) on 1 and 2 threads. */
static void threads(test_ctx *t)
{
    box_setup s = box_default(GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT);
    s.z_start = s.d / 2; /* the lowest layer starts on the floor: contacts from the first steps */
    grains_particle start[BOX_N], a, b;
    box_start(&s, start);
    grains_sim *sims[2];
    for (int k = 0; k < 2; k++) {
        grains_params p = box_params(&s);
        p.threads = k + 1;
        sims[k] = make(t, &p, 2);
        if (!sims[k])
            return;
        grains_error err;
        for (int i = 0; i < BOX_N; i++)
            grains_sim_add_particle(sims[k], &start[i], &err);
        CHECK(t, grains_sim_advance(sims[k], 3000, &err) == GRAINS_OK, "box on %d threads: %s", k + 1,
              err.message);
    }
    int same = 1;
    for (size_t i = 0; i < BOX_N; i++) {
        grains_sim_get_particle(sims[0], i, &a);
        grains_sim_get_particle(sims[1], i, &b);
        same &= memcmp(&a.x, &b.x, sizeof a.x) == 0 && memcmp(&a.v, &b.v, sizeof a.v) == 0;
    }
    for (size_t k = 0; k < grains_sim_mesh_count(sims[0]); k++) { /* the walls' loads too */
        grains_wall w0, w1;
        grains_sim_get_wall(sims[0], k, &w0);
        grains_sim_get_wall(sims[1], k, &w1);
        same &= isfinite(w0.force.z) && memcmp(&w0.force, &w1.force, sizeof w0.force) == 0 &&
                memcmp(&w0.torque, &w1.torque, sizeof w0.torque) == 0;
    }
    grains_thermo th;
    grains_sim_thermo(sims[0], &th);
    printf("  box, 3000 steps: %zu contacts, 1 and 2 threads %s\n", th.n_contacts, same ? "bit-identical" : "differ");
    CHECK(t, th.n_contacts > 0 && same, "bit-identical on 1 and 2 threads (%zu contacts)", th.n_contacts);
    grains_sim_destroy(sims[0]);
    grains_sim_destroy(sims[1]);
}

static void refusals(test_ctx *t)
{
    grains_sim *sim = NULL;
    grains_error err;
    grains_params p = params(GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT, 10, 0.5, 1e-5);
    p.mu_s = 0.3;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "potential") &&
                 strstr(err.message, "mu_s = 0.3"), "friction refused: %s", err.message);
    p.mu_s = 0, p.bond_kn = 100;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "bonds"),
          "bonds refused: %s", err.message);
    p.bond_kn = 0, p.newton_max_iter = 0;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "newton_max_iter"),
          "newton_max_iter 0 refused: %s", err.message);
    /* one Newton iteration cannot reach 1e-10 R_min: an error, nothing moves */
    p.newton_max_iter = 1;
    p.g = (grains_vec3){0, 0, 0};
    sim = make(t, &p, 0);
    if (!sim)
        return;
    add(sim, -0.999 * R, 0, 0, 0.01);
    add(sim, 0.999 * R, 0, 0, -0.01);
    grains_particle before, after;
    grains_sim_get_particle(sim, 0, &before);
    grains_status s = grains_sim_step(sim, &err);
    grains_sim_get_particle(sim, 0, &after);
    CHECK(t, s == GRAINS_ERR_UNSTABLE && strstr(err.message, "Newton did not converge"), "unconverged: %s",
          err.message);
    int same = memcmp(&before.x, &after.x, sizeof before.x) == 0 && memcmp(&before.v, &after.v, sizeof before.v) == 0;
    CHECK(t, same && grains_sim_steps(sim) == 0,
          "the step is not taken: x %.17g -> %.17g, v %.17g -> %.17g", before.x.x, after.x.x, before.v.x, after.v.x);
    grains_sim_destroy(sim);
    /* an overlap beyond max_overlap: refused, and nothing moves, spins and orientations included */
    p.newton_max_iter = 20, p.max_overlap = 1e-4, p.eta = 1e-3;
    sim = make(t, &p, 0);
    if (!sim)
        return;
    add(sim, -0.999 * R, 0, 0, 0.01);
    add(sim, 0.999 * R, 0, 0, -0.01);
    grains_sim_get_particle(sim, 0, &before);
    before.w = (grains_vec3){0, 0, 50};
    grains_sim_set_particle(sim, 0, &before);
    s = grains_sim_step(sim, &err);
    grains_sim_get_particle(sim, 0, &after);
    same = memcmp(&before.x, &after.x, sizeof before.x) == 0 && memcmp(&before.v, &after.v, sizeof before.v) == 0 &&
           memcmp(&before.w, &after.w, sizeof before.w) == 0 && memcmp(&before.q, &after.q, sizeof before.q) == 0;
    CHECK(t, s == GRAINS_ERR_UNSTABLE && strstr(err.message, "max_overlap"), "overlap refused: %s", err.message);
    CHECK(t, same && grains_sim_steps(sim) == 0, "an unstable step leaves position, velocity, spin, orientation");
    grains_sim_destroy(sim);
}

/* Relaxation of `n` spheres stacked on the floor: their overlaps (validate/column.c). */
static void column(test_ctx *t, grains_contact_model model, int n)
{
    column_result r;
    grains_error err;
    if (column_run(model, n, &r, &err) != GRAINS_OK) {
        CHECK(t, 0, "column: %s", err.message);
        return;
    }
    printf("  relaxed column of %d (%s): %ld pseudo-steps, %ld Newton iterations, imbalance %.3g, overlaps within "
           "%.3g of the load's, energy %.6g -> %.6g J\n", n, model == GRAINS_CONTACT_LINEAR ? "linear" : "Hertz",
           r.relax.steps, r.relax.newton, r.relax.imbalance, r.worst, r.relax.energy_start, r.relax.energy_end);
    CHECK(t, r.relax.converged && r.worst < 1e-6, "column of %d: static, overlaps %.3g from the load's", n, r.worst);
    CHECK(t, r.relax.energy_end < r.relax.energy_start, "energy falls: %.9g -> %.9g", r.relax.energy_start,
          r.relax.energy_end);
}

/* The box's 218 spheres, dropped and relaxed in one go in their box. */
static void pile(test_ctx *t)
{
    box_setup s = box_default(GRAINS_INTEGRATOR_EULER);
    grains_particle start[BOX_N];
    box_start(&s, start);
    grains_params p = box_params(&s);
    grains_sim *sim = make(t, &p, 2);
    if (!sim)
        return;
    grains_error err;
    for (int i = 0; i < BOX_N; i++)
        grains_sim_add_particle(sim, &start[i], &err);
    grains_relax_result r;
    grains_status st = grains_sim_relax(sim, 1e-6, 20000, &r, &err);
    CHECK(t, st == GRAINS_OK, "relax: %s", err.message);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    double top = 0;
    for (size_t i = 0; i < BOX_N; i++) {
        grains_particle q;
        grains_sim_get_particle(sim, i, &q);
        top = nan_max(top, q.x.z);
    }
    printf("  relaxed pile of %d: %ld pseudo-steps, %ld Newton iterations, imbalance %.3g, %zu contacts, top at "
           "%.3g d, energy %.6g -> %.6g J\n", BOX_N, r.steps, r.newton, r.imbalance, th.n_contacts, top / s.d,
           r.energy_start, r.energy_end);
    CHECK(t, r.converged && r.imbalance <= 1e-6 && th.e_kin == 0, "pile static: imbalance %.3g", r.imbalance);
    CHECK(t, r.energy_end < r.energy_start && th.n_contacts >= BOX_N, "pile: energy falls, %zu contacts",
          th.n_contacts);
    /* static: the walls carry the pile's weight (each sphere's imbalance <= 1e-6 of its weight) */
    grains_vec3 load = {0, 0, 0};
    for (size_t k = 0; k < grains_sim_mesh_count(sim); k++) {
        grains_wall w;
        grains_sim_get_wall(sim, k, &w);
        load.x += w.force.x, load.y += w.force.y, load.z += w.force.z;
    }
    double weight = 0;
    for (size_t i = 0; i < BOX_N; i++) {
        grains_particle q;
        grains_sim_get_particle(sim, i, &q);
#pragma push_macro("R") /* this file's R is the column's radius */
#undef R
        double a = q.R;
#pragma pop_macro("R")
        weight += 4 * PI / 3 * p.rho * a * a * a * -p.g.z;
    }
    printf("  relaxed pile: the walls carry %.9g N downwards, the weight is %.9g N\n", -load.z, weight);
    CHECK_REL(t, -load.z, weight, 1e-6, "relaxed pile: the walls carry its weight");
    CHECK(t, fabs(load.x) < 1e-6 * weight && fabs(load.y) < 1e-6 * weight, "and no net sideways load (%g, %g)",
          load.x, load.y);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx ctx = {0, 0}, *t = &ctx;
    resting_sphere(t);
    impact(t);
    threads(t);
    refusals(t);
    column(t, GRAINS_CONTACT_LINEAR, 1);
    column(t, GRAINS_CONTACT_LINEAR, 3);
    column(t, GRAINS_CONTACT_HERTZ_MINDLIN, 3);
    pile(t);
    return test_report(t, "test_variational");
}
