/* Closest points on the four mesh primitives (TinyDEM Section 3.3, Fig. 4). */
#ifndef GRAINS_GEOMETRY_PRIMITIVES_H
#define GRAINS_GEOMETRY_PRIMITIVES_H

#include "math/vec3.h"

/* Closest point to p on the segment [a, b]. */
vec3 grains_closest_on_segment(vec3 p, vec3 a, vec3 b);

/* Closest point to p on the triangle (a, b, c), by Voronoi regions of its
 * vertices, edges and face. */
vec3 grains_closest_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c);

/* Closest point to p on the parallelogram a + s (b - a) + t (c - a),
 * s, t in [0, 1]. Exact for any parallelogram; for a rectangle it is
 * TinyDEM's clamp along both edges. */
vec3 grains_closest_on_parallelogram(vec3 p, vec3 a, vec3 b, vec3 c);

#endif
