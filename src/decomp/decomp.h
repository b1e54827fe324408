/* What the files of the decomposition (src/decomp/) call between them: the cut, the halo and
 * exchanges, a rebuild's moves, the gathers to the writer, the sliced checkpoint read, the
 * start's checks. What the rest of the simulation calls is in decomp/hooks.h; the state it
 * keeps is sim_ranks, inside grains_sim (decomp/ranks_state.h), and what it sees of the
 * simulation is rank_sim (decomp/rank_sim.h). */
#ifndef GRAINS_DECOMP_DECOMP_H
#define GRAINS_DECOMP_DECOMP_H

#include "decomp/hooks.h"
#include "decomp/rank_sim.h"

/* The cut of the blocks among the ranks, made when the lists changed
 * without a plan (a state read, a simulation shared): from every list. */
grains_status sim_ranks_cut(const rank_sim *sim, grains_error *err);
/* A rebuild's cut, made after the particles moved into their new order
 * and before the lists: weighed by the contacts the keys name (the new
 * order's; `ours`: this rank's alone, summed over the ranks), it marks
 * the particles this rank lists (ranks.listed, when listing_some);
 * sim_ranks_planned completes it after the lists. */
grains_status sim_ranks_plan(const rank_sim *sim, const store_key *keys, size_t n_keys, int ours, grains_error *err);
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
void sim_ranks_stop(const rank_sim *sim, const char *why) __attribute__((noreturn));
grains_status sim_ranks_reserve(const rank_sim *sim, grains_error *err);
void sim_ranks_release(sim_ranks *r); /* those tables let go but the cut's points (the next reserve makes them anew) */
/* The kept buffers of the last exchange let go, those it sent and or
 * those it received: after a gather to the writer, far more than the
 * steps' exchanges need. */
void sim_ranks_drop_exchange(sim_ranks *r, int sent, int received);
void sim_ranks_count_contacts(const rank_sim *sim, const store_key *keys, size_t n_keys);
void sim_ranks_cut_points(const rank_sim *sim, size_t n, int *owner);
grains_status sim_ranks_mark_owned(const rank_sim *sim, grains_error *err);
/* Which particles' lists this rank builds (ranks.listed, listing_some). */
void sim_ranks_plan_lists(const rank_sim *sim);
/* This rank's own particles of ids in window w (of grains_sim_frame_window
 * ids), in no set order, until the next step or rebuild: their count, and
 * their indices at *own. */
size_t sim_ranks_window_own(const rank_sim *sim, size_t w, const uint32_t **own);
/* Rank 0's thermo sums from windows of the particles (collective:
 * decomp/rank_window.c), when the ranks hold their own alone. */
void sim_ranks_window_thermo(const rank_sim *sim);
/* The first `bytes` of the send buffer (ranks.send) to rank 0, every rank
 * sending its own (collective): what rank 0 received from them all, *total
 * bytes in rank order (nothing elsewhere). */
char *sim_ranks_to_writer(const rank_sim *sim, size_t bytes, size_t *total);
/* What rank 0 was given to write (the whole's copy, the windows' index,
 * the thermo's sums) is old: a step or a rebuild changed the particles. */
void sim_ranks_frame_old(sim_ranks *r);
/* Rank 0's copy of every particle in the whole's order (ranks.whole), to
 * write, when the ranks hold their own alone (collective; until the next
 * step); and the particles as one reads and writes them: that copy on rank
 * 0 once gathered, else pt. */
void sim_ranks_local_gather(const rank_sim *sim);
/* Whether particle i, held and added since the last cut, is this rank's
 * own (decomp/rank_deal.c): dealt to it, or, added by every rank alike, of an
 * id that is this rank's modulo the ranks. */
int sim_ranks_added_own(const rank_sim *sim, uint32_t i);
/* Whether held particle i is this rank's own, when the ranks hold their
 * own alone: dealt to it, else of its blocks at the last cut, or added
 * since as the next cut will take it (decomp/rank_window.c). */
