/* A simulation's membranes (membrane/membranes.h). */
#include "membrane/membranes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "membrane/forces.h"
#include "util/array.h"

/* Room for `more` vertices and one more membrane (util/array.h's policy:
 * the lists of membranes double, the vertices grow by half). */
static grains_status reserve(sim_membranes *ms, size_t more, grains_error *err)
{
    if (ms->n == ms->cap) {
        size_t cap = ms->cap ? 2 * ms->cap : 4;
        if (!array_resize((void **)&ms->list, cap, sizeof *ms->list) ||
            !array_resize((void **)&ms->first, cap, sizeof *ms->first) ||
            !array_resize((void **)&ms->mesh_first, cap, sizeof *ms->mesh_first) ||
            !array_resize((void **)&ms->held, cap, sizeof *ms->held))
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a membrane");
        ms->cap = cap;
    }
    size_t need = ms->n_vertices + more;
    if (need <= ms->cap_vertices)
        return GRAINS_OK;
    size_t cap = array_grown(need, 2);
    void **vectors[] = {(void **)&ms->x, (void **)&ms->v, (void **)&ms->f, (void **)&ms->x_listed,
                        (void **)&ms->pin_ref};
    for (size_t k = 0; k < sizeof vectors / sizeof *vectors; k++)
        if (!array_resize(vectors[k], cap, sizeof(vec3)))
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a membrane's vertices");
    if (!array_resize((void **)&ms->inv_mass, cap, sizeof *ms->inv_mass) ||
        !array_resize((void **)&ms->pin, cap, sizeof *ms->pin))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a membrane's vertices");
    ms->cap_vertices = cap;
    return GRAINS_OK;
}

grains_status sim_membranes_add(sim_membranes *ms, const grains_mesh *mesh, const membrane_material *mat,
                                size_t mesh_first, grains_error *err)
{
    membrane m;
    grains_status s = membrane_build(&m, mesh, mat, NULL, err);
    if (s != GRAINS_OK)
        return s;
    for (size_t i = 0; i < m.n_vertices; i++)
        if (!(m.mass[i] > 0)) {
            membrane_free(&m);
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "membrane: vertex %zu belongs to no triangle (it would have no mass)", i);
        }
    if ((s = reserve(ms, m.n_vertices, err)) != GRAINS_OK) {
        membrane_free(&m);
        return s;
    }
    size_t first = ms->n_vertices;
    for (size_t i = 0; i < m.n_vertices; i++) {
        ms->x[first + i] = ms->x_listed[first + i] = m.x0[i];
        ms->v[first + i] = ms->f[first + i] = v3(0, 0, 0);
        ms->inv_mass[first + i] = 1 / m.mass[i];
        ms->pin[first + i] = -1;
    }
    ms->first[ms->n] = first;
    ms->mesh_first[ms->n] = mesh_first;
    ms->held[ms->n] = 0;
    ms->list[ms->n++] = m;
    ms->n_vertices += m.n_vertices;
    return GRAINS_OK;
}

void sim_membranes_free(sim_membranes *ms)
{
    for (size_t k = 0; k < ms->n; k++)
        membrane_free(&ms->list[k]);
    free(ms->list);
    free(ms->first);
    free(ms->mesh_first);
    free(ms->held);
    free(ms->x_listed);
    free(ms->x);
    free(ms->v);
    free(ms->f);
    free(ms->inv_mass);
    free(ms->pin);
    free(ms->pin_ref);
    memset(ms, 0, sizeof *ms);
}

real sim_membranes_pressure(const sim_membranes *ms, size_t k, real t)
{
    const membrane_material *mat = &ms->list[k].mat;
    real p = membrane_pressure_at(mat, t);
    return mat->pressure_control == GRAINS_PRESSURE_FELT ? fmax(0, p + ms->held[k]) : p;
}

long sim_membranes_forces(sim_membranes *ms, real t)
{
    memset(ms->f, 0, ms->n_vertices * sizeof *ms->f);
    for (size_t k = 0; k < ms->n; k++) {
        size_t o = ms->first[k];
        membrane_forces(&ms->list[k], ms->x + o, ms->v + o, sim_membranes_pressure(ms, k, t), ms->f + o);
    }
    for (size_t i = 0; i < ms->n_vertices; i++)
        if (!v3_isfinite(ms->f[i]))
            return (long)i;
    return -1;
}

void sim_membranes_pin(sim_membranes *ms, size_t at, const walls *wl, int wall)
{
    if (ms->pin[at] < 0)
        ms->n_pinned++;
    ms->pin[at] = wall;
    ms->pin_ref[at] = walls_point_ref(&wl->body[wall], ms->x[at]);
}

