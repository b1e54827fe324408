/* What the simulation shared among ranks offers the rest of the simulation and
 * uses itself (src/decomp/): the cut, the halo and exchanges, a rebuild's moves,
 * the gathers to the writer, the sliced checkpoint read, the start's checks. The
 * state it keeps is sim_ranks, inside grains_sim (sim/sim_internal.h). */
#ifndef GRAINS_DECOMP_DECOMP_H
#define GRAINS_DECOMP_DECOMP_H

#include "sim/sim_internal.h"

/* The cut of the blocks among the ranks, made when the lists changed
 * without a plan (a state read, a simulation shared): from every list. */
grains_status sim_ranks_cut(grains_sim *sim, grains_error *err);
/* A rebuild's cut, made after the particles moved into their new order
 * and before the lists: weighed by the contacts the keys name (the new
 * order's; `ours`: this rank's alone, summed over the ranks), it marks
 * the particles this rank lists (ranks.listed, when listing_some);
 * sim_ranks_planned completes it after the lists. */
grains_status sim_ranks_plan(grains_sim *sim, const store_key *keys, size_t n_keys, int ours, grains_error *err);
void sim_ranks_planned(grains_sim *sim);
/* The parts of a cut: room for its tables (per block and per particle);
 * each block's contacts from the histories named for the new order
 * (keys[k].i the listing particle, STORE_DEAD for none; 0 when memory is
 * short: the particles alone then weigh); the points ranks.points[0, n)
 * to ranks, into owner[point.b] (by the last bisection's planes while
 * they give no rank more than `rebalance` times the mean work, else
 * bisected anew); and, once ranks.owner holds every block's rank, the own
 * particles marked, their runs, and every particle's rank. */
/* A rank that cannot make its part of a collective (memory), or finds
 * the ranks disagree (a bug), stops every rank with `why` (ranks.fail;
 * alone: abort): the others would wait for it forever. */
void sim_ranks_stop(const grains_sim *sim, const char *why) __attribute__((noreturn));
grains_status sim_ranks_reserve(grains_sim *sim, grains_error *err);
void sim_ranks_release(sim_ranks *r); /* those tables let go but the cut's points (the next reserve makes them anew) */
/* The kept buffers of the last exchange let go, those it sent and or
 * those it received: after a gather to the writer, far more than the
 * steps' exchanges need. */
void sim_ranks_drop_exchange(sim_ranks *r, int sent, int received);
void sim_ranks_count_contacts(grains_sim *sim, const store_key *keys, size_t n_keys);
void sim_ranks_cut_points(grains_sim *sim, size_t n, int *owner);
grains_status sim_ranks_mark_owned(grains_sim *sim, grains_error *err);
/* Which particles' lists this rank builds (ranks.listed, listing_some). */
void sim_ranks_plan_lists(grains_sim *sim);
/* This rank's own particles of ids in window w (of grains_sim_frame_window
 * ids), in no set order, until the next step or rebuild: their count, and
 * their indices at *own. */
size_t sim_ranks_window_own(grains_sim *sim, size_t w, const uint32_t **own);
/* Rank 0's thermo sums from windows of the particles (collective:
 * decomp/rank_window.c), when the ranks hold their own alone. */
void sim_ranks_window_thermo(grains_sim *sim);
/* The first `bytes` of the send buffer (ranks.send) to rank 0, every rank
 * sending its own (collective): what rank 0 received from them all, *total
 * bytes in rank order (nothing elsewhere). */
char *sim_ranks_to_writer(grains_sim *sim, size_t bytes, size_t *total);
/* What rank 0 was given to write (the whole's copy, the windows' index,
 * the thermo's sums) is old: a step or a rebuild changed the particles. */
void sim_ranks_frame_old(sim_ranks *r);
/* Rank 0's copy of every particle in the whole's order (ranks.whole), to
 * write, when the ranks hold their own alone (collective; until the next
 * step); and the particles as one reads and writes them: that copy on rank
 * 0 once gathered, else pt. */
void sim_ranks_local_gather(grains_sim *sim);
/* Whether particle i, held and added since the last cut, is this rank's
 * own (decomp/rank_deal.c): dealt to it, or, added by every rank alike, of an
 * id that is this rank's modulo the ranks. */
