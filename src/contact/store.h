/* Contact history store: one entry (the springs of the run's sub-models:
 * `width` reals, at most the seven of hm_history, 56 bytes) per touching pair, kept in the order of the candidate lists, so that no list
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
#include "util/bytes.h"

#define STORE_MESH_BIT 0x80000000u  /* list entry names a mesh element */
#define STORE_HIST_BIT 0x40000000u  /* list entry has a history */
#define STORE_INDEX_MASK 0x3FFFFFFFu /* the partner or element index */
#define STORE_DEAD UINT32_MAX

/* Which pair a history belongs to, during a rebuild: particle i and partner
 * j > i, or element | STORE_MESH_BIT; i == STORE_DEAD for no pair. */
typedef struct {
    uint32_t i, j;
} store_key;

/* Where each spring lies in an entry (an offset in reals, or -1 where the
 * run's sub-models keep none), and the entry's width. The full layout, the
 * default, is hm_history's: sliding 0-2, rolling 3-5, twisting 6. */
typedef struct {
    int width;
    int us, ur, ut;
} store_layout;

#define STORE_FULL_WIDTH ((int)(sizeof(hm_history) / sizeof(real)))

/* The layout of these springs, in hm_history's order. */
store_layout store_layout_of(int sliding, int rolling, int twisting);

/* An entry's springs as a full hm_history (absent ones 0), and back. */
static inline void store_unpack(const store_layout *L, const real *e, hm_history *h)
{
    for (int k = 0; k < 3; k++) {
        h->us[k] = L->us >= 0 ? e[L->us + k] : 0;
        h->ur[k] = L->ur >= 0 ? e[L->ur + k] : 0;
    }
    h->ut = L->ut >= 0 ? e[L->ut] : 0;
}

static inline void store_pack(const store_layout *L, real *e, const hm_history *h)
{
    for (int k = 0; k < 3; k++) {
        if (L->us >= 0)
            e[L->us + k] = h->us[k];
        if (L->ur >= 0)
            e[L->ur + k] = h->ur[k];
    }
    if (L->ut >= 0)
        e[L->ut] = h->ut;
}

/* The histories of one cell block. */
typedef struct {
    size_t base, cap;  /* window [base, base + cap) of the pool, in entries */
    size_t n;          /* histories, in list order; those from cap on are in ovf */
    real *ovf;
    size_t ovf_cap;    /* in entries */
    int failed;        /* an allocation failed (reported at the next rebuild) */
} store_block;

typedef struct {
    real *c;           /* entries of layout.width reals */
    size_t n, cap;     /* the windows' extent, allocated, in entries */
    store_block *block;
    size_t n_blocks, cap_blocks;
    store_layout layout;
} contact_store;

/* Histories displaced by insertions, waiting for their turn (one per thread). */
typedef struct {
    real *e;
    size_t head, n, cap; /* in entries */
    int width;         /* of the entries it holds (set by store_open) */
} store_queue;

/* A walk through one block's histories in list order. */
typedef struct {
    store_block *blk;
    real *pool;        /* the block's window */
    size_t width;      /* reals per entry */
    size_t r, w, n_old; /* next unread old history, next place to write, old count */
    int aligned;       /* nothing inserted or dropped so far: r == w (not kept) and the queue is empty */
    size_t ovf_grown;  /* times the block's overflow has grown (and may have moved) in this walk */
    store_queue *q;
} store_stream;

/* An empty store of entries laid out as L. */
void store_init(contact_store *cs, store_layout L);
void store_free(contact_store *cs);
void store_queue_free(store_queue *q);

static inline real *store_slot(const store_stream *s, size_t k)
{
    return k < s->blk->cap ? s->pool + k * s->width : s->blk->ovf + (k - s->blk->cap) * s->width;
}

static inline void store_open(store_stream *s, contact_store *cs, uint32_t b, store_queue *q)
{
    s->blk = &cs->block[b];
    s->width = (size_t)cs->layout.width;
    s->pool = cs->c + s->blk->base * s->width;
    s->r = s->w = 0;
    s->n_old = s->blk->n;
    s->aligned = 1;
    s->ovf_grown = 0;
    s->q = q;
    q->head = q->n = 0;
    if (q->width != cs->layout.width) { /* entries of another width: start the ring afresh */
        q->width = cs->layout.width;
        q->cap = 0;
    }
}

/* Out of line: the rare paths of the stream (store.c). */
real *store_carry_moved(store_stream *s);
real *store_insert(store_stream *s);
void store_drop(store_stream *s);

/* The history of the next listed contact that continues, at its new place. */
static inline real *store_carry(store_stream *s)
{
    if (s->aligned) /* in place */
        return store_slot(s, s->w++);
    return store_carry_moved(s);
}

/* The place of the history that the last store_carry or store_insert
 * returned: store_slot(s, place) finds it again later in the walk, even
 * after the block's overflow has grown (and moved). */
static inline size_t store_last_place(const store_stream *s) { return s->w - 1; }

/* The m-th old history not yet carried or dropped (0: the next), for a
 * contact that takes over another's springs. */
