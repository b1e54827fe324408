/* After the lists are built: the contact histories attached to them (each cell block's
 * window, the histories in the lists' order), and what the step's loops size from them
 * (bond index, mesh candidates, patch logs). The rebuild and a rank's resume both end here. */
#include <stdlib.h>

#include "sim/sim_internal.h"

/* Each cell block's window of histories, from its live and pending contacts. */
static grains_status make_windows(grains_sim *sim, grains_error *err)
{
    size_t n_blocks = sim->grid.n_blocks;
    uint32_t *counts = malloc(2 * (n_blocks ? n_blocks : 1) * sizeof *counts); /* a few per thousand particles */
    if (!counts)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    neighbors_count_contacts(&sim->nb, &sim->grid, sim->mesh, sim->pt.x, sim->pt.R, counts, counts + n_blocks,
                             sim->nthreads);
    grains_status s = store_windows(&sim->cs, counts, counts + n_blocks, n_blocks, err);
    free(counts);
    return s;
}

grains_status sim_attach_histories(grains_sim *sim, store_key *keys, size_t n, uint32_t *first, grains_error *err)
{
    neighbors_attach_contacts(&sim->nb, keys, n, sim->nthreads);
    grains_status s = make_windows(sim, err);
    if (s != GRAINS_OK)
        return s;
    neighbors_place_histories(&sim->nb, &sim->grid, &sim->cs, keys, n, first, sim->nthreads);
    store_permute(&sim->cs, keys, n);
    return GRAINS_OK;
}

grains_status sim_reserve_mesh_candidates(grains_sim *sim, grains_error *err)
{
    if (sim->p.compat == GRAINS_COMPAT_TINYDEM)
        return GRAINS_OK;
    const grains_neighbors *nb = &sim->nb;
    size_t most = 0;
    for (size_t i = 0; i < nb->n_particles; i++) {
        size_t n = 0; /* the elements come last in each list */
        for (uint32_t k = nb->start[i + 1]; k > nb->start[i] && (nb->j[k - 1] & STORE_MESH_BIT); k--)
            n++;
        most = n > most ? n : most;
    }
    if (!sim->cand_thread && !(sim->cand_thread = calloc((size_t)sim->nthreads, sizeof *sim->cand_thread)))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for mesh contacts");
    if (most <= sim->cand_cap)
        return GRAINS_OK;
    for (int t = 0; t < sim->nthreads; t++) {
        mesh_candidate *c = realloc(sim->cand_thread[t], most * sizeof *c);
        if (!c)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu mesh contacts", most);
        sim->cand_thread[t] = c;
    }
    sim->cand_cap = most;
    return GRAINS_OK;
}

grains_status sim_size_from_lists(grains_sim *sim, grains_error *err)
{
    grains_status s = GRAINS_OK;
    if (sim_bonds_count(&sim->bonds))
        s = sim_bonds_index(&sim->bonds, &sim->pt, err);
    else if (sim_bonds_indexed(&sim->bonds)) /* (the last ones removed) */
        sim_bonds_drop_index(&sim->bonds);
    if (s == GRAINS_OK && sim->mesh)
        s = sim_reserve_mesh_candidates(sim, err);
    if (s == GRAINS_OK && sim_membranes_count(&sim->mb))
        s = sim_reserve_patch_logs(&sim->patches, &(patch_lists){&sim->grid, &sim->nb, sim->mesh}, err);
    return s;
}
