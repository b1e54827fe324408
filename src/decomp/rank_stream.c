/* The state of ranks that hold their own particles alone
 * (grains_ranks.local), written by rank 0 as the ranks send it (sim/state.c):
 * the bytes one process writes of the same state, and no rank ever holds a
 * copy of every particle, nor the whole's grid, lists or histories.
 *
 * The state's arrays lie one after another in the whole's order (every
 * particle's x, then every v, ...; every cell's key, then every cell's
 * count, ...), so each is a pass over windows of the whole's particles:
 * each rank sends its own values in the window with their places, and
 * rank 0 writes the window once it holds it whole. A particle's place is
 * its block's first in the merged table plus its place in the block, whose
 * owner holds it whole (dealt, before the first rebuild: its id); a
 * block's values go with their block, by its entry in the table. Rank 0
 * holds a window's values, each block's head (40 bytes a block) and each
 * id's place (4 bytes a particle: the lists name partners by place, and
 * the bonds' index is over places). Collective. */
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "util/array.h"
#include "util/order.h"

static void stream_failed(const rank_sim *sim)
{
    sim_ranks_stop(sim, "out of memory sending the state to write: stopping every rank");
}

/* The ranks disagree on what they own (a bug, not an input): all stop,
 * rather than write a checkpoint with holes. */
static void stream_damaged(const rank_sim *sim)
{
    sim_ranks_stop(sim, "the ranks sent rank 0 a state to write out of place or not all: stopping them all");
}

static void *stream_alloc(const rank_sim *sim, size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        stream_failed(sim);
    return p;
}

/* The send buffer, with room for `bytes`. */
static char *send_room(const rank_sim *sim, size_t bytes)
{
    sim_ranks *r = sim->ranks;
    if (!array_reserve((void **)&r->send, &r->send_cap, bytes + 1, 1, 4))
        stream_failed(sim);
    return r->send;
}

/* The particles of window w of the whole's order: first and count. */
static size_t window_count(const rank_sim *sim, size_t w, size_t *first)
{
    size_t W = sim_ranks_frame_window(sim), n = sim->ranks->n_ids;
    *first = w * W;
    return *first >= n ? 0 : (n - *first < W ? n - *first : W);
}

/* The own particles by window of their places: window w's are
 * order[start[w] .. start[w + 1]). */
typedef struct {
    uint32_t *place; /* per held particle: its place (the own ones') */
    uint32_t *order;
    size_t *start;
    size_t n_windows;
} own_windows;

static void index_own(const rank_sim *sim, own_windows *ow)
{
    size_t W = sim_ranks_frame_window(sim), n_own = 0;
    ow->n_windows = sim->ranks->n_ids / W + 1;
    ow->place = sim_ranks_own_places(sim);
    ow->start = calloc(ow->n_windows + 1, sizeof *ow->start);
    size_t *next = malloc((ow->n_windows + 1) * sizeof *next);
    if (!ow->start || !next)
        stream_failed(sim);
    const uint32_t *own;
    for (size_t w = 0; w < ow->n_windows; w++) {
        size_t n = sim_ranks_window_own(sim, w, &own);
        for (size_t k = 0; k < n; k++) {
            if (ow->place[own[k]] >= sim->ranks->n_ids)
                stream_damaged(sim);
            ow->start[ow->place[own[k]] / W + 1]++;
        }
        n_own += n;
    }
    for (size_t w = 0; w < ow->n_windows; w++)
        next[w] = ow->start[w + 1] += ow->start[w];
    ow->order = stream_alloc(sim, n_own * sizeof *ow->order);
    for (size_t w = ow->n_windows; w-- > 0;) { /* next[w]: window w's end, filled from the back */
        size_t n = sim_ranks_window_own(sim, w, &own);
        for (size_t k = n; k-- > 0;)
            ow->order[--next[ow->place[own[k]] / W]] = own[k];
    }
    free(next);
}

static void own_windows_free(own_windows *ow)
{
    free(ow->place);
    free(ow->order);
    free(ow->start);
}

/* A particle array as a checkpoint writes it. */
typedef enum { AS_REALS, AS_U32S, AS_BYTES } value_kind;
typedef struct {
    const char *base;
    size_t size; /* bytes a particle */
    value_kind kind;
} field_view;

static void put_values(bytes_out *o, const char *v, size_t n, const field_view *f)
{
    if (f->kind == AS_REALS)
        bytes_put_reals(o, (const real *)v, n * f->size / sizeof(real));
    else if (f->kind == AS_U32S)
        bytes_put_u32s(o, (const uint32_t *)v, n);
    else
        bytes_put(o, v, n * f->size);
}

