/* Mesh primitives (TinyDEM Section 3.3): closest points, and a sphere resting
 * on a vertex, an edge, a triangle face and a rectangle, each with its own
 * radius, at the height where the Hertz wall force balances its weight. */
#include "check.h"
#include "io/mesh_drawing.h"
#include "geometry/primitives.h"
#include "support.h"

#define PI 3.14159265358979323846

static void check_point(test_ctx *t, vec3 got, vec3 want, const char *what)
{
    CHECK(t, v3_norm(v3_sub(got, want)) < 1e-15, "%s: got (%.17g, %.17g, %.17g), want (%g, %g, %g)", what, got.x,
          got.y, got.z, want.x, want.y, want.z);
}

/* closest point = p - offset */
static vec3 closest_seg(vec3 p, vec3 a, vec3 b) { return v3_sub(p, grains_offset_to_segment(p, a, b)); }
static vec3 closest_tri(vec3 p, vec3 a, vec3 b, vec3 c) { return v3_sub(p, grains_offset_to_triangle(p, a, b, c)); }
static vec3 closest_par(vec3 p, vec3 a, vec3 b, vec3 c) { return v3_sub(p, grains_offset_to_parallelogram(p, a, b, c)); }

static void closest_points(test_ctx *t)
{
    vec3 a = {0, 0, 0}, b = {1, 0, 0}, c = {0, 1, 0};
    check_point(t, closest_seg(v3(0.25, 3, -2), a, b), v3(0.25, 0, 0), "segment interior");
    check_point(t, closest_seg(v3(-1, 1, 0), a, b), a, "segment end a");
    check_point(t, closest_seg(v3(2, 1, 0), a, b), b, "segment end b");
    check_point(t, closest_tri(v3(0.25, 0.25, 5), a, b, c), v3(0.25, 0.25, 0), "triangle face");
    check_point(t, closest_tri(v3(-1, -1, 1), a, b, c), a, "triangle vertex a");
    check_point(t, closest_tri(v3(2, -0.5, 0), a, b, c), b, "triangle vertex b");
    check_point(t, closest_tri(v3(-0.5, 2, 0), a, b, c), c, "triangle vertex c");
    check_point(t, closest_tri(v3(0.5, -1, 1), a, b, c), v3(0.5, 0, 0), "triangle edge ab");
    check_point(t, closest_tri(v3(-1, 0.5, 1), a, b, c), v3(0, 0.5, 0), "triangle edge ac");
    check_point(t, closest_tri(v3(1, 1, 0), a, b, c), v3(0.5, 0.5, 0), "triangle edge bc");
    /* rectangle a, b, c (+ implied b + c - a) */
    check_point(t, closest_par(v3(0.3, 0.6, -4), a, b, c), v3(0.3, 0.6, 0), "rectangle face");
    check_point(t, closest_par(v3(2, 2, 1), a, b, c), v3(1, 1, 0), "rectangle implied corner");
    check_point(t, closest_par(v3(0.5, 3, 1), a, b, c), v3(0.5, 1, 0), "rectangle far edge");
    /* a sheared parallelogram: (0,0) (1,0) (0.5,1) (1.5,1); the point (0,1)
     * projects outside, closest on the edge from (0,0) to (0.5,1). */
    vec3 s = {0.5, 1, 0};
    vec3 want = v3_scale(v3_dot(v3(0, 1, 0), s) / v3_dot(s, s), s);
    check_point(t, closest_par(v3(0, 1, 0.7), a, b, s), want, "parallelogram slanted edge");
}

