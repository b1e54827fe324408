/* Contact history store: one entry (the seven springs, 56 bytes) per
 * touching pair, kept in the order of the candidate lists, so that no list
 * entry needs a handle: an entry whose STORE_HIST_BIT is set owns the next
 * history in its cell block's sequence. Histories persist for the whole
 * life of a contact, across rebuilds and re-sorting.
 *
 * Each cell block owns a window of the pool: its histories in list order,
 * then spare room; entries past the window continue in the block's own
 * overflow array. The force loop walks a block's lists in order and its
 * histories with them (a stream, store_stream): a continuing contact's
 * history is carried to the next place, a new one inserted there, an ended
 * one dropped. Insertions displace unread histories into a small per-thread
 * queue until their turn. One thread has a block for a whole colour phase,
 * so nothing is shared: no atomics or locks, and nothing depends on the
 * thread count; in particular no rebuild is ever forced by it, so rebuilds
 * (which re-sort the particles and with them the order of the force sums)
 * come at the same steps for any thread count.
 *
 * At a rebuild the histories are named by keys read off the old lists,
 * renamed after the particles' move, and put in the order of the new lists
 * (sim/rebuild.c). */
#ifndef GRAINS_CONTACT_STORE_H
#define GRAINS_CONTACT_STORE_H

#include <stdint.h>

#include "contact/hertz_mindlin.h"
#include "grains/error.h"

#define STORE_MESH_BIT 0x80000000u  /* list entry names a mesh element */
#define STORE_HIST_BIT 0x40000000u  /* list entry has a history */
#define STORE_INDEX_MASK 0x3FFFFFFFu /* the partner or element index */
#define STORE_DEAD UINT32_MAX

/* Which pair a history belongs to, during a rebuild: particle i and partner
 * j > i, or element | STORE_MESH_BIT; i == STORE_DEAD for no pair. */
typedef struct {
    uint32_t i, j;
} store_key;

/* The histories of one cell block. */
typedef struct {
    size_t base, cap;  /* window [base, base + cap) of the pool */
    size_t n;          /* histories, in list order; those from cap on are in ovf */
    hm_history *ovf;
    size_t ovf_cap;
    int failed;        /* an allocation failed (reported at the next rebuild) */
} store_block;

typedef struct {
    hm_history *c;
    size_t n, cap;     /* the windows' extent, allocated */
    store_block *block;
    size_t n_blocks, cap_blocks;
} contact_store;

/* Histories displaced by insertions, waiting for their turn (one per thread). */
typedef struct {
    hm_history *e;
    size_t head, n, cap;
} store_queue;

/* A walk through one block's histories in list order. */
typedef struct {
    store_block *blk;
    hm_history *pool;  /* the block's window */
    size_t r, w, n_old; /* next unread old history, next place to write, old count */
    int aligned;       /* nothing inserted or dropped so far: r == w (not kept) and the queue is empty */
    store_queue *q;
} store_stream;

void store_init(contact_store *cs);
void store_free(contact_store *cs);
void store_queue_free(store_queue *q);

static inline hm_history *store_slot(const store_stream *s, size_t k)
{
    return k < s->blk->cap ? &s->pool[k] : &s->blk->ovf[k - s->blk->cap];
}

static inline void store_open(store_stream *s, contact_store *cs, uint32_t b, store_queue *q)
{
    s->blk = &cs->block[b];
    s->pool = cs->c + s->blk->base;
    s->r = s->w = 0;
    s->n_old = s->blk->n;
    s->aligned = 1;
    s->q = q;
    q->head = q->n = 0;
}

/* Out of line: the rare paths of the stream (store.c). */
hm_history *store_carry_moved(store_stream *s);
hm_history *store_insert(store_stream *s);
void store_drop(store_stream *s);

/* The history of the next listed contact that continues, at its new place. */
static inline hm_history *store_carry(store_stream *s)
{
    if (s->aligned) /* in place */
        return store_slot(s, s->w++);
    return store_carry_moved(s);
}

/* The m-th old history not yet carried or dropped (0: the next), for a
 * contact that takes over another's springs. */
static inline const hm_history *store_peek(const store_stream *s, size_t m)
{
    if (s->aligned)
        return store_slot(s, s->w + m);
    if (m < s->q->n) {
        size_t at = s->q->head + m;
        return &s->q->e[at >= s->q->cap ? at - s->q->cap : at];
    }
    return store_slot(s, s->r + m - s->q->n);
}

/* Ends the walk: every old history has been carried or dropped. */
static inline void store_close(store_stream *s) { s->blk->n = s->w; }

/* The k-th history of block b, in list order (between steps). */
static inline const hm_history *store_history(const contact_store *cs, uint32_t b, size_t k)
{
    const store_block *blk = &cs->block[b];
    return k < blk->cap ? &cs->c[blk->base + k] : &blk->ovf[k - blk->cap];
}

/* Rebuild, in this order: */
/* 1. Moves every block's histories together, in block order from the
 *    start of the pool; returns their count in *n. Fails if an allocation
 *    had failed. */
grains_status store_gather(contact_store *cs, size_t *n, grains_error *err);
/* 1'. Or, instead of the gathering: drops every history and makes room for
 *    n at the start of the pool (cs->c[0 .. n), to be written by the caller). */
grains_status store_load(contact_store *cs, size_t n, grains_error *err);
/* 2. Squeezes out the histories whose key is dead (both arrays together). */
void store_compact(contact_store *cs, store_key *keys, size_t *n);
/* 3. Renames the keys when particle i moves to where[i], keeping i < j for
 *    pairs. A pair seen from the other side has its sliding spring reversed
 *    (v_s is odd under i <-> j, v_r and v_t are even), and its rolling one
 *    where it holds the relative rotation (odd_rolling: rolling type C). */
void store_remap(contact_store *cs, store_key *keys, size_t n, const uint32_t *where, int odd_rolling,
                 int nthreads);
/* 4. New windows for `n_blocks` cell blocks: live[b] histories and room
 *    for pending[b] contacts (pairs that touch already but have none yet)
 *    and a margin; the histories are not moved yet. */
grains_status store_windows(contact_store *cs, const uint32_t *pending, const uint32_t *live, size_t n_blocks,
                            grains_error *err);
/* 5. Moves history k (of n) to the place keys[k].j of the new windows
 *    (distinct places); a history whose keys[k].i is STORE_DEAD is dropped.
 *    Consumes the keys. */
void store_permute(contact_store *cs, store_key *keys, size_t n);

#endif
