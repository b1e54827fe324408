/* What a simulation holds of its decomposition among ranks (decomp/ranks.c and the rank_*
 * files): embedded in the simulation, read by the step through the inline predicates of
 * decomp/rank_sim.h, written by src/decomp/ alone. */
#ifndef GRAINS_DECOMP_RANKS_STATE_H
#define GRAINS_DECOMP_RANKS_STATE_H

#include <stdint.h>

#include "bonds/bonds.h"
#include "contact/store.h"
#include "decomp/block_table.h"
#include "decomp/rank_cut.h"
#include "decomp/rank_move.h"
#include "grains/ranks.h"
#include "interact/force_diag.h"
#include "membrane/patches.h"
#include "particles/particles.h"

/* The simulation shared among ranks (grains/ranks.h, decomp/ranks.c). The
 * cell blocks are cut among the ranks by recursive bisection of space,
 * balanced by work; a rank owns the particles of its blocks (runs of
 * storage slots) and every contact they list. Alone: one rank owns
 * everything. */
typedef struct {
    uint32_t lo, hi;      /* particles [lo, hi) */
} slot_run;

/* What the thermo sums of the particles (sim_thermo_start, then
 * sim_thermo_add with each in the ids' order), and the box out of which
 * one is lost (boxed: there is a mesh). */
typedef struct {
    double e_kin, e_rot;
    double e_lost; /* the lost ones' e_kin + e_rot */
    size_t lost;
    size_t bonds, broken; /* (from the windows: each bond counted by its first particle's owner) */
    int boxed;
    vec3 lo, hi;
    real pad;
} thermo_sums;

