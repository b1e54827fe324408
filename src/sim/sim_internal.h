/* The simulation's state, shared by the files of src/sim (not public). */
#ifndef GRAINS_SIM_INTERNAL_H
#define GRAINS_SIM_INTERNAL_H

#include <limits.h>
#include <math.h>

#include "boundary/walls.h"
#include "contact/hertz_mindlin.h"
#include "contact/store.h"
#include "grains/ranks.h"
#include "grains/sim.h"
#include "integrate/implicit.h"
#include "integrate/integrator.h"
#include "neighbor/grid.h"
#include "neighbor/neighbor.h"
#include "particles/particles.h"
#include "sim/contact_record.h"
#include "sim/membranes.h"
#include "sim/mesh_select.h"
#include "decomp/rank_cut.h"
#include "decomp/rank_move.h"
#include "util/rng.h"

/* An insertion region's progress (sim/spawn.c). */
typedef struct {
    real R_next;                /* [L] the radius drawn for its next particle, kept until one fits */
    long added;                 /* particles it added */
    long idle_steps;            /* steps in a row in which no attempt fit */
    int stop;                   /* grains_spawn_stop */
    long stop_step;             /* the step it stopped in */
} spawn_state;

/* What the force loop saw, reduced in a fixed order. */
typedef struct {
    size_t n_contacts;
    real max_num, max_den;  /* largest delta / (2 R*) as a fraction */
    long max_overlap_i;     /* particle with the largest overlap */
    long non_finite;        /* lowest particle with a non-finite force, or LONG_MAX */
    long overlap_id, non_finite_id; /* their ids, where ranks hold their own particles alone: then the
                             * two above are places in the whole's order, merged as one process's */
    int history_failed;     /* a contact history could not be stored */
    int bonds_broke;        /* a bond broke (then every rank rebuilds its lists) */
    real max_force;         /* largest pair force (variational integrator and relaxation only) */
} force_diag;

/* Nothing seen yet. */
static inline force_diag force_diag_empty(void)
{
    return (force_diag){.max_den = 1, .max_overlap_i = -1, .non_finite = LONG_MAX, .overlap_id = -1,
                        .non_finite_id = -1};
}

/* Largest relative overlap delta / (2 R*) kept as a fraction, compared by
 * cross-multiplication: no division per contact. */
static inline void note_overlap(force_diag *d, real delta, real two_R_eff, long i)
{
    d->n_contacts++;
    real lhs = delta * d->max_den, rhs = d->max_num * two_R_eff;
    if (lhs > rhs || (lhs == rhs && i < d->max_overlap_i)) {
        d->max_num = delta;
        d->max_den = two_R_eff;
        d->max_overlap_i = i;
    }
}

/* A contact whose centres coincide has no normal: report it as unbounded overlap. */
static inline void note_singular(force_diag *d, long i)
{
    d->max_num = INFINITY;
    d->max_den = 1;
    d->max_overlap_i = i;
}

/* One bond between particles a < b (ids), its springs and last forces. */
typedef struct {
    uint32_t a, b;
    int broken;
    hm_history h;        /* sliding, rolling, twisting springs (contact/bond.h) */
    real force, torque;  /* magnitudes on a at the last step */
} sim_bond;

/* A bond's push on its two particles in a step (f on a, -f on b), found
 * by any thread, added to their sums in the bonds' order by one. */
typedef struct {
    vec3 f, t_a, t_b;
    int state;           /* BOND_PUSHES, BOND_BROKE (this step) or BOND_IDLE (broken before) */
} bond_push;

/* The bonds sorted by (a, b), and for each storage slot its bonded
 * partners' slots, rebuilt with the lists (sim/bonds.c). */
typedef struct {
    sim_bond *list;
    size_t n, cap;
    int sorted;
    int formed;          /* bond_tolerance's bonds have been formed */
    uint32_t *start, *partner;
    size_t start_cap, partner_cap;
    size_t indexed;      /* particles the index covers (start has one more) */
    bond_push *push;     /* per bond evaluated in a step: its result, applied in the bonds' order */
    size_t push_cap;
} sim_bonds;

/* One listed pair's part of Newton's matrix (sim/implicit_field.c): a n n^T
 * on the relative displacement, a = 0 when the pair does not touch. */
typedef struct {
    vec3 n;
    real a;
    real c;          /* the dashpot, and whether the pair touches: kept while */
    int touching;    /* the contact set is frozen (integrate/implicit.h) */
} implicit_term;

/* Per list entry, the terms of the implicit solver's last evaluation. */
typedef struct {
    implicit_term *term;
    size_t cap;
} sim_implicit_terms;