/* Rank 0: the window's values as they came (place, value) into `window`,
 * in the whole's order, then written. */
static void write_window(const rank_sim *sim, const char *all, size_t total, size_t w, const field_view *f,
                         char *window, bytes_out *o)
{
    size_t first, count = window_count(sim, w, &first), rec = sizeof(uint32_t) + f->size;
    if (total != count * rec)
        stream_damaged(sim);
    for (const char *at = all; at < all + total; at += rec) {
        uint32_t place;
        memcpy(&place, at, sizeof place);
        if (place < first || place - first >= count)
            stream_damaged(sim);
        memcpy(window + (place - first) * f->size, at + sizeof place, f->size);
    }
    if (o)
        put_values(o, window, count, f);
}

/* One particle array, a window at a time. */
static void stream_field(const rank_sim *sim, const own_windows *ow, const field_view *f, char *window, bytes_out *o)
{
    size_t rec = sizeof(uint32_t) + f->size;
    for (size_t w = 0; w < ow->n_windows; w++) {
        char *at = send_room(sim, (ow->start[w + 1] - ow->start[w]) * rec);
        for (size_t k = ow->start[w]; k < ow->start[w + 1]; k++, at += rec) {
            uint32_t i = ow->order[k];
            memcpy(at, &ow->place[i], sizeof(uint32_t));
            memcpy(at + sizeof(uint32_t), f->base + (size_t)i * f->size, f->size);
        }
        size_t total;
        const char *all = sim_ranks_to_writer(sim, (size_t)(at - sim->ranks->send), &total);
        if (sim->ranks->peers.rank == 0)
            write_window(sim, all, total, w, f, window, o);
    }
}

/* The slots (each id's place), a window of ids at a time; rank 0 keeps
 * them all: returned (NULL elsewhere). */
static uint32_t *stream_slots(const rank_sim *sim, const own_windows *ow, bytes_out *o)
{
    int writer = sim->ranks->peers.rank == 0;
    uint32_t *slot = writer ? stream_alloc(sim, sim->ranks->n_ids * sizeof *slot) : NULL;
    for (size_t w = 0; w < ow->n_windows; w++) {
        const uint32_t *own;
        size_t n = sim_ranks_window_own(sim, w, &own), total, first, count = window_count(sim, w, &first);
        uint32_t *at = (uint32_t *)send_room(sim, 2 * n * sizeof *at);
        for (size_t k = 0; k < n; k++) {
            at[2 * k] = sim->pt->id[own[k]];
            at[2 * k + 1] = ow->place[own[k]];
        }
        const uint32_t *all = (const uint32_t *)sim_ranks_to_writer(sim, 2 * n * sizeof *at, &total);
        if (!writer)
            continue;
        if (total != 2 * count * sizeof *all)
            stream_damaged(sim);
        for (size_t k = 0; k < 2 * count; k += 2) {
            if (all[k] < first || all[k] - first >= count)
                stream_damaged(sim);
            slot[all[k]] = all[k + 1];
        }
        if (o)
            bytes_put_u32s(o, slot + first, count);
    }
    return slot;
}

uint32_t *sim_ranks_stream_particles(const rank_sim *sim, bytes_out *o)
{
    const grains_particles *pt = sim->pt;
    const field_view fields[] = {
        {(const char *)pt->x, sizeof *pt->x, AS_REALS}, {(const char *)pt->v, sizeof *pt->v, AS_REALS},
        {(const char *)pt->w, sizeof *pt->w, AS_REALS}, {(const char *)pt->q, sizeof *pt->q, AS_REALS},
        {(const char *)pt->R, sizeof *pt->R, AS_REALS}, {(const char *)pt->mat, sizeof *pt->mat, AS_BYTES},
        {(const char *)pt->tag, sizeof *pt->tag, AS_U32S}, {(const char *)pt->f, sizeof *pt->f, AS_REALS},
        {(const char *)pt->t, sizeof *pt->t, AS_REALS},
    };
    int writer = sim->ranks->peers.rank == 0;
    size_t n_fields = sizeof fields / sizeof *fields, widest = 0;
    for (size_t k = 0; k < n_fields; k++)
        widest = fields[k].size > widest ? fields[k].size : widest;
    own_windows ow;
    sim_ranks_dealt_tags(sim); /* (dealt: whether any has a tag is over the ranks) */
    index_own(sim, &ow);
    char *window = writer ? stream_alloc(sim, sim_ranks_frame_window(sim) * widest) : NULL;
    if (writer && o)
        bytes_put_u64(o, sim->ranks->n_ids);
    for (size_t k = 0; k < n_fields; k++)
        stream_field(sim, &ow, &fields[k], window, o);
    uint32_t *slot = stream_slots(sim, &ow, o);
    free(window);
    own_windows_free(&ow);
    sim_ranks_drop_exchange(sim->ranks, 1, 1); /* a window's values */
    return slot;
}

