/* Insertion regions (TinyDEM Section 3.1's spawn box, several of them):
 * each step, region by region, `rate` attempts; a centre uniform in the
 * region, the radius drawn from its distribution and carried over to the
 * next attempt after a failure (so small particles are not favoured), no
 * overlap with particles or mesh; until the region's count, or N_max
 * particles in all, or the region stays full for full_after steps. Ranks
 * attempt alike (the same random numbers, the particles within the
 * regions' reach held by every rank: decomp/ranks.c's halo, decomp/rank_local.c)
 * and add the same particles, the whole's count against N_max. */
#include <stdint.h>
#include <string.h>

#include "geometry/periodic.h"
#include "insert/insert.h"
#include "insert/size_draw.h"

/* Whether a sphere (x, R) overlaps a particle binned at `level` of the
 * last rebuild: those in the cells its reach covers, grown by the grid's pad
 * (their motion and growth since are below it). */
static int touches_level(const insert_view *v, int level, vec3 x, real R)
{
    const grains_particles *pt = v->pt;
    const grains_grid *g = v->grid;
    int64_t lo[GRID_IMAGE_BOXES][3], hi[GRID_IMAGE_BOXES][3], d[3];
    int boxes = grid_reach_images(g, v->box, level, x, R + g->level[level].R_top + g->pad, lo, hi);
    for (int r = 0; r < boxes; r++)
        for (d[2] = lo[r][2]; d[2] <= hi[r][2]; d[2]++)
            for (d[1] = lo[r][1]; d[1] <= hi[r][1]; d[1]++)
                for (d[0] = lo[r][0]; d[0] <= hi[r][0]; d[0]++) {
                    uint32_t cell = grid_find(g, level, d);
                    if (cell == GRID_NONE)
                        continue;
                    for (uint32_t j = g->first[cell]; j < g->first[cell + 1]; j++) {
                        vec3 dx = periodic_delta(v->box, v3_sub(x, pt->x[j]));
                        if (v3_dot(dx, dx) < (R + pt->R[j]) * (R + pt->R[j]))
                            return 1;
                    }
                }
    return 0;
}

/* Particles overlapping a sphere (x, R): those binned at the last rebuild
 * through the grid's levels, and those added after it one by one but the
 * one in slot `self` (SIZE_MAX: none). */
static int touches_particle(const insert_view *v, vec3 x, real R, size_t self)
{
    const grains_particles *pt = v->pt;
    const grains_grid *g = v->grid;
    for (int level = 0; level < g->n_levels; level++)
        if (touches_level(v, level, x, R))
            return 1;
    for (size_t j = g->n_particles; j < pt->n; j++) {
        vec3 dx = periodic_delta(v->box, v3_sub(x, pt->x[j]));
        if (j != self && v3_dot(dx, dx) < (R + pt->R[j]) * (R + pt->R[j]))
            return 1;
    }
    return 0;
}

/* Whether x lies outside element el's box grown by r (a periodic element's
 * images lie outside its box: never). */
static int outside_box(const grains_mesh_element *el, vec3 x, real r)
{
    return !el->periodic && (x.x < el->lo.x - r || x.y < el->lo.y - r || x.z < el->lo.z - r || x.x > el->hi.x + r ||
                             x.y > el->hi.y + r || x.z > el->hi.z + r);
}

/* Mesh elements overlapping a sphere (x, R), the elements' boxes grown by
 * `moved` (how far an element may have moved since they were set). */
static int touches_mesh(const grains_mesh *mesh, vec3 x, real R, real moved)
{
    for (size_t e = 0; mesh && e < mesh->n_elements; e++) {
        const grains_mesh_element *el = &mesh->elements[e];
        if (el->off || outside_box(el, x, R + moved))
            continue;
        vec3 dx = grains_mesh_offset(mesh, e, x);
        if (v3_dot(dx, dx) < (R + el->R) * (R + el->R))
            return 1;
    }
    return 0;
}

int sim_spawn_near(const insert_view *v, size_t i, real reach, real moved)
{
    const grains_particles *pt = v->pt;
    real R = pt->R[i] + reach;
    return touches_particle(v, pt->x[i], R, i) || touches_mesh(v->mesh, pt->x[i], R, moved);
}

/* Whether a sphere at x of radius R leaves the cylinder along z inscribed
 * in the region's box (its cross-section the ellipse in the box's x-y face). */
static int outside_cylinder(const grains_spawn_region *r, vec3 x, real R)
{
    real ax = (r->hi.x - r->lo.x) / 2 - R, ay = (r->hi.y - r->lo.y) / 2 - R;
    if (!(ax > 0 && ay > 0))
        return 1;
    real u = (x.x - (r->lo.x + r->hi.x) / 2) / ax, w = (x.y - (r->lo.y + r->hi.y) / 2) / ay;
    return u * u + w * w > 1;
}

/* The smallest radius region r draws. */
static real smallest_radius(const grains_size_distribution *d)
{
    if (d->law != GRAINS_SIZES_DISCRETE)
        return d->R_lo;
    real R = d->R[0];
    for (int k = 1; k < d->n; k++)
        R = fmin(R, d->R[k]);
    return R;
}

