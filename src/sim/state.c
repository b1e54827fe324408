/* The simulation's state for checkpoints (sim/state.h). Each part writes
 * and checks its own (particles, grid, lists, store, walls, membranes,
 * bonds, patch logs); this file orders them and checks what ties them
 * together: the lists against the grid, the histories against the lists. */
#include "sim/state.h"

#include <stdlib.h>
#include <string.h>

#include "core/changeable.h"
#include "decomp/hooks.h"
#include "sim/sim_internal.h"

/* What must be the same in the run that wrote the state and this one. */
static void write_config(const grains_sim *sim, bytes_out *o)
{
    bytes_put_u32(o, (uint32_t)sim->p.integrator);
    bytes_put_u32(o, (uint32_t)sim->p.n_materials);
    bytes_put_real(o, sim->p.dt);
    bytes_put_u64(o, sim->mesh ? sim->mesh->n_vertices : 0);
    bytes_put_u64(o, sim->mesh ? sim->mesh->n_elements : 0);
    bytes_put_u64(o, sim->wl.n);
    bytes_put_u64(o, sim_membranes_vertex_count(&sim->mb));
    bytes_put_u32(o, (uint32_t)sim->cs.layout.width);
}

static grains_status read_config(const grains_sim *sim, bytes_in *in, grains_error *err)
{
    uint32_t kind = bytes_get_u32(in), n_materials = bytes_get_u32(in);
    real dt = bytes_get_real(in);
    uint64_t nv = bytes_get_u64(in), ne = bytes_get_u64(in), bodies = bytes_get_u64(in), mv = bytes_get_u64(in);
    uint32_t width = bytes_get_u32(in);
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in its header");
    if (kind != (uint32_t)sim->p.integrator || n_materials != (uint32_t)sim->p.n_materials || dt != sim->p.dt ||
        nv != (sim->mesh ? sim->mesh->n_vertices : 0) || ne != (sim->mesh ? sim->mesh->n_elements : 0) ||
        bodies != sim->wl.n || mv != sim_membranes_vertex_count(&sim->mb) || width != (uint32_t)sim->cs.layout.width)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "written by another scenario (integrator, dt, materials, meshes or membranes differ)");
    return GRAINS_OK;
}

/* The parameters a run may change between steps (grains_sim_set_params
 * and grains_sim_set_gravity: a stage's or a program's), as they stand:
 * GRAINS_CHANGEABLE_PARAMS in order, then g. */
enum { N_SETTING = GRAINS_N_CHANGEABLE + 3 };

static void write_setting(const grains_sim *sim, bytes_out *o)
{
    real v[N_SETTING];
    for (int k = 0; k < GRAINS_N_CHANGEABLE; k++)
        v[k] = changeable_get(&sim->p, k);
    v[GRAINS_N_CHANGEABLE] = sim->p.g.x, v[GRAINS_N_CHANGEABLE + 1] = sim->p.g.y, v[GRAINS_N_CHANGEABLE + 2] = sim->p.g.z;
    bytes_put_reals(o, v, N_SETTING);
}

/* Put back as grains_sim_set_params takes them (checked, and what follows
 * from them derived): a value it refuses is damage. */
static grains_status read_setting(grains_sim *sim, bytes_in *in, grains_error *err)
{
    real v[N_SETTING];
    bytes_get_reals(in, v, N_SETTING);
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in its parameters");
    grains_params q = sim->p;
    for (int k = 0; k < GRAINS_N_CHANGEABLE; k++)
        *changeable_field(&q, k) = v[k];
    q.g = (grains_vec3){v[GRAINS_N_CHANGEABLE], v[GRAINS_N_CHANGEABLE + 1], v[GRAINS_N_CHANGEABLE + 2]};
    grains_error why;
    if (grains_sim_set_params(sim, &q, &why) != GRAINS_OK)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: its parameters (%s)", why.message);
    return GRAINS_OK;
}

