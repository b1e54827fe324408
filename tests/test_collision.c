/* Two-sphere collisions against analytic mechanics (TinyDEM Eqs. 5-25). */
#include "check.h"
#include "support.h"

#define PI 3.14159265358979323846

typedef struct {
    double e;            /* measured restitution */
    double t_contact;    /* [s] duration of the contact */
    double delta_max;    /* [m] largest overlap */
    double ke_ratio;     /* kinetic energy after / before */
} impact;

/* Head-on impact of two equal spheres at relative speed v, g = 0. */
static impact head_on(double e_n, double dt_scale, double v)
{
    grains_params p = scene_params();
    p.e_n = e_n;
    p.dt = dt_scale * grains_params_default_dt(&p);
    const double R = 2.385e-3;
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){-R - 1e-5, 0, 0}, (grains_vec3){v / 2, 0, 0}, (grains_vec3){0, 0, 0}, R);
    add(sim, (grains_vec3){R + 1e-5, 0, 0}, (grains_vec3){-v / 2, 0, 0}, (grains_vec3){0, 0, 0}, R);
    impact r = {0, 0, 0, 0};
    long in_contact = 0;
    for (long k = 0; k < 200000; k++) {
        step(sim);
        double d = get(sim, 1).x.x - get(sim, 0).x.x;
        if (d < 2 * R) {
            in_contact++;
            r.delta_max = nan_max(r.delta_max, 2 * R - d);
        } else if (in_contact) {
            break;
        }
    }
    double v_after = get(sim, 1).v.x - get(sim, 0).v.x;
    r.e = v_after / v;
    r.t_contact = (double)in_contact * p.dt;
    r.ke_ratio = (v_after * v_after) / (v * v);
    grains_sim_destroy(sim);
    return r;
}

/* Eq. 18's factor sqrt(5) is the paper's damping for the Hertzian exponent;
 * the restitution it yields is not exact by construction. Measured here at
 * dt/20 (where the scheme has converged to 1e-4): e_n = 0.1 -> 0.0993,
 * 0.5 -> 0.4998, 0.9 -> 0.9000, so we assert |e - e_n| < 2e-3. At the
 * default dt a contact spans ~16 steps of a first-order scheme; the heavily
 * damped e_n = 0.1 then deviates by 0.014, so the dt check allows 0.02. */
static void restitution(test_ctx *t)
{
    const double e_n[3] = {0.1, 0.5, 0.9};
    for (int k = 0; k < 3; k++) {
        impact a = head_on(e_n[k], 1, 0.5), b = head_on(e_n[k], 0.05, 0.5);
        printf("  e_n = %.1f: measured e = %.4f (dt of Eq. 49), %.4f (dt/20), deviation %.4f\n", e_n[k], a.e, b.e,
               b.e - e_n[k]);
        CHECK_ABS(t, b.e, e_n[k], 2e-3, "restitution vs e_n (converged dt)");
        CHECK_ABS(t, a.e, b.e, 0.02, "restitution at the default dt (first-order discretisation)");
        /* Eq. 21 makes e independent of impact speed (Hertz with delta^1/4 damping). */
        impact c = head_on(e_n[k], 0.05, 0.05);
        CHECK_ABS(t, c.e, b.e, 2e-3, "restitution independent of impact speed");
    }
}

/* e_n = 1: no damping, the kinetic energy comes back; the symplectic scheme
 * leaves an O(dt^2) error from the non-smooth start and end of contact. */
static void elastic_energy(test_ctx *t)
{
    impact a = head_on(1, 1, 0.5), b = head_on(1, 0.25, 0.5);
    CHECK_REL(t, a.ke_ratio, 1, 1e-2, "energy after elastic impact (default dt)");
    CHECK_REL(t, b.ke_ratio, 1, 1e-3, "energy after elastic impact (dt/4)");
    CHECK(t, fabs(b.ke_ratio - 1) < fabs(a.ke_ratio - 1) || fabs(a.ke_ratio - 1) < 1e-6,
          "energy error shrinks with dt: %.3g -> %.3g", a.ke_ratio - 1, b.ke_ratio - 1);
}

