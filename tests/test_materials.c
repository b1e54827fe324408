/* Several materials: pair properties by TinyDEM's mixing rules (Eqs. 15-17,
 * 20) and per-pair restitution and friction, checked against Hertz's
 * impact, Coulomb's incline and invariance. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "support.h"

#define PI 3.14159265358979323846

/* Glass and steel. */
static const grains_material GLASS = {.rho = 2500, .E = 7.2e10, .nu = 0.3},
                              STEEL = {.rho = 7800, .E = 2.1e11, .nu = 0.29};

static double sphere_mass(grains_material m, double R) { return 4 * PI / 3 * m.rho * R * R * R; }

/* Eq. 15 */
static double mixed_E(grains_material a, grains_material b)
{
    return 1 / ((1 - a.nu * a.nu) / a.E + (1 - b.nu * b.nu) / b.E);
}

/* Hertz's elastic impact: t_c = 2 I delta_max / v with I = int_0^1 (1 - x^(5/2))^(-1/2) dx
 * = (2/5) B(2/5, 1/2) and delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5). */
static double hertz_time(double E_eff, double R_eff, double m_eff, double v)
{
    double I = 0.4 * tgamma(0.4) * tgamma(0.5) / tgamma(0.9);
    return 2 * I * pow(15 * m_eff * v * v / (16 * E_eff * sqrt(R_eff)), 0.4) / v;
}

/* Material 0 = a, material 1 = b; frictionless, undamped unless set. */
static grains_params two_materials(grains_material a, grains_material b)
{
    grains_params p = scene_params();
    p.rho = a.rho, p.E = a.E, p.nu = a.nu;
    p.n_materials = 2;
    p.material[1] = b;
    p.e_n = 1;
    p.mu_s = p.mu_r = p.mu_t = 0;
    p.R_min = 1e-3, p.R_max = 2e-3;
    return p;
}

typedef struct {
    double duration;    /* [T] steps with an overlap times dt */
    double e;           /* relative speed out / in */
    double momentum[2]; /* x momentum before and after */
    double energy[2];   /* kinetic energy before and after */
} impact;

static double kinetic(const grains_sim *sim, const grains_params *p, int id)
{
    grains_particle q = get(sim, (size_t)id);
    return 0.5 * sphere_mass(grains_params_material(p, q.material), q.R) * q.v.x * q.v.x;
}

/* Head-on impact of particle 0 (radius R0, material m0) moving at v0 on
 * particle 1 (R1, m1) moving at v1 along x, starting a hair apart. */
static impact head_on(grains_params p, double R0, int m0, double v0, double R1, int m1, double v1)
{
    grains_sim *sim = scene(&p);
    add_of(sim, (grains_vec3){-R0 - 1e-12, 0, 0}, (grains_vec3){v0, 0, 0}, R0, m0);
    add_of(sim, (grains_vec3){R1 + 1e-12, 0, 0}, (grains_vec3){v1, 0, 0}, R1, m1);
    double M0 = sphere_mass(grains_params_material(&p, m0), R0), M1 = sphere_mass(grains_params_material(&p, m1), R1);
    impact r = {0, 0, {M0 * v0 + M1 * v1, 0}, {kinetic(sim, &p, 0) + kinetic(sim, &p, 1), 0}};
    int touched = 0;
    for (long s = 0; s < 1000000; s++) {
        step(sim);
        double gap = get(sim, 1).x.x - get(sim, 0).x.x - R0 - R1;
        if (gap < 0)
            touched = 1, r.duration += grains_sim_params(sim)->dt;
        else if (touched)
            break;
    }
    grains_particle a = get(sim, 0), b = get(sim, 1);
    r.e = (b.v.x - a.v.x) / (v0 - v1);
    r.momentum[1] = M0 * a.v.x + M1 * b.v.x;
    r.energy[1] = kinetic(sim, &p, 0) + kinetic(sim, &p, 1);
    grains_sim_destroy(sim);
    return r;
}

/* Glass (1 mm) on steel (2 mm), undamped: the contact lasts Hertz's time
 * with E* of Eq. 15 and m* of Eq. 20; momentum is conserved to round-off,
 * energy to the step error. */