static void write_scalars(const grains_sim *sim, bytes_out *o)
{
    bytes_put_i64(o, sim->step);
    for (int k = 0; k < 4; k++)
        bytes_put_u64(o, sim->rng.s[k]);
    spawn_states_write(sim->spawn, o);
    bytes_put_u32(o, (uint32_t)sim->tagged);
    bytes_put_i64(o, sim->spawned_ahead);
    bytes_put_real(o, sim->displacement);
    bytes_put_u32(o, (uint32_t)sim->need_rebuild);
    bytes_put_u64(o, sim->n_rebuilds);
    bytes_put_u32(o, (uint32_t)sim->drop_mesh_histories);
    const force_diag *d = &sim->diag;
    bytes_put_u64(o, d->n_contacts);
    bytes_put_real(o, d->max_num);
    bytes_put_real(o, d->max_den);
    bytes_put_i64(o, d->max_overlap_i);
    bytes_put_i64(o, d->non_finite);
    bytes_put_u32(o, (uint32_t)d->history_failed);
    bytes_put_real(o, d->max_force);
    bytes_put_real(o, sim->max_overlap);
    bytes_put_real(o, sim->shear_shift);
    sim_box_write_state(sim, o);
    const implicit_solver *vi = &sim->vi;
    bytes_put_u32(o, (uint32_t)vi->frozen);
    bytes_put_u32(o, (uint32_t)vi->newton_last);
    bytes_put_u32(o, (uint32_t)vi->newton_most);
    bytes_put_i64(o, vi->cg_last);
    bytes_put_real(o, vi->update_last);
    sim_sinks_write_state(&sim->sinks, o);
    if (sim->p.n_probes) /* (a run without probes: the bytes of before them) */
        sim_probes_write_state(&sim->probes, o);
}

static grains_status read_scalars(grains_sim *sim, bytes_in *in, grains_error *err)
{
    sim->step = (long)bytes_get_i64(in);
    for (int k = 0; k < 4; k++)
        sim->rng.s[k] = bytes_get_u64(in);
    spawn_states_read(sim->spawn, in);
    sim->tagged = bytes_get_u32(in) != 0;
    sim->spawned_ahead = (long)bytes_get_i64(in);
    sim->displacement = bytes_get_real(in);
    sim->need_rebuild = bytes_get_u32(in) != 0;
    sim->n_rebuilds = (size_t)bytes_get_u64(in);
    sim->drop_mesh_histories = bytes_get_u32(in) != 0;
    force_diag *d = &sim->diag;
    d->n_contacts = (size_t)bytes_get_u64(in);
    d->max_num = bytes_get_real(in);
    d->max_den = bytes_get_real(in);
    d->max_overlap_i = (long)bytes_get_i64(in);
    d->non_finite = (long)bytes_get_i64(in);
    d->history_failed = bytes_get_u32(in) != 0;
    d->max_force = bytes_get_real(in);
    sim->max_overlap = bytes_get_real(in);
    sim->shear_shift = bytes_get_real(in);
    grains_status box = sim_box_read_state(sim, in, err);
    if (box != GRAINS_OK)
        return box;
    implicit_solver *vi = &sim->vi;
    vi->frozen = (int)(bytes_get_u32(in) & 0xFFFF);
    vi->newton_last = (int)(bytes_get_u32(in) & 0xFFFFFF);
    vi->newton_most = (int)(bytes_get_u32(in) & 0xFFFFFF);
    vi->cg_last = (long)bytes_get_i64(in);
    vi->update_last = bytes_get_real(in);
    grains_status s = sim_sinks_read_state(&sim->sinks, in, sim->p.n_sinks, err);
    if (s == GRAINS_OK && sim->p.n_probes)
        s = sim_probes_read_state(&sim->probes, in, &sim->p, err);
    if (s != GRAINS_OK)
        return s;
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in its counters");
    int spawns_valid = spawn_states_valid(sim->spawn, grains_params_n_spawns(&sim->p), sim->p.R_min, sim->p.R_max);
    if (sim->step < 0 || !spawns_valid || sim->spawned_ahead < -1 || !(sim->displacement >= 0) ||
        !isfinite(sim->displacement) || !(d->max_den > 0) || !isfinite(d->max_num))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: its counters");
    const periodic_box *b = &sim->box;
    if (sim->shear_shift != 0 && !((b->mask & 5) == 5 && sim->shear_shift > 0 && sim->shear_shift < b->L[0]))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: its sheared box's offset (%g)",
                                sim->shear_shift);
    sim_shear_frame(sim);
    return GRAINS_OK;
}

/* Every mesh vertex where it is now, every element's box of the lists. */
static void write_mesh(const grains_sim *sim, bytes_out *o)
{
    const grains_mesh *m = sim->mesh;
    if (!m)
        return;
    bytes_put_reals(o, (const real *)m->vertices, 3 * m->n_vertices);
    for (size_t e = 0; e < m->n_elements; e++) {
        bytes_put_reals(o, (const real *)&m->elements[e].lo, 3);
        bytes_put_reals(o, (const real *)&m->elements[e].hi, 3);
    }
}

