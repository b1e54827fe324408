/* Grains that stay put (grains_material.fixed): immovable whatever acts on
 * them, infinitely heavy in their contacts and of their own radius, or
 * moving at their material's velocity; each check against Hertz's contact
 * or Galilean invariance. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "support.h"

#define PI 3.14159265358979323846

static const char *const INTEGRATORS[] = {"euler", "verlet", "verlet_improved"};

/* Material 0 the run's, material 1 the same but fixed (moving at v);
 * frictionless, e_n as given. */
static grains_params with_fixed(double e_n, grains_vec3 v)
{
    grains_params p = scene_params();
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu, .fixed = 1, .fixed_velocity = v};
    p.e_n = e_n;
    p.mu_s = p.mu_r = p.mu_t = 0;
    p.R_min = 0.9e-3, p.R_max = 1.1e-3;
    return p;
}

static int zero_vec(grains_vec3 a) { return a.x == 0 && a.y == 0 && a.z == 0; }

/* E* of two grains of one material (TinyDEM Eq. 15). */
static double pair_E(const grains_params *p) { return p->E / (2 * (1 - p->nu * p->nu)); }

/* Hertz's elastic impact time (tests/test_materials.c). */
static double hertz_time(double E_eff, double R_eff, double m_eff, double v)
{
    double I = 0.4 * tgamma(0.4) * tgamma(0.5) / tgamma(0.9);
    return 2 * I * pow(15 * m_eff * v * v / (16 * E_eff * sqrt(R_eff)), 0.4) / v;
}

/* A grain resting on a fixed grain of its size under gravity, on their
 * common vertical: it settles where Hertz's force (4/3) E* sqrt(R*)
 * delta^(3/2) holds its weight, R* = R/2 (a grain of its own radius, not a
 * wall: a wall's R* = R would give 2^(1/3) times less overlap). The fixed
 * grain under that load stays where it was, at rest, bit for bit. The
 * settled overlap is exact up to round-off in the positions (1e-19 m against
 * an overlap of 2e-6 m): 1e-6 of it is the damped ringing left after 200
 * periods at e_n = 0.3. */
static void rests_on_a_fixed_grain(test_ctx *t)
{
    for (int k = 0; k < 3; k++) {
        grains_params p = with_fixed(0.3, (grains_vec3){0, 0, 0});
        p.integrator = (grains_integrator)k;
        p.g = (grains_vec3){0, 0, -9.81};
        double R = 1e-3, m = 4 * PI / 3 * p.rho * R * R * R;
        p.dt = 2e-6; /* the Hertz period at rest is ~1 ms */
        grains_sim *sim = scene(&p);
        add_of(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R, 1);
        add_of(sim, (grains_vec3){0, 0, 2 * R + 1e-8}, (grains_vec3){0, 0, 0}, R, 0);
        advance(sim, 100000); /* 0.2 s */
        grains_particle base = get(sim, 0), top = get(sim, 1);
        double delta = 2 * R - top.x.z;
        double want = pow(3 * m * 9.81 / (4 * pair_E(&p) * sqrt(R / 2)), 2.0 / 3);
        printf("  %s: overlap %.9g m (Hertz, R* = R/2: %.9g), |v| %.3g m/s\n", INTEGRATORS[k], delta, want,
               fabs(top.v.z));
        CHECK_REL(t, delta, want, 1e-6, "the weight held by Hertz's force of a pair of grains, R* = R/2");
        CHECK(t, zero_vec(base.x) && zero_vec(base.v) && zero_vec(base.w) && base.q.q0 == 1,
              "%s: the fixed grain stays where it was, at rest: x (%g, %g, %g), v (%g, %g, %g)", INTEGRATORS[k],
              base.x.x, base.x.y, base.x.z, base.v.x, base.v.y, base.v.z);
        grains_sim_destroy(sim);
    }
}

