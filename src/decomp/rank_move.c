/* A rebuild's move of the particles among ranks (decomp/rank_move.h). */
#include "decomp/rank_move.h"

#include <stdlib.h>
#include <string.h>

#include "particles/particle_record.h"
#include "util/array.h"
#include "util/order.h"

/* A particle as it travels: whether it is the receiver's own, then its
 * record (particles/particle_record.h), then, with_sums, its force sums. */
static size_t record_bytes(const grains_particles *pt, int with_sums)
{
    return 1 + particle_record_bytes(pt) + (with_sums ? sizeof *pt->f + sizeof *pt->t : 0);
}

static char *put_record(char *at, const grains_particles *pt, uint32_t i, uint8_t own, int with_sums)
{
    *at++ = (char)own;
    at = particle_record_put(at, pt, i);
    if (with_sums) {
        memcpy(at, &pt->f[i], sizeof *pt->f);
        memcpy(at + sizeof *pt->f, &pt->t[i], sizeof *pt->t);
        at += sizeof *pt->f + sizeof *pt->t;
    }
    return at;
}

static void take_record(const char *at, grains_particles *pt, size_t i, int with_sums)
{
    at = particle_record_take(at + 1, pt, i);
    if (with_sums) {
        memcpy(&pt->f[i], at, sizeof *pt->f);
        memcpy(&pt->t[i], at + sizeof *pt->f, sizeof *pt->t);
    }
}

/* The ranks a particle goes to: (rank << 32 | i), growing. */
typedef struct {
    uint64_t *v;
    size_t n, cap;
    int failed;
} sends;

static void add_send(sends *s, int rank, uint32_t i)
{
    if (s->failed || !array_reserve((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v, 2)) {
        s->failed = 1;
        return;
    }
    s->v[s->n++] = (uint64_t)rank << 32 | i;
}

/* The owners of the blocks of each level that may hold a partner of
 * particle i (its own block's among them), each added once per level. */
static void add_partners(sends *s, const grains_particles *pt, uint32_t i, const grains_grid *g, const block_table *t,
                         const int *owner)
{
    for (int m = 0; m < g->n_levels; m++) {
        int64_t lo[3], hi[3], bc[3];
        grid_pair_blocks(g, m, pt->x[i], pt->R[i], lo, hi);
        for (bc[2] = lo[2]; bc[2] <= hi[2]; bc[2]++)
            for (bc[1] = lo[1]; bc[1] <= hi[1]; bc[1]++)
                for (bc[0] = lo[0]; bc[0] <= hi[0]; bc[0]++) {
                    size_t k = block_table_find(t, grid_key_at(g, m, bc));
                    if (k != SIZE_MAX)
                        add_send(s, owner[k], i);
                }
    }
}

/* Every (rank, particle) once, in that order. */
static void sort_sends(sends *s)
{
    if (!s->n)
        return;
    qsort(s->v, s->n, sizeof *s->v, order_u64);
    size_t m = 1;
    for (size_t k = 1; k < s->n; k++)
        if (s->v[k] != s->v[m - 1])
            s->v[m++] = s->v[k];
    s->n = m;
}

/* Each own particle's rank (home[i], the owner of its block) and the
 * ranks it goes to. */
static void plan_sends(sends *s, int *home, const grains_particles *pt, const uint8_t *copy, const rank_also *also,
                       int P, const grains_grid *g, const block_table *t, const int *owner)
{
    const rank_also none = {NULL, NULL, 0};
    also = also ? also : &none;
    const uint8_t *everywhere = also->everywhere;
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        size_t k = block_table_find(t, grid_block_key(g, b));
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++) {
            if (copy && copy[i])
                continue;
            home[i] = k == SIZE_MAX ? -1 : owner[k]; /* not in the table: a caller's error */
            if (home[i] >= 0)
                add_send(s, home[i], i);
            add_partners(s, pt, i, g, t, owner);
            for (int r = 0; everywhere && everywhere[i] && r < P; r++)
                add_send(s, r, i);
        }
    }
    for (size_t k = 0; k < also->n_to; k++)
        add_send(s, (int)(also->to[k] >> 32), (uint32_t)also->to[k]);
    sort_sends(s);
}

/* The records for the other ranks, in rank order (send_counts per rank,
 * 0 for this one: what stays here is copied, not packed). */