static grains_status read_mesh(grains_sim *sim, bytes_in *in, grains_error *err)
{
    grains_mesh *m = sim->mesh;
    if (!m)
        return GRAINS_OK;
    bytes_get_reals(in, (real *)m->vertices, 3 * m->n_vertices);
    int ok = 1;
    for (size_t v = 0; v < m->n_vertices; v++)
        ok = ok && v3_isfinite(m->vertices[v]);
    for (size_t e = 0; e < m->n_elements; e++) {
        bytes_get_reals(in, (real *)&m->elements[e].lo, 3);
        bytes_get_reals(in, (real *)&m->elements[e].hi, 3);
        ok = ok && v3_isfinite(m->elements[e].lo) && v3_isfinite(m->elements[e].hi);
    }
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the meshes");
    return ok ? GRAINS_OK : grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: a mesh vertex is not finite");
}

static void write_guide(const grains_sim *sim, bytes_out *o)
{
    const sim_guide *g = &sim->guide;
    bytes_put_u32(o, (uint32_t)g->on);
    bytes_put_u32(o, g->id);
    bytes_put_reals(o, (const real *)&g->velocity, 3);
    bytes_put_reals(o, (const real *)&g->axis, 3);
    bytes_put_reals(o, (const real *)&g->f_contact, 3);
}

static grains_status read_guide(grains_sim *sim, bytes_in *in, size_t n, grains_error *err)
{
    sim_guide *g = &sim->guide;
    g->on = bytes_get_u32(in) != 0;
    g->id = bytes_get_u32(in);
    bytes_get_reals(in, (real *)&g->velocity, 3);
    bytes_get_reals(in, (real *)&g->axis, 3);
    bytes_get_reals(in, (real *)&g->f_contact, 3);
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the guided particle");
    if (g->on && (g->id >= n || !v3_isfinite(g->velocity) || !v3_isfinite(g->axis) ||
                  !v3_isfinite(g->f_contact)))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the guided particle");
    return GRAINS_OK;
}

/* Whether each cell block's lists mark as many entries with a history as
 * the store holds for it: the force loop walks both together. */
static int histories_match_lists(const grains_sim *sim)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    if (nb->n_particles != g->n_particles && nb->n_particles != 0)
        return 0;
    if (sim->cs.n_blocks != g->n_blocks)
        return 0;
    for (size_t b = 0; b < g->n_blocks; b++) {
        size_t marked = 0;
        uint32_t from = g->first[g->block_start[b]], to = g->first[g->block_start[b + 1]];
        for (uint32_t i = from; i < to && nb->n_particles; i++)
            for (uint32_t k = nb->start[i]; k < nb->start[i + 1]; k++)
                marked += (nb->j[k] & STORE_HIST_BIT) != 0;
        if (marked != sim->cs.block[b].n)
            return 0;
    }
    return 1;
}

/* What follows the lists, which every rank holds alike but the bonds and
 * patch logs (those of ranks holding their own alone are rank 0's copy). */
static void write_rest(const grains_sim *sim, const sim_bonds *bonds, const patch_log *logs, size_t n_log_blocks,
                       bytes_out *o)
{
    write_mesh(sim, o);
    walls_write_state(&sim->wl, o);
    sim_uids_write_state(&sim->uids, o);
    sim_membranes_write_state(&sim->mb, o);
    sim_bonds_write_state(bonds, sim->pt.n, o);
    sim_patch_logs_write(logs, n_log_blocks, o);
    write_guide(sim, o);
    sim_strays_write_state(&sim->strays, o); /* (last: a state without strays ends before) */
}

static void write_parts(const grains_sim *sim, bytes_out *o)
{
    write_config(sim, o);
    write_setting(sim, o);
    write_scalars(sim, o);
    particles_write_state(&sim->pt, o);
    grid_write_state(&sim->grid, o);
    neighbors_write_state(&sim->nb, o);
    store_write_state(&sim->cs, o);
    write_rest(sim, &sim->bonds, sim->patches.log, sim_membranes_count(&sim->mb) && sim->patches.log ? sim->grid.n_blocks : 0, o);
}

/* Ranks that hold their own particles alone: rank 0 writes the whole's
 * particles, grid, lists and histories as the ranks send them
 * (decomp/rank_stream.c), every bond, gathered (decomp/rank_bonds.c), and the
 * patch logs every rank holds named, per block of the whole, with the
 * rest, which every rank holds alike. Collective; o NULL: rank 0 writes
 * nothing. Dealt particles (no rebuild yet, on any rank) have no grid,
 * lists or histories but every rank's empty ones, as in one process. */
