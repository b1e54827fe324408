/* Neighbour-list rebuild: the contact histories are named by the old lists,
 * squeezed, the particles move into spatial order and the histories follow
 * them into the new lists. Temporary tables live in memory that is dead at
 * that moment: the keys in the force sums (zeroed before every force
 * evaluation), the move table and the grid's sort in the old lists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"

/* `bytes` of the dead memory at `dead` (of `dead_bytes`), or of its own. */
static void *scratch(void *dead, size_t dead_bytes, size_t bytes, int *owned)
{
    *owned = !dead || dead_bytes < bytes;
    return *owned ? malloc(bytes ? bytes : 1) : dead;
}

/* The rebuild's tables: a key per history, then a place per particle. */
typedef struct {
    store_key *keys;
    size_t n;            /* histories */
    uint32_t *first;     /* per particle: the place of its first history */
    void *table;         /* keys and first as allocated (keys may move on: sim_ranks_plan_rebuild) */
    int owned;
    int by_ranks;        /* named by each rank in its own blocks (sim_ranks_name_contacts) */
} history_names;

/* Gathers the histories and names them by the old lists, in the force
 * sums when they are large enough (shared among ranks: each rank its own
 * blocks'). */
static grains_status name_contacts(grains_sim *sim, history_names *hn, grains_error *err)
{
    hn->by_ranks = sim_ranks_names(&sim->rank_view);
    grains_status s = sim->has_pending ? GRAINS_OK
                      : hn->by_ranks   ? sim_ranks_name_contacts(&sim->rank_view, &hn->n, err)
                                       : store_gather(&sim->cs, &hn->n, err);
    if (s != GRAINS_OK)
        return s;
    if (sim->has_pending) /* grains_sim_set_contacts: those, named by ids, replace all */
        hn->n = sim->n_pending;
    void *dead = sim->keep_sums ? NULL : sim->pt.f; /* (kept: not scratch) */
    size_t ft_bytes = 2 * sim->pt.cap * sizeof(vec3); /* f and t are one block */
    size_t key_bytes = hn->n * sizeof *hn->keys;
    hn->table = hn->keys = scratch(dead, ft_bytes, key_bytes + sim->pt.n * sizeof *hn->first, &hn->owned);
    if (!hn->keys)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory renaming contacts");
    hn->first = (uint32_t *)(hn->keys + hn->n);
    if (sim->has_pending) {
        sim->drop_mesh_histories = 0;
        return sim_load_contacts(sim, hn->keys, err);
    }
    if (hn->by_ranks) {
        sim_ranks_take_names(&sim->rank_view, hn->keys);
    } else {
        neighbors_collect_keys(&sim->nb, hn->keys, sim->drop_mesh_histories);
        store_compact(&sim->cs, hn->keys, &hn->n);
    }
    sim->drop_mesh_histories = 0;
    return GRAINS_OK;
}

/* How far beyond touching a pair must be listed: the skin, plus the van der
 * Waals cut-off where partners attract before they touch, or the largest gap
 * at which a JKR contact still holds. */
static real list_pad(const grains_sim *sim)
{
    const grains_params *p = &sim->p;
    return p->skin + hm_attraction_reach(&sim->hp) + hm_max_hold_gap(&sim->hp, p->R_max);
}

/* Bins the particles, moves them into spatial order and renames the
 * contact keys after them. The old lists are dead: they hold the move
 * table and the grid's sort. */
static grains_status sort_particles(grains_sim *sim, history_names *hn, grains_error *err)
{
    grains_particles *pt = &sim->pt;
    int owned;
    /* where[], then the sort's workspace from the next 16-byte boundary */
    size_t list_bytes = sim->nb.cap * sizeof *sim->nb.j, where_bytes = (pt->n * sizeof(uint32_t) + 15) & ~(size_t)15;
    uint32_t *where = scratch(sim->nb.j, list_bytes, where_bytes, &owned);
    if (!where)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory sorting particles");
    void *ws = owned ? NULL : (char *)where + where_bytes;
    grid_particles in = {pt->x, pt->R, pt->slot, pt->n, NULL, NULL, sim->nthreads};
    grains_status s = grid_build(&sim->grid, &in, list_pad(sim), &sim->box, where, ws, owned ? 0 : list_bytes - where_bytes,
                                 err);
    if (s == GRAINS_OK) {
        sim_ranks_follow(&sim->rank_view, where);
        if (hn->by_ranks)
            sim_ranks_rename(&sim->rank_view, hn->keys, hn->n, where);
        else
            store_remap(&sim->cs, hn->keys, hn->n, where, sim->hp.rolling_traits.odd, sim->nthreads);
        particles_permute(pt, where, sim->keep_sums, sim->nthreads);
    }
    if (owned)
        free(where);
    return s;
}

/* The lists: shared among ranks, of this rank's particles and of those
 * that may pair with them, when the cut says so. */
static grains_status build_lists(grains_sim *sim, grains_error *err)
{
    grains_particles *pt = &sim->pt;
    const uint8_t *listed = rank_listed(&sim->rank_view);
    return neighbors_build(&sim->nb, &sim->grid, sim->mesh, pt->x, pt->R, pt->n, listed, sim->nthreads, err);
}

