/* Neighbour-list rebuild: the contact histories are named by the old lists,
 * squeezed, the particles move into spatial order and the histories follow
 * them into the new lists. Temporary tables live in memory that is dead at
 * that moment: the keys in the force sums (zeroed before every force
 * evaluation), the move table and the grid's sort in the old lists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

static real largest_radius(const grains_particles *pt)
{
    real R = 0;
    for (size_t i = 0; i < pt->n; i++)
        R = fmax(R, pt->R[i]);
    return R;
}

/* `bytes` of the dead memory at `dead` (of `dead_bytes`), or of its own. */
static void *scratch(void *dead, size_t dead_bytes, size_t bytes, int *owned)
{
    *owned = !dead || dead_bytes < bytes;
    return *owned ? malloc(bytes ? bytes : 1) : dead;
}

/* Names, squeezes the store; returns the key table (in the force sums when
 * they are large enough). */
static store_key *name_contacts(grains_sim *sim, int *owned, grains_error *err)
{
    grains_status s = store_merge_overflow(&sim->cs, err);
    if (s != GRAINS_OK)
        return NULL;
    size_t ft_bytes = 2 * sim->pt.cap * sizeof(vec3); /* f and t are one block */
    store_key *keys = scratch(sim->pt.f, ft_bytes, sim->cs.n * sizeof *keys, owned);
    if (!keys) {
        grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory renaming contacts");
        return NULL;
    }
    neighbors_collect_keys(&sim->nb, &sim->cs, keys, sim->nthreads);
    store_compact(&sim->cs, keys);
    return keys;
}

/* Bins the particles, moves them into spatial order and renames the
 * contact keys after them. */
static grains_status sort_particles(grains_sim *sim, store_key *keys, grains_error *err)
{
    grains_particles *pt = &sim->pt;
    int owned;
    uint32_t *where = scratch(sim->nb.j, sim->nb.cap * sizeof *sim->nb.j, pt->n * sizeof *where, &owned);
    if (!where)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory sorting particles");
    grains_status s = grid_build(&sim->grid, pt->x, pt->n, sim->cell, where, sim->nb.h,
                                 sim->nb.cap * sizeof *sim->nb.h, err);
    if (s == GRAINS_OK) {
        store_remap(&sim->cs, keys, where, sim->nthreads);
        particles_permute(pt, where);
    }
    if (owned)
        free(where);
    return s;
}

static grains_status build_lists(grains_sim *sim, real R_big, grains_error *err)
{
    grains_particles *pt = &sim->pt;
    return neighbors_build(&sim->nb, &sim->grid, sim->mesh, pt->x, pt->R, pt->n, R_big, sim->p.skin, sim->nthreads,
                           err);
}

/* Spare history entries for each cell block, from its pending contacts. */
static grains_status reserve_spare(grains_sim *sim, grains_error *err)
{
    size_t n_blocks = sim->grid.n_blocks;
    uint32_t *counts = malloc(2 * (n_blocks ? n_blocks : 1) * sizeof *counts); /* a few per thousand particles */
    if (!counts)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    neighbors_count_contacts(&sim->nb, &sim->grid, sim->mesh, sim->pt.x, sim->pt.R, counts, counts + n_blocks,
                             sim->nthreads);
    grains_status s = store_reserve_spare(&sim->cs, counts, counts + n_blocks, n_blocks, err);
    free(counts);
    return s;
}

grains_status sim_rebuild(grains_sim *sim, grains_error *err)
{
    real R_big = largest_radius(&sim->pt);
    /* A cell must hold every pair within reach (2 R_big + skin), and every
     * particle a spawn attempt of radius R_max may touch after moving skin/2. */
    sim->cell = fmax(2 * R_big, R_big + sim->p.R_max) + sim->p.skin;
    int owned = 0;
    store_key *keys = name_contacts(sim, &owned, err);
    grains_status s = keys ? GRAINS_OK : (err ? err->status : GRAINS_ERR_NOMEM);
    if (s == GRAINS_OK)
        s = sort_particles(sim, keys, err);
    if (s == GRAINS_OK)
        s = build_lists(sim, R_big, err);
    if (s == GRAINS_OK) {
        neighbors_attach_contacts(&sim->nb, &sim->cs, keys, sim->nthreads);
        s = reserve_spare(sim, err);
    }
    if (owned)
        free(keys);
    /* The key table may have stood in the force sums, which must start at zero. */
    if (sim->pt.f)
        memset(sim->pt.f, 0, 2 * sim->pt.cap * sizeof *sim->pt.f);
    sim->displacement = 0;
    sim->need_rebuild = 0;
    sim->n_rebuilds++;
    return s;
}
