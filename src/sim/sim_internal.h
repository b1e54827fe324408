/* The simulation's state (struct grains_sim, not public) and the core's own functions: the
 * lifetime, the step, the rebuild, the verdicts, the state's predicates. Each part the state
 * embeds declares itself in its own header, included here: the interactions
 * (interact/interact.h, force_diag.h), insertion (insert/insert.h), bonds (bonds/bonds.h),
 * membranes (membrane/membranes.h, patches.h), the decomposition's state
 * (decomp/ranks_state.h; the view it has of the simulation, decomp/rank_sim.h; the core's
 * calls into it, decomp/hooks.h) and the last good state
 * (sim/last_good.h). */
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
#include "util/rng.h"

#include "bonds/bonds.h"
#include "sim/uids.h"
#include "decomp/rank_sim.h"
#include "insert/insert.h"
#include "interact/contact_record.h"
#include "interact/force_diag.h"
#include "interact/interact.h"
#include "interact/mesh_select.h"
#include "membrane/membranes.h"
#include "membrane/patches.h"
#include "sim/kernels.h"
#include "sim/last_good.h"
#include "sim/probes.h"
#include "sim/sinks.h"
#include "sim/strays.h"

/* The guided particle (grains_sim_guide, sim/guide.c). */
/* The stress of the grains in a box that moves, sampled every
 * GRAINS_BOX_SAMPLE_EVERY steps, and what the servo of its height does
 * with it (sim/box_pressure.c). */
typedef struct {
    long step;                  /* of the sample; -1: none */
    real stress[9];             /* [M/LT^2] grains_box_state's */
    real solid_fraction;
    real stiffness;             /* [M/LT^2] d(-sigma_zz)/d(strain_zz) of the contacts, as an
                                 * affine strain would change them: the samples' mean over
                                 * the servo's time constant */
    real rate;                  /* [1/T] (dL_z/dt) / L_z the servo set from it */
    long n_sum;                 /* samples since grains_sim_clear_box_means */
    real sum_stress[9];         /* [M/LT^2] their stresses' sum */
    real sum_solid;             /* their solid fractions' sum */
} sim_box_sample;

typedef struct {
    int on;
    uint32_t id;
    vec3 velocity, axis;
    vec3 f_contact;  /* its contact force at the last step, before the guide */
} sim_guide;

