/* One simulation shared among ranks (grains/ranks.h). Every rank holds the
 * whole state and rebuilds the lists as one process would. The cell
 * blocks, in the force loop's order, are cut into one run per rank,
 * balanced by their particles and listed pairs; a run of blocks is a run
 * of storage slots, of list entries and of history windows.
 *
 * A rank walks its own blocks whole, and of the other blocks only the
 * pairs with a partner of its own (block order, list order: each own
 * particle's force is summed in the single process's order, from the same
 * inputs, so it has the same bits). It updates its own particles; then the
 * ranks exchange their particles, their blocks' wall sums and patch logs
 * (one collective per step, after one for the diagnostics). A rank's copy
 * of another's block holds stale histories until the contacts are
 * exchanged, before each rebuild and on request (grains_sim_gather).
 *
 * Every rank thus does all the O(N) work between the force loops (lists,
 * rebuilds, output) and holds every particle: this shares the force loop,
 * not memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/contact_visit.h"
#include "util/array.h"

/* Bytes to send, growing. */
typedef struct {
    char *p;
    size_t n, cap;
    int failed;
} pack;

static void put(pack *k, const void *v, size_t bytes)
{
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
    memcpy(v, u->p, bytes);
    u->p += bytes;
}

grains_status grains_sim_share(grains_sim *sim, const grains_ranks *ranks, grains_error *err)
{
    if (!ranks || ranks->size < 1 || ranks->rank < 0 || ranks->rank >= ranks->size ||
        (ranks->size > 1 && !ranks->allgather))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "ranks: a rank in [0, size) and a collective");
    sim_ranks *r = &sim->ranks;
    size_t n = (size_t)ranks->size + 1;
    uint32_t *cut = realloc(r->cut, n * sizeof *cut);
    if (cut)
        r->cut = cut;
    size_t *counts = cut ? realloc(r->counts, n * sizeof *counts) : NULL;
    if (!counts)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %d ranks", ranks->size);
    r->counts = counts;
    r->peers = *ranks;
    r->valid = 0;
    return GRAINS_OK;
}

void sim_ranks_free(sim_ranks *r)
{
    free(r->cut);
    free(r->counts);
    free(r->visit);
    free(r->send);
}

