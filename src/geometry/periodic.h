/* Periodic boundaries: a box whose opposite faces are identified along
 * some of x, y, z. A pair interacts through its nearest image (the box is
 * at least four cells, so more than twice any interaction reach, along a
 * periodic axis: the nearest image is the only one in reach). Positions
 * are wrapped into the box at each rebuild; between rebuilds they may leave
 * it by the skin, which the nearest-image rule absorbs.
 *
 * A sheared box (Lees & Edwards 1972; docs/model.md, "Sheared periodic
 * boxes"), periodic along x and z: the image of the box above (z + L_z)
 * is shifted along x by `shift` and moves along x at `shear_v` = shear
 * rate x L_z, the one below by -shift at -shear_v. A pair's image along z
 * is found first, then its x offset, then the nearest image along x; a
 * partner seen through the image above moves at its velocity + shear_v,
 * and a grain that leaves through the top face comes back through the
 * bottom shifted by -shift, its velocity by -shear_v. */
#ifndef GRAINS_GEOMETRY_PERIODIC_H
#define GRAINS_GEOMETRY_PERIODIC_H

#include <stddef.h>

#include "math/vec3.h"

typedef struct {
    int mask;       /* bit k set: periodic along axis k (1 x, 2 y, 4 z) */
    real lo[3];     /* [L] lower corner */
    real L[3];      /* [L] period per axis (unused where not periodic) */
    real inv_L[3];
    int sheared;    /* 1: the images along z slide along x (mask holds x and z) */
    real shift;     /* [L] the x offset of the image above, in [0, L_x) */
    real shear_v;   /* [L/T] the x velocity of the image above: shear rate x L_z */
} periodic_box;

static inline real nearest_image(real d, real L, real inv_L) { return d - L * rint(d * inv_L); }

/* The separation d = x_i - x_j of the nearest images; *n_z (may be NULL)
 * the count of periods along z between x_j's image and x_j (0 unless
 * sheared), which a sheared box needs for the partner's velocity.
 * `sheared` is b->sheared, a constant where the force loop is compiled for
 * each kind of box (the plain periodic one then tests nothing more). */
__attribute__((always_inline)) static inline vec3 periodic_delta_as(const periodic_box *b, vec3 d, real *n_z,
                                                                    const int sheared)
{
    if (sheared) { /* the image along z first: its offset moves x */
        real n = rint(d.z * b->inv_L[2]);
        d.z -= n * b->L[2];
        d.x -= n * b->shift;
        if (n_z)
            *n_z = n;
    }
    if (b->mask & 1)
        d.x = nearest_image(d.x, b->L[0], b->inv_L[0]);
    if (b->mask & 2)
        d.y = nearest_image(d.y, b->L[1], b->inv_L[1]);
    if (!sheared && (b->mask & 4))
        d.z = nearest_image(d.z, b->L[2], b->inv_L[2]);
    return d;
}

static inline vec3 periodic_delta(const periodic_box *b, vec3 d) { return periodic_delta_as(b, d, NULL, b->sheared); }

/* The velocity of the image n_z periods above a grain moving at v. */
static inline vec3 periodic_image_velocity(const periodic_box *b, vec3 v, real n_z)
{
    v.x += n_z * b->shear_v;
    return v;
}

/* The separation of i and j's nearest image, and *v_j, j's velocity, made
 * that image's (the velocity of the sheared images' rows added). */
static inline vec3 periodic_delta_moving(const periodic_box *b, vec3 d, vec3 *v_j)
{
    real n = 0;
    d = periodic_delta_as(b, d, &n, b->sheared);
    if (b->sheared) /* (a plain box's partner keeps its velocity's every bit, the sign of a zero too) */
        *v_j = periodic_image_velocity(b, *v_j, n);
    return d;
}

/* The count of periods c lies above [lo, lo + L) (below: negative). */
static inline real periods_above(real c, real lo, real L, real inv_L)
{
    real n = floor((c - lo) * inv_L);
    return c - n * L < lo + L ? n : n + 1; /* rounding may land on the upper face */
}

/* One coordinate brought into [lo, lo + L). */
static inline real wrap_coordinate(real x, real lo, real L, real inv_L)
{
    real w = x - L * floor((x - lo) * inv_L);
    return w < lo + L ? w : lo; /* rounding may land on the upper face */
}

/* x brought into the box; in a sheared box a grain that crosses along z
 * also moves along x by the images' shift and, when v is not NULL, its
 * velocity changes by theirs. */
static inline vec3 periodic_wrap_moving(const periodic_box *b, vec3 x, vec3 *v)
{
    if (b->sheared) {
        real n = periods_above(x.z, b->lo[2], b->L[2], b->inv_L[2]);
        if (n != 0) {
            real z = x.z - n * b->L[2]; /* below lo + L (periods_above), at lo within rounding */
            x.z = z < b->lo[2] ? b->lo[2] : z;
            x.x -= n * b->shift;
            if (v)
                v->x -= n * b->shear_v;
        }
    } else if (b->mask & 4) {
        x.z = wrap_coordinate(x.z, b->lo[2], b->L[2], b->inv_L[2]);
    }
    if (b->mask & 1)
        x.x = wrap_coordinate(x.x, b->lo[0], b->L[0], b->inv_L[0]);
    if (b->mask & 2)
        x.y = wrap_coordinate(x.y, b->lo[1], b->L[1], b->inv_L[1]);
    return x;
}

static inline vec3 periodic_wrap(const periodic_box *b, vec3 x) { return periodic_wrap_moving(b, x, NULL); }

#endif
