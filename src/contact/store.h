/* Contact history store: one entry (the seven springs, 56 bytes) per
 * touching pair, reached only through the handle held by the pair's entry in
 * the neighbour lists, so histories persist for the whole life of a contact.
 *
 * Race policy (written once, here): between rebuilds every pair is evaluated
 * while its particle i's cell block is processed, and one thread has a
 * block for a whole colour phase. So all allocation state lives with the
 * blocks: a new entry comes from the block's free list (entries of contacts
 * that ended in it), then from its spare range (sized from the block's
 * pairs that already touch but have no entry yet), then from its overflow
 * array, which grows as needed and is merged at the next rebuild. No atomics
 * or locks, and nothing in it depends on the threads: in particular no
 * rebuild is ever forced by it, so rebuilds (which re-sort the particles
 * and with them the order of the force sums) come at the same steps for any
 * thread count.
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

/* Allocation state of one cell block. */
typedef struct {
    size_t next, end;      /* spare range [next, end) */
    size_t free_head;      /* first reusable entry, or SIZE_MAX */
    hm_history *ovf;       /* overflow entries */
    size_t ovf_n, ovf_cap, ovf_base;
} store_block;

typedef struct {
    hm_history *c;
    size_t n, cap;         /* entries in use (live or dead), allocated */
    store_block *block;
    size_t n_blocks, cap_blocks;
    int failed;            /* an overflow allocation failed (reported at the next rebuild) */
} contact_store;

void store_init(contact_store *cs);
void store_free(contact_store *cs);

/* A fresh zeroed entry for a contact starting in cell block `b`; returns its
 * handle, or STORE_NONE if memory ran out. */
int32_t store_new(contact_store *cs, uint32_t b);

/* Ends the contact with handle h in cell block `b`, which may reuse the entry. */
void store_release(contact_store *cs, uint32_t b, int32_t h);

/* History of handle h (a pool index, or an overflow entry when negative). */
static inline hm_history *store_get(contact_store *cs, int32_t h)
{
    if (h >= 0)
        return &cs->c[h];
    uint32_t k = (uint32_t)(-2 - h), nb = (uint32_t)cs->n_blocks;
    return &cs->block[k % nb].ovf[k / nb];
}

/* Rebuild, in this order: */
/* 1. Appends the overflow entries to the pool; store_merged_handle then
 *    gives each old handle's pool index. Fails if an allocation had failed. */
grains_status store_merge_overflow(contact_store *cs, grains_error *err);
int32_t store_merged_handle(const contact_store *cs, int32_t h);
/* 2. Squeezes out the entries whose key is dead (keys[k] names entry k;
 *    both arrays are compacted together) and drops the overflow arrays. */
void store_compact(contact_store *cs, store_key *keys);
/* 3. Renames the keys when particle i moves to where[i], keeping i < j for
 *    pairs. A pair seen from the other side has its sliding spring reversed
 *    (v_s is odd under i <-> j, v_r and v_t are even). */
void store_remap(contact_store *cs, store_key *keys, const uint32_t *where, int nthreads);
/* 4. Hands each of `n_blocks` cell blocks a spare range for the contacts
 *    that begin in it before the next rebuild: pending[b] entries (pairs
 *    that touch already but have no entry yet) and a margin from live[b]
 *    (its pairs that have one). */
grains_status store_reserve_spare(contact_store *cs, const uint32_t *pending, const uint32_t *live,
                                  size_t n_blocks, grains_error *err);

#endif
