/* A box held at a pressure (box_pressure; docs/model.md, "A box held at a
 * pressure"): its height along z follows a servo on the grains' sigma_zz,
 * the grains' z following affinely.
 * - Grains at rest and apart (no contact, no stress): the box closes at
 *   the servo's most, 1/(2000 dt), so that after n steps its height is
 *   L_0 (1 - 1/2000)^n, every grain's z is z_0 times the same factor, and
 *   nothing else moves, to rounding.
 * - Columns of frictionless spheres along z, apart across x and y: in
 *   equilibrium each contact carries P times a column's share of the
 *   box's cross-section, so each overlap is Hertz's for that force (Eqs.
 *   12-14: f = 4/3 E* sqrt(R*) delta^(3/2)), and the box's height is 6 (2R
 *   - delta) for columns of 6: the servo finds it; the sampled sigma_zz is
 *   -P.
 * - The sample's contact part is the sum over the grains of V_i times
 *   Love's stress of each (grains_sim_contact_stress), over the box's
 *   volume.
 * - Momentum: the box's motion moves positions, not velocities, and the
 *   contacts cancel: a dense gas pressed in a box (not sheared) keeps its
 *   momentum to rounding.
 * - A frame's mean (box.csv's) is the mean of the samples since the last
 *   row, one every 10 steps.
 * - The same bits on 1 and 2 threads, and across a checkpoint (the means'
 *   sums included), sheared and pressed.
 * - The refusals: not periodic along z, a box of no volume, an implicit
 *   integrator, 2D planes normal to z, a negative or NaN pressure, a mesh. */
#include <string.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "support.h"

#define PI 3.14159265358979323846

static const double R = 1e-3;

static grains_params box_params(double L_x, double L_z, double P)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.E = 1e7, p.nu = 0.25, p.rho = 2500;
    p.periodic = 7;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){L_x, L_x, L_z};
    p.box_pressure = P;
    p.mu_s = p.mu_r = p.mu_t = 0;
    return p;
}

