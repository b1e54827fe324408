/* The cell blocks weighed for the threads' shares of each colour phase:
 * the dynamic share of a phase's blocks (whichever thread is free takes
 * the next) balances the threads but hands a block's particles to another
 * thread at every loop, and their state passes between the cores'
 * caches. Cut by weight instead, each thread keeps one region from the
 * force loop to the update and to the next step's. */
#include "neighbor/block_share.h"
#include "sim/sim_internal.h"
#include "util/array.h"

/* What a block costs a step, in about the ratio of their instructions
 * (docs/benchmarks.md, "What bounds the speed"): a particle's update and
 * its list's walk 5, each listed entry's distance 1, each history's
 * contact (its lane, the kernel and the applying) 8. */
enum { PARTICLE_WORK = 5, ENTRY_WORK = 1, CONTACT_WORK = 8 };

/* Whether each thread may walk and move its own region: one process
 * without halos, the lists those of the particles as they lie now (the
 * newcomers after them), the histories in the grid's blocks. */
static int regions_hold(const grains_sim *sim)
{
    return sim->nthreads > 1 && !sim_shared(sim) && !sim_ranks_halo_steps(sim) && !sim->need_rebuild &&
           sim->n_rebuilds > 0 && sim->nb.n_particles == sim->grid.n_particles &&
           sim->grid.n_particles <= sim->pt.n && sim->cs.n_blocks == sim->grid.n_blocks;
}

int sim_weigh_blocks(grains_sim *sim)
{
    const grains_grid *g = &sim->grid;
    size_t n_blocks = g->n_blocks;
    if (!regions_hold(sim) ||
        !array_reserve((void **)&sim->block_work, &sim->block_work_cap, n_blocks + 1, sizeof *sim->block_work, 16))
        return 0;
    const uint32_t *list_start = sim->nb.start;
    uint64_t sum = 0;
    for (size_t b = 0; b < n_blocks; b++) {
        sim->block_work[b] = sum;
        uint32_t lo = g->first[g->block_start[b]], hi = g->first[g->block_start[b + 1]];
        sum += PARTICLE_WORK * (uint64_t)(hi - lo) + ENTRY_WORK * (uint64_t)(list_start[hi] - list_start[lo]) +
               CONTACT_WORK * (uint64_t)sim->cs.block[b].n;
    }
    sim->block_work[n_blocks] = sum;
    size_t n_next = (size_t)g->n_phases * (size_t)sim->nthreads * BLOCK_NEXT_STRIDE;
    if (!array_reserve((void **)&sim->block_next, &sim->block_next_cap, n_next, sizeof *sim->block_next, 16))
        return 0;
    for (int phase = 0; phase < g->n_phases; phase++)
        for (int t = 0; t < sim->nthreads; t++) {
            uint32_t lo, hi;
            block_share(g, sim->block_work, phase, t, sim->nthreads, &lo, &hi);
            sim->block_next[((size_t)phase * (size_t)sim->nthreads + (size_t)t) * BLOCK_NEXT_STRIDE] = lo;
        }
    return 1;
}