/* A block's head, as it travels to rank 0. */
typedef struct {
    uint64_t entry;       /* its place in the merged table */
    uint32_t n_cells;
    uint32_t n_particles;
    uint64_t n_entries;   /* in its particles' lists */
    uint64_t n_histories;
    uint32_t failed;      /* the store could not hold its histories */
    uint32_t unused;
} block_head;

static block_head head_of(const rank_sim *sim, uint32_t b, uint64_t entry)
{
    const grains_grid *g = sim->grid;
    const grains_neighbors *nb = sim->nb;
    uint32_t c0 = g->block_start[b], c1 = g->block_start[b + 1], i0 = g->first[c0], i1 = g->first[c1];
    return (block_head){entry, c1 - c0, i1 - i0, nb->start[i1] - nb->start[i0], sim->cs->block[b].n,
                        (uint32_t)sim->cs->block[b].failed, 0};
}

/* The own blocks, by entry, and rank 0's heads of every block. */
typedef struct {
    uint64_t *own;     /* entry << 32 | block */
    size_t n_own;
    block_head *head;  /* rank 0: per entry */
} block_windows;

/* Pass 0: every own block's head to rank 0, which checks them against the
 * table (each entry once, with its particles). */
static void gather_heads(const rank_sim *sim, block_windows *bw)
{
    sim_ranks *r = sim->ranks;
    const grains_grid *g = sim->grid;
    bw->own = stream_alloc(sim, g->n_blocks * sizeof *bw->own);
    bw->n_own = 0;
    for (uint32_t b = 0; b < g->n_blocks; b++)
        if (r->owner[b] == r->peers.rank)
            bw->own[bw->n_own++] = (uint64_t)block_table_find(&r->table, grid_block_key(g, b)) << 32 | b;
    qsort(bw->own, bw->n_own, sizeof *bw->own, order_u64);
    block_head *h = (block_head *)send_room(sim, bw->n_own * sizeof *h);
    for (size_t k = 0; k < bw->n_own; k++)
        h[k] = head_of(sim, (uint32_t)bw->own[k], bw->own[k] >> 32);
    size_t total, n = r->table.n;
    const block_head *all = (const block_head *)sim_ranks_to_writer(sim, bw->n_own * sizeof *h, &total);
    bw->head = NULL;
    if (r->peers.rank != 0)
        return;
    bw->head = calloc(n + 1, sizeof *bw->head);
    if (!bw->head)
        stream_failed(sim);
    if (total != n * sizeof *all)
        stream_damaged(sim);
    for (size_t k = 0; k < n; k++) {
        const block_head *a = &all[k];
        if (a->entry >= n || bw->head[a->entry].n_cells || a->n_cells == 0 ||
            a->n_particles != r->table_first[a->entry + 1] - r->table_first[a->entry])
            stream_damaged(sim);
        bw->head[a->entry] = *a;
    }
}

/* What a pass over the blocks sends of each. */
typedef enum { CELL_KEYS, CELL_COUNTS, LIST_LENGTHS, LIST_ENTRIES, HISTORIES } block_part;

static size_t part_bytes(const rank_sim *sim, const block_head *h, block_part part)
{
    switch (part) {
    case CELL_KEYS:
        return h->n_cells * sizeof(uint64_t);
    case CELL_COUNTS:
        return h->n_cells * sizeof(uint32_t);
    case LIST_LENGTHS:
        return h->n_particles * sizeof(uint32_t);
    case LIST_ENTRIES:
        return h->n_entries * sizeof(uint32_t);
    default:
        return h->n_histories * (size_t)sim->cs->layout.width * sizeof(real);
    }
}

/* A block's part travels after its entry, padded to 8 bytes, so that the
 * next block's keys and histories lie aligned. */
static size_t part_record(const rank_sim *sim, const block_head *h, block_part part)
{
    return sizeof(uint64_t) + (part_bytes(sim, h, part) + 7) / 8 * 8;
}