static void closes_affinely(test_ctx *t)
{
    const double L = 16 * R;
    grains_params p = box_params(L, L, 10);
    grains_sim *sim = scene(&p);
    grains_vec3 x0[8];
    for (int k = 0; k < 8; k++) {
        x0[k] = (grains_vec3){(2 + 4 * (k & 1)) * R, (2 + 4 * (k >> 1 & 1)) * R, (1.5 + 1.9 * k) * R};
        add(sim, x0[k], (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    }
    const long n = 400;
    advance(sim, n);
    grains_box_state b;
    grains_sim_box(sim, &b);
    double scale = pow(1 - 1.0 / 2000, (double)n), worst_z = 0, moved = 0;
    for (int k = 0; k < 8; k++) {
        grains_particle g = get(sim, (size_t)k);
        worst_z = fmax(worst_z, fabs(g.x.z - x0[k].z * scale));
        moved += fabs(g.x.x - x0[k].x) + fabs(g.x.y - x0[k].y) + fabs(g.v.x) + fabs(g.v.y) + fabs(g.v.z);
    }
    printf("  apart: height %.12g of %.12g expected; worst z %.2g m off the affine map\n", b.L_z, L * scale, worst_z);
    /* n roundings of z' = z s, each of an ulp of z (< 2e-18 m) */
    CHECK(t, fabs(b.L_z - L * scale) < 1e-15 && worst_z < 1e-15 && moved == 0,
          "grains apart close with the box at its most: height %.15g (expected %.15g), worst z %.3g, x, y, v %.3g",
          b.L_z, L * scale, worst_z, moved);
    CHECK(t, b.sampled_step == n - 10 && b.stress[8] == 0 && b.height_rate < 0,
          "the sample: step %ld, sigma_zz %g, rate %g", b.sampled_step, b.stress[8], b.height_rate);
    grains_sim_destroy(sim);
}

/* The overlap of Hertz's contact of two spheres R under the force f. */
static double hertz_overlap(const grains_params *p, double f)
{
    double E_eff = p->E / (2 * (1 - p->nu * p->nu)), R_eff = R / 2; /* Eq. 22 */
    return pow(f / (4.0 / 3.0 * E_eff * sqrt(R_eff)), 2.0 / 3.0);
}

/* 4 x 4 columns of 6 grains, 2.7 R apart across (the box spans 4 cells of
 * 2 R + skin along each axis). */
static void columns(test_ctx *t)
{
    const double a = 2.7 * R, P = 25;
    grains_params p = box_params(4 * a, 6 * 2.1 * R, P);
    p.e_n = 0.5;
    grains_sim *sim = scene(&p);
    for (int c = 0; c < 16; c++)
        for (int k = 0; k < 6; k++)
            add(sim, (grains_vec3){(0.5 + (c & 3)) * a, (0.5 + (c >> 2)) * a, (1.05 + 2.1 * k) * R},
                (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    advance(sim, 30000);
    grains_box_state b;
    grains_sim_box(sim, &b);
    double delta = hertz_overlap(&p, P * a * a), expected = 6 * (2 * R - delta);
    printf("  columns at %g Pa: height %.9g m, Hertz's %.9g m (overlap %.4g R); sigma_zz %.6g Pa; phi %.4f\n", P,
           b.L_z, expected, delta / R, b.stress[8], b.solid_fraction);
    CHECK(t, fabs(b.L_z - expected) < 1e-4 * delta, "the height Hertz's overlaps give: %.12g m, expected %.12g m "
          "(off by %.3g of the overlap)", b.L_z, expected, (b.L_z - expected) / delta);
    CHECK(t, fabs(b.stress[8] + P) < 1e-4 * P, "sigma_zz sampled %.9g Pa, -P = %g", b.stress[8], -P);
    double V_grains = 96 * 4.0 / 3.0 * PI * R * R * R, phi = V_grains / (16 * a * a * b.L_z);
    CHECK(t, fabs(b.solid_fraction - phi) < 1e-12, "solid fraction %.15g, the grains' volume over the box's %.15g",
          b.solid_fraction, phi);
    grains_sim_destroy(sim);
}

/* The dense gas (support.h's), pressed at 200 Pa (sheared at `rate`). */
static grains_params pressed(double rate, int threads)
{
    grains_params p = box_params(16 * R, 16 * R, 200);
    p.shear_rate = rate;
    p.mu_s = 0.4, p.mu_r = 0.1, p.mu_t = 0.1;
    p.e_n = 0.7;
    p.threads = threads;
    return p;
}

static void love_stress_and_momentum(test_ctx *t)
{
    grains_params p = pressed(0, 1);
    grains_sim *sim = dense_gas(&p, R, 5, 0.3);
    size_t n = grains_sim_count(sim);
    double m = p.rho * 4.0 / 3.0 * PI * R * R * R, P0[3] = {0, 0, 0}, worst = 0;
    for (size_t i = 0; i < n; i++) {
        grains_particle g = get(sim, i);
        P0[0] += m * g.v.x, P0[1] += m * g.v.y, P0[2] += m * g.v.z;
    }
    for (int k = 0; k < 300; k++) {
        advance(sim, 10);
        double P[3] = {0, 0, 0};
        for (size_t i = 0; i < n; i++) {
            grains_particle g = get(sim, i);
            P[0] += m * g.v.x, P[1] += m * g.v.y, P[2] += m * g.v.z;
        }
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(P[a] - P0[a]));
    }
    double scale = m * 0.3 * (double)n;
    grains_box_state b0;
    grains_sim_box(sim, &b0);
    CHECK(t, worst < 1e-14 * scale && b0.L_z < 0.95 * 16 * R, "momentum in a pressed gas (height %.3g R): worst "
          "drift %.3g of m v N", b0.L_z / R, worst / scale);
    grains_sim_record_contacts(sim, 1); /* the next step, 3000, is a sample's */
    advance(sim, 1);
    grains_box_state b;
    grains_sim_box(sim, &b);
    int *coordination = malloc(n * sizeof *coordination);
    double (*love)[9] = malloc(n * sizeof *love), sum[9] = {0}, worst_s = 0, V = 256 * R * R * b0.L_z; /* (the sample's) */
    grains_sim_contact_stress(sim, coordination, love);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 9; k++)
            sum[k] += 4.0 / 3.0 * PI * R * R * R * love[i][k] / V;
    /* the kinetic part: -(1/V) sum m v' v', v' about the grains' mean velocity */
    double u[3] = {P0[0] / (m * (double)n), P0[1] / (m * (double)n), P0[2] / (m * (double)n)};
    for (size_t i = 0; i < n; i++) {
        grains_particle g = get(sim, i);
        const double v[3] = {g.v.x - u[0], g.v.y - u[1], g.v.z - u[2]};
        for (int k = 0; k < 9; k++)
            sum[k] -= m * v[k / 3] * v[k % 3] / V;
    }
    for (int k = 0; k < 9; k++)
        worst_s = fmax(worst_s, fabs(sum[k] - b.stress[k]));
    printf("  pressed gas: sigma_zz %.5g Pa (P = %g), Love's stress summed differs by %.2g Pa\n", b.stress[8],
           p.box_pressure, worst_s);
    CHECK(t, b.sampled_step == 3000 && worst_s < 1e-9 * p.box_pressure && b.stress[8] < 0,
          "the sample at step %ld is the grains' Love stress over the box (off by %.3g Pa; sigma_zz %g Pa)",
          b.sampled_step, worst_s, b.stress[8]);
    free(coordination);
    free(love);
    grains_sim_destroy(sim);
}

/* A frame's mean (box.csv's row) is the mean of the samples taken since
 * the last row: here 50, one every 10 steps, of a sheared, pressed gas. */
static void frame_means(test_ctx *t)
{
    grains_params p = pressed(20, 1);
    grains_sim *sim = dense_gas(&p, R, 11, 0.5);
    advance(sim, 95);
    grains_sim_clear_box_means(sim);
    double sum[9] = {0}, solid = 0, worst = 0, scale = 0;
    long distinct = 0, last = -1;
    grains_box_state b;
    for (int k = 0; k < 50; k++) {
        advance(sim, 10); /* (one step of each ten is a sample's) */
        grains_sim_box(sim, &b);
        distinct += b.sampled_step > last;
        last = b.sampled_step;
        for (int j = 0; j < 9; j++)
            sum[j] += b.stress[j], scale = fmax(scale, fabs(b.stress[j]));
        solid += b.solid_fraction;
    }
    for (int j = 0; j < 9; j++)
        worst = fmax(worst, fabs(b.mean_stress[j] - sum[j] / 50));
    CHECK(t, b.samples == 50 && distinct == 50 && worst <= 1e-13 * scale &&
          fabs(b.mean_solid_fraction - solid / 50) <= 1e-14 && b.mean_stress[8] != b.stress[8],
          "the mean of %ld samples (%ld seen) is theirs: off by %.3g Pa of %.3g; solid fraction %.15g, %.15g",
          b.samples, distinct, worst, scale, b.mean_solid_fraction, solid / 50);
    grains_sim_clear_box_means(sim);
    grains_sim_box(sim, &b);
    CHECK(t, b.samples == 0 && memcmp(b.mean_stress, b.stress, sizeof b.stress) == 0 &&
          b.mean_solid_fraction == b.solid_fraction, "cleared: no samples, the last sample's figures");
    grains_sim_destroy(sim);
}

static int same_states(const grains_sim *a, const grains_sim *b)
{
    grains_box_state s, u;
    grains_sim_box(a, &s);
    grains_sim_box(b, &u);
    return same_particles(a, b) && memcmp(&s, &u, sizeof s) == 0;
}

/* One thread and two, and a checkpoint taken at step 700, resumed on two. */
static void same_bits(test_ctx *t, const char *path)
{
    grains_params p1 = pressed(20, 1), p2 = pressed(20, 2);
    grains_sim *a = dense_gas(&p1, R, 11, 0.5), *b = dense_gas(&p2, R, 11, 0.5), *c = dense_gas(&p2, R, 11, 0.5);
    grains_error err;
    advance(a, 700);
    CHECK(t, grains_checkpoint_write(path, a, NULL, 0, &err) == GRAINS_OK, "checkpoint: %s", err.message);
    advance(a, 900);
    advance(b, 1600);
    grains_box_state s;
    grains_sim_box(a, &s);
    CHECK(t, same_states(a, b) && s.L_z < 15 * R, "sheared and pressed (height %.3g R): the same bits on 1 and 2 "
          "threads after 1600 steps", s.L_z / R);
    grains_status st = grains_checkpoint_read_sim(path, c, &err);
    CHECK(t, st == GRAINS_OK, "resume: %s", err.message);
    if (st == GRAINS_OK) {
        advance(c, 900);
        CHECK(t, same_states(a, c), "resumed at step 700: the same bits 900 steps on");
    }
    remove(path);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(c);
}

static void refused(test_ctx *t, grains_params p, const char *what, const char *expected)
{
    grains_error err;
    CHECK(t, grains_params_check(&p, &err) != GRAINS_OK && strstr(err.message, expected), "%s: %s", what,
          err.message);
}

static void refusals(test_ctx *t)
{
    grains_params p = box_params(16 * R, 16 * R, 100);
    p.periodic = 3;
    refused(t, p, "not periodic along z", "periodic along z");
    p = box_params(16 * R, 16 * R, 100);
    p.periodic = 4, p.box_max.y = p.box_min.y;
    refused(t, p, "a box of no volume", "volume");
    p = box_params(16 * R, 16 * R, 100);
    p.integrator = GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT;
    refused(t, p, "an implicit integrator", "explicit integrator");
    p = box_params(16 * R, 16 * R, 100);
    p.dimension = 2, p.plane_normal = 2, p.v0 = (grains_vec3){0, 0, 0};
    refused(t, p, "2D planes normal to z", "plane_normal");
    p = box_params(16 * R, 16 * R, -1);
    refused(t, p, "a negative pressure", "box_pressure");
    p = box_params(16 * R, 16 * R, NAN);
    refused(t, p, "NaN", "box_pressure");
    p = box_params(16 * R, 16 * R, 100);
    p.box_pressure_time = -1;
    refused(t, p, "a negative time constant", "box_pressure_time");
    p = box_params(16 * R, 16 * R, 100);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){8 * R, 8 * R, 8 * R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    floor_mesh(sim, 16 * R, 0.5 * R);
    grains_error err;
    CHECK(t, grains_sim_step(sim, &err) == GRAINS_ERR_ARG && strstr(err.message, "box_pressure"), "a mesh: %s",
          err.message);
    grains_sim_destroy(sim);
}

int main(int argc, char **argv)
{
    (void)argc;
    char path[512];
    snprintf(path, sizeof path, "%s.checkpoint", argv[0]);
    test_ctx t = {0, 0};
    closes_affinely(&t);
    columns(&t);
    love_stress_and_momentum(&t);
    frame_means(&t);
    same_bits(&t, path);
    refusals(&t);
    return test_report(&t, "test_box_pressure");
}
