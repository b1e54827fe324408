/* Membranes' own forces (membrane paper Sections 2.3-2.4, Eq. 18). Each
 * test states the physical fact it checks:
 * - stretching: a flat sheet of equilateral triangles under uniaxial strain
 *   eps with the network's lateral contraction nu = 1/3 carries the load
 *   E d eps per unit height (Eq. 7), and only its rim feels force;
 * - its undamped vibration conserves energy to the integrator's order
 *   (velocity Verlet: the error falls 4-fold when dt halves);
 * - bending: a flat sheet stays flat; the work to bend a hinge by theta
 *   from its rest angle theta0 is K cos(theta0/2) theta^2 / 4 (1 + O(theta)),
 *   K = k_el |E|^2 / (|N1| + |N2|) (Eq. 11); the four forces of a hinge sum to zero force
 *   and torque (Eq. 16 as printed does not: its net force is measured);
 *   the hinge's dashpot (Eq. 12) only takes energy out;
 * - pressure: a closed membrane inflated from inside settles where its
 *   springs balance the pressure (derived below; exact for an icosahedron);
 * - a generated cylinder is an oriented surface (the paper's case 1 at s = 4 mm:
 *   1170 vertices, Table 3 has 1131);
 *   inflated from inside, every vertex off the rims is pushed straight out
 *   by the same force, and the whole (open at both ends of equal rims)
 *   feels none;
 * - bad triangulations and materials are refused with the rule named. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "membrane/forces.h"
#include "membrane/sheet.h"

#define PI 3.14159265358979323846

static membrane_material rubber(void)
{
    /* the paper's Table 2 membrane, gamma and k_el of Section 3.1 */
    return (membrane_material){.E = 1.25e6, .d = 3e-4, .rho = 1000, .k_el = 1e-3};
}

static membrane build(const grains_mesh *mesh, const membrane_material *mat)
{
    membrane m;
    grains_error err;
    if (membrane_build(&m, mesh, mat, "test", &err) != GRAINS_OK) {
        fprintf(stderr, "membrane_build: %s\n", err.message);
        exit(1);
    }
    return m;
}

static grains_mesh *sheet(int nx, int ny, double s)
{
    grains_mesh *mesh;
    grains_error err;
    if (membrane_sheet_mesh(&mesh, nx, ny, s, &err) != GRAINS_OK) {
        fprintf(stderr, "sheet: %s\n", err.message);
        exit(1);
    }
    return mesh;
}

static vec3 *zeros(size_t n) { return calloc(n, sizeof(vec3)); }

/* Uniaxial strain eps along x with nu = 1/3: the bonds at +-60 degrees keep
 * their length (eps cos^2 60 - eps/3 sin^2 60 = 0), each row's bonds carry
 * k s eps, and rows are s sqrt(3)/2 apart: E d eps per unit height. */
static void stretching(test_ctx *t)
{
    const int nx = 21, ny = 21;
    const double s = 1e-3, eps = 1e-6;
    grains_mesh *mesh = sheet(nx, ny, s);
    membrane_material mat = rubber();
    membrane m = build(mesh, &mat);
    vec3 *x = zeros(m.n_vertices), *v = zeros(m.n_vertices), *f = zeros(m.n_vertices);
    for (size_t i = 0; i < m.n_vertices; i++)
        x[i] = v3(m.x0[i].x * (1 + eps), m.x0[i].y * (1 - eps / 3), 0);
    membrane_forces(&m, x, v, m.mat.pressure, f);
    double k = membrane_spring_constant(&mat), bond = k * s * eps, worst_inside = 0, worst_end = 0;
    for (int r = 0; r < ny; r++)
        for (int c = 0; c < nx; c++) {
            vec3 fi = f[r * nx + c];
            if (c == 0 || c == nx - 1) /* the rim that carries the load: +-k s eps along x */
                worst_end = nan_max(worst_end, fabs(fabs(fi.x) - bond) / bond + fabs(fi.y) / bond);
            else
                worst_inside = nan_max(worst_inside, v3_norm(fi) / bond);
        }
    double per_height = bond / (s * sqrt(3.0) / 2), want = mat.E * mat.d * eps;
    printf("  uniaxial strain %g: load %.9g N/m per unit height (E d eps = %.9g); inside %.2g, rim %.2g of a bond's "
           "force off\n", eps, per_height, want, worst_inside, worst_end);
    CHECK_REL(t, per_height, want, 1e-12, "the sheet's in-plane modulus is E d (Eq. 7)");
    CHECK(t, worst_inside < 1e-5, "inside the sheet no vertex feels force (%g of a bond's)", worst_inside);
    CHECK(t, worst_end < 1e-5, "each row's ends carry k s eps along x (%g off)", worst_end);
    free(x), free(v), free(f);
    membrane_free(&m);
    grains_mesh_destroy(mesh);
}

