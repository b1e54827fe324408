/* Rank 0's whole state, to write a checkpoint, when the ranks hold their
 * own particles alone (grains_ranks.local; sim/rank_local.c). A checkpoint
 * holds the grid, the lists and each block's histories as they stand
 * (docs/architecture.md, "Checkpoints"), so rank 0 lays them out as one
 * process holds them. Each rank sends rank 0 its own blocks, each whole
 * (its owner holds all its particles, lists and histories): its entry in
 * the merged table, its cells (key, particles), its particles' force sums
 * and lists (partners by ids) and its histories. Rank 0 puts the blocks in
 * table order, the whole's, and each partner at its place in the whole's
 * order (ranks.whole, gathered just before: sim/rank_writer.c). The
 * particles' places are the table's counts before their block plus their
 * places in it, as the writer's are. The blocks' heads come first, for
 * rank 0 to reserve the whole's arrays, then the blocks a window of the
 * whole's particles at a time, so that rank 0 never holds both the
 * whole's state and every block's bytes. Collective; the state holds until
 * the next step or rebuild (ranks.state_whole), which lets it go with the
 * copy of the particles: rank 0 would otherwise hold the whole's state
 * besides its share from one frame to the next. */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "util/array.h"

/* A block as it travels: this head, then its cells' keys, its particles'
 * f and t, its cells' counts, its particles' list lengths, their entries
 * and its histories. */
typedef struct {
    uint32_t entry;       /* its place in the merged table */
    uint32_t n_cells;
    uint32_t n_particles;
    uint32_t failed;      /* the store could not hold its histories */
    uint64_t n_entries;   /* in its particles' lists */
    uint64_t n_histories;
} block_head;

static void state_failed(const grains_sim *sim)
{
    const grains_ranks *pr = &sim->ranks.peers;
    if (pr->fail)
        pr->fail(pr->ctx, "out of memory gathering the state to write: stopping every rank");
    abort();
}

static block_head head_of(const grains_sim *sim, uint32_t b)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    uint32_t c0 = g->block_start[b], c1 = g->block_start[b + 1], i0 = g->first[c0], i1 = g->first[c1];
    size_t entry = block_table_find(&sim->ranks.table, grid_block_key(g, b));
    return (block_head){(uint32_t)entry, c1 - c0, i1 - i0, (uint32_t)sim->cs.block[b].failed,
                        nb->start[i1] - nb->start[i0], sim->cs.block[b].n};
}

static size_t head_bytes(const grains_sim *sim, const block_head *h)
{
    return sizeof *h + h->n_cells * (sizeof(uint64_t) + sizeof(uint32_t)) +
           h->n_particles * (2 * sizeof(vec3) + sizeof(uint32_t)) + h->n_entries * sizeof(uint32_t) +
           h->n_histories * (size_t)sim->cs.layout.width * sizeof(real);
}

static char *put_bytes(char *at, const void *v, size_t bytes)
{
    memcpy(at, v, bytes);
    return at + bytes;
}

/* A list entry with its partner named by id (a mesh element stays). */
static uint32_t entry_by_id(const grains_particles *pt, uint32_t e)
{
    return e & STORE_MESH_BIT ? e : (pt->id[e & STORE_INDEX_MASK] | (e & ~STORE_INDEX_MASK));
}

/* Own block b whole at `at`; the byte after it. */
static char *put_block(char *at, const grains_sim *sim, uint32_t b, const block_head *h)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    const grains_particles *pt = &sim->pt;
    uint32_t c0 = g->block_start[b], i0 = g->first[c0];
    at = put_bytes(at, h, sizeof *h);
    at = put_bytes(at, g->key + c0, h->n_cells * sizeof *g->key);
    at = put_bytes(at, pt->f + i0, h->n_particles * sizeof *pt->f);
    at = put_bytes(at, pt->t + i0, h->n_particles * sizeof *pt->t);
    for (uint32_t c = c0; c < c0 + h->n_cells; c++) {
        uint32_t n = g->first[c + 1] - g->first[c];
        at = put_bytes(at, &n, sizeof n);
    }
    for (uint32_t i = i0; i < i0 + h->n_particles; i++) {
        uint32_t n = nb->start[i + 1] - nb->start[i];
        at = put_bytes(at, &n, sizeof n);
    }
    for (uint32_t k = nb->start[i0]; k < nb->start[i0 + h->n_particles]; k++) {
        uint32_t e = entry_by_id(pt, nb->j[k]);
        at = put_bytes(at, &e, sizeof e);
    }
    size_t width = (size_t)sim->cs.layout.width * sizeof(real);
    for (size_t k = 0; k < h->n_histories; k++)
        at = put_bytes(at, store_history(&sim->cs, b, k), width);
    return at;
}