static grains_status write_streamed(grains_sim *sim, bytes_out *o, grains_error *err)
{
    const rank_sim *r = &sim->rank_view;
    bytes_out *writes = rank_writer(r) ? o : NULL;
    sim_ranks_writer_sums(&sim->rank_view);
    if (writes) {
        write_config(sim, writes);
        write_setting(sim, writes);
        write_scalars(sim, writes);
    }
    uint32_t *slot = sim_ranks_stream_particles(&sim->rank_view, writes);
    if (!rank_dealt(r))
        sim_ranks_stream_lists(&sim->rank_view, writes, slot);
    else if (writes) {
        grid_write_state(&sim->grid, writes);
        neighbors_write_state(&sim->nb, writes);
        store_write_state(&sim->cs, writes);
    }
    sim_ranks_gather_bonds(&sim->rank_view, slot, rank_count(r));
    free(slot);
    grains_status s = GRAINS_OK;
    patch_log *logs = sim_membranes_count(&sim->mb) && writes ? sim_ranks_patch_logs_whole(&sim->rank_view) : NULL;
    if (sim_membranes_count(&sim->mb) && writes && !logs)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory writing the state");
    else if (writes)
        write_rest(sim, rank_whole_bonds(r), logs,
                   !sim_membranes_count(&sim->mb) ? 0 : rank_dealt(r) ? sim->grid.n_blocks : rank_table_blocks(r), writes);
    free(logs);
    return s;
}

int sim_state_writer(const grains_sim *sim) { return rank_writer(&sim->rank_view); }


/* Every particle's speed and spin squared a double can hold, as the step
 * needs (speed2_max), and its mass and moment of inertia normal numbers
 * (sim/scales.c): finite values beyond (|v| > 1e154, R = 1e-320) are damage. */
static grains_status speeds_squared(const grains_sim *sim, grains_error *err)
{
    const grains_particles *pt = &sim->pt;
    for (size_t i = 0; i < pt->n; i++) {
        real R = pt->R[i], inv_m = sim->motion[pt->mat[i]].inv_rho_volume / (R * R * R);
        if (!(speed2_max(0, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i])) < INFINITY) ||
            !isnormal(inv_m) || !isnormal(2.5 * inv_m / (R * R)))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0,
                                    "damaged: particle %u's speed, spin or mass is beyond what a step can take "
                                    "(|v| %g, |w| %g, R %g)", (unsigned)pt->id[i], v3_norm(pt->v[i]),
                                    v3_norm(pt->w[i]), R);
    }
    return GRAINS_OK;
}

grains_status sim_write_state(grains_sim *sim, bytes_out *o, grains_error *err)
{
    if (sim->has_pending)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "contacts set by grains_sim_set_contacts take effect at the next step: "
                                "step once before saving the state");
    if (sim_ranks_local(sim) && rank_holds_share(&sim->rank_view))
        return write_streamed(sim, o, err);
    if (sim_shared(sim)) { /* every rank holds every particle: rank 0's copy, made whole */
        grains_status s = grains_sim_gather(sim, err);
        if (s != GRAINS_OK || !rank_writer(&sim->rank_view))
            return s;
    }
    if (o)
        write_parts(sim, o);
    return GRAINS_OK;
}

/* Whether n particles are the grid's and newcomers (sim/newcomers.c) after them. */
static int newcomers_fit(const grains_sim *sim, size_t n)
{
    return n >= sim->grid.n_particles && n - sim->grid.n_particles <= NEWCOMERS_MAX;
}

/* The lists and what the step's loops size from them, for n particles;
 * springs: the histories' springs passed over (NULL: read). */
static grains_status read_lists(grains_sim *sim, bytes_in *in, size_t n, bytes_span *springs, grains_error *err)
{
    size_t n_elements = sim->mesh ? sim->mesh->n_elements : 0;
    grains_status s = grid_read_state(&sim->grid, in, &sim->box, n, err);
    if (s == GRAINS_OK)
        s = neighbors_read_state(&sim->nb, in, sim->grid.n_particles, n_elements, err);
    if (s == GRAINS_OK)
        s = springs ? store_read_counts(&sim->cs, in, sim->grid.n_blocks, springs, err)
                    : store_read_state(&sim->cs, in, sim->grid.n_blocks, err);
    if (s == GRAINS_OK && (!histories_match_lists(sim) || (!sim->need_rebuild && !newcomers_fit(sim, n))))
        s = grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the contact histories do not match the lists");
    if (s == GRAINS_OK)
        s = walls_reserve_blocks(&sim->wl, sim->grid.n_blocks, err);
    if (s == GRAINS_OK && sim->mesh && sim->nb.n_particles)
        s = sim_reserve_mesh_candidates(sim, err);
    return s;
}