void sim_membranes_follow(sim_membranes *ms, const walls *wl)
{
    for (size_t i = 0; ms->n_pinned && i < ms->n_vertices; i++)
        if (ms->pin[i] >= 0) {
            const wall_body *b = &wl->body[ms->pin[i]];
            ms->x[i] = walls_point_now(b, ms->pin_ref[i]);
            ms->v[i] = walls_point_velocity(b, ms->x[i]);
        }
}

void sim_membranes_pull_walls(const sim_membranes *ms, walls *wl)
{
    for (size_t i = 0; ms->n_pinned && i < ms->n_vertices; i++)
        if (ms->pin[i] >= 0) {
            wall_body *b = &wl->body[ms->pin[i]];
            vec3 centre = v3_add(b->motion.point, b->now.shift);
            b->force = v3_add(b->force, ms->f[i]);
            b->torque = v3_add(b->torque, v3_cross(v3_sub(ms->x[i], centre), ms->f[i]));
        }
}

void sim_membranes_place(const sim_membranes *ms, grains_mesh *combined)
{
    for (size_t k = 0; k < ms->n; k++)
        for (size_t i = 0; i < ms->list[k].n_vertices; i++)
            combined->vertices[ms->mesh_first[k] + i] = ms->x[ms->first[k] + i];
}

void sim_membranes_listed(sim_membranes *ms)
{
    memcpy(ms->x_listed, ms->x, ms->n_vertices * sizeof *ms->x);
}

real sim_membranes_displacement(const sim_membranes *ms)
{
    real most2 = 0;
    for (size_t i = 0; i < ms->n_vertices; i++) {
        vec3 d = v3_sub(ms->x[i], ms->x_listed[i]);
        most2 = fmax(most2, v3_dot(d, d));
    }
    return sqrt(most2);
}

size_t sim_membranes_bytes(const sim_membranes *ms)
{
    size_t b = ms->cap * (sizeof *ms->list + 2 * sizeof *ms->first + sizeof *ms->held) +
               ms->cap_vertices * (5 * sizeof(vec3) + sizeof(real) + sizeof(int));
    for (size_t k = 0; k < ms->n; k++) {
        const membrane *m = &ms->list[k];
        b += m->n_vertices * (sizeof *m->x0 + sizeof *m->mass) + m->n_edges * sizeof *m->edges +
             m->n_hinges * sizeof *m->hinges + m->n_triangles * sizeof *m->triangles;
    }
    return b;
}

double sim_membranes_energy(const sim_membranes *ms)
{
    double E = 0;
    for (size_t k = 0; k < ms->n; k++)
        E += membrane_stretch_energy(&ms->list[k], ms->x + ms->first[k]);
    for (size_t i = 0; i < ms->n_vertices; i++)
        E += 0.5 * v3_dot(ms->v[i], ms->v[i]) / ms->inv_mass[i];
    return E;
}

void sim_membranes_write_state(const sim_membranes *ms, bytes_out *o)
{
    size_t n = ms->n_vertices;
    bytes_put_u64(o, n);
    bytes_put_reals(o, (const real *)ms->x, 3 * n);
    bytes_put_reals(o, (const real *)ms->v, 3 * n);
    bytes_put_reals(o, (const real *)ms->f, 3 * n);
    bytes_put_reals(o, (const real *)ms->x_listed, 3 * n);
    bytes_put_reals(o, ms->held, ms->n);
}

grains_status sim_membranes_read_state(sim_membranes *ms, bytes_in *in, grains_error *err)
{
    size_t n = ms->n_vertices, got;
    if (!bytes_get_count(in, 12 * sizeof(real), n, &got) || got != n)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: not the run's %zu membrane vertices", n);
    vec3 *field[4] = {ms->x, ms->v, ms->f, ms->x_listed};
    for (int k = 0; k < 4; k++) {
        bytes_get_reals(in, (real *)field[k], 3 * n);
        for (size_t i = 0; i < n && !in->bad; i++)
            if (!v3_isfinite(field[k][i]))
                return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: membrane vertex %zu is not finite", i);
    }
    bytes_get_reals(in, ms->held, ms->n);
    for (size_t k = 0; k < ms->n && !in->bad; k++)
        if (!isfinite(ms->held[k]) || (ms->list[k].mat.pressure_control != GRAINS_PRESSURE_FELT && ms->held[k] != 0))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: membrane %zu's servo", k);
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the membranes") : GRAINS_OK;
}
