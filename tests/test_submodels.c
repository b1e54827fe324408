/* The contact sub-models added to the registry (contact/submodels.c), each
 * against its analytic value:
 * - rolling "type_c" (Ai et al. 2011): a sphere rolling on a floor meets a
 *   constant resisting torque mu_r R |f_n| once the spring is mobilised, so
 *   it decelerates at 5/7 mu_r g and stops after 7 v0^2 / (10 mu_r g),
 *   whatever its speed; on a slope it stays at rest below atan(mu_r) and
 *   rolls at 5/7 g (sin a - mu_r cos a) above it;
 * - rolling "sds" (Luding 2008, LAMMPS' spring-dashpot-slider): the same
 *   two facts with its own spring k_roll and dashpot gamma_roll (the torque
 *   at full mobilisation is mu_r R* |f_n| again), and held on the slope the
 *   sphere has moved by what its rolling spring gives, m g sin(a) / k_roll,
 *   plus its sliding spring's share, k_roll the pair's where the pair gives
 *   its own;
 * - cohesion "jkr" (Johnson, Kendall and Roberts 1971): two spheres, or a
 *   sphere and a wall, pulled apart hold on past touching with a least
 *   force of -3/2 pi W R* (the pull-off force), and let go at the gap
 *   3/4 (pi^2 W^2 R* / E*^2)^(1/3); on approach nothing acts before they
 *   touch;
 * - per pair of materials, JKR's W, the linear spring's k_n and van der
 *   Waals' Hamaker constant A: materials giving 4x and x act as their
 *   geometric mean 2x;
 * - damping "tsuji" (Tsuji et al. 1992): a head-on impact's restitution is
 *   that of the damped Hertz oscillator with the dashpot alpha(e_n)
 *   sqrt(m* k_n), at any speed; and each damping law goes with its normal law;
 * and the registry names every row the scenario may choose. */
#include "check.h"
#include "contact/damping_tsuji.h"
#include "contact/submodels.h"
#include "core/coeffs.h"
#include "validate/validate.h"
#include "support.h"

#define PI 3.14159265358979323846

/* ---- rolling type C ---- */

static const double R = 0.01, G = 9.81, MU_R = 0.1;

static grains_params rolling_params(grains_rolling_model model, double slope)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.E = 1e7, p.e_n = 0.5, p.mu_s = 1, p.mu_t = 0, p.mu_r = MU_R;
    p.rolling_model = model;
    p.coeff[COEFF_TYPE_C_DAMPING] = 0; /* the spring alone (its dashpot: rocking(), below) */
    p.g = (grains_vec3){G * sin(slope), 0, -G * cos(slope)};
    p.dt = grains_params_default_dt(&p) / 10;
    return p;
}

/* A sphere set down on the floor of the run `p` rolling at v0 along x:
 * where it is and how fast it goes after t, and its speeds at t / 8 and
 * t / 3. */
static grains_particle roll_in(const grains_params *p, double v0, double t, double v_at[2])
{
    grains_sim *sim = scene(p);
    floor_mesh(sim, 1, 0);
    add(sim, (grains_vec3){0, 0, R}, (grains_vec3){v0, 0, 0}, (grains_vec3){0, v0 / R, 0}, R);
    long n = (long)(t / p->dt);
    for (long k = 1; k <= n; k++) {
        step(sim);
        if (k == n / 8)
            v_at[0] = get(sim, 0).v.x;
        if (k == n / 3)
            v_at[1] = get(sim, 0).v.x;
    }
    grains_particle s = get(sim, 0);
    grains_sim_destroy(sim);
    return s;
}

/* The same for type C or the spring, the rolling dashpot `damping` of critical. */
static grains_particle roll(grains_rolling_model model, double damping, double slope, double v0, double t,
                            double v_at[2])
{
    grains_params p = rolling_params(model, slope);
    p.coeff[COEFF_TYPE_C_DAMPING] = damping;
    return roll_in(&p, v0, t, v_at);
}

/* The Hertz overlap, contact radius and normal spring (secant, Eq. 12) of
 * the sphere resting on the floor. */
static double resting_overlap(double *a, double *k_n)
{
    double E_eff = 1e7 / (1 - 0.3 * 0.3), m = 4 * PI / 3 * 1e3 * R * R * R;
    double delta = pow(m * G / (4.0 / 3.0 * E_eff * sqrt(R)), 2.0 / 3.0); /* Eq. 5 */
    *a = sqrt(R * delta);
    *k_n = 4.0 / 3.0 * E_eff * *a;
    return delta;
}

/* The angle the spring winds up to at full mobilisation, M_m / k_r, for the
 * sphere resting on the floor: it may give that back as it stops. */
static double wind_up(void)
{
    double a, k_n, m = 4 * PI / 3 * 1e3 * R * R * R;
    resting_overlap(&a, &k_n);
    return MU_R * R * m * G / (2.25 * k_n * MU_R * MU_R * R * R);
}