static inline const real *store_peek(const store_stream *s, size_t m)
{
    if (s->aligned)
        return store_slot(s, s->w + m);
    if (m < s->q->n) {
        size_t at = s->q->head + m;
        return s->q->e + (at >= s->q->cap ? at - s->q->cap : at) * s->width;
    }
    return store_slot(s, s->r + m - s->q->n);
}

/* Ends the walk: every old history has been carried or dropped. */
static inline void store_close(store_stream *s) { s->blk->n = s->w; }

/* The k-th history of block b, in list order (between steps). */
static inline const real *store_history(const contact_store *cs, uint32_t b, size_t k)
{
    const store_block *blk = &cs->block[b];
    size_t w = (size_t)cs->layout.width;
    return k < blk->cap ? cs->c + (blk->base + k) * w : blk->ovf + (k - blk->cap) * w;
}

/* Entry k of the pool (during a rebuild). */
static inline real *store_entry(const contact_store *cs, size_t k) { return cs->c + k * (size_t)cs->layout.width; }

/* Rebuild, in this order: */
/* 1. Moves every block's histories together, in block order from the
 *    start of the pool; returns their count in *n. Fails if an allocation
 *    had failed. */
grains_status store_gather(contact_store *cs, size_t *n, grains_error *err);
/* 1'. Or, instead of the gathering: drops every block and makes room for
 *    n at the start of the pool (store_entry 0 .. n - 1, to be written by the caller;
 *    what they held is kept, so that it also cuts a compacted pool to its n). */
grains_status store_load(contact_store *cs, size_t n, grains_error *err);
/* 2. Squeezes out the histories whose key is dead (both arrays together). */
void store_compact(contact_store *cs, store_key *keys, size_t *n);
/* 3. Renames the keys when particle i moves to where[i], keeping i < j for
 *    pairs. A pair seen from the other side has its sliding spring reversed
 *    (v_s is odd under i <-> j, v_r and v_t are even), and its rolling one
 *    where it holds the relative rotation (odd_rolling: the rolling model's trait, contact/rolling.h). */
void store_remap(contact_store *cs, store_key *keys, size_t n, const uint32_t *where, int odd_rolling,
                 int nthreads);
/* 3'. The same for keys[k] and entry k of `entries` (layout L), outside
 *    the pool; NULL entries: the keys alone. */
void store_rename(store_key *keys, size_t n, const uint32_t *where, const store_layout *L, real *entries,
                  int odd_rolling, int nthreads);
/* 4. New windows for `n_blocks` cell blocks: live[b] histories and room
 *    for pending[b] contacts (pairs that touch already but have none yet)
 *    and a margin; the histories are not moved yet. */
grains_status store_windows(contact_store *cs, const uint32_t *pending, const uint32_t *live, size_t n_blocks,
                            grains_error *err);
/* 5. Moves history k (of n) to the place keys[k].j of the new windows
 *    (distinct places); a history whose keys[k].i is STORE_DEAD is dropped.
 *    Consumes the keys. */
void store_permute(contact_store *cs, store_key *keys, size_t n);

/* Block b's histories replaced by the n entries at e, in list order (a
 * rank's copy of a block that another rank owns, decomp/ranks.c); between
 * steps. */
grains_status store_block_set(contact_store *cs, uint32_t b, const real *e, size_t n, grains_error *err);

/* Every block's histories in list order (checkpoints), and back into
 * fresh windows of n_blocks blocks; an error (no file name) when the
 * entries are not of this store's layout or not finite. */
void store_write_state(const contact_store *cs, bytes_out *o);
grains_status store_read_state(contact_store *cs, bytes_in *in, size_t n_blocks, grains_error *err);
/* Or in two parts, for a reader that keeps some (ranks holding their own
 * alone, on resume): each block's count and whether it failed, without
 * room for the histories, which it passes over (*springs); */
grains_status store_read_counts(contact_store *cs, bytes_in *in, size_t n_blocks, bytes_span *springs,
                                grains_error *err);
/* then the n histories, by each reader of the slicing's (ranks), a
 * window at a time: those of its slice (bytes_slice), every one checked
 * (*found),
 * and the others that hold one kept; those whose key is live (not
 * STORE_DEAD) copied into kept, in their order (each to be freed:
 * store_free). The readers' findings, gathered in reader order, give the
 * histories' CRC and the error of one reader reading them all
 * (store_slice_error: GRAINS_OK when none failed). It fails alone when
 * memory does. */
#define STORE_READ_WINDOW 4096 /* histories read at a time */

typedef struct {
    uint32_t crc; /* of its slice */
    uint32_t why; /* how it failed; 0: it did not */
} store_slice;

grains_status store_read_slice(const contact_store *cs, const bytes_in *in, const bytes_span *springs, size_t n,
                               const store_key *keys, real *kept, const bytes_slicing *sl, store_slice *found,
                               grains_error *err);
grains_status store_springs_crc(const contact_store *cs, const store_slice *found, const bytes_slicing *sl, size_t n,
                                uint32_t *crc, grains_error *err);
grains_status store_slice_error(const store_slice *found, int readers, grains_error *err);

#endif
