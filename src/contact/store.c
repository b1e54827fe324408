/* Contact history store: per-thread free lists, spare ranges and overflow;
 * compaction and renaming at rebuilds. */
#include "contact/store.h"

#include <stdlib.h>
#include <string.h>

#define STORE_LIMIT 0x70000000u /* handles are int32 */

grains_status store_init(contact_store *cs, int nthreads, grains_error *err)
{
    memset(cs, 0, sizeof *cs);
    size_t T = (size_t)nthreads;
    cs->nthreads = nthreads;
    cs->next = calloc(T, sizeof *cs->next);
    cs->end = calloc(T, sizeof *cs->end);
    cs->free_head = malloc(T * sizeof *cs->free_head);
    cs->ovf = calloc(T, sizeof *cs->ovf);
    cs->ovf_n = calloc(T, sizeof *cs->ovf_n);
    cs->ovf_cap = calloc(T, sizeof *cs->ovf_cap);
    cs->ovf_base = calloc(T, sizeof *cs->ovf_base);
    cs->ovf_failed = calloc(T, sizeof *cs->ovf_failed);
    if (!cs->next || !cs->end || !cs->free_head || !cs->ovf || !cs->ovf_n || !cs->ovf_cap || !cs->ovf_base ||
        !cs->ovf_failed) {
        store_free(cs);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the contact store");
    }
    for (size_t t = 0; t < T; t++)
        cs->free_head[t] = SIZE_MAX;
    return GRAINS_OK;
}

void store_free(contact_store *cs)
{
    if (cs->ovf)
        for (int t = 0; t < cs->nthreads; t++)
            free(cs->ovf[t]);
    free(cs->c);
    free(cs->next);
    free(cs->end);
    free(cs->free_head);
    free(cs->ovf);
    free(cs->ovf_n);
    free(cs->ovf_cap);
    free(cs->ovf_base);
    free(cs->ovf_failed);
    memset(cs, 0, sizeof *cs);
}

static int32_t overflow_new(contact_store *cs, int tid)
{
    size_t k = cs->ovf_n[tid];
    if ((k + 1) * (size_t)cs->nthreads >= STORE_LIMIT) {
        cs->ovf_failed[tid] = 1;
        return STORE_NONE;
    }
    if (k == cs->ovf_cap[tid]) { /* thread-private growth, rare */
        size_t cap = k ? 2 * k : 256;
        hm_history *p = realloc(cs->ovf[tid], cap * sizeof *p);
        if (!p) {
            cs->ovf_failed[tid] = 1;
            return STORE_NONE;
        }
        cs->ovf[tid] = p;
        cs->ovf_cap[tid] = cap;
    }
    cs->ovf_n[tid] = k + 1;
    return (int32_t)(-2 - (int64_t)(k * (size_t)cs->nthreads + (size_t)tid));
}

/* A dead entry on a free list keeps the next free index in its first double. */
static size_t free_link(const hm_history *h)
{
    uint64_t next;
    memcpy(&next, &h->us[0], sizeof next);
    return (size_t)next;
}

static void set_free_link(hm_history *h, size_t next)
{
    uint64_t v = next;
    memcpy(&h->us[0], &v, sizeof v);
}

int32_t store_new(contact_store *cs, int tid)
{
    int32_t h;
    if (cs->free_head[tid] != SIZE_MAX) {
        h = (int32_t)cs->free_head[tid];
        cs->free_head[tid] = free_link(&cs->c[h]);
    } else if (cs->next[tid] < cs->end[tid]) {
        h = (int32_t)cs->next[tid]++;
    } else if ((h = overflow_new(cs, tid)) == STORE_NONE) {
        return STORE_NONE;
    }
    memset(store_get(cs, h), 0, sizeof(hm_history));
    return h;
}

void store_release(contact_store *cs, int tid, int32_t h)
{
    if (h < 0)
        return; /* overflow entries go at the next rebuild */
    set_free_link(&cs->c[h], cs->free_head[tid]);
    cs->free_head[tid] = (size_t)h;
}

