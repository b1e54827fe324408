/* Closest features of mesh elements, by vertex id. */
#include "geometry/features.h"

#include "geometry/mesh_offset.h"
#include "geometry/primitives.h"

/* The vertex id of corner slot c of element e. */
static uint32_t corner_id(const grains_mesh_element *el, uint32_t e, int c)
{
    return el->n == 4 && c == 2 ? FEATURE_IMPLIED | e : el->v[c];
}

vec3 mesh_offset_feature(const grains_mesh *m, uint32_t e, vec3 x, mesh_feature *f)
{
    const grains_mesh_element *el = &m->elements[e];
    const vec3 *p = m->vertices;
    prim_region at = {0, 0, 0};
    vec3 d;
    if (el->periodic)
        x = mesh_element_image(m, e, x);
    switch (el->n) {
    case 1: d = v3_sub(x, p[el->v[0]]); break;
    case 2: d = grains_offset_to_segment_at(x, p[el->v[0]], p[el->v[1]], &at); break;
    case 3: d = grains_offset_to_triangle_at(x, p[el->v[0]], p[el->v[1]], p[el->v[2]], &at); break;
    default: d = grains_offset_to_parallelogram_at(x, p[el->v[0]], p[el->v[1]], p[el->v[3]], &at); break;
    }
    if (at.dim == 2) {
        *f = (mesh_feature){2, e, e};
    } else {
        uint32_t a = corner_id(el, e, at.c0), b = corner_id(el, e, at.c1);
        *f = (mesh_feature){at.dim, a < b ? a : b, a < b ? b : a};
    }
    return d;
}

/* The corner pairs that are edges: a segment's one, a triangle's three, a
 * parallelogram's four (not its diagonals). */
static const int edges[5][4][2] = {
    {{0, 0}}, {{0, 0}}, {{0, 1}}, {{0, 1}, {0, 2}, {1, 2}}, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
static const int n_edges[5] = {0, 0, 1, 3, 4};

int mesh_feature_on(const grains_mesh *m, uint32_t e, mesh_feature f)
{
    const grains_mesh_element *el = &m->elements[e];
    int corners = el->n;
    if (f.dim == 0) {
        for (int c = 0; c < corners; c++)
            if (corner_id(el, e, c) == f.a)
                return 1;
        return 0;
    }
    if (f.dim != 1)
        return 0;
    for (int k = 0; k < n_edges[el->n]; k++) {
        uint32_t a = corner_id(el, e, edges[el->n][k][0]), b = corner_id(el, e, edges[el->n][k][1]);
        if ((a == f.a && b == f.b) || (a == f.b && b == f.a))
            return 1;
    }
    return 0;
}

int mesh_feature_touches(const grains_mesh *m, uint32_t e, mesh_feature f)
{
    if (f.dim == 2)
        return 0;
    mesh_feature a = {0, f.a, f.a}, b = {0, f.b, f.b};
    return mesh_feature_on(m, e, a) || (f.dim == 1 && mesh_feature_on(m, e, b));
}
