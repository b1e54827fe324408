/* Whether a simulation can start: its particles and spawn box fit the cell
 * grid, and no cell holds more particles than spheres of radius R_min can
 * fill it without overlapping beyond max_overlap. A particle at x = 1e300,
 * or 10^5 copies of one row of a CSV file (whose neighbour search would be
 * quadratic), is refused here with the particle named, before a frame is
 * written, rather than at the first rebuild. */
#include <stdlib.h>

#include "sim/sim_internal.h"

#define SPAN_CELLS ((double)GRID_SPAN_CELLS) /* grid_build's limit along an axis */

/* Whether the run still adds particles. */
static int spawns(const grains_sim *sim)
{
    return sim->p.N_max > (long)grains_sim_count(sim) && grains_params_n_spawns(&sim->p) > 0;
}

/* The smallest cell edge any level of the first rebuild can have (cells
 * are 2 R_top + pad, R_top at least the smallest radius), from the
 * particles and, while it spawns, the spawn radii. */

static real smallest_cell(const grains_sim *sim)
{
    const grains_particles *pt = sim_particles_read(sim);
    real R = spawns(sim) || !pt->n ? sim->p.R_min : INFINITY;
    for (size_t i = 0; i < pt->n; i++)
        R = fmin(R, pt->R[i]);
    return 2 * R + sim->p.skin;
}

/* Along each axis, the extent of the particles and (while it spawns) the
 * spawn regions, against what the grid spans. */
static grains_status check_extent(const grains_sim *sim, real h, grains_error *err)
{
    const grains_particles *pt = sim_particles_read(sim);
    for (int k = 0; k < 3; k++) {
        real lo = INFINITY, hi = -INFINITY;
        for (int r = 0; spawns(sim) && r < grains_params_n_spawns(&sim->p); r++) {
            grains_spawn_region g = grains_params_spawn(&sim->p, r);
            lo = fmin(lo, (&g.lo.x)[k]), hi = fmax(hi, (&g.hi.x)[k]);
        }
        size_t at_lo = SIZE_MAX, at_hi = SIZE_MAX;
        for (size_t i = 0; i < pt->n; i++) {
            real c = (&pt->x[i].x)[k];
            if (c < lo)
                lo = c, at_lo = i;
            if (c > hi)
                hi = c, at_hi = i;
        }
        if (!(hi - lo < SPAN_CELLS * h) && !(sim->box.mask >> k & 1)) {
            size_t i = at_hi != SIZE_MAX ? at_hi : at_lo;
            if (i == SIZE_MAX)
                return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                        "%s span%s %g along %c, more than the %g (%.0f cells of %g) "
                                        "the neighbour grid spans", sim->p.n_spawns ? "spawns: the regions" :
                                        "s_max: the spawn box", sim->p.n_spawns ? "" : "s", hi - lo, "xyz"[k], SPAN_CELLS * h,
                                        SPAN_CELLS, h);
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "particles%s spread over %g along %c, more than the %g (%.0f cells of %g) the "
                                    "neighbour grid spans; e.g. particle %zu at %c = %g",
                                    !spawns(sim) ? "" : sim->p.n_spawns ? " and the spawn regions" : " and the spawn box", hi - lo, "xyz"[k], SPAN_CELLS * h,
                                    SPAN_CELLS, h, (size_t)particles_id_of(pt, (uint32_t)i), "xyz"[k],
                                    (&pt->x[i].x)[k]);
        }
    }
    return GRAINS_OK;
}

/* Most spheres of radius r, overlapping by at most a fraction f of their
 * diameter, whose centres lie in a cube of edge h: they are disjoint balls of
 * radius r (1 - f) in the cube grown by r. */
static double most_in_cell(real h, real r, real f)
{
    double inner = r * (1 - f);
    return (h + 2 * r) * (h + 2 * r) * (h + 2 * r) / (4.18879 * inner * inner * inner) + 1;
}

/* The first cell over-full, at its level, or GRID_NONE. */
static uint32_t crowded_cell(const grains_grid *g, real r, real f, double *most)
{
    for (int l = 0; l < g->n_levels; l++) {
        *most = most_in_cell(g->level[l].h, r, f);
        for (uint32_t c = g->level[l].cell_start; c < g->level[l + 1].cell_start; c++)
            if (g->first[c + 1] - g->first[c] > *most)
                return c;
    }
    return GRID_NONE;
}

/* The particles binned as the first rebuild will: no cell over-full. */
static grains_status check_crowding(const grains_sim *sim, grains_error *err)
{
    const grains_particles *pt = sim_particles_read(sim);
    uint32_t *where = malloc((pt->n ? pt->n : 1) * sizeof *where);
    grains_grid g = {0};
    grid_particles in = {pt->x, pt->R, NULL, pt->n, NULL, NULL};
    grains_status s = where ? grid_build(&g, &in, sim->p.skin, &sim->box, where, NULL, 0, err)
                            : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory checking the particles");
    real r = sim->p.R_min * (sim->p.grow_from > 0 ? sim->p.grow_from : 1);
    double most = 0;
    uint32_t c = s == GRAINS_OK ? crowded_cell(&g, r, fmin(sim->p.max_overlap, 0.5), &most) : GRID_NONE;
    if (c != GRID_NONE) {
        uint32_t n = g.first[c + 1] - g.first[c];
        uint32_t a = UINT32_MAX, b = UINT32_MAX; /* two of them, by storage index */
        for (size_t i = 0; i < pt->n && b == UINT32_MAX; i++)
            if (where[i] >= g.first[c] && where[i] < g.first[c + 1]) {
                if (a == UINT32_MAX)
                    a = (uint32_t)i;
                else
                    b = (uint32_t)i;
            }
        real h = g.level[grid_level_of(&g, g.first[c])].h;
        s = grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                             "%u particles (e.g. %u and %u, at %g, %g, %g) lie in one cell of %g, where at most %.0f "
                             "spheres of R_min = %g fit without overlapping beyond max_overlap: particles given twice?",
                             n, particles_id_of(pt, a), particles_id_of(pt, b), pt->x[a].x, pt->x[a].y, pt->x[a].z, h,
                             most, r);
    }
    grid_free(&g);
    free(where);
    return s;
}

