/* A simulation's particles one at a time (checked, added, read, set) and its clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

grains_status sim_check_particle(const grains_sim *sim, const grains_particle *p, grains_error *err)
{
    if (!v3_isfinite(p->x) || !v3_isfinite(p->v) || !v3_isfinite(p->w))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "particle position and velocities must be finite");
    if (!isfinite(p->R) || p->R <= 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "particle radius R = %g must be > 0", p->R);
    real qn = sqrt(p->q.q0 * p->q.q0 + p->q.q1 * p->q.q1 + p->q.q2 * p->q.q2 + p->q.q3 * p->q.q3);
    if (!isfinite(qn) || fabs(qn - 1) > 1e-6)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "orientation quaternion must have unit norm, |q| = %.9g", qn);
    if (p->material < 0 || p->material >= sim->p.n_materials)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "particle material %d: materials are 0 to %d",
                                p->material, sim->p.n_materials - 1);
    return sim_scale_particle(sim, p, err);
}

grains_status grains_sim_add_particle(grains_sim *sim, const grains_particle *p, grains_error *err)
{
    grains_status s = sim_check_particle(sim, p, err);
    if (s != GRAINS_OK)
        return s;
    size_t id = grains_sim_count(sim); /* a new particle's id is its number, stored last */
    s = particles_reserve(&sim->pt, sim->pt.n + 1, err);
    if (s == GRAINS_OK && rank_holds_share(&sim->rank_view))
        s = particles_reserve_id(&sim->pt, id, err);
    if (s != GRAINS_OK)
        return s;
    size_t i = sim->pt.n++;
    rank_note_added(&sim->rank_view); /* every rank adds it alike; its next rebuild gives it one owner */
    sim->pt.id[i] = (uint32_t)id;
    sim->pt.slot[id] = (uint32_t)i;
    grains_sim_set_particle(sim, id, p);
    sim->pt.R[i] *= sim_grow_scale(&sim->p, grains_sim_time(sim)); /* growing: at the scale of now */
    sim->pt.f[i] = sim->pt.t[i] = v3(0, 0, 0);
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

grains_status grains_sim_add_particles(grains_sim *sim, size_t n, const grains_particle *ps, grains_error *err)
{
    if (n && !ps)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%zu particles to add and no array", n);
    grains_error why;
    for (size_t k = 0; k < n; k++) /* every one checked before any is added */
        if (sim_check_particle(sim, &ps[k], &why) != GRAINS_OK)
            return grains_error_set(err, why.status, NULL, 0, "particle %zu of the %zu to add: %s", k, n, why.message);
    grains_status s = particles_reserve(&sim->pt, sim->pt.n + n, err);
    if (s == GRAINS_OK && rank_holds_share(&sim->rank_view))
        s = particles_reserve_ids(&sim->pt, grains_sim_count(sim) + n, err);
    for (size_t k = 0; s == GRAINS_OK && k < n; k++) /* (room made: none is refused now) */
        s = grains_sim_add_particle(sim, &ps[k], err);
    return s;
}

grains_status grains_sim_reserve(grains_sim *sim, size_t n, grains_error *err)
{
    return particles_reserve(&sim->pt, n, err);
}

size_t grains_sim_count(const grains_sim *sim) { return sim_count(sim); }

int grains_sim_threads(const grains_sim *sim) { return sim->nthreads; }

void grains_sim_get_particle(const grains_sim *sim, size_t id, grains_particle *out)
{
    const grains_particles *pt = sim_particles_read(sim);
    size_t i = pt->slot[id];
    if (i >= pt->n) { /* a rank holding a share: neither its own nor a copy, nor gathered */
        real nan = (real)NAN;
        *out = (grains_particle){{nan, nan, nan}, {nan, nan, nan}, {nan, nan, nan}, {nan, nan, nan, nan}, nan, -1, 0};
        return;
    }
    out->x = pt->x[i];
    out->v = pt->v[i];
    out->w = pt->w[i];
    out->q = pt->q[i];
    out->R = pt->R[i];
    out->material = pt->mat[i];
    out->tag = pt->tag[i];
}

void grains_sim_set_particle(grains_sim *sim, size_t id, const grains_particle *p)
{
    size_t i = sim->pt.slot[id];
    if (i >= sim->pt.n) /* a rank holding a share sets those it holds */
        return;
    sim->pt.x[i] = p->x;
    sim->pt.v[i] = p->v;
    sim->pt.w[i] = p->w;
    sim_plane_motion(&sim->p, &sim->pt.v[i], &sim->pt.w[i]); /* 2D: in its plane */
    sim->pt.q[i] = p->q;
    sim->pt.R[i] = p->R;
    if (p->material >= 0 && p->material < sim->p.n_materials) /* else the material it had */
        sim->pt.mat[i] = (uint8_t)p->material;
    held_in_place(&sim->pt, &sim->motion[sim->pt.mat[i]], (long)i); /* a fixed material's: its velocity */
    sim->pt.tag[i] = p->tag;
    sim->tagged |= p->tag != 0;
    sim->need_rebuild = 1;
}

const grains_params *grains_sim_params(const grains_sim *sim) { return &sim->p; }

int grains_sim_has_tags(const grains_sim *sim)
{
    int tags = sim->tagged || sim->p.n_tag_rules > 0;
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++)
        tags |= grains_params_spawn(&sim->p, k).tag != 0;
    return tags;
}

void grains_sim_ask_stop(grains_sim *sim, grains_stop_asked asked, void *ctx)
{
    sim->stop_asked = asked;
    sim->stop_ctx = ctx;
}

double grains_sim_time(const grains_sim *sim) { return sim_time(sim); }
long grains_sim_steps(const grains_sim *sim) { return sim->step; }

grains_status grains_sim_set_steps(grains_sim *sim, long steps, grains_error *err)
{
    if (steps < 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "steps = %ld must be >= 0", steps);
    sim->step = steps;
    walls_set_clock(&sim->wl, sim->mesh, grains_sim_time(sim));
    sim->need_rebuild = 1; /* element boxes and the lists' poses */
    return GRAINS_OK;
}
