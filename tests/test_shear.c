/* Sheared periodic boxes (Lees & Edwards 1972; docs/model.md, "Sheared
 * periodic boxes"): the box is periodic along x and z, and its images
 * above and below slide along x at +-U = +-shear_rate L_z, offset by
 * +-shift(t) = U t (mod L_x).
 * - A lattice moving with the shear profile, v_x = rate (z - L/2), and
 *   drifting along z through the sliding faces: a grain that leaves through
 *   the top comes back through the bottom at x - shift, its velocity less
 *   U. Mapped back into the box by the same rule, every grain is where its
 *   straight line puts it, and in the profile, to rounding, through wraps
 *   and a whole turn of the offset.
 * - A pair in contact across the sliding face feels the same force as the
 *   same pair (same separation, same relative velocity, its upper grain
 *   seen through the image) in the middle of the box, to rounding.
 * - The lists miss no contact: in a dense sheared gas, at every step, the
 *   contacts the run counts are those a search of every pair through the
 *   moving images finds (the rebuild bound grown by the offset's motion).
 * - Momentum: no force acts but the contacts', which cancel, and a grain
 *   that wraps changes its x velocity by -+U: P_x + U sum(m n_wraps) is
 *   conserved to rounding, P_y and P_z as they are.
 * - The same bits on 1 and 2 threads, and across a checkpoint taken with
 *   the offset mid-period.
 * - A probe's plane across x counts no crossing when a grain that wraps
 *   along z moves to its other side with the images' offset; one across z
 *   counts the grain's real crossing after the wrap.
 * - The refusals: a box not periodic along x and z, an implicit
 *   integrator, a 2D run out of the x-z planes, a mesh. */
#include <string.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "support.h"

#define PI 3.14159265358979323846

static const double R = 1e-3;
static const double L = 16e-3;   /* the box, 16 R along each axis */
static const double RATE = 20.0; /* [1/s]: U = 0.32 m/s */

static grains_params shear_params(grains_integrator in, int threads)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.periodic = 7;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){L, L, L};
    p.shear_rate = RATE;
    p.mu_s = 0.4, p.mu_r = 0.1, p.mu_t = 0.1;
    p.skin = 0.05 * R; /* rebuilds (and wraps) every few steps */
    p.dt = 2e-5;       /* (Eq. 49: 3.0e-5 s) */
    p.integrator = in;
    p.threads = threads;
    return p;
}

/* The offset of the image above after `steps` steps. */
static double offset(const grains_params *p, long steps) { return fmod(RATE * L * p->dt * (double)steps, L); }

/* x, z and v_x brought into the box by the images' rule: n periods above
 * along z shift x by -n shift and v_x by -n U. */
static void into_box(double shift, double *x, double *z, double *vx)
{
    double n = floor(*z / L);
    *z -= n * L;
    *x -= n * shift;
    *vx -= n * RATE * L;
    *x -= L * floor(*x / L);
}

/* The gap along x between two points of the period (the nearer way). */
static double x_gap(double a, double b) { return fabs(a - b - L * rint((a - b) / L)); }

/* A lattice 5 R apart in the shear profile, drifting at v_z = vz (rows of
 * one z: one velocity), the rows sliding along x past one another: never
 * in reach. */
static void free_flight(test_ctx *t, double vz)
{
    grains_params p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    grains_sim *sim = scene(&p);
    grains_vec3 x0[27], v0[27];
    int k = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++, k++) {
                x0[k] = (grains_vec3){(2.5 + 5 * a) * R, (2.5 + 5 * b) * R, (2.5 + 5 * c) * R};
                v0[k] = (grains_vec3){RATE * (x0[k].z - L / 2), 0.02 * (b - 1), vz};
                add(sim, x0[k], v0[k], (grains_vec3){0, 0, 0}, R);
            }
    const long steps = 4000; /* the grains cross the box along z 1.5-2 times */
    advance(sim, steps);
    double t_end = p.dt * (double)steps, shift = offset(&p, steps), worst_x = 0, worst_z = 0, worst_v = 0;
    double worst_profile = 0;
    int crossed = 0;
    for (k = 0; k < 27; k++) {
        grains_particle g = get(sim, (size_t)k);
        double x = x0[k].x + v0[k].x * t_end, z = x0[k].z + v0[k].z * t_end, vx = v0[k].x;
        crossed += fabs(floor(z / L)) >= 1;
        into_box(shift, &x, &z, &vx);
        double gx = g.x.x, gz = g.x.z, gv = g.v.x;
        into_box(shift, &gx, &gz, &gv);
        worst_x = fmax(worst_x, x_gap(gx, x));
        worst_z = fmax(worst_z, fabs(gz - z));
        worst_v = fmax(worst_v, fabs(gv - vx));
        worst_profile = fmax(worst_profile, fabs(gv - RATE * (gz - vz * t_end - L / 2)));
    }
    printf("  free flight at v_z = %g m/s, %d of 27 across the faces: worst |x| %.2g m, |z| %.2g m, |v_x| %.2g m/s; "
           "off the profile %.2g m/s\n", vz, crossed, worst_x, worst_z, worst_v, worst_profile);
    CHECK(t, crossed == 27, "every grain crossed the sliding faces (%d of 27)", crossed);
    CHECK(t, RATE * L * t_end > L, "the offset turned a whole period (%g m)", RATE * L * t_end);
    /* 4000 roundings of x += v dt, each of an ulp of L (3.5e-18 m): 1.4e-14 m at most */
    CHECK(t, worst_x < 1e-13 && worst_z < 1e-13 && worst_v < 1e-15 && worst_profile < 1e-13,
          "free flight at v_z = %g through the moving images: worst |x| %.3g m, |z| %.3g m, |v_x| %.3g m/s off "
          "their lines, %.3g m/s off the profile", vz, worst_x, worst_z, worst_v, worst_profile);
    grains_sim_destroy(sim);
}

