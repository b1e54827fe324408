/* One simulation shared among ranks (grains/ranks.h). Every rank holds the
 * whole state. At each rebuild, once the particles are in their new
 * order, the cell blocks are cut among the ranks by recursive coordinate
 * bisection of space (the centres of their regions), balanced by their
 * particles and contacts; a rank's blocks are runs of the force loop's
 * order, so of storage slots, list entries and history windows. A rank
 * then builds the lists of its own particles and of those in the blocks
 * within reach of its own (decomp/rank_reach.c), when nothing else reads the
 * others' lists (the steps send the halo alone, no membranes).
 *
 * A rank walks its own blocks whole, and of the other blocks only the
 * pairs with a partner of its own (block order, list order: each own
 * particle's force is summed in the single process's order, from the same
 * inputs, so it has the same bits). The ranks gather their diagnostics
 * with their blocks' wall sums and patch logs (an all-gather, before the
 * update); each updates its own particles, then sends them to every rank
 * (an all-gather), or, between rebuilds when nothing else reads another
 * rank's particle (halo_suffices), only to the ranks that read them: each
 * reader the halo it reads, our particles in a listed pair or a bond with
 * one of its own, and those its insertion regions' attempts may read, in
 * messages between neighbouring regions alone, whose sizes the cut's
 * lists give, and the largest speed in a reduction; rank 0's copy,
 * the writer's, is then made whole on request (grains_sim_gather: with
 * the lists and contact histories, which a rank's copy of another's block
 * holds stale or not at all until then); the others' stay as they are.
 * A rebuild needs the others' positions alone: after the cut each
 * particle that changed owner goes to its new one, and each reader gets
 * its new halo (sim_ranks_complete_positions, sim_ranks_planned).
 * Nor does it need the others' lists or their histories: each
 * rank names the histories of its own blocks and renames them after the
 * sort, the cut weighs the blocks by the ranks' counts of them, summed,
 * and each history then goes with its key to the ranks that evaluate its
 * pair.
 *
 * Every rank still does the O(N) work of sorting at the rebuilds and holds
 * every particle (every position whole at a rebuild): this shares the
 * force loop, the lists, the update and the histories, not the particles'
 * memory. Ranks that hold their own particles and their partners alone
 * (grains_ranks.local) rebuild instead as decomp/rank_local.c says, and then
 * walk their blocks, lists and halo through this file as the others do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decomp/decomp.h"
#include "util/array.h"
#include "util/order.h"

/* Bytes to send, growing. */
typedef struct {
    char *p;
    size_t n, cap;
    int failed;
} pack;

static void put(pack *k, const void *v, size_t bytes)
{
    if (bytes == 0) /* an empty part (a rank's halo for itself): nothing to copy, maybe nowhere yet */
        return;
    if (k->failed || !array_reserve((void **)&k->p, &k->cap, k->n + bytes, 1, 2)) {
        k->failed = 1;
        return;
    }
    memcpy(k->p + k->n, v, bytes);
    k->n += bytes;
}

/* Bytes received from one rank, read in the order they were put. */
typedef struct {
    const char *p;
} unpack;

static void take(unpack *u, void *v, size_t bytes)
{
    if (bytes == 0)
        return;
    memcpy(v, u->p, bytes);
    u->p += bytes;
}

static pack pack_start(const rank_sim *sim);
static void pack_keep(const rank_sim *sim, const pack *k);
static char *exchange(const rank_sim *sim, const pack *k);
static char *exchange_each(const rank_sim *sim, const pack *k);
static char *exchange_neighbours(const rank_sim *sim, const pack *k);
static void exchange_failed(const rank_sim *sim);
static void bonds_to_writer(const rank_sim *sim);
static void send_bonds(const rank_sim *sim);
static double seconds_now(void);

/* v[0 .. n) sorted, each value once; how many remain. */
static size_t unique_sorted(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, order_u64);
    size_t m = 1;
    for (size_t k = 1; k < n; k++)
        if (v[k] != v[m - 1])
            v[m++] = v[k];
    return m;
}

void sim_ranks_free(sim_ranks *r)
{
    block_table_free(&r->table);
    free(r->table_owner);
    rank_held_free(&r->held);
    particles_free(&r->whole);
    free(r->table_first);
    sim_bonds_free(&r->whole_bonds);
    free(r->named_logs);
    free(r->log_entry);
    free(r->named_records);
    free(r->first);
    free(r->counts);
    free(r->halo_to_start);
    free(r->halo_from_start);
    free(r->send_counts);
    free(r->own);
    free(r->keys);
    free(r->removing);
    free(r->work);
    free(r->planes);
    free(r->halo_to);
    free(r->halo_from);
    free(r->bonds_own);
    free(r->rank_of);
    free(r->was);
    free(r->owner);
    free(r->visit);
    free(r->mine);
    free(r->listed);
    free(r->block_contacts);
    free(r->runs);
    free(r->points);
    free(r->send);
    free(r->recv);
    free(r->window_order);
    free(r->window_start);
}

void sim_ranks_frame_old(sim_ranks *r)
{
    r->writer_whole = 0;
    r->thermo_whole = 0;
    r->windows_valid = 0;
    if (r->whole.cap) /* rank 0's copy of every particle, once read */
        particles_free(&r->whole);
    free(r->window_order); /* (4 bytes an own particle: held until the next frame) */
    r->window_order = NULL;
    r->window_order_cap = 0;
}

/* What the step does not share yet: an error on every rank. */
static grains_status refuse_unshared(const rank_sim *sim, grains_error *err)
{
    const char *what = sim->integrator->advance ? "an implicit integrator"
                       : sim->box->sheared      ? "a sheared periodic box (shear_rate)"
                       : sim->p->box_pressure > 0 ? "a box held at a pressure (box_pressure)"
                       : sim->rec->requested    ? "the contacts output"
                       : *sim->guide_on         ? "a guided particle"
                                               : NULL;
    if (!what)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%s does not run on several ranks yet: run it on one",
                            what);
}

/* The first particle of block b (b <= n_blocks). */
static uint32_t block_first(const grains_grid *g, uint32_t b)
{
    return g->n_blocks ? g->first[g->block_start[b]] : 0;
}

/* A block's work: its particles and their contacts (those of the last
 * step, known before the lists that the cut decides are built). */
static uint64_t block_weight(const rank_sim *sim, uint32_t b)
{
    uint32_t i0 = block_first(sim->grid, b), i1 = block_first(sim->grid, b + 1);
    return (uint64_t)(i1 - i0) + SIM_CONTACT_WORK * (uint64_t)sim->ranks->block_contacts[b];
}

void sim_ranks_count_contacts(const rank_sim *sim, const store_key *keys, size_t n_keys)
{
    const grains_grid *g = sim->grid;
    uint32_t *count = sim->ranks->block_contacts, *per = calloc(sim->pt->n + 1, sizeof *per);
    memset(count, 0, g->n_blocks * sizeof *count);
    if (!per)
        return;
    for (size_t k = 0; k < n_keys; k++)
        if (keys[k].i < sim->pt->n)
            per[keys[k].i]++;
    for (uint32_t b = 0; b < g->n_blocks; b++)
        for (uint32_t i = block_first(g, b); i < block_first(g, b + 1); i++)
            count[b] += per[i];
    free(per);
}

/* Each block's contacts from the histories it holds. */
static void contacts_from_store(const rank_sim *sim)
{
    for (uint32_t b = 0; b < sim->grid->n_blocks; b++)
        sim->ranks->block_contacts[b] = b < sim->cs->n_blocks ? (uint32_t)sim->cs->block[b].n : 0;
}

/* The centre of block b's region (from its level and coordinates alone:
 * the same in a grid of any rank's particles, where the mean of its
 * particles' positions would be a sum whose order follows the split) and
 * its work. */
static block_point block_at(const rank_sim *sim, uint32_t b)
{
    return rank_cut_point(sim->grid, grid_block_key(sim->grid, b), block_weight(sim, b), b);
}

static double imbalance(const rank_sim *sim);

void sim_ranks_cut_points(const rank_sim *sim, size_t n, int *owner)
{
    sim_ranks *r = sim->ranks;
    block_point *p = r->points;
    r->n_points = n;
    r->point_owner = owner;
    if (r->stats.cuts && r->peers.rebalance > 1) {
        for (size_t k = 0; k < n; k++)
            owner[p[k].b] = rank_cut_by_planes(r->planes, p[k], r->peers.size);
        if (imbalance(sim) <= r->peers.rebalance)
            return;
    }
    rank_cut_bisect(p, n, r->peers.size, owner, r->planes);
    r->stats.bisections++;
}

/* Every block's rank: by the last bisection's planes while they give no
 * rank more than `rebalance` times the mean work, else bisected anew. */
static void cut_blocks(const rank_sim *sim)
{
    block_point *p = sim->ranks->points;
    uint32_t n_blocks = (uint32_t)sim->grid->n_blocks;
    for (uint32_t b = 0; b < n_blocks; b++)
        p[b] = block_at(sim, b);
    sim_ranks_cut_points(sim, n_blocks, sim->ranks->owner);
}

/* A run of rank r's blocks, consecutive in the force loop's order:
 * blocks [b0, b1), particles [p0, p1). */
typedef struct {
    uint32_t b0, b1, p0, p1;
} rank_run;

/* Rank r's first run of blocks at or after block `from`; 0 if none. */
static int next_run(const rank_sim *sim, int r, uint32_t from, rank_run *run)
{
    uint32_t n = (uint32_t)sim->grid->n_blocks, b = from;
    const int *owner = sim->ranks->owner;
    while (b < n && owner[b] != r)
        b++;
    if (b == n)
        return 0;
    run->b0 = b;
    while (b < n && owner[b] == r)
        b++;
    run->b1 = b;
    run->p0 = block_first(sim->grid, run->b0);
    run->p1 = block_first(sim->grid, run->b1);
    return 1;
}

