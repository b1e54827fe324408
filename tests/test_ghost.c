/* Ghost-free contacts with triangulated meshes (membrane paper Table 1):
 * a flat floor made of triangles must push a sphere exactly as one flat
 * rectangle does, wherever the sphere touches it:
 * - at rest on the shared edge of two coplanar triangles, and on a vertex
 *   shared by six, a sphere sits at the height it has on one rectangle
 *   (before: two contacts on the edge, 0.63x the overlap);
 * - rolling across a floor of many triangles it follows the trajectory it
 *   follows on one rectangle, to round-off: a contact that slides across a
 *   seam keeps its springs;
 * - in a concave groove the sphere keeps both of its face contacts;
 * - compat = "tinydem" keeps every contact, as TinyDEM does. */
#include "check.h"
#include "support.h"

static grains_mesh *new_mesh(void)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    return m;
}

static void vertex(grains_mesh *m, double x, double y, double z)
{
    grains_error err;
    grains_mesh_add_vertex(m, (grains_vec3){x, y, z}, &err);
}

static void element(grains_mesh *m, int n, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    grains_error err;
    uint32_t v[4] = {a, b, c, d};
    if (grains_mesh_add_element(m, n, v, 0, 0, &err) != GRAINS_OK) {
        fprintf(stderr, "element: %s\n", err.message);
        exit(1);
    }
}

/* The floor z = 0 over [-L, L]^2 as one rectangle. */
static grains_mesh *rectangle(double L)
{
    grains_mesh *m = new_mesh();
    vertex(m, -L, -L, 0), vertex(m, L, -L, 0), vertex(m, L, L, 0), vertex(m, -L, L, 0);
    element(m, 4, 0, 1, 2, 3);
    return m;
}

/* The same floor as k x k squares of two triangles each, every square cut
 * along the same diagonal. */
static grains_mesh *triangles(double L, int k)
{
    grains_mesh *m = new_mesh();
    for (int b = 0; b <= k; b++)
        for (int a = 0; a <= k; a++)
            vertex(m, -L + 2 * L * a / k, -L + 2 * L * b / k, 0);
    for (int b = 0; b < k; b++)
        for (int a = 0; a < k; a++) {
            uint32_t v0 = (uint32_t)(b * (k + 1) + a), v1 = v0 + 1, v3 = v0 + (uint32_t)k + 1, v2 = v3 + 1;
            element(m, 3, v0, v1, v2, 0);
            element(m, 3, v0, v2, v3, 0);
        }
    return m;
}

/* Six triangles around the origin (a hexagon of radius L). */
static grains_mesh *fan(double L)
{
    grains_mesh *m = new_mesh();
    vertex(m, 0, 0, 0);
    for (int k = 0; k < 6; k++)
        vertex(m, L * cos(k * 3.14159265358979323846 / 3), L * sin(k * 3.14159265358979323846 / 3), 0);
    for (uint32_t k = 0; k < 6; k++)
        element(m, 3, 0, 1 + k, 1 + (k + 1) % 6, 0);
    return m;
}

static grains_params floor_params(grains_compat compat)
{
    grains_params p = scene_params();
    p.compat = compat;
    p.R_min = p.R_max = 0.01;
    p.E = 1e7;
    p.e_n = 0.3;
    p.mu_s = 0.4, p.mu_r = 0.05;
    p.g = (grains_vec3){0, 0, -9.81};
    return p;
}

/* A sphere set down at (x, y) on the floor, after n steps. */
static grains_particle settle_on(grains_mesh *m, grains_compat compat, grains_vec3 x, grains_vec3 v, long n,
                                 size_t *contacts)
{
    grains_params p = floor_params(compat);
    grains_sim *sim = scene(&p);
    grains_error err;
    if (grains_sim_add_mesh(sim, m, NULL, &err) != GRAINS_OK) {
        fprintf(stderr, "add_mesh: %s\n", err.message);
        exit(1);
    }
    add(sim, x, v, (grains_vec3){0, 0, 0}, 0.01);
    grains_sim_advance(sim, n, &err);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    *contacts = th.n_contacts;
    grains_particle s = get(sim, 0);
    grains_sim_destroy(sim);
    return s;
}

