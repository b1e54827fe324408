/* The force loops. Pairs are visited block colour by block colour (see
 * neighbor/grid.h): within one colour no two blocks write to the same
 * particle, so each thread owns every particle it writes, and each
 * particle's sum runs in the same order (colour, block, cell, list) for any
 * thread count: bit-identical results without atomics.
 * Each pair is evaluated once and applied to both sides (Eqs. 55-59); a
 * mesh element is a wall (infinitely heavy), so only the particle moves. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

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
static void note_singular(force_diag *d, long i)
{
    d->max_num = INFINITY;
    d->max_den = 1;
    d->max_overlap_i = i;
}

static inline void end_contact(contact_store *cs, uint32_t block, int32_t *h)
{
    if (*h != STORE_NONE) {
        store_release(cs, block, *h);
        *h = STORE_NONE;
    }
}

/* One contact of particle i with mesh element e (the wall convention). */
static inline int wall_contact(grains_sim *sim, uint32_t i, uint32_t e, int32_t *h, uint32_t block, force_diag *d,
                               hm_result *r)
{
    grains_particles *pt = &sim->pt;
    const vec3 zero = {0, 0, 0};
    real R_e = sim->mesh->elements[e].R;
    vec3 dx = grains_mesh_offset(sim->mesh, e, pt->x[i]);
    real reach = pt->R[i] + R_e, d2 = v3_dot(dx, dx);
    if (d2 >= reach * reach) {
        end_contact(&sim->cs, block, h);
        return 0;
    }
    if (d2 == 0) {
        note_singular(d, i);
        return 0;
    }
    if (*h == STORE_NONE && (*h = store_new(&sim->cs, block)) == STORE_NONE)
        return 0; /* out of memory: reported at the next rebuild */
    hm_pair pr = {dx, pt->R[i], R_e, pt->v[i], zero, pt->w[i], zero, 1};
    hm_contact(&sim->hp, &pr, store_get(&sim->cs, *h), r);
    note_overlap(d, r->delta, 2 * r->R_eff, i);
    return 1;
}

/* The contacts of particle i: partners j > i, then mesh elements. Forces on
 * i are summed in registers and added once; reactions go to j as they come
 * (j's cell belongs to this thread for the whole colour phase). */
static void particle_contacts(grains_sim *sim, uint32_t i, uint32_t block, force_diag *d)
{
    grains_particles *pt = &sim->pt;
    grains_neighbors *nb = &sim->nb;
    const vec3 x_i = pt->x[i];
    const real R_i = pt->R[i];
    vec3 f_i = {0, 0, 0}, t_i = {0, 0, 0};
    hm_result r;
    const uint32_t end = nb->start[i + 1];
    for (uint32_t k = nb->start[i]; k < end; k++) {
        /* The partners are scattered in memory: fetch two ahead. */
        uint32_t ahead = nb->j[k + 2 < end ? k + 2 : k];
        if (!(ahead & STORE_MESH_BIT)) {
            __builtin_prefetch(&pt->x[ahead]);
            __builtin_prefetch(&pt->v[ahead]);
            __builtin_prefetch(&pt->w[ahead]);
            __builtin_prefetch(&pt->f[ahead], 1);
            __builtin_prefetch(&pt->t[ahead], 1);
        }
        if (k + 2 < end && nb->h[k + 2] >= 0)
            __builtin_prefetch(&sim->cs.c[nb->h[k + 2]], 1);
        uint32_t j = nb->j[k];
        if (j & STORE_MESH_BIT) {
            if (wall_contact(sim, i, j & ~STORE_MESH_BIT, &nb->h[k], block, d, &r)) {
                f_i = v3_add(f_i, r.f);
                t_i = v3_add(t_i, r.t_i);
            }
            continue;
        }
        vec3 dx = v3_sub(x_i, pt->x[j]);
        real reach = R_i + pt->R[j];
        real d2 = v3_dot(dx, dx);
        if (d2 >= reach * reach) {
            end_contact(&sim->cs, block, &nb->h[k]);
            continue;
        }
        if (d2 == 0) {
            note_singular(d, i);
            continue;
        }
        if (nb->h[k] == STORE_NONE && (nb->h[k] = store_new(&sim->cs, block)) == STORE_NONE)
            continue; /* out of memory: reported at the next rebuild */
        hm_pair pr = {dx, R_i, pt->R[j], pt->v[i], pt->v[j], pt->w[i], pt->w[j], 0};
        hm_contact(&sim->hp, &pr, store_get(&sim->cs, nb->h[k]), &r);
        f_i = v3_add(f_i, r.f);
        t_i = v3_add(t_i, r.t_i);
        pt->f[j] = v3_sub(pt->f[j], r.f);
        pt->t[j] = v3_add(pt->t[j], r.t_j);
        note_overlap(d, r.delta, 2 * r.R_eff, i);
    }
    pt->f[i] = v3_add(pt->f[i], f_i);
    pt->t[i] = v3_add(pt->t[i], t_i);
}

force_diag sim_reduce_diag(const grains_sim *sim)
{
    force_diag total = {0, 0, 1, -1, LONG_MAX};
    for (int t = 0; t < sim->nthreads; t++) {
        const force_diag *d = &sim->diag_thread[t];
        total.n_contacts += d->n_contacts;
        real lhs = d->max_num * total.max_den, rhs = total.max_num * d->max_den;
        if (d->max_overlap_i >= 0 && (lhs > rhs || (lhs == rhs && d->max_overlap_i < total.max_overlap_i))) {
            total.max_num = d->max_num;
            total.max_den = d->max_den;
            total.max_overlap_i = d->max_overlap_i;
        }
        total.non_finite = d->non_finite < total.non_finite ? d->non_finite : total.non_finite;
    }
    return total;
}

void sim_forces(grains_sim *sim, force_diag *d)
{
    const grains_grid *g = &sim->grid;
    /* The force sums start at zero: integrate_euler_spiral clears them after
     * use, sim_rebuild after lending them out, a failed step after it. */
    for (int colour = 0; colour < GRID_COLOURS; colour++) {
#pragma omp for schedule(dynamic, 1)
        for (uint32_t b = g->colour_start[colour]; b < g->colour_start[colour + 1]; b++)
            /* a block's particles are one range in memory */
            for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
                particle_contacts(sim, i, b, d);
    }
}

void sim_check_finite(const grains_sim *sim, force_diag *d)
{
    const grains_particles *pt = &sim->pt;
    const long n = (long)pt->n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
        if ((!v3_isfinite(pt->f[i]) || !v3_isfinite(pt->t[i])) && i < d->non_finite)
            d->non_finite = i;
}