typedef struct {
    grains_ranks peers;   /* size 1: alone */
    uint64_t *work;       /* per rank: the work a cut gives it */
    cut_plane *planes;    /* the last bisection's (size - 1) */
    int valid;            /* the cut follows the present lists */
    size_t *counts;       /* per rank: the bytes it sent in the last exchange */
    int *owner;           /* per block: its rank */
    size_t owner_cap;
    uint8_t *visit;       /* per block: 2 own, 1 it lists a partner of an own particle, 0 neither */
    size_t visit_cap;
    uint8_t *mine;        /* per particle: 1 own */
    size_t mine_cap;
    uint8_t *listed;      /* per particle: 1 when this rank builds its list (listing_some) */
    size_t listed_cap;
    int listing_some;     /* the lists are built for the listed particles only */
    uint32_t *block_contacts; /* per block: its contacts, for the cut's weights */
    size_t block_contacts_cap;
    slot_run *runs;       /* own particles, in storage order */
    size_t n_runs, runs_cap;
    int *rank_of;         /* per particle: its owner */
    size_t rank_of_cap;
    size_t cut_n;         /* the particles when the blocks were cut */
    int *was;             /* per particle, new order: its owner before a rebuild's cut (moving) */
    size_t was_cap;
    int moving;           /* in a rebuild after halo steps: every position is whole, the rest of a
                           * particle goes to its new owner and readers after the cut */
    uint32_t *halo_to;    /* own particles other ranks read: rank 0's, rank 1's, ... each in storage order */
    size_t halo_to_cap, halo_from_cap;
    uint32_t *halo_from;  /* the particles each other rank sends this one, by owner, in storage order */
    size_t *halo_to_start, *halo_from_start; /* per rank, and one more: its first in halo_to, halo_from */
    size_t halo_own;      /* own particles some other rank reads */
    uint32_t *bonds_own;  /* the bonds with an own particle, in the bonds' order (halo steps) */
    size_t n_bonds_own, bonds_own_cap;
    real *own;            /* a rebuild's histories of the own blocks, in the order of their keys */
    size_t own_cap;       /* in entries */
    store_key *keys;      /* a rebuild's keys of the pairs this rank evaluates, in the store's order */
    size_t keys_cap;
    size_t *send_counts;  /* per rank: the bytes for it in the last exchange to each rank */
    int halo_steps;       /* the steps send the halo alone (halo_suffices) */
    int stale;            /* the copies of other ranks' particles beyond the halo are old */
    int writer_whole;     /* rank 0's copy of every particle is whole (stale as it may be
                           * elsewhere; the same on every rank) */
    int sums_behind;      /* the last step's wall sums stayed with their blocks' ranks
                           * (not sim_ranks_sums_each_step): rank 0 gathers them to write */
    grains_ranks_stats stats;
    /* A rank's arrays of its own particles and their partners alone
     * (peers.local; decomp/rank_local.c): */
    block_table table;    /* the whole's blocks, merged over the ranks */
    int *table_owner;     /* per entry: its rank */
    size_t table_owner_cap;
    rank_held held;       /* what a rebuild's move brought (arrays swapped with pt's) */
    uint32_t *first;      /* per particle held: its first history (the rebuild's reattach) */
    size_t first_cap;
    size_t n_ids;         /* particles in the whole (ids 0 .. n_ids - 1) */
    uint32_t *removing;   /* the ids a removal's rebuild lets go of, sorted (decomp/rank_remove.c) */
    size_t n_removing;
    int holds_share;      /* pt holds the own particles and copies alone (after a first rebuild) */
    int dealt;            /* holds_share before a first rebuild: the particles the run starts
                           * with, each held by one rank alone (grains_sim_add_dealt;
                           * decomp/rank_deal.c): */
    size_t dealt_from, dealt_to; /* the ids dealt, held by one rank each */
    size_t range_next, range_end; /* this rank's range of them (grains_sim_deal_range) */
    int ranged;           /* a range was dealt: its particles alone are added dealt */
    grains_particles whole; /* rank 0: every particle in the whole's order, to write
                             * (writer_whole; decomp/rank_writer.c) */
    uint32_t *window_order; /* own particles by window of their ids, to write a frame */
    size_t window_order_cap; /* without the whole (decomp/rank_window.c) */
    size_t *window_start;   /* per window, and one more: its first in window_order */
    size_t window_start_cap;
    size_t windows_held;    /* the particles held when indexed */
    int windows_valid;      /* the index holds until the next step or rebuild */
    thermo_sums thermo;     /* rank 0: the thermo's sums, from the windows (thermo_whole, */
    int thermo_whole;       /* until the next step: grains_sim_gather_thermo) */
    uint64_t *table_first; /* per entry of the table, and one more: the particles before its block */
    size_t table_first_cap;
    sim_bonds whole_bonds; /* rank 0: every bond, to write (writer_whole; decomp/rank_bonds.c) */
    patch_log *named_logs; /* with membranes, every rank: the last step's logs of the blocks that */
    uint32_t *log_entry;   /* gave anything, in the whole's order, and their table entries */
    patch_record *named_records;
    size_t n_named_logs, named_logs_cap, log_entry_cap, named_records_cap;
    size_t bonds_whole;   /* the whole's bonds at the last cut, or formed since (holds_share) */
    void *points;         /* room for the bisection (decomp/ranks.c) */
    size_t points_cap;
    size_t n_points;      /* the last cut's points */
    int *point_owner;     /* and their ranks (by point.b): ranks.owner, or table_owner */
    force_diag diag;      /* every rank's, merged (the step's team reads it) */
    char *send;           /* the bytes of this rank's last exchange, kept for the next */
    size_t send_cap;
    char *recv;           /* the bytes it received in the last exchange, kept for the next
                           * (fresh pages make a rebuild's exchange many times slower) */
    size_t recv_cap;
} sim_ranks;

/* What a contact costs a step against a particle, for the cut's weights:
 * in the settled 10^5 box (2.6 contacts per particle) the contact loop
 * takes about 3/4 of a step's samples in perf, and the update, list scan
 * and rest about 1/4. */
#define SIM_CONTACT_WORK 3

#endif