#define FOR_RUNS(sim, r, run) for (rank_run run = {0, 0, 0, 0}; next_run(sim, r, run.b1, &run);)

/* Our particles: marked, and their runs. */
static int mark_mine(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    memset(r->mine, 0, sim->pt->n);
    r->n_runs = 0;
    FOR_RUNS(sim, r->peers.rank, run) {
        if (!array_reserve((void **)&r->runs, &r->runs_cap, r->n_runs + 1, sizeof *r->runs, 2))
            return 0;
        r->runs[r->n_runs++] = (slot_run){run.p0, run.p1};
        memset(r->mine + run.p0, 1, run.p1 - run.p0);
        for (uint32_t b = run.b0; b < run.b1; b++)
            r->visit[b] = 2;
    }
    return 1;
}

/* The cut's imbalance: the most work a rank got over the mean. */
static double imbalance(const rank_sim *sim)
{
    const sim_ranks *r = sim->ranks;
    const block_point *p = r->points;
    int P = r->peers.size;
    memset(r->work, 0, (size_t)P * sizeof *r->work);
    for (size_t k = 0; k < r->n_points; k++)
        r->work[r->point_owner[p[k].b]] += p[k].w;
    uint64_t most = 0, total = 0;
    for (int q = 0; q < P; q++) {
        most = r->work[q] > most ? r->work[q] : most;
        total += r->work[q];
    }
    return total ? (double)most * P / (double)total : 1;
}

/* The cut's imbalance, and the share of the lists this rank builds. */
static void count_cut(const rank_sim *sim)
{
    grains_ranks_stats *st = &sim->ranks->stats;
    double now = imbalance(sim), listed = sim->ranks->listing_some ? 0 : (double)sim->pt->n;
    double whole = sim->ranks->holds_share ? (double)sim->ranks->n_ids : (double)sim->pt->n; /* (of the whole's) */
    for (size_t i = 0; sim->ranks->listing_some && i < sim->pt->n; i++)
        listed += sim->ranks->listed[i];
    st->listed += whole > 0 ? listed / whole : 1;
    st->cuts++;
    st->held = (double)sim->pt->n;
    st->last = now;
    st->imbalance += now;
    st->worst = now > st->worst ? now : st->worst;
}

/* Every particle's rank. */
static void mark_ranks(const rank_sim *sim)
{
    for (int r = 0; r < sim->ranks->peers.size; r++)
        FOR_RUNS(sim, r, run)
            for (uint32_t i = run.p0; i < run.p1; i++)
                sim->ranks->rank_of[i] = r;
}

/* Pair (i, j) in `reads` when one of them is ours and the other another
 * rank's: (that rank << 32 | ours). 0: out of memory. */
static int note_read(const sim_ranks *r, uint32_t i, uint32_t j, uint64_t **reads, size_t *n, size_t *cap)
{
    const int *rank_of = r->rank_of;
    if (rank_of[i] == rank_of[j] || !(r->mine[i] || r->mine[j]))
        return 1;
    if (!array_reserve((void **)reads, cap, *n + 1, sizeof **reads, 2))
        return 0;
    (*reads)[(*n)++] = r->mine[i] ? (uint64_t)rank_of[j] << 32 | i : (uint64_t)rank_of[i] << 32 | j;
    return 1;
}

/* Our particles that the insertion regions' attempts may read, in every
 * other rank's halo: every rank attempts alike (insert/spawn.c). 0: out of
 * memory. */
static int note_spawn_reads(const rank_sim *sim, uint64_t **reads, size_t *n, size_t *cap)
{
    const sim_ranks *r = sim->ranks;
    if (!sim->doors->spawn_reads(sim->core, NULL))
        return 1;
    uint8_t *mark = calloc(sim->pt->n + 1, 1);
    if (!mark)
        return 0;
    sim->doors->spawn_reads(sim->core, mark);
    int ok = 1;
    FOR_RUNS(sim, r->peers.rank, run)
        for (uint32_t i = run.p0; i < run.p1 && ok; i++)
            for (int d = 0; d < r->peers.size && mark[i] && ok; d++)
                if (d != r->peers.rank && (ok = array_reserve((void **)reads, cap, *n + 1, sizeof **reads, 2)))
                    (*reads)[(*n)++] = (uint64_t)d << 32 | i;
    free(mark);
    return ok;
}

/* The halo, by reader: for each other rank, our particles in a listed
 * pair or an intact bond with one of its own, whose copies it reads in
 * the force loop or the bonds' forces, and those its insertion regions'
 * attempts may read. Each rank finds its own in the
 * lists it holds (its own particles' and those that may pair with them:
 * every pair with one of its own), in storage order; each reader receives
 * its list from every owner (collective). */
static void mark_halo(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const grains_neighbors *nb = sim->nb;
    const sim_bonds *bs = sim->bonds;
    size_t P = (size_t)r->peers.size, n_reads = 0, reads_cap = 0;
    uint64_t *reads = NULL; /* (reader << 32 | own particle) */
    int ok = 1;
    for (uint32_t i = 0; i < nb->n_particles && ok; i++)
        for (uint32_t k = nb->start[i]; k < nb->start[i + 1] && !(nb->j[k] & STORE_MESH_BIT) && ok; k++)
            ok = note_read(r, i, nb->j[k] & STORE_INDEX_MASK, &reads, &n_reads, &reads_cap);
    for (size_t b = 0; b < bs->n && ok; b++)
        if (!bs->list[b].broken)
            ok = note_read(r, sim->pt->slot[bs->list[b].a], sim->pt->slot[bs->list[b].b], &reads, &n_reads, &reads_cap);
    ok = ok && note_spawn_reads(sim, &reads, &n_reads, &reads_cap);
    size_t n = n_reads ? unique_sorted(reads, n_reads) : 0;
    if (!ok || !array_reserve((void **)&r->halo_to, &r->halo_to_cap, n + 1, sizeof *r->halo_to, 1))
        exchange_failed(sim);
    uint8_t *edge = calloc(sim->pt->n + 1, 1);
    if (!edge)
        exchange_failed(sim);
    r->halo_own = 0;
    size_t h = 0;
    pack k = pack_start(sim);
    for (size_t d = 0; d < P; d++) {
        r->halo_to_start[d] = h;
        for (; h < n && reads[h] >> 32 == d; h++) {
            uint32_t i = (uint32_t)reads[h];
            r->halo_to[h] = i;
            r->halo_own += !edge[i];
            edge[i] = 1;
        }
        for (size_t m = r->halo_to_start[d]; m < h; m++)
            put(&k, &sim->pt->id[r->halo_to[m]], sizeof *sim->pt->id); /* by id: ranks name particles alike */
        r->send_counts[d] = (h - r->halo_to_start[d]) * sizeof *sim->pt->id;
    }
    r->halo_to_start[P] = h;
    free(edge);
    free(reads);
    char *all = exchange_each(sim, &k);
    pack_keep(sim, &k);
    r->halo_from_start[0] = 0;
    for (size_t q = 0; q < P; q++)
        r->halo_from_start[q + 1] = r->halo_from_start[q] + r->counts[q] / sizeof *sim->pt->id;
    if (!array_reserve((void **)&r->halo_from, &r->halo_from_cap, r->halo_from_start[P] + 1, sizeof *r->halo_from, 1))
        exchange_failed(sim);
    unpack u = {all};
    for (size_t m = 0; m < r->halo_from_start[P]; m++) {
        uint32_t id;
        take(&u, &id, sizeof id);
        r->halo_from[m] = sim->pt->slot[id];
    }
}

/* The bonds a rank evaluates in halo steps: those with an own particle,
 * listed once per cut so that a step walks them alone, not every bond. */
static void list_own_bonds(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const sim_bonds *bs = sim->bonds;
    if (!array_reserve((void **)&r->bonds_own, &r->bonds_own_cap, bs->n + 1, sizeof *r->bonds_own, 1))
        exchange_failed(sim);
    r->n_bonds_own = 0;
    for (size_t b = 0; b < bs->n; b++) { /* (held nowhere near: a broken bond's partner, ranks holding their own) */
        uint32_t i = sim->pt->slot[bs->list[b].a], j = sim->pt->slot[bs->list[b].b];
        if ((i != UINT32_MAX && r->mine[i]) || (j != UINT32_MAX && r->mine[j]))
            r->bonds_own[r->n_bonds_own++] = (uint32_t)b;
    }
}

/* Which other blocks list a partner among our particles. */
static void mark_visits(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const grains_neighbors *nb = sim->nb;
    for (uint32_t b = 0; b < sim->grid->n_blocks; b++) {
        if (r->visit[b] == 2)
            continue;
        uint32_t k0 = nb->start[block_first(sim->grid, b)], k1 = nb->start[block_first(sim->grid, b + 1)];
        int ours = 0;
        for (uint32_t k = k0; k < k1 && !ours; k++)
            ours = !(nb->j[k] & STORE_MESH_BIT) && r->mine[nb->j[k] & STORE_INDEX_MASK];
        r->visit[b] = (uint8_t)ours;
    }
}