int store_overflowed(const contact_store *cs)
{
    for (int t = 0; t < cs->nthreads; t++)
        if (cs->ovf_n[t] || cs->ovf_failed[t])
            return 1;
    return 0;
}

/* Exact size: the spare ranges are the slack. Shrinks when more than an
 * eighth would stand empty (after a burst of contacts has ended). */
static int reserve(contact_store *cs, size_t need)
{
    if (need <= cs->cap && need >= cs->cap - cs->cap / 8)
        return 1;
    size_t cap = need ? need : 1;
    hm_history *p = realloc(cs->c, cap * sizeof *p);
    if (!p)
        return 0;
    cs->c = p;
    cs->cap = cap;
    return 1;
}

grains_status store_merge_overflow(contact_store *cs, grains_error *err)
{
    size_t extra = 0;
    for (int t = 0; t < cs->nthreads; t++) {
        if (cs->ovf_failed[t])
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
        cs->ovf_base[t] = cs->n + extra;
        extra += cs->ovf_n[t];
    }
    if (!extra)
        return GRAINS_OK;
    if (cs->n + extra >= STORE_LIMIT || (cs->n + extra > cs->cap && !reserve(cs, cs->n + extra)))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories",
                                cs->n + extra);
    for (int t = 0; t < cs->nthreads; t++)
        memcpy(&cs->c[cs->ovf_base[t]], cs->ovf[t], cs->ovf_n[t] * sizeof *cs->c);
    cs->n += extra;
    return GRAINS_OK;
}

int32_t store_merged_handle(const contact_store *cs, int32_t h)
{
    if (h >= 0)
        return h;
    uint32_t k = (uint32_t)(-2 - h), T = (uint32_t)cs->nthreads;
    return (int32_t)(cs->ovf_base[k % T] + k / T);
}

void store_compact(contact_store *cs, store_key *keys)
{
    size_t live = 0;
    for (size_t k = 0; k < cs->n; k++)
        if (keys[k].i != STORE_DEAD) {
            cs->c[live] = cs->c[k]; /* in place: live <= k */
            keys[live++] = keys[k];
        }
    cs->n = live;
    for (int t = 0; t < cs->nthreads; t++) {
        free(cs->ovf[t]); /* overflow is rare: do not keep its memory */
        cs->ovf[t] = NULL;
        cs->ovf_n[t] = cs->ovf_cap[t] = 0;
        cs->next[t] = cs->end[t] = 0;
        cs->free_head[t] = SIZE_MAX;
    }
}

void store_remap(contact_store *cs, store_key *keys, const uint32_t *where, int nthreads)
{
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (size_t k = 0; k < cs->n; k++) {
        store_key *key = &keys[k];
        uint32_t i = where[key->i];
        if (key->j & STORE_MESH_BIT) {
            key->i = i;
            continue;
        }
        uint32_t j = where[key->j];
        if (i < j) {
            key->i = i, key->j = j;
        } else {
            key->i = j, key->j = i;
            for (int a = 0; a < 3; a++)
                cs->c[k].us[a] = -cs->c[k].us[a];
        }
    }
}

grains_status store_reserve_spare(contact_store *cs, size_t touching, grains_error *err)
{
    size_t T = (size_t)cs->nthreads;
    /* The pairs that touch already but have no entry yet (all of them at the
     * first rebuild) with 1.5% for uneven shares between threads, plus 0.8%
     * of the live contacts for those that begin before the next rebuild
     * (ended contacts' entries are reused too). A thread that needs more
     * overflows into its own array and forces a rebuild. */
    size_t pending = touching > cs->n ? touching - cs->n : 0;
    size_t per_thread = (pending + pending / 64 + cs->n / 128) / T + 256;
    if (cs->n + per_thread * T >= STORE_LIMIT || !reserve(cs, cs->n + per_thread * T))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    for (size_t t = 0; t < T; t++) {
        cs->next[t] = cs->n + t * per_thread;
        cs->end[t] = cs->next[t] + per_thread;
    }
    cs->n += per_thread * T;
    return GRAINS_OK;
}