grains_status sim_ranks_check(const grains_sim *sim, grains_error *err)
{
    const char *what = sim->integrator->advance ? "an implicit integrator"
                       : sim->rec.requested    ? "the contacts output"
                       : sim->guide.on         ? "a guided particle"
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

/* A block's work: its particles and the entries of their lists. */
static uint64_t block_weight(const grains_sim *sim, uint32_t b)
{
    uint32_t i0 = block_first(&sim->grid, b), i1 = block_first(&sim->grid, b + 1);
    return (uint64_t)(i1 - i0) + (sim->nb.n_particles ? sim->nb.start[i1] - sim->nb.start[i0] : 0);
}

/* Block b's place in the run of rank r: a block goes to the rank whose
 * share of the total work holds the middle of the block's. */
static void cut_blocks(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    uint32_t n_blocks = (uint32_t)sim->grid.n_blocks;
    uint64_t total = 0, before = 0, P = (uint64_t)r->peers.size;
    for (uint32_t b = 0; b < n_blocks; b++)
        total += block_weight(sim, b);
    int owner = 0;
    r->cut[0] = 0;
    for (uint32_t b = 0; b < n_blocks; b++) {
        uint64_t w = block_weight(sim, b), o = total ? P * (2 * before + w) / (2 * total) : 0;
        for (; (uint64_t)owner < (o < P ? o : P - 1); owner++)
            r->cut[owner + 1] = b;
        before += w;
    }
    for (; owner < r->peers.size; owner++)
        r->cut[owner + 1] = n_blocks;
}

/* Which other blocks list a partner among our particles. */
static void mark_visits(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    const grains_neighbors *nb = &sim->nb;
    for (uint32_t b = 0; b < sim->grid.n_blocks; b++) {
        uint32_t k0 = nb->start[block_first(&sim->grid, b)], k1 = nb->start[block_first(&sim->grid, b + 1)];
        int ours = 0;
        for (uint32_t k = k0; k < k1 && !ours; k++)
            ours = !(nb->j[k] & STORE_MESH_BIT) && partner_ours(nb->j[k] & STORE_INDEX_MASK, r->p0, r->p1 - r->p0);
        r->visit[b] = (uint8_t)ours;
    }
}

grains_status sim_ranks_cut(grains_sim *sim, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    if (r->valid)
        return GRAINS_OK;
    if (!array_reserve((void **)&r->visit, &r->visit_cap, sim->grid.n_blocks + 1, 1, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory sharing the cell blocks");
    cut_blocks(sim);
    int me = r->peers.rank;
    r->b0 = r->cut[me];
    r->b1 = r->cut[me + 1];
    r->p0 = block_first(&sim->grid, r->b0);
    r->p1 = block_first(&sim->grid, r->b1);
    if (sim->nb.n_particles)
        mark_visits(sim);
    else
        memset(r->visit, 0, sim->grid.n_blocks);
    r->valid = 1;
    return GRAINS_OK;
}

/* Every rank's bytes, in rank order (the counts in ranks.counts). */
static char *gather(const grains_sim *sim, const void *mine, size_t bytes)
{
    const grains_ranks *pr = &sim->ranks.peers;
    return pr->allgather(pr->ctx, mine, bytes, sim->ranks.counts);
}

force_diag sim_ranks_diag(const grains_sim *sim, force_diag own)
{
    force_diag *all = (force_diag *)gather(sim, &own, sizeof own), total = force_diag_empty();
    for (int r = 0; r < sim->ranks.peers.size; r++)
        force_diag_merge(&total, &all[r]);
    free(all);
    return total;
}

/* What rank r's blocks hold: its blocks [b0, b1) and particles [p0, p1). */
typedef struct {
    uint32_t b0, b1, p0, p1;
} rank_run;

static rank_run run_of(const grains_sim *sim, int r)
{
    const sim_ranks *rk = &sim->ranks;
    rank_run run = {rk->cut[r], rk->cut[r + 1], 0, 0};
    run.p0 = block_first(&sim->grid, run.b0);
    run.p1 = block_first(&sim->grid, run.b1);
    return run;
}

/* The fields an update changes, of particles [p0, p1). */
#define PARTICLE_FIELDS(X) X(x) X(v) X(w) X(q) X(f) X(t)

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

/* The blocks' sums of what each wall gave their particles, and their logs
 * of what they gave membrane vertices. */
static void put_block_sums(pack *k, const grains_sim *sim, rank_run run)
{
    size_t per_block = WALL_SUMS * sim->wl.n;
    if (per_block)
        put(k, sim->wl.block_sum + per_block * run.b0, per_block * (run.b1 - run.b0) * sizeof *sim->wl.block_sum);
    for (uint32_t b = run.b0; sim->mb.n && b < run.b1; b++) {
        const patch_log *lg = &sim->patch_logs[b];
        put(k, &lg->n, sizeof lg->n);
        put(k, lg->rec, lg->n * sizeof *lg->rec);
    }
}

static void take_block_sums(unpack *u, grains_sim *sim, rank_run run)
{
    size_t per_block = WALL_SUMS * sim->wl.n;
    if (per_block)
        take(u, sim->wl.block_sum + per_block * run.b0, per_block * (run.b1 - run.b0) * sizeof *sim->wl.block_sum);
    for (uint32_t b = run.b0; sim->mb.n && b < run.b1; b++) {
        patch_log *lg = &sim->patch_logs[b];
        take(u, &lg->n, sizeof lg->n);
        take(u, lg->rec, lg->n * sizeof *lg->rec);
    }
}

/* Every rank's pack, each unpacked by `fn` into this copy (ours is already here). */
static void unpack_all(grains_sim *sim, const char *all, void (*fn)(unpack *, grains_sim *, rank_run, void *), void *ctx)
{
    const char *at = all;
    for (int r = 0; r < sim->ranks.peers.size; r++) {
        unpack u = {at};
        if (r != sim->ranks.peers.rank)
            fn(&u, sim, run_of(sim, r), ctx);
        at += sim->ranks.counts[r];
    }
}

static void take_step(unpack *u, grains_sim *sim, rank_run run, void *ctx)
{
    real v2, *max_v2 = ctx;
    take(u, &v2, sizeof v2);
    *max_v2 = v2 > *max_v2 ? v2 : *max_v2;
    take_particles(u, &sim->pt, run);
    take_block_sums(u, sim, run);
}

/* A rank that cannot make its part of an exchange (memory) stops the
 * run: the others would wait for it forever. */
static void exchange_failed(void)
{
    fprintf(stderr, "grains: out of memory exchanging with the other ranks: stopping them all\n");
    abort();
}

/* An empty pack in the buffer of the last exchange. */
static pack pack_start(const grains_sim *sim) { return (pack){sim->ranks.send, 0, sim->ranks.send_cap, 0}; }

/* The pack's buffer kept for the next exchange. */
static void pack_keep(grains_sim *sim, const pack *k)
{
    sim->ranks.send = k->p;
    sim->ranks.send_cap = k->cap;
}

/* Every rank's pack, in rank order. */
static char *exchange(const grains_sim *sim, const pack *k)
{
    if (k->failed)
        exchange_failed();
    char *all = gather(sim, k->p, k->n);
    if (!all)
        exchange_failed();
    return all;
}

void sim_ranks_exchange_step(grains_sim *sim)
{
    real v2 = 0;
    for (int t = 0; t < sim->nthreads; t++)
        v2 = sim->v2_thread[t] > v2 ? sim->v2_thread[t] : v2;
    rank_run mine = run_of(sim, sim->ranks.peers.rank);
    pack k = pack_start(sim);
    put(&k, &v2, sizeof v2);
    put_particles(&k, &sim->pt, mine);
    put_block_sums(&k, sim, mine);
    char *all = exchange(sim, &k);
    unpack_all(sim, all, take_step, &v2);
    free(all);
    pack_keep(sim, &k);
    for (int t = 0; t < sim->nthreads; t++)
        sim->v2_thread[t] = t ? 0 : v2;
}

/* The lists' entries of run's particles (their marks of histories) and
 * its blocks' histories. */
static void put_contacts(pack *k, const grains_sim *sim, rank_run run)
{
    const grains_neighbors *nb = &sim->nb;
    const contact_store *cs = &sim->cs;
    put(k, nb->j + nb->start[run.p0], (nb->start[run.p1] - nb->start[run.p0]) * sizeof *nb->j);
    size_t width = (size_t)cs->layout.width * sizeof(real);
    for (uint32_t b = run.b0; b < run.b1; b++) {
        const store_block *blk = &cs->block[b];
        size_t in_window = blk->n < blk->cap ? blk->n : blk->cap;
        put(k, &blk->n, sizeof blk->n);
        put(k, store_history(cs, b, 0), in_window * width);
        if (blk->n > in_window)
            put(k, blk->ovf, (blk->n - in_window) * width);
    }
}

static void take_contacts(unpack *u, grains_sim *sim, rank_run run, void *ctx)
{
    grains_status *s = ctx;
    grains_neighbors *nb = &sim->nb;
    take(u, nb->j + nb->start[run.p0], (nb->start[run.p1] - nb->start[run.p0]) * sizeof *nb->j);
    size_t width = (size_t)sim->cs.layout.width;
    for (uint32_t b = run.b0; b < run.b1; b++) {
        size_t n;
        take(u, &n, sizeof n);
        if (*s == GRAINS_OK)
            *s = store_block_set(&sim->cs, b, (const real *)u->p, n, NULL);
        u->p += n * width * sizeof(real);
    }
}

grains_status sim_ranks_exchange_contacts(grains_sim *sim, grains_error *err)
{
    if (!sim_shared(sim) || !sim->ranks.valid || !sim->nb.n_particles)
        return GRAINS_OK; /* every copy is the same */
    pack k = pack_start(sim);
    put_contacts(&k, sim, run_of(sim, sim->ranks.peers.rank));
    char *all = exchange(sim, &k);
    grains_status s = GRAINS_OK;
    unpack_all(sim, all, take_contacts, &s);
    free(all);
    pack_keep(sim, &k);
    if (s != GRAINS_OK)
        return grains_error_set(err, s, NULL, 0, "out of memory for the contacts of other ranks");
    return GRAINS_OK;
}

grains_status grains_sim_gather(grains_sim *sim, grains_error *err)
{
    return sim_ranks_exchange_contacts(sim, err);
}
