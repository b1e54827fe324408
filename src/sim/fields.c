/* A particle's fields in bulk, by id (grains/sim.h, grains/choices.h: GRAINS_BULK_FIELD_LIST): what
 * grains_sim_get_particle and grains_sim_set_particle do one at a time, for a run of ids in one
 * call. A set checks every value before it changes anything. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

#define FIELD_WIDTH(id, name, width, is_real, doc) case GRAINS_BULK_##id: return width;
#define FIELD_REAL(id, name, width, is_real, doc) case GRAINS_BULK_##id: return is_real;

static int field_width(grains_bulk_field f)
{
    switch (f) { GRAINS_BULK_FIELD_LIST(FIELD_WIDTH) default: return 0; }
}

/* 1 for doubles, 0 for integers, -1 for no field. */
static int field_real(grains_bulk_field f)
{
    switch (f) { GRAINS_BULK_FIELD_LIST(FIELD_REAL) default: return -1; }
}

/* OK when `f` is a field of the kind asked (real or not) and [first, first + count) are ids. */
static grains_status field_range(const grains_sim *sim, grains_bulk_field f, int reals, size_t first, size_t count,
                                 grains_error *err)
{
    int kind = field_real(f);
    if (kind < 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "field %d: the fields are 0 to %d", (int)f,
                                grains_fields.n - 1);
    if (kind != reals)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "field \"%s\" holds %s: use grains_sim_get_%s or _set_%s",
                                grains_choice_name(&grains_fields, f), kind ? "reals" : "integers",
                                kind ? "reals" : "ints", kind ? "reals" : "ints");
    size_t n = grains_sim_count(sim);
    if (first > n || count > n - first)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%zu ids from %zu: the simulation holds %zu particles",
                                count, first, n);
    return GRAINS_OK;
}

/* The vector of particle p that `f` names (a field of width 3), or of its radius. */
static double *reals_of(grains_particle *p, grains_bulk_field f)
{
    switch (f) {
    case GRAINS_BULK_POSITION: return &p->x.x;
    case GRAINS_BULK_VELOCITY: return &p->v.x;
    case GRAINS_BULK_ANGULAR_VELOCITY: return &p->w.x;
    default: return &p->R;
    }
}

/* The stored reals of `f` for particle index i (width 3 or 1), of the particles as read. */
static const real *stored_reals(const grains_particles *pt, grains_bulk_field f, size_t i)
{
    switch (f) {
    case GRAINS_BULK_POSITION: return &pt->x[i].x;
    case GRAINS_BULK_VELOCITY: return &pt->v[i].x;
    case GRAINS_BULK_ANGULAR_VELOCITY: return &pt->w[i].x;
    default: return &pt->R[i];
    }
}

/* (the values grains_sim_get_particle gives, one field at a time: a copy per id, not per particle) */
grains_status grains_sim_get_reals(const grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                   double *out, grains_error *err)
{
    grains_status s = field_range(sim, field, 1, first, count, err);
    if (s != GRAINS_OK)
        return s;
    size_t w = (size_t)field_width(field);
    const grains_particles *pt = sim_particles_read(sim);
    for (size_t k = 0; k < count; k++) {
        size_t i = pt->slot[first + k];
        for (size_t c = 0; c < w; c++) /* (NaN where not held: grains_sim_get_particle) */
            out[w * k + c] = i < pt->n ? stored_reals(pt, field, i)[c] : (double)NAN;
    }
    return GRAINS_OK;
}

grains_status grains_sim_get_ints(const grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                  int64_t *out, grains_error *err)
{
    grains_status s = field_range(sim, field, 0, first, count, err);
    if (s != GRAINS_OK)
        return s;
    const grains_particles *pt = sim_particles_read(sim);
    for (size_t k = 0; k < count; k++) {
        size_t i = pt->slot[first + k];
        out[k] = field == GRAINS_BULK_ID    ? (int64_t)(first + k)
                 : field == GRAINS_BULK_UID ? (int64_t)sim_uid(&sim->uids, first + k)
                 : i >= pt->n               ? (field == GRAINS_BULK_TAG ? 0 : -1) /* (not held) */
                 : field == GRAINS_BULK_TAG ? pt->tag[i]
                                            : pt->mat[i];
    }
    return GRAINS_OK;
}