static void glass_on_steel(test_ctx *t)
{
    grains_params p = two_materials(GLASS, STEEL);
    double R0 = 1e-3, R1 = 2e-3, v0 = 0.7, v1 = -0.3;
    double m_eff = 1 / (1 / sphere_mass(GLASS, R0) + 1 / sphere_mass(STEEL, R1));
    double t_c = hertz_time(mixed_E(GLASS, STEEL), R0 * R1 / (R0 + R1), m_eff, v0 - v1);
    p.dt = t_c / 2000;
    for (int integ = 0; integ < 3; integ++) {
        p.integrator = (grains_integrator)integ;
        impact r = head_on(p, R0, 0, v0, R1, 1, v1);
        printf("  integrator %d: contact %.9g s (Hertz %.9g), momentum %.3g, energy %.3g\n", integ, r.duration, t_c,
               (r.momentum[1] - r.momentum[0]) / fabs(r.momentum[0]), (r.energy[1] - r.energy[0]) / r.energy[0]);
        /* the contact begins and ends within one step of the grid: 2 dt */
        CHECK_ABS(t, r.duration, t_c, 2 * p.dt, "glass-steel contact time = Hertz's with Eqs. 15, 20");
        CHECK_REL(t, r.momentum[1], r.momentum[0], 1e-12, "momentum of unequal masses");
        CHECK_REL(t, r.energy[1], r.energy[0], 1e-5, "kinetic energy of an elastic impact");
    }
    /* the same pair named the other way round */
    impact swapped = head_on(p, R1, 1, -v1, R0, 0, -v0);
    CHECK_ABS(t, swapped.duration, t_c, 2 * p.dt, "steel-glass contact time");
}

/* Pair restitution: 0-1 impacts with the pair's e_n, 0-0 and 1-1 with the
 * run's. Hertz with Eq. 21's damping restores e_n exactly up to the step
 * (1e-3 at t_c / 1000, grains validate's restitution rows). */
static void pair_restitution(test_ctx *t)
{
    grains_params p = two_materials(GLASS, STEEL);
    p.e_n = 0.8;
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 1, .b = 0, .e_n = 0.3, .mu_s = -1, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    double R = 1e-3, v = 1;
    p.dt = hertz_time(mixed_E(STEEL, STEEL), R / 2, sphere_mass(STEEL, R) / 2, v) / 1000;
    const int m0[3] = {0, 0, 1}, m1[3] = {1, 0, 1};
    const double want[3] = {0.3, 0.8, 0.8};
    for (int k = 0; k < 3; k++) {
        impact r = head_on(p, R, m0[k], v / 2, R, m1[k], -v / 2);
        printf("  pair %d-%d: e = %.6f (e_n %.1f)\n", m0[k], m1[k], r.e, want[k]);
        CHECK_ABS(t, r.e, want[k], 1e-3, "restitution of the pair");
    }
}

/* A glass sphere dropped on a flat mesh: rigid by default (E* =
 * E / (1 - nu^2)), or of glass or steel by mesh_material (Eq. 15); the wall
 * is immovable, so m* = m and R* = R. */
static void wall_material(test_ctx *t)
{
    double R = 1e-3, v = 0.5;
    const grains_material wall[2] = {GLASS, STEEL};
    const char *name[3] = {"rigid", "glass", "steel"};
    for (int mesh = GRAINS_RIGID; mesh <= 1; mesh++) {
        grains_params p = two_materials(GLASS, STEEL);
        p.mesh_material = mesh;
        double E_eff = mesh == GRAINS_RIGID ? GLASS.E / (1 - GLASS.nu * GLASS.nu) : mixed_E(GLASS, wall[mesh]);
        double t_c = hertz_time(E_eff, R, sphere_mass(GLASS, R), v);
        p.dt = t_c / 2000;
        grains_sim *sim = scene(&p);
        floor_mesh(sim, 0.01, 0);
        add_of(sim, (grains_vec3){0, 0, R + 1e-12}, (grains_vec3){0, 0, -v}, R, 0);
        double duration = 0;
        for (int touched = 0;; step(sim)) {
            if (get(sim, 0).x.z < R)
                touched = 1, duration += p.dt;
            else if (touched)
                break;
        }
        printf("  %s wall: contact %.9g s (Hertz %.9g)\n", name[mesh + 1], duration, t_c);
        CHECK_ABS(t, duration, t_c, 2 * p.dt, mesh < 0 ? "rigid wall: E* = E/(1-nu^2)" : "wall of a material: Eq. 15");
        grains_sim_destroy(sim);
    }
}

/* Per-pair friction on a plane tilted by gravity (tan theta = 0.5): a
 * sphere of material 1, whose pair with the floor's material 2 has mu_s =
 * 0.1 < 2 tan(theta) / 7, slides at g (sin theta - mu cos theta); a sphere
 * of material 0 (mu_s = 0.5) rolls at 5/7 g sin theta. */
