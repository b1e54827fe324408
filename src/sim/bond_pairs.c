/* The bonds through the library's API (grains/sim.h): added, counted, read
 * and set by id; and the intact bonds' pairs, for a frame's Lines
 * (grains_sim_bond_pairs): the simulation's own list, or, with the ranks
 * holding their own particles alone, every rank's sent to rank 0
 * (decomp/rank_bonds.c). The bonds themselves are bonds/bonds.c's, read and
 * set through bonds/bond_records.c. */
#include <stdint.h>
#include <stdlib.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"

size_t grains_sim_bond_pairs(const grains_sim *sim, size_t **pairs)
{
    *pairs = NULL;
    if (!sim_bonds_any(sim))
        return 0;
    if (sim_ranks_local(sim) && rank_holds_share(&sim->rank_view))
        return sim_ranks_bond_pairs(&sim->rank_view, pairs); /* (collective: every rank's send and receive) */
    return sim_bonds_intact_pairs((sim_bonds *)sim_bonds_read(sim), pairs);
}

/* Ranks holding their own particles alone keep the bonds of their own
 * (decomp/rank_bonds.c): a bond added on every rank alike after the first
 * step would be held where neither of its particles is. */
static grains_status refuse_on_shares(const grains_sim *sim, const char *what, grains_error *err)
{
    if (!rank_holds_share(&sim->rank_view))
        return GRAINS_OK;
    if (rank_dealt(&sim->rank_view))
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
    return sim_bonds_sorted_count((sim_bonds *)sim_bonds_read(sim));
}

void grains_sim_get_bond(const grains_sim *sim, size_t k, grains_bond *out)
{
    sim_bonds_get((sim_bonds *)sim_bonds_read(sim), k, out);
}

grains_status grains_sim_set_bond(grains_sim *sim, size_t k, const grains_bond *in, grains_error *err)
{
    grains_status s = refuse_on_shares(sim, "set", err);
    int index_old = 0;
    if (s == GRAINS_OK && (s = sim_bonds_set(&sim->bonds, k, in, &index_old, err)) == GRAINS_OK)
        sim->need_rebuild |= index_old;
    return s;
}
