/* The ranks over MPI_COMM_WORLD. Reductions are order-free (min and max of
 * reals, sums and maxima of integers), so their results do not depend on
 * how MPI combines the ranks, and every rank receives the same bits.
 * Exchanges between ranks go point to point, between the ranks with bytes
 * for each other alone. */
#include "parallel/comm.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct grains_comm {
    MPI_Comm world;
    int rank, size;
    int say_fd; /* where a failure of this rank alone is told (comm_say_to) */
    unsigned exchanges; /* all-to-all exchanges so far (their tags alternate) */
    /* Room for the exchanges' bookkeeping, per rank (made once: a step's
     * exchange allocates nothing) */
    MPI_Request *req;             /* 2 per rank: a receive and a send */
    unsigned long long *out_n, *in_n; /* bytes to and from each rank */
    int *n, *at;                  /* MPI's counts and offsets */
    int (*rider)(void);           /* a value that rides with the maxima (comm_ride) */
    uint64_t rider_max;           /* its largest over the ranks, at the last maximum */
    int rider_fresh;              /* a maximum carried it since comm_rider_max read it */
};

static void comm_free(grains_comm *c)
{
    free(c->req);
    free(c->out_n);
    free(c->in_n);
    free(c->n);
    free(c->at);
    free(c);
}

grains_status comm_start(int *argc, char ***argv, grains_comm **out, grains_error *err)
{
    int started = 0;
    MPI_Initialized(&started);
    int level = 0; /* the master thread of a rank's OpenMP team makes the calls */
    if (!started && MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &level) != MPI_SUCCESS)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "MPI did not start");
    grains_comm *c = calloc(1, sizeof *c);
    if (!c)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the ranks");
    c->world = MPI_COMM_WORLD;
    c->say_fd = STDERR_FILENO;
    MPI_Comm_rank(c->world, &c->rank);
    MPI_Comm_size(c->world, &c->size);
    size_t P = (size_t)c->size;
    c->req = malloc(2 * P * sizeof *c->req);
    c->out_n = malloc(P * sizeof *c->out_n);
    c->in_n = malloc(P * sizeof *c->in_n);
    c->n = malloc(P * sizeof *c->n);
    c->at = malloc(P * sizeof *c->at);
    if (!c->req || !c->out_n || !c->in_n || !c->n || !c->at) {
        comm_free(c);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu ranks", P);
    }
    *out = c;
    return GRAINS_OK;
}

void comm_stop(grains_comm *c)
{
    comm_free(c);
    MPI_Finalize();
}

int comm_rank(const grains_comm *c) { return c->rank; }
int comm_size(const grains_comm *c) { return c->size; }

static MPI_Datatype real_type(void) { return sizeof(real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT; }

static void all_min(void *ctx, real *v, int n)
{
    grains_comm *c = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, real_type(), MPI_MIN, c->world);
}

static void all_max(void *ctx, real *v, int n)
{
    grains_comm *c = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, real_type(), MPI_MAX, c->world);
}

static void all_sum(void *ctx, uint64_t *v, int n)
{
    grains_comm *c = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, c->world);
}

grid_share comm_grid_share(grains_comm *c)
{
    grid_share s = {all_min, all_max, all_sum, c};
    return s;
}

void comm_abort(grains_comm *c, int status) { MPI_Abort(c->world, status); }

void comm_say_to(grains_comm *c, int fd) { c->say_fd = fd; }

void comm_fail(grains_comm *c, int status, const char *why)
{
    char line[1024];
    int n = c->size > 1 ? snprintf(line, sizeof line, "grains: rank %d: %s\n", c->rank, why)
                        : snprintf(line, sizeof line, "grains: %s\n", why);
    ssize_t said = n > 0 ? write(c->say_fd, line, strlen(line)) : 0;
    (void)said; /* if it cannot be said, the ranks stop all the same */
    MPI_Abort(c->world, status);
    abort(); /* MPI_Abort does not return */
}

/* The library's failure of this rank alone: the status of a run that
 * could not go on (grains' 2, as for bad input). */
static void fail_all(void *ctx, const char *why) { comm_fail(ctx, 2, why); }