/* What a cell block's particles gave membrane vertices through patch
 * contacts, in the block's order (sim/forces.c), added to the vertices in
 * block order after the force loop: the same sums for any thread count. */
typedef struct {
    uint32_t vertex;   /* of all membranes' vertices */
    vec3 f;
} patch_record;

typedef struct {
    patch_record *rec;  /* room for 3 per listed patch of the block's particles */
    uint32_t n;
} patch_log;

/* The guided particle (grains_sim_guide, sim/guide.c). */
typedef struct {
    int on;
    uint32_t id;
    vec3 velocity, axis;
    vec3 f_contact;  /* its contact force at the last step, before the guide */
} sim_guide;

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

/* A copy of the state before a step that may fail (sim/last_good.c):
 * per particle held, its id (ids[k]), x, v, w (x[3 k ..]) and q; the
 * membrane vertices' x then v; the meshes as bodies. */
typedef struct {
    vec3 *x;
    quat *q;
    uint32_t *ids;
    vec3 *vertex;
    wall_body *body;
    size_t n, n_vertices, cap, cap_q, cap_ids, cap_vertex, cap_body;
    int held;
    long idle;           /* steps since the particles were last copied */
} sim_last_good;

/* Whether this step's begin must be preceded by a copy of the particles
 * and membrane vertices (given the last step's top speed); the copy (the
 * meshes always, the rest when `particles`), and its restoring after a
 * failed step (the lists are then stale). */
int sim_last_good_needed(const grains_sim *sim, real v_max);
grains_status sim_last_good_take(grains_sim *sim, int particles, grains_error *err);
void sim_last_good_restore(grains_sim *sim);
void sim_last_good_free(sim_last_good *g);

struct grains_sim {
    grains_params p;
    const integrator *integrator; /* the row of p.integrator (integrate/integrator.h) */
    hm_params hp;
    material_motion motion[GRAINS_MAX_MATERIALS];
    int mixed;                  /* several materials, or a pair that does not touch: the
                                 * force loop looks up each pair's law */
    grains_particles pt;
    grains_mesh *mesh;          /* every mesh's vertices (where they are now) and elements, or NULL */
    walls wl;                   /* the meshes as bodies: motion, force and torque */
    sim_membranes mb;           /* the membranes and their vertices */
    sim_guide guide;            /* a particle whose motion is held across an axis */
    sim_last_good last_good;    /* the state before a step that may fail (Verlet rows) */
    patch_log *patch_logs;      /* per cell block */
    patch_record *patch_records;
    size_t patch_logs_cap, patch_records_cap;
    periodic_box box;           /* periodic axes (mask 0: none) */
    grains_grid grid;
    grains_neighbors nb;
    contact_store cs;
    int nthreads;
    sim_ranks ranks;            /* the ranks it is shared among */
    long step;
    real displacement;          /* [L] bound on any particle's motion since the last rebuild */
    int need_rebuild;
    size_t n_rebuilds;
    sim_bonds bonds;
    implicit_solver vi;         /* the implicit rows' solver (integrate/implicit.h) */
    sim_implicit_terms terms;
    grains_rng rng;
    spawn_state spawn[GRAINS_MAX_SPAWNS]; /* each insertion region's (sim/spawn.c) */
    int tagged;                 /* a particle with a tag other than 0 was ever added */
    long spawned_ahead;         /* the step whose spawning grains_sim_spawn_ahead did, or -1 */
    grains_stop_asked stop_asked; /* asked inside long loops, or NULL (grains_sim_ask_stop) */
    void *stop_ctx;
    int stopped;                /* a step stopped part-way: no step more (sim_stopped) */
    contact_record rec;         /* the contacts output's record of a step (sim/contact_record.h) */
    force_diag diag;
    real max_overlap;           /* diag's fraction, evaluated */
    int drop_mesh_histories;    /* the mesh was replaced: its contacts end at the rebuild */
    grains_contact *pending;    /* grains_sim_set_contacts' springs, sorted, until the next rebuild */
    size_t n_pending;
    int has_pending;
    force_diag *diag_thread;    /* per thread */
    store_queue *queue_thread;  /* per thread: histories displaced by insertions */
    real *v2_thread;            /* per thread: largest squared speed after integration */
    mesh_candidate **cand_thread; /* per thread: one particle's mesh candidates (sim/mesh_select.h) */
    size_t cand_cap;            /* room in each: the most elements listed for one particle */
};

/* Room in every thread's candidate buffer for the most elements one
 * particle lists (none with compat = "tinydem"). */
grains_status sim_reserve_mesh_candidates(grains_sim *sim, grains_error *err);