static void type_c_on_floor(test_ctx *t)
{
    const double a = 5.0 / 7.0 * MU_R * G, T = 0.25;
    for (int k = 0; k < 2; k++) {
        double v0 = k ? 0.1 : 0.07, v[2] = {0, 0}, stop = 7 * v0 * v0 / (10 * MU_R * G);
        grains_particle s = roll(GRAINS_ROLLING_TYPE_C, 0, 0, v0, T, v);
        double decel = (v[0] - v[1]) / (T / 3 - T / 8);
        printf("  type C, v0 = %g m/s: decelerates at %.6f m/s^2 (5/7 mu_r g = %.6f), stops at x = %.6f m "
               "(7 v0^2 / (10 mu_r g) = %.6f)\n", v0, decel, a, s.x.x, stop);
        /* the overlap shortens friction's lever by delta / (2R) ~ 5e-4 */
        CHECK_REL(t, decel, a, 1e-3, "type C decelerates at 5/7 mu_r g whatever the speed");
        /* and the spring's wind-up R theta comes back as it stops */
        CHECK_ABS(t, s.x.x, stop, 2 * R * wind_up() + 1e-3 * stop, "type C stopping distance");
    }
    double v[2];
    grains_particle s = roll(GRAINS_ROLLING_TYPE_C, 0.3, 0, 0.1, 2 * T, v);
    printf("  type C with its dashpot (0.3 of critical): stops at x = %.6f m, v(2T) = %.2e m/s\n", s.x.x, s.v.x);
    CHECK(t, fabs(s.v.x) < 1e-6, "type C's dashpot brings the rocking to rest (v = %g)", s.v.x);
    s = roll(GRAINS_ROLLING_SPRING, 0, 0, 0.1, T, v);
    printf("  TinyDEM spring, v0 = 0.1 m/s: x = %.6f m, v = %.2e m/s\n", s.x.x, s.v.x);
}

static void type_c_on_slope(test_ctx *t)
{
    const double hold = atan(0.5 * MU_R), slide = atan(2 * MU_R), T = 0.2;
    double v[2];
    grains_particle s = roll(GRAINS_ROLLING_TYPE_C, 0.3, hold, 0, T, v);
    printf("  type C at %.2f deg (below atan(mu_r) = %.2f): x = %.3g m, v = %.3g m/s after %g s\n",
           hold * 180 / PI, atan(MU_R) * 180 / PI, s.x.x, s.v.x, T);
    /* at rest: it moved by no more than the spring's elastic wind-up */
    CHECK(t, fabs(s.x.x) < R * wind_up() && fabs(s.v.x) < 1e-6,
          "type C holds on a slope below atan(mu_r): x %g, v %g", s.x.x, s.v.x);
    s = roll(GRAINS_ROLLING_TYPE_C, 0.3, slide, 0, T, v);
    double a = 5.0 / 7.0 * G * (sin(slide) - MU_R * cos(slide)), got = (v[1] - v[0]) / (T / 3 - T / 8);
    printf("  type C at %.2f deg: accelerates at %.6f m/s^2, 5/7 g (sin - mu_r cos) = %.6f\n", slide * 180 / PI, got,
           a);
    CHECK_REL(t, got, a, 1e-3, "type C rolls down a slope above atan(mu_r)");
}

/* Below full mobilisation the sphere rocks on its springs: the rolling one
 * (k_r = 2.25 k_n mu_r^2 R^2 on the turn theta) in series with the sliding
 * one (k_s = 8 G* a on the slip x - R theta). Small oscillations of
 *   m x'' = -k_s (x - R theta),  I theta'' = k_s R (x - R theta) - k_r theta
 * have the slow mode's frequency from det(K - w^2 M) = 0. */
static void type_c_rocking(test_ctx *t)
{
    grains_params p = rolling_params(GRAINS_ROLLING_TYPE_C, 0);
    p.e_n = 1; /* no dashpots at all */
    p.coeff[COEFF_TYPE_C_DAMPING] = 0;
    double a, k_n, delta = resting_overlap(&a, &k_n);
    double m = 4 * PI / 3 * 1e3 * R * R * R, I = 0.4 * m * R * R;
    double G_eff = 1e7 / (2 * 1.3) / (2 - 0.3); /* Eq. 16 against a rigid wall */
    double k_s = 8 * G_eff * a, k_r = 2.25 * k_n * MU_R * MU_R * R * R;
    /* det [[k_s - w2 m, -k_s R], [-k_s R, k_s R^2 + k_r - w2 I]] = 0 */
    double A = m * I, B = -(m * (k_s * R * R + k_r) + I * k_s), C = k_s * k_r;
    double w2 = (-B - sqrt(B * B - 4 * A * C)) / (2 * A), period = 2 * PI / sqrt(w2);
    /* started in the slow mode's shape, x / theta = k_s R / (k_s - w2 m) */
    const double spin = 0.1;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    add(sim, (grains_vec3){0, 0, R - delta}, (grains_vec3){spin * k_s * R / (k_s - w2 * m), 0, 0},
        (grains_vec3){0, spin, 0}, R);
    double last = 0, first_cross = NAN, last_cross = NAN;
    int crossings = 0;
    for (long k = 0; k < (long)(10.5 * period / p.dt); k++) {
        double w0 = get(sim, 0).w.y;
        step(sim);
        double w1 = get(sim, 0).w.y, time = grains_sim_time(sim);
        if (k > 0 && (w0 > 0) != (w1 > 0)) { /* a zero of the spin, interpolated */
            last = time - p.dt * w1 / (w1 - w0);
            if (isnan(first_cross))
                first_cross = last;
            last_cross = last;
            crossings++;
        }
    }
    grains_sim_destroy(sim);
    double measured = 2 * (last_cross - first_cross) / (crossings - 1);
    printf("  type C rocking: period %.6f s over %d half periods (springs in series: %.6f s; k_r alone: %.6f s)\n",
           measured, crossings - 1, period, 2 * PI * sqrt((I + m * R * R) / k_r));
    /* the step resolves the period with (w dt)^2 ~ 2e-6; the overlap changes the lever by delta / R ~ 1e-3 */
    CHECK_REL(t, measured, period, 2e-3, "type C rocking period from k_r and k_s");
}

/* ---- JKR ---- */

static const double W = 0.05, E = 1e7, NU = 0.3, U = 1e-4, DT = 1e-6;

static grains_params jkr_params(void)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.rho = 1e6; /* heavy: the pull is steady */
    p.E = E, p.nu = NU, p.e_n = 1; /* no dashpot: the force is JKR's elastic one alone */
    p.mu_s = p.mu_r = p.mu_t = 0;
    p.cohesion = GRAINS_COHESION_JKR;
    p.coeff[COEFF_JKR_W] = W;
    p.dt = DT;
    return p;
}