/* Kinetic plus stretching energy over a free vibration, velocity Verlet. */
static double energy_drift(const membrane *m, double dt, double T)
{
    size_t n = m->n_vertices;
    vec3 *x = zeros(n), *v = zeros(n), *f = zeros(n);
    for (size_t i = 0; i < n; i++) /* a fixed, smooth in-plane and out-of-plane perturbation */
        x[i] = v3_add(m->x0[i], v3(2e-5 * sin(3000.0 * m->x0[i].y), 1e-5 * cos(2000.0 * m->x0[i].x),
                                   3e-5 * sin(1500.0 * (m->x0[i].x + m->x0[i].y))));
    membrane_forces(m, x, v, m->mat.pressure, f);
    double E0 = membrane_stretch_energy(m, x), worst = 0;
    for (long step = 0, n_steps = lround(T / dt); step < n_steps; step++) {
        for (size_t i = 0; i < n; i++) {
            v[i] = v3_axpy(v[i], dt / (2 * m->mass[i]), f[i]);
            x[i] = v3_axpy(x[i], dt, v[i]);
            f[i] = v3(0, 0, 0);
        }
        membrane_forces(m, x, v, m->mat.pressure, f);
        double E = membrane_stretch_energy(m, x);
        for (size_t i = 0; i < n; i++) {
            v[i] = v3_axpy(v[i], dt / (2 * m->mass[i]), f[i]);
            E += 0.5 * m->mass[i] * v3_dot(v[i], v[i]);
        }
        worst = nan_max(worst, fabs(E - E0) / E0);
    }
    free(x), free(v), free(f);
    return worst;
}

static void vibration(test_ctx *t)
{
    grains_mesh *mesh = sheet(9, 9, 1e-3);
    membrane_material mat = rubber();
    mat.k_el = 0; /* the springs alone have a potential */
    membrane m = build(mesh, &mat);
    double k = membrane_spring_constant(&mat), period = 2 * PI * sqrt(m.mass[40] / k);
    double e1 = energy_drift(&m, period / 40, 20 * period), e2 = energy_drift(&m, period / 80, 20 * period);
    printf("  undamped vibration, 20 periods: energy error %.3g at dt = T/40, %.3g at T/80 (ratio %.2f)\n", e1, e2,
           e1 / e2);
    CHECK(t, e1 < 2e-2 && e1 / e2 > 3.5 && e1 / e2 < 4.5,
          "energy is conserved to second order (errors %g, %g, ratio %g)", e1, e2, e1 / e2);
    membrane_free(&m);
    grains_mesh_destroy(mesh);
}

/* Four vertices: wings x1 (index 0) and x2 (1) on the edge x3 (2) -> x4 (3). */
static grains_mesh *hinge_mesh(double rest_angle)
{
    grains_mesh *mesh;
    grains_error err;
    grains_mesh_create(&mesh, &err);
    grains_mesh_add_vertex(mesh, (grains_vec3){0.5, 0.8 * cos(rest_angle), 0.8 * sin(rest_angle)}, &err);
    grains_mesh_add_vertex(mesh, (grains_vec3){0.4, -0.9, 0}, &err);
    grains_mesh_add_vertex(mesh, (grains_vec3){0, 0, 0}, &err);
    grains_mesh_add_vertex(mesh, (grains_vec3){1, 0, 0}, &err);
    uint32_t a[3] = {2, 3, 0}, b[3] = {3, 2, 1};
    grains_mesh_add_element(mesh, 3, a, 0, 0, &err);
    grains_mesh_add_element(mesh, 3, b, 0, 0, &err);
    return mesh;
}