/* Hertz: delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5), t_c = 2.9432 delta_max / v
 * (the constant is 2 * integral_0^1 (1 - x^(5/2))^(-1/2) dx). With dt/20 the
 * duration is resolved to dt/t_c ~ 0.3%, the peak to (v dt / delta_max)^2. */
static void hertz_duration(test_ctx *t)
{
    grains_params p = scene_params();
    const double R = 2.385e-3, v = 0.5;
    double m_eff = mass(&p, R) / 2, R_eff = R / 2, E_eff = p.E / (2 * (1 - p.nu * p.nu));
    double delta_max = pow(15 * m_eff * v * v / (16 * E_eff * sqrt(R_eff)), 0.4);
    double t_c = 2 * 1.4716258 * delta_max / v;
    impact a = head_on(1, 0.05, v);
    double dt = 0.05 * grains_params_default_dt(&p);
    printf("  Hertz: t_c = %.6g s (analytic %.6g), delta_max = %.6g m (analytic %.6g)\n", a.t_contact, t_c,
           a.delta_max, delta_max);
    CHECK_ABS(t, a.t_contact, t_c, 2 * dt, "Hertz contact duration");
    CHECK_REL(t, a.delta_max, delta_max, 1e-3, "Hertz maximum overlap");
}

/* Momentum and angular momentum about the origin are conserved by every
 * contact: forces are equal and opposite (Eqs. 55-56), torques by Eqs. 57-59
 * satisfy r_i + r_j = d; semi-implicit Euler keeps both to round-off. */
static void conservation(test_ctx *t)
{
    grains_params p = scene_params();
    p.mu_s = 0.4;
    p.mu_r = 0.1;
    p.mu_t = 0.05;
    grains_sim *sim = scene(&p);
    const double R1 = 2.385e-3, R2 = 3.71e-3;
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0.31, 0.07, -0.02}, (grains_vec3){13, -40, 27}, R1);
    add(sim, (grains_vec3){R1 + R2 + 1e-5, 1.3e-3, 0.4e-3}, (grains_vec3){-0.2, 0.03, 0.05}, (grains_vec3){-5, 22, 60}, R2);
    double m[2] = {mass(&p, R1), mass(&p, R2)}, I[2] = {0.4 * m[0] * R1 * R1, 0.4 * m[1] * R2 * R2};
    double P0[3] = {0}, L0[3] = {0}, P1[3], L1[3], pscale = 0, lscale = 0;
    for (int pass = 0; pass < 2; pass++) {
        double *P = pass ? P1 : P0, *L = pass ? L1 : L0;
        P[0] = P[1] = P[2] = L[0] = L[1] = L[2] = 0;
        for (int i = 0; i < 2; i++) {
            grains_particle q = get(sim, (size_t)i);
            P[0] += m[i] * q.v.x, P[1] += m[i] * q.v.y, P[2] += m[i] * q.v.z;
            L[0] += m[i] * (q.x.y * q.v.z - q.x.z * q.v.y) + I[i] * q.w.x;
            L[1] += m[i] * (q.x.z * q.v.x - q.x.x * q.v.z) + I[i] * q.w.y;
            L[2] += m[i] * (q.x.x * q.v.y - q.x.y * q.v.x) + I[i] * q.w.z;
            pscale += m[i] * sqrt(q.v.x * q.v.x + q.v.y * q.v.y + q.v.z * q.v.z);
            lscale += I[i] * sqrt(q.w.x * q.w.x + q.w.y * q.w.y + q.w.z * q.w.z) + m[i] * 0.31 * R2;
        }
        if (!pass) {
            long contact_steps = 0;
            for (int k = 0; k < 3000; k++) {
                step(sim);
                grains_thermo th;
                grains_sim_thermo(sim, &th);
                contact_steps += th.n_contacts > 0;
            }
            CHECK(t, contact_steps > 10, "the spheres collided (%ld steps in contact)", contact_steps);
        }
    }
    for (int c = 0; c < 3; c++) {
        CHECK_ABS(t, P1[c], P0[c], 1e-14 * pscale, "linear momentum");
        CHECK_ABS(t, L1[c], L0[c], 1e-13 * lscale, "angular momentum");
    }
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    restitution(&t);
    elastic_energy(&t);
    hertz_duration(&t);
    conservation(&t);
    return test_report(&t, "test_collision");
}
