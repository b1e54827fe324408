/* Persistent ids (grains_sim_uid): a particle's number in the order the
 * run made its particles, kept for its whole life, while its id (its index,
 * 0 .. N-1) closes up when particles before it are removed. Ids keep the
 * order of creation, so the live particles' uids are the numbers 0, 1, 2 ...
 * less the removed ones, and uid(id) is the id-th of them: only the removed
 * uids are kept, as ranges, each with the count removed before it. Between
 * two ranges lies a live particle, so they are never more than the live
 * particles and one, whatever was removed. Every rank holds the same. */
#ifndef GRAINS_SIM_UIDS_H
#define GRAINS_SIM_UIDS_H

#include <stddef.h>
#include <stdint.h>

#include "grains/error.h"
#include "util/bytes.h"

typedef struct {
    uint64_t first, count; /* the uids first .. first + count - 1 were removed */
    uint64_t before;       /* removed in the ranges before this one */
} uid_gap;

typedef struct {
    uid_gap *gap; /* in increasing order, apart (never adjacent) */
    size_t n, cap;
} sim_uids;

/* The uid of the particle whose id is `id`. */
uint64_t sim_uid(const sim_uids *u, uint64_t id);

/* The removal of n particles, by their ids (distinct, each below count),
 * planned in *next (an error for memory alone, nothing changed), then
 * taken (sim_uids_take: it cannot fail), so that the removal it goes with
 * can be refused in between. sim_uids_free(next) lets a plan go. */
grains_status sim_uids_plan(const sim_uids *u, const size_t *ids, size_t n, sim_uids *next, grains_error *err);
void sim_uids_take(sim_uids *u, sim_uids *next);
void sim_uids_free(sim_uids *u);

/* The ranges as a checkpoint holds them, and back: checked in order,
 * apart, non-empty and within 2^63 (errors without a file name). */
void sim_uids_write_state(const sim_uids *u, bytes_out *o);
grains_status sim_uids_read_state(sim_uids *u, bytes_in *in, grains_error *err);

#endif