static void pair_friction(test_ctx *t)
{
    grains_params p = scene_params();
    p.E = 1e7, p.rho = 1000, p.e_n = 0.3;
    p.mu_s = 0.5, p.mu_r = 0, p.mu_t = 0;
    p.n_materials = 3;
    p.material[1] = p.material[2] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu};
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 1, .b = 2, .e_n = -1, .mu_s = 0.1, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    p.mesh_material = 2;
    double g = 9.81, theta = atan(0.5), R = 0.01;
    p.g = (grains_vec3){g * sin(theta), 0, -g * cos(theta)};
    p.R_min = p.R_max = R;
    p.dt = grains_params_default_dt(&p) / 4;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 10, 0);
    add_of(sim, (grains_vec3){0, -0.2, R * 0.9999}, (grains_vec3){0, 0, 0}, R, 1);
    add_of(sim, (grains_vec3){0, 0.2, R * 0.9999}, (grains_vec3){0, 0, 0}, R, 0);
    long settle = (long)(0.05 / p.dt), run = (long)(0.2 / p.dt);
    for (long s = 0; s < settle; s++)
        step(sim);
    double v0[2] = {get(sim, 0).v.x, get(sim, 1).v.x};
    for (long s = 0; s < run; s++)
        step(sim);
    double a_slide = (get(sim, 0).v.x - v0[0]) / ((double)run * p.dt), a_roll = (get(sim, 1).v.x - v0[1]) / ((double)run * p.dt);
    double want_slide = g * (sin(theta) - 0.1 * cos(theta)), want_roll = 5.0 / 7.0 * g * sin(theta);
    printf("  slide %.6f (Coulomb %.6f), roll %.6f (5/7 g sin %.6f)\n", a_slide, want_slide, a_roll, want_roll);
    /* rolling feels the contact radius R - delta/2: delta / 2R = 4e-4 here */
    CHECK_REL(t, a_slide, want_slide, 1e-3, "pair 1-2 slides with its own mu_s");
    CHECK_REL(t, a_roll, want_roll, 1e-3, "pair 0-2 rolls with the run's mu_s");
    grains_sim_destroy(sim);
}

/* A settling cluster of 64 spheres, materials given by `material(k)`. */
static grains_sim *cluster(grains_params p, int (*material)(int))
{
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 0.1, 0);
    for (int k = 0; k < 64; k++) {
        double x = 0.011 * (k % 4) + 1e-4 * (k % 7), y = 0.011 * (k / 4 % 4), z = 0.012 + 0.011 * (k / 16);
        add_of(sim, (grains_vec3){x, y, z}, (grains_vec3){0.01 * (k % 3), 0, -0.1}, k % 2 ? 0.005 : 0.004,
               material(k));
    }
    return sim;
}

static int all_zero(int k) { return (void)k, 0; }
static int alternate(int k) { return k % 3 == 0 ? 1 : 0; }

static int same_state(const grains_sim *a, const grains_sim *b)
{
    for (size_t i = 0; i < grains_sim_count(a); i++) {
        grains_particle p = get(a, i), q = get(b, i);
        if (memcmp(&p.x, &q.x, sizeof p.x) || memcmp(&p.v, &q.v, sizeof p.v) || memcmp(&p.w, &q.w, sizeof p.w) ||
            p.material != q.material)
            return 0;
    }
    return 1;
}

/* Invariance: a second material equal to the first changes no bit (the
 * mixing rules reduce to one material's); with a heavier second material
 * the run stays bit-identical across thread counts, and every particle
 * keeps its material through the rebuilds' reordering. */
static void invariance(test_ctx *t)
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = 0.004, p.R_max = 0.005;
    grains_params q = p;
    q.n_materials = 2;
    q.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu};
    grains_sim *one = cluster(p, all_zero), *two = cluster(q, alternate);
    for (int s = 0; s < 3000; s++)
        step(one), step(two);
    int same = 1;
    for (size_t i = 0; i < grains_sim_count(one); i++) {
        grains_particle a = get(one, i), b = get(two, i);
        same &= memcmp(&a.x, &b.x, sizeof a.x) == 0 && memcmp(&a.v, &b.v, sizeof a.v) == 0;
    }
    CHECK(t, same, "a copy of material 0 as material 1 gives bit-identical trajectories");
    grains_sim_destroy(one);
    grains_sim_destroy(two);

    q.material[1] = STEEL;
    q.material[1].E = p.E * 3;
    q.pair[0] = (grains_pair_values){.a = 0, .b = 1, .e_n = 0.2, .mu_s = 0.8, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    q.n_pairs = 1;
    grains_sim *runs[3];
    for (int th = 0; th < 3; th++) {
        q.threads = th + 1;
        runs[th] = cluster(q, alternate);
        for (int s = 0; s < 3000; s++)
            step(runs[th]);
    }
    CHECK(t, same_state(runs[0], runs[1]) && same_state(runs[0], runs[2]), "1, 2 and 3 threads: bit-identical");
    int kept = 1;
    for (size_t i = 0; i < grains_sim_count(runs[0]); i++)
        kept &= get(runs[0], i).material == alternate((int)i);
    CHECK(t, kept, "each particle keeps its material through the reordering");
    for (int th = 0; th < 3; th++)
        grains_sim_destroy(runs[th]);
}