/* The springs of grains_sim_set_contacts into the store (cs.c[0 .. n_pending))
 * with their keys by storage slot, in place of the gathered ones (sim/contacts.c). */
grains_status sim_load_contacts(grains_sim *sim, store_key *keys, grains_error *err);

/* Room in each block's patch log for its particles' listed patches. */
grains_status sim_reserve_patch_logs(grains_sim *sim, grains_error *err);

/* The grains' push on membrane k's vertices in the patch logs (the last
 * step's), each along its vertex's outward direction from the axis through
 * point along the unit axis. */
double sim_patch_logs_radial(const grains_sim *sim, size_t k, vec3 point, vec3 axis);

/* Growing radii (sim/grow.c): the scale of the radii at time t, and every
 * radius grown from t_old to t_new (the growth counted in the skin budget). */
real sim_grow_scale(const grains_params *p, real t);
void sim_grow(grains_sim *sim, real t_old, real t_new);

/* The guided particle held (sim/guide.c): its contact force noted, then
 * its force across the axis and its torque replaced by what keeps its
 * velocity there and its spin as they are. Between the forces and an
 * explicit row's update, on one thread. */
void sim_guide_hold(grains_sim *sim);

/* The patch logs' forces onto the membranes' vertices, blocks in order
 * (the whole's: ranks holding their own particles alone read every
 * rank's, ranks.named_logs). */
void sim_gather_patch_logs(grains_sim *sim);

/* After a step that held: each membrane under GRAINS_PRESSURE_FELT moves
 * its servo's addition to the pressure towards the felt stress asked for
 * (sim/confine.c). */
void sim_hold_confinement(grains_sim *sim);
/* Ranks holding their own particles alone: the named logs laid out per
 * entry of the whole's table, as one process's per block, to write
 * (malloc'd, pointing into ranks.named_records), or NULL. */
patch_log *sim_patch_logs_whole(const grains_sim *sim);

/* What a contact costs a step against a particle, for the cut's weights:
 * in the settled 10^5 box (2.6 contacts per particle) the contact loop
 * takes about 3/4 of a step's samples in perf, and the update, list scan
 * and rest about 1/4. */
#define SIM_CONTACT_WORK 3

/* What a run can represent, from its own dt and R_min (sim/scales.c): a
 * particle's mass, speed and spin; a mesh's vertices; a mesh motion's
 * fastest point at distance `reach` from its point; the insertion
 * regions' v0 and w0 and radii. RANGE errors naming the figures. */
grains_status sim_scale_particle(const grains_sim *sim, const grains_particle *p, grains_error *err);
grains_status sim_scale_mesh(const grains_sim *sim, const grains_mesh *mesh, grains_error *err);
grains_status sim_scale_motion(const grains_sim *sim, const grains_motion *m, real reach, grains_error *err);
grains_status sim_scale_regions(const grains_sim *sim, grains_error *err);

/* Why a step stopped part-way (grains_sim_stopped). */
typedef enum { SIM_STOPPED_ASKED = 1, SIM_STOPPED_LOST } sim_stopped;

/* A simulation shared among ranks (decomp/ranks.c). */
static inline int sim_shared(const grains_sim *sim) { return sim->ranks.peers.size > 1; }
/* The runs of particles this rank moves: its own, or alone all (one run,
 * in `alone`). */
static inline const slot_run *sim_own_runs(const grains_sim *sim, slot_run *alone, size_t *n)
{
    if (sim_shared(sim)) {
        *n = sim->ranks.n_runs;
        return sim->ranks.runs;
    }
    *alone = (slot_run){0, (uint32_t)sim->pt.n};
    *n = 1;
    return alone;
}
/* A particle's values as grains_sim_add_particle checks them. */
grains_status sim_check_particle(const grains_sim *sim, const grains_particle *p, grains_error *err);
/* Whether the ranks hold their own particles and their partners alone
 * (grains_ranks.local, decomp/rank_local.c). */
static inline int sim_ranks_local(const grains_sim *sim) { return sim_shared(sim) && sim->ranks.peers.local; }
/* The thermo's sums of the particles, one by one in the ids' order, so
 * that every copy of them gives the same bits (sim/sim.c). */
void sim_thermo_start(const grains_sim *sim, thermo_sums *s);
void sim_thermo_add(const grains_sim *sim, thermo_sums *s, const grains_particle *p);
static inline const grains_particles *sim_particles_read(const grains_sim *sim)
{
    return sim->ranks.holds_share && sim->ranks.writer_whole && sim->ranks.peers.rank == 0 ? &sim->ranks.whole
                                                                                            : &sim->pt;
}
/* Whether the whole has any bonds (the same on every rank); and the bonds
 * as one reads and writes them: rank 0's copy of every bond once gathered
 * (decomp/rank_bonds.c), else the bonds. */
