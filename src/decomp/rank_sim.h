/* What the decomposition sees of the simulation it serves (rank_sim): the core's parts it
 * moves among the ranks and reads, by pointer, and the doors through which it asks the core
 * for the core's own steps (rank_core). The core makes it once, at a simulation's creation
 * (sim/sim.c), and passes it to every call of decomp/hooks.h; no file of src/decomp/ sees the
 * core's state (sim/sim_internal.h) or names a function of the core. */
#ifndef GRAINS_DECOMP_RANK_SIM_H
#define GRAINS_DECOMP_RANK_SIM_H

#include "boundary/walls.h"
#include "contact/hertz_mindlin.h"
#include "contact/store.h"
#include "decomp/ranks_state.h"
#include "geometry/periodic.h"
#include "integrate/integrator.h"
#include "interact/contact_record.h"
#include "membrane/membranes.h"
#include "neighbor/grid.h"
#include "neighbor/neighbor.h"

/* What the decomposition asks of the core: the core's own steps that a
 * share read from a checkpoint takes (its histories attached to the lists
 * kept, and what the steps size from them), a particle by id for a
 * frame's windows, the thermo's sums (sim/thermo.c), and which particles
 * the insertion regions' attempts may read (every rank holds them). */
typedef struct {
    grains_status (*attach_histories)(grains_sim *sim, store_key *keys, size_t n, uint32_t *first,
                                      grains_error *err);
    grains_status (*size_from_lists)(grains_sim *sim, grains_error *err);
    void (*get_particle)(const grains_sim *sim, size_t id, grains_particle *out);
    void (*thermo_start)(const grains_sim *sim, thermo_sums *s);
    void (*thermo_add)(const grains_sim *sim, thermo_sums *s, const grains_particle *p);
    int (*spawn_reads)(const grains_sim *sim, uint8_t *mark); /* whether a region attempts; marks them (mark[i] = 1
                                                                * per slot; NULL: none marked) */
} rank_core;

typedef struct rank_sim {
    grains_sim *core;          /* the simulation, for the doors alone */
    const rank_core *doors;
    sim_ranks *ranks;          /* the decomposition's own state */
    grains_params *p;
    const hm_params *hp;
    const integrator *integrator;
    int nthreads;
    grains_particles *pt;
    grains_grid *grid;
    grains_neighbors *nb;
    contact_store *cs;
    sim_bonds *bonds;
    walls *wl;
    sim_membranes *mb;
    patch_logs *patches;
    const periodic_box *box;
    const contact_record *rec;
    real *v2_thread;           /* per thread: the largest squared speed after the update */
    real *v2_far;              /* the strays' */
    const long *step;
    int *need_rebuild, *keep_sums, *tagged;
    const int *has_pending, *drop_mesh_histories;
    const int *guide_on;       /* a guided particle, and its id */
    uint32_t *guide_id;
} rank_sim;

/* A simulation shared among ranks; the ranks hold their own particles and
 * their partners alone (grains_ranks.local, decomp/rank_local.c). */
static inline int rank_shared(const rank_sim *sim) { return sim->ranks->peers.size > 1; }
static inline int rank_local(const rank_sim *sim) { return rank_shared(sim) && sim->ranks->peers.local; }
/* The whole's particles (grains_sim_count). */
static inline size_t rank_count(const rank_sim *sim)
{
    return sim->ranks->holds_share ? sim->ranks->n_ids : sim->pt->n;
}
/* The runs of particles this rank moves: its own, or alone all (one run,
 * in `alone`). */
static inline const slot_run *rank_own_runs(const rank_sim *sim, slot_run *alone, size_t *n)
{
    if (rank_shared(sim)) {
        *n = sim->ranks->n_runs;
        return sim->ranks->runs;
    }
    *alone = (slot_run){0, (uint32_t)sim->pt->n};
    *n = 1;
    return alone;
}
/* The particles as one reads and writes them: rank 0's copy of every
 * particle once gathered (decomp/rank_writer.c), else pt. */
