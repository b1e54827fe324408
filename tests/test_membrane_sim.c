/* Membranes in a simulation (grains_sim_add_membrane): their vertices move
 * with the run's integrator. Each test states the physical fact it checks:
 * - a free sheet at rest falls under gravity as one body, each vertex at
 *   the integrator's discrete free fall, its shape unchanged;
 * - a vibrating sheet (no gravity, no damping) keeps its momentum to
 *   round-off, and its energy (vertices' kinetic + springs' elastic) to the
 *   integrator's order: the error falls 4-fold with dt/2 for Verlet, 2-fold
 *   for semi-implicit Euler;
 * - a sheet hung by two opposite rims from a mesh settles with the mesh
 *   carrying the weight of its free vertices (statics: the membrane's
 *   internal forces sum to zero, so its pull on the pinned rims balances
 *   the free vertices' weight);
 * - vertices pinned to a moving mesh move with it exactly;
 * - patches (membrane paper Section 2.5): a sphere dropped on a sheet
 *   whose vertices are all pinned moves bit for bit as on a rigid mesh of
 *   the same triangles, and the mesh holding the pins feels the force the
 *   rigid mesh feels; a sphere hitting a free sheet leaves the momentum
 *   and the angular momentum of sphere and vertices as they were (to
 *   round-off); the same bits on 1 and 2 threads;
 * - the MSS_particle model (membrane paper Section 3): a sphere pressed on
 *   a pinned vertex sphere feels Hertz's force for the pair's R_eff =
 *   R r / (R + r); spheres striking a free sheet of vertex spheres keep
 *   the momentum to round-off, and without friction the angular momentum
 *   too (with friction the vertices, which do not spin, drop the torque a
 *   sphere of their own would take); the same bits on 1 and 2 threads;
 * - a variational integrator, relaxation, and pinning to a mesh that does
 *   not exist are refused. */
#include "check.h"
#include "membrane/sheet.h"
#include "support.h"

static const grains_membrane_material rubber = {.E = 1.25e6, .d = 3e-4, .rho = 1000};

