/* What the core of the simulation (src/sim/) asks of the decomposition among ranks, and
 * nothing else: the step's hooks, the rebuild's, the checkpoint's, dealing's, the API's calls on
 * ranks (grains/ranks.h, passed on by sim/ranks_api.c) and the lifetime's, each given the
 * decomposition's view of the simulation (rank_sim, decomp/rank_sim.h). Each is called only
 * where the simulation is shared (rank_shared, or rank_local), but the API's; the force loops
 * see neither these nor the ranks (interact/interact.h's force_view). */
#ifndef GRAINS_DECOMP_HOOKS_H
#define GRAINS_DECOMP_HOOKS_H

#include "decomp/rank_sim.h"

/* ---- The step (sim/step.c), in its order ---- */

/* After the row's begin moved every copy: the largest speed over every
 * rank's own particles, to every rank (sim->v2_thread[0] holds it). */
void sim_ranks_begun(const rank_sim *sim);
/* After bonds formed at the first step: the whole's count (collective). */
size_t sim_ranks_bonds_formed(const rank_sim *sim);
/* Before the forces: what the step does not share yet refused (an error
 * on every rank), and the cut of the blocks among the ranks when none
 * holds (a state read, a simulation shared). */
grains_status sim_ranks_before_forces(const rank_sim *sim, grains_error *err);
/* The diagnostics of every rank's own blocks, merged in rank order; with
 * them every rank's blocks' wall sums and patch logs, when a step reads
 * them (sim_ranks_sums_each_step). On the team's master thread. */
force_diag sim_ranks_diag(const rank_sim *sim, force_diag own);
/* After the update: the exchange (every rank's particles, or the halo
 * each reads) and the largest speed, to every rank. */
void sim_ranks_exchange_step(const rank_sim *sim);

/* Ranks holding their own particles alone: the named patch logs laid out
 * per entry of the whole's table, as one process's per block, to write
 * (malloc'd, pointing into ranks.named_records), or NULL (sim/state.c). */
patch_log *sim_ranks_patch_logs_whole(const rank_sim *sim);

/* ---- The API's calls on ranks (grains/ranks.h; sim/ranks_api.c passes them on) ---- */

int sim_ranks_hold_own(const rank_sim *sim);
grains_status sim_ranks_share(const rank_sim *sim, const grains_ranks *ranks, grains_error *err);
grains_status sim_ranks_gather_writer(const rank_sim *sim, grains_error *err);
void sim_ranks_gather_particles(const rank_sim *sim);
void sim_ranks_gather_thermo(const rank_sim *sim);
void sim_ranks_particle_window(const rank_sim *sim, unsigned fields, size_t first, size_t count, grains_particle *out);
size_t sim_ranks_frame_window(const rank_sim *sim);
grains_ranks_stats sim_ranks_stats(const rank_sim *sim);

/* ---- Dealing the particles a run starts with (sim/deal.c; decomp/rank_deal.c) ---- */

/* Whether the particles added now may be dealt; from here the ranks deal
 * (`held`: the particles every rank holds); ids from n_ids on counted, n
 * of them, held by other ranks. */
int sim_ranks_may_deal(const rank_sim *sim);
void sim_ranks_start_dealing(sim_ranks *r, size_t held);
grains_status sim_ranks_count_others(const rank_sim *sim, size_t n, grains_error *err);
/* A range of `count` ids from `first` of the `whole` that this rank is
 * given (grains_sim_deal_range; ARG when it may not deal now): the others'
 * counted, room for its own. The id the next particle a rank is given
 * takes: 1 from its range (then sim_ranks_range_taken, once held), -1
 * refused (its range added whole: an extra one would count on this rank
 * alone), 0 none. One particle every rank is given (grains_sim_add_dealt):
 * its id, and whether this rank holds it. The ids dealt so far all held
 * (the dealing may go on). */
grains_status sim_ranks_open_range(const rank_sim *sim, size_t first, size_t count, size_t whole, grains_error *err);
int sim_ranks_range_id(const rank_sim *sim, size_t *id);
void sim_ranks_range_taken(const rank_sim *sim);
grains_status sim_ranks_deal_one(const rank_sim *sim, size_t *id, int *mine, grains_error *err);
void sim_ranks_dealt_all(const rank_sim *sim);

/* ---- The rebuild (sim/rebuild.c) ---- */

/* A rebuild of a shared simulation: after steps that sent the halo
 * alone, sim_ranks_complete_positions makes every copy's positions whole
 * (the sort, the cut and the lists read no more), sim_ranks_follow notes
 * each particle's owner before the cut under the sort's `where`, and
 * sim_ranks_planned sends the rest of each particle that changed owner to
 * its new owner, then the new halo to its readers. When sim_ranks_names:
 * sim_ranks_name_contacts counts the histories this rank keeps in its own
 * blocks (*n), sim_ranks_take_names writes their keys to `keys` and keeps
 * the histories aside (the store is not read again), sim_ranks_rename
 * renames them after the sort. sim_ranks_plan_rebuild cuts the blocks
 * weighed by the contacts the keys name (by_ranks: each rank's, summed over
 * the ranks), marks the particles this rank lists, and (by_ranks) sends each
 * history with its key to the other ranks that evaluate its pair and loads
 * the store with those this rank evaluates, *keys then theirs (*n of them,
 * kept in ranks.keys). Nothing needs the lists of the others' blocks, nor all
 * keys on every rank. */