/* Own block b's part (its entry first) at `at`; the byte after. */
static char *put_part(char *at, const rank_sim *sim, uint32_t b, const block_head *h, block_part part)
{
    const grains_grid *g = sim->grid;
    const grains_neighbors *nb = sim->nb;
    uint32_t c0 = g->block_start[b], i0 = g->first[c0];
    char *end = at + part_record(sim, h, part);
    memcpy(at, &h->entry, sizeof h->entry);
    uint32_t *u = (uint32_t *)(at + sizeof h->entry);
    if (part == CELL_KEYS)
        memcpy(u, g->key + c0, part_bytes(sim, h, part));
    else if (part == CELL_COUNTS)
        for (uint32_t c = 0; c < h->n_cells; c++)
            u[c] = g->first[c0 + c + 1] - g->first[c0 + c];
    else if (part == LIST_LENGTHS)
        for (uint32_t i = 0; i < h->n_particles; i++)
            u[i] = nb->start[i0 + i + 1] - nb->start[i0 + i];
    else if (part == LIST_ENTRIES) /* partners by id (mesh elements stay) */
        for (uint32_t k = 0; k < h->n_entries; k++) {
            uint32_t e = nb->j[nb->start[i0] + k];
            u[k] = e & STORE_MESH_BIT ? e : (sim->pt->id[e & STORE_INDEX_MASK] | (e & ~STORE_INDEX_MASK));
        }
    else
        for (size_t k = 0, w = (size_t)sim->cs->layout.width; k < h->n_histories; k++)
            memcpy((real *)u + k * w, store_history(sim->cs, b, k), w * sizeof(real));
    return end;
}

/* Rank 0's running count (cells' first particles, lists' starts) and the
 * slots, as it writes the parts. */
typedef struct {
    bytes_out *o;
    const uint32_t *slot;
    uint64_t running;
} part_writer;

/* Rank 0: a block's part as it came, written as one process's. */
static void write_part(const rank_sim *sim, part_writer *pw, const void *p, const block_head *h, block_part part)
{
    const uint32_t *u = p;
    size_t n = part_bytes(sim, h, part) / (part == CELL_KEYS ? sizeof(uint64_t) : sizeof(uint32_t));
    if (part == CELL_KEYS) {
        for (size_t c = 0; c < n; c++)
            bytes_put_u64(pw->o, ((const uint64_t *)p)[c]);
    } else if (part == CELL_COUNTS || part == LIST_LENGTHS) { /* each cell's first, each list's start */
        for (size_t k = 0; k < n; k++) {
            bytes_put_u32(pw->o, (uint32_t)pw->running);
            pw->running += u[k];
        }
    } else if (part == LIST_ENTRIES) {
        for (size_t k = 0; k < n; k++) {
            uint32_t e = u[k], id = e & STORE_INDEX_MASK;
            if (!(e & STORE_MESH_BIT) && id >= sim->ranks->n_ids)
                stream_damaged(sim);
            bytes_put_u32(pw->o, e & STORE_MESH_BIT ? e : (pw->slot[id] | (e & ~STORE_INDEX_MASK)));
        }
    } else {
        bytes_put_reals(pw->o, p, part_bytes(sim, h, part) / sizeof(real));
    }
}

/* The window of a block: that of its first particle's place. */
static size_t window_of(const rank_sim *sim, size_t entry)
{
    return (size_t)(sim->ranks->table_first[entry] / sim_ranks_frame_window(sim));
}

/* Rank 0: the blocks of a window as they came, at their entries
 * [e0, e1) (at[]), then written in the table's order. */
static void write_blocks(const rank_sim *sim, const block_windows *bw, const char *all, size_t total,
                         size_t e0, size_t e1, const char **at, part_writer *pw, block_part part)
{
    memset(at, 0, (e1 - e0) * sizeof *at);
    for (const char *p = all; p < all + total;) {
        uint64_t entry;
        memcpy(&entry, p, sizeof entry);
        if (entry < e0 || entry >= e1 || at[entry - e0])
            stream_damaged(sim);
        at[entry - e0] = p + sizeof entry;
        p += part_record(sim, &bw->head[entry], part);
    }
    for (size_t e = e0; e < e1; e++) {
        if (!at[e - e0])
            stream_damaged(sim);
        if (pw->o)
            write_part(sim, pw, at[e - e0], &bw->head[e], part);
    }
}

/* One part of every block, a window of the whole's particles at a time
 * (the blocks whose first particle is in it). */