struct grains_sim {
    grains_params p;
    const integrator *integrator; /* the row of p.integrator (integrate/integrator.h) */
    const sim_kernels *kernels;   /* the hot loops for this CPU (sim/kernels.h) */
    hm_params hp;
    material_motion motion[GRAINS_MAX_MATERIALS];
    int mixed;                  /* several materials, or a pair that does not touch: the
                                 * force loop looks up each pair's law */
    int fixed_lanes;            /* but the lanes take them: hm_fixed_copies */
    grains_particles pt;
    grains_mesh *mesh;          /* every mesh's vertices (where they are now) and elements, or NULL */
    walls wl;                   /* the meshes as bodies: motion, force and torque */
    sim_membranes mb;           /* the membranes and their vertices */
    sim_guide guide;            /* a particle whose motion is held across an axis */
    sim_last_good last_good;    /* the state before a step that may fail (Verlet rows) */
    patch_logs patches;         /* per cell block: what its particles gave membrane vertices */
    periodic_box box;           /* periodic axes (mask 0: none); a sheared box's offset as the
                                 * step's forces see it (sim/shear.c) */
    real shear_shift;           /* [L] a sheared box's offset at the run's time */
    sim_box_sample box_sample;  /* the grains' stress in a box that moves (sim/box_pressure.c) */
    grains_grid grid;
    grains_neighbors nb;
    contact_store cs;
    int nthreads;
    sim_ranks ranks;            /* the ranks it is shared among */
    rank_sim rank_view;         /* what the decomposition sees of it (made at creation) */
    long step;
    real displacement;          /* [L] bound on any particle's motion since the last rebuild,
                                 * the strays' apart (sim/strays.h) */
    sim_strays strays;
    size_t strays_over;         /* rebuilds that found more lost grains than the strays hold */
    int need_rebuild;
    int keep_sums;              /* the next rebuild keeps the force sums f and t with their particles
                                 * (a removal's, between steps: Verlet's next half kick reads them) */
    size_t n_rebuilds;
    sim_bonds bonds;
    sim_uids uids;              /* the removed particles' persistent ids (sim/uids.h) */
    sim_sinks sinks;            /* what the outlets removed (sim/sinks.c) */
    sim_probes probes;          /* what crossed the probes' planes (sim/probes.c) */
    implicit_solver vi;         /* the implicit rows' solver (integrate/implicit.h) */
    sim_implicit_terms terms;
    grains_rng rng;
    spawn_state spawn[GRAINS_MAX_SPAWNS]; /* each insertion region's (insert/spawn.c) */
    int tagged;                 /* a particle with a tag other than 0 was ever added */
    long spawned_ahead;         /* the step whose spawning grains_sim_spawn_ahead did, or -1 */
    grains_stop_asked stop_asked; /* asked inside long loops, or NULL (grains_sim_ask_stop) */
    void *stop_ctx;
    int stopped;                /* a step stopped part-way: no step more (sim_stopped) */
    contact_record rec;         /* the contacts output's record of a step (interact/contact_record.h) */
    force_diag diag;
    real max_overlap;           /* diag's fraction, evaluated */
    int drop_mesh_histories;    /* the mesh was replaced: its contacts end at the rebuild */
    grains_contact *pending;    /* grains_sim_set_contacts' springs, sorted, until the next rebuild */
    size_t n_pending;
    int has_pending;
    thread_own *thread;         /* per thread: its verdict and its queue */
    real *v2_thread;            /* per thread: largest squared speed after integration */
    mesh_candidate **cand_thread; /* per thread: one particle's mesh candidates (interact/mesh_select.h) */
    size_t cand_cap;            /* room in each: the most elements listed for one particle */
    uint64_t *block_work;       /* per cell block and one more: the work before it (sim/block_work.c) */
    size_t block_work_cap;
    uint32_t *block_next;       /* per phase and thread, a cache line apart: the next block of its region */
    size_t block_next_cap;
    int regions_weighed;        /* while a team's loops run: block_work holds this grid's blocks */
};

/* Weighs the cell blocks for the threads' shares of each colour phase
 * (neighbor/block_share.h), so that each thread walks and moves its own
 * region of the particles; 0 where they cannot: one thread, ranks, lists
 * not those of the particles as they lie, or no room (the team then shares
 * the blocks as they come). */
int sim_weigh_blocks(grains_sim *sim);

/* Room in every thread's candidate buffer for the most elements one
 * particle lists (none with compat = "tinydem"). */
grains_status sim_reserve_mesh_candidates(grains_sim *sim, grains_error *err);

/* The elements of removed meshes (grains_sim_remove_mesh) marked off, the others on. */
void sim_meshes_mark_off(grains_sim *sim);

/* The guided particle held (sim/guide.c): its contact force noted, then
 * its force across the axis and its torque replaced by what keeps its
 * velocity there and its spin as they are. Between the forces and an
 * explicit row's update, on one thread. */
void sim_guide_hold(grains_sim *sim);

/* What a run can represent, from its own dt and R_min (sim/scales.c): a
 * particle's mass, speed and spin; a mesh's vertices; a mesh motion's
 * fastest point at distance `reach` from its point; the insertion
 * regions' v0 and w0 and radii. RANGE errors naming the figures. */
grains_status sim_scale_particle(const grains_sim *sim, const grains_particle *p, grains_error *err);
grains_status sim_scale_mesh(const grains_sim *sim, const grains_mesh *mesh, grains_error *err);
grains_status sim_scale_motion(const grains_sim *sim, const grains_motion *m, real reach, grains_error *err);
grains_status sim_scale_regions(const grains_sim *sim, grains_error *err);
/* Gravity g: a grain falling from rest moves at most R_min in a step. */
grains_status sim_scale_gravity(const grains_sim *sim, grains_vec3 g, grains_error *err);

