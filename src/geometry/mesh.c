/* Mesh storage: vertices and elements with per-element radius and bounding box. */
#include "grains/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/mesh_offset.h"
#include "math/vec3.h"
#include "util/array.h"

#define MESH_LIMIT 100000000u /* elements or vertices; keeps indices in 32 bits */

grains_status grains_mesh_create(grains_mesh **out, grains_error *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory creating a mesh");
    return GRAINS_OK;
}

void grains_mesh_destroy(grains_mesh *m)
{
    if (!m)
        return;
    free(m->vertices);
    free(m->elements);
    free(m);
}

grains_status grains_mesh_add_vertex(grains_mesh *m, grains_vec3 x, grains_error *err)
{
    if (!v3_isfinite(x))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "vertex coordinates must be finite");
    if (m->n_vertices >= MESH_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %u mesh vertices", MESH_LIMIT);
    if (!array_reserve((void **)&m->vertices, &m->cap_vertices, m->n_vertices + 1, sizeof *m->vertices, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading mesh vertices");
    m->vertices[m->n_vertices++] = x;
    return GRAINS_OK;
}

static int degenerate(const grains_mesh *m, int n, const uint32_t *v)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (v[a] == v[b])
                return 1;
    if (n < 3)
        return n == 2 && v3_norm(v3_sub(m->vertices[v[1]], m->vertices[v[0]])) == 0;
    vec3 x0 = m->vertices[v[0]];
    vec3 e1 = v3_sub(m->vertices[v[1]], x0), e2 = v3_sub(m->vertices[v[n == 4 ? 3 : 2]], x0);
    return v3_norm(v3_cross(e1, e2)) == 0;
}

static void element_box(const grains_mesh *m, grains_mesh_element *el)
{
    vec3 lo = m->vertices[el->v[0]], hi = lo;
    int count = el->n;
    vec3 pts[4];
    for (int k = 0; k < el->n; k++)
        pts[k] = m->vertices[el->v[k]];
    if (el->n == 4) /* the implied fourth corner v1 + v3 - v0 */
        pts[2] = v3_sub(v3_add(pts[1], pts[3]), pts[0]);
    for (int k = 0; k < count; k++) {
        lo = v3(fmin(lo.x, pts[k].x), fmin(lo.y, pts[k].y), fmin(lo.z, pts[k].z));
        hi = v3(fmax(hi.x, pts[k].x), fmax(hi.y, pts[k].y), fmax(hi.z, pts[k].z));
    }
    el->lo = v3_sub(lo, v3(el->R, el->R, el->R));
    el->hi = v3_add(hi, v3(el->R, el->R, el->R));
}

/* Whether v2 = v1 + v3 - v0 to round-off of the element's size (the
 * contact geometry uses v0, v1, v3 and implies v2). */
static int parallelogram(const grains_mesh *m, const uint32_t *v)
{
    const vec3 *p = m->vertices;
    vec3 implied = v3_sub(v3_add(p[v[1]], p[v[3]]), p[v[0]]), off = v3_sub(p[v[2]], implied);
    real size = fmax(v3_norm(v3_sub(p[v[1]], p[v[0]])), v3_norm(v3_sub(p[v[3]], p[v[0]])));
    return v3_norm(off) <= 1e-9 * size;
}

grains_status grains_mesh_add_element(grains_mesh *m, int n, const uint32_t *v, int radius_index, real R,
                                      grains_error *err)
{
    if (n < 1 || n > 4)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "a mesh element has 1 to 4 vertices (point, segment, triangle, rectangle), got %d", n);
    for (int k = 0; k < n; k++)
        if (v[k] >= m->n_vertices)
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "vertex index %u out of range (the mesh has %zu vertices)", v[k], m->n_vertices);
    if (!isfinite(R) || R < 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "mesh radius %g must be >= 0", R);
    if (degenerate(m, n, v))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "degenerate element: repeated or collinear vertices");
    if (n == 4 && !parallelogram(m, v))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "a 4-vertex element is a parallelogram (v2 = v1 + v3 - v0, as in TinyDEM), and "
                                "vertex %u is not there: split it into two triangles", v[2]);
    if (m->n_elements >= MESH_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %u mesh elements", MESH_LIMIT);
    if (!array_reserve((void **)&m->elements, &m->cap_elements, m->n_elements + 1, sizeof *m->elements, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading mesh elements");
    grains_mesh_element *el = &m->elements[m->n_elements++];
    memset(el, 0, sizeof *el); /* padding too: elements compare with memcmp */
    el->n = n;
    for (int k = 0; k < 4; k++)
        el->v[k] = k < n ? v[k] : 0;
    el->radius_index = radius_index;
    el->R = R;
    el->material = GRAINS_MESH_MATERIAL_DEFAULT;
    element_box(m, el);
    return GRAINS_OK;
}

void grains_mesh_update_bounds(grains_mesh *m)
{
    for (size_t e = 0; e < m->n_elements; e++)
        element_box(m, &m->elements[e]);
}

grains_vec3 grains_mesh_image(const grains_mesh *m, size_t e, grains_vec3 x) { return mesh_element_image(m, e, x); }

grains_vec3 grains_mesh_offset(const grains_mesh *m, size_t e, grains_vec3 x) { return mesh_element_offset(m, e, x); }
