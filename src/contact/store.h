/* Contact history store: one entry (the seven springs, 56 bytes) per
 * touching pair, reached only through the handle held by the pair's entry in
 * the neighbour lists, so histories persist for the whole life of a contact.
 *
 * Race policy (written once, here): between rebuilds each thread takes new
 * entries only from its own free list (entries of contacts it ended) or its
 * own spare range, so the force loop needs no atomics or locks. A thread
 * whose range runs out writes to its own overflow array and asks for a
 * rebuild before the next step; nobody else reads that array before the
 * rebuild merges it. Where an entry lands depends on the thread, its values
 * never do, so results are the same for any thread count.
 *
 * At a rebuild the entries are named by keys read off the old lists
 * (store_key, kept only for the rebuild), squeezed, renamed after the
 * particles' move and re-attached to the new lists (sim/rebuild.c). */
#ifndef GRAINS_CONTACT_STORE_H
#define GRAINS_CONTACT_STORE_H

#include <stdint.h>

#include "contact/hertz_mindlin.h"
#include "grains/error.h"

#define STORE_NONE (-1)
#define STORE_DEAD UINT32_MAX
#define STORE_MESH_BIT 0x80000000u

/* Which pair an entry belongs to, during a rebuild: particle i and partner
 * j > i, or element | STORE_MESH_BIT; i == STORE_DEAD for no pair. */
typedef struct {
    uint32_t i, j;
} store_key;

typedef struct {
    hm_history *c;
    size_t n, cap;         /* entries in use (live or dead), allocated */
    int nthreads;
    size_t *next, *end;    /* per thread: spare range [next, end) */
    size_t *free_head;     /* per thread: first reusable entry, or SIZE_MAX */
    hm_history **ovf;      /* per thread: overflow entries */
    size_t *ovf_n, *ovf_cap, *ovf_base;
    int *ovf_failed;       /* per thread: overflow allocation failed */
} contact_store;

grains_status store_init(contact_store *cs, int nthreads, grains_error *err);
void store_free(contact_store *cs);

/* A fresh zeroed entry taken by thread `tid`; returns its handle, or
 * STORE_NONE if memory ran out (reported at the next rebuild). */
int32_t store_new(contact_store *cs, int tid);

/* Ends the contact with handle h; thread `tid` may reuse the entry. */
void store_release(contact_store *cs, int tid, int32_t h);

/* History of handle h (a pool index, or an overflow entry when negative). */
static inline hm_history *store_get(contact_store *cs, int32_t h)
{
    if (h >= 0)
        return &cs->c[h];
    uint32_t k = (uint32_t)(-2 - h);
    return &cs->ovf[k % (uint32_t)cs->nthreads][k / (uint32_t)cs->nthreads];
}

/* Whether some thread used its overflow array since the last rebuild. */
int store_overflowed(const contact_store *cs);

/* Rebuild, in this order: */
/* 1. Appends the overflow entries to the pool; store_merged_handle then
 *    gives each old handle's pool index. */
grains_status store_merge_overflow(contact_store *cs, grains_error *err);
int32_t store_merged_handle(const contact_store *cs, int32_t h);
/* 2. Squeezes out the entries whose key is dead (keys[k] names entry k;
 *    both arrays are compacted together) and drops the overflow arrays. */
void store_compact(contact_store *cs, store_key *keys);
/* 3. Renames the keys when particle i moves to where[i], keeping i < j for
 *    pairs. A pair seen from the other side has its sliding spring reversed
 *    (v_s is odd under i <-> j, v_r and v_t are even). */
void store_remap(contact_store *cs, store_key *keys, const uint32_t *where, int nthreads);
/* 4. Hands each thread a spare range for the contacts that begin before the
 *    next rebuild, sized from `touching`, the pairs that overlap already. */
grains_status store_reserve_spare(contact_store *cs, size_t touching, grains_error *err);

#endif