static grains_sim *with_sheet(grains_params *p, int nx, double s)
{
    grains_sim *sim = scene(p);
    grains_mesh *mesh;
    grains_error err;
    if (membrane_sheet_mesh(&mesh, nx, nx, s, &err) != GRAINS_OK ||
        grains_sim_add_membrane(sim, mesh, &rubber, &err) != GRAINS_OK) {
        fprintf(stderr, "with_sheet: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(mesh);
    return sim;
}

static double v3n(grains_vec3 a, grains_vec3 b) { return sqrt(pow(a.x - b.x, 2) + pow(a.y - b.y, 2) + pow(a.z - b.z, 2)); }

static void free_fall(test_ctx *t)
{
    const char *names[] = {"euler", "verlet"};
    for (int k = 0; k < 2; k++) {
        grains_params p = scene_params();
        p.integrator = k ? GRAINS_INTEGRATOR_VERLET : GRAINS_INTEGRATOR_EULER;
        p.g = (grains_vec3){0, 0, -9.81};
        p.dt = 1e-5;
        grains_sim *sim = with_sheet(&p, 7, 1e-3);
        grains_membrane_vertex v0[49], v;
        for (size_t i = 0; i < 49; i++)
            grains_sim_get_membrane_vertex(sim, 0, i, &v0[i]);
        const long n = 1000;
        const double nd = (double)n;
        advance(sim, n);
        /* Euler: v_k = k g dt, x_n = x_0 + g dt^2 n (n + 1) / 2; Verlet: exact, g t^2 / 2 */
        double want = -9.81 * p.dt * p.dt * (k ? nd * nd / 2 : nd * (nd + 1) / 2), worst = 0, shape = 0;
        for (size_t i = 0; i < 49; i++) {
            grains_sim_get_membrane_vertex(sim, 0, i, &v);
            worst = nan_max(worst, fabs((v.x.z - v0[i].x.z) / want - 1));
            shape = nan_max(shape, nan_max(fabs(v.x.x - v0[i].x.x), fabs(v.x.y - v0[i].x.y)));
        }
        printf("  %s: a free sheet falls %.9g m in %ld steps (discrete free fall %.9g; worst %.2g off), moves %.2g m "
               "sideways\n", names[k], v.x.z - v0[48].x.z, n, want, worst, shape);
        CHECK(t, worst < 1e-9 && shape < 1e-15, "%s: the sheet falls as one body", names[k]);
        grains_sim_destroy(sim);
    }
}

/* Max relative energy error over 20 periods of a perturbed sheet, and its
 * momentum drift relative to the largest vertex momentum. */
static double vibrate(grains_integrator integrator, double steps_per_period, double *momentum)
{
    grains_params p = scene_params();
    p.integrator = integrator;
    double s = 1e-3, k = 0.8660254037844386 * rubber.E * rubber.d, m = rubber.rho * rubber.d * s * s * 0.8660254037844386;
    double period = 2 * 3.14159265358979323846 * sqrt(m / k);
    p.dt = period / steps_per_period;
    grains_sim *sim = with_sheet(&p, 9, s);
    grains_error err;
    grains_membrane_vertex v;
    for (size_t i = 0; i < 81; i++) {
        grains_sim_get_membrane_vertex(sim, 0, i, &v);
        v.x = (grains_vec3){v.x.x + 2e-5 * sin(3000.0 * v.x.y), v.x.y + 1e-5 * cos(2000.0 * v.x.x),
                            3e-5 * sin(1500.0 * (v.x.x + v.x.y))};
        v.v = (grains_vec3){0.01 * sin((double)i), 0, 0};
        grains_sim_set_membrane_vertex(sim, 0, i, &v, &err);
    }
    grains_thermo th;
    double P0[3] = {0, 0, 0}, P[3], worst = 0, most = 0;
    for (size_t i = 0; i < 81; i++) {
        grains_sim_get_membrane_vertex(sim, 0, i, &v);
        P0[0] += v.mass * v.v.x, P0[1] += v.mass * v.v.y, P0[2] += v.mass * v.v.z;
        most = nan_max(most, v.mass * 0.01);
    }
    grains_sim_step(sim, &err); /* Verlet's first half kick has no a(t) yet: measure from here */
    grains_sim_thermo(sim, &th);
    double E0 = th.e_membrane;
    for (long step = 1; step < lround(20 * steps_per_period); step++) {
        grains_sim_step(sim, &err);
        grains_sim_thermo(sim, &th);
        worst = nan_max(worst, fabs(th.e_membrane - E0) / E0);
    }
    P[0] = P[1] = P[2] = 0;
    for (size_t i = 0; i < 81; i++) {
        grains_sim_get_membrane_vertex(sim, 0, i, &v);
        P[0] += v.mass * v.v.x, P[1] += v.mass * v.v.y, P[2] += v.mass * v.v.z;
    }
    *momentum = nan_max(fabs(P[0] - P0[0]), nan_max(fabs(P[1] - P0[1]), fabs(P[2] - P0[2]))) / most;
    grains_sim_destroy(sim);
    return worst;
}

static void vibration(test_ctx *t)
{
    const grains_integrator which[3] = {GRAINS_INTEGRATOR_EULER, GRAINS_INTEGRATOR_VERLET,
                                        GRAINS_INTEGRATOR_VERLET_IMPROVED};
    const char *names[3] = {"euler", "verlet", "verlet_improved"};
    const double order[3] = {2, 4, 4};
    for (int k = 0; k < 3; k++) {
        double p1, p2, e1 = vibrate(which[k], 80, &p1), e2 = vibrate(which[k], 160, &p2);
        printf("  %s: vibrating sheet, energy error %.3g at T/80, %.3g at T/160 (ratio %.2f); momentum drift %.2g\n",
               names[k], e1, e2, e1 / e2, nan_max(p1, p2));
        CHECK(t, fabs(e1 / e2 / order[k] - 1) < 0.2, /* Euler nears 2 from above: 2.60 (T/40 : T/80), 2.33 (T/80 : T/160) */ "%s: energy conserved to the integrator's order (ratio %g)",
              names[k], e1 / e2);
        CHECK(t, nan_max(p1, p2) < 1e-10, "%s: momentum conserved to round-off over 3200 steps (%g)", names[k],
              nan_max(p1, p2));
    }
}

/* A small fixed square far below, for the membrane to hang from. */
static void anchor(grains_sim *sim, const grains_motion *motion)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    const grains_vec3 c[4] = {{0, 0, -1}, {0.001, 0, -1}, {0.001, 0.001, -1}, {0, 0.001, -1}};
    for (int k = 0; k < 4; k++)
        grains_mesh_add_vertex(m, c[k], &err);
    uint32_t v[4] = {0, 1, 2, 3};
    grains_mesh_add_element(m, 4, v, 0, 0, &err);
    if (grains_sim_add_mesh(sim, m, motion, &err) != GRAINS_OK) {
        fprintf(stderr, "anchor: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(m);
}

static void pin_row(grains_sim *sim, int row, int nx)
{
    grains_error err;
    for (int c = 0; c < nx; c++)
        if (grains_sim_pin_membrane_vertex(sim, 0, (size_t)(row * nx + c), 0, &err) != GRAINS_OK) {
            fprintf(stderr, "pin: %s\n", err.message);
            exit(1);
        }
}

static void hammock(test_ctx *t)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.g = (grains_vec3){0, 0, -9.81};
    const int nx = 9;
    const double s = 1e-3;
    grains_membrane_material mat = rubber;
    mat.gamma = 1, mat.k_el = 1e-6, mat.k_diss = 1e-6;
    double k = 0.8660254037844386 * mat.E * mat.d, m = mat.rho * mat.d * s * s * 0.8660254037844386;
    p.dt = 2 * 3.14159265358979323846 * sqrt(m / k) / 40;
    grains_sim *sim = scene(&p);
    grains_mesh *mesh;
    grains_error err;
    membrane_sheet_mesh(&mesh, nx, nx, s, &err);
    grains_sim_add_membrane(sim, mesh, &mat, &err);
    grains_mesh_destroy(mesh);
    anchor(sim, NULL);
    pin_row(sim, 0, nx);
    pin_row(sim, nx - 1, nx);
    grains_membrane_vertex v, v0;
    grains_sim_get_membrane_vertex(sim, 0, 3, &v0);
    advance(sim, 100000);
    double free_mass = 0;
    for (int i = nx; i < nx * (nx - 1); i++) {
        grains_sim_get_membrane_vertex(sim, 0, (size_t)i, &v);
        free_mass += v.mass;
    }
    grains_wall w;
    grains_sim_get_wall(sim, 0, &w);
    grains_sim_get_membrane_vertex(sim, 0, 3, &v);
    grains_membrane_vertex mid;
    grains_sim_get_membrane_vertex(sim, 0, (size_t)(nx * (nx / 2) + nx / 2), &mid);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    printf("  hammock: sags %.3g m in the middle; the mesh carries %.9g N (free vertices' weight %.9g N), sideways "
           "%.2g N; pinned vertex moved %.2g m\n", -mid.x.z, w.force.z, -free_mass * 9.81,
           hypot(w.force.x, w.force.y), v3n(v.x, v0.x));
    CHECK_REL(t, w.force.z, -free_mass * 9.81, 1e-6, "the mesh carries the hanging membrane's weight");
    CHECK(t, v3n(v.x, v0.x) == 0 && mid.x.z < 0, "the pinned rim stays, the middle sags");
    grains_sim_destroy(sim);
}

/* Row 0 of a sheet pinned to a mesh moving at U: those vertices move by U t. */
static void dragged(test_ctx *t)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_EULER;
    p.dt = 1e-6;
    grains_sim *sim = with_sheet(&p, 5, 1e-3);
    grains_motion move = grains_motion_fixed();
    move.type = GRAINS_MOTION_LINEAR;
    move.velocity = (grains_vec3){0.1, 0.05, 0};
    anchor(sim, &move);
    pin_row(sim, 0, 5);
    grains_membrane_vertex v0, v;
    grains_sim_get_membrane_vertex(sim, 0, 2, &v0);
    advance(sim, 1000);
    grains_sim_get_membrane_vertex(sim, 0, 2, &v);
    double t_mesh = 999 * p.dt; /* Euler places the mesh at the step's start */
    double off = hypot(v.x.x - v0.x.x - 0.1 * t_mesh, v.x.y - v0.x.y - 0.05 * t_mesh);
    printf("  sheet dragged by a pinned rim: the rim moved (%.9g, %.9g) m, the mesh (%.9g, %.9g) m\n",
           v.x.x - v0.x.x, v.x.y - v0.x.y, 0.1 * t_mesh, 0.05 * t_mesh);
    CHECK(t, off < 1e-15 && v.v.x == 0.1 && v.v.y == 0.05, "pinned vertices move with their mesh (%g m off)", off);
    grains_error err;
    CHECK(t, grains_sim_pin_membrane_vertex(sim, 0, 0, 1, &err) == GRAINS_ERR_RANGE && strstr(err.message, "1 meshes"),
          "pinning to a mesh that does not exist is refused (%s)", err.message);
    grains_membrane_vertex bad = v;
    bad.x.z = NAN;
    CHECK(t, grains_sim_set_membrane_vertex(sim, 0, 2, &bad, &err) == GRAINS_ERR_RANGE &&
                 grains_sim_set_membrane_vertex(sim, 1, 0, &v, &err) == GRAINS_ERR_RANGE &&
                 grains_sim_pin_membrane_vertex(sim, 0, 25, 0, &err) == GRAINS_ERR_RANGE,
          "a NaN position, membrane 1 and vertex 25 of 25 are refused (%s)", err.message);
    grains_relax_result rr;
    CHECK(t, grains_sim_relax(sim, 1e-3, 10, &rr, &err) == GRAINS_ERR_RANGE, "relaxation with a membrane is refused (%s)",
          err.message);
    CHECK(t, grains_sim_set_mesh(sim, NULL, &err) == GRAINS_ERR_RANGE && grains_sim_mesh_count(sim) == 1,
          "the meshes cannot be replaced in a run with membranes (%s)", err.message);
    grains_sim_destroy(sim);
}

static grains_params patch_params(int threads)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.R_min = p.R_max = 0.001;
    p.E = 1e7, p.mu_s = 0.3, p.mu_r = 0, p.mu_t = 0;
    p.mesh_material = 0;
    p.threads = threads;
    p.dt = grains_params_default_dt(&p) / 4;
    return p;
}