static inline const grains_particles *rank_particles_read(const rank_sim *sim)
{
    const sim_ranks *r = sim->ranks;
    return r->holds_share && r->writer_whole && r->peers.rank == 0 ? &r->whole : sim->pt;
}
/* Whether the whole has any bonds (the same on every rank). */
static inline int rank_bonds_any(const rank_sim *sim)
{
    return sim->ranks->holds_share ? sim->ranks->bonds_whole > 0 : sim_bonds_count(sim->bonds) > 0;
}
/* Whether the steps read every block's wall sums and patch logs: servo
 * walls (their motion follows the force) or membranes (which pull the
 * walls they are pinned to, and read the patch logs). Otherwise only the
 * output reads the walls' force, and the sums go to the writer alone,
 * when it writes (grains_sim_gather_particles). */
static inline int rank_sums_each_step(const rank_sim *sim)
{
    for (size_t k = 0; k < sim->wl->n; k++)
        if (sim->wl->body[k].motion.type == GRAINS_MOTION_SERVO)
            return 1;
    return sim_membranes_count(sim->mb) > 0;
}
/* What the core asks of the decomposition's state (it reads none of its
 * members: bench/feature_state.py): whether this rank holds a share (its
 * own particles and their partners, and the whole's counts); it is the
 * writer (rank 0); the particles were dealt; the bonds of its own
 * particles (listed at the cut) and how many; the whole's last verdict
 * (sim_ranks_diag keeps it); the thermo's sums of the whole, when it has
 * them (*whole); the blocks a rank visits and the partners that are its
 * own (NULL: not shared); the listed marks of a rebuild that lists some
 * alone (or NULL), and the lists' first cell. The cut made stale (the
 * order changed, or every rank read the same checkpoint), the share let
 * go for a checkpoint's read, one particle added alike on every rank. */
static inline int rank_holds_share(const rank_sim *sim) { return sim->ranks->holds_share; }
static inline int rank_writer(const rank_sim *sim) { return sim->ranks->peers.rank == 0; }
static inline int rank_dealt(const rank_sim *sim) { return sim->ranks->dealt; }
static inline const uint32_t *rank_bonds_own(const rank_sim *sim, size_t *n)
{
    *n = sim->ranks->n_bonds_own;
    return sim->ranks->bonds_own;
}
static inline force_diag rank_verdict(const rank_sim *sim) { return sim->ranks->diag; }
static inline thermo_sums rank_thermo(const rank_sim *sim, int *whole)
{
    *whole = sim->ranks->thermo_whole;
    return sim->ranks->thermo;
}
static inline const uint8_t *rank_visit(const rank_sim *sim) { return rank_shared(sim) ? sim->ranks->visit : NULL; }
static inline const uint8_t *rank_mine(const rank_sim *sim) { return rank_shared(sim) ? sim->ranks->mine : NULL; }
static inline const uint8_t *rank_listed(const rank_sim *sim)
{
    return rank_shared(sim) && sim->ranks->listing_some ? sim->ranks->listed : NULL;
}
static inline uint32_t *rank_first(const rank_sim *sim) { return sim->ranks->first; }
static inline void rank_cut_stale(const rank_sim *sim) { sim->ranks->valid = 0; }
static inline void rank_let_share_go(const rank_sim *sim) { sim->ranks->holds_share = 0; }
static inline void rank_note_added(const rank_sim *sim) { sim->ranks->n_ids += sim->ranks->holds_share; }
/* The bonds as one reads and writes them: rank 0's copy of every bond once
 * gathered (decomp/rank_bonds.c), else the simulation's; the membranes'
 * patch logs of every rank, by their blocks' names (n of them). */
static inline const sim_bonds *rank_bonds_read(const rank_sim *sim)
{
    const sim_ranks *r = sim->ranks;
    return r->holds_share && r->writer_whole && r->peers.rank == 0 ? &r->whole_bonds : sim->bonds;
}
static inline const sim_bonds *rank_whole_bonds(const rank_sim *sim) { return &sim->ranks->whole_bonds; }
/* The blocks of the cut's table (the whole's, in the ranks' order). */
static inline size_t rank_table_blocks(const rank_sim *sim) { return sim->ranks->table.n; }
static inline patch_log *rank_named_logs(const rank_sim *sim, size_t *n)
{
    *n = sim->ranks->n_named_logs;
    return sim->ranks->named_logs;
}
/* Whether the steps send the halo alone (halo_suffices) in a valid cut. */
static inline int rank_halo_steps(const rank_sim *sim)
{
    return rank_shared(sim) && sim->ranks->valid && sim->ranks->halo_steps;
}

#endif
