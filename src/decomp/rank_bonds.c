/* Bonds when the ranks hold their own particles alone (grains_ranks.local;
 * decomp/rank_local.c). A rank keeps the bonds with an own particle: the two
 * owners of a bond evaluate it from the same inputs (the partner's copy is
 * in the halo) and get the same bits, as when every rank holds every
 * particle (bonds/bonds.c, sim_bond_forces). So at a cut:
 *   - each bond goes from the old owner of its first particle (by id),
 *     whose copy is current, to the new owners of its particles (of the
 *     first alone once broken: its partner may be held nowhere near);
 *   - each particle of an intact bond goes as a copy to the new owner of
 *     its partner, however far apart the two are (the pairs' reach does
 *     not cover a stretched bond).
 * Rank 0 gathers every bond, from the owners of their first particles, to
 * write; with the index of the bonds intact at the last rebuild over the
 * whole's order, which a checkpoint holds. */
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "util/array.h"
#include "util/order.h"

static void bonds_failed(const rank_sim *sim, const char *why)
{
    sim_ranks_stop(sim, why);
}

/* Where particle `id` is held, or UINT32_MAX. */
static uint32_t held(const rank_sim *sim, uint32_t id)
{
    return id < sim->ranks->n_ids ? sim->pt->slot[id] : UINT32_MAX;
}

size_t sim_ranks_bonds_formed(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    if (!rank_local(sim) || !r->holds_share)
        return sim->bonds->n;
    uint64_t n = 0; /* each bond once: on the owner of its first particle */
    for (size_t k = 0; k < sim->bonds->n; k++) {
        uint32_t i = held(sim, sim->bonds->list[k].a);
        n += i != UINT32_MAX && r->mine[i];
    }
    r->peers.sum(r->peers.ctx, &n, 1);
    r->bonds_whole = (size_t)n;
    return r->bonds_whole;
}

uint64_t *sim_ranks_bond_copies(const rank_sim *sim, const uint8_t *copy, size_t *n)
{
    const sim_bonds *bs = sim->bonds;
    uint64_t *to = malloc((2 * bs->n + 1) * sizeof *to); /* (rank << 32 | held index) */
    if (!to)
        bonds_failed(sim, "out of memory sharing the bonds among the ranks: stopping them all");
    *n = 0;
    for (size_t k = 0; k < bs->n; k++) {
        uint32_t i = held(sim, bs->list[k].a), j = held(sim, bs->list[k].b);
        if (bs->list[k].broken || i == UINT32_MAX || j == UINT32_MAX)
            continue;
        if (!copy[i])
            to[(*n)++] = (uint64_t)sim->ranks->rank_of[j] << 32 | i;
        if (!copy[j])
            to[(*n)++] = (uint64_t)sim->ranks->rank_of[i] << 32 | j;
    }
    return to;
}

/* Our bonds (first particle ours before the cut: copy[] not set) for the
 * new owners of their particles, (rank << 32 | bond) sorted; how many. */
static size_t plan_bonds(const rank_sim *sim, const uint8_t *copy, uint64_t **out)
{
    const sim_bonds *bs = sim->bonds;
    const int *rank_of = sim->ranks->rank_of;
    uint64_t *to = malloc((2 * bs->n + 1) * sizeof *to);
    if (!to)
        bonds_failed(sim, "out of memory sharing the bonds among the ranks: stopping them all");
    size_t n = 0;
    for (size_t k = 0; k < bs->n; k++) {
        const sim_bond *bd = &bs->list[k];
        uint32_t i = held(sim, bd->a), j = held(sim, bd->b);
        if (i == UINT32_MAX || copy[i])
            continue;
        if (!bd->broken && j == UINT32_MAX) /* its partner's copy must be here: a broken promise */
            bonds_failed(sim, "an intact bond's second particle is not held by the owner of its first: "
                              "stopping every rank");
        to[n++] = (uint64_t)rank_of[i] << 32 | k;
        if (!bd->broken && rank_of[j] != rank_of[i])
            to[n++] = (uint64_t)rank_of[j] << 32 | k;
    }
    if (n)
        qsort(to, n, sizeof *to, order_u64);
    *out = to;
    return n;
}

void sim_ranks_move_bonds(const rank_sim *sim, const uint8_t *copy)
{
    sim_ranks *r = sim->ranks;
    sim_bonds *bs = sim->bonds;
    size_t P = (size_t)r->peers.size, received = 0, at = 0;
    uint64_t *to = NULL, whole = 0;
    size_t n = plan_bonds(sim, copy, &to);
    if (!array_reserve((void **)&r->send, &r->send_cap, n * sizeof *bs->list + 1, 1, 4))
        bonds_failed(sim, "out of memory sharing the bonds among the ranks: stopping them all");
    for (size_t d = 0; d < P; d++) {
        r->send_counts[d] = 0;
        for (; at < n && to[at] >> 32 == d; at++, r->send_counts[d] += sizeof *bs->list)
            memcpy(r->send + at * sizeof *bs->list, &bs->list[(uint32_t)to[at]], sizeof *bs->list);
    }
    for (size_t k = 0; k < bs->n; k++) /* each bond once: from the owner of its first particle */
        whole += held(sim, bs->list[k].a) != UINT32_MAX && !copy[held(sim, bs->list[k].a)];
    free(to);
    r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
    for (size_t q = 0; q < P; q++)
        received += r->counts[q] / sizeof *bs->list;
    if (!array_reserve((void **)&bs->list, &bs->cap, received + 1, sizeof *bs->list, 8))
        bonds_failed(sim, "out of memory sharing the bonds among the ranks: stopping them all");
    memcpy(bs->list, r->recv, received * sizeof *bs->list);
    bs->n = received;
    bs->sorted = 0;
    sim_bonds_sort(bs);
    r->peers.sum(r->peers.ctx, &whole, 1);
    r->bonds_whole = (size_t)whole;
}