/* Counts and offsets in ints for MPI (2 GB in all per exchange). */
static void int_counts(grains_comm *c, const unsigned long long *bytes, int *n, int *at)
{
    unsigned long long total = 0;
    for (int r = 0; r < c->size; r++) {
        if (bytes[r] > INT_MAX || total + bytes[r] > INT_MAX)
            comm_fail(c, 2, "an exchange between ranks beyond 2 GB: use more ranks");
        n[r] = (int)bytes[r];
        at[r] = (int)total;
        total += bytes[r];
    }
}

/* `into` with room for `bytes` (realloc when short). */
static char *room(grains_comm *c, void *into, size_t *cap, size_t bytes)
{
    if (into && *cap >= bytes)
        return into;
    char *p = realloc(into, bytes ? bytes : 1);
    if (!p)
        comm_fail(c, 2, "out of memory exchanging with the other ranks: stopping them all");
    *cap = bytes ? bytes : 1;
    return p;
}

/* Every rank's bytes in rank order: their counts by MPI_Allgather, then
 * the bytes by MPI_Allgatherv (whose counts are ints: 2 GB in all per
 * exchange, far above a step's). Failure stops every rank. */
static void *all_gather(void *ctx, const void *mine, size_t bytes, size_t *counts, void *into, size_t *cap)
{
    grains_comm *c = ctx;
    unsigned long long own = bytes, *all = c->in_n;
    int *n = c->n, *at = c->at;
    if (MPI_Allgather(&own, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, c->world) != MPI_SUCCESS)
        comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    int_counts(c, all, n, at);
    for (int r = 0; r < c->size; r++)
        counts[r] = (size_t)all[r];
    char *out = room(c, into, cap, (size_t)at[c->size - 1] + (size_t)n[c->size - 1]);
    if (MPI_Allgatherv(mine, (int)bytes, MPI_BYTE, out, n, at, MPI_BYTE, c->world) != MPI_SUCCESS)
        comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    return out;
}

/* Tags of grains' point-to-point messages (the collectives have their own). */
enum { TAG_DATA = 17, TAG_COUNT = 18 /* and 19: alternate exchanges */ };

/* A message's bytes as MPI counts them (an int): 2 GB at most. */
static int message_size(grains_comm *c, size_t bytes)
{
    if (bytes > INT_MAX)
        comm_fail(c, 2, "an exchange between ranks beyond 2 GB: use more ranks");
    return (int)bytes;
}

/* Point to point, between the pairs of ranks with bytes for each other:
 * every receive posted first, then the sends, then all of them awaited
 * (no order among them is needed: each message lands at its own offset). */
