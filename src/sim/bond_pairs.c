/* The intact bonds' pairs, for a frame's Lines (grains_sim_bond_pairs):
 * the simulation's own list, or, with the ranks holding their own
 * particles alone, every rank's sent to rank 0 (decomp/rank_bonds.c). */
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
        return sim_ranks_bond_pairs((grains_sim *)sim, pairs); /* (collective: every rank's send and receive) */
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