void sim_ranks_complete_positions(const rank_sim *sim);
void sim_ranks_follow(const rank_sim *sim, const uint32_t *where);
int sim_ranks_names(const rank_sim *sim);
grains_status sim_ranks_name_contacts(const rank_sim *sim, size_t *n, grains_error *err);
void sim_ranks_take_names(const rank_sim *sim, store_key *keys);
void sim_ranks_rename(const rank_sim *sim, store_key *keys, size_t n, const uint32_t *where);
grains_status sim_ranks_plan_rebuild(const rank_sim *sim, store_key **keys, size_t *n, int by_ranks, grains_error *err);
void sim_ranks_planned(const rank_sim *sim);
/* Every rank's bytes (own, `bytes` of them), to every rank, in rank order:
 * *bytes_all of them, in a buffer the ranks keep until their next exchange.
 * Collective. */
const void *sim_ranks_gather(const rank_sim *sim, const void *own, size_t bytes, size_t *bytes_all);

/* A rebuild's sort of a rank's own particles and their partners alone, in
 * place of sort_particles and the plan: the histories named by the own
 * blocks (keys, in the order held before) come back as those of the pairs
 * this rank evaluates, in the new order (ranks.keys), with room for each
 * particle's first (ranks.first). cut_before: the ranks, each holding every
 * particle, stepped in a cut of the old order (a resumed run's, until its
 * first rebuild), whose own particles are the ones to send and whose
 * histories are named by ranks. Then the particles this rank lists are
 * marked (sim_ranks_plan_lists). */
grains_status sim_ranks_local_sort(const rank_sim *sim, store_key **keys, size_t *n_keys, int cut_before, real pad,
                                   grains_error *err);

/* ---- Removals (sim/remove.c, sim/sinks.c; decomp/rank_remove.c) ---- */

/* A removal of n > 0 particles by ids (the same on every rank), with the
 * ranks holding their own alone: the ids checked (each exists once, not
 * the guided one) and kept for the rebuild that follows at once, which
 * lets go of them and renames the ids above them down (the wall sums of
 * the last step to the writer first); then, after it, the whole's count
 * of bonds anew. Collective. */
grains_status sim_ranks_removal_begin(const rank_sim *sim, size_t n, const size_t *ids, grains_error *err);
void sim_ranks_removal_end(const rank_sim *sim, int rebuilt);
/* Every rank's removals (own[0 .. n_own) of its own particles), to every
 * rank, in rank order: *n_all of them, malloc'd. Collective. */
grains_removal *sim_ranks_gather_removals(const rank_sim *sim, const grains_removal *own, size_t n_own, size_t *n_all);

/* ---- The checkpoint (sim/state.c) ---- */

/* The state a checkpoint holds, when the ranks hold their own alone,
 * written by rank 0 into o (NULL: nothing written) as every rank sends its
 * share a window at a time (collective; decomp/rank_stream.c): the particles'
 * arrays, returning rank 0's slots (each id's place in the whole's order;
 * NULL elsewhere), and, after a first rebuild, the grid, lists and
 * histories, whose partners the slots place. Each id's own particle
 * places itself (decomp/rank_writer.c: malloc'd, per held particle). The
 * last step's wall sums into rank 0's walls, to write (collective). */
uint32_t *sim_ranks_stream_particles(const rank_sim *sim, bytes_out *o);
void sim_ranks_stream_lists(const rank_sim *sim, bytes_out *o, const uint32_t *slot);
void sim_ranks_writer_sums(const rank_sim *sim);
/* The intact bonds' pairs (a, b), in (a, b) order, to rank 0 (collective:
 * each rank sends those whose first particle it owns); malloc'd into
 * *pairs, 2 ids a bond; how many (the other ranks: 0). */
size_t sim_ranks_bond_pairs(const rank_sim *sim, size_t **pairs);
/* Rank 0's copy of every bond (ranks.whole_bonds, collective; its index
 * by the places of the n ids, slot[id]: those of rank 0's copy after
 * sim_ranks_local_gather, or a checkpoint's stream's). */
void sim_ranks_gather_bonds(const rank_sim *sim, const uint32_t *slot, size_t n);
/* Or as each rank reads the checkpoint (sim/state.c, ranks holding their
 * own alone): whether the lists read for n particles hold (else the state
 * is read whole); then, with every part but the particles' fields and the
 * histories' springs read (pt.slot the whole's, the store's counts alone),
 * the same share, those fields and springs it keeps read from the spans,
 * and its slice of them (every value checked, joined into the CRC: the
 * spans are read as the ranks agree). Collective once nothing is left to
 * read. */
int sim_ranks_resume_reads(const rank_sim *sim, size_t n);
grains_status sim_ranks_resume_read(const rank_sim *sim, bytes_in *in, size_t n, bytes_span *fields,
                                    bytes_span *springs, grains_error *err);

/* ---- The lifetime (sim/sim.c) ---- */

void sim_ranks_free(sim_ranks *r);

#endif
