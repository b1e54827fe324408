/* The bonds one at a time, as the library's API hands them out (grains/sim.h):
 * counted, read and set by their place in the sorted list, and the intact
 * ones' pairs for a frame's Lines; whether two ids are bonded, and the
 * bonds that stay when particles go. The core calls these and reads no member
 * of the list (sim/bond_pairs.c). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "bonds/bonds.h"

size_t sim_bonds_intact_pairs(sim_bonds *bs, size_t **pairs)
{
    sim_bonds_sort(bs); /* the order is part of the answer; sorting changes no bond */
    if (!(*pairs = malloc((2 * bs->n + 2) * sizeof **pairs)))
        return SIZE_MAX;
    size_t n = 0;
    for (size_t k = 0; k < bs->n; k++)
        if (!bs->list[k].broken)
            (*pairs)[2 * n] = bs->list[k].a, (*pairs)[2 * n + 1] = bs->list[k].b, n++;
    return n;
}

size_t sim_bonds_sorted_count(sim_bonds *bs)
{
    sim_bonds_sort(bs);
    return bs->n;
}

void sim_bonds_get(sim_bonds *bs, size_t k, grains_bond *out)
{
    sim_bonds_sort(bs);
    const sim_bond *bd = &bs->list[k];
    *out = (grains_bond){bd->a, bd->b, bd->broken, bd->force, bd->torque, {0}, {0}, bd->h.ut};
    for (int m = 0; m < 3; m++)
        out->us[m] = bd->h.us[m], out->ur[m] = bd->h.ur[m];
}

static int finite_bond(const grains_bond *b)
{
    int ok = isfinite(b->force) && isfinite(b->torque) && isfinite(b->ut);
    for (int m = 0; m < 3; m++)
        ok &= isfinite(b->us[m]) && isfinite(b->ur[m]);
    return ok;
}

grains_status sim_bonds_set(sim_bonds *bs, size_t k, const grains_bond *in, int *index_old, grains_error *err)
{
    size_t n = sim_bonds_sorted_count(bs);
    if (k >= n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu does not exist (%zu bonds)", k, n);
    sim_bond *bd = &bs->list[k];
    if (in->a != bd->a || in->b != bd->b)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu joins %u and %u, not %zu and %zu", k,
                                bd->a, bd->b, in->a, in->b);
    if (!finite_bond(in) || (in->broken != 0 && in->broken != 1))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu-%zu: a value is not finite, or broken is "
                                "not 0 or 1", in->a, in->b);
    *index_old = in->broken != bd->broken; /* the index of intact bonds by slot */
    bd->broken = in->broken;
    bd->force = in->force, bd->torque = in->torque;
    for (int m = 0; m < 3; m++)
        bd->h.us[m] = in->us[m], bd->h.ur[m] = in->ur[m];
    bd->h.ut = in->ut;
    return GRAINS_OK;
}

int sim_bonds_hold(const sim_bonds *bs, uint32_t a, uint32_t b)
{
    if (!bs->sorted) { /* (bonds added since the last sort: each looked at) */
        for (size_t k = 0; k < bs->n; k++)
            if (bs->list[k].a == a && bs->list[k].b == b && !bs->list[k].broken)
                return 1;
        return 0;
    }
    size_t lo = 0, hi = bs->n; /* sorted by (a, b) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const sim_bond *m = &bs->list[mid];
        if (m->a < a || (m->a == a && m->b < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < bs->n && bs->list[lo].a == a && bs->list[lo].b == b && !bs->list[lo].broken;
}

void sim_bonds_keep(sim_bonds *bs, const uint8_t *gone, const uint32_t *renamed)
{
    size_t kept = 0;
    for (size_t k = 0; k < bs->n; k++) {
        sim_bond b = bs->list[k];
        if (gone[b.a] || gone[b.b])
            continue;
        b.a = renamed[b.a];
        b.b = renamed[b.b];
        bs->list[kept++] = b;
    }
    if (kept == 0)
        bs->sorted = 0; /* as a list that never had any (the rebuild lets its index go) */
    bs->n = kept;
}

size_t sim_bonds_broken(const sim_bonds *bs)
{
    size_t n = 0;
    for (size_t k = 0; k < bs->n; k++)
        n += bs->list[k].broken != 0;
    return n;
}
