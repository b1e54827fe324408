/* The whole grid's blocks from every rank's own (decomp/block_table.h). */
#include "decomp/block_table.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"

static grains_status no_memory(grains_error *err, size_t n)
{
    return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a table of %zu cell blocks", n);
}

/* The particles stored in block b of g that are not copies. */
static uint32_t counted_in(const grains_grid *g, uint32_t b, const uint8_t *copy)
{
    uint32_t i0 = g->first[g->block_start[b]], i1 = g->first[g->block_start[b + 1]], n = 0;
    for (uint32_t i = i0; i < i1; i++)
        n += !copy || !copy[i];
    return n;
}

grains_status block_table_own(block_table *t, const grains_grid *g, const uint8_t *copy, const uint32_t *contacts,
                              grains_error *err)
{
    if (!array_reserve((void **)&t->e, &t->cap, g->n_blocks + 1, sizeof *t->e, 1))
        return no_memory(err, g->n_blocks);
    t->n = 0;
    for (uint32_t b = 0; b < g->n_blocks; b++) { /* the grid's block order is the keys' */
        uint32_t n = counted_in(g, b, copy);
        if (n)
            t->e[t->n++] = (block_entry){grid_block_key(g, b), n, contacts ? contacts[b] : 0};
    }
    return GRAINS_OK;
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const block_entry *)a)->key, y = ((const block_entry *)b)->key;
    return (x > y) - (x < y);
}

grains_status block_table_merge(block_table *t, const grains_ranks *ranks, grains_error *err)
{
    if (!ranks || ranks->size == 1)
        return GRAINS_OK;
    size_t *counts = malloc((size_t)ranks->size * sizeof *counts), total = 0;
    if (!counts)
        return no_memory(err, t->n);
    t->recv = ranks->allgather(ranks->ctx, t->e, t->n * sizeof *t->e, counts, t->recv, &t->recv_cap);
    for (int r = 0; r < ranks->size; r++)
        total += counts[r] / sizeof *t->e;
    free(counts);
    if (!array_reserve((void **)&t->e, &t->cap, total + 1, sizeof *t->e, 1))
        return no_memory(err, total);
    if (total)
        memcpy(t->e, t->recv, total * sizeof *t->e);
    qsort(t->e, total, sizeof *t->e, by_key); /* ties, the same block's counts, are summed */
    size_t n = 0;
    for (size_t k = 0; k < total; k++) {
        if (n && t->e[n - 1].key == t->e[k].key) {
            t->e[n - 1].particles += t->e[k].particles;
            t->e[n - 1].contacts += t->e[k].contacts;
        } else {
            t->e[n++] = t->e[k];
        }
    }
    t->n = n;
    return GRAINS_OK;
}

size_t block_table_find(const block_table *t, uint64_t key)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->e[mid].key == key)
            return mid;
        if (t->e[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

void block_table_free(block_table *t)
{
    free(t->e);
    free(t->recv);
    *t = (block_table){0};
}
