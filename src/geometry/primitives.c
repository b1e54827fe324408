/* Closest-point queries for points, segments, triangles and parallelograms. */
#include "geometry/primitives.h"

vec3 grains_closest_on_segment(vec3 p, vec3 a, vec3 b)
{
    vec3 ab = v3_sub(b, a);
    real len2 = v3_dot(ab, ab);
    if (len2 <= 0)
        return a;
    real s = v3_dot(ab, v3_sub(p, a)) / len2;
    if (s <= 0)
        return a;
    if (s >= 1)
        return b;
    return v3_axpy(a, s, ab);
}

vec3 grains_closest_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c)
{
    vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
    real d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0)
        return a; /* vertex region a */

    vec3 bp = v3_sub(p, b);
    real d3 = v3_dot(ab, bp), d4 = v3_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3)
        return b; /* vertex region b */

    real vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0)
        return v3_axpy(a, d1 / (d1 - d3), ab); /* edge ab */

    vec3 cp = v3_sub(p, c);
    real d5 = v3_dot(ab, cp), d6 = v3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6)
        return c; /* vertex region c */

    real vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0)
        return v3_axpy(a, d2 / (d2 - d6), ac); /* edge ac */

    real va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
        return v3_axpy(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), v3_sub(c, b)); /* edge bc */

    real inv = 1 / (va + vb + vc); /* face: barycentric coordinates */
    return v3_add(a, v3_add(v3_scale(vb * inv, ab), v3_scale(vc * inv, ac)));
}

static vec3 nearer(vec3 p, vec3 best, vec3 cand)
{
    vec3 db = v3_sub(p, best), dc = v3_sub(p, cand);
    return v3_dot(dc, dc) < v3_dot(db, db) ? cand : best;
}

vec3 grains_closest_on_parallelogram(vec3 p, vec3 a, vec3 b, vec3 c)
{
    vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
    /* Solve the 2x2 Gram system for the in-plane coordinates (s, t). */
    real g11 = v3_dot(ab, ab), g12 = v3_dot(ab, ac), g22 = v3_dot(ac, ac);
    real r1 = v3_dot(ab, ap), r2 = v3_dot(ac, ap);
    real det = g11 * g22 - g12 * g12;
    if (g12 == 0) {
        /* Rectangle: the clamps along the two edges are independent. */
        real s = r1 / g11, t = r2 / g22;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        return v3_add(a, v3_add(v3_scale(s, ab), v3_scale(t, ac)));
    }
    real s = (r1 * g22 - r2 * g12) / det, t = (r2 * g11 - r1 * g12) / det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1)
        return v3_add(a, v3_add(v3_scale(s, ab), v3_scale(t, ac)));
    /* Outside: the closest point lies on one of the four edges. */
    vec3 d = v3_add(b, ac);
    vec3 best = grains_closest_on_segment(p, a, b);
    best = nearer(p, best, grains_closest_on_segment(p, b, d));
    best = nearer(p, best, grains_closest_on_segment(p, d, c));
    best = nearer(p, best, grains_closest_on_segment(p, c, a));
    return best;
}