/* The whole's blocks as rank 0 lays them out: each block's head (by its
 * entry in the table), where its cells and list entries start in the
 * whole's, and the cells' keys and counts, the grid's input. */
typedef struct {
    block_head *head;
    size_t *cell_base, *entry_base; /* per entry, and one more */
    uint64_t *key, *block_key;
    uint32_t *count, *block_cells;
} whole_blocks;

static void whole_blocks_free(whole_blocks *wb)
{
    free(wb->head);
    free(wb->cell_base);
    free(wb->entry_base);
    free(wb->key);
    free(wb->block_key);
    free(wb->count);
    free(wb->block_cells);
}

/* The ranks disagree on the blocks they own (a bug, not an input): all
 * stop, rather than write a checkpoint with holes. */
static void state_damaged(const grains_sim *sim)
{
    const grains_ranks *pr = &sim->ranks.peers;
    if (pr->fail)
        pr->fail(pr->ctx, "the ranks sent rank 0 blocks to write out of place or not all: stopping them all");
    abort();
}

/* Rank 0: room for the whole's grid input, lists and histories. */
static grains_status reserve_whole_state(grains_sim *sim, whole_blocks *wb, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    size_t n = r->table.n, n_cells = wb->cell_base[n], n_entries = wb->entry_base[n], particles = r->whole.n;
    grains_neighbors *nb = &r->whole_nb;
    wb->key = malloc((n_cells + 1) * sizeof *wb->key);
    wb->count = malloc((n_cells + 1) * sizeof *wb->count);
    wb->block_key = malloc((n + 1) * sizeof *wb->block_key);
    wb->block_cells = malloc((n + 1) * sizeof *wb->block_cells);
    neighbors_free(nb);
    nb->start = malloc((particles + 1) * sizeof *nb->start);
    nb->j = malloc((n_entries + 1) * sizeof *nb->j);
    uint32_t *none = calloc(n + 1, sizeof *none), *live = malloc((n + 1) * sizeof *live);
    store_free(&r->whole_cs);
    store_init(&r->whole_cs, sim->cs.layout);
    grains_status s = wb->key && wb->count && wb->block_key && wb->block_cells && nb->start && nb->j && none && live
                          ? GRAINS_OK
                          : GRAINS_ERR_NOMEM;
    if (s == GRAINS_OK) {
        nb->n_particles = particles;
        nb->n = nb->cap = n_entries;
        nb->cap_start = particles + 1;
        nb->start[0] = 0;
        for (size_t t = 0; t < n; t++)
            live[t] = (uint32_t)wb->head[t].n_histories;
        s = store_windows(&r->whole_cs, none, live, n, err);
    }
    free(none);
    free(live);
    return s == GRAINS_ERR_NOMEM ? grains_error_set(err, s, NULL, 0, "out of memory for the whole's state") : s;
}

/* Pass 1: every own block's head to rank 0, which learns each block's
 * size in the whole's arrays and reserves them: the grid's cells, the
 * lists and the histories (f and t are in ranks.whole). */