/* The histories follow their pairs into the new lists' order. */
static grains_status reattach(grains_sim *sim, history_names *hn, grains_error *err)
{
    return sim_attach_histories(sim, hn->keys, hn->n, hn->first, err);
}

/* Positions back into the periodic box (contacts follow their pairs, not
 * their images: nothing else changes). */
static void wrap_positions(grains_sim *sim)
{
    if (!sim->box.mask)
        return;
    grains_particles *pt = &sim->pt;
    for (size_t i = 0; i < pt->n; i++)
        pt->x[i] = periodic_wrap_moving(&sim->box, pt->x[i], &pt->v[i]);
}

grains_status sim_rebuild_check(const grains_sim *sim, const uint8_t *gone, grains_error *err)
{
    const grains_particles *pt = &sim->pt;
    if (!gone) { /* (the positions as the rebuild bins them: wrapped already) */
        grid_particles in = {pt->x, pt->R, NULL, pt->n, NULL, NULL, 1};
        return grid_check_frame(&sim->grid, &in, list_pad(sim), &sim->box, err);
    }
    size_t n = 0;
    vec3 *x = malloc((pt->n + 1) * sizeof *x);
    real *R = malloc((pt->n + 1) * sizeof *R);
    grains_status s = x && R ? GRAINS_OK : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; s == GRAINS_OK && i < pt->n; i++)
        if (!gone[pt->id[i]]) {
            x[n] = sim->box.mask ? periodic_wrap(&sim->box, pt->x[i]) : pt->x[i];
            R[n++] = pt->R[i];
        }
    grid_particles in = {x, R, NULL, n, NULL, NULL, 1};
    if (s == GRAINS_OK)
        s = grid_check_frame(&sim->grid, &in, list_pad(sim), &sim->box, err);
    free(x), free(R);
    return s;
}

grains_status sim_rebuild(grains_sim *sim, grains_error *err)
{
    /* shared among ranks: each copy's positions whole, the histories named
     * where they are kept (name_contacts), then every rank rebuilds alike */
    sim_ranks_complete_positions(&sim->rank_view);
    wrap_positions(sim);
    /* one process: a grid that cannot frame the particles refuses the rebuild before anything else changes,
     * and the next step tries again (a program may move the grain that spreads them back, or remove it) */
    if (!sim_shared(sim)) {
        grains_status framed = sim_rebuild_check(sim, NULL, err);
        if (framed != GRAINS_OK) {
            sim->need_rebuild = 1;
            return framed;
        }
    }
    if (sim->mesh)
        walls_listed(&sim->wl, sim->mesh); /* the lists see the meshes where they are now */
    if (sim_membranes_count(&sim->mb)) { /* and the membranes' patches */
        sim_membranes_place(&sim->mb, sim->mesh);
        sim_membranes_listed(&sim->mb);
        grains_mesh_update_bounds(sim->mesh);
    }
    history_names hn = {NULL, 0, NULL, NULL, 0, 0};
    grains_status s = name_contacts(sim, &hn, err);
    rank_cut_stale(&sim->rank_view); /* the cut is the old order's */
    if (s == GRAINS_OK && sim_ranks_local(sim)) { /* each rank its own particles and their partners alone */
        s = sim_ranks_local_sort(&sim->rank_view, &hn.keys, &hn.n, hn.by_ranks, list_pad(sim), err);
        hn.first = rank_first(&sim->rank_view);
    } else {
        if (s == GRAINS_OK)
            s = sort_particles(sim, &hn, err);
        if (s == GRAINS_OK && sim_shared(sim))
            s = sim_ranks_plan_rebuild(&sim->rank_view, &hn.keys, &hn.n, hn.by_ranks, err);
    }
    if (s == GRAINS_OK)
        s = walls_reserve_blocks(&sim->wl, sim->grid.n_blocks, err);
    if (s == GRAINS_OK)
        s = build_lists(sim, err);
    if (s == GRAINS_OK)
        s = reattach(sim, &hn, err);
    if (s == GRAINS_OK)
        s = sim_size_from_lists(sim, err);
    if (s == GRAINS_OK && sim_shared(sim))
        sim_ranks_planned(&sim->rank_view);
    if (hn.owned)
        free(hn.table);
    /* The key table may have stood in the force sums, which must start at zero
     * (unless kept: then the table stood elsewhere). */
    if (sim->pt.f && !sim->keep_sums)
        memset(sim->pt.f, 0, 2 * sim->pt.cap * sizeof *sim->pt.f);
    sim->displacement = 0;
    sim->strays.n = 0; /* (the old slots') */
    if (s == GRAINS_OK)
        sim_strays_find(sim, list_pad(sim));
    sim->need_rebuild = 0;
    sim->n_rebuilds++;
    if (s != GRAINS_OK) /* (part-way: the lists and histories no longer agree; no step may read them) */
        sim->stopped = SIM_STOPPED_REBUILD;
    return s;
}

size_t grains_sim_rebuilds(const grains_sim *sim) { return sim->n_rebuilds; }

grains_status sim_rebuild_keeping_sums(grains_sim *sim, grains_error *err)
{
    sim->keep_sums = 1;
    grains_status s = sim_rebuild(sim, err);
    sim->keep_sums = 0;
    return s;
}
