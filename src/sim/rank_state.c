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
 * places in it, as the writer's are. Collective; the state holds until
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

/* Our own blocks into the send buffer, in our block order (the table's);
 * their bytes. */
static size_t put_own_blocks(grains_sim *sim)
{
    sim_ranks *r = &sim->ranks;
    const grains_grid *g = &sim->grid;
    size_t bytes = 0;
    for (uint32_t b = 0; b < g->n_blocks; b++)
        if (r->owner[b] == r->peers.rank) {
            block_head h = head_of(sim, b);
            bytes += head_bytes(sim, &h);
        }
    if (!array_reserve((void **)&r->send, &r->send_cap, bytes + 1, 1, 4))
        state_failed(sim);
    char *at = r->send;
    for (uint32_t b = 0; b < g->n_blocks; b++)
        if (r->owner[b] == r->peers.rank) {
            block_head h = head_of(sim, b);
            at = put_block(at, sim, b, &h);
        }
    return bytes;
}

/* Rank 0: every block's bytes, by its entry in the table. */
typedef struct {
    const char **at;
    block_head *head;
    size_t n_cells, n_entries;
} received_blocks;

static int index_blocks(const grains_sim *sim, const char *all, size_t bytes, received_blocks *rb)
{
    size_t n = sim->ranks.table.n;
    rb->at = calloc(n + 1, sizeof *rb->at);
    rb->head = malloc((n + 1) * sizeof *rb->head);
    if (!rb->at || !rb->head)
        return 0;
    for (const char *p = all, *end = all + bytes; p < end;) {
        block_head h;
        memcpy(&h, p, sizeof h);
        rb->at[h.entry] = p + sizeof h;
        rb->head[h.entry] = h;
        rb->n_cells += h.n_cells;
        rb->n_entries += h.n_entries;
        p += head_bytes(sim, &h);
    }
    return 1;
}

/* The whole's grid from the blocks' cells, in the frame of ours. */
static grains_status assemble_grid(grains_sim *sim, const received_blocks *rb, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    size_t n = r->table.n, c = 0;
    uint64_t *key = malloc((rb->n_cells + 1) * sizeof *key), *block_key = malloc((n + 1) * sizeof *block_key);
    uint32_t *count = malloc((rb->n_cells + 1) * sizeof *count), *block_cells = malloc((n + 1) * sizeof *block_cells);
    grains_status s = GRAINS_ERR_NOMEM;
    if (key && block_key && count && block_cells) {
        for (size_t t = 0; t < n; c += rb->head[t].n_cells, t++) {
            const block_head *h = &rb->head[t];
            const char *p = rb->at[t];
            memcpy(key + c, p, h->n_cells * sizeof *key);
            memcpy(count + c, p + h->n_cells * sizeof *key + 2 * h->n_particles * sizeof(vec3),
                   h->n_cells * sizeof *count);
            block_key[t] = r->table.e[t].key;
            block_cells[t] = h->n_cells;
        }
        grid_free(&r->whole_grid);
        grid_cells cells = {key, count, rb->n_cells, block_key, block_cells, n};
        s = grid_assemble(&r->whole_grid, &sim->grid, &cells, err);
    }
    free(key);
    free(block_key);
    free(count);
    free(block_cells);
    return s == GRAINS_ERR_NOMEM ? grains_error_set(err, s, NULL, 0, "out of memory for the whole's grid") : s;
}

/* Each block's particles' f and t into the whole copy, and their lists,
 * partners at their places in it. */