static grains_status gather_heads(grains_sim *sim, whole_blocks *wb, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    const grains_grid *g = &sim->grid;
    size_t P = (size_t)r->peers.size, n = r->table.n, own = 0, total = 0;
    for (uint32_t b = 0; b < g->n_blocks; b++)
        own += r->owner[b] == r->peers.rank;
    if (!array_reserve((void **)&r->send, &r->send_cap, own * sizeof(block_head) + 1, 1, 4))
        state_failed(sim);
    char *at = r->send;
    for (uint32_t b = 0; b < g->n_blocks; b++)
        if (r->owner[b] == r->peers.rank) {
            block_head h = head_of(sim, b);
            at = put_bytes(at, &h, sizeof h);
        }
    memset(r->send_counts, 0, P * sizeof *r->send_counts);
    r->send_counts[0] = (size_t)(at - r->send); /* to rank 0 alone */
    r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
    for (size_t q = 0; q < P; q++)
        total += r->counts[q];
    if (r->peers.rank != 0)
        return GRAINS_OK;
    wb->head = calloc(n + 1, sizeof *wb->head);
    wb->cell_base = malloc((n + 1) * sizeof *wb->cell_base);
    wb->entry_base = malloc((n + 1) * sizeof *wb->entry_base);
    if (!wb->head || !wb->cell_base || !wb->entry_base)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the whole's blocks");
    if (total != n * sizeof(block_head))
        state_damaged(sim);
    for (size_t k = 0; k < n; k++) {
        block_head h;
        memcpy(&h, (const char *)r->recv + k * sizeof h, sizeof h);
        if (h.entry >= n || wb->head[h.entry].n_cells ||
            h.n_particles != r->table_first[h.entry + 1] - r->table_first[h.entry] || h.n_cells == 0)
            state_damaged(sim);
        wb->head[h.entry] = h;
    }
    wb->cell_base[0] = wb->entry_base[0] = 0;
    for (size_t t = 0; t < n; t++) {
        wb->cell_base[t + 1] = wb->cell_base[t] + wb->head[t].n_cells;
        wb->entry_base[t + 1] = wb->entry_base[t] + wb->head[t].n_entries;
    }
    return reserve_whole_state(sim, wb, err);
}

/* The window of a block: that of its first particle's place. */
static size_t window_of(const grains_sim *sim, size_t entry)
{
    return (size_t)(sim->ranks.table_first[entry] / grains_sim_frame_window(sim));
}

/* Our own blocks of window k into the send buffer; their bytes. */
static size_t put_window(grains_sim *sim, const uint32_t *own, const uint32_t *entry, size_t n_own, size_t k)
{
    sim_ranks *r = &sim->ranks;
    size_t bytes = 0;
    for (size_t m = 0; m < n_own; m++)
        if (window_of(sim, entry[m]) == k) {
            block_head h = head_of(sim, own[m]);
            bytes += head_bytes(sim, &h);
        }
    if (!array_reserve((void **)&r->send, &r->send_cap, bytes + 1, 1, 4))
        state_failed(sim);
    char *at = r->send;
    for (size_t m = 0; m < n_own; m++)
        if (window_of(sim, entry[m]) == k) {
            block_head h = head_of(sim, own[m]);
            at = put_block(at, sim, own[m], &h);
        }
    return bytes;
}

/* A block as it came (put_block) into its places in the whole's grid
 * input, particles, lists (partners at their places in the whole) and
 * histories. */
static const char *take_block(grains_sim *sim, const char *p, whole_blocks *wb)
{
    sim_ranks *r = &sim->ranks;
    grains_particles *w = &r->whole;
    grains_neighbors *nb = &r->whole_nb;
    block_head h;
    memcpy(&h, p, sizeof h);
    p += sizeof h;
    size_t t = h.entry, i0 = r->table_first[t], c0 = wb->cell_base[t], width = (size_t)sim->cs.layout.width;
    memcpy(wb->key + c0, p, h.n_cells * sizeof *wb->key);
    p += h.n_cells * sizeof *wb->key;
    memcpy(w->f + i0, p, h.n_particles * sizeof *w->f);
    p += h.n_particles * sizeof *w->f;
    memcpy(w->t + i0, p, h.n_particles * sizeof *w->t);
    p += h.n_particles * sizeof *w->t;
    memcpy(wb->count + c0, p, h.n_cells * sizeof *wb->count);
    p += h.n_cells * sizeof *wb->count;
    nb->start[i0] = (uint32_t)wb->entry_base[t];
    for (size_t i = i0; i < i0 + h.n_particles; i++, p += sizeof(uint32_t)) {
        uint32_t n;
        memcpy(&n, p, sizeof n);
        nb->start[i + 1] = nb->start[i] + n;
    }
    for (size_t k = wb->entry_base[t]; k < wb->entry_base[t + 1]; k++, p += sizeof(uint32_t)) {
        uint32_t e;
        memcpy(&e, p, sizeof e);
        nb->j[k] = e & STORE_MESH_BIT ? e : (w->slot[e & STORE_INDEX_MASK] | (e & ~STORE_INDEX_MASK));
    }
    memcpy(store_entry(&r->whole_cs, r->whole_cs.block[t].base), p, h.n_histories * width * sizeof(real));
    r->whole_cs.block[t].failed = (int)h.failed;
    return p + h.n_histories * width * sizeof(real);
}