/* One element of each kind under a sphere; returns the resting height. */
static double rest_on(int kind, double R_e)
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.eta = 0.5; /* drag only speeds up the approach to rest */
    p.R_mesh[0] = R_e;
    grains_sim *sim = scene(&p);
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_vec3 v[4] = {{-0.05, -0.05, 0}, {0.05, -0.05, 0}, {-0.05, 0.05, 0}, {0, 0, 0}};
    uint32_t idx[4] = {0, 1, 2, 3};
    if (kind == 1) /* a vertex */
        grains_mesh_add_vertex(m, v[3], &err), idx[0] = 0;
    else if (kind == 2) /* an edge through the origin along x */
        grains_mesh_add_vertex(m, v3(-0.05, 0, 0), &err), grains_mesh_add_vertex(m, v3(0.05, 0, 0), &err);
    else if (kind == 4) /* rectangle: vertices 0, 1, 3 span it, v2 = v1 + v3 - v0 */
        grains_mesh_add_vertex(m, v[0], &err), grains_mesh_add_vertex(m, v[1], &err),
            grains_mesh_add_vertex(m, v3(0.05, 0.05, 0), &err), grains_mesh_add_vertex(m, v[2], &err);
    else
        for (int k = 0; k < 3; k++)
            grains_mesh_add_vertex(m, v[k], &err);
    grains_mesh_add_element(m, kind == 3 ? 3 : kind, idx, 0, R_e, &err);
    grains_sim_set_mesh(sim, m, &err);
    grains_mesh_destroy(m);
    const double R = 4.1e-3;
    add(sim, (grains_vec3){-0.01 * (kind == 3), -0.02 * (kind == 3), R + R_e + 1e-4}, (grains_vec3){0, 0, 0},
        (grains_vec3){0, 0, 0}, R);
    advance(sim, (long)(0.3 / grains_sim_params(sim)->dt));
    double z = get(sim, 0).x.z;
    grains_sim_destroy(sim);
    return z;
}

/* Wall convention R* = R_i, E* = E/(1-nu^2): m g = 4/3 E* sqrt(R) delta^3/2. */
static void resting(test_ctx *t)
{
    grains_params p = scene_params();
    const double R = 4.1e-3, m = 4.0 / 3.0 * PI * p.rho * R * R * R;
    double E_eff = p.E / (1 - p.nu * p.nu);
    double delta = pow(m * 9.81 / (4.0 / 3.0 * E_eff * sqrt(R)), 2.0 / 3.0);
    const char *names[5] = {"", "vertex", "edge", "triangle", "rectangle"};
    for (int kind = 1; kind <= 4; kind++)
        for (int r = 0; r < 2; r++) {
            double R_e = r ? 3.3e-3 : 0, z = rest_on(kind, R_e);
            char what[64];
            snprintf(what, sizeof what, "sphere resting on a %s of radius %g", names[kind], R_e);
            CHECK_REL(t, z, R + R_e - delta, 1e-6, what);
        }
}

static void element_errors(test_ctx *t)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_mesh_add_vertex(m, v3(0, 0, 0), &err);
    grains_mesh_add_vertex(m, v3(1, 0, 0), &err);
    grains_mesh_add_vertex(m, v3(2, 0, 0), &err);
    uint32_t v[4] = {0, 1, 2, 5};
    CHECK(t, grains_mesh_add_element(m, 3, v, 0, 0, &err) == GRAINS_ERR_RANGE, "collinear triangle rejected");
    CHECK(t, grains_mesh_add_element(m, 4, v, 0, 0, &err) == GRAINS_ERR_RANGE, "vertex index 5 of 3 rejected");
    CHECK(t, grains_mesh_add_element(m, 5, v, 0, 0, &err) == GRAINS_ERR_RANGE, "five vertices rejected");
    v[1] = 0;
    CHECK(t, grains_mesh_add_element(m, 2, v, 0, 0, &err) == GRAINS_ERR_RANGE, "zero-length segment rejected");
    CHECK(t, grains_mesh_add_vertex(m, v3(NAN, 0, 0), &err) == GRAINS_ERR_RANGE, "NaN vertex rejected");
    grains_mesh_destroy(m);
}

/* VTK draws a point of radius R as a sphere and a segment as a tube between
 * two spheres: every drawn point lies at R from the centre, an end or the axis. */
