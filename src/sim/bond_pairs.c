/* The bonds through the library's API (grains/sim.h): added, counted, read
 * and set by id; and the intact bonds' pairs, for a frame's Lines
 * (grains_sim_bond_pairs): the simulation's own list, or, with the ranks
 * holding their own particles alone, every rank's sent to rank 0
 * (decomp/rank_bonds.c). The bonds themselves are bonds/bonds.c's. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"

size_t grains_sim_bond_pairs(const grains_sim *sim, size_t **pairs)
{
    *pairs = NULL;
    if (!sim_bonds_any(sim))
        return 0;
    if (sim_ranks_local(sim) && sim->ranks.holds_share)
        return sim_ranks_bond_pairs(&sim->rank_view, pairs); /* (collective: every rank's send and receive) */
    sim_bonds *bs = (sim_bonds *)sim_bonds_read(sim);
    sim_bonds_sort(bs); /* the order is part of the answer; sorting changes no bond */
    if (!(*pairs = malloc((2 * bs->n + 2) * sizeof **pairs)))
        return SIZE_MAX;
    size_t n = 0;
    for (size_t k = 0; k < bs->n; k++)
        if (!bs->list[k].broken)
            (*pairs)[2 * n] = bs->list[k].a, (*pairs)[2 * n + 1] = bs->list[k].b, n++;
    return n;
}

/* Ranks holding their own particles alone keep the bonds of their own
 * (decomp/rank_bonds.c): a bond added on every rank alike after the first
 * step would be held where neither of its particles is. */
static grains_status refuse_on_shares(const grains_sim *sim, const char *what, grains_error *err)
{
    if (!sim->ranks.holds_share)
        return GRAINS_OK;
    if (sim->ranks.dealt)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "bonds join particles every rank holds before the "
                                "first step: add them with grains_sim_add_particle, not grains_sim_add_dealt");
    return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "ranks holding their own particles alone "
                            "(grains_ranks.local) %s bonds before the first step alone", what);
}

grains_status grains_sim_add_bond(grains_sim *sim, size_t a, size_t b, grains_error *err)
{
    grains_status s = refuse_on_shares(sim, "add", err);
    if (s == GRAINS_OK && (s = sim_bonds_add(&sim->bonds, a, b, grains_sim_count(sim), sim->p.bond_kn, err)) == GRAINS_OK)
        sim->need_rebuild = 1; /* the index by slot */
    return s;
}

size_t grains_sim_bond_count(const grains_sim *sim)
{
    sim_bonds *bs = (sim_bonds *)sim_bonds_read(sim);
    sim_bonds_sort(bs); /* the order is part of the answer; sorting changes no bond */
    return bs->n;
}

void grains_sim_get_bond(const grains_sim *sim, size_t k, grains_bond *out)
{
    sim_bonds *bs = (sim_bonds *)sim_bonds_read(sim);
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

grains_status grains_sim_set_bond(grains_sim *sim, size_t k, const grains_bond *in, grains_error *err)
{
    grains_status s = refuse_on_shares(sim, "set", err);
    if (s != GRAINS_OK)
        return s;
    size_t n = grains_sim_bond_count(sim); /* sorted */
    if (k >= n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu does not exist (%zu bonds)", k, n);
    sim_bond *bd = &sim->bonds.list[k];
    if (in->a != bd->a || in->b != bd->b)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu joins %u and %u, not %zu and %zu", k,
                                bd->a, bd->b, in->a, in->b);
    if (!finite_bond(in) || (in->broken != 0 && in->broken != 1))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu-%zu: a value is not finite, or broken is "
                                "not 0 or 1", in->a, in->b);
    if (in->broken != bd->broken)
        sim->need_rebuild = 1; /* the index of intact bonds by slot */
    bd->broken = in->broken;
    bd->force = in->force, bd->torque = in->torque;
    for (int m = 0; m < 3; m++)
        bd->h.us[m] = in->us[m], bd->h.ur[m] = in->ur[m];
    bd->h.ut = in->ut;
    return GRAINS_OK;
}