/* An oblique, frictional collision of a lower grain and an upper one, the
 * upper's relative place d and velocity u: in the middle of the box
 * (y = 4 R), and across the top face (y = 12 R: the upper grain stored
 * near the bottom, at x - shift, moving at its velocity less U). After the
 * collision, the two lower grains' velocities and spins. */
static void across_the_face(test_ctx *t)
{
    grains_params p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    p.periodic = 5; /* x and z */
    grains_sim *sim = scene(&p);
    const long lead = 200; /* the offset moves 0.01 R a step, 2 R in all */
    const double U = RATE * L;
    grains_vec3 d = {0.6 * R, 0.1 * R, 2.02 * R}, u = {-0.05, 0.03, -0.2}, v_lo = {0.1, 0, 0.05}, w = {0, 40, 0};
    grains_vec3 lo_mid = {8 * R, 4 * R, 7 * R}, lo_top = {5 * R, 12 * R, L - 0.8 * R};
    add(sim, lo_mid, v_lo, w, R);
    add(sim, (grains_vec3){lo_mid.x + d.x, lo_mid.y + d.y, lo_mid.z + d.z},
        (grains_vec3){v_lo.x + u.x, v_lo.y + u.y, v_lo.z + u.z}, (grains_vec3){0, 0, 0}, R);
    add(sim, lo_top, v_lo, w, R);
    /* the upper grain's image above is at (x + shift(t), z + L) and moves at v + U: here now and then */
    double x_up = lo_top.x + d.x - offset(&p, 0);
    add(sim, (grains_vec3){x_up - L * floor(x_up / L), lo_top.y + d.y, lo_top.z + d.z - L},
        (grains_vec3){v_lo.x + u.x - U, v_lo.y + u.y, v_lo.z + u.z}, (grains_vec3){0, 0, 0}, R);
    size_t most = 0;
    for (long s = 0; s < lead; s++) {
        advance(sim, 1);
        grains_thermo th;
        grains_sim_thermo(sim, &th);
        most = th.n_contacts > most ? th.n_contacts : most;
    }
    grains_particle mid = get(sim, 0), top = get(sim, 2);
    CHECK(t, most == 2, "both pairs touched (at most %zu contacts at once)", most);
    double dv = fabs(mid.v.x - v_lo.x) + fabs(mid.v.z - v_lo.z), worst = 0;
    const double *a = &mid.v.x, *b = &top.v.x, *wa = &mid.w.x, *wb = &top.w.x;
    for (int k = 0; k < 3; k++)
        worst = fmax(worst, fmax(fabs(a[k] - b[k]) / dv, fabs(wa[k] - wb[k]) / (dv / R)));
    printf("  a collision across the sliding face vs in the middle: worst relative difference %.2g (|dv| %.3g m/s)\n",
           worst, dv);
    CHECK(t, dv > 0.05, "the collision changed the lower grain's velocity (%.3g m/s)", dv);
    CHECK(t, worst < 1e-11, "across the sliding face as in the middle: worst relative difference %.3g", worst);
    grains_sim_destroy(sim);
}

/* Pairs closer than 2R through the moving images at offset `shift`. */
static size_t touching_pairs(const grains_sim *sim, double shift)
{
    size_t n = grains_sim_count(sim), count = 0;
    grains_particle *g = malloc(n * sizeof *g);
    for (size_t i = 0; i < n; i++)
        g[i] = get(sim, i);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double dz = g[i].x.z - g[j].x.z, m = rint(dz / L);
            double dx = g[i].x.x - g[j].x.x - m * shift, dy = g[i].x.y - g[j].x.y;
            dz -= m * L;
            dx -= L * rint(dx / L);
            dy -= L * rint(dy / L);
            count += dx * dx + dy * dy + dz * dz < 4 * R * R;
        }
    free(g);
    return count;
}