int sim_ranks_added_own(const grains_sim *sim, uint32_t i);
/* Whether held particle i is this rank's own, when the ranks hold their
 * own alone: dealt to it, else of its blocks at the last cut, or added
 * since as the next cut will take it (decomp/rank_window.c). */
int sim_ranks_owns(const grains_sim *sim, uint32_t i);
/* While the particles are dealt, whether any ever had a tag (the frames'
 * columns, the checkpoint), which each rank knows of its own alone: over
 * the ranks (collective), before they write or cut. */
void sim_ranks_dealt_tags(grains_sim *sim);
/* Bonds with ranks holding their own particles alone (decomp/rank_bonds.c):
 * after bonds formed at the first step, the whole's count (collective);
 * the copies a cut sends for them, (rank << 32 | held index) of own
 * particles, *n of them (copy[]: the old cut's copies; the new cut's
 * rank_of); the bonds sent to the new owners of their particles
 * (collective); rank 0's copy of every bond (ranks.whole_bonds,
 * collective; its index by the places of the n ids, slot[id]: those of
 * rank 0's copy after sim_ranks_local_gather, or a checkpoint's stream's). */
size_t sim_ranks_bonds_formed(grains_sim *sim);
uint64_t *sim_ranks_bond_copies(const grains_sim *sim, const uint8_t *copy, size_t *n);
void sim_ranks_move_bonds(grains_sim *sim, const uint8_t *copy);
void sim_ranks_gather_bonds(grains_sim *sim, const uint32_t *slot, size_t n);
/* The state a checkpoint holds, when the ranks hold their own alone,
 * written by rank 0 into o (NULL: nothing written) as every rank sends its
 * share a window at a time (collective; decomp/rank_stream.c): the particles'
 * arrays, returning rank 0's slots (each id's place in the whole's order;
 * NULL elsewhere), and, after a first rebuild, the grid, lists and
 * histories, whose partners the slots place. Each id's own particle
 * places itself (decomp/rank_writer.c: malloc'd, per held particle). The
 * last step's wall sums into rank 0's walls, to write (collective). */
uint32_t *sim_ranks_stream_particles(grains_sim *sim, bytes_out *o);
void sim_ranks_stream_lists(grains_sim *sim, bytes_out *o, const uint32_t *slot);
uint32_t *sim_ranks_own_places(grains_sim *sim);
void sim_ranks_writer_sums(grains_sim *sim);
/* Every rank's particles into rank 0's copy (each sharing every particle),
 * after steps that sent the halo alone (collective). */
void sim_ranks_particles_to_writer(grains_sim *sim);
/* What ranks holding their own alone cannot hold yet: an error on every rank alike. */
grains_status sim_ranks_local_check(const grains_sim *sim, grains_error *err);
/* The reductions over the ranks that frame a share's grid as the whole's
 * (neighbor/grid.h), valid while sim is. */
grid_share sim_ranks_grid_share(const grains_sim *sim);
/* A rebuild's sort of a rank's own particles and their partners alone, in
 * place of sort_particles and the plan: the histories named by the own
 * blocks (keys, in the order held before) come back as those of the pairs
 * this rank evaluates, in the new order (ranks.keys), with room for each
 * particle's first (ranks.first). cut_before: the ranks, each holding every
 * particle, stepped in a cut of the old order (a resumed run's, until its
 * first rebuild), whose own particles are the ones to send and whose
 * histories are named by ranks. */
grains_status sim_ranks_local_sort(grains_sim *sim, store_key **keys, size_t *n_keys, int cut_before, real pad,
                                   grains_error *err);
/* The whole's table of blocks (ranks.table) from this rank's entries,
 * those of the blocks holding particles without copy[i] set, merged over
 * the ranks; copy NULL: the grid is the whole's, held alike by every rank
 * (a resumed run's, decomp/rank_resume.c), and nothing is merged. Then the
 * cut of the table: ranks.table_owner per entry. */
