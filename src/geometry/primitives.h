/* Distance vectors from a point to the four mesh primitives (TinyDEM Section
 * 3.3, Fig. 4). Each returns d = p - c, c the closest point of the primitive,
 * computed as the normal (face) or perpendicular (edge) component of p - a
 * rather than as p minus a reconstructed point: that way a particle in a
 * plane parallel to an axis-aligned face or edge gets d exactly in that plane,
 * and 2D runs stay exactly 2D. */
#ifndef GRAINS_GEOMETRY_PRIMITIVES_H
#define GRAINS_GEOMETRY_PRIMITIVES_H

#include "math/vec3.h"

/* Where on a primitive the closest point lies: dim 2 the face, dim 1 the
 * edge between corners c0 and c1, dim 0 corner c0. Corners are numbered as
 * the element's vertex slots (a parallelogram's implied corner is 2). The
 * _at forms report it (the membrane paper's Eq. 17 classification). */
typedef struct {
    int dim, c0, c1;
} prim_region;

vec3 grains_offset_to_segment(vec3 p, vec3 a, vec3 b);
vec3 grains_offset_to_segment_at(vec3 p, vec3 a, vec3 b, prim_region *where);

/* Triangle (a, b, c), by the Voronoi regions of its vertices, edges and face. */
vec3 grains_offset_to_triangle(vec3 p, vec3 a, vec3 b, vec3 c);
vec3 grains_offset_to_triangle_at(vec3 p, vec3 a, vec3 b, vec3 c, prim_region *where);

/* Parallelogram a + s (b - a) + t (c - a), s, t in [0, 1]; exact for any
 * parallelogram (TinyDEM's two independent clamps are exact for rectangles). */
vec3 grains_offset_to_parallelogram(vec3 p, vec3 a, vec3 b, vec3 c);
vec3 grains_offset_to_parallelogram_at(vec3 p, vec3 a, vec3 b, vec3 c, prim_region *where);

#endif