grains_status grains_sim_check_start(const grains_sim *sim, grains_error *err)
{
    grains_status s = check_extent(sim, smallest_cell(sim), err);
    return s == GRAINS_OK ? check_crowding(sim, err) : s;
}

/* The overlaps in lists built with no pad: exactly the pairs closer than
 * R_i + R_j, by storage place (order[] gives the particle). */
static void deepest_pair(const grains_sim *sim, const grains_neighbors *nb, const vec3 *x, const real *R,
                         const uint32_t *order, grains_start_overlaps *o)
{
    for (uint32_t i = 0; i < nb->n_particles; i++)
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++) {
            uint32_t j = nb->j[k];
            real gap = v3_norm(periodic_delta(&sim->box, v3_sub(x[i], x[j]))) - R[i] - R[j];
            if (gap >= 0)
                continue;
            o->pairs++;
            real depth = -gap * (R[i] + R[j]) / (2 * R[i] * R[j]);
            if (depth > o->pair_depth)
                o->pair_depth = depth, o->pair_a = (long)order[i], o->pair_b = (long)order[j];
        }
}

/* Overlapping pairs among the particles, through the levelled grid and
 * lists with no pad, on copies of the positions and radii in its order. */
static grains_status pair_overlaps(const grains_sim *sim, grains_start_overlaps *o, grains_error *err)
{
    const grains_particles *pt = sim_particles_read(sim);
    size_t n = pt->n;
    uint32_t *where = malloc(2 * n * sizeof *where), *order = where ? where + n : NULL;
    vec3 *x = malloc(n * sizeof *x);
    real *R = malloc(n * sizeof *R);
    grains_grid g = {0};
    grains_neighbors nb = {0};
    grid_particles in = {pt->x, pt->R, NULL, n, NULL, NULL};
    grains_status s = where && x && R ? grid_build(&g, &in, 0, &sim->box, where, NULL, 0, err)
                                      : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0,
                                                         "out of memory checking the particles");
    for (size_t i = 0; s == GRAINS_OK && i < n; i++) {
        order[where[i]] = (uint32_t)i;
        x[where[i]] = pt->x[i];
        R[where[i]] = pt->R[i];
    }
    if (s == GRAINS_OK)
        s = neighbors_build(&nb, &g, NULL, x, R, n, NULL, sim->nthreads, err);
    if (s == GRAINS_OK)
        deepest_pair(sim, &nb, x, R, order, o);
    neighbors_free(&nb);
    grid_free(&g);
    free(where);
    free(x);
    free(R);
    return s;
}

/* Particles overlapping a mesh element (its radius included), when there
 * are not too many pairs of them to try. */
static void wall_overlaps(const grains_sim *sim, grains_start_overlaps *o)
{
    const grains_particles *pt = sim_particles_read(sim);
    const grains_mesh *m = sim->mesh;
    o->walls_checked = !m || (double)pt->n * (double)m->n_elements <= 5e7;
    for (size_t i = 0; m && o->walls_checked && i < pt->n; i++) {
        int counted = 0;
        for (size_t e = 0; e < m->n_elements; e++) {
            const grains_mesh_element *el = &m->elements[e];
            vec3 x = pt->x[i];
            real r = pt->R[i];
            if (x.x < el->lo.x - r || x.y < el->lo.y - r || x.z < el->lo.z - r || x.x > el->hi.x + r ||
                x.y > el->hi.y + r || x.z > el->hi.z + r)
                continue;
            real gap = v3_norm(grains_mesh_offset(m, e, x)) - r - el->R;
            if (gap >= 0)
                continue;
            o->walls += !counted;
            counted = 1;
            if (-gap / (2 * r) > o->wall_depth)
                o->wall_depth = -gap / (2 * r), o->wall_particle = (long)i, o->wall_element = e;
        }
    }
}

grains_status grains_sim_start_overlaps(const grains_sim *sim, grains_start_overlaps *out, grains_error *err)
{
    *out = (grains_start_overlaps){.pair_a = -1, .pair_b = -1, .wall_particle = -1};
    grains_status s = sim_particles_read(sim)->n ? pair_overlaps(sim, out, err) : GRAINS_OK;
    if (s != GRAINS_OK)
        return s;
    wall_overlaps(sim, out);
    const grains_particles *pt = sim_particles_read(sim); /* storage places to ids */
    if (out->pair_a >= 0)
        out->pair_a = particles_id_of(pt, (uint32_t)out->pair_a), out->pair_b = particles_id_of(pt, (uint32_t)out->pair_b);
    if (out->wall_particle >= 0)
        out->wall_particle = particles_id_of(pt, (uint32_t)out->wall_particle);
    return GRAINS_OK;
}