/* Whether the steps up to the next rebuild may send the halo alone:
 * nothing before it reads another rank's particle but the force loop, the
 * bonds of the own particles (whose partners are in the halo), Verlet's
 * begin (which moves the halo's copies as their owners move them) and the
 * insertion regions' attempts (the particles they may read are in every
 * rank's halo); no bonds still to form (that reads every list). (Tag
 * rules set the tags of the own particles right, and the tags go with the
 * rest to a new owner and to the writer; a bond goes to the new owners
 * of its particles at a cut, and to the writer: send_bonds,
 * bonds_to_writer.) */
static int halo_suffices(const rank_sim *sim)
{
    /* (ranks holding their own alone form those with an own particle, from
     * the lists of their reach: sim_bonds_form) */
    return !(sim->p->bond_tolerance > 0 && !sim->bonds->formed) || rank_local(sim);
}

void sim_ranks_release(sim_ranks *r)
{
    void **tables[] = {(void **)&r->visit, (void **)&r->owner, (void **)&r->block_contacts, (void **)&r->mine,
                       (void **)&r->listed, (void **)&r->rank_of, (void **)&r->was};
    size_t *caps[] = {&r->visit_cap, &r->owner_cap, &r->block_contacts_cap, &r->mine_cap,
                      &r->listed_cap, &r->rank_of_cap, &r->was_cap};
    for (size_t k = 0; k < sizeof tables / sizeof *tables; k++) {
        free(*tables[k]);
        *tables[k] = NULL;
        *caps[k] = 0;
    }
}

void sim_ranks_drop_exchange(sim_ranks *r, int sent, int received)
{
    if (sent) {
        free(r->send);
        r->send = NULL;
        r->send_cap = 0;
    }
    if (received) {
        free(r->recv);
        r->recv = NULL;
        r->recv_cap = 0;
    }
}