static inline int sim_bonds_any(const grains_sim *sim)
{
    return sim->ranks.holds_share ? sim->ranks.bonds_whole > 0 : sim->bonds.n > 0;
}
static inline const sim_bonds *sim_bonds_read(const grains_sim *sim)
{
    return sim->ranks.holds_share && sim->ranks.writer_whole && sim->ranks.peers.rank == 0
               ? &sim->ranks.whole_bonds
               : &sim->bonds;
}
/* What the steps size from the present lists: the bonds' index by slot,
 * each thread's room for a particle's mesh candidates, the membranes'
 * patch logs (sim/rebuild.c). */
grains_status sim_size_from_lists(grains_sim *sim, grains_error *err);
/* The histories named by keys (pairs of the present lists, springs in
 * the store's pool in the keys' order) into the lists' order, each cell
 * block's window sized from the lists; first: scratch of a place per
 * particle (sim/rebuild.c). */
grains_status sim_attach_histories(grains_sim *sim, store_key *keys, size_t n, uint32_t *first, grains_error *err);
/* Whether block b's pairs are this rank's to evaluate: 2 all (own), 1
 * those with an own partner, 0 none. */
static inline int sim_ranks_visit(const grains_sim *sim, uint32_t b)
{
    return sim_shared(sim) ? sim->ranks.visit[b] : 2;
}
/* Whether the steps read every block's wall sums and patch logs: servo
 * walls (their motion follows the force) or membranes (which pull the
 * walls they are pinned to, and read the patch logs). Otherwise only the
 * output reads the walls' force, and the sums go to the writer alone,
 * when it writes (grains_sim_gather_particles). */
static inline int sim_ranks_sums_each_step(const grains_sim *sim)
{
    for (size_t k = 0; k < sim->wl.n; k++)
        if (sim->wl.body[k].motion.type == GRAINS_MOTION_SERVO)
            return 1;
    return sim->mb.n > 0;
}
/* Whether the steps send the halo alone (halo_suffices) in a valid cut:
 * then a row's begin moves every copy, but the largest speed is over the
 * own particles', and sim_ranks_begun makes it every rank's largest
 * (sim->v2_thread[0] holds it). */
static inline int sim_ranks_halo_steps(const grains_sim *sim)
{
    return sim_shared(sim) && sim->ranks.valid && sim->ranks.halo_steps;
}

/* The integrators' view of the particles, moving [lo, hi). */
static inline integrate_view sim_view(grains_sim *sim, size_t lo, size_t hi)
{
    return (integrate_view){&sim->pt, &sim->p, sim->motion, lo, hi};
}

/* Rebuilds grid, candidate lists and history handles. */
grains_status sim_rebuild(grains_sim *sim, grains_error *err);

/* Spawn attempts of one step (Section 3.1); returns how many were added. */
grains_status sim_spawn(grains_sim *sim, size_t *added, grains_error *err);
/* The ARG error for a step asked of a simulation stopped part-way
 * (grains_sim_ask_stop). */
grains_status sim_refuse_stopped(const grains_sim *sim, grains_error *err);
/* Each region's first radius (at creation). */
void sim_spawn_init(grains_sim *sim);
/* Whether an insertion region still attempts. */
int sim_spawn_active(const grains_sim *sim);
/* Marks (mark[i] = 1, per storage slot) the particles binned at the last
 * rebuild that the active regions' attempts may read until the next. */
void sim_spawn_mark_reach(const grains_sim *sim, uint8_t *mark);
/* The tag rules, after a step (sim/tags.c). */
void sim_apply_tag_rules(grains_sim *sim);

/* The next three are worksharing loops for every thread of one parallel
 * region (grains_sim_step), each thread passing its own diag slot. */

/* Contact forces of the current positions into pt.f, pt.t (sim/forces.c);
 * `cand` is the thread's room for one particle's mesh candidates (NULL:
 * every mesh contact counts, compat = "tinydem"). */
void sim_forces(grains_sim *sim, force_diag *d, store_queue *q, mesh_candidate *cand);

/* The contacts of cell block b's particles in the common run (one material,
 * open box, no attraction, bonds or extended sub-models, full histories),
 * evaluated in lanes (sim/force_lanes.c), those with partners marked in
 * `mine` only (NULL: all; partner_ours, sim/contact_visit.h); sim_mesh_contacts evaluates the
 * mesh contacts of particle i's listed elements [k0, end) one at a time,
 * into its sums f_i, t_i, where they cannot go into lanes. */