/* Steps a pull apart (or, with approach, a push together) and records the
 * least and the first force and the gap at which the force last acted. */
typedef struct {
    double least, first_gap, last_gap;
} pull;

/* The force on particle 0 along +z from its change of momentum (no gravity,
 * no drag: semi-implicit Euler's v += dt F / m exactly). */
static pull pull_pair_of(const grains_params *params, int mat_a, int mat_b, double start_gap, double speed,
                         long steps)
{
    grains_params p = *params;
    grains_sim *sim = scene(&p);
    grains_particle one[2] = {{{0, 0, -R - start_gap / 2}, {0, 0, -speed / 2}, {0, 0, 0}, {1, 0, 0, 0}, R, mat_a, 0},
                              {{0, 0, R + start_gap / 2}, {0, 0, speed / 2}, {0, 0, 0}, {1, 0, 0, 0}, R, mat_b, 0}};
    grains_error err;
    for (int k = 0; k < 2; k++)
        if (grains_sim_add_particle(sim, &one[k], &err) != GRAINS_OK) {
            fprintf(stderr, "pull_pair: %s\n", err.message);
            exit(1);
        }
    double m = 4 * PI / 3 * p.rho * R * R * R;
    pull out = {INFINITY, NAN, NAN};
    for (long k = 0; k < steps; k++) {
        grains_particle a = get(sim, 0), b = get(sim, 1);
        double gap = b.x.z - a.x.z - 2 * R;
        step(sim);
        double f = -m * (get(sim, 0).v.z - a.v.z) / DT; /* on 0 along -z: > 0 pushes apart */
        if (f != 0) {
            if (isnan(out.first_gap))
                out.first_gap = gap;
            out.last_gap = gap;
        }
        out.least = nan_min(out.least, f);
    }
    grains_sim_destroy(sim);
    return out;
}

static pull pull_pair(double start_gap, double speed, long steps)
{
    grains_params p = jkr_params();
    return pull_pair_of(&p, 0, 0, start_gap, speed, steps);
}

/* A sphere pulled off the floor at U; the force from the wall's sums. */
static pull pull_wall(void)
{
    grains_params p = jkr_params();
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    add(sim, (grains_vec3){0, 0, R - 2e-6}, (grains_vec3){0, 0, U}, (grains_vec3){0, 0, 0}, R);
    pull out = {INFINITY, NAN, NAN};
    for (long k = 0; k < 60000; k++) {
        double gap = get(sim, 0).x.z - R;
        step(sim);
        grains_wall w;
        grains_sim_get_wall(sim, 0, &w);
        double f = -w.force.z; /* on the sphere along +z */
        if (f != 0)
            out.last_gap = gap;
        out.least = nan_min(out.least, f);
    }
    grains_sim_destroy(sim);
    return out;
}

static void jkr(test_ctx *t)
{
    double E_pp = E / (2 * (1 - NU * NU)), E_pw = E / (1 - NU * NU);
    const double R_eff[2] = {R / 2, R}, E_eff[2] = {E_pp, E_pw};
    pull pulls[2] = {pull_pair(-2e-6, U, 60000), pull_wall()};
    for (int k = 0; k < 2; k++) {
        double F_c = 1.5 * PI * W * R_eff[k];
        double snap = 0.75 * cbrt(PI * PI * W * W * R_eff[k] / (E_eff[k] * E_eff[k]));
        printf("  JKR %s: least force %.9g N (-3/2 pi W R* = %.9g), let go at a gap of %.6g m (%.6g)\n",
               k ? "sphere-wall" : "sphere-sphere", pulls[k].least, -F_c, pulls[k].last_gap, snap);
        /* the force is a function of the gap alone, sampled every U dt = 1e-10 m near a
         * quadratic minimum: the sampling misses it by (1e-10 / 1e-6)^2 */
        CHECK_REL(t, pulls[k].least, -F_c, 1e-6, "JKR pull-off force");
        CHECK_ABS(t, pulls[k].last_gap, snap, 2 * U * DT, "JKR snap gap (within a step's travel)");
    }
    /* approach from a gap: no force before touching */
    pull in = pull_pair(1e-6, -U, 20000);
    printf("  JKR approach: first force at a gap of %.3g m\n", in.first_gap);
    CHECK(t, in.first_gap <= 0 && in.first_gap > -2 * U * DT, "JKR: a contact forms at touching (first gap %g)",
          in.first_gap);
}

/* Materials' own works of adhesion, 4 W and W: a sphere of the one pulled
 * off a sphere of the other feels the pair's sqrt(4 W W) = 2 W (the
 * geometric mean, Berthelot's rule), its pull-off force 3/2 pi (2 W) R*. */
static void jkr_mixed(test_ctx *t)
{
    grains_params p = jkr_params();
    p.n_materials = 3;
    p.material[1] = p.material[2] = grains_params_material(&p, 0);
    p.material_coeff[1][COEFF_JKR_W] = 4 * W, p.material_coeff[2][COEFF_JKR_W] = W;
    p.material_coeff_given[1] = p.material_coeff_given[2] = 1u << COEFF_JKR_W;
    pull mixed = pull_pair_of(&p, 1, 2, -2e-6, U, 60000);
    double F_c = 1.5 * PI * 2 * W * R / 2;
    printf("  JKR, materials' W = 4 W and W: least force %.9g N (-3/2 pi (2 W) R* = %.9g)\n", mixed.least, -F_c);
    CHECK_REL(t, mixed.least, -F_c, 1e-6, "JKR pull-off force by the pair's mixed work of adhesion, 2 W");
}