static void *to_neighbours(void *ctx, const void *send, const size_t *send_counts, const size_t *recv_counts,
                           void *into, size_t *cap)
{
    grains_comm *c = ctx;
    size_t P = (size_t)c->size, total = 0;
    for (size_t r = 0; r < P; r++)
        total += recv_counts[r];
    char *out = room(c, into, cap, total);
    MPI_Request *req = c->req;
    int n = 0, tag = TAG_DATA;
    size_t at = 0;
    for (size_t r = 0; r < P; at += recv_counts[r], r++)
        if (recv_counts[r] && MPI_Irecv(out + at, message_size(c, recv_counts[r]), MPI_BYTE, (int)r, tag, c->world,
                                        &req[n++]) != MPI_SUCCESS)
            comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    at = 0;
    for (size_t d = 0; d < P; at += send_counts[d], d++)
        if (send_counts[d] && MPI_Isend((const char *)send + at, message_size(c, send_counts[d]), MPI_BYTE, (int)d,
                                        tag, c->world, &req[n++]) != MPI_SUCCESS)
            comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    if (MPI_Waitall(n, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    return out;
}

/* The bytes each rank has for this one, in_n[r] (0 from the ranks that
 * have none), without a message between ranks with nothing for each
 * other: Hoefler, Siebert and Lumsdaine's NBX ("Scalable communication
 * protocols for dynamic sparse data exchange", PPoPP 2010). Each rank
 * sends its nonzero counts in synchronous messages and takes what comes;
 * once its own were taken it enters a non-blocking barrier, whose
 * completion says every rank's were. Beyond the messages, the barrier's
 * log P rounds, where MPI_Alltoall sends P counts per rank. A rank can be
 * one exchange ahead of another here, no more (the next barrier waits for
 * it): consecutive exchanges alternate two tags. */
static void counts_from_senders(grains_comm *c, const unsigned long long *out_n, unsigned long long *in_n)
{
    size_t P = (size_t)c->size;
    int tag = TAG_COUNT + (c->exchanges++ & 1), n = 0, in_barrier = 0, done = 0;
    MPI_Request *req = c->req, barrier = MPI_REQUEST_NULL;
    int ok = 1;
    for (size_t d = 0; d < P; d++) {
        in_n[d] = 0;
        if (out_n[d] && (int)d != c->rank)
            ok = ok && MPI_Issend(&out_n[d], 1, MPI_UNSIGNED_LONG_LONG, (int)d, tag, c->world, &req[n++]) ==
                           MPI_SUCCESS;
    }
    while (ok && !done) {
        int flag = 0;
        MPI_Status st;
        ok = MPI_Iprobe(MPI_ANY_SOURCE, tag, c->world, &flag, &st) == MPI_SUCCESS;
        if (ok && flag)
            ok = MPI_Recv(&in_n[st.MPI_SOURCE], 1, MPI_UNSIGNED_LONG_LONG, st.MPI_SOURCE, tag, c->world,
                          MPI_STATUS_IGNORE) == MPI_SUCCESS;
        else if (ok && !in_barrier) {
            ok = MPI_Testall(n, req, &in_barrier, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
            if (ok && in_barrier)
                ok = MPI_Ibarrier(c->world, &barrier) == MPI_SUCCESS;
        } else if (ok)
            ok = MPI_Test(&barrier, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    }
    if (!ok)
        comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    in_n[c->rank] = out_n[c->rank];
}

/* Each rank's bytes for each rank: the counts from the ranks that send
 * (counts_from_senders), then the bytes, point to point (to_neighbours):
 * messages between the ranks with bytes for each other alone. */
static void *all_to_all(void *ctx, const void *send, const size_t *send_counts, size_t *recv_counts, void *into,
                        size_t *cap)
{
    grains_comm *c = ctx;
    size_t P = (size_t)c->size;
    for (size_t r = 0; r < P; r++)
        c->out_n[r] = send_counts[r];
    counts_from_senders(c, c->out_n, c->in_n);
    for (size_t r = 0; r < P; r++)
        recv_counts[r] = (size_t)c->in_n[r];
    return to_neighbours(ctx, send, send_counts, recv_counts, into, cap);
}

/* Rides the rider's value with a short maximum: one reduction where a
 * check after the step would make a second. */
enum { RIDE_MOST = 8 };

static void max_with_rider(grains_comm *c, uint64_t *v, size_t n)
{
    uint64_t both[RIDE_MOST + 1];
    memcpy(both, v, n * sizeof *v);
    both[n] = (uint64_t)c->rider();
    if (MPI_Allreduce(MPI_IN_PLACE, both, (int)n + 1, MPI_UINT64_T, MPI_MAX, c->world) != MPI_SUCCESS)
        comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    memcpy(v, both, n * sizeof *v);
    c->rider_max = both[n];
    c->rider_fresh = 1;
}

/* The largest of each v[k] over the ranks, for any n (integers: in any order). */
static void all_max_u64(void *ctx, uint64_t *v, size_t n)
{
    grains_comm *c = ctx;
    if (c->rider && n <= RIDE_MOST) {
        max_with_rider(c, v, n);
        return;
    }
    for (size_t done = 0; done < n; done += INT_MAX) {
        int part = n - done < INT_MAX ? (int)(n - done) : INT_MAX;
        if (MPI_Allreduce(MPI_IN_PLACE, v + done, part, MPI_UINT64_T, MPI_MAX, c->world) != MPI_SUCCESS)
            comm_fail(c, 2, "an exchange between ranks failed: stopping them all");
    }
}

/* all_sum for any n (MPI counts are ints). */
static void sum_all(void *ctx, uint64_t *v, size_t n)
{
    for (size_t done = 0; done < n; done += INT_MAX)
        all_sum(ctx, v + done, n - done < INT_MAX ? (int)(n - done) : INT_MAX);
}

void comm_ride(grains_comm *c, int (*rider)(void)) { c->rider = rider; }

int comm_rider_max(grains_comm *c, int *max)
{
    if (!c->rider_fresh)
        return 0;
    c->rider_fresh = 0;
    *max = (int)c->rider_max;
    return 1;
}

grains_ranks comm_ranks(grains_comm *c)
{
    grains_ranks r = {c->rank, c->size, all_gather, c, 1, fail_all, all_to_all, sum_all, all_max_u64, to_neighbours, 0, 0};
    return r;
}
