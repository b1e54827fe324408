/* A rank's arrays of its own particles and of the copies of others' that
 * may pair with them, alone (grains_ranks.local; docs/internals.md,
 * "Ranks"). A rebuild here takes the place of the one that sorts
 * every particle on every rank (sim/rebuild.c's sort_particles and
 * decomp/ranks.c's plan):
 *  1. each rank bins what it holds, its own particles counted and the
 *     copies not, in a grid framed by reductions over the ranks (the
 *     whole's), and renames its own blocks' histories after that order;
 *  2. the blocks its own particles occupy, with their particles and
 *     contacts, are merged over the ranks into the whole's table of blocks
 *     (decomp/block_table.c), which every rank cuts alike (decomp/rank_cut.c);
 *  3. each history goes, named by ids, to the ranks that evaluate its pair
 *     (the new owners of its particles);
 *  4. each particle goes whole to its new owner and as a copy to the ranks
 *     that may pair it (decomp/rank_move.c);
 *  5. each rank bins what it now holds, which stores it in the whole's
 *     relative order, and finds its histories' particles by id.
 * The lists, the force loop and the halo then go as when every rank holds
 * every particle (decomp/ranks.c): each own particle's list and the order of
 * its force sum are the single process's. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "util/array.h"
#include "util/order.h"

/* What ranks holding their own particles alone do not take yet, or NULL. */
static const char *not_taken(const rank_sim *sim)
{
    return *sim->has_pending && sim->ranks->holds_share ? "contact histories set during the run" : NULL;
}

int sim_ranks_hold_own(const rank_sim *sim) { return not_taken(sim) == NULL; }

grains_status sim_ranks_local_check(const rank_sim *sim, grains_error *err)
{
    if (!rank_local(sim))
        return GRAINS_OK;
    const char *what = not_taken(sim);
    if (!what)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                            "ranks holding their own particles alone (grains_ranks.local) do not take %s yet", what);
}

/* A rank that cannot make its part of the rebuild (memory) stops every
 * rank: the others would wait for it in the next collective. */
static void local_failed(const rank_sim *sim)
{
    const char *why = "out of memory sharing the particles among the ranks: stopping them all";
    sim_ranks_stop(sim, why);
}

/* The grid's frame by reductions over the ranks (neighbor/grid.h,
 * grid_share) from the ranks' integer collectives: a real's bits, turned
 * so that their order as unsigned integers is the number's, reduce by an
 * integer maximum, exact in any order. */
