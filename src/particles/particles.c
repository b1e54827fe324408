/* Growth and release of the particle arrays. */
#include "particles/particles.h"

#include <stdlib.h>
#include <string.h>

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
             grow_field((void **)&pt->R, cap, sizeof *pt->R) &&
             grow_field((void **)&pt->mat, cap, sizeof *pt->mat) && grow_field((void **)&pt->f, 2 * cap, sizeof *pt->f) &&
             grow_field((void **)&pt->slot, cap, sizeof *pt->slot);
    if (!ok)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu particles", need);
    /* f and t are one block: t moves from f + old cap to f + cap. The sums
     * are kept (velocity Verlet carries a(t) in them between steps); the new
     * places start at zero. */
    size_t old = pt->cap;
    pt->t = pt->f + cap;
    if (old)
        memmove(pt->t, pt->f + old, old * sizeof *pt->t);
    memset(pt->f + old, 0, (cap - old) * sizeof *pt->f);
    memset(pt->t + old, 0, (cap - old) * sizeof *pt->t);
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
    free(pt->mat);
    free(pt->f); /* t is in the same block */
    free(pt->slot);
    *pt = (grains_particles){0};
}

/* In place, cycle by cycle: each move carries one particle's fields to its
 * new place and picks up the particle that stood there. */
void particles_permute(grains_particles *pt, uint32_t *where)
{
    for (uint32_t id = 0; id < pt->n; id++)
        pt->slot[id] = where[pt->slot[id]];
    for (uint32_t s = 0; s < pt->n; s++) {
        if (where[s] == s)
            continue;
        vec3 x = pt->x[s], v = pt->v[s], w = pt->w[s];
        quat q = pt->q[s];
        real R = pt->R[s];
        uint8_t mat = pt->mat[s];
        uint32_t dst = where[s];
        while (dst != s) {
            vec3 tx = pt->x[dst], tv = pt->v[dst], tw = pt->w[dst];
            quat tq = pt->q[dst];
            real tR = pt->R[dst];
            uint8_t tmat = pt->mat[dst];
            pt->x[dst] = x, pt->v[dst] = v, pt->w[dst] = w, pt->q[dst] = q, pt->R[dst] = R, pt->mat[dst] = mat;
            x = tx, v = tv, w = tw, q = tq, R = tR, mat = tmat;
            uint32_t next = where[dst];
            where[dst] = dst;
            dst = next;
        }
        pt->x[s] = x, pt->v[s] = v, pt->w[s] = w, pt->q[s] = q, pt->R[s] = R, pt->mat[s] = mat;
        where[s] = s;
    }
}

uint32_t particles_id_of(const grains_particles *pt, uint32_t i)
{
    for (uint32_t id = 0; id < pt->n; id++)
        if (pt->slot[id] == i)
            return id;
    return UINT32_MAX;
}