/* ---- per pair: the linear spring and van der Waals ---- */

/* Three materials like material 0 beyond it, each giving coefficient k the
 * values v1, v2 (v3 < 0: material 3 gives none), for spheres that touch
 * only through that law: no dashpot, no friction, no JKR. */
static grains_params three_giving(int k, double v1, double v2)
{
    grains_params p = jkr_params();
    p.cohesion = GRAINS_COHESION_NONE;
    p.coeff[COEFF_JKR_W] = 0;
    p.n_materials = 4;
    for (int m = 1; m < 4; m++)
        p.material[m] = grains_params_material(&p, 0);
    p.material_coeff[1][k] = v1, p.material_coeff[2][k] = v2;
    p.material_coeff_given[1] = p.material_coeff_given[2] = 1u << k;
    return p;
}

/* The force on the sphere of material a from one of material b at gap
 * `gap` (negative: an overlap), at rest: one step's change of momentum. */
static double force_at(const grains_params *p, int a, int b, double gap)
{
    return pull_pair_of(p, a, b, gap, 0, 1).least;
}

/* Hamaker's sphere-sphere attraction at gap s (contact/van_der_waals.h's
 * formula, written out here from Hamaker 1937). */
static double hamaker_force(double A, double R1, double R2, double s)
{
    double d = R1 + R2 + s, P = d * d - (R1 + R2) * (R1 + R2), M = d * d - (R1 - R2) * (R1 - R2);
    return A * d / 3 * (2 * R1 * R2 / (P * P) + 2 * R1 * R2 / (M * M) - 1 / P + 1 / M);
}

/* Materials giving Hamaker constants 4 A and A attract as the pair's
 * sqrt(4 A A) = 2 A (the combining rule of Hamaker constants); a material
 * that gives none (the run's 0) attracts nothing, even the one of 4 A. */
static void vdw_mixed(test_ctx *t)
{
    const double A = 1e-19, gap = 5e-9;
    grains_params p = three_giving(COEFF_VDW_A, 4 * A, A);
    double mixed = force_at(&p, 1, 2, gap), own = force_at(&p, 1, 1, gap), none = force_at(&p, 1, 3, gap);
    printf("  van der Waals at %g m, materials' A = 4A and A: %.9g N (Hamaker's with 2A: %.9g); 4A with 4A %.9g "
           "(%.9g); 4A with none %g\n", gap, mixed, -hamaker_force(2 * A, R, R, gap), own,
           -hamaker_force(4 * A, R, R, gap), none);
    /* P = d^2 - (2R)^2 cancels 7 digits of d^2 in the test's form: 1e-9 */
    CHECK_REL(t, mixed, -hamaker_force(2 * A, R, R, gap), 1e-8, "van der Waals by the pair's mixed A = 2A");
    CHECK_REL(t, own, -hamaker_force(4 * A, R, R, gap), 1e-8, "van der Waals by a material's own A");
    CHECK(t, none == 0, "no attraction with a material that gives no Hamaker constant (%g N)", none);
    p.material_coeff[3][COEFF_VDW_DELTA0] = 0, p.material_coeff_given[3] = 1u << COEFF_VDW_DELTA0;
    grains_error err;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "materials 0 and 3: vdw_delta0"),
          "a material's vdw_delta0 of 0 refused in its pairs: %s", err.message);
}

/* Materials giving the linear spring k_n = 4k and k push apart at an
 * overlap delta with the pair's sqrt(4 k k) delta = 2 k delta (Eq. 20). */
static void linear_mixed(test_ctx *t)
{
    const double k = 1e5, delta = 1e-5;
    grains_params p = three_giving(COEFF_LINEAR_K_N, 4 * k, k);
    p.contact_model = GRAINS_CONTACT_LINEAR;
    double mixed = force_at(&p, 1, 2, -delta), own = force_at(&p, 2, 2, -delta);
    printf("  linear, materials' k_n = 4k and k: %.9g N at delta = %g m (2 k delta = %.9g), k with k %.9g\n", mixed,
           delta, 2 * k * delta, own);
    CHECK_REL(t, mixed, 2 * k * delta, 1e-9, "the linear spring by the pair's mixed k_n = 2k");
    CHECK_REL(t, own, k * delta, 1e-9, "the linear spring by a material's own k_n");
    p.material_coeff[2][COEFF_LINEAR_V0] = 0, p.material_coeff_given[2] |= 1u << COEFF_LINEAR_V0;
    grains_error err;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "materials 0 and 2: V0"),
          "a material's V0 of 0 refused in its pairs: %s", err.message);
}

/* Type C's dashpot per pair: the pair of material 0 with itself (a rigid
 * wall's too) giving rolling_damping 0.5 rocks a sphere settling on a
 * slope as the run's 0.5, to the bit, and not as the run's 0.3; a pair's
 * value above 1 is refused. */
static void type_c_pair_damping(test_ctx *t)
{
    const double slope = 0.5 * atan(MU_R), T = 0.02;
    double v[2];
    grains_params run = rolling_params(GRAINS_ROLLING_TYPE_C, slope), pair = run, other = run;
    run.coeff[COEFF_TYPE_C_DAMPING] = 0.5, other.coeff[COEFF_TYPE_C_DAMPING] = 0.3;
    pair.n_pairs = 1;
    pair.pair[0] = (grains_pair_values){.e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1, .mu_s_dyn = -1, .mu_r_dyn = -1,
                                        .mu_t_dyn = -1, .coeff_given = 1u << COEFF_TYPE_C_DAMPING};
    pair.pair[0].coeff[COEFF_TYPE_C_DAMPING] = 0.5;
    grains_particle a = roll_in(&run, 0, T, v), b = roll_in(&pair, 0, T, v), c = roll_in(&other, 0, T, v);
    printf("  type C settling on a slope: spin %.9g rad/s (the pair's 0.5: %.9g; the run's 0.3: %.9g)\n", a.w.y, b.w.y,
           c.w.y);
    CHECK(t, memcmp(&a.x, &b.x, sizeof a.x) == 0 && memcmp(&a.w, &b.w, sizeof a.w) == 0,
          "type C: the pair's own rolling_damping gives the bits of the run's");
    CHECK(t, memcmp(&a.w, &c.w, sizeof a.w) != 0, "type C: another rolling_damping rocks otherwise");
    pair.pair[0].coeff[COEFF_TYPE_C_DAMPING] = 2;
    grains_error err;
    CHECK(t, grains_params_check(&pair, &err) == GRAINS_ERR_RANGE && strstr(err.message, "[0, 1]"),
          "a pair's rolling_damping of 2 refused: %s", err.message);
}

