/* Whether a simulation can start: its particles and spawn box fit the cell
 * grid, and no cell holds more particles than spheres of radius R_min can
 * fill it without overlapping beyond max_overlap. A particle at x = 1e300,
 * or 10^5 copies of one row of a CSV file (whose neighbour search would be
 * quadratic), is refused here with the particle named, before a frame is
 * written, rather than at the first rebuild. */
#include <stdlib.h>

#include "sim/sim_internal.h"

#define GRID_SPAN_CELLS 262144.0 /* grid_build's limit, 2^18 cells along an axis */

/* The cell edge of the first rebuild, from the parameters. */
static real start_cell(const grains_sim *sim)
{
    real R = sim->p.R_max;
    for (size_t i = 0; i < sim->pt.n; i++)
        R = fmax(R, sim->pt.R[i]);
    return 2 * R + sim->p.skin;
}

/* Along each axis, the extent of the particles and (while it spawns) the
 * spawn box, against what the grid spans. */
static grains_status check_extent(const grains_sim *sim, real h, grains_error *err)
{
    const grains_particles *pt = &sim->pt;
    int spawns = sim->p.N_max > (long)pt->n && sim->p.N_spawn > 0;
    for (int k = 0; k < 3; k++) {
        real lo = spawns ? (&sim->p.s_min.x)[k] : INFINITY, hi = spawns ? (&sim->p.s_max.x)[k] : -INFINITY;
        size_t at_lo = SIZE_MAX, at_hi = SIZE_MAX;
        for (size_t i = 0; i < pt->n; i++) {
            real c = (&pt->x[i].x)[k];
            if (c < lo)
                lo = c, at_lo = i;
            if (c > hi)
                hi = c, at_hi = i;
        }
        if (!(hi - lo < GRID_SPAN_CELLS * h) && !(sim->box.mask >> k & 1)) {
            size_t i = at_hi != SIZE_MAX ? at_hi : at_lo;
            if (i == SIZE_MAX)
                return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                        "s_max: the spawn box spans %g along %c, more than the %g (%.0f cells of %g) "
                                        "the neighbour grid spans", hi - lo, "xyz"[k], GRID_SPAN_CELLS * h,
                                        GRID_SPAN_CELLS, h);
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "particles%s spread over %g along %c, more than the %g (%.0f cells of %g) the "
                                    "neighbour grid spans; e.g. particle %zu at %c = %g",
                                    spawns ? " and the spawn box" : "", hi - lo, "xyz"[k], GRID_SPAN_CELLS * h,
                                    GRID_SPAN_CELLS, h, (size_t)particles_id_of(pt, (uint32_t)i), "xyz"[k],
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

/* The particles binned as the first rebuild will: no cell over-full. */
static grains_status check_crowding(const grains_sim *sim, real h, grains_error *err)
{
    const grains_particles *pt = &sim->pt;
    uint32_t *where = malloc((pt->n ? pt->n : 1) * sizeof *where);
    grains_grid g = {0};
    grains_status s = where ? grid_build(&g, pt->x, pt->n, h, &sim->box, where, NULL, 0, err)
                            : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory checking the particles");
    real r = sim->p.R_min * (sim->p.grow_from > 0 ? sim->p.grow_from : 1);
    double most = most_in_cell(h, r, fmin(sim->p.max_overlap, 0.5));
    for (size_t c = 0; s == GRAINS_OK && c < g.n_cells; c++) {
        uint32_t n = g.first[c + 1] - g.first[c];
        if (n <= most)
            continue;
        uint32_t a = UINT32_MAX, b = UINT32_MAX; /* two of them, by storage index */
        for (size_t i = 0; i < pt->n && b == UINT32_MAX; i++)
            if (where[i] >= g.first[c] && where[i] < g.first[c + 1]) {
                if (a == UINT32_MAX)
                    a = (uint32_t)i;
                else
                    b = (uint32_t)i;
            }
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
    real h = start_cell(sim);
    grains_status s = check_extent(sim, h, err);
    return s == GRAINS_OK ? check_crowding(sim, h, err) : s;
}
