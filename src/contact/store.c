/* Contact history store: the streams' rare paths, and the rebuild's
 * gathering, renaming and re-ordering of the histories. */
#include "contact/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#define STORE_LIMIT 0xF0000000u /* places are named by uint32 during a rebuild */
#define STORE_PLACED (STORE_DEAD - 1)

store_layout store_layout_of(int sliding, int rolling, int twisting)
{
    store_layout L = {0, -1, -1, -1};
    if (sliding)
        L.us = L.width, L.width += 3;
    if (rolling)
        L.ur = L.width, L.width += 3;
    if (twisting)
        L.ut = L.width, L.width += 1;
    if (L.width == 0) /* no springs: an entry still marks a contact (one real, unused) */
        L.width = 1;
    return L;
}

void store_init(contact_store *cs, store_layout L)
{
    memset(cs, 0, sizeof *cs);
    cs->layout = L;
}

/* Bytes of n entries. */
static size_t entry_bytes(const contact_store *cs, size_t n) { return n * (size_t)cs->layout.width * sizeof(real); }

static void drop_overflow(contact_store *cs)
{
    for (size_t b = 0; b < cs->n_blocks; b++) {
        free(cs->block[b].ovf); /* overflow is rare: do not keep its memory */
        cs->block[b].ovf = NULL;
        cs->block[b].ovf_cap = 0;
    }
}

void store_free(contact_store *cs)
{
    drop_overflow(cs);
    free(cs->c);
    free(cs->block);
    store_layout L = cs->layout;
    memset(cs, 0, sizeof *cs);
    cs->layout = L;
}

void store_queue_free(store_queue *q)
{
    free(q->e);
    memset(q, 0, sizeof *q);
}

/* The queue is a ring: carrying pops one and may push one, never growing it. */
static void queue_pop(store_queue *q, real *out)
{
    size_t w = (size_t)q->width;
    if (out)
        memcpy(out, q->e + q->head * w, w * sizeof *out);
    q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
    q->n--;
}

static void queue_push_unchecked(store_queue *q, const real *h)
{
    size_t at = q->head + q->n, w = (size_t)q->width;
    memcpy(q->e + (at >= q->cap ? at - q->cap : at) * w, h, w * sizeof *h);
    q->n++;
}

static int queue_push(store_queue *q, const real *h)
{
    if (q->n == q->cap) {
        size_t ncap = 2 * q->cap + 16, w = (size_t)q->width;
        real *e = malloc(ncap * w * sizeof *e);
        if (!e)
            return 0;
        for (size_t k = 0; k < q->n; k++) /* unwrap */
            memcpy(e + k * w, q->e + (q->head + k) % q->cap * w, w * sizeof *e);
        free(q->e);
        q->e = e;
        q->cap = ncap;
        q->head = 0;
    }
    queue_push_unchecked(q, h);
    return 1;
}

/* Unread old histories: in the queue, then from r on in the window. */
static size_t unread(const store_stream *s) { return s->q->n + (s->r < s->n_old ? s->n_old - s->r : 0); }

/* Place w is about to be written: an unread history there joins the queue. */
static int free_place(store_stream *s, int may_grow)
{
    if (s->w != s->r || s->r >= s->n_old)
        return 1;
    const real *h = store_slot(s, s->r);
    if (may_grow) {
        if (!queue_push(s->q, h))
            return 0;
    } else {
        queue_push_unchecked(s->q, h); /* one was just popped */
    }
    s->r++;
    return 1;
}

/* Leaves the aligned state: r is kept from now on. */
static void unalign(store_stream *s)
{
    if (s->aligned) {
        s->r = s->w;
        s->aligned = 0;
    }
}

/* Back to the fast path once the insertions and drops have evened out. */
static void realign(store_stream *s) { s->aligned = s->q->n == 0 && s->r == s->w; }

real *store_carry_moved(store_stream *s)
{
    real old[STORE_FULL_WIDTH];
    if (s->q->n) {
        queue_pop(s->q, old);
        free_place(s, 0);
    } else {
        memcpy(old, store_slot(s, s->r++), s->width * sizeof *old); /* w < r: place w was read already */
    }
    real *h = store_slot(s, s->w++);
    memcpy(h, old, s->width * sizeof *old);
    realign(s);
    return h;
}

