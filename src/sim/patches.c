/* Patch contacts' reactions on membrane vertices (membrane paper Section
 * 2.5): each cell block logs what its particles gave the vertices, in its
 * own order, and the logs are added block by block after the force loop,
 * so the vertices' forces are the same for any thread count. */
#include "sim/sim_internal.h"
#include "util/array.h"

/* Listed patches of block b's particles. */
static size_t patches_listed(const grains_sim *sim, size_t b)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    size_t n = 0;
    for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t entry = nb->j[k];
            n += (entry & STORE_MESH_BIT) && sim->mesh->elements[entry & STORE_INDEX_MASK].body < 0;
        }
    return n;
}

grains_status sim_reserve_patch_logs(grains_sim *sim, grains_error *err)
{
    size_t n_blocks = sim->grid.n_blocks, total = 0;
    if (!array_reserve((void **)&sim->patch_logs, &sim->patch_logs_cap, n_blocks + 1, sizeof *sim->patch_logs, 2))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
    for (size_t b = 0; b < n_blocks; b++) { /* offsets first: the records may move */
        sim->patch_logs[b].n = (uint32_t)total;
        total += 3 * patches_listed(sim, b); /* one record per vertex of a patch */
    }
    if (!array_reserve((void **)&sim->patch_records, &sim->patch_records_cap, total + 1, sizeof *sim->patch_records,
                       2))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
    for (size_t b = 0; b < n_blocks; b++)
        sim->patch_logs[b] = (patch_log){sim->patch_records + sim->patch_logs[b].n, 0};
    return GRAINS_OK;
}

double sim_patch_logs_radial(const grains_sim *sim, size_t k, vec3 point, vec3 axis)
{
    size_t lo = sim->mb.first[k], hi = lo + sim->mb.list[k].n_vertices;
    double push = 0;
    for (size_t b = 0; sim->patch_logs && b < sim->grid.n_blocks; b++) {
        const patch_log *log = &sim->patch_logs[b];
        for (uint32_t r = 0; r < log->n; r++) {
            uint32_t v = log->rec[r].vertex;
            if (v < lo || v >= hi)
                continue;
            vec3 d = v3_sub(sim->mb.x[v], point);
            d = v3_axpy(d, -v3_dot(d, axis), axis);
            real len = v3_norm(d);
            if (len > 0)
                push += v3_dot(log->rec[r].f, d) / len;
        }
    }
    return push;
}

void sim_gather_patch_logs(grains_sim *sim)
{
    for (size_t b = 0; b < sim->grid.n_blocks; b++) {
        const patch_log *log = &sim->patch_logs[b];
        for (uint32_t r = 0; r < log->n; r++)
            sim->mb.f[log->rec[r].vertex] = v3_add(sim->mb.f[log->rec[r].vertex], log->rec[r].f);
    }
}