/* Work done against the hinge turning wing 1 about the edge from its rest
 * angle by theta, in small steps (midpoint rule). */
static double bending_work(const membrane *m, double theta, int steps)
{
    vec3 x[4], v[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    memcpy(x, m->x0, sizeof x);
    double r = hypot(m->x0[0].y, m->x0[0].z), a0 = atan2(m->x0[0].z, m->x0[0].y), W = 0;
    for (int k = 0; k < steps; k++) {
        double a = a0 + theta * (k + 0.5) / steps, da = theta / steps;
        vec3 f[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        x[0] = v3(m->x0[0].x, r * cos(a), r * sin(a));
        membrane_forces(m, x, v, m->mat.pressure, f);
        W -= v3_dot(f[0], v3(0, -r * sin(a) * da, r * cos(a) * da));
    }
    return W;
}

static void bending(test_ctx *t)
{
    membrane_material mat = rubber();
    for (int bent = 0; bent < 2; bent++) {
        const double th0 = bent ? 0.5 : 0;
        grains_mesh *mesh = hinge_mesh(th0);
        membrane m = build(mesh, &mat);
        hinge_state h = membrane_hinge_state(&m.hinges[0], m.x0);
        double K = mat.k_el * h.edge * h.edge / h.n_sum, th = 0.01;
        /* turning the wing about the edge keeps every edge's length: only the hinge works */
        double w1 = bending_work(&m, th, 2000), w2 = bending_work(&m, 2 * th, 4000), w_back = bending_work(&m, -th, 2000);
        double c = cos(th0 / 2), sn = sin(th0 / 2);
        double exact = K * (2 * c - 2 * cos((th0 + th) / 2) - th * sn), back = K * (2 * c - 2 * cos((th0 - th) / 2) + th * sn);
        printf("  hinge at rest angle %.1f rad: work to bend by +-%g = %.9f, %.9f of K cos(theta0/2) theta^2/4 "
               "(Eq. 11 integrated: %.9f, %.9f); by 2 theta: %.6f times more\n", th0, th, w1 / (K * c * th * th / 4),
               w_back / (K * c * th * th / 4), exact / (K * c * th * th / 4), back / (K * c * th * th / 4), w2 / w1);
        CHECK(t, fabs(w1 / exact - 1) < 1e-6 && fabs(w_back / back - 1) < 1e-6,
              "the hinge's work is Eq. 11 integrated, on either side of the rest angle");
        CHECK(t, fabs(w1 / (K * c * th * th / 4) - 1) < th && fabs(w2 / w1 - 4) < 4 * th,
              "the bending energy rises as (theta - theta0)^2 for small angles (ratio %g)", w2 / w1);
        membrane_free(&m);
        grains_mesh_destroy(mesh);
    }
}

/* A bent, moving hinge: net force and torque of its four forces. */
static void hinge_balance(test_ctx *t)
{
    membrane_material mat = rubber();
    mat.k_diss = 1e-4;
    grains_mesh *mesh = hinge_mesh(0.3);
    membrane m = build(mesh, &mat);
    vec3 x[4], v[4], f[4];
    const vec3 kick[4] = {{0.01, 0.2, -0.1}, {-0.05, 0.03, 0.3}, {0.02, -0.04, 0.01}, {0.0, 0.05, -0.02}};
    for (int k = 0; k < 4; k++) {
        x[k] = v3_add(m.x0[k], v3_scale(0.1, kick[(k + 1) % 4]));
        v[k] = kick[k];
        f[k] = v3(0, 0, 0);
    }
    for (size_t e = 0; e < m.n_edges; e++) /* the hinge alone */
        m.edges[e].rest = v3_norm(v3_sub(x[m.edges[e].i], x[m.edges[e].j]));
    membrane_forces(&m, x, v, m.mat.pressure, f);
    vec3 net = v3(0, 0, 0), torque = v3(0, 0, 0);
    double scale = 0, power = 0;
    for (int k = 0; k < 4; k++) {
        net = v3_add(net, f[k]);
        torque = v3_add(torque, v3_cross(x[k], f[k]));
        scale = nan_max(scale, v3_norm(f[k]));
    }
    hinge_state h = membrane_hinge_state(&m.hinges[0], x);
    vec3 printed = v3_sub(v3_add(v3_add(h.u[0], h.u[1]), h.u[2]), h.u[3]); /* Eq. 16 as printed: -u_4 */
    double el = mat.k_el * h.edge * h.edge / h.n_sum * (h.sin_half - m.hinges[0].sin_half_rest);
    printf("  hinge forces: net %.2g, torque %.2g (of %.3g N); with Eq. 16 as printed the net elastic force is "
           "%.3g N\n", v3_norm(net), v3_norm(torque), scale, fabs(el) * v3_norm(printed));
    CHECK(t, v3_norm(net) < 1e-12 * scale && v3_norm(torque) < 1e-12 * scale, /* round-off: 3e-16 of scale */
          "a hinge's forces sum to zero force and torque");
    CHECK(t, fabs(el) * v3_norm(printed) > 0.1 * scale, "Eq. 16 as printed leaves a net force");
    /* the dashpot's power: its forces alone (no elastic part) against v */
    mat.k_el = 0;
    membrane d = build(mesh, &mat);
    for (size_t e = 0; e < d.n_edges; e++)
        d.edges[e].rest = v3_norm(v3_sub(x[d.edges[e].i], x[d.edges[e].j]));
    vec3 fd[4] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    membrane_forces(&d, x, v, d.mat.pressure, fd);
    for (int k = 0; k < 4; k++)
        power += v3_dot(fd[k], v[k]);
    CHECK(t, power < 0, "the hinge's dashpot takes energy out (power %g W)", power);
    membrane_free(&d);
    membrane_free(&m);
    grains_mesh_destroy(mesh);
}

static void flat_stays_flat(test_ctx *t)
{
    grains_mesh *mesh = sheet(11, 11, 1e-3);
    membrane_material mat = rubber();
    mat.k_diss = 1e-4;
    membrane m = build(mesh, &mat);
    vec3 *x = zeros(m.n_vertices), *v = zeros(m.n_vertices), *f = zeros(m.n_vertices);
    double worst = 0, scale = 0;
    for (size_t i = 0; i < m.n_vertices; i++) {
        x[i] = v3_add(m.x0[i], v3(1e-4 * sin(7.0 * (double)i), 1e-4 * cos(5.0 * (double)i), 0));
        v[i] = v3(0.01 * cos(3.0 * (double)i), 0.02 * sin(2.0 * (double)i), 0);
    }
    membrane_forces(&m, x, v, m.mat.pressure, f);
    for (size_t i = 0; i < m.n_vertices; i++) {
        worst = nan_max(worst, fabs(f[i].z));
        scale = nan_max(scale, v3_norm(f[i]));
    }
    CHECK(t, worst == 0 && scale > 0, "a flat sheet stretched in its plane feels no force out of it (%g of %g N)",
          worst, scale);
    free(x), free(v), free(f);
    membrane_free(&m);
    grains_mesh_destroy(mesh);
}

/* The regular icosahedron of edge a: 12 vertices, 30 edges, 20 faces
 * counter-clockwise seen from outside. */
static grains_mesh *icosahedron(double a)
{
    const double p = (1 + sqrt(5.0)) / 2, s = a / 2;
    const double v[12][3] = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0}, {0, -1, p}, {0, 1, p},
                             {0, -1, -p}, {0, 1, -p}, {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
    const uint32_t f[20][3] = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                               {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
                               {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
    grains_mesh *mesh;
    grains_error err;
    grains_mesh_create(&mesh, &err);
    for (int k = 0; k < 12; k++)
        grains_mesh_add_vertex(mesh, (grains_vec3){s * v[k][0], s * v[k][1], s * v[k][2]}, &err);
    for (int k = 0; k < 20; k++)
        grains_mesh_add_element(mesh, 3, f[k], 0, 0, &err);
    return mesh;
}

/* Inflated by -sigma (a pressure from inside), the icosahedron grows
 * homothetically by symmetry. Virtual work of the mode x -> lambda x0:
 * the pressure's sum_i f_i . x_i = sigma sum_f A_f n_f . c_f = 3 sigma V
 * (divergence theorem), so sigma 3 lambda^2 V0 = 30 k a^2 (lambda - 1),
 * the springs' dU/dlambda: lambda solves 3 sigma V0 lambda^2 - 30 k a^2
 * lambda + 30 k a^2 = 0 (the smaller root: the larger is unstable). */
static void inflated(test_ctx *t)
{
    const double a = 0.01;
    grains_mesh *mesh = icosahedron(a);
    membrane_material mat = rubber();
    mat.k_el = 0;
    double k = membrane_spring_constant(&mat), V0 = 5.0 / 12 * (3 + sqrt(5.0)) * a * a * a, sigma = 0.2 * k / a;
    mat.pressure = -sigma;
    membrane m = build(mesh, &mat);
    double A = 3 * sigma * V0, B = 30 * k * a * a, lambda = (B - sqrt(B * B - 4 * A * B)) / (2 * A);
    double worst[3] = {0, 0, 0}, radial[3] = {0, 0, 0};
    const double at[3] = {lambda, lambda * (1 - 1e-3), lambda * (1 + 1e-3)};
    for (int c = 0; c < 3; c++) {
        vec3 x[12], v[12], f[12];
        for (int i = 0; i < 12; i++)
            x[i] = v3_scale(at[c], m.x0[i]), v[i] = f[i] = v3(0, 0, 0);
        membrane_forces(&m, x, v, m.mat.pressure, f);
        for (int i = 0; i < 12; i++) {
            worst[c] = nan_max(worst[c], v3_norm(f[i]) / (sigma * a * a));
            radial[c] += v3_dot(f[i], x[i]) / v3_norm(x[i]) / 12;
        }
    }
    printf("  icosahedron inflated by %g Pa: rests at lambda = %.9f (force %.2g of sigma a^2); 0.1%% smaller: "
           "pushed out (%.3g N), larger: pulled in (%.3g N)\n", sigma, lambda, worst[0], radial[1], radial[2]);
    CHECK(t, worst[0] < 1e-12, "at the derived radius every vertex is in balance (%g)", worst[0]);
    CHECK(t, radial[1] > 0 && radial[2] < 0, "the balance is stable");
    membrane_free(&m);
    grains_mesh_destroy(mesh);
}

static void cylinder(test_ctx *t)
{
    grains_mesh *mesh;
    grains_error err;
    size_t n_ring;
    const double Rc = 0.025, H = 0.1, s = 0.004;
    if (membrane_cylinder_mesh(&mesh, &n_ring, Rc, H, s, &err) != GRAINS_OK) {
        fprintf(stderr, "cylinder: %s\n", err.message);
        exit(1);
    }
    membrane_material mat = rubber();
    mat.pressure = -1e5;
    membrane m = build(mesh, &mat);
    size_t rings = m.n_vertices / n_ring;
    int outward = 1;
    for (size_t k = 0; k < m.n_triangles; k++) {
        const uint32_t *v = m.triangles[k].v;
        vec3 a = m.x0[v[0]], N = v3_cross(v3_sub(m.x0[v[1]], a), v3_sub(m.x0[v[2]], a));
        vec3 c = v3_scale(1.0 / 3, v3_add(v3_add(a, m.x0[v[1]]), m.x0[v[2]]));
        outward &= v3_dot(N, v3(c.x, c.y, 0)) > 0;
    }
    CHECK(t, outward && m.n_edges == 3 * n_ring * rings - 2 * n_ring && m.n_hinges == m.n_edges - 2 * n_ring,
          "a cylinder of %zu rings of %zu: every normal points out, every inner edge a hinge", rings, n_ring);
    vec3 *v = zeros(m.n_vertices), *f = zeros(m.n_vertices), net = v3(0, 0, 0);
    membrane_forces(&m, m.x0, v, m.mat.pressure, f);
    double lo = INFINITY, hi = 0, off = 0;
    for (size_t i = 0; i < m.n_vertices; i++) {
        net = v3_add(net, f[i]);
        if (i < n_ring || i >= m.n_vertices - n_ring)
            continue;
        vec3 r = v3(m.x0[i].x, m.x0[i].y, 0);
        double out = v3_dot(f[i], r) / v3_norm(r);
        lo = nan_min(lo, out), hi = nan_max(hi, out);
        off = nan_max(off, v3_norm(v3_sub(f[i], v3_scale(out / v3_norm(r), r))) / out);
    }
    printf("  cylinder R %g H %g s %g: %zu rings of %zu; inflated by 1e5 Pa, inner vertices pushed out by %.6g N "
           "(spread %.2g, sideways %.2g); net %.2g N\n", Rc, H, s, rings, n_ring, hi, (hi - lo) / hi, off, v3_norm(net));
    CHECK(t, lo > 0 && (hi - lo) / hi < 1e-12 && off < 1e-12, "inner vertices are pushed straight out, all alike");
    CHECK(t, v3_norm(net) < 1e-12 * hi * (double)m.n_vertices, "the open cylinder feels no net pressure force");
    free(v), free(f);
    membrane_free(&m);
    grains_mesh_destroy(mesh);
}

static void refuses(test_ctx *t, const char *what, grains_mesh *mesh, membrane_material mat, const char *needle)
{
    membrane m;
    grains_error err;
    grains_status s = membrane_build(&m, mesh, &mat, "test", &err);
    CHECK(t, s != GRAINS_OK && strstr(err.message, needle), "%s is refused (%s)", what,
          s != GRAINS_OK ? err.message : "accepted");
    grains_mesh_destroy(mesh);
}

static grains_mesh *triangles(const uint32_t (*tri)[3], int n, int n_vertices)
{
    grains_mesh *mesh;
    grains_error err;
    grains_mesh_create(&mesh, &err);
    for (int k = 0; k < n_vertices; k++)
        grains_mesh_add_vertex(mesh, (grains_vec3){cos(k), sin(k), 0.1 * k * k}, &err);
    for (int k = 0; k < n; k++)
        grains_mesh_add_element(mesh, 3, tri[k], 0, 0, &err);
    return mesh;
}

static void bad_input(test_ctx *t)
{
    const uint32_t three_on_edge[3][3] = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
    const uint32_t misoriented[2][3] = {{0, 1, 2}, {0, 1, 3}};
    const uint32_t bow_tie[2][3] = {{0, 1, 2}, {0, 3, 4}};
    membrane_material ok = rubber(), thin = rubber();
    thin.d = -3e-4;
    refuses(t, "an edge of three triangles", triangles(three_on_edge, 3, 5), ok, "shared by 3 triangles");
    refuses(t, "an unoriented surface", triangles(misoriented, 2, 4), ok, "the same way");
    refuses(t, "sheets touching at a vertex", triangles(bow_tie, 2, 5), ok, "more than one fan");
    refuses(t, "a negative thickness", sheet(3, 3, 1e-3), thin, "d = -0.0003");
    grains_mesh *quad;
    grains_error err;
    grains_mesh_create(&quad, &err);
    for (int k = 0; k < 4; k++)
        grains_mesh_add_vertex(quad, (grains_vec3){k % 2, k / 2, 0}, &err);
    const uint32_t q[4] = {0, 1, 3, 2};
    grains_mesh_add_element(quad, 4, q, 0, 0, &err);
    refuses(t, "a parallelogram", quad, ok, "made of triangles");
}

int main(void)
{
    test_ctx t = {0, 0};
    stretching(&t);
    vibration(&t);
    bending(&t);
    hinge_balance(&t);
    flat_stays_flat(&t);
    inflated(&t);
    cylinder(&t);
    bad_input(&t);
    return test_report(&t, "test_membrane");
}