/* A pair bound by JKR (zero gravity) with rolling type C, one sphere
 * spinning about an axis in the contact plane: the rolling spring winds up
 * and the pair rocks. The same pair drifting at 0.6 m/s rocks the same
 * (Galilean invariance), although its re-sorts at the rebuilds see the pair
 * from either side: the relative rotation the spring holds is odd under the
 * exchange, and must be turned over with it. */
static grains_vec3 drifting_pair_spin(grains_vec3 drift, long steps)
{
    grains_params p = jkr_params();
    p.rho = 1e3;
    p.mu_s = 1, p.mu_r = MU_R;
    p.rolling_model = GRAINS_ROLLING_TYPE_C;
    p.dt = grains_params_default_dt(&p) / 10;
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, drift, (grains_vec3){0, 0, 1}, R);
    add(sim, (grains_vec3){2 * R - 1e-6, 0, 0}, drift, (grains_vec3){0, 0, 0}, R);
    for (int k = 0; k < 40; k++) /* bystanders far off: a grid of many cells and blocks to cross */
        add(sim, (grains_vec3){-0.2 + 0.03 * k, 0.3, 0.3 * (k % 2)}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    for (long k = 0; k < steps; k++)
        step(sim);
    grains_vec3 w = get(sim, 0).w;
    grains_sim_destroy(sim);
    return w;
}

static void type_c_resorted(test_ctx *t)
{
    const long steps = 20000;
    grains_vec3 still = drifting_pair_spin((grains_vec3){0, 0, 0}, steps);
    grains_vec3 moving = drifting_pair_spin((grains_vec3){0.5, 0.3, 0.2}, steps);
    printf("  type C + JKR pair rocking: spin %.9f rad/s at rest, %.9f drifting through the cells\n", still.z,
           moving.z);
    /* positions differ by the drift: round-off of x + v t, relayed to the spin */
    CHECK_ABS(t, moving.z, still.z, 1e-9, "type C: a drifting pair rocks as a pair at rest (re-sorts keep the spring)");
}

/* ---- rolling sds ---- */

static const double K_ROLL = 1e3; /* [N/m]: below the resting sphere's k_n, 4.4e3 */

/* The same for sds, its dashpot `gamma` [N s/m]; with pair_k > 0 the pair
 * of material 0 with itself (with a rigid wall too) gives its own k_roll. */
static grains_particle roll_sds_pair(double gamma, double pair_k, double slope, double v0, double t, double v_at[2])
{
    grains_params p = rolling_params(GRAINS_ROLLING_SDS, slope);
    p.coeff[COEFF_SDS_K_ROLL] = K_ROLL, p.coeff[COEFF_SDS_GAMMA_ROLL] = gamma;
    if (pair_k > 0) {
        p.n_pairs = 1;
        p.pair[0] = (grains_pair_values){.e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1, .mu_s_dyn = -1, .mu_r_dyn = -1,
                                         .mu_t_dyn = -1, .coeff_given = 1u << COEFF_SDS_K_ROLL};
        p.pair[0].coeff[COEFF_SDS_K_ROLL] = pair_k;
    }
    return roll_in(&p, v0, t, v_at);
}

static grains_particle roll_sds(double gamma, double slope, double v0, double t, double v_at[2])
{
    return roll_sds_pair(gamma, 0, slope, v0, t, v_at);
}

static void sds_on_floor(test_ctx *t)
{
    const double a = 5.0 / 7.0 * MU_R * G, T = 0.25, m = 4 * PI / 3 * 1e3 * R * R * R;
    for (int k = 0; k < 2; k++) {
        double v0 = k ? 0.1 : 0.07, v[2] = {0, 0};
        roll_sds(0, 0, v0, T, v);
        double decel = (v[0] - v[1]) / (T / 3 - T / 8);
        printf("  sds, v0 = %g m/s: decelerates at %.6f m/s^2 (5/7 mu_r g = %.6f)\n", v0, decel, a);
        /* the overlap shortens the sliding friction's lever by delta / (2R) ~ 5e-4 */
        CHECK_REL(t, decel, a, 1e-3, "sds decelerates at 5/7 mu_r g whatever the speed");
    }
    double gamma = 2 * sqrt(1.4 * m * K_ROLL), v[2];
    grains_particle s = roll_sds(gamma, 0, 0.1, 2 * T, v);
    printf("  sds with a critical dashpot: stops at x = %.6f m (7 v0^2 / (10 mu_r g) = %.6f), v(2T) = %.2e m/s\n",
           s.x.x, 7 * 0.1 * 0.1 / (10 * MU_R * G), s.v.x);
    CHECK(t, fabs(s.v.x) < 1e-6, "sds's dashpot brings it to rest (v = %g)", s.v.x);
    CHECK_REL(t, s.x.x, 7 * 0.1 * 0.1 / (10 * MU_R * G), 5e-3, "sds stopping distance 7 v0^2 / (10 mu_r g)");
}

