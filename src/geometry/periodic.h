/* Periodic boundaries: a box whose opposite faces are identified along
 * some of x, y, z. A pair interacts through its nearest image (the box is
 * at least four cells, so more than twice any interaction reach, along a
 * periodic axis: the nearest image is the only one in reach). Positions
 * are wrapped into the box at each rebuild; between rebuilds they may leave
 * it by the skin, which the nearest-image rule absorbs. */
#ifndef GRAINS_GEOMETRY_PERIODIC_H
#define GRAINS_GEOMETRY_PERIODIC_H

#include "math/vec3.h"

typedef struct {
    int mask;       /* bit k set: periodic along axis k (1 x, 2 y, 4 z) */
    real lo[3];     /* [L] lower corner */
    real L[3];      /* [L] period per axis (unused where not periodic) */
    real inv_L[3];
} periodic_box;

static inline real nearest_image(real d, real L, real inv_L) { return d - L * rint(d * inv_L); }

/* The separation d = x_i - x_j of the nearest images. */
static inline vec3 periodic_delta(const periodic_box *b, vec3 d)
{
    if (b->mask & 1)
        d.x = nearest_image(d.x, b->L[0], b->inv_L[0]);
    if (b->mask & 2)
        d.y = nearest_image(d.y, b->L[1], b->inv_L[1]);
    if (b->mask & 4)
        d.z = nearest_image(d.z, b->L[2], b->inv_L[2]);
    return d;
}

/* One coordinate brought into [lo, lo + L). */
static inline real wrap_coordinate(real x, real lo, real L, real inv_L)
{
    real w = x - L * floor((x - lo) * inv_L);
    return w < lo + L ? w : lo; /* rounding may land on the upper face */
}

static inline vec3 periodic_wrap(const periodic_box *b, vec3 x)
{
    if (b->mask & 1)
        x.x = wrap_coordinate(x.x, b->lo[0], b->L[0], b->inv_L[0]);
    if (b->mask & 2)
        x.y = wrap_coordinate(x.y, b->lo[1], b->L[1], b->inv_L[1]);
    if (b->mask & 4)
        x.z = wrap_coordinate(x.z, b->lo[2], b->L[2], b->inv_L[2]);
    return x;
}

#endif
