/* What the insertion regions reach: whether any still attempts, and the particles an
 * attempt may read (which every rank must hold: decomp/rank_local.c). */
#include <string.h>

#include "insert/insert.h"

/* Whether region k still attempts. */
static int spawning(const insert_view *v, int k)
{
    return v->spawn[k].stop == GRAINS_SPAWN_ACTIVE && (long)v->count < v->p->N_max;
}

int sim_spawn_active(const insert_view *v)
{
    int active = 0;
    for (int k = 0; k < grains_params_n_spawns(v->p); k++)
        active |= spawning(v, k);
    return active;
}

/* Marks the particles of level `level` that an attempt in the box [lo, hi]
 * may read (touches_level from any centre in it, a radius up to R_max:
 * growth only shrinks a drawn radius), and the look of a grain added there
 * for what it comes near (sim_spawn_near: its radius grown by the reach
 * beyond touching, pad - skin, from where it has moved since, at most
 * skin / 2 while the lists hold); along a periodic axis, all. The level's
 * occupied cells are tested, not the box's cells looked up: at most one
 * per particle, however large the box. */
static void mark_level_reach(const insert_view *v, int level, vec3 lo, vec3 hi, uint8_t *mark)
{
    const grains_grid *g = v->grid;
    real reach = v->p->R_max + g->level[level].R_top + g->pad + (g->pad - v->p->skin) + v->p->skin / 2;
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

void sim_spawn_mark_reach(const insert_view *v, uint8_t *mark)
{
    for (int k = 0; k < grains_params_n_spawns(v->p); k++)
        if (spawning(v, k)) {
            grains_spawn_region r = grains_params_spawn(v->p, k);
            for (int level = 0; level < v->grid->n_levels; level++)
                mark_level_reach(v, level, r.lo, r.hi, mark);
        }
}