/* The run's contacts (Verlet: counted where the step leaves the grains)
 * against every pair's, and momentum with the wraps' share. Grains of
 * `speed` 0.5 m/s cross the faces; of 0.01 m/s they move 0.0002 R a step
 * and the offset 0.0064 R: pairs across the faces come into reach by the
 * offset alone, which the lists' bound must count. */
static void lists_and_momentum(test_ctx *t, double speed, long steps, long wraps_least)
{
    grains_params p = shear_params(GRAINS_INTEGRATOR_VERLET, 1);
    grains_sim *sim = dense_gas(&p, R, 7, speed);
    size_t n = grains_sim_count(sim);
    double *z_last = malloc(n * sizeof *z_last), m = p.rho * 4.0 / 3.0 * PI * R * R * R, U = RATE * L;
    double P0[3] = {0, 0, 0}, wraps = 0, worst_p[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        grains_particle g = get(sim, i);
        z_last[i] = g.x.z;
        P0[0] += m * g.v.x, P0[1] += m * g.v.y, P0[2] += m * g.v.z;
    }
    long missed_at = -1, most = 0, wrapped = 0;
    for (long s = 1; s <= steps; s++) {
        advance(sim, 1);
        grains_thermo th;
        grains_sim_thermo(sim, &th);
        size_t want = touching_pairs(sim, offset(&p, s));
        if (th.n_contacts != want && missed_at < 0)
            missed_at = s;
        most = (long)th.n_contacts > most ? (long)th.n_contacts : most;
        double P[3] = {0, 0, 0};
        for (size_t k = 0; k < n; k++) { /* ids follow the order of adding: grain k keeps id k */
            grains_particle g;
            grains_sim_get_particle(sim, (size_t)k, &g);
            double jump = rint((z_last[k] - g.x.z) / L); /* +1: left through the top */
            wraps += jump;
            wrapped += jump != 0;
            z_last[k] = g.x.z;
            P[0] += m * g.v.x, P[1] += m * g.v.y, P[2] += m * g.v.z;
        }
        P[0] += U * m * wraps;
        for (int a = 0; a < 3; a++)
            worst_p[a] = fmax(worst_p[a], fabs(P[a] - P0[a]));
    }
    CHECK(t, missed_at < 0, "grains of %g m/s: every touching pair through the moving images is a contact (first "
          "step off: %ld)", speed, missed_at);
    CHECK(t, most > 150 && wrapped >= wraps_least, "a dense gas: up to %ld contacts, %ld wraps along z", most,
          wrapped);
    double scale = m * U * (double)n; /* the sum's magnitude: each grain's momentum up to m U */
    printf("  gas of %g m/s, %ld steps: contacts (up to %ld) as every pair's %s; %ld wraps; momentum drift %.2g, %.2g, "
           "%.2g of m U N\n", speed, steps, most, missed_at < 0 ? "at every step" : "NOT", wrapped, worst_p[0] / scale,
           worst_p[1] / scale, worst_p[2] / scale);
    CHECK(t, worst_p[0] < 1e-14 * scale && worst_p[1] < 1e-14 * scale && worst_p[2] < 1e-14 * scale,
          "momentum with the wraps' share conserved: worst drift %.3g, %.3g, %.3g of m U N", worst_p[0] / scale,
          worst_p[1] / scale, worst_p[2] / scale);
    free(z_last);
    grains_sim_destroy(sim);
}

static int same_states(const grains_sim *a, const grains_sim *b)
{
    if (grains_sim_count(a) != grains_sim_count(b))
        return 0;
    for (size_t k = 0; k < grains_sim_count(a); k++) {
        grains_particle ga, gb;
        grains_sim_get_particle(a, (size_t)k, &ga);
        grains_sim_get_particle(b, (size_t)k, &gb);
        if (!same_particle(ga, gb))
            return 0;
    }
    return 1;
}

/* One thread and two, and a checkpoint taken at step 900 (the offset at
 * 0.6 of the period), resumed on two threads. */