static grains_status assemble_lists(grains_sim *sim, const received_blocks *rb, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    grains_particles *w = &r->whole;
    grains_neighbors *nb = &r->whole_nb;
    const grains_grid *g = &r->whole_grid;
    neighbors_free(nb);
    nb->n_particles = w->n;
    nb->start = malloc((w->n + 1) * sizeof *nb->start);
    nb->j = malloc((rb->n_entries + 1) * sizeof *nb->j);
    if (!nb->start || !nb->j)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the whole's lists");
    nb->n = nb->cap = rb->n_entries;
    nb->cap_start = w->n + 1;
    nb->start[0] = 0;
    for (size_t t = 0; t < r->table.n; t++) {
        const block_head *h = &rb->head[t];
        uint32_t i0 = g->first[g->block_start[t]];
        const char *p = rb->at[t] + h->n_cells * sizeof(uint64_t);
        memcpy(w->f + i0, p, h->n_particles * sizeof *w->f);
        memcpy(w->t + i0, p + h->n_particles * sizeof *w->f, h->n_particles * sizeof *w->t);
        p += h->n_particles * 2 * sizeof(vec3) + h->n_cells * sizeof(uint32_t);
        for (uint32_t i = i0; i < i0 + h->n_particles; i++, p += sizeof(uint32_t)) {
            uint32_t n;
            memcpy(&n, p, sizeof n);
            nb->start[i + 1] = nb->start[i] + n;
        }
        for (uint32_t k = nb->start[i0]; k < nb->start[i0 + h->n_particles]; k++, p += sizeof(uint32_t)) {
            uint32_t e;
            memcpy(&e, p, sizeof e);
            nb->j[k] = e & STORE_MESH_BIT ? e : (w->slot[e & STORE_INDEX_MASK] | (e & ~STORE_INDEX_MASK));
        }
    }
    return GRAINS_OK;
}

/* Each block's histories into the whole's store, each in its window. */
static grains_status assemble_store(grains_sim *sim, const received_blocks *rb, grains_error *err)
{
    sim_ranks *r = &sim->ranks;
    size_t n = r->table.n, width = (size_t)sim->cs.layout.width * sizeof(real);
    uint32_t *none = calloc(n + 1, sizeof *none), *live = malloc((n + 1) * sizeof *live);
    store_free(&r->whole_cs);
    store_init(&r->whole_cs, sim->cs.layout);
    grains_status s = none && live ? GRAINS_OK : GRAINS_ERR_NOMEM;
    for (size_t t = 0; s == GRAINS_OK && t < n; t++)
        live[t] = (uint32_t)rb->head[t].n_histories;
    if (s == GRAINS_OK)
        s = store_windows(&r->whole_cs, none, live, n, err);
    for (size_t t = 0; s == GRAINS_OK && t < n; t++) {
        const block_head *h = &rb->head[t];
        const char *p = rb->at[t] + head_bytes(sim, h) - sizeof *h - h->n_histories * width;
        memcpy(store_entry(&r->whole_cs, r->whole_cs.block[t].base), p, h->n_histories * width);
        r->whole_cs.block[t].failed = (int)h->failed;
    }
    free(none);
    free(live);
    return s == GRAINS_ERR_NOMEM ? grains_error_set(err, s, NULL, 0, "out of memory for the whole's histories") : s;
}

static grains_status assemble(grains_sim *sim, const char *all, size_t bytes, grains_error *err)
{
    received_blocks rb = {NULL, NULL, 0, 0};
    grains_status s = index_blocks(sim, all, bytes, &rb) ? assemble_grid(sim, &rb, err)
                                                          : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0,
                                                                             "out of memory for the whole's blocks");
    if (s == GRAINS_OK)
        s = assemble_lists(sim, &rb, err);
    if (s == GRAINS_OK)
        s = assemble_store(sim, &rb, err);
    free(rb.at);
    free(rb.head);
    return s;
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
    size_t P = (size_t)r->peers.size, bytes = put_own_blocks(sim), total = 0;
    memset(r->send_counts, 0, P * sizeof *r->send_counts);
    r->send_counts[0] = bytes; /* to rank 0 alone */
    r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
    for (size_t q = 0; q < P; q++)
        total += r->counts[q];
    grains_status s = r->peers.rank == 0 ? assemble(sim, r->recv, total, err) : GRAINS_OK;
    sim_ranks_drop_exchange(r, 1, r->peers.rank == 0); /* our blocks' state, and the whole's */
    r->state_whole = s == GRAINS_OK;
    return s;
}
