/* A rebuild's move of the particles among ranks (sim/rank_move.h). */
#include "sim/rank_move.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"

/* What a particle travels with: every field a rank holds it by (f and t
 * are zeroed by a rebuild; slot is the receiver's), and whether it is the
 * receiver's own. */
#define MOVED_FIELDS(X) X(x) X(v) X(w) X(q) X(R) X(mat) X(tag) X(id)

static size_t record_bytes(const grains_particles *pt)
{
    size_t bytes = 1; /* own */
#define SIZE(field) bytes += sizeof *pt->field;
    MOVED_FIELDS(SIZE)
#undef SIZE
    return bytes;
}

static char *put_record(char *at, const grains_particles *pt, uint32_t i, uint8_t own)
{
    *at++ = (char)own;
#define PUT(field)                                       \
    memcpy(at, &pt->field[i], sizeof *pt->field); \
    at += sizeof *pt->field;
    MOVED_FIELDS(PUT)
#undef PUT
    return at;
}

static const char *take_record(const char *at, grains_particles *pt, size_t i)
{
    at++;
#define TAKE(field)                                      \
    memcpy(&pt->field[i], at, sizeof *pt->field); \
    at += sizeof *pt->field;
    MOVED_FIELDS(TAKE)
#undef TAKE
    return at;
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

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every (rank, particle) once, in that order. */
static void sort_sends(sends *s)
{
    if (!s->n)
        return;
    qsort(s->v, s->n, sizeof *s->v, by_u64);
    size_t m = 1;
    for (size_t k = 1; k < s->n; k++)
        if (s->v[k] != s->v[m - 1])
            s->v[m++] = s->v[k];
    s->n = m;
}

/* Each own particle's rank (home[i], the owner of its block) and the
 * ranks it goes to. */
static void plan_sends(sends *s, int *home, const grains_particles *pt, const uint8_t *copy, const grains_grid *g,
                       const block_table *t, const int *owner)
{
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        size_t k = block_table_find(t, grid_block_key(g, b));
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++) {
            if (copy && copy[i])
                continue;
            home[i] = k == SIZE_MAX ? -1 : owner[k]; /* not in the table: a caller's error */
            if (home[i] >= 0)
                add_send(s, home[i], i);
            add_partners(s, pt, i, g, t, owner);
        }
    }
    sort_sends(s);
}

/* The records for the other ranks, in rank order (send_counts per rank,
 * 0 for this one), then this rank's for itself (self_bytes of them). */
static int pack_sends(rank_held *to, const sends *s, const int *home, const grains_particles *pt, int me, size_t P,
                      size_t *send_counts, size_t *self_bytes)
{
    size_t record = record_bytes(pt);
    if (!array_reserve(&to->send, &to->send_cap, (s->n + 1) * record, 1, 4))
        return 0;
    memset(send_counts, 0, P * sizeof *send_counts);
    char *at = to->send;
    for (int pass = 0; pass < 2; pass++) /* the others', then ours */
        for (size_t k = 0; k < s->n; k++) {
            int d = (int)(s->v[k] >> 32);
            uint32_t i = (uint32_t)s->v[k];
            if ((d == me) != pass)
                continue;
            at = put_record(at, pt, i, (uint8_t)(home[i] == d));
            *(pass ? self_bytes : &send_counts[d]) += record;
        }
    return 1;
}

/* The records received and ours (parts[0 .. 2), of bytes[p]), the own
 * first, then the copies, each in the order received. */
static grains_status take_held(rank_held *to, const char *const part[2], const size_t bytes[2], size_t record,
                               grains_error *err)
{
    size_t n = (bytes[0] + bytes[1]) / record, own = 0;
    to->pt.n = 0;
    grains_status s = particles_reserve(&to->pt, n, err);
    if (s != GRAINS_OK)
        return s;
    for (int p = 0; p < 2; p++)
        for (size_t at = 0; at < bytes[p]; at += record)
            own += part[p][at] != 0;
    size_t next_own = 0, next_copy = own;
    for (int p = 0; p < 2; p++)
        for (size_t at = 0; at < bytes[p]; at += record)
            take_record(part[p] + at, &to->pt, part[p][at] ? next_own++ : next_copy++);
    to->pt.n = n;
    to->own = own;
    return GRAINS_OK;
}

grains_status rank_move(const grains_particles *from, const uint8_t *copy, const grains_grid *g, const block_table *t,
                        const int *owner, const grains_ranks *ranks, rank_held *to, grains_error *err)
{
    size_t P = (size_t)ranks->size, n = g->n_particles, self_bytes = 0;
    sends s = {NULL, 0, 0, 0};
    int *home = malloc((n ? n : 1) * sizeof *home);
    size_t *counts = calloc(2 * P, sizeof *counts);
    if (home && counts)
        plan_sends(&s, home, from, copy, g, t, owner);
    int ok = home && counts && !s.failed && pack_sends(to, &s, home, from, ranks->rank, P, counts, &self_bytes);
    free(home);
    free(s.v);
    if (!ok) {
        free(counts);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory moving %zu particles to other ranks",
                                n);
    }
    size_t *received = counts + P, sent = 0;
    for (size_t r = 0; r < P; r++)
        sent += counts[r];
    if (P > 1)
        to->recv = ranks->alltoall(ranks->ctx, to->send, counts, received, to->recv, &to->recv_cap);
    size_t bytes[2] = {0, self_bytes};
    for (size_t r = 0; r < P; r++)
        bytes[0] += received[r];
    const char *part[2] = {to->recv, (const char *)to->send + sent};
    free(counts);
    return take_held(to, part, bytes, record_bytes(from), err);
}

void rank_held_free(rank_held *h)
{
    particles_free(&h->pt);
    free(h->send);
    free(h->recv);
    *h = (rank_held){0};
}
