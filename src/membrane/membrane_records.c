/* The simulation's membranes one vertex and triangle at a time, as the
 * library's API hands them out (grains/sim.h), and their vertices kept and
 * put back with the last good state. The core calls these and reads no
 * member of the membranes (sim/bodies.c, sim/last_good.c). */
#include <math.h>
#include <string.h>

#include "membrane/membranes.h"

int sim_membranes_pin_on(const sim_membranes *ms, int mesh)
{
    for (size_t v = 0; ms->pin && v < ms->n_vertices; v++)
        if (ms->pin[v] == mesh)
            return 1;
    return 0;
}

void sim_membranes_drop_last(sim_membranes *ms)
{
    membrane_free(&ms->list[--ms->n]);
    ms->n_vertices = ms->first[ms->n];
}

int sim_membranes_has_vertex(const sim_membranes *ms, size_t k, size_t i)
{
    return k < ms->n && i < ms->list[k].n_vertices;
}

size_t sim_membranes_vertices_of(const sim_membranes *ms, size_t k) { return ms->list[k].n_vertices; }

size_t sim_membranes_triangles_of(const sim_membranes *ms, size_t k) { return ms->list[k].n_triangles; }

grains_membrane_vertex sim_membranes_get_vertex(const sim_membranes *ms, size_t k, size_t i)
{
    size_t at = ms->first[k] + i;
    return (grains_membrane_vertex){ms->x[at], ms->v[at], 1 / ms->inv_mass[at]};
}

void sim_membranes_set_vertex(sim_membranes *ms, size_t k, size_t i, vec3 x, vec3 v)
{
    ms->x[ms->first[k] + i] = x;
    ms->v[ms->first[k] + i] = v;
}

void sim_membranes_pin_vertex(sim_membranes *ms, size_t k, size_t i, const walls *wl, int mesh)
{
    sim_membranes_pin(ms, ms->first[k] + i, wl, mesh);
}

/* Twice the area of triangle t of membrane m at positions x. */
static real twice_area(const membrane *m, const vec3 *x, size_t t)
{
    const uint32_t *v = m->triangles[t].v;
    return v3_norm(v3_cross(v3_sub(x[v[1]], x[v[0]]), v3_sub(x[v[2]], x[v[0]])));
}

double sim_membranes_triangle(const sim_membranes *ms, size_t k, size_t t, uint32_t v[3])
{
    const membrane *m = &ms->list[k];
    memcpy(v, m->triangles[t].v, 3 * sizeof *v);
    return twice_area(m, ms->x + ms->first[k], t) / twice_area(m, m->x0, t);
}

void sim_membranes_move(sim_membranes *ms, void (*fn)(const vertex_view *), vec3 g, real dt)
{
    const vertex_view view = {ms->x, ms->v, ms->f, ms->inv_mass, ms->n_vertices, g, dt};
    fn(&view);
}

real sim_membranes_fastest(const sim_membranes *ms)
{
    real most2 = 0;
    for (size_t i = 0; i < ms->n_vertices; i++)
        most2 = fmax(most2, v3_dot(ms->v[i], ms->v[i]));
    return sqrt(most2);
}

void sim_membranes_save(const sim_membranes *ms, vec3 *xv)
{
    memcpy(xv, ms->x, ms->n_vertices * sizeof *xv);
    memcpy(xv + ms->n_vertices, ms->v, ms->n_vertices * sizeof *xv);
}

void sim_membranes_restore(sim_membranes *ms, const vec3 *xv)
{
    memcpy(ms->x, xv, ms->n_vertices * sizeof *xv);
    memcpy(ms->v, xv + ms->n_vertices, ms->n_vertices * sizeof *xv);
}