/* The whole's particles (grains_sim_count) and the time (grains_sim_time). */
static inline size_t sim_count(const grains_sim *sim) { return rank_count(&sim->rank_view); }
static inline double sim_time(const grains_sim *sim) { return (double)sim->step * sim->p.dt; }

/* Why a step stopped part-way (grains_sim_stopped). */
typedef enum { SIM_STOPPED_ASKED = 1, SIM_STOPPED_LOST, SIM_STOPPED_REBUILD } sim_stopped;

/* A simulation shared among ranks (decomp/ranks.c). */
static inline int sim_shared(const grains_sim *sim) { return rank_shared(&sim->rank_view); }
/* The runs of particles this rank moves: its own, or alone all (one run,
 * in `alone`). */
static inline const slot_run *sim_own_runs(const grains_sim *sim, slot_run *alone, size_t *n)
{
    return rank_own_runs(&sim->rank_view, alone, n);
}
/* A particle's values as grains_sim_add_particle checks them. */
grains_status sim_check_particle(const grains_sim *sim, const grains_particle *p, grains_error *err);
/* Whether the ranks hold their own particles and their partners alone
 * (grains_ranks.local, decomp/rank_local.c). */
static inline int sim_ranks_local(const grains_sim *sim) { return rank_local(&sim->rank_view); }
/* The thermo's sums of the particles, one by one in the ids' order, so
 * that every copy of them gives the same bits (sim/thermo.c). */
void sim_thermo_start(const grains_sim *sim, thermo_sums *s);
/* The box out of which a particle is lost (into s), and whether x is lost out of it. */
void sim_lost_box(const grains_sim *sim, thermo_sums *s);
int sim_lost(const grains_sim *sim, const thermo_sums *s, vec3 x);
void sim_thermo_add(const grains_sim *sim, thermo_sums *s, const grains_particle *p);
/* Strays (sim/strays.h). At the end of a rebuild: which lost grains are
 * strays, list_pad beyond touching the lists' reach. */
void sim_strays_find(grains_sim *sim, real list_pad);
/* After the threads noted their largest squared speeds over the runs (before
 * the ranks' reduction): the strays' apart (strays.v2_far), the rest's in
 * v2_thread. Then, after the reduction, both added to their bounds where the
 * row moved the grains (`moves`), and the largest of all back in v2_thread. */
void sim_strays_split(grains_sim *sim, const slot_run *runs, size_t n_runs);
void sim_strays_advance(grains_sim *sim, int moves);
/* Whether a stray could meet something unlisted, the meshes having moved by `elements`. */
int sim_strays_close(const grains_sim *sim, real elements);
void sim_strays_write_state(const sim_strays *st, bytes_out *o);
grains_status sim_strays_read_state(grains_sim *sim, bytes_in *in, size_t n_particles, grains_error *err);
/* Where this rank holds each stray, once a read state's particles are in place. */
void sim_strays_place(grains_sim *sim);
/* Newcomers (sim/newcomers.c): grains added by insertion since the last
 * rebuild, slots [grid.n_particles, n), in no list, at most NEWCOMERS_MAX.
 * Whether a grain added now may wait so (an explicit row, the lists built
 * and holding, no strays, room); whether some newcomer comes within reach
 * of something, the meshes having moved by `elements` (the lists are then
 * stale; only while any grain has moved at most skin / 2); and, on ranks,
 * the run of them that every rank moves (0: none). */
#define NEWCOMERS_MAX 64
int sim_newcomers_may_wait(const grains_sim *sim);
int sim_newcomers_near(const grains_sim *sim, real elements);
int sim_newcomers_run(const grains_sim *sim, slot_run *run);
static inline const grains_particles *sim_particles_read(const grains_sim *sim)
{
    return rank_particles_read(&sim->rank_view);
}
/* Whether the whole has any bonds (the same on every rank); and the bonds
 * as one reads and writes them: rank 0's copy of every bond once gathered
 * (decomp/rank_bonds.c), else the bonds. */
static inline int sim_bonds_any(const grains_sim *sim) { return rank_bonds_any(&sim->rank_view); }
static inline const sim_bonds *sim_bonds_read(const grains_sim *sim)
{
    return rank_bonds_read(&sim->rank_view);
}
/* What the steps size from the present lists: the bonds' index by slot,
 * each thread's room for a particle's mesh candidates, the membranes'
 * patch logs (sim/attach.c). */
