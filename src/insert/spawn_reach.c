/* What the insertion regions reach: whether any still attempts, and the particles an
 * attempt may read (which every rank must hold: decomp/rank_local.c). */
#include <string.h>

#include "sim/sim_internal.h"

/* Whether region k still attempts. */
static int spawning(const grains_sim *sim, int k)
{
    return sim->spawn[k].stop == GRAINS_SPAWN_ACTIVE && (long)grains_sim_count(sim) < sim->p.N_max;
}

int sim_spawn_active(const grains_sim *sim)
{
    int active = 0;
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++)
        active |= spawning(sim, k);
    return active;
}

/* Marks the particles of level `level` that an attempt in the box [lo, hi]
 * may read (touches_level from any centre in it, a radius up to R_max:
 * growth only shrinks a drawn radius); along a periodic axis, all. The
 * level's occupied cells are tested, not the box's cells looked up: at
 * most one per particle, however large the box. */
static void mark_level_reach(const grains_sim *sim, int level, vec3 lo, vec3 hi, uint8_t *mark)
{
    const grains_grid *g = &sim->grid;
    real reach = sim->p.R_max + g->level[level].R_top + g->pad;
    int64_t from[3], to[3], unused[3], c[3];
    grid_reach(g, level, lo, reach, from, unused);
    grid_reach(g, level, hi, reach, unused, to);
    for (uint32_t cell = g->level[level].cell_start; cell < g->level[level + 1].cell_start; cell++) {
        grid_cell_coords(g, cell, c);
        int in = 1;
        for (int k = 0; k < 3; k++)
            in &= (g->box.mask >> k & 1) || (c[k] >= from[k] && c[k] <= to[k]);
        if (in)
            memset(mark + g->first[cell], 1, g->first[cell + 1] - g->first[cell]);
    }
}

void sim_spawn_mark_reach(const grains_sim *sim, uint8_t *mark)
{
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++)
        if (spawning(sim, k)) {
            grains_spawn_region r = grains_params_spawn(&sim->p, k);
            for (int level = 0; level < sim->grid.n_levels; level++)
                mark_level_reach(sim, level, r.lo, r.hi, mark);
        }
}