static void same_bits(test_ctx *t, const char *path)
{
    grains_params p1 = shear_params(GRAINS_INTEGRATOR_EULER, 1), p2 = shear_params(GRAINS_INTEGRATOR_EULER, 2);
    grains_sim *a = dense_gas(&p1, R, 11, 0.5), *b = dense_gas(&p2, R, 11, 0.5), *c = dense_gas(&p2, R, 11, 0.5);
    grains_error err;
    advance(a, 900);
    CHECK(t, grains_checkpoint_write(path, a, NULL, 0, &err) == GRAINS_OK, "checkpoint: %s", err.message);
    advance(a, 700);
    advance(b, 1600);
    CHECK(t, same_states(a, b), "a sheared gas: the same bits on 1 and 2 threads after 1600 steps");
    grains_status s = grains_checkpoint_read_sim(path, c, &err);
    CHECK(t, s == GRAINS_OK, "resume: %s", err.message);
    if (s == GRAINS_OK) {
        advance(c, 700);
        CHECK(t, same_states(a, c), "resumed at step 900 (offset %.3g L): the same bits 700 steps on",
              offset(&p1, 900) / L);
    }
    remove(path);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(c);
}

/* A grain rising through the top face at x = 8 R (v_x = 0) comes back at
 * x - shift (0.4 R at the wrap), beyond a plane at x = 7.8 R, and moves on
 * at -U away from it; it then rises through a plane at z = 0.5 R. */
static void probes_across_the_faces(test_ctx *t)
{
    grains_params p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    p.n_probes = 2;
    p.probe[0] = (grains_probe){.point = {7.8 * R, 0, 0}, .normal = {1, 0, 0}};
    p.probe[1] = (grains_probe){.point = {0, 0, 0.5 * R}, .normal = {0, 0, 1}};
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){8 * R, 8 * R, L - 0.5 * R}, (grains_vec3){0, 0, 0.4}, (grains_vec3){0, 0, 0}, R);
    advance(sim, 200);
    grains_particle g = get(sim, 0);
    grains_probe_row *rows[2];
    size_t n[2];
    grains_error err;
    for (int k = 0; k < 2; k++)
        if (grains_sim_probe_rows(sim, k, &rows[k], &n[k], &err) != GRAINS_OK) {
            printf("FAIL: probe %d: %s\n", k, err.message);
            exit(1);
        }
    CHECK(t, g.x.x < 7.8 * R && g.x.z > 0.5 * R && g.x.z < L / 2, "the grain wrapped to x %.3g R, z %.3g R",
          g.x.x / R, g.x.z / R);
    CHECK(t, n[0] == 0, "the plane across x: %zu rows (%ld crossings), none crossed it", n[0],
          n[0] ? rows[0][0].number : 0L);
    CHECK(t, n[1] == 1 && rows[1][0].number == 1, "the plane across z: %zu rows, %ld crossings (one)", n[1],
          n[1] ? rows[1][0].number : 0L);
    free(rows[0]), free(rows[1]);
    grains_sim_destroy(sim);
}

static void refusals(test_ctx *t)
{
    grains_error err;
    grains_params p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    p.periodic = 3; /* x and y */
    CHECK(t, grains_params_check(&p, &err) != GRAINS_OK && strstr(err.message, "periodic along x"),
          "a box not periodic along z: %s", err.message);
    p = shear_params(GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT, 1);
    p.mu_s = p.mu_r = p.mu_t = 0;
    CHECK(t, grains_params_check(&p, &err) != GRAINS_OK && strstr(err.message, "explicit integrator"),
          "an implicit integrator: %s", err.message);
    p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    p.dimension = 2, p.plane_normal = 2, p.v0 = (grains_vec3){0, 0, 0};
    CHECK(t, grains_params_check(&p, &err) != GRAINS_OK && strstr(err.message, "x-z planes"),
          "2D across the x-y planes: %s", err.message);
    p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    p.shear_rate = NAN;
    CHECK(t, grains_params_check(&p, &err) != GRAINS_OK && strstr(err.message, "shear_rate"), "NaN: %s",
          err.message);
    p = shear_params(GRAINS_INTEGRATOR_EULER, 1);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){8 * R, 8 * R, 8 * R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    floor_mesh(sim, L, 0.5 * R);
    CHECK(t, grains_sim_step(sim, &err) == GRAINS_ERR_ARG && strstr(err.message, "meshes"), "a mesh: %s",
          err.message);
    grains_sim_destroy(sim);
}

int main(int argc, char **argv)
{
    (void)argc;
    char path[512];
    snprintf(path, sizeof path, "%s.checkpoint", argv[0]);
    test_ctx t = {0, 0};
    free_flight(&t, 0.4);
    free_flight(&t, -0.3);
    across_the_face(&t);
    lists_and_momentum(&t, 0.5, 2500, 20);
    lists_and_momentum(&t, 0.01, 1000, 0);
    same_bits(&t, path);
    probes_across_the_faces(&t);
    refusals(&t);
    return test_report(&t, "test_shear");
}
