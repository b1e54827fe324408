/* Densification by growing radii (as the Lubachevsky-Stillinger algorithm
 * does, membrane paper Section 3.1): particles placed without contacts at
 * grow_from x their size grow linearly to it by grow_time, while the
 * dynamics packs them. Each step scales every radius by the ratio of the
 * scales at its end and start; the masses follow (m = 4/3 pi rho R^3). */
#include "insert/insert.h"

real sim_grow_scale(const grains_params *p, real t)
{
    if (p->grow_from >= 1 || t >= p->grow_time)
        return 1;
    return p->grow_from + (1 - p->grow_from) * (t / p->grow_time);
}

real sim_grow(grains_particles *pt, const grains_params *p, real t_old, real t_new)
{
    real before = sim_grow_scale(p, t_old), after = sim_grow_scale(p, t_new);
    if (before == after)
        return 0;
    real ratio = after / before;
    for (size_t i = 0; i < pt->n; i++)
        pt->R[i] *= ratio;
    /* a pair's gap closes by both growths: as a displacement of R_max's growth each */
    return p->R_max * (after - before);
}
