/* A simulation's lifetime: created from its parameters, destroyed, and the bytes it holds. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif


static int thread_count(int requested)
{
    if (requested > 0)
        return requested;
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* The periodic box of the parameters (an empty mask without one). */
static periodic_box box_of(const grains_params *p)
{
    /* (a sheared box's own: sim/shear.c) */
    periodic_box b = {.mask = p->periodic, .lo = {p->box_min.x, p->box_min.y, p->box_min.z}};
    const real hi[3] = {p->box_max.x, p->box_max.y, p->box_max.z};
    for (int k = 0; k < 3; k++)
        if (b.mask >> k & 1) {
            b.L[k] = hi[k] - b.lo[k];
            b.inv_L[k] = 1 / b.L[k];
        }
    return b;
}

/* The core's doors for the decomposition below it (decomp/rank_sim.h). */
static const rank_core DOORS = {sim_attach_histories, sim_size_from_lists, grains_sim_get_particle,
                                sim_thermo_start,     sim_thermo_add,      sim_spawn_reads};

/* What the decomposition sees of sim: its parts, by pointer (they stay
 * where they are for the simulation's life). */
static rank_sim rank_view_of(grains_sim *sim)
{
    return (rank_sim){sim,          &DOORS,        &sim->ranks,      &sim->p,
                      &sim->hp,     sim->integrator, sim->nthreads,  &sim->pt,
                      &sim->grid,   &sim->nb,      &sim->cs,         &sim->bonds,
                      &sim->wl,     &sim->mb,      &sim->patches,    &sim->box,
                      &sim->rec,    sim->v2_thread, &sim->strays.v2_far, &sim->step,
                      &sim->need_rebuild, &sim->keep_sums, &sim->tagged, &sim->has_pending,
                      &sim->drop_mesh_histories, &sim->guide.on, &sim->guide.id};
}

grains_status grains_sim_create(grains_sim **out, const grains_params *params, grains_error *err)
{
    *out = NULL;
    grains_status s = grains_params_check(params, err);
    if (s != GRAINS_OK)
        return s;
    grains_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory creating a simulation");
    sim->p = *params;
    grains_params_derive(&sim->p);
    hm_params_init(&sim->hp, &sim->p);
    sim->integrator = integrator_of(sim->p.integrator);
    sim->kernels = sim_kernels_choose(NULL);
    if (!sim->kernels) {
        char sets[128];
        sim_kernels_runnable(sets, sizeof sets);
        free(sim);
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "GRAINS_ISA = \"%s\" names no set of hot loops that this build holds and this CPU runs "
                                "(those are: %s)", getenv("GRAINS_ISA"), sets);
    }
    for (int k = 0; k < sim->p.n_materials; k++)
        sim->motion[k] = material_motion_of(&sim->p, k);
    sim->mixed = sim->p.n_materials > 1;
    for (int k = 0; k < sim->p.n_pairs; k++)
        sim->mixed |= sim->p.pair[k].no_contact;
    sim->fixed_lanes = hm_fixed_copies(&sim->hp);
    sim->box = box_of(&sim->p);
    sim_shear_frame(sim);
    sim->box_sample.step = -1;
    sim->nthreads = thread_count(sim->p.threads);
#ifndef _OPENMP
    sim->nthreads = 1;
#endif
    sim->need_rebuild = 1;
    rng_seed(&sim->rng, sim->p.seed);
    sim_spawn_init(sim->spawn, &sim->p, &sim->rng);
    sim->spawned_ahead = -1;
    sim->diag = force_diag_empty();
    sim->thread = aligned_alloc(THREAD_LINE, (size_t)sim->nthreads * sizeof *sim->thread);
    sim->v2_thread = calloc((size_t)sim->nthreads, sizeof *sim->v2_thread);
    if (sim->thread)
        memset(sim->thread, 0, (size_t)sim->nthreads * sizeof *sim->thread);
    if (!sim->thread || !sim->v2_thread) {
        free(sim->thread);
        free(sim->v2_thread);
        free(sim);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory creating a simulation");
    }
    sim->rank_view = rank_view_of(sim);
    int sliding, rolling, twisting; /* a mode that acts in no pair keeps no spring */
    hm_spring_modes(&sim->hp, &sliding, &rolling, &twisting);
    store_init(&sim->cs, store_layout_of(sliding, rolling, twisting));
    if ((s = sim_scale_regions(sim, err)) != GRAINS_OK || (s = sim_scale_gravity(sim, sim->p.g, err)) != GRAINS_OK) {
        grains_sim_destroy(sim);
        return s;
    }
    *out = sim;
    return GRAINS_OK;
}

void grains_sim_destroy(grains_sim *sim)
{
    if (!sim)
        return;
    particles_free(&sim->pt);
    contact_record_free(&sim->rec);
    grains_mesh_destroy(sim->mesh);
    walls_clear(&sim->wl);
    sim_membranes_free(&sim->mb);
    sim_patch_logs_free(&sim->patches);
    grid_free(&sim->grid);
    neighbors_free(&sim->nb);
    store_free(&sim->cs);
    sim_ranks_free(&sim->ranks);
    sim_bonds_free(&sim->bonds);
    sim_uids_free(&sim->uids);
    sim_sinks_free(&sim->sinks);
    sim_probes_free(&sim->probes);
    sim_last_good_free(&sim->last_good);
    implicit_solver_free(&sim->vi);
    sim_implicit_terms_free(&sim->terms);
    free(sim->pending);
    for (int t = 0; t < sim->nthreads; t++)
        store_queue_free(&sim->thread[t].queue);
    for (int t = 0; sim->cand_thread && t < sim->nthreads; t++)
        free(sim->cand_thread[t]);
    free(sim->cand_thread);
    free(sim->block_work);
    free(sim->block_next);
    free(sim->thread);
    free(sim->v2_thread);
    free(sim);
}

size_t grains_sim_bytes(const grains_sim *sim)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    size_t particles = sim->pt.cap * (5 * sizeof(vec3) + sizeof(quat) + sizeof(real) + sizeof(uint32_t) + sizeof(uint8_t));
    size_t grid = g->cap_cells * (sizeof(uint64_t) + sizeof(uint32_t)) + g->cap_blocks * sizeof(uint32_t) +
                  g->n_slots * sizeof(uint32_t);
    size_t lists = nb->cap_start * sizeof(uint32_t) + nb->cap * sizeof(uint32_t) + nb->scratch_cap * sizeof(uint32_t);
    size_t implicit = sim->vi.cap * (10 * sizeof(vec3) + sizeof(real)) + sim->terms.cap * sizeof(implicit_term);
    return sizeof *sim + particles + grid + lists + sim->cs.cap * (size_t)sim->cs.layout.width * sizeof(real) +
           sim->cs.cap_blocks * sizeof(store_block) + implicit + sim_membranes_bytes(&sim->mb);
}