static void at_rest(test_ctx *t)
{
    grains_mesh *rect = rectangle(0.1), *tri = triangles(0.1, 2), *six = fan(0.1);
    size_t c_rect, c_edge, c_vertex, c_old;
    const grains_vec3 diagonal = {0.03, 0.03, 0.01}, none = {0, 0, 0}; /* on the diagonal of square (1, 1) */
    double z_rect = settle_on(rect, GRAINS_COMPAT_NONE, diagonal, none, 20000, &c_rect).x.z;
    double z_edge = settle_on(tri, GRAINS_COMPAT_NONE, diagonal, none, 20000, &c_edge).x.z;
    double z_vertex = settle_on(six, GRAINS_COMPAT_NONE, (grains_vec3){0, 0, 0.01}, none, 20000, &c_vertex).x.z;
    double z_old = settle_on(tri, GRAINS_COMPAT_TINYDEM, diagonal, none, 20000, &c_old).x.z;
    double d_rect = 0.01 - z_rect;
    printf("  resting overlap: rectangle %.6g m; shared edge %.6g m (%zu contact); vertex of six %.6g m (%zu); "
           "tinydem on the edge %.6g m (%zu contacts, %.2fx)\n", d_rect, 0.01 - z_edge, c_edge, 0.01 - z_vertex,
           c_vertex, 0.01 - z_old, c_old, (0.01 - z_old) / d_rect);
    CHECK_REL(t, 0.01 - z_edge, d_rect, 1e-9, "on the shared edge of two triangles: the overlap on one rectangle");
    CHECK(t, c_edge == 1, "one contact on the shared edge (%zu)", c_edge);
    CHECK_REL(t, 0.01 - z_vertex, d_rect, 1e-9, "on a vertex of six triangles: the overlap on one rectangle");
    CHECK(t, c_vertex == 1, "one contact on the shared vertex (%zu)", c_vertex);
    CHECK(t, c_old == 2 && (0.01 - z_old) < 0.8 * d_rect, "compat = tinydem keeps both contacts (%zu)", c_old);
    grains_mesh_destroy(rect);
    grains_mesh_destroy(tri);
    grains_mesh_destroy(six);
}

/* Launched sliding at 0.5 m/s across a floor of 10 x 10 squares (200
 * triangles): it slides, starts to roll, and crosses a dozen seams. */
static void rolling(test_ctx *t)
{
    grains_mesh *rect = rectangle(0.5), *tri = triangles(0.5, 10);
    size_t c;
    const grains_vec3 x = {-0.4, -0.113, 0.00999}, v = {0.8, 0.3, 0};
    grains_particle a = settle_on(rect, GRAINS_COMPAT_NONE, x, v, 10000, &c);
    grains_particle b = settle_on(tri, GRAINS_COMPAT_NONE, x, v, 10000, &c);
    double dx = fabs(a.x.x - b.x.x) + fabs(a.x.y - b.x.y) + fabs(a.x.z - b.x.z);
    double dw = fabs(a.w.x - b.w.x) + fabs(a.w.y - b.w.y) + fabs(a.w.z - b.w.z);
    printf("  rolled from (%.3f, %.3f) to (%.4f, %.4f) at %.4f m/s: triangles vs rectangle |dx| %.3g m, |dw| %.3g "
           "rad/s\n", x.x, x.y, a.x.x, a.x.y, a.v.x, dx, dw);
    CHECK(t, a.x.x > 0 && a.x.y > 0, "the sphere crossed 4 + 2 seams of squares and their diagonals (at %g, %g)", a.x.x,
          a.x.y);
    CHECK(t, dx < 1e-12 && dw < 1e-9, "across triangles as across one rectangle (|dx| %.3g m, |dw| %.3g rad/s)", dx,
          dw);
    grains_mesh_destroy(rect);
    grains_mesh_destroy(tri);
}

