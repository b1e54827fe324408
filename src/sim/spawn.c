/* Spawn box (TinyDEM Section 3.1): N_spawn attempts per step, centre uniform
 * in the box, radius uniform in [R_min, R_max] and carried over to the next
 * attempt after a failure (so small particles are not favoured), no overlap
 * with particles or mesh, until N_max particles exist. */
#include "sim/sim_internal.h"

/* Whether a sphere (x, R) overlaps a particle binned at `level` of the
 * last rebuild: those in the cells its reach covers, grown by the grid's pad
 * (their motion and growth since are below it). */
static int touches_level(const grains_sim *sim, int level, vec3 x, real R)
{
    const grains_particles *pt = &sim->pt;
    const grains_grid *g = &sim->grid;
    int64_t lo[3], hi[3], d[3];
    grid_reach(g, level, x, R + g->level[level].R_top + g->pad, lo, hi);
    for (d[2] = lo[2]; d[2] <= hi[2]; d[2]++)
        for (d[1] = lo[1]; d[1] <= hi[1]; d[1]++)
            for (d[0] = lo[0]; d[0] <= hi[0]; d[0]++) {
                uint32_t cell = grid_find(g, level, d);
                if (cell == GRID_NONE)
                    continue;
                for (uint32_t j = g->first[cell]; j < g->first[cell + 1]; j++) {
                    vec3 dx = periodic_delta(&sim->box, v3_sub(x, pt->x[j]));
                    if (v3_dot(dx, dx) < (R + pt->R[j]) * (R + pt->R[j]))
                        return 1;
                }
            }
    return 0;
}

/* Particles overlapping a sphere (x, R): those binned at the last rebuild
 * through the grid's levels, and those added after it one by one. */
static int touches_particle(const grains_sim *sim, vec3 x, real R)
{
    const grains_particles *pt = &sim->pt;
    const grains_grid *g = &sim->grid;
    for (int level = 0; level < g->n_levels; level++)
        if (touches_level(sim, level, x, R))
            return 1;
    for (size_t j = g->n_particles; j < pt->n; j++) {
        vec3 dx = periodic_delta(&sim->box, v3_sub(x, pt->x[j]));
        if (v3_dot(dx, dx) < (R + pt->R[j]) * (R + pt->R[j]))
            return 1;
    }
    return 0;
}

static int touches_mesh(const grains_mesh *mesh, vec3 x, real R)
{
    for (size_t e = 0; mesh && e < mesh->n_elements; e++) {
        const grains_mesh_element *el = &mesh->elements[e];
        if (x.x < el->lo.x - R || x.y < el->lo.y - R || x.z < el->lo.z - R || x.x > el->hi.x + R ||
            x.y > el->hi.y + R || x.z > el->hi.z + R)
            continue;
        vec3 dx = grains_mesh_offset(mesh, e, x);
        if (v3_dot(dx, dx) < (R + el->R) * (R + el->R))
            return 1;
    }
    return 0;
}

/* Whether a sphere at x of radius R leaves the cylinder along z inscribed
 * in the spawn box (its cross-section the ellipse in the box's x-y face). */
static int outside_cylinder(const grains_params *p, vec3 x, real R)
{
    real ax = (p->s_max.x - p->s_min.x) / 2 - R, ay = (p->s_max.y - p->s_min.y) / 2 - R;
    if (!(ax > 0 && ay > 0))
        return 1;
    real u = (x.x - (p->s_min.x + p->s_max.x) / 2) / ax, w = (x.y - (p->s_min.y + p->s_max.y) / 2) / ay;
    return u * u + w * w > 1;
}

grains_status sim_spawn(grains_sim *sim, size_t *added, grains_error *err)
{
    const grains_params *p = &sim->p;
    *added = 0;
    for (long a = 0; a < p->N_spawn && (long)sim->pt.n < p->N_max; a++) {
        real R = p->R_min + sim->spawn_u * (p->R_max - p->R_min);
        real R_now = R * sim_grow_scale(p, grains_sim_time(sim)); /* grains_sim_add_particle scales it so */
        vec3 x;
        x.x = p->s_min.x + rng_uniform(&sim->rng) * (p->s_max.x - p->s_min.x);
        x.y = p->s_min.y + rng_uniform(&sim->rng) * (p->s_max.y - p->s_min.y);
        x.z = p->s_min.z + rng_uniform(&sim->rng) * (p->s_max.z - p->s_min.z);
        if (p->spawn_cylinder && outside_cylinder(p, x, R_now))
            continue; /* the radius carries over */
        if (touches_particle(sim, x, R_now) || touches_mesh(sim->mesh, x, R_now))
            continue; /* the radius carries over */
        grains_particle np = {x, p->v0, p->w0, {1, 0, 0, 0}, R, p->spawn_material};
        grains_status s = grains_sim_add_particle(sim, &np, err);
        if (s != GRAINS_OK)
            return s;
        sim->spawn_u = rng_uniform(&sim->rng);
        (*added)++;
    }
    return GRAINS_OK;
}
