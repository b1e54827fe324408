/* Particles removed between steps (grains_sim_remove): the others keep
 * their order and close up, their ids renumbered down past the removed
 * ones (ids stay 0 .. N-1), their contacts' springs carried over by ids
 * into lists rebuilt at once (so that the state is a whole one, which a
 * checkpoint may take), the contacts and bonds of the removed ones ended.
 * The last step's force sums, which Verlet's next half kick reads, follow
 * their particles through the rebuild. Among ranks: decomp/rank_remove.c. */
#include <stdlib.h>
#include <string.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"

/* Of the n ids in `ids`: 1 in gone[id] for each, or an error naming one
 * that does not exist, is given twice or is the guided particle. */
static grains_status mark(const grains_sim *sim, const size_t *ids, size_t n, uint8_t *gone, grains_error *err)
{
    size_t count = grains_sim_count(sim);
    for (size_t k = 0; k < n; k++) {
        if (ids[k] >= count)
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "particle %zu does not exist (ids 0 to %zu)",
                                    ids[k], count - 1);
        if (gone[ids[k]])
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "particle %zu is named twice", ids[k]);
        if (sim->guide.on && sim->guide.id == ids[k])
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                    "particle %zu is the guided one (the friction test's sphere)", ids[k]);
        gone[ids[k]] = 1;
    }
    return GRAINS_OK;
}

/* The contacts whose particles stay, renamed (their order, by names, is kept). */
static size_t keep_contacts(grains_contact *c, size_t n, const uint8_t *gone, const uint32_t *renamed)
{
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        if (gone[c[k].a] || (!c[k].wall && gone[c[k].b]))
            continue;
        c[kept] = c[k];
        c[kept].a = renamed[c[k].a];
        if (!c[k].wall)
            c[kept].b = renamed[c[k].b];
        kept++;
    }
    return kept;
}

/* The particles that stay close up in storage order, renamed. */
static void close_up(grains_particles *pt, const uint8_t *gone, const uint32_t *renamed)
{
    size_t j = 0;
    for (size_t i = 0; i < pt->n; i++) {
        if (gone[pt->id[i]])
            continue;
        pt->x[j] = pt->x[i], pt->v[j] = pt->v[i], pt->w[j] = pt->w[i], pt->q[j] = pt->q[i];
        pt->R[j] = pt->R[i], pt->mat[j] = pt->mat[i], pt->tag[j] = pt->tag[i];
        pt->f[j] = pt->f[i], pt->t[j] = pt->t[i]; /* (the last step's sums: Verlet's next half kick) */
        pt->id[j] = renamed[pt->id[i]];
        j++;
    }
    pt->n = j;
    for (size_t i = 0; i < pt->n; i++)
        pt->slot[pt->id[i]] = (uint32_t)i;
}

uint64_t grains_sim_uid(const grains_sim *sim, size_t id) { return sim_uid(&sim->uids, id); }

/* The persistent ids after the removal (sim/uids.h), planned before
 * anything changes: ids checked first (in range, each once), as the
 * removal checks them, so that the plan reads only ids that exist. */
static grains_status uid_plan(const grains_sim *sim, const size_t *ids, size_t n, sim_uids *plan, grains_error *err)
{
    *plan = (sim_uids){0};
    size_t count = grains_sim_count(sim);
    for (size_t k = 0; k < n; k++)
        if (ids[k] >= count)
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "particle %zu does not exist (ids 0 to %zu)",
                                    ids[k], count - 1);
    return sim_uids_plan(&sim->uids, ids, n, plan, err);
}

/* Among ranks: every rank lets go of the same ids in the rebuild
 * (decomp/rank_remove.c). */
static grains_status remove_among_ranks(grains_sim *sim, size_t n, const size_t *ids, sim_uids *uids,
                                        grains_error *err)
{
    if (n == 0)
        return GRAINS_OK;
    grains_status s = sim_ranks_removal_begin(&sim->rank_view, n, ids, err);
    if (s != GRAINS_OK)
        return s;
    sim_uids_take(&sim->uids, uids); /* (every rank the same ids: the same ranges) */
    sim->last_good.held = 0; /* (taken before a step; the next one takes its own) */
    sim->rec.valid = 0;      /* the recorded contacts name the old ids */
    s = sim_rebuild_keeping_sums(sim, err);
    sim_ranks_removal_end(&sim->rank_view, s == GRAINS_OK);
    return s;
}

grains_status grains_sim_remove(grains_sim *sim, size_t n, const size_t *ids, grains_error *err)
{
    if (n && !ids)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%zu particles to remove and no ids", n);
    if (n == 0)
        return GRAINS_OK;
    sim_uids uids;
    grains_status planned = uid_plan(sim, ids, n, &uids, err);
    if (planned != GRAINS_OK)
        return planned;
    if (sim_shared(sim)) { /* (the same ids on every rank) */
        grains_status s = remove_among_ranks(sim, n, ids, &uids, err);
        sim_uids_free(&uids);
        return s;
    }
    size_t count = grains_sim_count(sim), n_contacts = grains_sim_contact_count(sim), got = 0;
    uint8_t *gone = calloc(count, sizeof *gone);
    uint32_t *renamed = malloc(count * sizeof *renamed);
    grains_contact *contacts = malloc((n_contacts ? n_contacts : 1) * sizeof *contacts);
    grains_status s = gone && renamed && contacts
                          ? mark(sim, ids, n, gone, err)
                          : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory removing particles");
    if (s == GRAINS_OK) /* (the rebuild that follows can fail only for memory: nothing removed on a refusal) */
        s = sim_rebuild_check(sim, gone, err);
    if (s == GRAINS_OK)
        s = grains_sim_get_contacts(sim, contacts, n_contacts, &got, err);
    if (s == GRAINS_OK) { /* nothing fails from here on but the rebuild's memory */
        uint32_t next = 0;
        for (size_t id = 0; id < count; id++)
            renamed[id] = gone[id] ? UINT32_MAX : next++;
        free(sim->pending);
        sim->pending = contacts;
        sim->n_pending = keep_contacts(contacts, got, gone, renamed);
        sim->has_pending = 1;
        contacts = NULL;
        sim_bonds_keep(&sim->bonds, gone, renamed);
        close_up(&sim->pt, gone, renamed);
        sim_uids_take(&sim->uids, &uids);
        if (sim->guide.on)
            sim->guide.id = renamed[sim->guide.id];
        sim->last_good.held = 0; /* (taken before a step; the next one takes its own) */
        sim->rec.valid = 0;      /* the recorded contacts name the old ids */
        s = sim_rebuild_keeping_sums(sim, err); /* (with the pending contacts) */
    }
    free(gone);
    free(renamed);
    free(contacts);
    sim_uids_free(&uids);
    return s;
}
