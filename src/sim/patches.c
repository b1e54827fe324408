/* Patch contacts' reactions on membrane vertices (membrane paper Section
 * 2.5): each cell block logs what its particles gave the vertices, in its
 * own order, and the logs are added block by block after the force loop,
 * so the vertices' forces are the same for any thread count. */
#include <stdlib.h>

#include "sim/sim_internal.h"

grains_status sim_reserve_patch_logs(grains_sim *sim, grains_error *err)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    size_t n_blocks = g->n_blocks ? g->n_blocks : 1, total = 0;
    if (n_blocks > sim->patch_logs_cap) {
        patch_log *logs = realloc(sim->patch_logs, n_blocks * sizeof *logs);
        if (!logs)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
        sim->patch_logs = logs;
        sim->patch_logs_cap = n_blocks;
    }
    size_t *offset = malloc(n_blocks * sizeof *offset);
    if (!offset)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
    for (size_t b = 0; b < n_blocks; b++) {
        offset[b] = total;
        for (uint32_t i = g->n_blocks ? g->first[g->block_start[b]] : 0;
             g->n_blocks && i < g->first[g->block_start[b + 1]]; i++)
            for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
                uint32_t entry = nb->j[k];
                if ((entry & STORE_MESH_BIT) && sim->mesh->elements[entry & STORE_INDEX_MASK].body < 0)
                    total += 3; /* one record per vertex of the patch */
            }
    }
    if (total + 1 > sim->patch_records_cap) {
        patch_record *r = realloc(sim->patch_records, (total + 1) * sizeof *r);
        if (!r) {
            free(offset);
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
        }
        sim->patch_records = r;
        sim->patch_records_cap = total + 1;
    }
    for (size_t b = 0; b < n_blocks; b++)
        sim->patch_logs[b] = (patch_log){sim->patch_records + offset[b], 0};
    free(offset);
    return GRAINS_OK;
}

void sim_gather_patch_logs(grains_sim *sim)
{
    for (size_t b = 0; b < sim->grid.n_blocks; b++) {
        const patch_log *log = &sim->patch_logs[b];
        for (uint32_t r = 0; r < log->n; r++)
            sim->mb.f[log->rec[r].vertex] = v3_add(sim->mb.f[log->rec[r].vertex], log->rec[r].f);
    }
}