/* A head-on impact on a fixed grain of the same size: undamped, the contact
 * lasts Hertz's time of the moving mass m and R* = R/2 (within the 2 dt of
 * the step grid; a wall's R* = R would lengthen it by 2^(1/5), 15%); damped,
 * the grain leaves at e_n of its speed (Eq. 21's damping restores e_n up to
 * the step, 1e-3 at t_c / 1000, when it takes m* = m: the fixed grain
 * infinitely heavy, Eq. 20 with m_j = inf; m* = m/2 gives e = 0.616). The
 * fixed grain does not move. */
static void bounces_off_a_fixed_grain(test_ctx *t)
{
    double R = 1e-3, v0 = 0.5;
    for (int damped = 0; damped < 2; damped++)
        for (int k = 0; k < 3; k++) {
            grains_params p = with_fixed(damped ? 0.5 : 1, (grains_vec3){0, 0, 0});
            p.integrator = (grains_integrator)k;
            double m = 4 * PI / 3 * p.rho * R * R * R, t_c = hertz_time(pair_E(&p), R / 2, m, v0);
            p.dt = t_c / 1000;
            grains_sim *sim = scene(&p);
            add_of(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R, 1);
            add_of(sim, (grains_vec3){-2 * R - 1e-12, 0, 0}, (grains_vec3){v0, 0, 0}, R, 0);
            double duration = 0;
            int touched = 0;
            for (long s = 0; s < 100000; s++) {
                step(sim);
                if (-get(sim, 1).x.x < 2 * R)
                    touched = 1, duration += p.dt;
                else if (touched)
                    break;
            }
            grains_particle base = get(sim, 0), ball = get(sim, 1);
            printf("  %s, e_n %.1f: contact %.6g s (Hertz, R* = R/2: %.6g), e = %.6f\n", INTEGRATORS[k], p.e_n,
                   duration, t_c, -ball.v.x / v0);
            if (damped)
                CHECK_ABS(t, -ball.v.x / v0, 0.5, 1e-3, "restitution off a fixed grain");
            else
                CHECK_ABS(t, duration, t_c, 2 * p.dt, "contact time of mass m with R* = R/2");
            CHECK(t, zero_vec(base.x) && zero_vec(base.v) && zero_vec(base.w),
                  "%s: the fixed grain does not move when struck", INTEGRATORS[k]);
            grains_sim_destroy(sim);
        }
}

/* A fixed grain moving at V strikes a grain at rest: by Galilean invariance
 * of the impact above, the struck grain leaves at (1 + e_n) V (to the same
 * 1e-3 of e_n), while the fixed one keeps its velocity bit for bit and
 * advances by dt V a step (round-off: one rounding of x a step). Its motion
 * is imposed, not the flow's: no kinetic energy of its own in thermo. */
static void moves_at_its_velocity(test_ctx *t)
{
    double R = 1e-3, V = 0.5;
    grains_params p = with_fixed(0.5, (grains_vec3){V, 0, 0});
    p.dt = hertz_time(pair_E(&p), R / 2, 4 * PI / 3 * p.rho * R * R * R, V) / 1000;
    grains_sim *sim = scene(&p);
    add_of(sim, (grains_vec3){-2 * R - 1e-9, 0, 0}, (grains_vec3){0, 0, 0}, R, 1);
    add_of(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R, 0);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    CHECK(t, th.e_kin == 0 && th.e_rot == 0, "a moving fixed grain has no kinetic energy in thermo: %g", th.e_kin);
    grains_particle start = get(sim, 0);
    CHECK(t, start.v.x == V && start.v.y == 0 && start.v.z == 0, "a fixed grain added at rest moves at once: %g",
          start.v.x);
    const int n = 4000;
    int kept = 1;
    for (long s = 0; s < n; s++) {
        step(sim);
        grains_particle f = get(sim, 0);
        kept &= f.v.x == V && f.v.y == 0 && f.v.z == 0 && zero_vec(f.w);
    }
    grains_particle f = get(sim, 0), ball = get(sim, 1);
    printf("  struck at %.3g m/s: leaves at %.6f m/s (want %.6f); fixed grain at %.17g (x0 + n dt V %.17g)\n", V,
           ball.v.x, 1.5 * V, f.x.x, start.x.x + n * p.dt * V);
    CHECK(t, kept, "the fixed grain keeps its velocity through the impact");
    CHECK_ABS(t, ball.v.x, 1.5 * V, 1e-3 * V, "struck by a fixed grain: (1 + e_n) V");
    CHECK_ABS(t, f.x.x, start.x.x + n * p.dt * V, n * 4 * R * 2.3e-16, "x0 + n dt V");
    grains_sim_destroy(sim);
}

