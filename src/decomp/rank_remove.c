/* Particles removed from a run shared among ranks that hold their own
 * particles alone (grains_sim_remove, the outlets: decomp/hooks.h). Every
 * rank learns the same ids (the outlets' removals gathered from their
 * owners), then rebuilds at once, as one process does (sim/remove.c): in the rebuild's
 * sort (decomp/rank_local.c) each rank lets go of what it holds of them,
 * ends the histories and bonds they had, and renames every id above a
 * removed one down past it, so that the ids stay 0 .. N-1 as in one
 * process. The force sums travel with their particles through that
 * rebuild (keep_sums): Verlet's next half kick reads them. */
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "util/order.h"

grains_removal *sim_ranks_gather_removals(const rank_sim *sim, const grains_removal *own, size_t n_own, size_t *n_all)
{
    size_t bytes = 0;
    const void *every = sim_ranks_gather(sim, own, n_own * sizeof *own, &bytes);
    *n_all = bytes / sizeof *own;
    grains_removal *all = malloc(bytes ? bytes : 1);
    if (!all)
        sim_ranks_stop(sim, "out of memory gathering the outlets' removals: stopping every rank");
    if (bytes)
        memcpy(all, every, bytes);
    return all;
}

/* How many of the removed ids are below id; *gone, whether id is one. */
static uint32_t removed_below(const sim_ranks *r, uint32_t id, int *gone)
{
    size_t lo = 0, hi = r->n_removing;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->removing[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    *gone = lo < r->n_removing && r->removing[lo] == id;
    return (uint32_t)lo;
}

int sim_ranks_removing(const rank_sim *sim, uint32_t id)
{
    int gone;
    removed_below(sim->ranks, id, &gone);
    return gone;
}

/* An id that stays, renamed past the removed ones below it. */
static uint32_t renamed(const sim_ranks *r, uint32_t id)
{
    int gone;
    return id - removed_below(r, id, &gone);
}

void sim_ranks_renumber(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    grains_particles *pt = sim->pt;
    for (size_t i = 0; i < pt->n; i++)
        pt->id[i] = renamed(r, pt->id[i]);
    sim_bonds *bs = sim->bonds;
    size_t kept = 0;
    for (size_t k = 0; k < bs->n; k++) { /* the removed ones' bonds end */
        sim_bond b = bs->list[k];
        if (sim_ranks_removing(sim, b.a) || sim_ranks_removing(sim, b.b))
            continue;
        b.a = renamed(r, b.a);
        b.b = renamed(r, b.b);
        bs->list[kept++] = b;
    }
    if (kept == 0)
        bs->sorted = 0; /* as a list that never had any (sim/remove.c) */
    bs->n = kept;
    if (*sim->guide_on)
        *sim->guide_id = renamed(r, *sim->guide_id);
    r->n_ids -= r->n_removing;
    if (r->n_ids)
        memset(pt->slot, 0xff, r->n_ids * sizeof *pt->slot);
    for (size_t i = 0; i < pt->n; i++)
        pt->slot[pt->id[i]] = (uint32_t)i;
}

/* The n ids (n > 0) sorted into ranks.removing, or an error naming one
 * that does not exist, is given twice or is the guided particle. */
static grains_status take_ids(const rank_sim *sim, size_t n, const size_t *ids, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    size_t count = rank_count(sim);
    uint32_t *v = malloc(n * sizeof *v);
    if (!v)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory removing %zu particles", n);
    for (size_t k = 0; k < n; k++) {
        if (ids[k] >= count || (*sim->guide_on && *sim->guide_id == ids[k])) {
            free(v); /* (the messages of one process's removal, sim/remove.c) */
            if (ids[k] >= count)
                return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "particle %zu does not exist (ids 0 to %zu)",
                                        ids[k], count - 1);
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                    "particle %zu is the guided one (the friction test's sphere)", ids[k]);
        }
        v[k] = (uint32_t)ids[k];
    }
    qsort(v, n, sizeof *v, order_u32);
    for (size_t k = 1; k < n; k++)
        if (v[k] == v[k - 1]) {
            size_t twice = v[k];
            free(v);
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "particle %zu is named twice", twice);
        }
    free(r->removing);
    r->removing = v;
    r->n_removing = n;
    return GRAINS_OK;
}

grains_status sim_ranks_removal_begin(const rank_sim *sim, size_t n, const size_t *ids, grains_error *err)
{
    if (!rank_local(sim))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "removing particles (outlets) among ranks that each hold every particle "
                                "(rank_holds_all) is not supported: leave rank_holds_all off");
    grains_status s = take_ids(sim, n, ids, err); /* (the same ids on every rank: the same verdict) */
    if (s == GRAINS_OK)
        sim_ranks_writer_sums(sim); /* the step's wall sums, by blocks the rebuild cuts anew, to the writer first */
    return s;
}

void sim_ranks_removal_end(const rank_sim *sim, int rebuilt)
{
    sim_ranks *r = sim->ranks;
    free(r->removing);
    r->removing = NULL;
    r->n_removing = 0;
    if (rebuilt && r->bonds_whole) /* (the same on every rank) */
        sim_ranks_bonds_formed(sim); /* the whole's count, less those that ended */
}
