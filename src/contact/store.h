/* Contact history store: one entry per touching pair, keyed by the stable
 * particle ids (i, j) or (i, element | STORE_MESH_BIT), so histories persist
 * for the whole life of a contact across neighbour-list rebuilds.
 *
 * Race policy (written once, here): between rebuilds each thread takes new
 * entries only from its own spare range, so the force loop needs no atomics
 * or locks. A thread whose range runs out writes to its own overflow array
 * and asks for a rebuild before the next step; nobody else reads that array
 * before the rebuild merges it. Where an entry lands depends on the thread,
 * its values never do, so results are the same for any thread count.
 * A thread that ends a contact keeps its entry on its own free list and
 * reuses it for the next contact it starts; dead entries left at the next
 * rebuild are squeezed out there. */
#ifndef GRAINS_CONTACT_STORE_H
#define GRAINS_CONTACT_STORE_H

#include <stdint.h>

#include "contact/hertz_mindlin.h"
#include "grains/error.h"

#define STORE_NONE (-1)
#define STORE_DEAD UINT32_MAX
#define STORE_MESH_BIT 0x80000000u

/* 64 bytes: an 8-byte key and seven doubles of springs. */
typedef struct {
    uint32_t i, j;     /* particle i and partner (particle j > i, or element | STORE_MESH_BIT) */
    hm_history h;
} grains_contact;

typedef struct {
    grains_contact *c;
    size_t n, cap;         /* entries in use (live or dead), allocated */
    int nthreads;
    size_t *next, *end;    /* per thread: spare range [next, end) */
    size_t *free_head;     /* per thread: first reusable entry (chained through j), or SIZE_MAX */
    grains_contact **ovf;  /* per thread: overflow entries */
    size_t *ovf_n, *ovf_cap;
    int *ovf_failed;       /* per thread: overflow allocation failed */
} contact_store;

grains_status store_init(contact_store *cs, int nthreads, grains_error *err);
void store_free(contact_store *cs);

/* A fresh zeroed entry for (i, j) taken by thread `tid`; returns its handle,
 * or STORE_NONE if memory ran out (flagged for the next rebuild). */
int32_t store_new(contact_store *cs, int tid, uint32_t i, uint32_t j);

/* History of handle h (a pool index, or an overflow entry when negative). */
/* Ends the contact with handle h, ended by thread `tid`. */
void store_release(contact_store *cs, int tid, int32_t h);

static inline grains_contact *store_get(contact_store *cs, int32_t h)
{
    if (h >= 0)
        return &cs->c[h];
    uint32_t k = (uint32_t)(-2 - h);
    return &cs->ovf[k % (uint32_t)cs->nthreads][k / (uint32_t)cs->nthreads];
}

/* Whether some thread used its overflow array since the last rebuild. */
int store_overflowed(const contact_store *cs);

/* At rebuild: merges overflow entries, squeezes out dead ones. */
grains_status store_compact(contact_store *cs, grains_error *err);

/* At rebuild, after store_compact, when particle i moves to where[i]:
 * renames the keys, keeping i < j for pairs. A pair seen from the other
 * side has its sliding spring reversed (v_s is odd under i <-> j, v_r and
 * v_t are even). */
void store_remap(contact_store *cs, const uint32_t *where, int nthreads);

/* At rebuild, after the entries are mapped to the new lists: hands each
 * thread a spare range for the contacts that begin before the next rebuild,
 * sized from `touching`, the pairs that overlap already. */
grains_status store_reserve_spare(contact_store *cs, size_t touching, grains_error *err);

#endif