/* Whether this process holds particle `id` (a rank holding a share sets those it holds), and
 * then its state as stored. */
static int held(const grains_sim *sim, size_t id, grains_particle *p)
{
    const grains_particles *pt = &sim->pt;
    size_t i = pt->slot[id];
    if (i >= pt->n)
        return 0;
    *p = (grains_particle){pt->x[i], pt->v[i], pt->w[i], pt->q[i], pt->R[i], pt->mat[i], pt->tag[i]};
    return 1;
}

/* Held particle `id` with the values v of field f (its width) in place of its own; 0 where this
 * process does not hold it. */
static int held_with(const grains_sim *sim, size_t id, grains_bulk_field f, const double *v, grains_particle *p)
{
    if (!held(sim, id, p))
        return 0;
    memcpy(reals_of(p, f), v, (size_t)field_width(f) * sizeof *v);
    return 1;
}

/* err's message prefixed with the particle and field it is about. */
static grains_status about(grains_error *err, size_t id, grains_bulk_field f)
{
    if (err) {
        char full[sizeof err->message + 64]; /* (the prefix, then the message cut to fit) */
        snprintf(full, sizeof full, "particle %zu's %.20s: %.*s", id, grains_choice_name(&grains_fields, f),
                 (int)sizeof err->message, err->message);
        memcpy(err->message, full, sizeof err->message - 1);
        err->message[sizeof err->message - 1] = 0;
    }
    return GRAINS_ERR_RANGE;
}

grains_status grains_sim_set_reals(grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                   const double *in, grains_error *err)
{
    grains_status s = field_range(sim, field, 1, first, count, err);
    if (s != GRAINS_OK)
        return s;
    size_t w = (size_t)field_width(field);
    grains_particle p;
    for (size_t k = 0; k < count; k++) /* every value checked before any is set */
        if (held_with(sim, first + k, field, in + w * k, &p) && sim_check_particle(sim, &p, err) != GRAINS_OK)
            return about(err, first + k, field);
    for (size_t k = 0; k < count; k++)
        if (held_with(sim, first + k, field, in + w * k, &p))
            grains_sim_set_particle(sim, first + k, &p);
    return GRAINS_OK;
}

grains_status grains_sim_set_ints(grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                  const int64_t *in, grains_error *err)
{
    grains_status s = field_range(sim, field, 0, first, count, err);
    if (s != GRAINS_OK)
        return s;
    if (field == GRAINS_BULK_ID || field == GRAINS_BULK_UID)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "field \"%s\" is read only: a particle's %s",
                                field == GRAINS_BULK_ID ? "id" : "uid",
                                field == GRAINS_BULK_ID ? "id is its number" : "uid is its number in the order made");
    int64_t lo = field == GRAINS_BULK_TAG ? INT_MIN : 0, hi = field == GRAINS_BULK_TAG ? INT_MAX : sim->p.n_materials - 1;
    for (size_t k = 0; k < count; k++)
        if (in[k] < lo || in[k] > hi) {
            grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "%lld is not in [%lld, %lld]", (long long)in[k],
                             (long long)lo, (long long)hi);
            return about(err, first + k, field);
        }
    grains_particle p;
    for (size_t k = 0; k < count; k++)
        if (held(sim, first + k, &p)) {
            *(field == GRAINS_BULK_TAG ? &p.tag : &p.material) = (int)in[k];
            grains_sim_set_particle(sim, first + k, &p);
        }
    return GRAINS_OK;
}