static void sds_on_slope(test_ctx *t)
{
    const double hold = atan(0.5 * MU_R), slide = atan(2 * MU_R), T = 0.2, m = 4 * PI / 3 * 1e3 * R * R * R;
    double v[2], gamma = 2 * sqrt(1.4 * m * K_ROLL);
    grains_particle s = roll_sds(gamma, hold, 0, T, v);
    /* held, the spring carries the torque m g sin(a) R*: k_roll u_r = m g sin(a) */
    double u = m * G * sin(hold) / K_ROLL;
    printf("  sds at %.2f deg (below atan(mu_r) = %.2f): x = %.3g m (the spring's %.3g), v = %.3g m/s after %g s\n",
           hold * 180 / PI, atan(MU_R) * 180 / PI, s.x.x, u, s.v.x, T);
    CHECK(t, s.x.x > u && s.x.x < 1.5 * u && fabs(s.v.x) < 1e-6,
          "sds holds on a slope below atan(mu_r), k_roll's wind-up and a little more: x %g, v %g", s.x.x, s.v.x);
    s = roll_sds(gamma, slide, 0, T, v);
    double a = 5.0 / 7.0 * G * (sin(slide) - MU_R * cos(slide)), got = (v[1] - v[0]) / (T / 3 - T / 8);
    printf("  sds at %.2f deg: accelerates at %.6f m/s^2, 5/7 g (sin - mu_r cos) = %.6f\n", slide * 180 / PI, got, a);
    CHECK_REL(t, got, a, 1e-3, "sds rolls down a slope above atan(mu_r)");
    /* the pair's own k_roll, twice the run's: half the rolling spring's share */
    double u2 = m * G * sin(hold) / (2 * K_ROLL);
    s = roll_sds_pair(gamma, 2 * K_ROLL, hold, 0, T, v);
    printf("  sds, the pair's k_roll = %g N/m: x = %.3g m (the spring's %.3g)\n", 2 * K_ROLL, s.x.x, u2);
    CHECK(t, s.x.x > u2 && s.x.x < 1.5 * u2 && fabs(s.v.x) < 1e-6, "sds takes the pair's k_roll: x %g", s.x.x);
    grains_params p = rolling_params(GRAINS_ROLLING_SDS, 0);
    grains_error err;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE, "sds without k_roll refused: %s", err.message);
    p.coeff[COEFF_SDS_K_ROLL] = K_ROLL, p.coeff[COEFF_SDS_GAMMA_ROLL] = -1;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE, "a negative gamma_roll refused: %s", err.message);
    p.coeff[COEFF_SDS_GAMMA_ROLL] = 0, p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1, .mu_s_dyn = -1, .mu_r_dyn = -1,
                                     .mu_t_dyn = -1, .coeff_given = 1u << COEFF_SDS_K_ROLL};
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE, "a pair's k_roll of 0 under sds refused: %s",
          err.message);
}

/* Materials' own k_roll, mixed by their geometric mean where the pair gives
 * none: material 1 gives 4 K, material 2 gives K, material 0 has the run's
 * K / 4, so pair (1, 2) takes 2 K, (0, 1) K, (2, 2) K, and a pair's own
 * value stands. */
static grains_params sds_materials(double gamma, double slope)
{
    grains_params p = rolling_params(GRAINS_ROLLING_SDS, slope);
    p.coeff[COEFF_SDS_K_ROLL] = K_ROLL / 4, p.coeff[COEFF_SDS_GAMMA_ROLL] = gamma;
    p.n_materials = 3;
    p.material[1] = p.material[2] = grains_params_material(&p, 0);
    p.material_coeff[1][COEFF_SDS_K_ROLL] = 4 * K_ROLL;
    p.material_coeff[2][COEFF_SDS_K_ROLL] = K_ROLL;
    p.material_coeff_given[1] = p.material_coeff_given[2] = 1u << COEFF_SDS_K_ROLL;
    p.mesh_material = 2;
    return p;
}

/* A sphere of material 1 held on a slope on a floor of material 2: where it is after t. */
static grains_particle hold_on(const grains_params *p, double t)
{
    grains_sim *sim = scene(p);
    floor_mesh(sim, 1, 0);
    grains_particle one = {{0, 0, R}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R, 1, 0};
    grains_error err;
    if (grains_sim_add_particle(sim, &one, &err) != GRAINS_OK) {
        fprintf(stderr, "hold_on: %s\n", err.message);
        exit(1);
    }
    for (long k = 1; k <= (long)(t / p->dt); k++)
        step(sim);
    grains_particle s = get(sim, 0);
    grains_sim_destroy(sim);
    return s;
}

