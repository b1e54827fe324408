/* Contact history store: per-block free lists, spare ranges and overflow;
 * compaction and renaming at rebuilds. */
#include "contact/store.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#define STORE_LIMIT 0x70000000u /* handles are int32 */

void store_init(contact_store *cs) { memset(cs, 0, sizeof *cs); }

static void drop_overflow(contact_store *cs)
{
    for (size_t b = 0; b < cs->n_blocks; b++) {
        free(cs->block[b].ovf); /* overflow is rare: do not keep its memory */
        cs->block[b].ovf = NULL;
        cs->block[b].ovf_n = cs->block[b].ovf_cap = 0;
    }
}

void store_free(contact_store *cs)
{
    drop_overflow(cs);
    free(cs->c);
    free(cs->block);
    memset(cs, 0, sizeof *cs);
}

/* Grows block b's overflow array; only the thread processing b runs this. */
static int32_t overflow_new(contact_store *cs, uint32_t b)
{
    store_block *blk = &cs->block[b];
    size_t k = blk->ovf_n;
    if ((k + 1) * cs->n_blocks >= STORE_LIMIT) {
        cs->failed = 1;
        return STORE_NONE;
    }
    if (!array_reserve((void **)&blk->ovf, &blk->ovf_cap, k + 1, sizeof *blk->ovf, 1)) {
        cs->failed = 1;
        return STORE_NONE;
    }
    blk->ovf_n = k + 1;
    return (int32_t)(-2 - (int64_t)(k * cs->n_blocks + b));
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

int32_t store_new(contact_store *cs, uint32_t b)
{
    if (b >= cs->n_blocks)
        return STORE_NONE;
    store_block *blk = &cs->block[b];
    int32_t h;
    if (blk->free_head != SIZE_MAX) {
        h = (int32_t)blk->free_head;
        blk->free_head = free_link(&cs->c[h]);
    } else if (blk->next < blk->end) {
        h = (int32_t)blk->next++;
    } else if ((h = overflow_new(cs, b)) == STORE_NONE) {
        return STORE_NONE;
    }
    memset(store_get(cs, h), 0, sizeof(hm_history));
    return h;
}

void store_release(contact_store *cs, uint32_t b, int32_t h)
{
    if (h < 0 || b >= cs->n_blocks)
        return; /* overflow entries go at the next rebuild */
    set_free_link(&cs->c[h], cs->block[b].free_head);
    cs->block[b].free_head = (size_t)h;
}

/* Exact size: the spare ranges are the slack. Shrinks when more than an
 * eighth would stand empty (after a burst of contacts has ended). */
static int reserve(contact_store *cs, size_t need)
{
    if (need <= cs->cap && need >= cs->cap - cs->cap / 8)
        return 1;
    if (!array_resize((void **)&cs->c, need, sizeof *cs->c))
        return 0;
    cs->cap = need;
    return 1;
}

grains_status store_merge_overflow(contact_store *cs, grains_error *err)
{
    if (cs->failed)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    size_t extra = 0;
    for (size_t b = 0; b < cs->n_blocks; b++) {
        cs->block[b].ovf_base = cs->n + extra;
        extra += cs->block[b].ovf_n;
    }
    if (!extra)
        return GRAINS_OK;
    if (cs->n + extra >= STORE_LIMIT || (cs->n + extra > cs->cap && !reserve(cs, cs->n + extra)))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories",
                                cs->n + extra);
    for (size_t b = 0; b < cs->n_blocks; b++)
        if (cs->block[b].ovf_n)
            memcpy(&cs->c[cs->block[b].ovf_base], cs->block[b].ovf, cs->block[b].ovf_n * sizeof *cs->c);
    cs->n += extra;
    return GRAINS_OK;
}

int32_t store_merged_handle(const contact_store *cs, int32_t h)
{
    if (h >= 0)
        return h;
    uint32_t k = (uint32_t)(-2 - h), nb = (uint32_t)cs->n_blocks;
    return (int32_t)(cs->block[k % nb].ovf_base + k / nb);
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
    drop_overflow(cs);
    cs->n_blocks = 0; /* the spare ranges are gone with the squeeze */
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

static int reserve_blocks(contact_store *cs, size_t n_blocks)
{
    return array_reserve((void **)&cs->block, &cs->cap_blocks, n_blocks, sizeof *cs->block, 4);
}

grains_status store_reserve_spare(contact_store *cs, const uint32_t *pending, const uint32_t *live,
                                  size_t n_blocks, grains_error *err)
{
    if (!reserve_blocks(cs, n_blocks))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    /* Each block: its pending contacts, plus 1/64 of all its contacts and
     * one more for those that begin before the next rebuild (ended
     * contacts' entries are reused; beyond that, the overflow array). */
    size_t total = cs->n;
    for (size_t b = 0; b < n_blocks; b++) {
        store_block *blk = &cs->block[b];
        blk->next = total;
        total += pending[b] + (pending[b] + live[b]) / 64 + 1;
        blk->end = total;
        blk->free_head = SIZE_MAX;
        blk->ovf = NULL;
        blk->ovf_n = blk->ovf_cap = blk->ovf_base = 0;
    }
    if (total >= STORE_LIMIT || !reserve(cs, total))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    cs->n = total;
    cs->n_blocks = n_blocks;
    return GRAINS_OK;
}