static uint64_t ordered_bits(real v)
{
    double d = (double)v;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static real from_ordered(uint64_t u)
{
    u = u >> 63 ? u & ~(UINT64_C(1) << 63) : ~u;
    double d;
    memcpy(&d, &u, sizeof d);
    return (real)d;
}

static void share_max(void *ctx, real *v, int n)
{
    const grains_ranks *pr = ctx;
    uint64_t u[GRID_MAX_LEVELS];
    for (int at = 0; at < n; at += GRID_MAX_LEVELS) {
        int m = n - at < GRID_MAX_LEVELS ? n - at : GRID_MAX_LEVELS;
        for (int k = 0; k < m; k++)
            u[k] = ordered_bits(v[at + k]);
        pr->max(pr->ctx, u, (size_t)m);
        for (int k = 0; k < m; k++)
            v[at + k] = from_ordered(u[k]);
    }
}

static void share_min(void *ctx, real *v, int n)
{
    for (int k = 0; k < n; k++)
        v[k] = -v[k];
    share_max(ctx, v, n);
    for (int k = 0; k < n; k++)
        v[k] = -v[k];
}

static void share_sum(void *ctx, uint64_t *v, int n)
{
    const grains_ranks *pr = ctx;
    pr->sum(pr->ctx, v, (size_t)n);
}

grid_share sim_ranks_grid_share(const rank_sim *sim)
{
    return (grid_share){share_min, share_max, share_sum, (void *)&sim->ranks->peers};
}

/* Bins what this rank holds (copies marked in copy[]) into sim->grid, as
 * the whole's grid would place it: where[i], particle i's new place. */
static grains_status bin_held(const rank_sim *sim, const uint8_t *copy, real pad, uint32_t *where, grains_error *err)
{
    const grains_particles *pt = sim->pt;
    size_t n = pt->n;
    uint64_t *order = malloc((n + 1) * sizeof *order);
    uint32_t *by_id = malloc((n + 1) * sizeof *by_id);
    if (!order || !by_id)
        local_failed(sim);
    for (size_t i = 0; i < n; i++)
        order[i] = (uint64_t)pt->id[i] << 32 | i;
    qsort(order, n, sizeof *order, order_u64);
    for (size_t k = 0; k < n; k++)
        by_id[k] = (uint32_t)order[k];
    free(order);
    grid_share share = sim_ranks_grid_share(sim);
    grid_particles in = {pt->x, pt->R, by_id, n, &share, copy, 1};
    grains_status s = grid_build(sim->grid, &in, pad, sim->box, where, NULL, 0, err);
    free(by_id);
    return s;
}

/* The marks follow the particles to where[i]. */
static void permute_marks(uint8_t *mark, const uint32_t *where, size_t n)
{
    uint8_t *was = malloc(n + 1);
    if (!was)
        abort();
    memcpy(was, mark, n);
    for (size_t i = 0; i < n; i++)
        mark[where[i]] = was[i];
    free(was);
}

/* Bins what this rank holds, moves it into that order (the histories'
 * keys renamed after it, their springs turned where a pair's order
 * turns), copy[] with it. */
static grains_status sort_held(const rank_sim *sim, uint8_t *copy, store_key *keys, size_t n_keys, real pad,
                               grains_error *err)
{
    uint32_t *where = malloc((sim->pt->n + 1) * sizeof *where);
    if (!where)
        local_failed(sim);
    grains_status s = bin_held(sim, copy, pad, where, err);
    if (s == GRAINS_OK) {
        if (n_keys)
            sim_ranks_rename(sim, keys, n_keys, where);
        permute_marks(copy, where, sim->pt->n);
        particles_permute(sim->pt, where, *sim->keep_sums, 1); /* (one thread, as the ranks' binning) */
    }
    free(where);
    return s;
}

void sim_ranks_cut_table(const rank_sim *sim, const uint8_t *copy)
{
    sim_ranks *r = sim->ranks;
    grains_error err;
    if (block_table_own(&r->table, sim->grid, copy, r->block_contacts, &err) != GRAINS_OK ||
        (copy && block_table_merge(&r->table, &r->peers, &err) != GRAINS_OK) ||
        !array_reserve((void **)&r->table_owner, &r->table_owner_cap, r->table.n + 1, sizeof *r->table_owner, 1) ||
        !array_reserve(&r->points, &r->points_cap, r->table.n + 1, sizeof(block_point), 1))
        local_failed(sim);
    block_point *p = r->points;
    for (size_t k = 0; k < r->table.n; k++) {
        const block_entry *e = &r->table.e[k];
        p[k] = rank_cut_point(sim->grid, e->key, e->particles + SIM_CONTACT_WORK * (uint64_t)e->contacts,
                              (uint32_t)k);
    }
    sim_ranks_cut_points(sim, r->table.n, r->table_owner);
}

void sim_ranks_own_blocks(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    for (uint32_t b = 0; b < sim->grid->n_blocks; b++) {
        size_t k = block_table_find(&r->table, grid_block_key(sim->grid, b));
        r->owner[b] = k == SIZE_MAX ? -1 : r->table_owner[k]; /* every block held is the whole's */
    }
}

/* A history as it travels: its pair by ids, then its springs. */
static size_t history_bytes(const rank_sim *sim)
{
    return sizeof(store_key) + (size_t)sim->cs->layout.width * sizeof(real);
}

/* The ranks that evaluate the pair of `key` (held indices; rank_of the
 * new owners): to[0 .. return). */
static int evaluators(const rank_sim *sim, store_key key, int to[2])
{
    const int *rank_of = sim->ranks->rank_of;
    int a = rank_of[key.i], b = key.j & STORE_MESH_BIT ? a : rank_of[key.j & STORE_INDEX_MASK];
    to[0] = a;
    to[1] = b;
    return a == b ? 1 : 2;
}

/* Each of our own blocks' histories (springs in ranks.own), by ids, to
 * the ranks that evaluate its pair: the others' parts in rank order
 * (exchanged: ranks.recv, ranks.counts), then ours; returns our part's
 * bytes. */
static size_t send_histories(const rank_sim *sim, const store_key *keys, size_t n)
{
    sim_ranks *r = sim->ranks;
    const grains_particles *pt = sim->pt;
    size_t P = (size_t)r->peers.size, record = history_bytes(sim), width = record - sizeof(store_key);
    size_t m_sends = 0, self_bytes = 0;
    int to[2], me = r->peers.rank;
    uint64_t *sends = malloc((2 * n + 1) * sizeof *sends); /* (rank, ours last) << 32 | history */
    if (!sends || !array_reserve((void **)&r->send, &r->send_cap, 2 * n * record + 1, 1, 4))
        local_failed(sim);
    for (size_t m = 0; m < n; m++)
        for (int e = evaluators(sim, keys[m], to); e-- > 0;)
            sends[m_sends++] = (uint64_t)(to[e] == me ? P : (size_t)to[e]) << 32 | m;
    qsort(sends, m_sends, sizeof *sends, order_u64);
    memset(r->send_counts, 0, P * sizeof *r->send_counts);
    char *at = r->send;
    for (size_t q = 0; q < m_sends; q++, at += record) {
        size_t d = (size_t)(sends[q] >> 32), m = (uint32_t)sends[q];
        store_key by_id = {pt->id[keys[m].i], keys[m].j & STORE_MESH_BIT ? keys[m].j : pt->id[keys[m].j]};
        memcpy(at, &by_id, sizeof by_id);
        memcpy(at + sizeof by_id, (const char *)r->own + m * width, width);
        *(d == P ? &self_bytes : &r->send_counts[d]) += record;
    }
    free(sends);
    r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
    return self_bytes;
}

/* The histories received and ours into the store, their keys (by ids) to
 * this rank's places: ranks.keys, *n of them. */
static grains_status take_histories(const rank_sim *sim, size_t self_bytes, size_t *n, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    size_t P = (size_t)r->peers.size, record = history_bytes(sim), width = record - sizeof(store_key), sent = 0;
    size_t bytes[2] = {0, self_bytes};
    for (size_t q = 0; q < P; q++) {
        bytes[0] += r->counts[q];
        sent += r->send_counts[q];
    }
    const char *part[2] = {r->recv, r->send + sent};
    *n = (bytes[0] + bytes[1]) / record;
    grains_status s = store_load(sim->cs, *n, err);
    if (s != GRAINS_OK)
        return s;
    if (!array_reserve((void **)&r->keys, &r->keys_cap, *n + 1, sizeof *r->keys, 8))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories", *n);
    size_t k = 0;
    for (int p = 0; p < 2; p++)
        for (size_t at = 0; at < bytes[p]; at += record, k++) {
            store_key key;
            memcpy(&key, part[p] + at, sizeof key);
            r->keys[k] = (store_key){sim->pt->slot[key.i], key.j & STORE_MESH_BIT ? key.j : sim->pt->slot[key.j]};
            memcpy(store_entry(sim->cs, k), part[p] + at + sizeof key, width);
        }
    return GRAINS_OK;
}

/* What the move brought becomes this rank's particles (the arrays are
 * swapped, and the old ones let go; slot stays, every id not held marked
 * so). */
static void install_held(const rank_sim *sim)
{
    grains_particles *pt = sim->pt, *h = &sim->ranks->held.pt, old = *pt;
    uint32_t *h_slot = h->slot;
    size_t h_slot_cap = h->slot_cap;
    *pt = *h;
    pt->slot = old.slot;
    pt->slot_cap = old.slot_cap;
    *h = old;
    h->slot = h_slot;
    h->slot_cap = h_slot_cap;
    particles_free(h); /* not kept for the next move: that would hold the particles twice (at 10^6 on 2 ranks,
                        * 270 bytes per particle of the whole allocated on each rank with it, 180 without) */
    if (sim->ranks->n_ids) /* (none yet: a run that spawns them all; slot may be NULL) */
        memset(pt->slot, 0xff, sim->ranks->n_ids * sizeof *pt->slot);
    for (size_t i = 0; i < pt->n; i++)
        pt->slot[pt->id[i]] = (uint32_t)i;
}

/* Which of what this rank holds are copies: after a first rebuild, those
 * in other ranks' blocks; before it, when every rank holds every particle,
 * those of the other ranks' blocks where the ranks stepped so (cut_before:
 * a run resumed from a checkpoint, whose lists hold until the next
 * rebuild), else all but those whose id is this rank's modulo the ranks;
 * and so those added since the last cut (spawned), which every rank
 * added alike, but those dealt to one rank, which are its own. */
static void mark_copies(const rank_sim *sim, int cut_before, uint8_t *copy)
{
    const sim_ranks *r = sim->ranks;
    size_t cut = (r->holds_share && !r->dealt) || cut_before ? r->cut_n : 0;
    for (uint32_t i = 0; i < sim->pt->n; i++)
        copy[i] = i < cut ? !r->mine[i] : !sim_ranks_added_own(sim, i);
}

/* Per particle held (the grid's order), 1 when the insertion regions'
 * attempts may read it: every rank then holds it, or NULL (none). */
static uint8_t *spawn_reads(const rank_sim *sim)
{
    if (!sim->doors->spawn_reads(sim->core, NULL))
        return NULL;
    uint8_t *mark = calloc(sim->pt->n + 1, 1);
    if (!mark)
        local_failed(sim);
    sim->doors->spawn_reads(sim->core, mark);
    return mark;
}

/* Before a first rebuild in which the ranks stepped in no cut (a run's
 * start, or a resumed run's that rebuilds at once), every rank named every
 * history alike (the springs in the store's pool: store_gather, or those
 * set by grains_sim_set_contacts): each keeps those of the pairs whose
 * first particle is its own (copy[] not set), springs in ranks.own, so
 * that each history is sent once. */
static void keep_own_names(const rank_sim *sim, const uint8_t *copy, store_key *keys, size_t *n)
{
    sim_ranks *r = sim->ranks;
    size_t width = (size_t)sim->cs->layout.width * sizeof(real), m = 0;
    if (!array_reserve((void **)&r->own, &r->own_cap, *n + 1, width, 8))
        local_failed(sim);
    for (size_t k = 0; k < *n; k++)
        if (!copy[keys[k].i]) {
            keys[m] = keys[k];
            memcpy((char *)r->own + m * width, store_entry(sim->cs, k), width);
            m++;
        }
    *n = m;
}

/* What this rank holds where keep[i] is set, in its order, the rest let
 * go; the histories' keys (none naming one let go) renamed, copy[] with
 * them. */
static void keep_held(const rank_sim *sim, const uint8_t *keep, uint8_t *copy, store_key *keys, size_t n_keys)
{
    grains_particles *pt = sim->pt;
    size_t n = pt->n, kept = 0;
    for (size_t i = 0; i < n; i++)
        kept += keep[i];
    if (kept == n)
        return;
    uint32_t *where = malloc((n + 1) * sizeof *where);
    if (!where)
        local_failed(sim);
    for (size_t i = 0, in = 0, out = kept; i < n; i++)
        where[i] = (uint32_t)(keep[i] ? in++ : out++); /* the kept in their order, first */
    if (n_keys)
        sim_ranks_rename(sim, keys, n_keys, where);
    permute_marks(copy, where, n);
    particles_permute(pt, where, *sim->keep_sums, 1);
    for (size_t i = kept; i < n; i++)
        pt->slot[pt->id[i]] = UINT32_MAX;
    pt->n = kept;
    free(where);
}

/* After steps that sent the halo alone, the copies of others' particles
 * outside it are as old as the last rebuild: let go before this one bins
 * what is held, whose corners they would move (a grain that moved inward
 * since, its copy still outside the whole's corner, shifts the frame from
 * the whole's: the blocks' keys then differ from the cut's). Nothing of
 * the rebuild reads them: our histories' partners are in the halo (a
 * listed pair with one of ours), and only our own particles move. */
static void drop_stale_copies(const rank_sim *sim, uint8_t *copy, store_key *keys, size_t n_keys)
{
    sim_ranks *r = sim->ranks;
    size_t n = sim->pt->n, P = (size_t)r->peers.size;
    if (!r->holds_share || !r->halo_steps)
        return;
    uint8_t *keep = malloc(n + 1);
    if (!keep)
        local_failed(sim);
    for (size_t i = 0; i < n; i++)
        keep[i] = !copy[i];
    for (size_t h = 0; h < r->halo_from_start[P]; h++)
        keep[r->halo_from[h]] = 1;
    keep_held(sim, keep, copy, keys, n_keys);
    free(keep);
}

/* A removal's rebuild (decomp/rank_remove.c): what this rank holds of the
 * removed particles let go, with their histories (springs in ranks.own),
 * and the ids renamed past them. */
static void drop_removed(const rank_sim *sim, uint8_t *copy, store_key *keys, size_t *n_keys)
{
    sim_ranks *r = sim->ranks;
    const grains_particles *pt = sim->pt;
    if (!r->n_removing)
        return;
    uint8_t *keep = malloc(pt->n + 1);
    if (!keep)
        local_failed(sim);
    for (size_t i = 0; i < pt->n; i++)
        keep[i] = !sim_ranks_removing(sim, pt->id[i]);
    size_t width = (size_t)sim->cs->layout.width * sizeof(real), m = 0;
    for (size_t k = 0; k < *n_keys; k++) {
        store_key key = keys[k];
        if (!keep[key.i] || (!(key.j & STORE_MESH_BIT) && !keep[key.j & STORE_INDEX_MASK]))
            continue; /* its contact ends */
        keys[m] = key;
        memmove((char *)r->own + m * width, (const char *)r->own + k * width, width);
        m++;
    }
    *n_keys = m;
    keep_held(sim, keep, copy, keys, m);
    free(keep);
    sim_ranks_renumber(sim);
}

/* Who holds a particle beyond the ranks that may pair it (rank_also):
 * every rank, for the insertion regions' reach; the new owner of its
 * bonded partner. Then the bonds go to their new owners (before the
 * histories: the same buffers). */
static void plan_also(const rank_sim *sim, const uint8_t *copy, rank_also *also)
{
    *also = (rank_also){spawn_reads(sim), NULL, 0};
    if (!rank_bonds_any(sim)) /* (the same on every rank) */
        return;
    also->to = sim_ranks_bond_copies(sim, copy, &also->n_to);
    sim_ranks_move_bonds(sim, copy);
}

/* Steps 1 to 3: what this rank holds binned (the keys renamed after it),
 * the table merged and cut, each held particle's new owner (rank_of), who
 * else holds it and the bonds moved (*also), and the histories sent to
 * their evaluators; returns the bytes of ours. */
static grains_status cut_held(const rank_sim *sim, uint8_t *copy, store_key *keys, size_t n_keys, real pad,
                              size_t *self_bytes, rank_also *also, grains_error *err)
{
    grains_status s = sort_held(sim, copy, keys, n_keys, pad, err); /* an error on every rank alike */
    if (s != GRAINS_OK)
        return s;
    if (sim_ranks_reserve(sim, err) != GRAINS_OK)
        local_failed(sim);
    sim_ranks_count_contacts(sim, keys, n_keys);
    sim_ranks_cut_table(sim, copy);
    sim_ranks_own_blocks(sim);
    if (sim_ranks_mark_owned(sim, err) != GRAINS_OK)
        local_failed(sim);
    plan_also(sim, copy, also);
    *self_bytes = send_histories(sim, keys, n_keys);
    return GRAINS_OK;
}

void sim_ranks_place_table(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    if (!array_reserve((void **)&r->table_first, &r->table_first_cap, r->table.n + 1, sizeof *r->table_first, 8))
        local_failed(sim);
    r->table_first[0] = 0;
    for (size_t k = 0; k < r->table.n; k++)
        r->table_first[k + 1] = r->table_first[k] + r->table.e[k].particles;
}

/* Steps 4 and 5: the particles moved (to the ranks that may pair them,
 * and those `also` names); what this rank holds now binned, its blocks'
 * owners, and the histories it evaluates (ranks.keys, *n_keys). */
static grains_status hold_moved(const rank_sim *sim, const uint8_t *copy, const rank_also *also, real pad,
                                size_t self_bytes, size_t *n_keys, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    if (rank_move(sim->pt, copy, also, sim->grid, &r->table, r->table_owner, &r->peers, *sim->keep_sums, &r->held,
                  err) != GRAINS_OK)
        local_failed(sim);
    install_held(sim);
    sim_ranks_frame_old(r);
    if (!r->holds_share) { /* room made while every rank held every particle, let go */
        grid_free(sim->grid);
        sim_ranks_release(r);
    }
    uint8_t *now = malloc(sim->pt->n + 1);
    if (!now)
        local_failed(sim);
    for (size_t i = 0; i < sim->pt->n; i++)
        now[i] = i >= r->held.own;
    grains_status s = sort_held(sim, now, NULL, 0, pad, err);
    free(now);
    if (s != GRAINS_OK)
        return s;
    if (sim_ranks_reserve(sim, err) != GRAINS_OK ||
        !array_reserve((void **)&r->first, &r->first_cap, sim->pt->n + 1, sizeof *r->first, 8))
        local_failed(sim);
    r->holds_share = 1;
    r->dealt = 0;
    r->dealt_from = r->dealt_to = r->range_next = r->range_end = 0;
    r->ranged = 0;
    sim_ranks_own_blocks(sim);
    sim_ranks_place_table(sim);
    if (sim_ranks_mark_owned(sim, err) != GRAINS_OK)
        local_failed(sim);
    return take_histories(sim, self_bytes, n_keys, err);
}

grains_status sim_ranks_local_sort(const rank_sim *sim, store_key **keys, size_t *n_keys, int cut_before, real pad,
                                   grains_error *err)
{
    sim_ranks *r = sim->ranks;
    grains_status s = sim_ranks_local_check(sim, err);
    r->moving = 0; /* (the positions made whole after steps as every rank holding every particle: enough) */
    if (s != GRAINS_OK)
        return s;
    if (!r->holds_share)
        r->n_ids = sim->pt->n;
    sim_ranks_dealt_tags(sim);
    uint8_t *copy = malloc(sim->pt->n + 1);
    if (!copy || particles_reserve_ids(sim->pt, r->n_ids, err) != GRAINS_OK)
        local_failed(sim);
    mark_copies(sim, cut_before, copy);
    drop_stale_copies(sim, copy, *keys, *n_keys);
    if (!r->holds_share && !cut_before)
        keep_own_names(sim, copy, *keys, n_keys);
    drop_removed(sim, copy, *keys, n_keys);
    size_t self_bytes = 0;
    rank_also also = {NULL, NULL, 0};
    s = cut_held(sim, copy, *keys, *n_keys, pad, &self_bytes, &also, err);
    if (s == GRAINS_OK)
        s = hold_moved(sim, copy, &also, pad, self_bytes, n_keys, err);
    free((void *)also.everywhere);
    free((void *)also.to);
    free(copy);
    *keys = r->keys;
    if (s == GRAINS_OK)
        sim_ranks_plan_lists(sim);
    return s;
}