static void stream_part(const rank_sim *sim, const block_windows *bw, part_writer *pw, block_part part)
{
    sim_ranks *r = sim->ranks;
    size_t n = r->table.n, mine = 0, e0 = 0, W = sim_ranks_frame_window(sim);
    const char **at = r->peers.rank == 0 ? stream_alloc(sim, (W + 1) * sizeof *at) : NULL;
    for (size_t w = 0; w <= r->n_ids / W; w++) {
        size_t bytes = 0, from = mine;
        for (; mine < bw->n_own && window_of(sim, bw->own[mine] >> 32) == w; mine++) {
            block_head h = head_of(sim, (uint32_t)bw->own[mine], bw->own[mine] >> 32);
            bytes += part_record(sim, &h, part);
        }
        char *p = send_room(sim, bytes);
        for (size_t k = from; k < mine; k++) {
            block_head h = head_of(sim, (uint32_t)bw->own[k], bw->own[k] >> 32);
            p = put_part(p, sim, (uint32_t)bw->own[k], &h, part);
        }
        size_t total, e1 = e0;
        const char *all = sim_ranks_to_writer(sim, bytes, &total);
        while (e1 < n && window_of(sim, e1) == w)
            e1++;
        if (r->peers.rank == 0)
            write_blocks(sim, bw, all, total, e0, e1, at, pw, part);
        e0 = e1;
    }
    if (mine != bw->n_own || (r->peers.rank == 0 && e0 != n))
        stream_damaged(sim);
    free(at);
}

/* Rank 0: the whole's grid around its cells (grid_write_state). */
static grid_blocks blocks_of(const rank_sim *sim, const block_windows *bw, uint64_t *key, uint32_t *cells,
                             uint32_t *particles)
{
    const sim_ranks *r = sim->ranks;
    for (size_t t = 0; t < r->table.n; t++) {
        key[t] = r->table.e[t].key;
        cells[t] = bw->head[t].n_cells;
        particles[t] = bw->head[t].n_particles;
    }
    return (grid_blocks){key, cells, particles, r->table.n};
}

static void stream_grid(const rank_sim *sim, const block_windows *bw, part_writer *pw)
{
    size_t n = sim->ranks->table.n;
    int writer = sim->ranks->peers.rank == 0 && pw->o;
    uint64_t *key = writer ? stream_alloc(sim, n * sizeof *key) : NULL;
    uint32_t *cells = writer ? stream_alloc(sim, n * sizeof *cells) : NULL;
    uint32_t *particles = writer ? stream_alloc(sim, n * sizeof *particles) : NULL;
    grid_blocks bl = writer ? blocks_of(sim, bw, key, cells, particles) : (grid_blocks){0};
    if (writer)
        grid_write_state_head(sim->grid, &bl, pw->o);
    stream_part(sim, bw, pw, CELL_KEYS);
    pw->running = 0;
    stream_part(sim, bw, pw, CELL_COUNTS);
    if (writer) {
        if (n)
            bytes_put_u32(pw->o, (uint32_t)pw->running);
        grid_write_state_tail(&bl, pw->o);
    }
    free(key);
    free(cells);
    free(particles);
}

/* Rank 0: the whole's lists' and store's counts (neighbors_write_state,
 * store_write_state), before their arrays. */
static void write_lists_head(const rank_sim *sim, const block_windows *bw, bytes_out *o)
{
    uint64_t entries = 0, listed = 0; /* (the binned: no newcomer has a list) */
    for (size_t t = 0; t < sim->ranks->table.n; t++) {
        entries += bw->head[t].n_entries;
        listed += bw->head[t].n_particles;
    }
    bytes_put_u64(o, listed);
    bytes_put_u64(o, entries);
}

static void write_store_head(const rank_sim *sim, const block_windows *bw, bytes_out *o)
{
    bytes_put_u32(o, (uint32_t)sim->cs->layout.width);
    bytes_put_u64(o, sim->ranks->table.n);
    for (size_t t = 0; t < sim->ranks->table.n; t++) {
        bytes_put_u64(o, bw->head[t].n_histories);
        bytes_put_u32(o, bw->head[t].failed);
    }
}

void sim_ranks_stream_lists(const rank_sim *sim, bytes_out *o, const uint32_t *slot)
{
    int writer = sim->ranks->peers.rank == 0 && o;
    block_windows bw;
    part_writer pw = {writer ? o : NULL, slot, 0};
    gather_heads(sim, &bw);
    stream_grid(sim, &bw, &pw);
    if (writer)
        write_lists_head(sim, &bw, o);
    pw.running = 0;
    stream_part(sim, &bw, &pw, LIST_LENGTHS);
    if (writer)
        bytes_put_u32(o, (uint32_t)pw.running);
    stream_part(sim, &bw, &pw, LIST_ENTRIES);
    if (writer)
        write_store_head(sim, &bw, o);
    stream_part(sim, &bw, &pw, HISTORIES);
    free(bw.own);
    free(bw.head);
    sim_ranks_drop_exchange(sim->ranks, 1, 1);
}