static void sds_mixed(test_ctx *t)
{
    grains_params p = sds_materials(0, 0);
    double k12 = grains_params_pair(&p, 1, 2).coeff[COEFF_SDS_K_ROLL];
    double k01 = grains_params_pair(&p, 0, 1).coeff[COEFF_SDS_K_ROLL];
    double k22 = grains_params_pair(&p, 2, 2).coeff[COEFF_SDS_K_ROLL];
    double k00 = grains_params_pair(&p, 0, 0).coeff[COEFF_SDS_K_ROLL];
    printf("  sds k_roll mixed: (1,2) %g, (0,1) %g, (2,2) %g, (0,0) %g N/m\n", k12, k01, k22, k00);
    CHECK(t, k12 == 2 * K_ROLL && k01 == K_ROLL && k22 == K_ROLL && k00 == K_ROLL / 4,
          "a pair without k_roll takes its materials' geometric mean (each material's own, or the run's)");
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 1, .b = 2, .e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1, .mu_s_dyn = -1,
                                     .mu_r_dyn = -1, .mu_t_dyn = -1, .coeff_given = 1u << COEFF_SDS_K_ROLL};
    p.pair[0].coeff[COEFF_SDS_K_ROLL] = 3 * K_ROLL;
    CHECK(t, grains_params_pair(&p, 1, 2).coeff[COEFF_SDS_K_ROLL] == 3 * K_ROLL, "a pair's own k_roll stands");
    /* the run: a sphere of material 1 on a floor of material 2 holds on the
     * slope as with the pair's k_roll = 2 K given, to the bit */
    const double m = 4 * PI / 3 * 1e3 * R * R * R, hold = atan(0.5 * MU_R), T = 0.2;
    const double gamma = 2 * sqrt(1.4 * m * 2 * K_ROLL); /* (as sds_on_slope's, for the spring 2 K) */
    grains_params mixed = sds_materials(gamma, hold), given = mixed;
    given.material_coeff_given[1] = given.material_coeff_given[2] = 0;
    given.n_pairs = 1, given.pair[0] = p.pair[0];
    given.pair[0].coeff[COEFF_SDS_K_ROLL] = 2 * K_ROLL;
    grains_error err;
    CHECK(t, grains_params_check(&mixed, &err) == GRAINS_OK, "materials' k_roll accepted: %s", err.message);
    grains_particle a = hold_on(&mixed, T), b = hold_on(&given, T);
    double u = m * G * sin(hold) / (2 * K_ROLL);
    printf("  sds, materials' k_roll mixed to 2 K: x = %.6g m (the pair's own 2 K: %.6g; the spring's %.3g)\n", a.x.x,
           b.x.x, u);
    CHECK(t, memcmp(&a.x, &b.x, sizeof a.x) == 0 && memcmp(&a.w, &b.w, sizeof a.w) == 0,
          "materials mixed to 2 K give the bits of the pair's own 2 K");
    /* and by that spring: with the pair's K instead, the rolling spring's
     * wind-up m g sin(a) / k_roll doubles (the sliding spring's share stays) */
    given.pair[0].coeff[COEFF_SDS_K_ROLL] = K_ROLL;
    grains_particle c = hold_on(&given, T);
    printf("  sds, the pair's K: x = %.6g m, %.4g m further (m g sin(a) / (2 K) = %.4g)\n", c.x.x, c.x.x - a.x.x, u);
    CHECK_REL(t, c.x.x - a.x.x, u, 0.01, "held by the mixed spring 2 K: half K's rolling wind-up");
    mixed.material_coeff[1][COEFF_SDS_K_ROLL] = -1;
    CHECK(t, grains_params_check(&mixed, &err) == GRAINS_ERR_RANGE, "a material's negative k_roll refused: %s",
          err.message);
    mixed.material_coeff[1][COEFF_SDS_K_ROLL] = 0;
    CHECK(t, grains_params_check(&mixed, &err) == GRAINS_ERR_RANGE, "a material's k_roll of 0 under sds refused: %s",
          err.message);
    mixed.material_coeff[1][COEFF_SDS_K_ROLL] = 1, mixed.material_coeff_given[1] |= 1u << 30;
    CHECK(t, grains_params_check(&mixed, &err) == GRAINS_ERR_RANGE, "a bit for no coefficient refused: %s",
          err.message);
}

/* ---- the registry ---- */

/* ---- damping "tsuji" ---- */

/* The restitution of the oscillator that Tsuji's dashpot makes of a Hertz contact: with
 * k_n = K sqrt(delta) (K = 4/3 E* sqrt(R*)), m* delta'' = -K delta^(3/2) - alpha sqrt(m* K) delta^(1/4)
 * delta'. In units where m* = K = 1 and the approach speed is 1 (e depends on alpha alone: the
 * dashpot scales as the spring does), integrated by RK4 in steps of 1e-5 (the contact lasts
 * about 3.2), the end found where delta crosses 0 again. */
static void tsuji_rate(double alpha, double d, double u, double *dd, double *du)
{
    double s = d > 0 ? d : 0;
    *dd = u;
    *du = -s * sqrt(s) - alpha * sqrt(sqrt(s)) * u;
}

static double tsuji_oscillator(double alpha)
{
    const double h = 1e-5;
    double d = 0, u = 1;
    for (long k = 0; k < 10000000; k++) {
        double d1, u1, d2, u2, d3, u3, d4, u4;
        tsuji_rate(alpha, d, u, &d1, &u1);
        tsuji_rate(alpha, d + h / 2 * d1, u + h / 2 * u1, &d2, &u2);
        tsuji_rate(alpha, d + h / 2 * d2, u + h / 2 * u2, &d3, &u3);
        tsuji_rate(alpha, d + h * d3, u + h * u3, &d4, &u4);
        double d_next = d + h / 6 * (d1 + 2 * d2 + 2 * d3 + d4), u_next = u + h / 6 * (u1 + 2 * u2 + 2 * u3 + u4);
        if (k > 0 && d_next < 0)
            return -(u + (u_next - u) * d / (d - d_next)); /* the speed where delta = 0 */
        d = d_next, u = u_next;
    }
    return NAN;
}

/* Two spheres meet head on with damping = "tsuji": the engine's restitution is the oscillator's
 * for Tsuji's dashpot, sqrt(2) alpha(e_n) sqrt(m* k_n), at every speed (the dashpot's delta^(1/4)
 * makes e independent of it), to the 2e-3 that t_c / 200 steps give the other laws
 * (tests/test_oscillator.c). The oscillator's e is then e_n to within the fit of alpha to Tsuji's
 * chart (read to 3 digits: 2e-3); with m* in place of Tsuji's one-sphere mass (no sqrt(2)) it would
 * be 0.14 off. At e_n = 0 the fit gives e = 0.014 where Eq. 21 gives 0: there the engine's 2e-3
 * tells Tsuji's law from TinyDEM's. */