/* The membranes, bonds, patch logs and the guided particle (n particles). */
static grains_status read_rest(grains_sim *sim, bytes_in *in, size_t n, grains_error *err)
{
    grains_status s = read_mesh(sim, in, err);
    if (s == GRAINS_OK)
        s = walls_read_state(&sim->wl, in, err);
    if (s == GRAINS_OK)
        s = sim_uids_read_state(&sim->uids, in, err);
    if (s == GRAINS_OK)
        sim_meshes_mark_off(sim); /* (the removed meshes' elements) */
    if (s == GRAINS_OK)
        s = sim_membranes_read_state(&sim->mb, in, err);
    if (s == GRAINS_OK)
        s = sim_bonds_read_state(&sim->bonds, in, n, err);
    if (s == GRAINS_OK && sim_membranes_count(&sim->mb) && sim->nb.n_particles)
        s = sim_reserve_patch_logs(&sim->patches, &(patch_lists){&sim->grid, &sim->nb, sim->mesh}, err);
    if (s == GRAINS_OK)
        s = sim_patch_logs_read_state(&sim->patches, &(patch_lists){&sim->grid, &sim->nb, sim->mesh},
                                      sim_membranes_vertex_count(&sim->mb), in, err);
    if (s == GRAINS_OK)
        s = read_guide(sim, in, n, err);
    if (s == GRAINS_OK)
        s = sim_strays_read_state(sim, in, n, err);
    return s;
}

/* Every rank (or one process) the whole state. */
static grains_status read_whole(grains_sim *sim, bytes_in *in, grains_error *err)
{
    grains_status s = read_config(sim, in, err);
    if (s == GRAINS_OK)
        s = read_setting(sim, in, err);
    if (s == GRAINS_OK)
        s = read_scalars(sim, in, err);
    if (s == GRAINS_OK)
        s = particles_read_state(&sim->pt, in, sim->p.n_materials, err);
    if (s == GRAINS_OK)
        s = speeds_squared(sim, err);
    if (s == GRAINS_OK)
        s = read_lists(sim, in, sim->pt.n, NULL, err);
    if (s == GRAINS_OK)
        s = read_rest(sim, in, sim->pt.n, err);
    rank_cut_stale(&sim->rank_view); /* every rank read the same */
    return s;
}

/* Ranks holding their own alone: each its share (decomp/rank_resume.c). The
 * particles' fields and the histories' springs, most of the state, are
 * passed over; the rest, which names which of them each rank keeps, is
 * read; then each rank reads the fields and springs it keeps, and checks
 * its slice of them (the ranks agree on one error, the same on each, and
 * on the spans' CRCs). Where the lists do not hold (a rebuild is due),
 * the whole again, as one process. */
static grains_status read_share(grains_sim *sim, bytes_in *in, grains_error *err)
{
    bytes_place start;
    bytes_span fields, springs;
    size_t n = 0;
    bytes_here(in, &start);
    rank_let_share_go(&sim->rank_view);
    grains_status s = read_config(sim, in, err);
    if (s == GRAINS_OK)
        s = read_setting(sim, in, err);
    if (s == GRAINS_OK)
        s = read_scalars(sim, in, err);
    if (s == GRAINS_OK)
        s = particles_read_head(&sim->pt, in, &n, &fields, err);
    if (s == GRAINS_OK)
        s = read_lists(sim, in, n, &springs, err);
    if (s == GRAINS_OK)
        s = read_rest(sim, in, n, err);
    if (s != GRAINS_OK)
        return s;
    if (!sim_ranks_resume_reads(&sim->rank_view, n)) {
        bytes_rewind(in, &start);
        return read_whole(sim, in, err);
    }
    s = sim_ranks_resume_read(&sim->rank_view, in, n, &fields, &springs, err);
    bytes_splice(in, &springs); /* (the last passed over first) */
    bytes_splice(in, &fields);
    return s;
}

grains_status sim_read_state(grains_sim *sim, bytes_in *in, grains_error *err)
{
    sim->has_pending = 0;
    grains_status s = sim_ranks_local(sim) ? read_share(sim, in, err) : read_whole(sim, in, err);
    if (s == GRAINS_OK)
        sim_strays_place(sim); /* (where each rank holds its particles now) */
    return s;
}
