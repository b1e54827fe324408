/* The start's checks on ranks that hold their own particles alone
 * (decomp/start_set.h): the particles are dealt by the lines of their file,
 * not by region, so each rank sends its own, with position, radius and
 * id (40 bytes), to the home rank of its cell block, a hash of the
 * block's key, and as a copy to the homes of the blocks that may hold a
 * partner. A home then holds each particle of its blocks and every
 * particle that may pair with one, and checks their cells and pairs as
 * one process would, with no rank holding every particle. */
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "decomp/start_set.h"
#include "util/array.h"
#include "util/order.h"

void sim_start_failed(const rank_sim *sim)
{
    sim_ranks_stop(sim, "out of memory checking the particles: stopping them all");
}

int sim_start_shared(const rank_sim *sim) { return rank_local(sim) && sim->ranks->holds_share; }

int sim_start_home(const start_set *s, uint64_t key)
{
    uint64_t h = key * UINT64_C(0x9E3779B97F4A7C15); /* Fibonacci hashing: neighbouring keys apart */
    return (int)((h >> 32) % (uint64_t)s->size);
}

static grains_status set_alloc(start_set *s, size_t n, grains_error *err)
{
    s->owns_arrays = 1;
    s->n = n;
    s->x = malloc((n + 1) * sizeof *s->x);
    s->R = malloc((n + 1) * sizeof *s->R);
    s->id = malloc((n + 1) * sizeof *s->id);
    s->copy = calloc(n + 1, 1);
    if (s->x && s->R && s->id && s->copy)
        return GRAINS_OK;
    sim_start_free(s);
    return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory checking the particles");
}

grains_status sim_start_own(const rank_sim *sim, start_set *own, grains_error *err)
{
    *own = (start_set){.size = 1};
    if (!sim_start_shared(sim)) {
        const grains_particles *pt = rank_particles_read(sim);
        own->x = pt->x, own->R = pt->R, own->id = pt->id, own->n = pt->n;
        return GRAINS_OK;
    }
    const grains_particles *pt = sim->pt;
    size_t n = 0;
    for (uint32_t i = 0; i < pt->n; i++)
        n += (size_t)sim_ranks_owns(sim, i);
    grains_status s = set_alloc(own, n, err);
    own->shared = 1;
    own->share = sim_ranks_grid_share(sim);
    own->rank = sim->ranks->peers.rank, own->size = sim->ranks->peers.size;
    for (uint32_t i = 0, k = 0; s == GRAINS_OK && i < pt->n; i++)
        if (sim_ranks_owns(sim, i)) {
            own->x[k] = pt->x[i], own->R[k] = pt->R[i], own->id[k] = pt->id[i];
            k++;
        }
    return s;
}

void sim_start_free(start_set *s)
{
    if (s->owns_arrays) {
        free(s->x);
        free(s->R);
        free(s->id);
        free(s->copy);
    }
    s->x = NULL, s->R = NULL, s->id = NULL, s->copy = NULL, s->n = 0;
}

void *sim_start_gather(const rank_sim *sim, const start_set *s, const void *mine, size_t bytes)
{
    if (!s->shared) {
        void *all = malloc(bytes);
        if (!all)
            sim_start_failed(sim);
        return memcpy(all, mine, bytes);
    }
    const grains_ranks *pr = &sim->ranks->peers;
    size_t *counts = malloc((size_t)pr->size * sizeof *counts), cap = 0;
    if (!counts)
        sim_start_failed(sim);
    void *all = pr->allgather(pr->ctx, mine, bytes, counts, NULL, &cap);
    free(counts);
    return all;
}

/* Where each own particle goes: (rank << 33 | i << 1 | 1 for a copy). */
typedef struct {
    uint64_t *v;
    size_t n, cap;
} sends;