/* A bond as it travels to the writer: with whether the index of the last
 * rebuild holds it (intact then). */
typedef struct {
    sim_bond bond;
    int indexed;
} bond_record;

static int by_ids(const void *pa, const void *pb)
{
    const sim_bond *a = &((const bond_record *)pa)->bond, *b = &((const bond_record *)pb)->bond;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* Our bonds (first particle ours) into the send buffer; their bytes. */
static size_t put_own_bonds(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const sim_bonds *bs = sim->bonds;
    size_t n = 0;
    if (!array_reserve((void **)&r->send, &r->send_cap, (bs->n + 1) * sizeof(bond_record), 1, 4))
        bonds_failed(sim, "out of memory gathering the bonds to write: stopping them all");
    for (size_t k = 0; k < bs->n; k++) {
        uint32_t i = held(sim, bs->list[k].a), j = held(sim, bs->list[k].b);
        if (i == UINT32_MAX || !r->mine[i])
            continue;
        bond_record rec;
        memset(&rec, 0, sizeof rec); /* the padding too: it travels */
        rec.bond = bs->list[k];
        rec.indexed =
            j != UINT32_MAX && bs->start && i < bs->indexed && j < bs->indexed && sim_bonds_join(sim->bonds, i, j);
        memcpy(r->send + n++ * sizeof rec, &rec, sizeof rec);
    }
    return n * sizeof(bond_record);
}

/* The records received into rank 0's whole_bonds, in the bonds' order,
 * with the index of those intact at the last rebuild over the whole's
 * order (slot: each of the n ids' place in it). */
static void take_all_bonds(const rank_sim *sim, bond_record *rec, size_t n, const uint32_t *slot, size_t n_ids)
{
    sim_ranks *r = sim->ranks;
    sim_bonds *w = &r->whole_bonds;
    uint8_t *keep = malloc(n + 1);
    if (!keep || !array_reserve((void **)&w->list, &w->cap, n + 1, sizeof *w->list, 8))
        bonds_failed(sim, "out of memory gathering the bonds to write: stopping them all");
    qsort(rec, n, sizeof *rec, by_ids);
    for (size_t k = 0; k < n; k++) {
        w->list[k] = rec[k].bond;
        keep[k] = (uint8_t)rec[k].indexed;
    }
    w->n = n;
    w->sorted = n ? 1 : sim->bonds->sorted; /* as one process's: sorted at its rebuilds */
    w->formed = sim->bonds->formed;
    if (n && !sim_bonds_fill_index(w, n_ids, slot, keep))
        bonds_failed(sim, "out of memory gathering the bonds to write: stopping them all");
    free(keep);
}

static int by_pair(const void *pa, const void *pb)
{
    const size_t *a = pa, *b = pb;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

size_t sim_ranks_bond_pairs(const rank_sim *sim, size_t **pairs)
{
    sim_ranks *r = sim->ranks;
    const sim_bonds *bs = sim->bonds;
    size_t n = 0, total;
    if (!array_reserve((void **)&r->send, &r->send_cap, (bs->n + 1) * 2 * sizeof(size_t), 1, 4))
        bonds_failed(sim, "out of memory gathering the bonds to draw: stopping them all");
    for (size_t k = 0; k < bs->n; k++) {
        uint32_t i = held(sim, bs->list[k].a);
        if (i == UINT32_MAX || !r->mine[i] || bs->list[k].broken)
            continue;
        size_t pair[2] = {bs->list[k].a, bs->list[k].b};
        memcpy(r->send + n++ * sizeof pair, pair, sizeof pair);
    }
    const char *all = sim_ranks_to_writer(sim, n * 2 * sizeof(size_t), &total);
    *pairs = NULL;
    if (r->peers.rank != 0)
        return 0;
    size_t m = total / (2 * sizeof(size_t));
    if (!(*pairs = malloc((2 * m + 2) * sizeof **pairs)))
        bonds_failed(sim, "out of memory gathering the bonds to draw: stopping them all");
    memcpy(*pairs, all, 2 * m * sizeof **pairs);
    qsort(*pairs, m, 2 * sizeof **pairs, by_pair);
    return m;
}

void sim_ranks_gather_bonds(const rank_sim *sim, const uint32_t *slot, size_t n_ids)
{
    sim_ranks *r = sim->ranks;
    if (!rank_bonds_any(sim)) { /* none, or the last ones removed: as one process without bonds writes them */
        if (r->peers.rank == 0) {
            r->whole_bonds.n = 0;
            r->whole_bonds.sorted = 0;
            r->whole_bonds.formed = sim->bonds->formed;
            sim_bonds_drop_index(&r->whole_bonds);
        }
        return;
    }
    size_t total;
    bond_record *all = (bond_record *)sim_ranks_to_writer(sim, put_own_bonds(sim), &total);
    if (r->peers.rank == 0)
        take_all_bonds(sim, all, total / sizeof(bond_record), slot, n_ids);
}
