/* Distance vectors to points, segments, triangles and parallelograms. */
#include "geometry/primitives.h"

/* p - a minus its component along the unit vector u. */
static vec3 perpendicular(vec3 p, vec3 a, vec3 u)
{
    vec3 ap = v3_sub(p, a);
    return v3_sub(ap, v3_scale(v3_dot(ap, u), u));
}

/* Offset to the segment's interior given that p projects inside it. */
static vec3 edge_interior(vec3 p, vec3 a, vec3 b)
{
    vec3 ab = v3_sub(b, a);
    return perpendicular(p, a, v3_scale(1 / v3_norm(ab), ab));
}

static inline prim_region corner(int c) { return (prim_region){0, c, c}; }
static inline prim_region edge(int c0, int c1) { return (prim_region){1, c0, c1}; }

/* Segment (a, b) whose ends are corners c0, c1 of the element. */
static inline vec3 segment_at(vec3 p, vec3 a, vec3 b, int c0, int c1, prim_region *where)
{
    vec3 ab = v3_sub(b, a);
    real s = v3_dot(ab, v3_sub(p, a));
    if (s <= 0)
        return *where = corner(c0), v3_sub(p, a);
    if (s >= v3_dot(ab, ab))
        return *where = corner(c1), v3_sub(p, b);
    *where = edge(c0, c1);
    return edge_interior(p, a, b);
}

vec3 grains_offset_to_segment_at(vec3 p, vec3 a, vec3 b, prim_region *where)
{
    return segment_at(p, a, b, 0, 1, where);
}

vec3 grains_offset_to_segment(vec3 p, vec3 a, vec3 b)
{
    prim_region unused;
    return segment_at(p, a, b, 0, 1, &unused);
}

/* Offset to the plane through a with normal ab x ac. */
static vec3 face_interior(vec3 p, vec3 a, vec3 ab, vec3 ac)
{
    vec3 n = v3_cross(ab, ac);
    n = v3_scale(1 / v3_norm(n), n);
    return v3_scale(v3_dot(v3_sub(p, a), n), n);
}

vec3 grains_offset_to_triangle_at(vec3 p, vec3 a, vec3 b, vec3 c, prim_region *where)
{
    vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
    real d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0)
        return *where = corner(0), ap; /* vertex region a */
    vec3 bp = v3_sub(p, b);
    real d3 = v3_dot(ab, bp), d4 = v3_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3)
        return *where = corner(1), bp; /* vertex region b */
    real vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0)
        return *where = edge(0, 1), edge_interior(p, a, b);
    vec3 cp = v3_sub(p, c);
    real d5 = v3_dot(ab, cp), d6 = v3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6)
        return *where = corner(2), cp; /* vertex region c */
    real vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0)
        return *where = edge(0, 2), edge_interior(p, a, c);
    real va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
        return *where = edge(1, 2), edge_interior(p, b, c);
    *where = (prim_region){2, 0, 0};
    return face_interior(p, a, ab, ac);
}

vec3 grains_offset_to_triangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    prim_region unused;
    return grains_offset_to_triangle_at(p, a, b, c, &unused);
}

/* The shorter of two offsets and its region (the first on a tie). */
static void keep_shorter(vec3 *best, prim_region *best_at, vec3 v, prim_region v_at)
{
    if (v3_dot(v, v) < v3_dot(*best, *best)) {
        *best = v;
        *best_at = v_at;
    }
}

/* Corners: a = 0, b = 1, the implied b + c - a = 2, c = 3 (the element's
 * vertex slots). */
vec3 grains_offset_to_parallelogram_at(vec3 p, vec3 a, vec3 b, vec3 c, prim_region *where)
{
    vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
    /* In-plane coordinates (s, t) from the 2x2 Gram system. */
    real g11 = v3_dot(ab, ab), g12 = v3_dot(ab, ac), g22 = v3_dot(ac, ac);
    real r1 = v3_dot(ab, ap), r2 = v3_dot(ac, ap);
    real det = g11 * g22 - g12 * g12;
    real s = (r1 * g22 - r2 * g12) / det, t = (r2 * g11 - r1 * g12) / det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
        *where = (prim_region){2, 0, 0};
        return face_interior(p, a, ab, ac);
    }
    /* Outside: the closest point lies on one of the four edges. */
    vec3 d = v3_add(b, ac);
    prim_region at;
    vec3 best = segment_at(p, a, b, 0, 1, where);
    keep_shorter(&best, where, segment_at(p, b, d, 1, 2, &at), at);
    keep_shorter(&best, where, segment_at(p, d, c, 2, 3, &at), at);
    keep_shorter(&best, where, segment_at(p, c, a, 3, 0, &at), at);
    return best;
}

vec3 grains_offset_to_parallelogram(vec3 p, vec3 a, vec3 b, vec3 c)
{
    prim_region unused;
    return grains_offset_to_parallelogram_at(p, a, b, c, &unused);
}
