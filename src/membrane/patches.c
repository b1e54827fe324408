/* Patch contacts' reactions on membrane vertices (membrane paper Section
 * 2.5): each cell block logs what its particles gave the vertices, in its
 * own order, and the logs are added block by block after the force loop,
 * so the vertices' forces are the same for any thread count. */
#include <stdlib.h>

#include "membrane/forces.h"
#include "membrane/patches.h"
#include "util/array.h"

/* Listed patches of block b's particles. */
static size_t patches_listed(const patch_lists *l, size_t b)
{
    const grains_grid *g = l->grid;
    const grains_neighbors *nb = l->nb;
    size_t n = 0;
    for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t entry = nb->j[k];
            n += (entry & STORE_MESH_BIT) && l->mesh->elements[entry & STORE_INDEX_MASK].body < 0;
        }
    return n;
}

grains_status sim_reserve_patch_logs(patch_logs *pl, const patch_lists *l, grains_error *err)
{
    size_t n_blocks = l->grid->n_blocks, total = 0;
    if (!array_reserve((void **)&pl->log, &pl->log_cap, n_blocks + 1, sizeof *pl->log, 2))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
    for (size_t b = 0; b < n_blocks; b++) { /* offsets first: the records may move */
        pl->log[b].n = (uint32_t)total;
        total += 3 * patches_listed(l, b); /* one record per vertex of a patch */
    }
    if (!array_reserve((void **)&pl->records, &pl->records_cap, total + 1, sizeof *pl->records, 2))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for membrane patch contacts");
    for (size_t b = 0; b < n_blocks; b++)
        pl->log[b] = (patch_log){pl->records + pl->log[b].n, 0};
    return GRAINS_OK;
}

void sim_patch_logs_free(patch_logs *pl)
{
    free(pl->log);
    free(pl->records);
    *pl = (patch_logs){0};
}

double sim_patch_logs_radial(const membrane_view *v, size_t k, vec3 point, vec3 axis)
{
    const sim_membranes *mb = v->mb;
    size_t lo = mb->first[k], hi = lo + mb->list[k].n_vertices, n = v->n_logs;
    const patch_log *logs = v->logs;
    double push = 0;
    for (size_t b = 0; b < n; b++) {
        const patch_log *log = &logs[b];
        for (uint32_t r = 0; r < log->n; r++) {
            uint32_t vx = log->rec[r].vertex;
            if (vx < lo || vx >= hi)
                continue;
            vec3 d = v3_sub(mb->x[vx], point);
            d = v3_axpy(d, -v3_dot(d, axis), axis);
            real len = v3_norm(d);
            if (len > 0)
                push += v3_dot(log->rec[r].f, d) / len;
        }
    }
    return push;
}

void sim_membrane_load_at(const membrane_view *v, size_t k, vec3 point, vec3 axis, real t, grains_membrane_load *out)
{
    const membrane *m = &v->mb->list[k];
    const vec3 *x = v->mb->x + v->mb->first[k];
    vec3 a = v3_scale(1 / v3_norm(axis), axis);
    *out = (grains_membrane_load){membrane_area(m, x), 0, 0, sim_membranes_pressure(v->mb, k, t)};
    for (size_t i = 0; i < m->n_vertices; i++) {
        vec3 r = v3_sub(x[i], point);
        out->mean_radius += v3_norm(v3_axpy(r, -v3_dot(r, a), a)) / (double)m->n_vertices;
    }
    out->radial_push = sim_patch_logs_radial(v, k, point, a);
}

void sim_gather_patch_logs(const membrane_view *v)
{
    vec3 *f = v->mb->f;
    for (size_t b = 0; b < v->n_logs; b++) {
        const patch_log *log = &v->logs[b];
        for (uint32_t r = 0; r < log->n; r++)
            f[log->rec[r].vertex] = v3_add(f[log->rec[r].vertex], log->rec[r].f);
    }
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

grains_status sim_patch_logs_read_state(patch_logs *pl, const patch_lists *l, size_t n_vertices, bytes_in *in,
                                        grains_error *err)
{
    size_t n_blocks;
    size_t want = n_vertices && pl->log ? l->grid->n_blocks : 0;
    if (!bytes_get_count(in, 4, want, &n_blocks) || n_blocks != want)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the membranes' patch logs");
    for (size_t b = 0; b < n_blocks; b++) {
        patch_log *lg = &pl->log[b];
        uint32_t n = bytes_get_u32(in);
        if (in->bad || n > 3 * patches_listed(l, b))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the membranes' patch logs");
        for (lg->n = 0; lg->n < n && !in->bad; lg->n++) {
            patch_record *r = &lg->rec[lg->n];
            r->vertex = bytes_get_u32(in);
            bytes_get_reals(in, (real *)&r->f, 3);
            if (!in->bad && (r->vertex >= n_vertices || !v3_isfinite(r->f)))
                return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the membranes' patch logs");
        }
    }
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the membranes' patch logs")
                   : GRAINS_OK;
}
