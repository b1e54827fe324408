/* The particles a rank lists (decomp/ranks.c): its own, and those of the
 * other ranks' cells from which a pair with one of its own may be listed.
 * Found from the cell blocks' coordinates alone, before any list is
 * built, so that a rank builds its part of the lists only. */
#include <string.h>

#include "decomp/decomp.h"

/* The cells of level l [lo, hi] (per axis) that may hold a particle
 * listing a partner in block b, of level m >= l. A pair is listed by its
 * larger particle i, of level l, within 2 R_top(l) + pad, one cell of
 * level l, of its partner: i's cell lies within one cell of b's region;
 * counted in cells when l is b's level, else through positions (one more
 * cell for their rounding). */
static void reach_cells(const grains_grid *g, uint32_t b, int l, int64_t lo[3], int64_t hi[3])
{
    int64_t bc[3];
    int m = grid_block_coords(g, b, bc), B = g->level[m].block;
    if (m == l) {
        for (int k = 0; k < 3; k++) {
            lo[k] = bc[k] * B - 1;
            hi[k] = bc[k] * B + B;
        }
        return;
    }
    vec3 x_lo, x_hi;
    real *a = &x_lo.x, *z = &x_hi.x;
    const real *o = &g->origin.x;
    for (int k = 0; k < 3; k++) {
        a[k] = o[k] + (real)(bc[k] * B) * g->level[m].edge[k];
        z[k] = o[k] + (real)((bc[k] + 1) * B) * g->level[m].edge[k];
    }
    grid_coords(g, l, x_lo, lo);
    grid_coords(g, l, x_hi, hi);
    for (int k = 0; k < 3; k++) {
        lo[k] -= 2;
        hi[k] += 2;
    }
}

/* Lists the particles of the other ranks' cells of level l that may list
 * a partner in own block b, and marks their blocks visit 1. */
static void mark_reach_of(const rank_sim *sim, uint32_t b, int l)
{
    const grains_grid *g = sim->grid;
    sim_ranks *r = sim->ranks;
    int64_t lo[3], hi[3], b_lo[3], b_hi[3], at[3];
    reach_cells(g, b, l, lo, hi);
    int64_t Bl = g->level[l].block;
    for (int k = 0; k < 3; k++) {
        b_lo[k] = grid_floor_div(lo[k], Bl);
        b_hi[k] = grid_floor_div(hi[k], Bl);
        if (g->box.mask >> k & 1) /* a range wider than a period visits each block once */
            b_hi[k] = b_hi[k] - b_lo[k] + 1 >= g->level[l].cells[k] / Bl ? b_lo[k] + g->level[l].cells[k] / Bl - 1
                                                                           : b_hi[k];
    }
    for (at[2] = b_lo[2]; at[2] <= b_hi[2]; at[2]++)
        for (at[1] = b_lo[1]; at[1] <= b_hi[1]; at[1]++)
            for (at[0] = b_lo[0]; at[0] <= b_hi[0]; at[0]++) {
                uint32_t near = grid_find_block(g, l, at);
                if (near == GRID_NONE || r->visit[near] == 2)
                    continue;
                for (uint32_t cell = g->block_start[near]; cell < g->block_start[near + 1]; cell++) {
                    int64_t c[3];
                    grid_cell_coords(g, cell, c);
                    if (!grid_coords_in(g, l, c, lo, hi))
                        continue;
                    r->visit[near] = 1;
                    memset(r->listed + g->first[cell], 1, g->first[cell + 1] - g->first[cell]);
                }
            }
}

void sim_ranks_mark_reach(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const grains_grid *g = sim->grid;
    memcpy(r->listed, r->mine, sim->pt->n);
    for (uint32_t b = 0; b < g->n_blocks; b++)
        if (r->visit[b] == 2) {
            int64_t bc[3];
            for (int l = 0, m = grid_block_coords(g, b, bc); l <= m; l++)
                mark_reach_of(sim, b, l);
        }
}