static void add_send(const rank_sim *sim, sends *s, int rank, size_t i, int copy)
{
    if (!array_reserve((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v, 2))
        sim_start_failed(sim);
    s->v[s->n++] = (uint64_t)rank << 33 | (uint64_t)i << 1 | (uint64_t)copy;
}

/* The homes of the blocks of each level that may hold a partner of own
 * particle i, as copies. */
static void add_partners(const rank_sim *sim, sends *s, const start_set *own, size_t i, const grains_grid *g)
{
    for (int m = 0; m < g->n_levels; m++) {
        int64_t lo[3], hi[3], bc[3];
        grid_pair_blocks(g, m, own->x[i], own->R[i], lo, hi);
        for (bc[2] = lo[2]; bc[2] <= hi[2]; bc[2]++)
            for (bc[1] = lo[1]; bc[1] <= hi[1]; bc[1]++)
                for (bc[0] = lo[0]; bc[0] <= hi[0]; bc[0]++) {
                    uint64_t key = grid_key_at(g, m, bc);
                    if (key != GRID_NO_KEY)
                        add_send(sim, s, sim_start_home(own, key), i, 1);
                }
    }
}

/* Every own particle's sends, each (rank, particle) once: the home's
 * (copy bit 0) sorts first and stays. */
static grains_status plan_sends(const rank_sim *sim, const start_set *own, real pad, sends *s, grains_error *err)
{
    grains_grid g = {0};
    uint32_t *where = malloc((own->n + 1) * sizeof *where);
    if (!where)
        sim_start_failed(sim);
    grid_particles in = {own->x, own->R, NULL, own->n, &own->share, NULL, 1};
    grains_status st = grid_build(&g, &in, pad, sim->box, where, NULL, 0, err);
    uint32_t *at = st == GRAINS_OK ? malloc((own->n + 1) * sizeof *at) : NULL; /* place -> particle */
    if (st == GRAINS_OK && !at)
        sim_start_failed(sim);
    for (size_t i = 0; st == GRAINS_OK && i < own->n; i++)
        at[where[i]] = (uint32_t)i;
    for (uint32_t b = 0; st == GRAINS_OK && b < g.n_blocks; b++) {
        int home = sim_start_home(own, grid_block_key(&g, b));
        for (uint32_t p = g.first[g.block_start[b]]; p < g.first[g.block_start[b + 1]]; p++) {
            add_send(sim, s, home, at[p], 0);
            add_partners(sim, s, own, at[p], &g);
        }
    }
    free(at);
    free(where);
    grid_free(&g);
    if (st != GRAINS_OK || !s->n)
        return st;
    qsort(s->v, s->n, sizeof *s->v, order_u64);
    size_t m = 1;
    for (size_t k = 1; k < s->n; k++)
        if (s->v[k] >> 1 != s->v[m - 1] >> 1)
            s->v[m++] = s->v[k];
    s->n = m;
    return GRAINS_OK;
}

/* A particle as it travels. */
typedef struct {
    vec3 x;
    real R;
    uint32_t id, copy;
} start_record;

static int by_record_id(const void *a, const void *b)
{
    uint32_t x = ((const start_record *)a)->id, y = ((const start_record *)b)->id;
    return (x > y) - (x < y);
}

/* The records each rank sent this one, sorted by id, into a set. */
static grains_status take_records(const rank_sim *sim, start_record *rec, size_t n, const start_set *own,
                                  start_set *out, grains_error *err)
{
    if (n)
        qsort(rec, n, sizeof *rec, by_record_id);
    grains_status s = set_alloc(out, n, err);
    if (s != GRAINS_OK)
        sim_start_failed(sim);
    out->shared = 1, out->share = own->share, out->rank = own->rank, out->size = own->size;
    for (size_t k = 0; k < n; k++) {
        out->x[k] = rec[k].x, out->R[k] = rec[k].R, out->id[k] = rec[k].id;
        out->copy[k] = (uint8_t)rec[k].copy;
    }
    return GRAINS_OK;
}

grains_status sim_start_spread(const rank_sim *sim, const start_set *own, real pad, start_set *out,
                               grains_error *err)
{
    *out = (start_set){0};
    sends s = {0};
    grains_status st = plan_sends(sim, own, pad, &s, err);
    if (st != GRAINS_OK) {
        free(s.v);
        return st;
    }
    const grains_ranks *pr = &sim->ranks->peers;
    size_t P = (size_t)pr->size, cap = 0;
    size_t *send_counts = calloc(P, sizeof *send_counts), *recv_counts = calloc(P, sizeof *recv_counts);
    start_record *send = malloc((s.n + 1) * sizeof *send);
    if (!send_counts || !recv_counts || !send)
        sim_start_failed(sim);
    for (size_t k = 0; k < s.n; k++) { /* in rank order, as the exchange takes them */
        size_t i = (size_t)(s.v[k] >> 1 & ((UINT64_C(1) << 32) - 1));
        send_counts[s.v[k] >> 33] += sizeof *send;
        send[k] = (start_record){own->x[i], own->R[i], own->id[i], (uint32_t)(s.v[k] & 1)};
    }
    free(s.v);
    start_record *recv = pr->alltoall(pr->ctx, send, send_counts, recv_counts, NULL, &cap);
    free(send);
    size_t total = 0;
    for (size_t r = 0; r < P; r++)
        total += recv_counts[r];
    free(send_counts);
    free(recv_counts);
    st = take_records(sim, recv, total / sizeof *recv, own, out, err);
    free(recv);
    return st;
}