/* A 9 x 9 sheet of spacing 1 mm in z = 0: a membrane (pinned: every vertex
 * to a fixed anchor) or a rigid mesh of the same triangles. */
static grains_sim *sheet_of(const grains_params *p, int membrane, int pinned, const grains_membrane_material *mat)
{
    grains_sim *sim = scene(p);
    grains_mesh *mesh;
    grains_error err;
    membrane_sheet_mesh(&mesh, 9, 9, 1e-3, &err);
    grains_status st = membrane ? grains_sim_add_membrane(sim, mesh, mat, &err) : grains_sim_add_mesh(sim, mesh, NULL, &err);
    if (st != GRAINS_OK) {
        fprintf(stderr, "sheet_under: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(mesh);
    if (membrane && pinned) {
        anchor(sim, NULL);
        for (size_t i = 0; i < 81; i++)
            grains_sim_pin_membrane_vertex(sim, 0, i, 0, &err);
    }
    return sim;
}

static grains_sim *sheet_under(const grains_params *p, int membrane, int pinned)
{
    return sheet_of(p, membrane, pinned, &rubber);
}

static void pinned_patch(test_ctx *t)
{
    grains_params p = patch_params(1);
    p.g = (grains_vec3){0.5, 0, -9.81};
    grains_sim *a = sheet_under(&p, 1, 1), *b = sheet_under(&p, 0, 0);
    for (int k = 0; k < 2; k++)
        add(k ? b : a, (grains_vec3){0.0041, 0.0033, 0.0012}, (grains_vec3){0.02, 0.01, -0.05}, (grains_vec3){0, 0, 0},
            0.001);
    advance(a, 20000);
    advance(b, 20000);
    grains_wall wa, wb;
    grains_sim_get_wall(a, 0, &wa);
    grains_sim_get_wall(b, 0, &wb);
    grains_particle pa = get(a, 0), pb = get(b, 0);
    printf("  a sphere on a pinned sheet: %s the rigid one (z %.9g m, x %.9g m); the anchor feels %.9g N, the rigid "
           "sheet %.9g N\n", same_particle(pa, pb) ? "bit for bit as on" : "DIFFERENT from", pa.x.z, pa.x.x, wa.force.z,
           wb.force.z);
    CHECK(t, same_particle(pa, pb), "a pinned membrane's patches act as the rigid triangles");
    CHECK(t, v3n(wa.force, wb.force) < 1e-12 * fabs(wb.force.z) && wb.force.z < 0,
          "the mesh holding the pins feels the rigid mesh's force (%g N apart)", v3n(wa.force, wb.force));
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* Momentum and angular momentum (about the origin) of the particles and
 * the membranes' vertices. */
static void momenta(const grains_sim *sim, double P[3], double L[3])
{
    P[0] = P[1] = P[2] = L[0] = L[1] = L[2] = 0;
    grains_membrane_vertex v;
    for (size_t i = 0; i < grains_sim_membrane_vertices(sim, 0); i++) {
        grains_sim_get_membrane_vertex(sim, 0, i, &v);
        grains_vec3 mv = {v.mass * v.v.x, v.mass * v.v.y, v.mass * v.v.z};
        P[0] += mv.x, P[1] += mv.y, P[2] += mv.z;
        L[0] += v.x.y * mv.z - v.x.z * mv.y, L[1] += v.x.z * mv.x - v.x.x * mv.z, L[2] += v.x.x * mv.y - v.x.y * mv.x;
    }
    const grains_params *p = grains_sim_params(sim);
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_particle q = get(sim, i);
        double m = 4.0 / 3 * 3.14159265358979323846 * p->rho * q.R * q.R * q.R, I = 0.4 * m * q.R * q.R;
        grains_vec3 mv = {m * q.v.x, m * q.v.y, m * q.v.z};
        P[0] += mv.x, P[1] += mv.y, P[2] += mv.z;
        L[0] += q.x.y * mv.z - q.x.z * mv.y + I * q.w.x, L[1] += q.x.z * mv.x - q.x.x * mv.z + I * q.w.y;
        L[2] += q.x.x * mv.y - q.x.y * mv.x + I * q.w.z;
    }
}

/* Two spheres coming down on a free sheet of patches (vertex_radius 0) or
 * of vertex spheres; friction mu. */
static grains_sim *struck_sheet(int threads, double vertex_radius, double mu)
{
    grains_params p = patch_params(threads);
    p.mu_s = mu;
    grains_membrane_material mat = rubber;
    mat.vertex_radius = vertex_radius;
    grains_sim *sim = sheet_of(&p, 1, 0, &mat);
    add(sim, (grains_vec3){0.0041, 0.0033, 0.0011 + vertex_radius}, (grains_vec3){0.03, 0.01, -0.2},
        (grains_vec3){0, 50, 0}, 0.001);
    add(sim, (grains_vec3){0.0012, 0.0051, 0.0013 + vertex_radius}, (grains_vec3){0, 0.02, -0.1},
        (grains_vec3){20, 0, 0}, 0.001);
    return sim;
}

static void struck(test_ctx *t, double vertex_radius, double mu)
{
    const char *model = vertex_radius > 0 ? "vertex spheres" : "patches";
    grains_sim *sim = struck_sheet(1, vertex_radius, mu), *two;
    double P0[3], L0[3], P[3], L[3];
    momenta(sim, P0, L0);
    grains_thermo th;
    long touched = 0;
    for (int k = 0; k < 40; k++) {
        advance(sim, 100);
        grains_sim_thermo(sim, &th);
        touched += th.n_contacts > 0;
    }
    momenta(sim, P, L);
    double dP = 0, dL = 0;
    for (int k = 0; k < 3; k++)
        dP = nan_max(dP, fabs(P[k] - P0[k])), dL = nan_max(dL, fabs(L[k] - L0[k]));
    double Pn = sqrt(P0[0] * P0[0] + P0[1] * P0[1] + P0[2] * P0[2]), Ln = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    printf("  two spheres strike a free sheet of %s, mu = %g (in contact %ld of 40 checks): momentum kept to %.2g, "
           "angular momentum to %.2g (relative)\n", model, mu, touched, dP / Pn, dL / Ln);
    CHECK(t, touched > 5, "the spheres touch the sheet of %s", model);
    CHECK(t, dP < 1e-12 * Pn, "contacts with %s keep momentum", model);
    if (vertex_radius == 0 || mu == 0)
        CHECK(t, dL < 1e-11 * Ln, "contacts with %s keep angular momentum (mu = %g)", model, mu);
    two = struck_sheet(2, vertex_radius, mu);
    advance(two, 4000);
    int same = same_particle(get(sim, 0), get(two, 0)) && same_particle(get(sim, 1), get(two, 1));
    grains_membrane_vertex va, vb;
    for (size_t i = 0; i < 81; i++) {
        grains_sim_get_membrane_vertex(sim, 0, i, &va), grains_sim_get_membrane_vertex(two, 0, i, &vb);
        same &= memcmp(&va.x, &vb.x, sizeof va.x) == 0 && memcmp(&va.v, &vb.v, sizeof va.v) == 0;
    }
    CHECK(t, same, "the same bits on 1 and 2 threads (%s)", model);
    grains_sim_destroy(sim);
    grains_sim_destroy(two);
}

/* A sphere at rest, frictionless, overlapping a pinned vertex sphere of
 * radius r by delta straight above it: Hertz's force 4/3 E* sqrt(R_eff)
 * delta^3/2 with R_eff = R r / (R + r) and E* = E / (2 (1 - nu^2)) (both of
 * the run's material), felt by the anchor at the first step. */
static void vertex_sphere_hertz(test_ctx *t)
{
    grains_params p = patch_params(1);
    p.mu_s = 0;
    const double R = 0.001, r = 4e-4, delta = 2e-6;
    grains_membrane_material mat = rubber;
    mat.vertex_radius = r;
    grains_sim *sim = sheet_of(&p, 1, 1, &mat);
    grains_membrane_vertex v;
    grains_sim_get_membrane_vertex(sim, 0, 40, &v); /* the middle of the sheet */
    add(sim, (grains_vec3){v.x.x, v.x.y, R + r - delta}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    step(sim);
    grains_wall w;
    grains_sim_get_wall(sim, 0, &w);
    double R_eff = R * r / (R + r), E_eff = p.E / (2 * (1 - p.nu * p.nu));
    double F = 4.0 / 3.0 * E_eff * sqrt(R_eff) * pow(delta, 1.5);
    /* the sphere may have moved by a dt^2 / 2 before the force is taken */
    double moved = F / mass(&p, R) * p.dt * p.dt / 2, tol = 1.5 * moved / delta + 1e-12;
    printf("  a sphere on a vertex sphere: %.9g N, Hertz %.9g N (%.2g apart, bound %.2g)\n", -w.force.z, F,
           fabs(-w.force.z / F - 1), tol);
    CHECK(t, fabs(-w.force.z / F - 1) <= tol && fabs(w.force.x) + fabs(w.force.y) < 1e-12 * F,
          "a vertex sphere pushes as a sphere of its radius (Hertz with the pair's R_eff)");
    grains_sim_destroy(sim);
}

static void refuses_variational(test_ctx *t)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT;
    p.mu_s = p.mu_r = p.mu_t = 0;
    grains_sim *sim = scene(&p);
    grains_mesh *mesh;
    grains_error err;
    membrane_sheet_mesh(&mesh, 3, 3, 1e-3, &err);
    grains_status s = grains_sim_add_membrane(sim, mesh, &rubber, &err);
    CHECK(t, s == GRAINS_ERR_RANGE && grains_sim_membrane_count(sim) == 0,
          "a membrane with a variational integrator is refused (%s)", s != GRAINS_OK ? err.message : "accepted");
    grains_mesh_destroy(mesh);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    free_fall(&t);
    vibration(&t);
    hammock(&t);
    dragged(&t);
    pinned_patch(&t);
    struck(&t, 0, 0.3);
    vertex_sphere_hertz(&t);
    struck(&t, 4e-4, 0);
    struck(&t, 4e-4, 0.3);
    refuses_variational(&t);
    return test_report(&t, "test_membrane_sim");
}
