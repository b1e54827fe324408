/* Contact history store: per-thread spare ranges, overflow, compaction. */
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
    cs->ovf = calloc(T, sizeof *cs->ovf);
    cs->ovf_n = calloc(T, sizeof *cs->ovf_n);
    cs->ovf_cap = calloc(T, sizeof *cs->ovf_cap);
    cs->ovf_failed = calloc(T, sizeof *cs->ovf_failed);
    cs->free_head = malloc(T * sizeof *cs->free_head);
    if (!cs->next || !cs->end || !cs->ovf || !cs->ovf_n || !cs->ovf_cap || !cs->ovf_failed || !cs->free_head) {
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
    free(cs->ovf);
    free(cs->ovf_n);
    free(cs->ovf_cap);
    free(cs->ovf_failed);
    free(cs->free_head);
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
        grains_contact *p = realloc(cs->ovf[tid], cap * sizeof *p);
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

int32_t store_new(contact_store *cs, int tid, uint32_t i, uint32_t j)
{
    int32_t h;
    if (cs->free_head[tid] != SIZE_MAX) {
        h = (int32_t)cs->free_head[tid];
        uint32_t next = cs->c[h].j;
        cs->free_head[tid] = next == STORE_DEAD ? SIZE_MAX : next;
    } else if (cs->next[tid] < cs->end[tid])
        h = (int32_t)cs->next[tid]++;
    else if ((h = overflow_new(cs, tid)) == STORE_NONE)
        return STORE_NONE;
    grains_contact *c = store_get(cs, h);
    memset(c, 0, sizeof *c);
    c->i = i;
    c->j = j;
    return h;
}

void store_release(contact_store *cs, int tid, int32_t h)
{
    grains_contact *c = store_get(cs, h);
    c->i = STORE_DEAD;
    if (h < 0)
        return; /* overflow entries go at the next rebuild */
    c->j = cs->free_head[tid] == SIZE_MAX ? STORE_DEAD : (uint32_t)cs->free_head[tid];
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
    grains_contact *p = realloc(cs->c, cap * sizeof *p);
    if (!p)
        return 0;
    cs->c = p;
    cs->cap = cap;
    return 1;
}

grains_status store_compact(contact_store *cs, grains_error *err)
{
    for (int t = 0; t < cs->nthreads; t++)
        if (cs->ovf_failed[t])
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    /* Unused spare entries are dead too. */
    for (int t = 0; t < cs->nthreads; t++)
        for (size_t k = cs->next[t]; k < cs->end[t]; k++)
            cs->c[k].i = STORE_DEAD;
    size_t live = 0;
    for (size_t k = 0; k < cs->n; k++)
        if (cs->c[k].i != STORE_DEAD)
            cs->c[live++] = cs->c[k]; /* in place: live <= k */
    size_t extra = 0;
    for (int t = 0; t < cs->nthreads; t++)
        extra += cs->ovf_n[t];
    if (live + extra >= STORE_LIMIT || !reserve(cs, live + extra))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories",
                                live + extra);
    for (int t = 0; t < cs->nthreads; t++) {
        for (size_t k = 0; k < cs->ovf_n[t]; k++)
            if (cs->ovf[t][k].i != STORE_DEAD)
                cs->c[live++] = cs->ovf[t][k];
        free(cs->ovf[t]); /* overflow is rare: do not keep its memory */
        cs->ovf[t] = NULL;
        cs->ovf_n[t] = cs->ovf_cap[t] = 0;
        cs->next[t] = cs->end[t] = 0;
        cs->free_head[t] = SIZE_MAX;
    }
    cs->n = live;
    return GRAINS_OK;
}

grains_status store_reserve_spare(contact_store *cs, size_t touching, grains_error *err)
{
    size_t T = (size_t)cs->nthreads;
    /* The pairs that touch already but have no entry yet (all of them at the
     * first rebuild), plus ~1.5% for uneven shares between threads and for
     * the contacts that begin before the next rebuild. A thread that needs
     * more overflows into its own array and forces a rebuild. */
    size_t pending = touching > cs->n ? touching - cs->n : 0;
    size_t per_thread = (pending + (pending + cs->n) / 64) / T + 256;
    if (cs->n + per_thread * T >= STORE_LIMIT || !reserve(cs, cs->n + per_thread * T))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    for (size_t t = 0; t < T; t++) {
        cs->next[t] = cs->n + t * per_thread;
        cs->end[t] = cs->next[t] + per_thread;
    }
    cs->n += per_thread * T;
    return GRAINS_OK;
}

void store_remap(contact_store *cs, const uint32_t *where, int nthreads)
{
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (size_t k = 0; k < cs->n; k++) {
        grains_contact *c = &cs->c[k];
        if (c->i == STORE_DEAD)
            continue;
        uint32_t i = where[c->i];
        if (c->j & STORE_MESH_BIT) {
            c->i = i;
            continue;
        }
        uint32_t j = where[c->j];
        if (i < j) {
            c->i = i, c->j = j;
        } else {
            c->i = j, c->j = i;
            for (int a = 0; a < 3; a++)
                c->h.us[a] = -c->h.us[a];
        }
    }
}