/* Pass 2: the blocks' cells, forces, lists and histories, a window of the
 * whole's particles at a time (the blocks whose first particle is in it),
 * so that rank 0 holds the whole's state and a window's bytes, not both
 * whole. */
static void gather_windows(grains_sim *sim, whole_blocks *wb)
{
    sim_ranks *r = &sim->ranks;
    const grains_grid *g = &sim->grid;
    size_t P = (size_t)r->peers.size, n_own = 0;
    uint32_t *own = malloc((g->n_blocks + 1) * sizeof *own), *entry = malloc((g->n_blocks + 1) * sizeof *entry);
    if (!own || !entry)
        state_failed(sim);
    for (uint32_t b = 0; b < g->n_blocks; b++)
        if (r->owner[b] == r->peers.rank) {
            own[n_own] = b;
            entry[n_own++] = (uint32_t)block_table_find(&r->table, grid_block_key(g, b));
        }
    for (size_t k = 0; k <= r->n_ids / grains_sim_frame_window(sim); k++) {
        memset(r->send_counts, 0, P * sizeof *r->send_counts);
        r->send_counts[0] = put_window(sim, own, entry, n_own, k); /* to rank 0 alone */
        r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
        size_t total = 0;
        for (size_t q = 0; q < P; q++)
            total += r->counts[q];
        for (const char *p = r->recv, *end = p + total; r->peers.rank == 0 && p < end;)
            p = take_block(sim, p, wb);
    }
    free(own);
    free(entry);
}

/* Rank 0: the whole's grid from the blocks' cells, in the frame of ours. */
static grains_status assemble_grid(grains_sim *sim, whole_blocks *wb, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    for (size_t t = 0; t < r->table.n; t++) {
        wb->block_key[t] = r->table.e[t].key;
        wb->block_cells[t] = wb->head[t].n_cells;
    }
    grid_free(&r->whole_grid);
    grid_cells cells = {wb->key, wb->count, wb->cell_base[r->table.n], wb->block_key, wb->block_cells, r->table.n};
    return grid_assemble(&r->whole_grid, &sim->grid, &cells, err);
}

void sim_ranks_local_drop_state(sim_ranks *r)
{
    if (r->whole.cap) /* (on rank 0, once written) */
        particles_free(&r->whole);
    if (!r->state_whole)
        return;
    grid_free(&r->whole_grid);
    neighbors_free(&r->whole_nb);
    store_free(&r->whole_cs);
    r->state_whole = 0;
}

grains_status sim_ranks_local_gather_state(grains_sim *sim, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    if (!sim_ranks_local(sim) || !r->holds_share || r->state_whole)
        return GRAINS_OK;
    sim_ranks_local_gather(sim);
    if (r->dealt) { /* nothing built yet: the grid, lists and histories are every rank's (sim/state.c) */
        r->state_whole = 1;
        return GRAINS_OK;
    }
    whole_blocks wb = {0};
    grains_status s = gather_heads(sim, &wb, err);
    /* (every rank takes part in the windows, rank 0 whatever its memory) */
    uint64_t failed = s != GRAINS_OK;
    r->peers.max(r->peers.ctx, &failed, 1);
    if (!failed)
        gather_windows(sim, &wb);
    if (!failed && r->peers.rank == 0)
        s = assemble_grid(sim, &wb, err);
    whole_blocks_free(&wb);
    sim_ranks_drop_exchange(r, 1, 1); /* a window's state */
    r->state_whole = s == GRAINS_OK && !failed;
    return s; /* (rank 0's error; the others stop with it) */
}