/* A bed of fixed grains and grains dropped on it: the same bits on 1 and 2
 * threads (the force sums' order is the lists', whatever the threads). */
static void same_on_threads(test_ctx *t)
{
    grains_sim *sim[2];
    for (int k = 0; k < 2; k++) {
        grains_params p = with_fixed(0.5, (grains_vec3){0, 0, 0});
        p.mu_s = 0.5, p.mu_r = 0.1, p.mu_t = 0.1;
        p.g = (grains_vec3){0, 0, -9.81};
        p.threads = 1 + k;
        p.dt = 2e-7;
        sim[k] = scene(&p);
        for (int a = 0; a < 24; a++)
            for (int b = 0; b < 24; b++)
                add_of(sim[k], (grains_vec3){2e-3 * a, 2e-3 * b, 0}, (grains_vec3){0, 0, 0}, 1e-3, 1);
        for (int a = 0; a < 600; a++) /* three layers, off the bed's lattice */
            add_of(sim[k], (grains_vec3){2.1e-3 * (a % 20) + 1e-3, 2.1e-3 * (a / 20 % 10) + 1e-3, 2.5e-3 + 2.2e-3 * (a / 200)},
                   (grains_vec3){0, 0, -0.1}, 0.95e-3 + 1e-4 * (a % 3) / 2, 0);
        advance(sim[k], 3000);
    }
    CHECK(t, same_particles(sim[0], sim[1]), "grains on a fixed bed: the same bits on 1 and 2 threads");
    grains_particle bed = get(sim[1], 300);
    CHECK(t, bed.x.x == 2e-3 * 12 && bed.x.y == 2e-3 * 12 && bed.x.z == 0 && zero_vec(bed.v),
          "the bed under the load stays put");
    grains_sim_destroy(sim[0]);
    grains_sim_destroy(sim[1]);
}

static void refused(test_ctx *t)
{
    grains_sim *sim = NULL;
    grains_error err;
    grains_params p = with_fixed(0.5, (grains_vec3){0, 0, 0});
    p.integrator = GRAINS_INTEGRATOR_VARIATIONAL_LEFT;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "explicit integrator"),
          "an implicit integrator with grains that stay put: %s", err.message);
    p = with_fixed(0.5, (grains_vec3){0, NAN, 0});
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "fixed_velocity"),
          "a velocity not a number: %s", err.message);
    p = with_fixed(0.5, (grains_vec3){1, 0, 0});
    p.material[1].fixed = 0;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "fixed = true"),
          "a velocity for grains that are not fixed: %s", err.message);
    p = with_fixed(0.5, (grains_vec3){0, 0.1, 0});
    p.dimension = 2; /* the plane y = const */
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "out of their planes"),
          "in 2D, a velocity out of the plane: %s", err.message);
    p = with_fixed(0.5, (grains_vec3){0, 0, 0});
    p.material[1].fixed = 2;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "fixed = 2"),
          "fixed neither 0 nor 1: %s", err.message);
    p = with_fixed(0.5, (grains_vec3){0, 0, 0});
    sim = scene(&p);
    add_of(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3, 1);
    add_of(sim, (grains_vec3){3e-3, 0, 0}, (grains_vec3){0, 0, 0}, 1e-3, 0);
    grains_relax_result r;
    CHECK(t, grains_sim_relax(sim, 1e-6, 10, &r, &err) == GRAINS_ERR_RANGE && strstr(err.message, "stay put"),
          "relaxation with grains that stay put: %s", err.message);
    grains_particle f = get(sim, 0);
    CHECK(t, zero_vec(f.x), "and nothing moved");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    rests_on_a_fixed_grain(&t);
    bounces_off_a_fixed_grain(&t);
    moves_at_its_velocity(&t);
    same_on_threads(&t);
    refused(&t);
    return test_report(&t, "test_fixed");
}