static int pack_sends(rank_held *to, const sends *s, const int *home, const grains_particles *pt, int me, size_t P,
                      int with_sums, size_t *send_counts)
{
    size_t record = record_bytes(pt, with_sums), n_out = 0;
    for (size_t k = 0; k < s->n; k++)
        n_out += (int)(s->v[k] >> 32) != me;
    if (!array_reserve(&to->send, &to->send_cap, (n_out + 1) * record, 1, 4))
        return 0;
    memset(send_counts, 0, P * sizeof *send_counts);
    char *at = to->send;
    for (size_t k = 0; k < s->n; k++) {
        int d = (int)(s->v[k] >> 32);
        uint32_t i = (uint32_t)s->v[k];
        if (d == me)
            continue;
        at = put_record(at, pt, i, (uint8_t)(home[i] == d), with_sums);
        send_counts[d] += record;
    }
    return 1;
}

/* One particle of `from` copied to place m of `to` (with_sums: its force sums too). */
static void copy_particle(grains_particles *to, size_t m, const grains_particles *from, uint32_t i, int with_sums)
{
#define COPY(field) to->field[m] = from->field[i];
    PARTICLE_RECORD_FIELDS(COPY)
#undef COPY
    if (with_sums)
        to->f[m] = from->f[i], to->t[m] = from->t[i];
}

/* What this rank holds now: the records received (`bytes` of them) and its
 * own particles that stay here, as its own or as copies (the sends to this
 * rank); the own first, then the copies. */
static grains_status take_held(rank_held *to, const char *recv, size_t bytes, size_t record, const sends *s,
                               const int *home, const grains_particles *from, int me, int with_sums,
                               grains_error *err)
{
    size_t n = bytes / record, own = 0;
    for (size_t k = 0; k < s->n; k++)
        if ((int)(s->v[k] >> 32) == me) {
            n++;
            own += home[(uint32_t)s->v[k]] == me;
        }
    for (size_t at = 0; at < bytes; at += record)
        own += recv[at] != 0;
    to->pt.n = 0;
    grains_status st = particles_reserve(&to->pt, n, err);
    if (st != GRAINS_OK)
        return st;
    size_t next_own = 0, next_copy = own;
    for (size_t k = 0; k < s->n; k++)
        if ((int)(s->v[k] >> 32) == me) {
            uint32_t i = (uint32_t)s->v[k];
            copy_particle(&to->pt, home[i] == me ? next_own++ : next_copy++, from, i, with_sums);
        }
    for (size_t at = 0; at < bytes; at += record)
        take_record(recv + at, &to->pt, recv[at] ? next_own++ : next_copy++, with_sums);
    to->pt.n = n;
    to->own = own;
    return GRAINS_OK;
}

/* A kept buffer let go when it is far larger than this move needed (the
 * first, from shares that every rank held whole, moves most particles;
 * the later ones, few): it is kept for the next move, but not at any size. */
static void let_go(void **buf, size_t *cap, size_t used)
{
    if (*cap > 2 * used + ((size_t)1 << 20)) {
        free(*buf);
        *buf = NULL;
        *cap = 0;
    }
}

grains_status rank_move(const grains_particles *from, const uint8_t *copy, const rank_also *also,
                        const grains_grid *g, const block_table *t, const int *owner, const grains_ranks *ranks,
                        int with_sums, rank_held *to, grains_error *err)
{
    size_t P = (size_t)ranks->size, n = g->n_particles;
    sends s = {NULL, 0, 0, 0};
    int *home = malloc((n ? n : 1) * sizeof *home);
    size_t *counts = calloc(2 * P, sizeof *counts);
    if (home && counts)
        plan_sends(&s, home, from, copy, also, ranks->size, g, t, owner);
    grains_status st = GRAINS_ERR_NOMEM;
    if (home && counts && !s.failed && pack_sends(to, &s, home, from, ranks->rank, P, with_sums, counts)) {
        size_t *received = counts + P, sent = 0, bytes = 0;
        for (size_t r = 0; r < P; r++)
            sent += counts[r];
        if (P > 1)
            to->recv = ranks->alltoall(ranks->ctx, to->send, counts, received, to->recv, &to->recv_cap);
        for (size_t r = 0; r < P; r++)
            bytes += received[r];
        st = take_held(to, to->recv, bytes, record_bytes(from, with_sums), &s, home, from, ranks->rank, with_sums,
                       err);
        let_go(&to->send, &to->send_cap, sent);
        let_go(&to->recv, &to->recv_cap, bytes);
    } else {
        grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory moving %zu particles to other ranks", n);
    }
    free(home);
    free(s.v);
    free(counts);
    return st;
}

void rank_held_free(rank_held *h)
{
    particles_free(&h->pt);
    free(h->send);
    free(h->recv);
    *h = (rank_held){0};
}
