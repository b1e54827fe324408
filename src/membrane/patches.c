/* Patch contacts' reactions on membrane vertices (membrane paper Section
 * 2.5): each cell block logs what its particles gave the vertices, in its
 * own order, and the logs are added block by block after the force loop,
 * so the vertices' forces are the same for any thread count. */
#include <stdlib.h>

#include "membrane/forces.h"
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

/* The last step's logs, in the whole's order: the grid's blocks, or, on
 * ranks holding their own particles alone, every rank's named ones; *n. */
static const patch_log *logs_in_order(const grains_sim *sim, size_t *n)
{
    if (sim->ranks.holds_share) {
        *n = sim->ranks.n_named_logs;
        return sim->ranks.named_logs;
    }
    *n = sim->patch_logs ? sim->grid.n_blocks : 0;
    return sim->patch_logs;
}

double sim_patch_logs_radial(const grains_sim *sim, size_t k, vec3 point, vec3 axis)
{
    size_t lo = sim->mb.first[k], hi = lo + sim->mb.list[k].n_vertices, n;
    const patch_log *logs = logs_in_order(sim, &n);
    double push = 0;
    for (size_t b = 0; b < n; b++) {
        const patch_log *log = &logs[b];
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

void sim_membrane_load_at(const grains_sim *sim, size_t k, vec3 point, vec3 axis, real t, grains_membrane_load *out)
{
    const membrane *m = &sim->mb.list[k];
    const vec3 *x = sim->mb.x + sim->mb.first[k];
    vec3 a = v3_scale(1 / v3_norm(axis), axis);
    *out = (grains_membrane_load){membrane_area(m, x), 0, 0, sim_membranes_pressure(&sim->mb, k, t)};
    for (size_t i = 0; i < m->n_vertices; i++) {
        vec3 r = v3_sub(x[i], point);
        out->mean_radius += v3_norm(v3_axpy(r, -v3_dot(r, a), a)) / (double)m->n_vertices;
    }
    out->radial_push = sim_patch_logs_radial(sim, k, point, a);
}

void sim_gather_patch_logs(grains_sim *sim)
{
    size_t n;
    const patch_log *logs = logs_in_order(sim, &n);
    for (size_t b = 0; b < n; b++) {
        const patch_log *log = &logs[b];
        for (uint32_t r = 0; r < log->n; r++)
            sim->mb.f[log->rec[r].vertex] = v3_add(sim->mb.f[log->rec[r].vertex], log->rec[r].f);
    }
}

patch_log *sim_patch_logs_whole(const grains_sim *sim)
{
    const sim_ranks *r = &sim->ranks;
    patch_log *all = calloc(r->table.n + 1, sizeof *all);
    for (size_t k = 0; all && k < r->n_named_logs; k++)
        all[r->log_entry[k]] = r->named_logs[k];
    return all;
}

void sim_patch_logs_write(const patch_log *logs, size_t n_blocks, bytes_out *o)
{
    bytes_put_u64(o, n_blocks);
    for (size_t b = 0; b < n_blocks; b++) {
        const patch_log *lg = &logs[b];
        bytes_put_u32(o, lg->n);
        for (uint32_t k = 0; k < lg->n; k++) {
            bytes_put_u32(o, lg->rec[k].vertex);
            bytes_put_reals(o, (const real *)&lg->rec[k].f, 3);
        }
    }
}

grains_status sim_patch_logs_read_state(grains_sim *sim, bytes_in *in, grains_error *err)
{
    size_t n_blocks;
    size_t want = sim->mb.n && sim->patch_logs ? sim->grid.n_blocks : 0;
    if (!bytes_get_count(in, 4, want, &n_blocks) || n_blocks != want)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the membranes' patch logs");
    for (size_t b = 0; b < n_blocks; b++) {
        patch_log *lg = &sim->patch_logs[b];
        uint32_t n = bytes_get_u32(in);
        if (in->bad || n > 3 * patches_listed(sim, b))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the membranes' patch logs");
        for (lg->n = 0; lg->n < n && !in->bad; lg->n++) {
            patch_record *r = &lg->rec[lg->n];
            r->vertex = bytes_get_u32(in);
            bytes_get_reals(in, (real *)&r->f, 3);
            if (!in->bad && (r->vertex >= sim->mb.n_vertices || !v3_isfinite(r->f)))
                return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the membranes' patch logs");
        }
    }
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the membranes' patch logs")
                   : GRAINS_OK;
}
