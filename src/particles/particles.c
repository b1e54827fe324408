/* Growth and release of the particle arrays. */
#include "particles/particles.h"

#include <stdlib.h>

#define PARTICLE_LIMIT 2000000000u /* ids are 32-bit in contact keys */

static int grow_field(void **field, size_t cap, size_t size)
{
    void *p = realloc(*field, cap * size);
    if (!p)
        return 0;
    *field = p;
    return 1;
}

grains_status particles_reserve(grains_particles *pt, size_t need, grains_error *err)
{
    if (need <= pt->cap)
        return GRAINS_OK;
    if (need > PARTICLE_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %u particles", PARTICLE_LIMIT);
    size_t cap = pt->cap ? pt->cap + pt->cap / 2 : 64;
    if (cap < need)
        cap = need;
    if (cap > PARTICLE_LIMIT)
        cap = PARTICLE_LIMIT;
    int ok = grow_field((void **)&pt->x, cap, sizeof *pt->x) && grow_field((void **)&pt->v, cap, sizeof *pt->v) &&
             grow_field((void **)&pt->w, cap, sizeof *pt->w) && grow_field((void **)&pt->q, cap, sizeof *pt->q) &&
             grow_field((void **)&pt->R, cap, sizeof *pt->R) && grow_field((void **)&pt->f, cap, sizeof *pt->f) &&
             grow_field((void **)&pt->t, cap, sizeof *pt->t);
    if (!ok)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu particles", need);
    pt->cap = cap;
    return GRAINS_OK;
}

void particles_free(grains_particles *pt)
{
    free(pt->x);
    free(pt->v);
    free(pt->w);
    free(pt->q);
    free(pt->R);
    free(pt->f);
    free(pt->t);
    *pt = (grains_particles){0};
}