/* Room for `need` histories in the window and the overflow array. Sized
 * at each insertion for every history still to be placed, so that carrying
 * never needs to grow it. */
static int reserve_places(store_stream *s, size_t need)
{
    store_block *blk = s->blk;
    if (need <= blk->cap)
        return 1;
    if (need - blk->cap > blk->ovf_cap)
        s->ovf_grown++; /* the overflow may move: slots taken before are found again by place */
    return array_reserve((void **)&blk->ovf, &blk->ovf_cap, need - blk->cap, s->width * sizeof *blk->ovf, 1);
}

real *store_insert(store_stream *s)
{
    unalign(s);
    if (!reserve_places(s, s->w + unread(s) + 1) || !free_place(s, 1)) {
        s->blk->failed = 1;
        return NULL;
    }
    real *h = store_slot(s, s->w++);
    memset(h, 0, s->width * sizeof *h);
    realign(s);
    return h;
}

void store_drop(store_stream *s)
{
    unalign(s);
    if (s->q->n)
        queue_pop(s->q, NULL);
    else
        s->r++;
    realign(s);
}

/* Exact size: the windows' spare room is the slack. Shrinks when more than
 * an eighth would stand empty (after a burst of contacts has ended). */
static int reserve(contact_store *cs, size_t need)
{
    if (need <= cs->cap && need >= cs->cap - cs->cap / 8)
        return 1;
    if (!array_resize((void **)&cs->c, need, entry_bytes(cs, 1)))
        return 0;
    cs->cap = need;
    return 1;
}

/* Block b's window part to place `to` (its overflow part follows later). */
static void move_window(contact_store *cs, size_t b, size_t to)
{
    const store_block *blk = &cs->block[b];
    size_t k = blk->n < blk->cap ? blk->n : blk->cap;
    if (to != blk->base && k)
        memmove(store_entry(cs, to), store_entry(cs, blk->base), entry_bytes(cs, k));
}

grains_status store_gather(contact_store *cs, size_t *n, grains_error *err)
{
    size_t total = 0;
    for (size_t b = 0; b < cs->n_blocks; b++) {
        if (cs->block[b].failed)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
        total += cs->block[b].n;
    }
    if (total > cs->cap && !reserve(cs, total))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories", total);
    /* Windows stay in order, so those moving down can go first to last and
     * those moving up last to first without overwriting one not yet moved;
     * the overflow parts, from their own arrays, fill in after. */
    size_t to = 0;
    for (size_t b = 0; b < cs->n_blocks; b++) {
        if (to <= cs->block[b].base)
            move_window(cs, b, to);
        to += cs->block[b].n;
    }
    for (size_t b = cs->n_blocks; b-- > 0;) {
        to -= cs->block[b].n;
        if (to > cs->block[b].base)
            move_window(cs, b, to);
    }
    for (size_t b = 0; b < cs->n_blocks; b++) {
        const store_block *blk = &cs->block[b];
        if (blk->n > blk->cap)
            memcpy(store_entry(cs, to + blk->cap), blk->ovf, entry_bytes(cs, blk->n - blk->cap));
        to += blk->n;
    }
    drop_overflow(cs);
    cs->n_blocks = 0; /* the windows are gone with the gathering */
    cs->n = total;
    *n = total;
    return GRAINS_OK;
}

