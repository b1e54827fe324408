/* The offset of a point from a mesh element and its image nearest the
 * element (geometry/mesh_offset.h). */
#include "geometry/mesh_offset.h"

#include <math.h>

#include "geometry/primitives.h"

/* x moved by whole periods along el's periodic axes to the image nearest
 * el's centre (its vertices where they are now: its box may be a rebuild
 * old; a parallelogram's, between the two corners beside its first). */
__attribute__((noinline)) static vec3 periodic_image(const grains_mesh *m, const grains_mesh_element *el, vec3 x)
{
    const vec3 *p = m->vertices;
    vec3 centre = el->n == 4 ? v3_scale(0.5, v3_add(p[el->v[1]], p[el->v[3]])) : v3(0, 0, 0);
    for (int k = 0; el->n < 4 && k < el->n; k++)
        centre = v3_add(centre, v3_scale(1.0 / el->n, p[el->v[k]]));
    real *c[3] = {&x.x, &x.y, &x.z};
    const real at[3] = {centre.x, centre.y, centre.z}, L[3] = {m->period.x, m->period.y, m->period.z};
    for (int k = 0; k < 3; k++)
        if (el->periodic >> k & 1)
            *c[k] -= L[k] * nearbyint((*c[k] - at[k]) / L[k]);
    return x;
}

vec3 mesh_element_image(const grains_mesh *m, size_t e, vec3 x)
{
    const grains_mesh_element *el = &m->elements[e];
    return el->periodic ? periodic_image(m, el, x) : x;
}

vec3 mesh_element_offset(const grains_mesh *m, size_t e, vec3 x)
{
    const grains_mesh_element *el = &m->elements[e];
    const vec3 *p = m->vertices;
    if (el->periodic) /* (a test in line: the other meshes pay no call) */
        x = periodic_image(m, el, x);
    switch (el->n) {
    case 1: return v3_sub(x, p[el->v[0]]);
    case 2: return grains_offset_to_segment(x, p[el->v[0]], p[el->v[1]]);
    case 3: return grains_offset_to_triangle(x, p[el->v[0]], p[el->v[1]], p[el->v[2]]);
    default: return grains_offset_to_parallelogram(x, p[el->v[0]], p[el->v[1]], p[el->v[3]]);
    }
}