grains_status sim_size_from_lists(grains_sim *sim, grains_error *err);
/* The histories named by keys (pairs of the present lists, springs in
 * the store's pool in the keys' order) into the lists' order, each cell
 * block's window sized from the lists; first: scratch of a place per
 * particle (sim/attach.c). */
grains_status sim_attach_histories(grains_sim *sim, store_key *keys, size_t n, uint32_t *first, grains_error *err);
/* Whether the steps read every block's wall sums and patch logs: servo
 * walls (their motion follows the force) or membranes (which pull the
 * walls they are pinned to, and read the patch logs). Otherwise only the
 * output reads the walls' force, and the sums go to the writer alone,
 * when it writes (grains_sim_gather_particles). */
static inline int sim_ranks_sums_each_step(const grains_sim *sim) { return rank_sums_each_step(&sim->rank_view); }
/* Whether the steps send the halo alone (halo_suffices) in a valid cut:
 * then a row's begin moves every copy, but the largest speed is over the
 * own particles', and sim_ranks_begun makes it every rank's largest
 * (sim->v2_thread[0] holds it). */
static inline int sim_ranks_halo_steps(const grains_sim *sim) { return rank_halo_steps(&sim->rank_view); }

/* The bonds' view of the simulation (bonds/bonds.h). */
static inline bonds_view sim_bonds_of(grains_sim *sim)
{
    return (bonds_view){&sim->bonds, &sim->pt, &sim->box, &sim->p, &sim->hp};
}

/* The membranes' view of the simulation (membrane/patches.h): the last
 * step's patch logs in the whole's order, the grid's blocks', or, on ranks
 * holding their own particles alone, every rank's named ones. */
static inline membrane_view sim_membranes_of(grains_sim *sim)
{
    if (rank_holds_share(&sim->rank_view)) {
        size_t n;
        patch_log *logs = rank_named_logs(&sim->rank_view, &n);
        return (membrane_view){&sim->mb, logs, n};
    }
    return (membrane_view){&sim->mb, sim->patches.log, sim->patches.log ? sim->grid.n_blocks : 0};
}

/* Insertion's view of the simulation (insert/insert.h): what the regions
 * reach (sim_insert_reach: no door to add through, for the ranks' halo),
 * or all of it; and a step's attempts through it: STOPPED leaves the
 * simulation stopped part-way (sim/spawning.c). */
static inline insert_view sim_insert_reach(const grains_sim *sim)
{
    return (insert_view){(spawn_state *)sim->spawn, &sim->p, &sim->pt, &sim->grid, &sim->box, sim->mesh,
                         (grains_rng *)&sim->rng, sim_count(sim), sim_time(sim), sim->step, NULL, NULL, NULL, NULL};
}
insert_view sim_insert_of(grains_sim *sim);
/* Whether an insertion region still attempts; and (mark not NULL) the
 * particles its attempts may read marked, mark[i] = 1 per slot. */
int sim_spawn_reads(const grains_sim *sim, uint8_t *mark);
grains_status sim_spawn_step(grains_sim *sim, size_t *added, grains_error *err);

/* The force loop's view of the simulation (interact/interact.h): a rank
 * visits the blocks rank_visit marks, a block it visits in part for the
 * pairs with its own particles. */
static inline force_view sim_forces_of(grains_sim *sim)
{
    return (force_view){sim->pt,
                        sim->nb,
                        &sim->cs,
                        &sim->hp,
                        &sim->grid,
                        &sim->box,
                        sim->mesh,
                        &sim->wl,
                        &sim->mb,
                        sim->patches.log,
                        &sim->bonds,
                        sim_bonds_any(sim),
                        &sim->rec,
                        sim->p.kernel == GRAINS_KERNEL_VECTOR ? sim->kernels->block_lane_contacts : NULL,
                        rank_visit(&sim->rank_view),
                        rank_mine(&sim->rank_view),
                        sim->mixed,
                        sim->fixed_lanes,
                        NULL,
                        NULL,
                        0};
}
/* Notes the lowest particle whose force or torque is not finite; the
 * threads' diag slots combined (order-free: sums and maxima) (sim/verdict.c). */