int sim_ranks_owns(const rank_sim *sim, uint32_t i);
/* While the particles are dealt, whether any ever had a tag (the frames'
 * columns, the checkpoint), which each rank knows of its own alone: over
 * the ranks (collective), before they write or cut. */
void sim_ranks_dealt_tags(const rank_sim *sim);
/* A removal's rebuild (decomp/rank_remove.c): whether `id` is one it lets
 * go of; each id held, bond and the guided particle renamed past the
 * removed ones (the bonds of removed ones ended), the whole's count less
 * them and slot anew for what is held. */
int sim_ranks_removing(const rank_sim *sim, uint32_t id);
void sim_ranks_renumber(const rank_sim *sim);
/* Bonds with ranks holding their own particles alone (decomp/rank_bonds.c;
 * the whole's count and rank 0's copy: decomp/hooks.h): the copies a cut sends for them, (rank << 32 | held index) of own
 * particles, *n of them (copy[]: the old cut's copies; the new cut's
 * rank_of); the bonds sent to the new owners of their particles
 * (collective). */
uint64_t *sim_ranks_bond_copies(const rank_sim *sim, const uint8_t *copy, size_t *n);
void sim_ranks_move_bonds(const rank_sim *sim, const uint8_t *copy);
/* Each id's own particle's place in the whole's order, per held particle
 * (malloc'd; decomp/rank_writer.c): what a window or a stream sends it with. */
uint32_t *sim_ranks_own_places(const rank_sim *sim);
/* Every rank's particles into rank 0's copy (each sharing every particle),
 * after steps that sent the halo alone (collective). */
void sim_ranks_particles_to_writer(const rank_sim *sim);
/* What ranks holding their own alone cannot hold yet: an error on every rank alike. */
grains_status sim_ranks_local_check(const rank_sim *sim, grains_error *err);
/* The reductions over the ranks that frame a share's grid as the whole's
 * (neighbor/grid.h), valid while sim is. */
grid_share sim_ranks_grid_share(const rank_sim *sim);
/* The whole's table of blocks (ranks.table) from this rank's entries,
 * those of the blocks holding particles without copy[i] set, merged over
 * the ranks; copy NULL: the grid is the whole's, held alike by every rank
 * (a resumed run's, decomp/rank_resume.c), and nothing is merged. Then the
 * cut of the table: ranks.table_owner per entry. */
void sim_ranks_cut_table(const rank_sim *sim, const uint8_t *copy);
/* Each block's rank in this rank's grid (ranks.owner), from the table. */
void sim_ranks_own_blocks(const rank_sim *sim);
/* Each table entry's first place in the whole's order (ranks.table_first). */
void sim_ranks_place_table(const rank_sim *sim);
/* Before the first step of a run resumed from a checkpoint on ranks that
 * hold their own particles alone, when every rank read the whole state:
 * each keeps its own particles by the cut of the whole's blocks and the
 * copies its steps read, with the lists and histories as they were read,
 * as a rebuild on ranks would leave them (decomp/rank_resume.c). Collective,
 * from grains_sim_share; nothing where the lists are stale (the first step
 * rebuilds on ranks). */
grains_status sim_ranks_resume_local(const rank_sim *sim, grains_error *err);
/* ranks.listed: the own particles (ranks.mine), and those of the cells
 * from which a pair with one of them may be listed; their blocks get
 * visit 1 (decomp/rank_reach.c). */
void sim_ranks_mark_reach(const rank_sim *sim);
/* The contact histories (and the lists' marks of them) of every rank's
 * blocks to rank 0, and every particle if the steps sent the halo alone:
 * rank 0's copy whole, as a checkpoint reads it (grains_sim_gather). */
grains_status sim_ranks_exchange_contacts(const rank_sim *sim, grains_error *err);

#endif
