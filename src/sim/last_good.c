/* The last good state for the rows whose begin moves things before the
 * forces are checked (Verlet's half kick and drift, the meshes placed at
 * t + dt, the membrane vertices): when a step fails its check, the state
 * must be the one before the step, as with Euler, whose update comes after
 * the check (the meshes, which move before it with every row, are always
 * kept: a few reals per mesh). A copy costs 13 reals a particle a step, so it is taken only
 * when the step may fail: when the largest overlap, grown by the fastest
 * approach this step allows (two grains at the last step's top speed, a
 * wall at twice its last speed), could pass max_overlap; at the first step
 * and after particles were added; and when the last top speed is 0 (not
 * known after a resume) or not finite. A
 * healthy run never copies. Particles are kept by id, so a rebuild inside
 * the failing step does not matter; grains spawned in it stay where they
 * were placed. */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "util/array.h"

/* The fastest any mesh point moved at the last step. */
static real wall_speed(const walls *w)
{
    real most = 0;
    for (size_t k = 0; k < w->n; k++) {
        const wall_body *b = &w->body[k];
        most = fmax(most, v3_norm(b->now.velocity) + fabs(b->now.omega) * b->reach);
    }
    return most;
}

int sim_last_good_needed(const grains_sim *sim, real v_max)
{
    if (sim->integrator->begin == LOOP_NONE && !sim->integrator->vertex_begin)
        return 0; /* nothing but the meshes moves before the check (they are always kept) */
    real R = sim->p.R_min * (sim->p.grow_from < 1 ? sim->p.grow_from : 1); /* the smallest 2R*: two of R_min */
    real approach = (2 * v_max + 2 * wall_speed(&sim->wl) + 2 * sim_membranes_fastest(&sim->mb)) * sim->p.dt;
    real could_reach = sim->max_overlap + approach / R;
    return sim->step == 0 || sim->need_rebuild || !(v_max > 0) || !(could_reach < sim->p.max_overlap);
}

static int reserve(void **p, size_t *cap, size_t n, size_t size)
{
    return array_reserve(p, cap, n ? n : 1, size, 4);
}

/* The particles' copy is let go after this many steps without one (it
 * would add 13 reals to every particle's memory for good). */
#define IDLE_STEPS 256

grains_status sim_last_good_take(grains_sim *sim, int particles, grains_error *err)
{
    sim_last_good *g = &sim->last_good;
    g->idle = particles ? 0 : g->idle + 1;
    if (g->idle == IDLE_STEPS) {
        free(g->x);
        free(g->q);
        free(g->ids);
        g->x = NULL;
        g->q = NULL;
        g->ids = NULL;
        g->cap = g->cap_q = g->cap_ids = 0;
    }
    const grains_particles *pt = &sim->pt;
    size_t n = particles ? pt->n : 0, nv = particles ? sim_membranes_vertex_count(&sim->mb) : 0, nb = sim->wl.n;
    int ok = reserve((void **)&g->x, &g->cap, 3 * n, sizeof *g->x) &&
             reserve((void **)&g->q, &g->cap_q, n, sizeof *g->q) &&
             reserve((void **)&g->ids, &g->cap_ids, n, sizeof *g->ids) &&
             reserve((void **)&g->vertex, &g->cap_vertex, 2 * nv, sizeof *g->vertex) &&
             reserve((void **)&g->body, &g->cap_body, nb, sizeof *g->body);
    if (!ok)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory keeping the last good state");
    for (size_t k = 0; k < n; k++) { /* with its id: a rebuild may move them */
        g->ids[k] = pt->id[k];
        g->x[3 * k] = pt->x[k];
        g->x[3 * k + 1] = pt->v[k];
        g->x[3 * k + 2] = pt->w[k];
        g->q[k] = pt->q[k];
    }
    if (nv)
        sim_membranes_save(&sim->mb, g->vertex);
    for (size_t k = 0; k < nb; k++)
        g->body[k] = sim->wl.body[k];
    g->n = n;
    g->n_vertices = nv;
    g->held = 1;
    return GRAINS_OK;
}

void sim_last_good_restore(grains_sim *sim)
{
    sim_shear_frame(sim); /* a sheared box's offset as the run's, not the step's */
    sim_last_good *g = &sim->last_good;
    if (!g->held)
        return;
    grains_particles *pt = &sim->pt;
    for (size_t k = 0; k < g->n; k++) {
        uint32_t i = pt->slot[g->ids[k]];
        if (i >= pt->n) /* a rank holding a share: the particle left it in the step's rebuild */
            continue;
        pt->x[i] = g->x[3 * k];
        pt->v[i] = g->x[3 * k + 1];
        pt->w[i] = g->x[3 * k + 2];
        pt->q[i] = g->q[k];
    }
    size_t nv = g->n_vertices;
    if (nv)
        sim_membranes_restore(&sim->mb, g->vertex);
    for (size_t k = 0; k < sim->wl.n; k++) {
        sim->wl.body[k].now = g->body[k].now;
        sim->wl.body[k].t_moved = g->body[k].t_moved;
        sim->wl.body[k].servo_s = g->body[k].servo_s;
        sim->wl.body[k].servo_side = g->body[k].servo_side;
        if (sim->mesh)
            walls_place(&sim->wl, sim->mesh, k);
    }
    if (sim->mesh && nv)
        sim_membranes_place(&sim->mb, sim->mesh);
    if (g->n || nv || sim->wl.any_moving)
        sim->need_rebuild = 1; /* the lists saw the moved state */
    g->held = 0;
}

void sim_last_good_free(sim_last_good *g)
{
    free(g->x);
    free(g->q);
    free(g->ids);
    free(g->vertex);
    free(g->body);
    memset(g, 0, sizeof *g);
}