void sim_ranks_cut_table(grains_sim *sim, const uint8_t *copy);
/* Each block's rank in this rank's grid (ranks.owner), from the table. */
void sim_ranks_own_blocks(grains_sim *sim);
/* Each table entry's first place in the whole's order (ranks.table_first). */
void sim_ranks_place_table(grains_sim *sim);
/* Before the first step of a run resumed from a checkpoint on ranks that
 * hold their own particles alone, when every rank read the whole state:
 * each keeps its own particles by the cut of the whole's blocks and the
 * copies its steps read, with the lists and histories as they were read,
 * as a rebuild on ranks would leave them (decomp/rank_resume.c). Collective,
 * from grains_sim_share; nothing where the lists are stale (the first step
 * rebuilds on ranks). */
grains_status sim_ranks_resume_local(grains_sim *sim, grains_error *err);
/* Or as each rank reads the checkpoint (sim/state.c, ranks holding their
 * own alone): whether the lists read for n particles hold (else the state
 * is read whole); then, with every part but the particles' fields and the
 * histories' springs read (pt.slot the whole's, the store's counts alone),
 * the same share, those fields and springs it keeps read from the spans,
 * and its slice of them (every value checked, joined into the CRC: the
 * spans are read as the ranks agree). Collective once nothing is left to
 * read. */
int sim_ranks_resume_reads(const grains_sim *sim, size_t n);
grains_status sim_ranks_resume_read(grains_sim *sim, bytes_in *in, size_t n, bytes_span *fields,
                                    bytes_span *springs, grains_error *err);
/* ranks.listed: the own particles (ranks.mine), and those of the cells
 * from which a pair with one of them may be listed; their blocks get
 * visit 1 (decomp/rank_reach.c). */
void sim_ranks_mark_reach(grains_sim *sim);
/* What the step does not share yet: an error on every rank. */
grains_status sim_ranks_check(const grains_sim *sim, grains_error *err);
/* The diagnostics of every rank's own blocks, merged in rank order; with
 * them every rank's blocks' wall sums and patch logs, when a step reads
 * them (sim_ranks_sums_each_step). */
force_diag sim_ranks_diag(grains_sim *sim, force_diag own);
void sim_ranks_begun(grains_sim *sim);
/* After the update: every rank's particles, or the halo each reads, and
 * the largest speed, to every rank (sim->v2_thread[0] holds it). */
void sim_ranks_exchange_step(grains_sim *sim);
/* The contact histories (and the lists' marks of them) of every rank's
 * blocks to rank 0, and every particle if the steps sent the halo alone:
 * rank 0's copy whole, as a checkpoint reads it (grains_sim_gather). */
grains_status sim_ranks_exchange_contacts(grains_sim *sim, grains_error *err);
/* A rebuild of a shared simulation: after steps that sent the halo
 * alone, sim_ranks_complete_positions makes every copy's positions whole
 * (the sort, the cut and the lists read no more), sim_ranks_follow notes
 * each particle's owner before the cut under the sort's `where`, and
 * sim_ranks_planned sends the rest of each particle that changed owner to
 * its new owner, then the new halo to its readers. When sim_ranks_names:
 * sim_ranks_name_contacts counts the histories this rank keeps in its own
 * blocks (*n), sim_ranks_take_names writes their keys to `keys` and keeps
 * the histories aside (the store is not read again), sim_ranks_rename
 * renames them after the sort. sim_ranks_plan(..., ours = 1) sums the
 * blocks' contacts over the ranks. After the cut,
 * sim_ranks_share_histories sends each history with its key to the other
 * ranks that evaluate its pair and loads the store with those this rank
 * evaluates, *keys then theirs (*n of them, kept in ranks.keys). Nothing
 * needs the lists of the others' blocks, nor all keys on every rank. */
void sim_ranks_complete_positions(grains_sim *sim);
void sim_ranks_follow(grains_sim *sim, const uint32_t *where);
int sim_ranks_names(const grains_sim *sim);
grains_status sim_ranks_name_contacts(grains_sim *sim, size_t *n, grains_error *err);
void sim_ranks_take_names(grains_sim *sim, store_key *keys);
void sim_ranks_rename(grains_sim *sim, store_key *keys, size_t n, const uint32_t *where);
grains_status sim_ranks_share_histories(grains_sim *sim, store_key **keys, size_t *n, grains_error *err);
void sim_ranks_free(sim_ranks *r);

#endif
