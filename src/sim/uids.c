/* Persistent ids from the ranges of removed ones (sim/uids.h). */
#include <stdlib.h>

#include "sim/uids.h"

uint64_t sim_uid(const sim_uids *u, uint64_t id)
{
    /* a range lies below the particle's uid when fewer live uids lie below the range than the
     * particle's id: first - before <= id, which grows from range to range */
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->gap[mid].first - u->gap[mid].before <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? id + u->gap[lo - 1].before + u->gap[lo - 1].count : id;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Appends the range [first, first + count) to v, joined to the last when they touch. */
static void append(sim_uids *v, uint64_t first, uint64_t count)
{
    uid_gap *last = v->n ? &v->gap[v->n - 1] : NULL;
    if (last && last->first + last->count == first) {
        last->count += count;
        return;
    }
    uint64_t before = last ? last->before + last->count : 0;
    v->gap[v->n++] = (uid_gap){first, count, before};
}

grains_status sim_uids_plan(const sim_uids *u, const size_t *ids, size_t n, sim_uids *next, grains_error *err)
{
    *next = (sim_uids){0};
    uint64_t *gone = malloc((n + 1) * sizeof *gone);
    next->cap = u->n + n + 1;
    next->gap = malloc(next->cap * sizeof *next->gap);
    if (!gone || !next->gap) {
        free(gone);
        sim_uids_free(next);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the removed particles' uids");
    }
    for (size_t k = 0; k < n; k++)
        gone[k] = sim_uid(u, ids[k]);
    qsort(gone, n, sizeof *gone, by_value);
    size_t a = 0, b = 0; /* (the old ranges and the new uids, merged in order: none is in both) */
    while (a < u->n || b < n) {
        if (b == n || (a < u->n && u->gap[a].first < gone[b]))
            append(next, u->gap[a].first, u->gap[a].count), a++;
        else
            append(next, gone[b++], 1);
    }
    free(gone);
    return GRAINS_OK;
}

void sim_uids_take(sim_uids *u, sim_uids *next)
{
    sim_uids_free(u);
    *u = *next;
    *next = (sim_uids){0};
}

void sim_uids_free(sim_uids *u)
{
    free(u->gap);
    *u = (sim_uids){0};
}

void sim_uids_write_state(const sim_uids *u, bytes_out *o)
{
    bytes_put_u64(o, u->n);
    for (size_t k = 0; k < u->n; k++) {
        bytes_put_u64(o, u->gap[k].first);
        bytes_put_u64(o, u->gap[k].count);
    }
}

grains_status sim_uids_read_state(sim_uids *u, bytes_in *in, grains_error *err)
{
    size_t n;
    sim_uids v = {0};
    if (!bytes_get_count(in, 2 * sizeof(uint64_t), SIZE_MAX, &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the removed particles' uids");
    v.cap = n + 1;
    if (!(v.gap = malloc(v.cap * sizeof *v.gap)))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the removed particles' uids");
    uint64_t end = 0; /* (the first uid a range may begin at: one past the last's, and one more) */
    for (size_t k = 0; k < n; k++) {
        uint64_t first = bytes_get_u64(in), count = bytes_get_u64(in);
        if (in->bad || count == 0 || first < end || first > (UINT64_C(1) << 63) || count > (UINT64_C(1) << 63) - first) {
            sim_uids_free(&v);
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the removed particles' uids (range %zu)",
                                    k);
        }
        append(&v, first, count);
        end = first + count + 1;
    }
    sim_uids_free(u);
    *u = v;
    return GRAINS_OK;
}
