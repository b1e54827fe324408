/* The occupied cell blocks of the whole grid, known on every rank without
 * any rank holding every particle (decomp/ranks.c): each rank bins its own
 * particles in a grid of the whole's frame (neighbor/grid.h, grid_share)
 * and lists the blocks they occupy, with its counts of their particles and
 * contacts; the lists of every rank, gathered and merged, are the whole
 * grid's blocks in the whole grid's order, with its counts, whichever rank
 * held which particle. The cut bisects them (decomp/rank_cut.h), and a block's
 * key finds its entry, so its owner. */
#ifndef GRAINS_DECOMP_BLOCK_TABLE_H
#define GRAINS_DECOMP_BLOCK_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "grains/error.h"
#include "grains/ranks.h"
#include "neighbor/grid.h"

typedef struct {
    uint64_t key;       /* grid_block_key: its place in the whole's order */
    uint32_t particles; /* its particles */
    uint32_t contacts;  /* the contacts its particles list */
} block_entry;

typedef struct {
    block_entry *e;     /* n entries, in key order */
    size_t n, cap;
    void *recv;         /* the last gather's buffer, kept for the next */
    size_t recv_cap;
} block_table;

/* This rank's entries: the blocks of g holding particles it counts, those
 * stored at i with copy[i] == 0 (copy NULL: every one), and contacts[b] for
 * block b of g (NULL: 0), in key order. */
grains_status block_table_own(block_table *t, const grains_grid *g, const uint8_t *copy, const uint32_t *contacts,
                              grains_error *err);

/* Every rank's entries (each rank's own in t) merged into one per key,
 * their counts summed, in key order: the same on every rank. Collective
 * (ranks->allgather; size 1: t as it is). */
grains_status block_table_merge(block_table *t, const grains_ranks *ranks, grains_error *err);

/* The index of the entry with `key`, or SIZE_MAX when there is none. */
size_t block_table_find(const block_table *t, uint64_t key);

void block_table_free(block_table *t);

#endif