grains_status sim_ranks_reserve(const rank_sim *sim, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    size_t n_blocks = sim->grid->n_blocks, n = sim->pt->n;
    if (!array_reserve((void **)&r->visit, &r->visit_cap, n_blocks + 1, 1, 1) ||
        !array_reserve((void **)&r->owner, &r->owner_cap, n_blocks + 1, sizeof *r->owner, 1) ||
        !array_reserve((void **)&r->block_contacts, &r->block_contacts_cap, n_blocks + 1, sizeof *r->block_contacts,
                       1) ||
        !array_reserve(&r->points, &r->points_cap, n_blocks + 1, sizeof(block_point), 1) ||
        !array_reserve((void **)&r->mine, &r->mine_cap, n + 1, 1, 1) ||
        !array_reserve((void **)&r->listed, &r->listed_cap, n + 1, 1, 1) ||
        !array_reserve((void **)&r->rank_of, &r->rank_of_cap, n + 1, sizeof *r->rank_of, 1) ||
        !array_reserve((void **)&r->was, &r->was_cap, n + 1, sizeof *r->was, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory sharing the cell blocks");
    return GRAINS_OK;
}

grains_status sim_ranks_mark_owned(const rank_sim *sim, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    memset(r->visit, 0, sim->grid->n_blocks);
    if (!mark_mine(sim))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory sharing the cell blocks");
    mark_ranks(sim);
    /* the grains added since the last rebuild (newcomers, in no block: a
     * resumed state's, whose fields may be unread yet) hold the last ids, in
     * order, and are the own ones of the rank of their id modulo the ranks,
     * as their next cut (sim_ranks_added_own) */
    for (uint32_t i = (uint32_t)sim->grid->n_particles; sim->grid->n_particles && i < sim->pt->n; i++)
        r->mine[i] = (r->n_ids - sim->pt->n + i) % (size_t)r->peers.size == (size_t)r->peers.rank;
    r->cut_n = sim->pt->n;
    return GRAINS_OK;
}

/* The blocks cut by their weights (block_contacts filled): every block's
 * rank, ours marked. */
static grains_status cut_now(const rank_sim *sim, grains_error *err)
{
    cut_blocks(sim);
    return sim_ranks_mark_owned(sim, err);
}

/* After the lists: the cut's figures, the blocks to visit and the halo. */
static void finish_cut(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    count_cut(sim);
    if (sim->nb->n_particles)
        mark_visits(sim);
    r->halo_steps = halo_suffices(sim);
    if (r->halo_steps) {
        mark_halo(sim);
        list_own_bonds(sim);
    }
    r->valid = 1;
}

/* Each block's contacts summed over the ranks (integers: in any order),
 * when each named its own. */
static void sum_block_contacts(const rank_sim *sim)
{
    uint32_t *count = sim->ranks->block_contacts;
    size_t n_blocks = sim->grid->n_blocks;
    uint64_t *sum = malloc((n_blocks ? n_blocks : 1) * sizeof *sum);
    if (!sum)
        exchange_failed(sim);
    for (size_t b = 0; b < n_blocks; b++)
        sum[b] = count[b];
    double t0 = seconds_now();
    sim->ranks->peers.sum(sim->ranks->peers.ctx, sum, n_blocks);
    sim->ranks->stats.seconds += seconds_now() - t0;
    for (size_t b = 0; b < n_blocks; b++)
        count[b] = (uint32_t)sum[b];
    free(sum);
}

grains_status sim_ranks_plan(const rank_sim *sim, const store_key *keys, size_t n_keys, int ours, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    grains_status s = sim_ranks_reserve(sim, err);
    if (s != GRAINS_OK)
        return s;
    sim_ranks_count_contacts(sim, keys, n_keys);
    if (ours)
        sum_block_contacts(sim);
    if ((s = cut_now(sim, err)) != GRAINS_OK)
        return s;
    if (r->moving)
        send_bonds(sim); /* before their index and the halo read them */
    sim_ranks_plan_lists(sim);
    return GRAINS_OK;
}

void sim_ranks_plan_lists(const rank_sim *sim)
{
    /* Lists for some particles only when nothing but the force loop reads
     * the others' (the membranes' patch logs are sized by every list). */
    sim_ranks *r = sim->ranks;
    r->listing_some = halo_suffices(sim) && !sim->mb->n;
    if (r->listing_some)
        sim_ranks_mark_reach(sim);
}

grains_status sim_ranks_before_forces(const rank_sim *sim, grains_error *err)
{
    grains_status s = refuse_unshared(sim, err);
    return s == GRAINS_OK ? sim_ranks_cut(sim, err) : s;
}

static grains_status share_histories(const rank_sim *sim, store_key **keys, size_t *n, grains_error *err);

grains_status sim_ranks_plan_rebuild(const rank_sim *sim, store_key **keys, size_t *n, int by_ranks, grains_error *err)
{
    grains_status s = sim_ranks_plan(sim, *keys, *n, by_ranks, err);
    if (s == GRAINS_OK && by_ranks)
        s = share_histories(sim, keys, n, err);
    return s;
}

static void send_movers(const rank_sim *sim);
static size_t swap_halo(const rank_sim *sim);
static void complete_particles(const rank_sim *sim);

void sim_ranks_planned(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    finish_cut(sim);
    if (!r->moving)
        return;
    send_movers(sim); /* then each owner's copy of its particles is whole */
    if (r->halo_steps)
        swap_halo(sim); /* the new cut's halo, as a step sends it */
    else
        complete_particles(sim);
    r->moving = 0;
}

grains_status sim_ranks_cut(const rank_sim *sim, grains_error *err)
{
    sim_ranks *r = sim->ranks;
    if (r->valid)
        return GRAINS_OK;
    grains_status s = sim_ranks_reserve(sim, err);
    if (s != GRAINS_OK)
        return s;
    contacts_from_store(sim);
    if ((s = cut_now(sim, err)) != GRAINS_OK)
        return s;
    r->listing_some = 0; /* every list is whole (read, or built alone) */
    finish_cut(sim);
    return GRAINS_OK;
}

/* Every rank's bytes, in rank order (the counts in ranks.counts), in the
 * kept receive buffer (valid until the next exchange). */
static char *gather(const rank_sim *sim, const void *mine, size_t bytes)
{
    sim_ranks *rk = sim->ranks;
    const grains_ranks *pr = &rk->peers;
    rk->recv = pr->allgather(pr->ctx, mine, bytes, rk->counts, rk->recv, &rk->recv_cap);
    return rk->recv;
}

/* The blocks' sums of what each wall gave their particles, and their logs
 * of what they gave membrane vertices. */
/* Whether block b gave nothing to any wall or membrane vertex: its sums
 * all zero bits (they start at +0, which adding cannot turn into -0) and
 * its log empty. Such blocks, most of a large system's, are not sent. */
static int block_gave_nothing(const rank_sim *sim, uint32_t b)
{
    size_t per_block = WALL_SUMS * sim->wl->n;
    const unsigned char *sum = (const unsigned char *)(sim->wl->block_sum + per_block * b);
    for (size_t c = 0; c < per_block * sizeof *sim->wl->block_sum; c++)
        if (sum[c])
            return 0;
    return !sim->mb->n || sim->patches->log[b].n == 0;
}

patch_log *sim_ranks_patch_logs_whole(const rank_sim *sim)
{
    const sim_ranks *r = sim->ranks;
    patch_log *all = calloc(r->table.n + 1, sizeof *all);
    for (size_t k = 0; all && k < r->n_named_logs; k++)
        all[r->log_entry[k]] = r->named_logs[k];
    return all;
}

/* The blocks' sums of what each wall gave their particles, and their logs
 * of what they gave membrane vertices: of each block that gave anything,
 * its number, sums and log; then NO_BLOCK. */
#define NO_BLOCK UINT32_MAX
static void put_block_sums(pack *k, const rank_sim *sim, rank_run run)
{
    size_t per_block = WALL_SUMS * sim->wl->n;
    for (uint32_t b = run.b0; b < run.b1; b++) {
        if (block_gave_nothing(sim, b))
            continue;
        put(k, &b, sizeof b);
        put(k, sim->wl->block_sum + per_block * b, per_block * sizeof *sim->wl->block_sum);
        if (sim->mb->n) {
            const patch_log *lg = &sim->patches->log[b];
            put(k, &lg->n, sizeof lg->n);
            put(k, lg->rec, lg->n * sizeof *lg->rec);
        }
    }
    uint32_t end = NO_BLOCK;
    put(k, &end, sizeof end);
}

static void take_block_sums(unpack *u, const rank_sim *sim, rank_run run)
{
    size_t per_block = WALL_SUMS * sim->wl->n;
    if (per_block)
        memset(sim->wl->block_sum + per_block * run.b0, 0, per_block * (run.b1 - run.b0) * sizeof *sim->wl->block_sum);
    for (uint32_t b = run.b0; sim->mb->n && b < run.b1; b++)
        sim->patches->log[b].n = 0;
    for (uint32_t b;;) {
        take(u, &b, sizeof b);
        if (b == NO_BLOCK)
            return;
        take(u, sim->wl->block_sum + per_block * b, per_block * sizeof *sim->wl->block_sum);
        if (sim->mb->n) {
            patch_log *lg = &sim->patches->log[b];
            take(u, &lg->n, sizeof lg->n);
            take(u, lg->rec, lg->n * sizeof *lg->rec);
        }
    }
}

/* Ranks holding their own particles alone (holds_share) have grids of
 * their own: a block's sums and log travel named by its entry in the
 * whole's table, a rank's blocks that gave anything in one list, then
 * NO_BLOCK. */
static void put_named_sums(pack *k, const rank_sim *sim)
{
    size_t per_block = WALL_SUMS * sim->wl->n;
    FOR_RUNS(sim, sim->ranks->peers.rank, run)
        for (uint32_t b = run.b0; b < run.b1; b++) {
            if (block_gave_nothing(sim, b))
                continue;
            uint32_t entry = (uint32_t)block_table_find(&sim->ranks->table, grid_block_key(sim->grid, b));
            put(k, &entry, sizeof entry);
            put(k, sim->wl->block_sum + per_block * b, per_block * sizeof *sim->wl->block_sum);
            if (sim->mb->n) {
                const patch_log *lg = &sim->patches->log[b];
                put(k, &lg->n, sizeof lg->n);
                put(k, lg->rec, lg->n * sizeof *lg->rec);
            }
        }
    uint32_t end = NO_BLOCK;
    put(k, &end, sizeof end);
}

/* A block's named sums and log as they arrived. */
typedef struct {
    const char *sums;
    const char *log;  /* its records (membranes) */
    uint32_t n_log;
} named_block;

/* The named block at p (put_named_sums) into *nb; where the next begins. */
static const char *take_named(const rank_sim *sim, const char *p, named_block *nb)
{
    p += sizeof(uint32_t); /* its entry */
    nb->sums = p;
    p += WALL_SUMS * sim->wl->n * sizeof(vec3);
    nb->n_log = 0;
    if (sim->mb->n) {
        memcpy(&nb->n_log, p, sizeof nb->n_log);
        p += sizeof nb->n_log;
    }
    nb->log = p;
    return p + nb->n_log * sizeof(patch_record);
}

/* Every rank's named blocks (its list `skip` bytes into its part of
 * `all`, in rank order), as (entry << 32 | arrival) in *order and in
 * *blocks by arrival; how many. */
static size_t index_named(const rank_sim *sim, const char *all, size_t skip, uint64_t **order, named_block **blocks)
{
    sim_ranks *rk = sim->ranks;
    const uint32_t end = NO_BLOCK;
    named_block nb;
    size_t n = 0;
    const char *part = all;
    for (int r = 0; r < rk->peers.size; part += rk->counts[r], r++)
        for (const char *p = part + skip; memcmp(p, &end, sizeof end); p = take_named(sim, p, &nb))
            n++;
    *order = malloc((n + 1) * sizeof **order);
    *blocks = malloc((n + 1) * sizeof **blocks);
    if (!*order || !*blocks)
        exchange_failed(sim);
    n = 0;
    part = all;
    for (int r = 0; r < rk->peers.size; part += rk->counts[r], r++)
        for (const char *p = part + skip; memcmp(p, &end, sizeof end); n++) {
            uint32_t entry;
            memcpy(&entry, p, sizeof entry);
            (*order)[n] = (uint64_t)entry << 32 | n;
            p = take_named(sim, p, &(*blocks)[n]);
        }
    qsort(*order, n, sizeof **order, order_u64);
    return n;
}

/* The named blocks' logs, in the whole's order, as every rank's
 * (ranks.named_logs), for the membranes' vertices and the checkpoint. */
static void keep_named_logs(const rank_sim *sim, const uint64_t *order, const named_block *blocks, size_t n)
{
    sim_ranks *rk = sim->ranks;
    size_t records = 0;
    for (size_t i = 0; i < n; i++)
        records += blocks[i].n_log;
    if (!array_reserve((void **)&rk->named_logs, &rk->named_logs_cap, n + 1, sizeof *rk->named_logs, 2) ||
        !array_reserve((void **)&rk->log_entry, &rk->log_entry_cap, n + 1, sizeof *rk->log_entry, 2) ||
        !array_reserve((void **)&rk->named_records, &rk->named_records_cap, records + 1, sizeof(patch_record), 2))
        exchange_failed(sim);
    records = 0;
    for (size_t i = 0; i < n; i++) {
        const named_block *nb = &blocks[(uint32_t)order[i]];
        rk->log_entry[i] = (uint32_t)(order[i] >> 32);
        rk->named_logs[i] = (patch_log){rk->named_records + records, nb->n_log};
        memcpy(rk->named_records + records, nb->log, nb->n_log * sizeof(patch_record));
        records += nb->n_log;
    }
    rk->n_named_logs = n;
}

/* Every rank's named sums into the walls' force, summed in the whole's
 * order, the single process's (the blocks that gave nothing add +0, which
 * changes no sum), and their logs kept in that order. Collective data, so
 * every rank that calls this gets the same. */
static void gather_named_sums(const rank_sim *sim, const char *all, size_t skip)
{
    uint64_t *order;
    named_block *blocks;
    size_t n = index_named(sim, all, skip, &order, &blocks), per_block = WALL_SUMS * sim->wl->n;
    vec3 *sums = malloc((n * per_block + 1) * sizeof *sums);
    if (!sums)
        exchange_failed(sim);
    for (size_t i = 0; i < n; i++)
        memcpy(sums + per_block * i, blocks[(uint32_t)order[i]].sums, per_block * sizeof *sums);
    walls_gather_from(sim->wl, sums, n);
    if (sim->mb->n)
        keep_named_logs(sim, order, blocks, n);
    free(order);
    free(blocks);
    free(sums);
}

/* The bytes the other ranks sent this one in the last exchange, counted. */
static void count_received(sim_ranks *rk)
{
    for (int r = 0; r < rk->peers.size; r++)
        rk->stats.received += r == rk->peers.rank ? 0 : (double)rk->counts[r];
}

/* The place in the whole's order of own particle i (held index). */
static uint64_t place_of(const rank_sim *sim, uint32_t i)
{
    const grains_grid *g = sim->grid;
    uint32_t lo = 0, hi = (uint32_t)g->n_blocks; /* i's block: the last whose first particle is at most i */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        *(g->first[g->block_start[mid]] <= i ? &lo : &hi) = mid;
    }
    size_t t = block_table_find(&sim->ranks->table, grid_block_key(g, lo));
    return sim->ranks->table_first[t] + (i - g->first[g->block_start[lo]]);
}

/* Ranks holding their own alone: the particles the diagnostics name, by
 * their places in the whole's order (as one process names them). */
static force_diag local_diag(const rank_sim *sim, force_diag d)
{
    const grains_particles *pt = sim->pt;
    if (d.max_overlap_i >= 0) {
        d.overlap_id = pt->id[d.max_overlap_i];
        d.max_overlap_i = (long)place_of(sim, (uint32_t)d.max_overlap_i);
    }
    if (d.non_finite != LONG_MAX) {
        d.non_finite_id = pt->id[d.non_finite];
        d.non_finite = (long)place_of(sim, (uint32_t)d.non_finite);
    }
    return d;
}

/* Rank r's diagnostics merged into ctx's total, its blocks' sums taken. */
static void take_diag(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    force_diag d;
    take(u, &d, sizeof d);
    force_diag_merge(ctx, &d);
    if (rank_sums_each_step(sim) && !sim->ranks->holds_share) /* (else gather_named_sums) */
        FOR_RUNS(sim, r, run)
            take_block_sums(u, sim, run);
}

force_diag sim_ranks_diag(const rank_sim *sim, force_diag own)
{
    sim_ranks *rk = sim->ranks;
    if (rk->holds_share)
        own = local_diag(sim, own);
    pack k = pack_start(sim);
    put(&k, &own, sizeof own);
    int named = rk->holds_share && (sim->wl->n || sim->mb->n);
    if (rank_sums_each_step(sim) && named)
        put_named_sums(&k, sim);
    else if (rank_sums_each_step(sim))
        FOR_RUNS(sim, rk->peers.rank, run)
            put_block_sums(&k, sim, run);
    else
        rk->sums_behind = sim->wl->n > 0; /* rank 0 gathers them when it writes */
    rk->stats.bytes += (double)k.n;
    char *all = exchange(sim, &k);
    pack_keep(sim, &k);
    count_received(rk);
    force_diag total = force_diag_empty();
    if (rank_sums_each_step(sim) && named)
        gather_named_sums(sim, all, sizeof own);
    for (int r = 0; r < rk->peers.size; all += rk->counts[r], r++) { /* in rank order */
        unpack u = {all};
        if (r == rk->peers.rank)
            force_diag_merge(&total, &own);
        else
            take_diag(&u, sim, r, &total);
    }
    rk->diag = total; /* (rank_verdict: the step's team reads it after the barrier) */
    return total;
}

/* The fields an update changes (and the tag rules), of particles [p0, p1). */
#define PARTICLE_FIELDS(X) X(x) X(v) X(w) X(q) X(f) X(t) X(tag)

static void put_particles(pack *k, const grains_particles *pt, rank_run run)
{
    size_t n = run.p1 - run.p0;
#define PUT(field) put(k, pt->field + run.p0, n * sizeof *pt->field);
    PARTICLE_FIELDS(PUT)
#undef PUT
}

static void take_particles(unpack *u, grains_particles *pt, rank_run run)
{
    size_t n = run.p1 - run.p0;
#define TAKE(field) take(u, pt->field + run.p0, n * sizeof *pt->field);
    PARTICLE_FIELDS(TAKE)
#undef TAKE
}

/* Every rank's pack, each unpacked by `fn` into this copy (ours is already here). */
static void unpack_all(const rank_sim *sim, const char *all, void (*fn)(unpack *, const rank_sim *, int, void *),
                       void *ctx)
{
    const char *at = all;
    for (int r = 0; r < sim->ranks->peers.size; r++) {
        unpack u = {at};
        if (r != sim->ranks->peers.rank)
            fn(&u, sim, r, ctx);
        at += sim->ranks->counts[r];
    }
}

/* The fields the force loop reads of a partner (not its orientation: only
 * its owner's update reads that, and a new owner gets it with the rest);
 * and, for a row with a begin (Verlet), the force sums it reads there:
 * each rank then moves the halo's copies as their owners move them. */
#define HALO_FIELDS(X) X(x) X(v) X(w)
#define HALO_SUMS(X) X(f) X(t)

static int halo_sums(const rank_sim *sim) { return sim->integrator->begin != LOOP_NONE; }

/* Our particles that rank d reads. */
static void put_halo(pack *k, const rank_sim *sim, size_t d)
{
    const sim_ranks *rk = sim->ranks;
    const grains_particles *pt = sim->pt;
    const int sums = halo_sums(sim);
    for (size_t h = rk->halo_to_start[d]; h < rk->halo_to_start[d + 1]; h++) {
#define PUT(field) put(k, &pt->field[rk->halo_to[h]], sizeof *pt->field);
        HALO_FIELDS(PUT)
        if (sums) {
            HALO_SUMS(PUT)
        }
#undef PUT
    }
}

/* Rank r's particles that we read. */
static void take_halo(unpack *u, const rank_sim *sim, int r)
{
    const sim_ranks *rk = sim->ranks;
    grains_particles *pt = sim->pt;
    const int sums = halo_sums(sim);
    for (size_t h = rk->halo_from_start[r]; h < rk->halo_from_start[r + 1]; h++) {
#define TAKE(field) take(u, &pt->field[rk->halo_from[h]], sizeof *pt->field);
        HALO_FIELDS(TAKE)
        if (sums) {
            HALO_SUMS(TAKE)
        }
#undef TAKE
    }
}

/* Rank r's step, when steps send every particle: its largest squared
 * speed and its particles. */
static void take_step(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    real v2[2], *max_v2 = ctx;
    take(u, v2, sizeof v2);
    for (int k = 0; k < 2; k++)
        max_v2[k] = v2[k] > max_v2[k] ? v2[k] : max_v2[k];
    FOR_RUNS(sim, r, run)
        take_particles(u, sim->pt, run);
}

void sim_ranks_stop(const rank_sim *sim, const char *why)
{
    const grains_ranks *pr = &sim->ranks->peers;
    if (pr->fail)
        pr->fail(pr->ctx, why);
    fprintf(stderr, "grains: %s\n", why);
    abort();
}

/* A rank that cannot make its part of an exchange (memory) stops the
 * run: the others would wait for it forever. */
static void exchange_failed(const rank_sim *sim)
{
    sim_ranks_stop(sim, "out of memory exchanging with the other ranks: stopping them all");
}

/* An empty pack in the buffer of the last exchange. */
static pack pack_start(const rank_sim *sim) { return (pack){sim->ranks->send, 0, sim->ranks->send_cap, 0}; }

/* The pack's buffer kept for the next exchange. */
static void pack_keep(const rank_sim *sim, const pack *k)
{
    sim->ranks->send = k->p;
    sim->ranks->send_cap = k->cap;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every rank's pack, in rank order. */
static char *exchange(const rank_sim *sim, const pack *k)
{
    if (k->failed)
        exchange_failed(sim);
    double t0 = seconds_now();
    char *all = gather(sim, k->p, k->n);
    if (!all)
        exchange_failed(sim);
    sim->ranks->stats.seconds += seconds_now() - t0;
    return all;
}

/* Our pack's part for each rank (ranks.send_counts, in rank order) to
 * it; what each rank sent us, in rank order (ranks.counts). */
static char *exchange_each(const rank_sim *sim, const pack *k)
{
    if (k->failed)
        exchange_failed(sim);
    double t0 = seconds_now();
    const grains_ranks *pr = &sim->ranks->peers;
    sim->ranks->recv = pr->alltoall(pr->ctx, k->p, sim->ranks->send_counts, sim->ranks->counts, sim->ranks->recv,
                                   &sim->ranks->recv_cap);
    char *all = sim->ranks->recv;
    if (!all)
        exchange_failed(sim);
    sim->ranks->stats.seconds += seconds_now() - t0;
    return all;
}

/* The bytes of each halo particle (HALO_FIELDS). */
static size_t halo_bytes(const rank_sim *sim)
{
    const grains_particles *pt = sim->pt;
    return sizeof *pt->x + sizeof *pt->v + sizeof *pt->w + (halo_sums(sim) ? sizeof *pt->f + sizeof *pt->t : 0);
}

/* Our pack's part for each reader (ranks.send_counts) to it, and each
 * other rank's halo for us, of the sizes the cut's lists give
 * (ranks.halo_from), in rank order (ranks.counts): messages between
 * neighbours alone. */
static char *exchange_neighbours(const rank_sim *sim, const pack *k)
{
    if (k->failed)
        exchange_failed(sim);
    sim_ranks *rk = sim->ranks;
    const grains_ranks *pr = &rk->peers;
    for (int r = 0; r < pr->size; r++)
        rk->counts[r] = (rk->halo_from_start[r + 1] - rk->halo_from_start[r]) * halo_bytes(sim);
    double t0 = seconds_now();
    rk->recv = pr->neighbours(pr->ctx, k->p, rk->send_counts, rk->counts, rk->recv, &rk->recv_cap);
    if (!rk->recv)
        exchange_failed(sim);
    rk->stats.seconds += seconds_now() - t0;
    return rk->recv;
}

grains_ranks_stats sim_ranks_stats(const rank_sim *sim) { return sim->ranks->stats; }

/* The step's figures: its bytes, own particles and the ones it sent. */
static void count_step(sim_ranks *rk, size_t bytes)
{
    double own = 0;
    for (size_t r = 0; r < rk->n_runs; r++)
        own += rk->runs[r].hi - rk->runs[r].lo;
    rk->stats.steps++;
    rk->stats.halo_steps += rk->halo_steps;
    rk->stats.bytes += (double)bytes;
    rk->stats.particles += own;
    rk->stats.halo += rk->halo_steps ? (double)rk->halo_own : own;
    for (int d = 0; rk->halo_steps && d < rk->peers.size; d++)
        rk->stats.messages += rk->send_counts[d] > 0;
}

/* The bit pattern of a squared speed (>= 0), whose order as an unsigned
 * integer is the number's (IEEE 754): its maximum over the ranks as an
 * integer maximum, exact whatever the order. */
static uint64_t speed2_bits(real v2)
{
    uint64_t u = 0;
    if (sizeof v2 == sizeof(uint64_t)) {
        memcpy(&u, &v2, sizeof v2);
    } else {
        uint32_t w;
        memcpy(&w, &v2, sizeof w);
        u = w;
    }
    return u;
}

static real speed2_of(uint64_t u)
{
    real v2;
    if (sizeof v2 == sizeof(uint64_t)) {
        memcpy(&v2, &u, sizeof v2);
    } else {
        uint32_t w = (uint32_t)u;
        memcpy(&v2, &w, sizeof w);
    }
    return v2;
}

/* Each reader its halo, and ours from each other rank, point to point:
 * each rank knows from the cut the particles it reads of each other
 * (ranks.halo_from), so only neighbouring regions exchange messages.
 * Returns the bytes this rank sent. */
static size_t swap_halo(const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    const grains_ranks *pr = &rk->peers;
    pack k = pack_start(sim);
    for (size_t d = 0; d < (size_t)pr->size; d++) {
        size_t n0 = k.n;
        if ((int)d != pr->rank)
            put_halo(&k, sim, d);
        rk->send_counts[d] = k.n - n0;
    }
    const char *all = exchange_neighbours(sim, &k);
    pack_keep(sim, &k);
    for (int r = 0; r < pr->size; all += rk->counts[r], r++) {
        unpack u = {all};
        if (r != pr->rank)
            take_halo(&u, sim, r);
    }
    return k.n;
}

/* The largest of the ranks' squared speeds, v2[0] the grains' but the
 * strays', v2[1] the strays' (sim/strays.h): a reduction of bit patterns,
 * exact in any order. */
static void largest_speeds2(const rank_sim *sim, real v2[2])
{
    sim_ranks *rk = sim->ranks;
    const grains_ranks *pr = &rk->peers;
    double t0 = seconds_now();
    uint64_t bits[2] = {speed2_bits(v2[0]), speed2_bits(v2[1])};
    pr->max(pr->ctx, bits, 2);
    rk->stats.seconds += seconds_now() - t0;
    v2[0] = speed2_of(bits[0]);
    v2[1] = speed2_of(bits[1]);
}

/* The step's halo (swap_halo); the largest speeds, which every rank needs,
 * in a reduction. */
static void exchange_halo(const rank_sim *sim, real v2[2])
{
    sim_ranks *rk = sim->ranks;
    count_step(rk, swap_halo(sim));
    count_received(rk);
    largest_speeds2(sim, v2);
}

/* This rank's largest squared speeds (the threads', the strays'). */
static void own_speeds2(const rank_sim *sim, real v2[2])
{
    v2[0] = 0;
    for (int t = 0; t < sim->nthreads; t++)
        v2[0] = sim->v2_thread[t] > v2[0] ? sim->v2_thread[t] : v2[0];
    v2[1] = *sim->v2_far;
}

/* The whole's speeds where the step keeps them. */
static void keep_speeds2(const rank_sim *sim, const real v2[2])
{
    for (int t = 0; t < sim->nthreads; t++)
        sim->v2_thread[t] = t ? 0 : v2[0];
    *sim->v2_far = v2[1];
}

void sim_ranks_begun(const rank_sim *sim)
{
    real v2[2];
    own_speeds2(sim, v2);
    largest_speeds2(sim, v2);
    keep_speeds2(sim, v2);
}

/* Every rank's largest speeds and particles, to every rank. */
static void exchange_all(const rank_sim *sim, real v2[2])
{
    sim_ranks *rk = sim->ranks;
    pack k = pack_start(sim);
    put(&k, v2, 2 * sizeof *v2);
    FOR_RUNS(sim, rk->peers.rank, run)
        put_particles(&k, sim->pt, run);
    count_step(rk, k.n);
    char *all = exchange(sim, &k);
    pack_keep(sim, &k);
    count_received(rk);
    unpack_all(sim, all, take_step, v2);
}

void sim_ranks_exchange_step(const rank_sim *sim)
{
    real v2[2];
    own_speeds2(sim, v2);
    sim_ranks *rk = sim->ranks;
    if (rk->halo_steps)
        exchange_halo(sim, v2);
    else
        exchange_all(sim, v2);
    rk->stale |= rk->halo_steps;
    sim_ranks_frame_old(rk);
    keep_speeds2(sim, v2);
}

const void *sim_ranks_gather(const rank_sim *sim, const void *own, size_t bytes, size_t *bytes_all)
{
    sim_ranks *r = sim->ranks;
    const grains_ranks *pr = &r->peers;
    r->recv = pr->allgather(pr->ctx, own, bytes, r->counts, r->recv, &r->recv_cap);
    *bytes_all = 0;
    for (int q = 0; q < pr->size; q++)
        *bytes_all += r->counts[q];
    return r->recv;
}

static void take_all_particles(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    (void)ctx;
    FOR_RUNS(sim, r, run)
        take_particles(u, sim->pt, run);
}

/* Every rank's particles to every rank, after steps that sent the halo
 * alone, once each owner's copy of its own is whole (sim_ranks_planned). */
static void complete_particles(const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    if (!rk->stale)
        return;
    pack k = pack_start(sim);
    FOR_RUNS(sim, rk->peers.rank, run)
        put_particles(&k, sim->pt, run);
    char *all = exchange(sim, &k);
    unpack_all(sim, all, take_all_particles, NULL);
    pack_keep(sim, &k);
    rk->stale = 0;
}

/* A rank's lists and histories, made whole on every rank before a
 * rebuild or a checkpoint. A rank holds the lists of its own particles
 * and of those that may pair with them, so the lists travel with their
 * lengths: [the lengths of its own particles' lists, run by run][their
 * entries (their marks of histories)][per own block: its histories]. */
static void put_contacts(pack *k, const rank_sim *sim)
{
    const grains_neighbors *nb = sim->nb;
    const contact_store *cs = sim->cs;
    int me = sim->ranks->peers.rank;
    FOR_RUNS(sim, me, run)
        for (uint32_t i = run.p0; i < run.p1; i++) {
            uint32_t n = nb->start[i + 1] - nb->start[i];
            put(k, &n, sizeof n);
        }
    FOR_RUNS(sim, me, run)
        put(k, nb->j + nb->start[run.p0], (nb->start[run.p1] - nb->start[run.p0]) * sizeof *nb->j);
    size_t width = (size_t)cs->layout.width * sizeof(real);
    FOR_RUNS(sim, me, run)
        for (uint32_t b = run.b0; b < run.b1; b++) {
            const store_block *blk = &cs->block[b];
            size_t in_window = blk->n < blk->cap ? blk->n : blk->cap;
            put(k, &blk->n, sizeof blk->n);
            put(k, store_history(cs, b, 0), in_window * width);
            if (blk->n > in_window)
                put(k, blk->ovf, (blk->n - in_window) * width);
        }
}

/* Where each rank's entries and histories start in its pack, and every
 * particle's list length into `start` (its new offsets after a sum). */
typedef struct {
    const char *entries, *histories;
} contacts_pack;

static void take_lengths(const rank_sim *sim, const char *all, uint32_t *start, contacts_pack *at)
{
    const grains_neighbors *nb = sim->nb;
    const char *p = all;
    for (int r = 0; r < sim->ranks->peers.size; r++) {
        unpack u = {p};
        size_t entries = 0;
        FOR_RUNS(sim, r, run)
            for (uint32_t i = run.p0; i < run.p1; i++) {
                uint32_t n;
                take(&u, &n, sizeof n);
                if (r == sim->ranks->peers.rank)
                    n = nb->start[i + 1] - nb->start[i];
                start[i + 1] = n;
                entries += n;
            }
        at[r].entries = u.p;
        at[r].histories = u.p + entries * sizeof *nb->j;
        p += sim->ranks->counts[r];
    }
}

/* The lists laid out anew from every rank's entries (ours from our own). */
static int take_lists(const rank_sim *sim, const char *all, contacts_pack *at)
{
    grains_neighbors *nb = sim->nb;
    size_t n = nb->n_particles;
    uint32_t *start = malloc((n + 1) * sizeof *start);
    if (!start)
        return 0;
    start[0] = 0;
    take_lengths(sim, all, start, at);
    for (size_t i = 0; i < n; i++)
        start[i + 1] += start[i];
    uint32_t *j = malloc((start[n] ? start[n] : 1) * sizeof *j);
    if (!j) {
        free(start);
        return 0;
    }
    for (int r = 0; r < sim->ranks->peers.size; r++) {
        const char *p = at[r].entries;
        FOR_RUNS(sim, r, run) {
            size_t bytes = (start[run.p1] - start[run.p0]) * sizeof *j;
            const void *from = r == sim->ranks->peers.rank ? (const void *)(nb->j + nb->start[run.p0]) : p;
            memcpy(j + start[run.p0], from, bytes);
            p += r == sim->ranks->peers.rank ? 0 : bytes;
        }
    }
    free(nb->j);
    nb->j = j;
    nb->n = nb->cap = start[n];
    memcpy(nb->start, start, (n + 1) * sizeof *start);
    free(start);
    return 1;
}

static grains_status take_histories(const rank_sim *sim, const contacts_pack *at)
{
    size_t width = (size_t)sim->cs->layout.width;
    grains_status s = GRAINS_OK;
    for (int r = 0; r < sim->ranks->peers.size; r++) {
        if (r == sim->ranks->peers.rank)
            continue;
        unpack u = {at[r].histories};
        FOR_RUNS(sim, r, run)
            for (uint32_t b = run.b0; b < run.b1; b++) {
                size_t n;
                take(&u, &n, sizeof n);
                if (s == GRAINS_OK)
                    s = store_block_set(sim->cs, b, (const real *)u.p, n, NULL);
                u.p += n * width * sizeof(real);
            }
    }
    return s;
}

/* Our pack to rank 0 alone, the writer (rank 0's to itself); on rank 0,
 * every rank's, in rank order (ranks.counts). */
static char *exchange_to_writer(const rank_sim *sim, const pack *k)
{
    size_t *to = sim->ranks->send_counts;
    memset(to, 0, (size_t)sim->ranks->peers.size * sizeof *to);
    to[0] = k->n;
    return exchange_each(sim, k);
}

/* One of PARTICLE_FIELDS as bytes: its array and the size of an element. */
typedef struct {
    char *base;
    size_t size;
} field_bytes;

static int particle_fields(grains_particles *pt, field_bytes *f)
{
    int n = 0;
#define FIELD(field) f[n++] = (field_bytes){(char *)pt->field, sizeof *pt->field};
    PARTICLE_FIELDS(FIELD)
#undef FIELD
    return n;
}

static void take_field(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    const field_bytes *f = ctx;
    FOR_RUNS(sim, r, run)
        take(u, f->base + run.p0 * f->size, (run.p1 - run.p0) * f->size);
}

/* Every rank's particles into rank 0's copy, after steps that sent the
 * halo alone; the other copies stay as they are (old beyond the halo). A
 * field at a time: the buffers hold 32 bytes of each particle at most, not
 * all 156 (at 10^6 on 2 ranks, 16 MB where they held 76). */
void sim_ranks_particles_to_writer(const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    if (!rk->stale || rk->writer_whole)
        return;
    field_bytes f[8];
    for (int c = 0, n = particle_fields(sim->pt, f); c < n; c++) {
        pack k = pack_start(sim);
        FOR_RUNS(sim, rk->peers.rank, run)
            if (rk->peers.rank != 0)
                put(&k, f[c].base + run.p0 * f[c].size, (run.p1 - run.p0) * f[c].size);
        char *all = exchange_to_writer(sim, &k);
        pack_keep(sim, &k);
        if (rk->peers.rank == 0)
            unpack_all(sim, all, take_field, &f[c]);
    }
    bonds_to_writer(sim);
    rk->writer_whole = 1;
}

static void take_writer_sums(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    (void)ctx;
    FOR_RUNS(sim, r, run)
        take_block_sums(u, sim, run);
}

/* The last step's wall sums, when they stayed with their blocks' ranks,
 * into rank 0's copy, and its walls' force from them. */
static void sums_to_writer(const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    if (!rk->sums_behind)
        return;
    pack k = pack_start(sim);
    if (rk->holds_share)
        put_named_sums(&k, sim); /* rank 0's too: its grid is not the whole's */
    else
        FOR_RUNS(sim, rk->peers.rank, run)
            if (rk->peers.rank != 0)
                put_block_sums(&k, sim, run);
    char *all = exchange_to_writer(sim, &k);
    pack_keep(sim, &k);
    if (rk->peers.rank == 0 && rk->holds_share)
        gather_named_sums(sim, all, 0);
    else if (rk->peers.rank == 0) {
        unpack_all(sim, all, take_writer_sums, NULL);
        walls_gather(sim->wl, sim->grid->n_blocks);
    }
    rk->sums_behind = 0;
}

grains_status sim_ranks_exchange_contacts(const rank_sim *sim, grains_error *err)
{
    if (!rank_shared(sim) || !sim->ranks->valid)
        return GRAINS_OK; /* every copy is the same */
    sim_ranks_particles_to_writer(sim);
    sums_to_writer(sim);
    if (!sim->nb->n_particles)
        return GRAINS_OK;
    pack k = pack_start(sim);
    put_contacts(&k, sim);
    char *all = exchange_to_writer(sim, &k);
    pack_keep(sim, &k);
    if (sim->ranks->peers.rank != 0)
        return GRAINS_OK; /* our copy stays as it was: its lists and histories are its own */
    contacts_pack *at = malloc((size_t)sim->ranks->peers.size * sizeof *at);
    grains_status s = at && take_lists(sim, all, at) ? take_histories(sim, at) : GRAINS_ERR_NOMEM;
    free(at);
    if (s != GRAINS_OK)
        return grains_error_set(err, s, NULL, 0, "out of memory for the contacts of other ranks");
    return GRAINS_OK;
}

/* A rebuild's histories, named where they are kept: each rank names its
 * own blocks' by keys read off its own particles' lists (the owner's
 * copy is the one that counts) and renames them after the sort (which
 * every rank does alike); the cut weighs the blocks by every rank's
 * counts, and then each history goes, with its key, to the ranks that
 * evaluate its pair. Neither the lists nor the keys go to every rank. */

/* Our blocks' histories in list order: their keys to `keys` and their
 * springs to `own` (both NULL: counted only); how many. */
static size_t own_names(const rank_sim *sim, store_key *keys, real *own)
{
    const grains_neighbors *nb = sim->nb;
    const contact_store *cs = sim->cs;
    size_t width = (size_t)cs->layout.width, n = 0;
    FOR_RUNS(sim, sim->ranks->peers.rank, run)
        for (uint32_t b = run.b0; b < run.b1; b++) {
            size_t h = 0; /* the block's histories follow its lists' marks */
            for (uint32_t i = block_first(sim->grid, b); i < block_first(sim->grid, b + 1); i++)
                for (uint32_t e = nb->start[i]; e < nb->start[i + 1]; e++) {
                    uint32_t j = nb->j[e];
                    if (!(j & STORE_HIST_BIT))
                        continue;
                    const real *history = store_history(cs, b, h++);
                    if (*sim->drop_mesh_histories && (j & STORE_MESH_BIT))
                        continue;
                    if (keys) {
                        keys[n] = (store_key){i, j & ~STORE_HIST_BIT};
                        memcpy(own + n * width, history, width * sizeof *history);
                    }
                    n++;
                }
        }
    return n;
}

int sim_ranks_names(const rank_sim *sim) { return rank_shared(sim) && sim->ranks->valid && !*sim->has_pending; }

grains_status sim_ranks_name_contacts(const rank_sim *sim, size_t *n, grains_error *err)
{
    sim_ranks *rk = sim->ranks;
    *n = own_names(sim, NULL, NULL);
    if (!array_reserve((void **)&rk->own, &rk->own_cap, *n + 1, (size_t)sim->cs->layout.width * sizeof *rk->own, 8))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories", *n);
    return GRAINS_OK;
}

void sim_ranks_take_names(const rank_sim *sim, store_key *keys) { own_names(sim, keys, sim->ranks->own); }

void sim_ranks_rename(const rank_sim *sim, store_key *keys, size_t n, const uint32_t *where)
{
    /* a pair seen from the other side turns its springs over */
    store_rename(keys, n, where, &sim->cs->layout, sim->ranks->own, sim->hp->rolling_traits.odd, sim->nthreads);
}

/* Whether rank d evaluates the pair of `key` (new order): it owns one of
 * its particles (the listing one's owner in its own block, the partner's
 * visiting it). */
static int evaluates(const rank_sim *sim, store_key key, int d)
{
    const int *rank_of = sim->ranks->rank_of;
    return rank_of[key.i] == d || (!(key.j & STORE_MESH_BIT) && rank_of[key.j] == d);
}

/* The other ranks that evaluate the pair of `key`: to[0 .. return). */
static int evaluators(const rank_sim *sim, store_key key, int to[2])
{
    const int *rank_of = sim->ranks->rank_of;
    int me = sim->ranks->peers.rank, n = 0, a = rank_of[key.i];
    int b = key.j & STORE_MESH_BIT ? a : rank_of[key.j];
    if (a != me)
        to[n++] = a;
    if (b != me && b != a)
        to[n++] = b;
    return n;
}

/* A pair's key with its particles named by ids (a message's), and back to
 * storage indices; an element stays as it is. */
static store_key key_ids(const grains_particles *pt, store_key key)
{
    return (store_key){pt->id[key.i], key.j & STORE_MESH_BIT ? key.j : pt->id[key.j]};
}

static store_key key_slots(const grains_particles *pt, store_key key)
{
    return (store_key){pt->slot[key.i], key.j & STORE_MESH_BIT ? key.j : pt->slot[key.j]};
}

/* Our histories, with their keys (by ids), to the other ranks that evaluate their
 * pairs: each rank's part in key order, laid out in two passes over the
 * keys (counted, then placed), whatever the number of ranks. */
static void send_histories(const rank_sim *sim, const store_key *keys, size_t n, pack *k)
{
    sim_ranks *rk = sim->ranks;
    size_t P = (size_t)rk->peers.size, width = (size_t)sim->cs->layout.width * sizeof *rk->own;
    size_t record = sizeof *keys + width, *at = malloc(P * sizeof *at);
    if (!at)
        exchange_failed(sim);
    memset(rk->send_counts, 0, P * sizeof *rk->send_counts);
    int to[2];
    for (size_t m = 0; m < n; m++)
        for (int e = evaluators(sim, keys[m], to); e-- > 0;)
            rk->send_counts[to[e]] += record;
    size_t total = 0;
    for (size_t d = 0; d < P; d++) {
        at[d] = total;
        total += rk->send_counts[d];
    }
    if (total && (k->failed || !array_reserve((void **)&k->p, &k->cap, total, 1, 1)))
        exchange_failed(sim);
    for (size_t m = 0; m < n; m++)
        for (int e = evaluators(sim, keys[m], to); e-- > 0;) {
            store_key by_id = key_ids(sim->pt, keys[m]);
            memcpy(k->p + at[to[e]], &by_id, sizeof by_id);
            memcpy(k->p + at[to[e]] + sizeof *keys, (const char *)rk->own + m * width, width);
            at[to[e]] += record;
        }
    k->n = total;
    free(at);
}

static grains_status share_histories(const rank_sim *sim, store_key **keys, size_t *n, grains_error *err)
{
    sim_ranks *rk = sim->ranks;
    int me = rk->peers.rank;
    size_t width = (size_t)sim->cs->layout.width, record = sizeof(store_key) + width * sizeof(real);
    pack k = pack_start(sim);
    send_histories(sim, *keys, *n, &k);
    const char *all = exchange_each(sim, &k);
    pack_keep(sim, &k);
    size_t live = 0, received = 0;
    for (size_t m = 0; m < *n; m++)
        live += evaluates(sim, (*keys)[m], me);
    for (int r = 0; r < rk->peers.size; r++)
        received += rk->counts[r] / record;
    grains_status s = store_load(sim->cs, live + received, err);
    if (s != GRAINS_OK)
        return s;
    if (!array_reserve((void **)&rk->keys, &rk->keys_cap, live + received + 1, sizeof *rk->keys, 8))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories",
                                live + received);
    live = 0; /* ours that we evaluate, then those received, in rank order */
    for (size_t m = 0; m < *n; m++)
        if (evaluates(sim, (*keys)[m], me)) {
            memcpy(store_entry(sim->cs, live), rk->own + m * width, width * sizeof(real));
            rk->keys[live++] = (*keys)[m];
        }
    for (size_t q = 0; q < received; q++, live++, all += record) {
        memcpy(&rk->keys[live], all, sizeof *rk->keys);
        rk->keys[live] = key_slots(sim->pt, rk->keys[live]);
        memcpy(store_entry(sim->cs, live), all + sizeof *rk->keys, width * sizeof(real));
    }
    *keys = rk->keys;
    *n = live;
    return GRAINS_OK;
}

/* A rebuild after halo steps moves the positions alone to every rank,
 * before the sort: the sort, the cut and the lists read nothing else. The
 * rest of a particle (PARTICLE_FIELDS but x, f and t, which the rebuild
 * zeroes) goes after the cut from its old owner to its new one, if they
 * differ; then each owner sends its readers their new halo. Particles
 * added since the last cut (spawned, or through the API) are whole on
 * every rank already: every rank added the same. */

static void take_positions(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    (void)ctx;
    FOR_RUNS(sim, r, run)
        take(u, sim->pt->x + run.p0, (run.p1 - run.p0) * sizeof *sim->pt->x);
}

/* Bonds after steps that sent the halo alone: each rank evaluated those
 * of its own particles alone (sim_bond_forces), so the copies of the
 * owners of a bond's particles are current. After a cut, each bond goes
 * to each new owner of one of its particles that owned neither before
 * (send_bonds); rank 0's copy is made whole before it writes
 * (bonds_to_writer). (Ranks holding their own particles alone hold the
 * bonds of their own alone: decomp/rank_bonds.c.) */

static void put_bond(pack *k, const sim_bond *bd)
{
    put(k, &bd->broken, sizeof bd->broken);
    put(k, &bd->h, sizeof bd->h);
    put(k, &bd->force, sizeof bd->force);
    put(k, &bd->torque, sizeof bd->torque);
}

static void take_bond(unpack *u, sim_bond *bd)
{
    take(u, &bd->broken, sizeof bd->broken);
    take(u, &bd->h, sizeof bd->h);
    take(u, &bd->force, sizeof bd->force);
    take(u, &bd->torque, sizeof bd->torque);
}

/* The rank whose copy of bond `bd` is current: the owner of its first
 * particle, or -1 for a bond no step evaluated since the cut (a particle
 * of it came since: every copy is the same). */
static int bond_keeper(const rank_sim *sim, const sim_bond *bd)
{
    uint32_t i = sim->pt->slot[bd->a], j = sim->pt->slot[bd->b];
    return i < sim->ranks->cut_n && j < sim->ranks->cut_n ? sim->ranks->rank_of[i] : -1;
}

static void take_kept_bonds(unpack *u, const rank_sim *sim, int r, void *ctx)
{
    (void)ctx;
    for (size_t b = 0; b < sim->bonds->n; b++)
        if (bond_keeper(sim, &sim->bonds->list[b]) == r)
            take_bond(u, &sim->bonds->list[b]);
}

static void bonds_to_writer(const rank_sim *sim)
{
    int me = sim->ranks->peers.rank;
    if (!sim->bonds->n)
        return;
    pack k = pack_start(sim);
    for (size_t b = 0; b < sim->bonds->n && me != 0; b++)
        if (bond_keeper(sim, &sim->bonds->list[b]) == me)
            put_bond(&k, &sim->bonds->list[b]);
    char *all = exchange_to_writer(sim, &k);
    pack_keep(sim, &k);
    if (me == 0)
        unpack_all(sim, all, take_kept_bonds, NULL);
}

/* At a cut after halo steps (was: the old owners, rank_of: the new), the
 * ranks bond b goes to, as (rank << 32 | b), from the old owner of its
 * first particle (*from); how many (at most 2). None for a bond with a
 * particle added since the last cut: no step evaluated it. */
static int bond_gains(const rank_sim *sim, size_t b, uint64_t to[2], int *from)
{
    const sim_ranks *rk = sim->ranks;
    const sim_bond *bd = &sim->bonds->list[b];
    uint32_t i = sim->pt->slot[bd->a], j = sim->pt->slot[bd->b];
    int was_i = rk->was[i], was_j = rk->was[j], now[2] = {rk->rank_of[i], rk->rank_of[j]}, n = 0;
    *from = was_i;
    if (was_i < 0 || was_j < 0)
        return 0;
    for (int m = 0; m < 2; m++)
        if (now[m] != was_i && now[m] != was_j && (m == 0 || now[1] != now[0]))
            to[n++] = (uint64_t)now[m] << 32 | b;
    return n;
}

/* Our bonds for their new evaluators, in (rank, bond) order. */
static void put_gained_bonds(const rank_sim *sim, pack *k)
{
    sim_ranks *rk = sim->ranks;
    uint64_t *sends = NULL, to[2];
    size_t n = 0, cap = 0;
    for (size_t b = 0; b < sim->bonds->n; b++) {
        int from, m = bond_gains(sim, b, to, &from);
        if (from != rk->peers.rank || !m)
            continue;
        if (!array_reserve((void **)&sends, &cap, n + 2, sizeof *sends, 2))
            exchange_failed(sim);
        for (int q = 0; q < m; q++)
            sends[n++] = to[q];
    }
    if (n)
        qsort(sends, n, sizeof *sends, order_u64);
    size_t at = 0;
    for (size_t d = 0; d < (size_t)rk->peers.size; d++) {
        size_t n0 = k->n;
        for (; at < n && sends[at] >> 32 == d; at++)
            put_bond(k, &sim->bonds->list[(uint32_t)sends[at]]);
        rk->send_counts[d] = k->n - n0;
    }
    free(sends);
}

/* Each bond a new owner of one of its particles now evaluates, from the
 * old owner of its first: every rank's part read in bond order. */
static void send_bonds(const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    if (!sim->bonds->n)
        return;
    pack k = pack_start(sim);
    put_gained_bonds(sim, &k);
    const char *all = exchange_each(sim, &k);
    pack_keep(sim, &k);
    unpack *from_rank = malloc((size_t)rk->peers.size * sizeof *from_rank);
    if (!from_rank)
        exchange_failed(sim);
    for (int r = 0; r < rk->peers.size; all += rk->counts[r], r++)
        from_rank[r] = (unpack){all};
    uint64_t to[2];
    for (size_t b = 0; b < sim->bonds->n; b++) {
        int from, m = bond_gains(sim, b, to, &from);
        for (int q = 0; q < m; q++)
            if ((int)(to[q] >> 32) == rk->peers.rank)
                take_bond(&from_rank[from], &sim->bonds->list[b]);
    }
    free(from_rank);
}

void sim_ranks_complete_positions(const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    rk->moving = 0;
    if (!rank_shared(sim) || !rk->valid || !rk->stale || rk->holds_share)
        return; /* (a rank holding its own alone sends them whole after the cut: decomp/rank_local.c) */
    if (!array_reserve((void **)&rk->was, &rk->was_cap, sim->pt->n + 1, sizeof *rk->was, 1))
        exchange_failed(sim); /* sim_ranks_follow: particles may have come since the cut */
    sim_ranks_frame_old(rk); /* a copy in the new order's terms from here */
    pack k = pack_start(sim);
    FOR_RUNS(sim, rk->peers.rank, run)
        put(&k, sim->pt->x + run.p0, (run.p1 - run.p0) * sizeof *sim->pt->x);
    char *all = exchange(sim, &k);
    unpack_all(sim, all, take_positions, NULL);
    pack_keep(sim, &k);
    rk->moving = 1;
}

void sim_ranks_follow(const rank_sim *sim, const uint32_t *where)
{
    sim_ranks *rk = sim->ranks;
    for (size_t i = 0; rk->moving && i < sim->pt->n; i++) /* those added since the cut: every rank's */
        rk->was[where[i]] = i < rk->cut_n ? rk->rank_of[i] : -1;
}

/* What a particle's new owner needs of it besides its position. */
#define MOVER_FIELDS(X) X(v) X(w) X(q) X(tag)

/* Our old particles that another rank now owns, to it, each named by its
 * id (one pass over the others' blocks). */
static void put_movers(pack *k, const rank_sim *sim)
{
    sim_ranks *rk = sim->ranks;
    const grains_particles *pt = sim->pt;
    int me = rk->peers.rank;
    for (int d = 0; d < rk->peers.size; d++) {
        size_t n0 = k->n;
        if (d != me)
            FOR_RUNS(sim, d, run)
                for (uint32_t i = run.p0; i < run.p1; i++)
                    if (rk->was[i] == me) {
                        put(k, &pt->id[i], sizeof *pt->id);
#define PUT(field) put(k, &pt->field[i], sizeof *pt->field);
                        MOVER_FIELDS(PUT)
#undef PUT
                    }
        rk->send_counts[d] = k->n - n0;
    }
}

/* Each rank's part for us, put where its ids are stored. */
static void take_movers(const rank_sim *sim, const char *all, size_t bytes)
{
    grains_particles *pt = sim->pt;
    unpack u = {all};
    for (const char *end = all + bytes; u.p < end;) {
        uint32_t id;
        take(&u, &id, sizeof id);
        uint32_t i = pt->slot[id];
#define TAKE(field) take(&u, &pt->field[i], sizeof *pt->field);
        MOVER_FIELDS(TAKE)
#undef TAKE
    }
}

static void send_movers(const rank_sim *sim)
{
    pack k = pack_start(sim);
    put_movers(&k, sim);
    const char *all = exchange_each(sim, &k);
    pack_keep(sim, &k);
    size_t bytes = 0;
    for (int r = 0; r < sim->ranks->peers.size; r++)
        bytes += sim->ranks->counts[r];
    take_movers(sim, all, bytes);
}


void sim_ranks_writer_sums(const rank_sim *sim) { sums_to_writer(sim); }
