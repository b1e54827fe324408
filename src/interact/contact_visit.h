/* The steps of one listed contact's visit that the scalar force loops
 * (interact/forces.c) and the lanes (interact/force_lanes.c) share: its history in
 * the block's stream, a wall's motion at the contact point and the sums of
 * what a wall gave, and which of a particle's listed mesh elements make
 * contacts. Both paths take the same steps in the same order, so they give
 * the same bits. */
#ifndef GRAINS_INTERACT_CONTACT_VISIT_H
#define GRAINS_INTERACT_CONTACT_VISIT_H

#include "interact/interact.h"

/* How far apart the surfaces of a pair may be and still touch: 0, or for a
 * contact that holds (it has a history, hp->holds) the gap at which it snaps. */
static inline real hold_gap(const hm_law *law, real R_i, real R_j, int wall, uint32_t entry)
{
    return entry & STORE_HIST_BIT ? hm_hold_gap(law, R_i, R_j, wall) : 0;
}

/* Ends the contact of list entry *entry, if it had one. */
static inline void end_contact(store_stream *s, uint32_t *entry)
{
    if (*entry & STORE_HIST_BIT) {
        store_drop(s);
        *entry &= ~STORE_HIST_BIT;
    }
}

/* The history of the touching pair of list entry *entry: carried on, or
 * new (NULL when memory ran out: reported at the next rebuild). */
static inline real *contact_history(store_stream *s, uint32_t *entry)
{
    if (*entry & STORE_HIST_BIT)
        return store_carry(s);
    real *h = store_insert(s);
    if (h)
        *entry |= STORE_HIST_BIT;
    return h;
}

/* Leaves the contact of list entry `entry` as it is: a pair that another
 * rank evaluates (decomp/ranks.c). */
static inline void pass_contact(store_stream *s, uint32_t entry)
{
    if (entry & STORE_HIST_BIT)
        store_carry(s);
}

/* The rest of a list, [k, end), passed: a particle of another rank's
 * block, whose walls that rank alone touches. */
static inline void pass_contacts(const grains_neighbors *nb, store_stream *s, uint32_t k, uint32_t end)
{
    for (; k < end; k++)
        pass_contact(s, nb->j[k]);
}

/* Whether the pair with partner j is this walk's: every partner in a
 * block this rank owns (mine = NULL), else only the rank's own particles
 * (mine[j] = 1). */
static inline int partner_ours(uint32_t j, const uint8_t *mine) { return !mine || mine[j]; }

/* A partner at zero distance has no normal: the step is noted as singular
 * for particle i, and the contact's history, if any, kept as it was. */
static inline void pass_singular(store_stream *s, force_diag *d, uint32_t entry, uint32_t i)
{
    note_singular(d, i);
    if (entry & STORE_HIST_BIT)
        store_carry(s);
}

/* Which of particle i's listed entries [k, k + n) need a visit, as bits
 * (bit a: entry k + a; n <= 64): the partners that touch (or whose distance
 * is not a number) and those with a history, whose contact may end. The
 * rest, apart and without history, a walk would pass over doing nothing
 * (unless they attract, or hold beyond touching: JKR); skipping them leaves
 * it the same walk, without a branch per entry that no predictor can
 * foresee. Distances across a periodic box (box: NULL for none; sheared:
 * its own, a constant in the force loops' copies) by the nearest image.
 * Stops at the first mesh element (they come last): *n_pairs, the
 * partners before it. */
static inline uint64_t entries_to_visit(const grains_particles *pt, const periodic_box *box, const int sheared,
                                        const uint32_t *list, uint32_t k, uint32_t n, vec3 x_i, real R_i,
                                        uint32_t *n_pairs)
{
    uint64_t visit = 0;
    uint32_t a = 0;
    for (; a < n && !(list[k + a] & STORE_MESH_BIT); a++) {
        uint32_t j = list[k + a] & STORE_INDEX_MASK;
        vec3 dx = v3_sub(x_i, pt->x[j]);
        if (box)
            dx = periodic_delta_as(box, dx, NULL, sheared);
        real touch = R_i + pt->R[j], d2 = v3_dot(dx, dx);
        uint64_t near = !(d2 >= touch * touch), kept = (list[k + a] & STORE_HIST_BIT) != 0;
        visit |= (near | kept) << a;
    }
    *n_pairs = a;
    return visit;
}

/* The partners are scattered in memory: fetch the one of list entry k + 2. */
static inline void prefetch_partner(const grains_particles *pt, const grains_neighbors *nb, uint32_t k, uint32_t end,
                                    const int mixed)
{
    uint32_t ahead = nb->j[k + 2 < end ? k + 2 : k] & ~STORE_HIST_BIT;
    if (ahead & STORE_MESH_BIT)
        return;
    __builtin_prefetch(&pt->x[ahead]);
    __builtin_prefetch(&pt->v[ahead]);
    __builtin_prefetch(&pt->w[ahead]);
    __builtin_prefetch(&pt->f[ahead], 1);
    __builtin_prefetch(&pt->t[ahead], 1);
    if (mixed)
        __builtin_prefetch(&pt->mat[ahead]);
}

/* What particle i's contact with a wall gave the particle (force f, torque
 * t_i): added to the block's sums for the wall's body (force, and moment
 * about the origin). */
static inline void add_to_wall(vec3 *wall_sum, int body, vec3 x_i, vec3 f, vec3 t_i)
{
    vec3 *sum = &wall_sum[WALL_SUMS * body];
    sum[0] = v3_add(sum[0], f);
    sum[1] = v3_add(sum[1], v3_add(v3_cross(x_i, f), t_i));
}

/* The velocity and spin of a moving wall at the contact point of particle
 * i, which lies r_i = R_i - delta/2 from its centre towards the wall. */
static inline void wall_motion(const wall_body *wb, vec3 x_i, vec3 dx, real d2, real R_i, real reach, vec3 *v_j,
                               vec3 *w_j)
{
    real d = sqrt(d2), r_i = R_i - (reach - d) / 2;
    *v_j = walls_point_velocity(wb, v3_axpy(x_i, -r_i / d, dx));
    *w_j = v3_scale(wb->now.omega, wb->motion.axis);
}

/* The old history of candidate p, from the stream before any of [k0, end)
 * has been walked: the histories ahead are those of the flagged entries. */
static inline hm_history history_of(const force_view *fv, const store_stream *s, uint32_t k0, int p)
{
    size_t m = 0;
    for (uint32_t k = k0; k < k0 + (uint32_t)p; k++)
        m += (fv->nb.j[k] & STORE_HIST_BIT) != 0;
    hm_history h;
    store_unpack(&fv->cs->layout, store_peek(s, m), &h);
    return h;
}

/* Which of particle i's listed elements [k0, end) make contacts, into c
 * (sim_select_mesh_contacts), with the springs each new contact takes
 * over, read before any of these entries' histories moves. */
static inline void select_with_donors(const force_view *fv, const store_stream *s, uint32_t i, int mat_i,
                                      uint32_t k0, uint32_t end, mesh_candidate *c, const int mixed,
                                      const int extended)
{
    sim_select_mesh_contacts(fv, i, fv->pt.x[i], mat_i, k0, end, c, mixed, extended);
    for (int a = 0; a < (int)(end - k0); a++)
        if (c[a].keep && c[a].donor >= 0)
            c[a].inherited = history_of(fv, s, k0, c[a].donor);
}

#endif