void sim_check_finite(const grains_sim *sim, force_diag *d);
force_diag sim_reduce_diag(const grains_sim *sim);

/* The integrators' view of the particles, moving [lo, hi). */
static inline integrate_view sim_view(grains_sim *sim, size_t lo, size_t hi)
{
    return (integrate_view){&sim->pt, &sim->p, sim->motion, lo, hi, 0};
}

/* The springs of grains_sim_set_contacts into the store (cs.c[0 .. n_pending))
 * with their keys by storage slot, in place of the gathered ones (sim/contact_ids.c). */
grains_status sim_load_contacts(grains_sim *sim, store_key *keys, grains_error *err);

/* Rebuilds grid, candidate lists and history handles. */
grains_status sim_rebuild(grains_sim *sim, grains_error *err);

/* A sheared periodic box (sim/shear.c). The box's sheared, shear_v and
 * shift from the parameters and the run's offset (after either changes). */
void sim_shear_frame(grains_sim *sim);
/* Before the step's lists and forces: the offset at time t + at dt (the
 * integrator's place_at), the lists' bound grown by its change. */
void sim_shear_place(grains_sim *sim, real at);
/* After the step: the run's offset one step on. */
void sim_shear_advance(grains_sim *sim);
/* An ARG error for what a sheared box does not take (meshes, membranes). */
grains_status sim_shear_refusals(const grains_sim *sim, grains_error *err);
/* A periodic box that moves (sim/box_pressure.c). Before a step's forces:
 * whether it samples the box's stress (then it records the contacts,
 * sim->rec.requested, as grains_sim_record_contacts does). */
int sim_box_sample_begin(grains_sim *sim);
/* After the step's forces and update: where the step `held` (stable), the
 * sample from the recorded contacts and the servo's next rate; `own`: the
 * recording was the sample's alone (put back to none). */
void sim_box_sample_take(grains_sim *sim, int own, int held);
/* After the step: the box's height one step on at the servo's rate, the
 * grains' z with it (an affine map), the lists' bound grown. */
void sim_box_advance(grains_sim *sim);
void sim_box_write_state(const grains_sim *sim, bytes_out *o);
grains_status sim_box_read_state(grains_sim *sim, bytes_in *in, grains_error *err);
/* One process: whether the particles (less those marked in `gone`, by id;
 * NULL: none) fit the grid a rebuild would make (grid_check_frame). */
grains_status sim_rebuild_check(const grains_sim *sim, const uint8_t *gone, grains_error *err);
/* The same, the force sums f and t kept with their particles (keep_sums):
 * a removal's, between steps, whose next half kick (Verlet) reads them. */
grains_status sim_rebuild_keeping_sums(grains_sim *sim, grains_error *err);

/* The ARG error for a step asked of a simulation stopped part-way
 * (grains_sim_ask_stop). */
grains_status sim_refuse_stopped(const grains_sim *sim, grains_error *err);
/* The tag rules, after a step (sim/tags.c). */
void sim_apply_tag_rules(grains_sim *sim);

/* 2D runs (sim/plane.c): a velocity (or force) and spin (or torque) kept
 * to the plane: no part along plane_normal, only a part about it; and
 * every particle's force and torque so (a worksharing loop). Nothing in 3D. */
void sim_plane_motion(const grains_params *p, vec3 *v, vec3 *w);
void sim_plane_forces(grains_sim *sim);


/* A step that failed its check: the last good state stays, the error names
 * the particle (sim/verdict.c). */
grains_status sim_report_unstable(const grains_sim *sim, const force_diag *total, grains_error *err);
/* A step whose update left a speed that is not finite: the state put back
 * where it was kept, the particle named (sim/verdict.c). */
grains_status sim_non_finite_state(grains_sim *sim, grains_error *err);

/* Whether the forces of a step may be applied: finite, overlaps within bounds. */
int sim_stable(const grains_sim *sim, const force_diag *total);

#endif