grains_status store_load(contact_store *cs, size_t n, grains_error *err)
{
    if (n >= STORE_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0,
                                "%zu contact histories: more than the %zu a store holds",
                                n, (size_t)STORE_LIMIT);
    if (!reserve(cs, n ? n : 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories", n);
    drop_overflow(cs);
    cs->n_blocks = 0;
    cs->n = n;
    return GRAINS_OK;
}

void store_compact(contact_store *cs, store_key *keys, size_t *n)
{
    size_t live = 0;
    for (size_t k = 0; k < *n; k++)
        if (keys[k].i != STORE_DEAD) {
            if (live != k) /* in place: live <= k */
                memcpy(store_entry(cs, live), store_entry(cs, k), entry_bytes(cs, 1));
            keys[live++] = keys[k];
        }
    *n = live;
}

void store_rename(store_key *keys, size_t n, const uint32_t *where, const store_layout *L, real *entries,
                  int odd_rolling, int nthreads)
{
    const int us = entries ? L->us : -1, ur = entries && odd_rolling ? L->ur : -1;
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (size_t k = 0; k < n; k++) {
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
            real *e = entries + k * (size_t)L->width;
            for (int a = 0; a < 3; a++) {
                if (us >= 0)
                    e[us + a] = -e[us + a];
                if (ur >= 0)
                    e[ur + a] = -e[ur + a];
            }
        }
    }
}

void store_remap(contact_store *cs, store_key *keys, size_t n, const uint32_t *where, int odd_rolling,
                 int nthreads)
{
    store_rename(keys, n, where, &cs->layout, cs->c, odd_rolling, nthreads);
}

grains_status store_windows(contact_store *cs, const uint32_t *pending, const uint32_t *live, size_t n_blocks,
                            grains_error *err)
{
    if (!array_reserve((void **)&cs->block, &cs->cap_blocks, n_blocks, sizeof *cs->block, 4))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    /* Each block: its histories, its pending contacts, and 1/64 of all its
     * contacts plus one more for those that begin before the next rebuild;
     * beyond that, its overflow array. */
    size_t total = 0;
    for (size_t b = 0; b < n_blocks; b++) {
        store_block *blk = &cs->block[b];
        memset(blk, 0, sizeof *blk);
        blk->base = total;
        blk->n = live[b];
        blk->cap = live[b] + pending[b] + (pending[b] + live[b]) / 64 + 1;
        total += blk->cap;
    }
    /* The histories still lie in their old order until store_permute. */
    size_t need = total > cs->n ? total : cs->n;
    if (need >= STORE_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0,
                                "%zu contact histories: more than the %zu a store holds",
                                need, (size_t)STORE_LIMIT);
    if (!reserve(cs, need))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories", total);
    cs->n = total;
    cs->n_blocks = n_blocks;
    return GRAINS_OK;
}

/* Whether place d still holds a history that has not moved. */
static int unmoved(const store_key *keys, size_t n, size_t d)
{
    return d < n && keys[d].i != STORE_DEAD && keys[d].i != STORE_PLACED;
}

void store_permute(contact_store *cs, store_key *keys, size_t n)
{
    /* Follows each cycle of the permutation: the history in hand goes to
     * its place, and the one it displaces is taken up next. */
    for (size_t k = 0; k < n; k++) {
        if (!unmoved(keys, n, k))
            continue;
        const size_t bytes = entry_bytes(cs, 1);
        real carry[STORE_FULL_WIDTH], next[STORE_FULL_WIDTH];
        memcpy(carry, store_entry(cs, k), bytes);
        size_t d = keys[k].j;
        keys[k].i = STORE_PLACED;
        while (unmoved(keys, n, d)) {
            memcpy(next, store_entry(cs, d), bytes);
            size_t nd = keys[d].j;
            keys[d].i = STORE_PLACED;
            memcpy(store_entry(cs, d), carry, bytes);
            memcpy(carry, next, bytes);
            d = nd;
        }
        memcpy(store_entry(cs, d), carry, bytes);
    }
    reserve(cs, cs->n); /* let go of the old order's excess, if any */
}

void store_write_state(const contact_store *cs, bytes_out *o)
{
    size_t w = (size_t)cs->layout.width;
    bytes_put_u32(o, (uint32_t)w);
    bytes_put_u64(o, cs->n_blocks);
    for (size_t b = 0; b < cs->n_blocks; b++) {
        bytes_put_u64(o, cs->block[b].n);
        bytes_put_u32(o, (uint32_t)cs->block[b].failed);
    }
    for (size_t b = 0; b < cs->n_blocks; b++)
        for (size_t k = 0; k < cs->block[b].n; k++)
            bytes_put_reals(o, store_history(cs, (uint32_t)b, k), w);
}

/* Each block's history count, checked against what the stream holds. */
static grains_status read_counts(bytes_in *in, uint32_t *live, int *failed, size_t n_blocks, size_t entry,
                                 grains_error *err)
{
    size_t total = 0;
    for (size_t b = 0; b < n_blocks; b++) {
        size_t n;
        bytes_get_count(in, 0, STORE_LIMIT, &n);
        failed[b] = bytes_get_u32(in) != 0;
        total += n;
        live[b] = (uint32_t)n;
        if (in->bad || total > in->left / entry)
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the contact histories' counts");
    }
    return GRAINS_OK;
}

static grains_status read_histories(contact_store *cs, bytes_in *in, const uint32_t *live, const int *failed,
                                    size_t n_blocks, grains_error *err)
{
    uint32_t *none = calloc(n_blocks ? n_blocks : 1, sizeof *none);
    if (!none)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    drop_overflow(cs);
    grains_status s = store_windows(cs, none, live, n_blocks, err);
    free(none);
    if (s != GRAINS_OK)
        return s;
    size_t w = (size_t)cs->layout.width;
    for (size_t b = 0; b < n_blocks; b++) { /* every block's window holds its histories */
        cs->block[b].failed = failed[b];
        real *e = cs->c + cs->block[b].base * w;
        bytes_get_reals(in, e, live[b] * w);
        for (size_t k = 0; k < live[b] * w; k++)
            if (!isfinite(e[k]))
                return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: a contact history is not finite");
    }
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the contact histories") : GRAINS_OK;
}

/* The layout's head: the entry's width and the blocks' count. */
static grains_status read_layout(const contact_store *cs, bytes_in *in, size_t n_blocks, grains_error *err)
{
    uint32_t width = bytes_get_u32(in);
    size_t blocks;
    if (!bytes_get_count(in, 12, n_blocks, &blocks) || blocks != n_blocks || width != (uint32_t)cs->layout.width)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the contact histories' layout");
    return GRAINS_OK;
}

/* Room for each block's count and failure, read. */
static grains_status read_head(const contact_store *cs, bytes_in *in, size_t n_blocks, uint32_t **live, int **failed,
                               grains_error *err)
{
    grains_status s = read_layout(cs, in, n_blocks, err);
    if (s != GRAINS_OK)
        return s;
    *live = malloc((n_blocks ? n_blocks : 1) * sizeof **live);
    *failed = malloc((n_blocks ? n_blocks : 1) * sizeof **failed);
    if (!*live || !*failed)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    size_t width = (size_t)cs->layout.width;
    return read_counts(in, *live, *failed, n_blocks, width ? width * sizeof(real) : 1, err);
}

grains_status store_read_state(contact_store *cs, bytes_in *in, size_t n_blocks, grains_error *err)
{
    uint32_t *live = NULL;
    int *failed = NULL;
    grains_status s = read_head(cs, in, n_blocks, &live, &failed, err);
    if (s == GRAINS_OK)
        s = read_histories(cs, in, live, failed, n_blocks, err);
    free(live);
    free(failed);
    return s;
}

grains_status store_read_counts(contact_store *cs, bytes_in *in, size_t n_blocks, bytes_span *springs,
                                grains_error *err)
{
    uint32_t *live = NULL;
    int *failed = NULL;
    grains_status s = read_head(cs, in, n_blocks, &live, &failed, err);
    if (s == GRAINS_OK) {
        store_layout L = cs->layout;
        store_free(cs);
        store_init(cs, L);
        if (!array_reserve((void **)&cs->block, &cs->cap_blocks, n_blocks, sizeof *cs->block, 1))
            s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    }
    uint64_t total = 0;
    for (size_t b = 0; s == GRAINS_OK && b < n_blocks; b++) {
        cs->block[b] = (store_block){.n = live[b], .failed = failed[b]};
        total += live[b];
    }
    if (s == GRAINS_OK) {
        cs->n_blocks = n_blocks;
        bytes_skip(in, total * (uint64_t)cs->layout.width * sizeof(real), springs);
    }
    free(live);
    free(failed);
    return s;
}

enum { SPRINGS_FINE, SPRINGS_TRUNCATED, SPRINGS_NOT_FINITE };

/* The springs passed over as one reader reads them. */
typedef struct {
    const bytes_in *in;
    const bytes_span *span;
    size_t width;
    const store_key *keys;
    real *kept, *buf;
    size_t n_kept; /* copied so far */
} springs_file;

/* Histories [k0, k0 + m): read, checked and folded into found->crc when
 * `checks`, those live copied to the next places in kept. */
static void read_range(springs_file *sf, size_t k0, size_t m, int checks, store_slice *found)
{
    size_t size = sf->width * sizeof(real);
    bytes_in part;
    bytes_span_part(sf->in, sf->span, (uint64_t)k0 * size, (uint64_t)m * size, checks ? found->crc : bytes_crc_none(),
                    &part);
    if (!bytes_get_reals(&part, sf->buf, m * sf->width)) {
        found->why = SPRINGS_TRUNCATED;
        return;
    }
    for (size_t k = 0; checks && k < m * sf->width; k++)
        if (!isfinite(sf->buf[k])) {
            found->why = SPRINGS_NOT_FINITE;
            return;
        }
    found->crc = checks ? part.crc : found->crc;
    for (size_t k = 0; k < m; k++)
        if (sf->keys[k0 + k].i != STORE_DEAD)
            memcpy(sf->kept + sf->width * sf->n_kept++, sf->buf + sf->width * k, size);
}

#define GAP 64 /* histories let go that a run reads through rather than seek past */

/* The end of the run of live histories from k (live), before `end`. */
static size_t run_end(const store_key *keys, size_t k, size_t end)
{
    size_t last = k;
    for (size_t b = k + 1; b < end && b - last <= GAP; b++)
        last = keys[b].i != STORE_DEAD ? b : last;
    return last + 1;
}

grains_status store_read_slice(const contact_store *cs, const bytes_in *in, const bytes_span *springs, size_t n,
                               const store_key *keys, real *kept, const bytes_slicing *sl, store_slice *found,
                               grains_error *err)
{
    size_t width = (size_t)cs->layout.width, lo, hi;
    springs_file sf = {in, springs, width, keys, kept, malloc((sl->window * width + 1) * sizeof(real)), 0};
    bytes_slice(n, sl, &lo, &hi);
    *found = (store_slice){bytes_crc_none(), SPRINGS_FINE};
    if (!sf.buf)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    for (size_t k0 = 0; k0 < n && found->why == SPRINGS_FINE; k0 += sl->window) {
        size_t end = n - k0 < sl->window ? n : k0 + sl->window;
        if (k0 >= lo && k0 < hi) { /* the slice, whole */
            read_range(&sf, k0, end - k0, 1, found);
            continue;
        }
        for (size_t k = k0; k < end && found->why == SPRINGS_FINE;) {
            size_t b = keys[k].i != STORE_DEAD ? run_end(keys, k, end) : k + 1;
            if (keys[k].i != STORE_DEAD)
                read_range(&sf, k, b - k, 0, found);
            k = b;
        }
    }
    free(sf.buf);
    return GRAINS_OK;
}

grains_status store_springs_crc(const contact_store *cs, const store_slice *found, const bytes_slicing *sl, size_t n,
                                uint32_t *crc, grains_error *err)
{
    uint32_t *of_reader = malloc((size_t)sl->readers * sizeof *of_reader);
    if (!of_reader)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for contact histories");
    for (int r = 0; r < sl->readers; r++)
        of_reader[r] = found[r].crc;
    *crc = bytes_slices_join(bytes_crc_none(), of_reader, sl, n, (size_t)cs->layout.width * sizeof(real));
    free(of_reader);
    return GRAINS_OK;
}

grains_status store_slice_error(const store_slice *found, int readers, grains_error *err)
{
    for (int r = 0; r < readers; r++)
        if (found[r].why == SPRINGS_NOT_FINITE)
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: a contact history is not finite");
        else if (found[r].why != SPRINGS_FINE)
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the contact histories");
    return GRAINS_OK;
}

grains_status store_block_set(contact_store *cs, uint32_t b, const real *e, size_t n, grains_error *err)
{
    store_block *blk = &cs->block[b];
    size_t width = (size_t)cs->layout.width, in_window = n < blk->cap ? n : blk->cap;
    if (n > blk->cap && !array_reserve((void **)&blk->ovf, &blk->ovf_cap, n - blk->cap, width * sizeof *blk->ovf, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contact histories", n);
    memcpy(store_entry(cs, blk->base), e, entry_bytes(cs, in_window));
    if (n > in_window)
        memcpy(blk->ovf, e + in_window * width, entry_bytes(cs, n - in_window));
    blk->n = n;
    blk->failed = 0;
    return GRAINS_OK;
}