size_t sim_spawn_places(const insert_view *v, int k, int n_side, double *R_tried)
{
    grains_spawn_region r = grains_params_spawn(v->p, k);
    real R = smallest_radius(&r.sizes) * sim_grow_scale(v->p, v->t);
    *R_tried = R;
    size_t places = 0;
    for (int a = 0; a < n_side; a++)
        for (int b = 0; b < n_side; b++)
            for (int c = 0; c < n_side; c++) {
                vec3 f = v3((a + 0.5) / n_side, (b + 0.5) / n_side, (c + 0.5) / n_side);
                vec3 x = v3(r.lo.x + f.x * (r.hi.x - r.lo.x), r.lo.y + f.y * (r.hi.y - r.lo.y),
                            r.lo.z + f.z * (r.hi.z - r.lo.z));
                places += !(r.cylinder && outside_cylinder(&r, x, R)) && !touches_mesh(v->mesh, x, R, 0);
            }
    return places;
}

void sim_spawn_init(spawn_state *spawn, const grains_params *p, grains_rng *rng)
{
    for (int k = 0; k < grains_params_n_spawns(p); k++) {
        grains_spawn_region r = grains_params_spawn(p, k);
        spawn[k] = (spawn_state){size_draw(&r.sizes, rng), 0, 0, GRAINS_SPAWN_ACTIVE, 0};
    }
}

/* One attempt in region r: a centre uniform in it for the radius drawn
 * before; *fit when the sphere went in (the next radius is then drawn). */
static grains_status attempt(insert_view *v, const grains_spawn_region *r, spawn_state *st, int *fit,
                             grains_error *err)
{
    real R = st->R_next;
    real R_now = R * sim_grow_scale(v->p, v->t); /* the core's add scales it so */
    vec3 x;
    x.x = r->lo.x + rng_uniform(v->rng) * (r->hi.x - r->lo.x);
    x.y = r->lo.y + rng_uniform(v->rng) * (r->hi.y - r->lo.y);
    x.z = r->lo.z + rng_uniform(v->rng) * (r->hi.z - r->lo.z);
    *fit = 0;
    if (r->cylinder && outside_cylinder(r, x, R_now))
        return GRAINS_OK; /* the radius carries over */
    if (touches_particle(v, x, R_now, SIZE_MAX) || touches_mesh(v->mesh, x, R_now, 0))
        return GRAINS_OK; /* the radius carries over */
    grains_particle np = {x, r->v0, r->w0, {1, 0, 0, 0}, R, r->material, r->tag};
    grains_status s = v->add(v->core, &np, err);
    if (s != GRAINS_OK)
        return s;
    v->count++;
    st->R_next = size_draw(&r->sizes, v->rng);
    st->added++;
    *fit = 1;
    return GRAINS_OK;
}

/* Attempt a of a region: every 1024th asks whether to stop
 * (grains_sim_ask_stop); a yes leaves the step part-way, for good. */
static grains_status ask_stop(const insert_view *v, long a, int k, grains_error *err)
{
    if ((a & 1023) != 1023 || !v->stop_asked || !v->stop_asked(v->stop_ctx))
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_STOPPED, NULL, 0,
                            "stopped on request in step %ld, after %ld of insertion region %d's attempts",
                            v->step, a + 1, k);
}

/* Region k's attempts of this step, and whether it stops. */
static grains_status spawn_region(insert_view *v, int k, size_t *added, grains_error *err)
{
    grains_spawn_region r = grains_params_spawn(v->p, k);
    spawn_state *st = &v->spawn[k];
    if (st->stop != GRAINS_SPAWN_ACTIVE)
        return GRAINS_OK;
    size_t before = *added;
    for (long a = 0; a < r.rate && (long)v->count < v->p->N_max && (r.count == 0 || st->added < r.count); a++) {
        int fit;
        grains_status s = attempt(v, &r, st, &fit, err);
        if (s == GRAINS_OK)
            s = ask_stop(v, a, k, err);
        if (s != GRAINS_OK)
            return s;
        *added += (size_t)fit;
    }
    st->idle_steps = *added > before ? 0 : st->idle_steps + 1;
    if (r.count > 0 && st->added >= r.count)
        st->stop = GRAINS_SPAWN_COUNT_REACHED, st->stop_step = v->step;
    else if (r.full_after > 0 && st->idle_steps >= r.full_after && (long)v->count < v->p->N_max)
        st->stop = GRAINS_SPAWN_FULL, st->stop_step = v->step;
    return GRAINS_OK;
}

grains_status sim_spawn(insert_view *v, size_t *added, grains_error *err)
{
    *added = 0;
    for (int k = 0; k < grains_params_n_spawns(v->p); k++) {
        grains_status s = spawn_region(v, k, added, err);
        if (s != GRAINS_OK)
            return s;
    }
    return GRAINS_OK;
}

grains_spawn_report sim_spawn_report(const insert_view *v, int k)
{
    const spawn_state *st = &v->spawn[k];
    grains_spawn_report rep = {st->added, st->idle_steps, (grains_spawn_stop)st->stop, st->stop_step};
    if (rep.stop == GRAINS_SPAWN_ACTIVE && (long)v->count >= v->p->N_max)
        rep.stop = GRAINS_SPAWN_N_MAX;
    return rep;
}