static void drawing(test_ctx *t)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_mesh_add_vertex(m, v3(0, 0, 0), &err);
    grains_mesh_add_vertex(m, v3(1, 0, 0), &err);
    uint32_t point[1] = {0}, segment[2] = {0, 1};
    grains_mesh_add_element(m, 1, point, 0, 0.25, &err);
    grains_mesh_add_element(m, 2, segment, 0, 0.1, &err);
    mesh_drawing d;
    CHECK(t, mesh_drawing_build(&d, m, &err) == GRAINS_OK, "drawing built");
    double worst = 0;
    for (size_t c = 0; c < d.cells[DRAW_POLYS].n; c++)
        for (uint32_t k = c ? d.cells[DRAW_POLYS].end[c - 1] : 0; k < d.cells[DRAW_POLYS].end[c]; k++) {
            vec3 x = d.points[d.cells[DRAW_POLYS].conn[k]];
            double R = d.cells[DRAW_POLYS].element[c] == 0 ? 0.25 : 0.1;
            double from_p = fabs(v3_norm(x) - R), from_q = fabs(v3_norm(v3_sub(x, v3(1, 0, 0))) - R);
            double from_axis = x.x >= 0 && x.x <= 1 ? fabs(sqrt(x.y * x.y + x.z * x.z) - R) : INFINITY;
            double r = R + (d.cells[DRAW_POLYS].element[c] == 0 ? from_p : nan_min(from_p, nan_min(from_q, from_axis)));
            worst = nan_max(worst, fabs(r - R));
        }
    CHECK(t, d.cells[DRAW_VERTS].n == 0 && d.cells[DRAW_LINES].n == 0 && d.cells[DRAW_POLYS].n > 0,
          "drawn as surfaces, not as a dot and a line");
    CHECK(t, worst < 1e-15, "every drawn point at the element's radius (off by %.3g)", worst);
    mesh_drawing_free(&d);
    grains_mesh_destroy(m);
}

/* A floor triangle with a vertex 5 x 10^8 grain radii away holds a sphere
 * as any floor does (at 1e19 its cell range once overflowed the grid's
 * integers and the element was never listed: the sphere fell through); one
 * at 1e19, beyond the 10^9 radii where a double resolves a millionth of a
 * radius, is refused. And a 4-vertex element whose v2 is not v1 + v3 - v0
 * is refused, not taken as the parallelogram of the others. */
static void far_vertex(test_ctx *t)
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.eta = 0.5;
    grains_sim *sim = scene(&p);
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_mesh_add_vertex(m, v3(-1, -1, 0), &err);
    grains_mesh_add_vertex(m, v3(0.5e9 * p.R_min, 0, 0), &err);
    grains_mesh_add_vertex(m, v3(-1, 1, 0), &err);
    uint32_t idx[4] = {0, 1, 2, 3};
    CHECK(t, grains_mesh_add_element(m, 3, idx, 0, 0, &err) == GRAINS_OK, "far triangle: %s", err.message);
    CHECK(t, grains_sim_set_mesh(sim, m, &err) == GRAINS_OK, "a triangle 5e8 radii long: %s", err.message);
    add(sim, v3(0, 0, 0.005), v3(0, 0, 0), v3(0, 0, 0), 0.004);
    CHECK(t, grains_sim_advance(sim, (long)(0.2 / grains_sim_params(sim)->dt), &err) == GRAINS_OK, "falls: %s",
          err.message);
    CHECK(t, get(sim, 0).x.z > 0.0035 && get(sim, 0).x.z < 0.004,
          "a sphere rests on a triangle reaching %g: z = %g", 0.5e9 * p.R_min, get(sim, 0).x.z);
    m->vertices[1].x = 1e19;
    CHECK(t, grains_sim_set_mesh(sim, m, &err) == GRAINS_ERR_RANGE && strstr(err.message, "mesh vertex 1 at (1e+19"),
          "one reaching 1e19 is refused: %s", err.message);
    grains_sim_destroy(sim);
    grains_mesh_add_vertex(m, v3(-1, 1.5, 0), &err); /* v3: v1 + v3 - v0 = (1e19, 2.5, 0), not v2 */
    CHECK(t, grains_mesh_add_element(m, 4, idx, 0, 0, &err) == GRAINS_ERR_RANGE && strstr(err.message, "parallelogram"),
          "a quad that is not a parallelogram is refused: %s", err.message);
    grains_mesh_destroy(m);
}

int main(void)
{
    test_ctx t = {0, 0};
    closest_points(&t);
    resting(&t);
    far_vertex(&t);
    element_errors(&t);
    drawing(&t);
    return test_report(&t, "test_mesh");
}