static void tsuji(test_ctx *t)
{
    double worst_fit = 0, worst_without = 0;
    for (int k = 0; k <= 9; k++) {
        double e_n = 0.1 * k, alpha = tsuji_alpha(e_n), e_ode = tsuji_oscillator(sqrt(2.0) * alpha);
        if (k > 0) {
            worst_fit = fmax(worst_fit, fabs(e_ode - e_n));
            worst_without = fmax(worst_without, fabs(tsuji_oscillator(alpha) - e_n));
        }
        for (double v = 0.1; v < 20; v *= 10) {
            rest_setup s = {GRAINS_CONTACT_HERTZ_MINDLIN, GRAINS_DAMPING_TSUJI, GRAINS_INTEGRATOR_VERLET, e_n, v, 200,
                            0, 0};
            double e = NAN;
            grains_error err;
            CHECK(t, rest_run(&s, &e, &err) == GRAINS_OK, "tsuji: %s", err.message);
            CHECK_ABS(t, e, e_ode, 2e-3, "tsuji: restitution against the oscillator's");
        }
        printf("  tsuji: e_n %.1f: alpha %.5f, the oscillator's e %.5f (%+.5f)\n", e_n, alpha, e_ode, e_ode - e_n);
    }
    printf("  tsuji: largest |e - e_n| over e_n = 0.1 .. 0.9: %.5f (with m* for Tsuji's m: %.3f)\n", worst_fit,
           worst_without);
    CHECK(t, worst_fit < 2e-3, "tsuji: the fit is %.4f from e_n", worst_fit);
    CHECK(t, worst_without > 0.1, "tsuji: the mass convention shows (%.3f)", worst_without);
}

/* The key `damping` takes a law made for the normal law: Hertz's three, the linear spring's own. */
static void damping_pairs(test_ctx *t)
{
    grains_params p = scene_params();
    grains_error err;
    const grains_contact_model models[] = {GRAINS_CONTACT_HERTZ_MINDLIN, GRAINS_CONTACT_LINEAR};
    for (int m = 0; m < 2; m++)
        for (int d = GRAINS_DAMPING_BY_MODEL; d < GRAINS_N_DAMPINGS; d++) {
            p.contact_model = models[m];
            p.damping = (grains_damping)d;
            int linear_law = d == GRAINS_DAMPING_LINEAR, fits = d == GRAINS_DAMPING_BY_MODEL || linear_law == m;
            CHECK(t, (grains_params_check(&p, &err) == GRAINS_OK) == fits, "damping %s with %s: %s",
                  grains_choice_name(&grains_dampings, d), grains_choice_name(&grains_contact_models, models[m]),
                  fits ? "refused" : "accepted");
        }
}

static void registry(test_ctx *t)
{
    const char *names[] = {"hertz",  "linear", "tinydem", "restitution", "linear", "tsuji", "coulomb",
                           "spring", "type_c", "sds", "spring",  "none",        "van_der_waals", "jkr"};
    const submodel_kind kinds[] = {SUBMODEL_NORMAL,   SUBMODEL_NORMAL,   SUBMODEL_DAMPING,  SUBMODEL_DAMPING,
                                   SUBMODEL_DAMPING,  SUBMODEL_DAMPING,  SUBMODEL_SLIDING,  SUBMODEL_ROLLING,
                                   SUBMODEL_ROLLING,  SUBMODEL_ROLLING,  SUBMODEL_TWISTING, SUBMODEL_COHESION,
                                   SUBMODEL_COHESION, SUBMODEL_COHESION};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const submodel *row = submodel_find(kinds[k], names[k]);
        CHECK(t, row && submodel_of(kinds[k], row->id) == row, "registry: %s %s", submodel_kind_name(kinds[k]),
              names[k]);
    }
    CHECK(t, submodel_find(SUBMODEL_ROLLING, "jkr") == NULL, "registry: no rolling jkr");
    /* each coefficient has one owner, the row whose law reads it */
    const struct {
        int k;
        submodel_kind kind;
        const char *name;
    } owners[] = {{COEFF_SDS_K_ROLL, SUBMODEL_ROLLING, "sds"},       {COEFF_TYPE_C_DAMPING, SUBMODEL_ROLLING, "type_c"},
                  {COEFF_JKR_W, SUBMODEL_COHESION, "jkr"},           {COEFF_LINEAR_V0, SUBMODEL_NORMAL, "linear"},
                  {COEFF_VDW_CUTOFF, SUBMODEL_COHESION, "van_der_waals"}};
    for (size_t k = 0; k < sizeof owners / sizeof owners[0]; k++)
        CHECK(t, submodel_owning(owners[k].k) == submodel_find(owners[k].kind, owners[k].name),
              "registry: %s is the %s %s's", coeff_name(owners[k].k), submodel_kind_name(owners[k].kind),
              owners[k].name);
    int owned = 0;
    for (int k = 0; k < N_COEFFS; k++)
        owned += submodel_owning(k) != NULL;
    CHECK(t, owned == N_COEFFS, "registry: every coefficient owned (%d of %d)", owned, N_COEFFS);
    grains_params p = scene_params();
    CHECK(t, submodels_history(&p) == 7, "the default contact keeps 7 reals (sliding 3, rolling 3, twisting 1)");
}

int main(void)
{
    test_ctx t = {0, 0};
    type_c_on_floor(&t);
    type_c_on_slope(&t);
    type_c_rocking(&t);
    jkr(&t);
    type_c_resorted(&t);
    sds_on_floor(&t);
    sds_on_slope(&t);
    sds_mixed(&t);
    type_c_pair_damping(&t);
    jkr_mixed(&t);
    vdw_mixed(&t);
    linear_mixed(&t);
    tsuji(&t);
    damping_pairs(&t);
    registry(&t);
    return test_report(&t, "test_submodels");
}
