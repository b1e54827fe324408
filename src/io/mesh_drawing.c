/* Tessellating a mesh for VTK. */
#include "io/mesh_drawing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "math/vec3.h"
#include "util/array.h"

#define PI 3.14159265358979323846
#define SIDES 8  /* around a sphere or tube */
#define RINGS 5  /* latitudes of a sphere between its poles */

static int add_point(mesh_drawing *d, vec3 x, uint32_t *id)
{
    if (!array_reserve((void **)&d->points, &d->cap_points, d->n_points + 1, sizeof *d->points, 1))
        return 0;
    *id = (uint32_t)d->n_points;
    d->points[d->n_points++] = x;
    return 1;
}

static int add_cell(mesh_drawing *d, int kind, const uint32_t *ids, int n, uint32_t element)
{
    draw_cells *c = &d->cells[kind];
    if (!array_reserve((void **)&c->conn, &c->cap_conn, c->n_conn + (size_t)n, sizeof *c->conn, 1))
        return 0;
    if (!array_reserve((void **)&c->end, &c->cap_end, c->n + 1, sizeof *c->end, 1) ||
        !array_reserve((void **)&c->element, &c->cap, c->n + 1, sizeof *c->element, 1))
        return 0;
    memcpy(c->conn + c->n_conn, ids, (size_t)n * sizeof *ids);
    c->n_conn += (size_t)n;
    c->end[c->n] = (uint32_t)c->n_conn;
    c->element[c->n++] = element;
    return 1;
}

/* Two unit vectors normal to the unit vector a and to each other. */
static void normal_pair(vec3 a, vec3 *u, vec3 *w)
{
    vec3 t = fabs(a.x) < 0.9 ? v3(1, 0, 0) : v3(0, 1, 0);
    *u = v3_cross(a, t);
    *u = v3_scale(1 / v3_norm(*u), *u);
    *w = v3_cross(a, *u);
}

static int sphere(mesh_drawing *d, vec3 c, real R, uint32_t e)
{
    uint32_t first = (uint32_t)d->n_points, id;
    for (int r = 1; r <= RINGS; r++) {
        real th = PI * r / (RINGS + 1);
        for (int s = 0; s < SIDES; s++) {
            real ph = 2 * PI * s / SIDES;
            if (!add_point(d, v3_add(c, v3(R * sin(th) * cos(ph), R * sin(th) * sin(ph), R * cos(th))), &id))
                return 0;
        }
    }
    uint32_t top, bottom;
    if (!add_point(d, v3_add(c, v3(0, 0, R)), &top) || !add_point(d, v3_add(c, v3(0, 0, -R)), &bottom))
        return 0;
    for (int s = 0; s < SIDES; s++) {
        uint32_t s1 = (uint32_t)((s + 1) % SIDES);
        uint32_t cap_top[3] = {top, first + (uint32_t)s, first + s1};
        uint32_t last = first + (RINGS - 1) * SIDES;
        uint32_t cap_bottom[3] = {bottom, last + s1, last + (uint32_t)s};
        if (!add_cell(d, DRAW_POLYS, cap_top, 3, e) || !add_cell(d, DRAW_POLYS, cap_bottom, 3, e))
            return 0;
        for (int r = 0; r + 1 < RINGS; r++) {
            uint32_t a = first + (uint32_t)(r * SIDES), b = a + SIDES;
            uint32_t quad[4] = {a + (uint32_t)s, b + (uint32_t)s, b + s1, a + s1};
            if (!add_cell(d, DRAW_POLYS, quad, 4, e))
                return 0;
        }
    }
    return 1;
}

static int tube(mesh_drawing *d, vec3 p, vec3 q, real R, uint32_t e)
{
    vec3 a = v3_sub(q, p), u, w;
    a = v3_scale(1 / v3_norm(a), a);
    normal_pair(a, &u, &w);
    uint32_t first = (uint32_t)d->n_points, id;
    for (int end = 0; end < 2; end++)
        for (int s = 0; s < SIDES; s++) {
            real ph = 2 * PI * s / SIDES;
            vec3 r = v3_add(v3_scale(R * cos(ph), u), v3_scale(R * sin(ph), w));
            if (!add_point(d, v3_add(end ? q : p, r), &id))
                return 0;
        }
    for (uint32_t s = 0; s < SIDES; s++) {
        uint32_t s1 = (s + 1) % SIDES, quad[4] = {first + s, first + s1, first + SIDES + s1, first + SIDES + s};
        if (!add_cell(d, DRAW_POLYS, quad, 4, e))
            return 0;
    }
    return sphere(d, p, R, e) && sphere(d, q, R, e);
}

static int draw_element(mesh_drawing *d, const grains_mesh *m, uint32_t e)
{
    const grains_mesh_element *el = &m->elements[e];
    const vec3 *x = m->vertices;
    if (el->n == 1)
        return el->R > 0 ? sphere(d, x[el->v[0]], el->R, e) : add_cell(d, DRAW_VERTS, el->v, 1, e);
    if (el->n == 2)
        return el->R > 0 ? tube(d, x[el->v[0]], x[el->v[1]], el->R, e) : add_cell(d, DRAW_LINES, el->v, 2, e);
    if (el->n == 3)
        return add_cell(d, DRAW_POLYS, el->v, 3, e);
    uint32_t implied, quad[4] = {el->v[0], el->v[1], 0, el->v[3]}; /* v1 + v3 - v0 */
    if (!add_point(d, v3_sub(v3_add(x[el->v[1]], x[el->v[3]]), x[el->v[0]]), &implied))
        return 0;
    quad[2] = implied;
    return add_cell(d, DRAW_POLYS, quad, 4, e);
}

grains_status mesh_drawing_build(mesh_drawing *d, const grains_mesh *m, grains_error *err)
{
    memset(d, 0, sizeof *d);
    int ok = 1;
    for (size_t k = 0; ok && k < m->n_vertices; k++) {
        uint32_t id;
        ok = add_point(d, m->vertices[k], &id);
    }
    for (uint32_t e = 0; ok && e < m->n_elements; e++)
        ok = m->elements[e].body < 0 || m->elements[e].off || draw_element(d, m, e); /* (a membrane's: in its own
                                                                                     * file; a removed mesh's: none) */
    if (ok)
        return GRAINS_OK;
    mesh_drawing_free(d);
    return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory drawing a mesh of %zu elements",
                            m->n_elements);
}

void mesh_drawing_free(mesh_drawing *d)
{
    free(d->points);
    for (int k = 0; k < DRAW_KINDS; k++) {
        free(d->cells[k].conn);
        free(d->cells[k].end);
        free(d->cells[k].element);
    }
    memset(d, 0, sizeof *d);
}