void sim_block_lane_contacts(grains_sim *sim, uint32_t b, store_stream *s, force_diag *d, vec3 *wall_sum,
                             patch_log *plog, mesh_candidate *cand, const uint8_t *mine);
void sim_mesh_contacts(grains_sim *sim, uint32_t i, uint32_t k0, uint32_t end, store_stream *s, force_diag *d,
                       vec3 *wall_sum, patch_log *plog, mesh_candidate *cand, vec3 *f_i, vec3 *t_i);

/* The candidates of particle i (at x_i) among its listed elements [k0, end):
 * closest points, features, whether they touch, and which make contacts
 * (sim/mesh_select.h); `extended` admits JKR's reach. */
void sim_select_mesh_contacts(const grains_sim *sim, uint32_t i, vec3 x_i, int mat_i, uint32_t k0, uint32_t end,
                              mesh_candidate *c, int mixed, int extended);

/* 2D runs (sim/plane.c): a velocity (or force) and spin (or torque) kept
 * to the plane: no part along plane_normal, only a part about it; and
 * every particle's force and torque so (a worksharing loop). Nothing in 3D. */
void sim_plane_motion(const grains_params *p, vec3 *v, vec3 *w);
void sim_plane_forces(grains_sim *sim);

/* Notes the lowest particle whose force or torque is not finite. */
void sim_check_finite(const grains_sim *sim, force_diag *d);

/* Bonds (sim/bonds.c): the index by slot after a rebuild, formation from
 * proximity at the first step, the forces of a step (a worksharing loop
 * of the step's team: evaluated by every thread, added in the bonds'
 * order by one, which notes in d whether one broke), and whether slots i
 * and j are bonded (intact). */
grains_status sim_bonds_index(grains_sim *sim, grains_error *err);
grains_status sim_bonds_form(grains_sim *sim, grains_error *err);
void sim_bond_forces(grains_sim *sim, force_diag *d);
void sim_bonds_free(sim_bonds *bs);
void sim_bonds_sort(sim_bonds *bs);
/* For each of n particles, its partners through the bonds for which
 * keep[k] is set (NULL: the intact ones), slot[id] their places: the
 * index sim_bonds_index builds; 0 out of memory. */
int sim_bonds_fill_index(sim_bonds *bs, size_t n, const uint32_t *slot, const uint8_t *keep);

/* The bonds, their springs and the index by slot as it stands (it keeps a
 * bond broken since the last rebuild, as the force loop does) for
 * checkpoints, and back for n particles; an error without a file name. */
void sim_bonds_write_state(const sim_bonds *bs, size_t n_particles, bytes_out *o);
grains_status sim_bonds_read_state(sim_bonds *bs, bytes_in *in, size_t n_particles, grains_error *err);

/* The patch logs of the last step (sim/patches.c), for checkpoints (those
 * of n_blocks blocks: the grid's, or the whole's on rank 0 of ranks that
 * hold their own alone), and back after sim_reserve_patch_logs. */
void sim_patch_logs_write(const patch_log *logs, size_t n_blocks, bytes_out *o);
grains_status sim_patch_logs_read_state(grains_sim *sim, bytes_in *in, grains_error *err);

static inline int sim_bonded(const grains_sim *sim, uint32_t i, uint32_t j)
{
    const sim_bonds *bs = &sim->bonds;
    for (uint32_t k = bs->start[i]; k < bs->start[i + 1]; k++)
        if (bs->partner[k] == j)
            return 1;
    return 0;
}

/* The implicit solver's force field over this simulation's lists, with
 * room for the terms of every listed pair (sim/implicit_field.c). */
grains_status sim_implicit_field(grains_sim *sim, implicit_field *f, grains_error *err);
void sim_implicit_terms_free(sim_implicit_terms *t);

/* A step that failed its check: the last good state stays, the error names
 * the particle (sim/verdict.c). */
grains_status sim_report_unstable(const grains_sim *sim, const force_diag *total, grains_error *err);
/* A step whose update left a speed that is not finite: the state put back
 * where it was kept, the particle named (sim/verdict.c). */
grains_status sim_non_finite_state(grains_sim *sim, grains_error *err);

/* Whether the forces of a step may be applied: finite, overlaps within bounds. */
int sim_stable(const grains_sim *sim, const force_diag *total);

/* d's findings added to total's (order-free: sums, maxima, ties to the
 * lowest index). */
void force_diag_merge(force_diag *total, const force_diag *d);
/* The threads' diag slots combined (order-free: sums and maxima). */
force_diag sim_reduce_diag(const grains_sim *sim);

#endif