/* Bad materials and pairs are refused with the key in the message. */
/* Two spheres of materials a and b fly head-on at 0.5 m/s each, with a
 * floor of the mesh material just below; returns the velocity of sphere 0
 * after 2 ms, when free spheres would long have crossed. */
static double crossing(grains_params p, int a, int b)
{
    double R = 1e-3, v = 0.5;
    p.dt = 1e-7;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 0.01, -R);
    add_of(sim, (grains_vec3){-R - 1e-12, 0, 0}, (grains_vec3){v, 0, 0}, R, a);
    add_of(sim, (grains_vec3){R + 1e-12, 0, 0}, (grains_vec3){-v, 0, 0}, R, b);
    for (int s = 0; s < 20000; s++)
        step(sim);
    double v_out = get(sim, 0).v.x;
    grains_sim_destroy(sim);
    return v_out;
}

/* A pair with `contact = false` passes through itself as if alone, with
 * one material or several: the velocity is untouched to the bit. The
 * other pairs, and the rigid floor it rests on, still push. */
static void passing_through(test_ctx *t)
{
    grains_params p = two_materials(GLASS, GLASS);
    p.e_n = 0.5;
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 1, .b = 1, .e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 1};
    CHECK(t, crossing(p, 1, 1) == 0.5, "material 1 passes through material 1");
    CHECK_ABS(t, crossing(p, 0, 1), -0.25, 1e-3, "material 0 still bounces off material 1 (e_n 0.5)");
    p.n_materials = 1, p.pair[0].a = p.pair[0].b = 0;
    CHECK(t, crossing(p, 0, 0) == 0.5, "one material that passes through itself");
    p.mesh_material = 0, p.g = (grains_vec3){0, 0, -10}, p.dt = 1e-5;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 0.01, 0);
    add_of(sim, (grains_vec3){0, 0, 1.1e-3}, (grains_vec3){0, 0, 0}, 1e-3, 0);
    for (int s = 0; s < 2000; s++) /* 20 ms: 2 mm down, free */
        step(sim);
    CHECK(t, get(sim, 0).x.z < 0, "nor does it touch a mesh of its own material: it falls through");
    grains_sim_destroy(sim);
}

static void refused(test_ctx *t)
{
    grains_params p = two_materials(GLASS, STEEL);
    grains_sim *sim = NULL;
    grains_error err;
    p.material[1].nu = 0.7;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "materials[1].nu"),
          "nu out of range: %s", err.message);
    p = two_materials(GLASS, STEEL);
    p.n_pairs = 2;
    p.pair[0] = p.pair[1] = (grains_pair_values){.a = 0, .b = 1, .e_n = 0.5, .mu_s = -1, .mu_r = -1, .mu_t = -1,
                                                 .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    p.pair[1].a = 1, p.pair[1].b = 0;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "listed before"),
          "a pair listed twice: %s", err.message);
    p.n_pairs = 1, p.pair[0].b = 2;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "pairs[0].between"),
          "a pair of a missing material: %s", err.message);
    p.pair[0].b = 1, p.pair[0].mu_s = 0.2, p.pair[0].mu_s_dyn = 0.3;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "exceeds its static"),
          "dynamic above static: %s", err.message);
    p.pair[0].mu_s_dyn = -1, p.pair[0].no_contact = 2;
    CHECK(t, grains_sim_create(&sim, &p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "pairs[0].contact"),
          "contact neither true nor false: %s", err.message);
    p = two_materials(GLASS, STEEL);
    sim = scene(&p);
    grains_particle q = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, 1e-3, 2, 0};
    CHECK(t, grains_sim_add_particle(sim, &q, &err) == GRAINS_ERR_RANGE && strstr(err.message, "material 2"),
          "a particle of a missing material: %s", err.message);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    glass_on_steel(&t);
    pair_restitution(&t);
    wall_material(&t);
    pair_friction(&t);
    invariance(&t);
    passing_through(&t);
    refused(&t);
    return test_report(&t, "test_materials");
}