/* A groove: two triangles meeting at 90 degrees along the x axis. */
static void groove(test_ctx *t)
{
    grains_mesh *m = new_mesh();
    vertex(m, -0.1, 0, 0), vertex(m, 0.1, 0, 0), vertex(m, 0.1, 0.1, 0.1), vertex(m, -0.1, 0.1, 0.1),
        vertex(m, 0.1, -0.1, 0.1), vertex(m, -0.1, -0.1, 0.1);
    element(m, 3, 0, 1, 2, 0);
    element(m, 3, 0, 2, 3, 0);
    element(m, 3, 0, 4, 1, 0);
    element(m, 3, 0, 5, 4, 0);
    size_t c;
    grains_particle s = settle_on(m, GRAINS_COMPAT_NONE, (grains_vec3){0.01, 0.0, 0.02}, (grains_vec3){0, 0, 0},
                                  20000, &c);
    printf("  in a 90-degree groove: %zu contacts, centre at z = %.6g\n", c, s.x.z);
    CHECK(t, c == 2, "a concave edge keeps both face contacts (%zu)", c);
    grains_mesh_destroy(m);
}

/* The variational integrators and relaxation select contacts the same way:
 * a frictionless sphere relaxed onto the shared edge of two triangles, or a
 * vertex of six, rests at the overlap it has on one rectangle, and the floor
 * carries its weight once. */
static double relaxed_on(grains_mesh *m, grains_vec3 x, double *load)
{
    grains_params p = floor_params(GRAINS_COMPAT_NONE);
    p.mu_s = p.mu_r = p.mu_t = 0;
    p.integrator = GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT;
    grains_sim *sim = scene(&p);
    grains_error err;
    grains_relax_result r;
    if (grains_sim_add_mesh(sim, m, NULL, &err) != GRAINS_OK) {
        fprintf(stderr, "add_mesh: %s\n", err.message);
        exit(1);
    }
    add(sim, x, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.01);
    if (grains_sim_relax(sim, 1e-9, 10000, &r, &err) != GRAINS_OK || !r.converged) {
        fprintf(stderr, "relax: %s\n", err.message);
        exit(1);
    }
    grains_wall w;
    grains_sim_get_wall(sim, 0, &w);
    *load = -w.force.z;
    double z = get(sim, 0).x.z;
    grains_sim_destroy(sim);
    return 0.01 - z;
}

static void relaxed(test_ctx *t)
{
    grains_mesh *rect = rectangle(0.1), *tri = triangles(0.1, 2), *six = fan(0.1);
    const double weight = 4 * 3.14159265358979323846 / 3 * 1e3 * 1e-6 * 9.81;
    double load_rect, load_edge, load_vertex;
    double d_rect = relaxed_on(rect, (grains_vec3){0.03, 0.03, 0.0099}, &load_rect);
    double d_edge = relaxed_on(tri, (grains_vec3){0.03, 0.03, 0.0099}, &load_edge);
    double d_vertex = relaxed_on(six, (grains_vec3){0, 0, 0.0099}, &load_vertex);
    printf("  relaxed (variational_midpoint): overlap %.9g m on a rectangle, %.9g on an edge, %.9g on a vertex of six; "
           "loads %.6g %.6g %.6g N (weight %.6g)\n", d_rect, d_edge, d_vertex, load_rect, load_edge, load_vertex,
           weight);
    /* relaxed to an imbalance of 1e-9 of the weight: Hertz's overlap ~ F^(2/3) */
    CHECK_REL(t, d_edge, d_rect, 1e-8, "relaxed on a shared edge: the overlap on one rectangle");
    CHECK_REL(t, d_vertex, d_rect, 1e-8, "relaxed on a vertex of six: the overlap on one rectangle");
    CHECK_REL(t, load_edge, weight, 1e-8, "the floor carries the weight once");
    grains_mesh_destroy(rect);
    grains_mesh_destroy(tri);
    grains_mesh_destroy(six);
}

int main(void)
{
    test_ctx t = {0, 0};
    at_rest(&t);
    relaxed(&t);
    rolling(&t);
    groove(&t);
    return test_report(&t, "test_ghost");
}
