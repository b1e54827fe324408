/* Strays (sim/strays.h): found at each rebuild, their speeds kept apart
 * from the others' at each step, their bound checked with the lists'. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"

#define NO_SLOT UINT32_MAX

/* The squared distance from x to the box E out of which a grain is lost (sim/thermo.c)
 * without its pad: along the axes that are not periodic, open against gravity. */
static real box_distance2(const grains_sim *sim, const thermo_sums *s, vec3 x)
{
    real d2 = 0;
    for (int k = 0; k < 3; k++) {
        real c = (&x.x)[k], g = (&sim->p.g.x)[k], lo = (&s->lo.x)[k], hi = (&s->hi.x)[k], d = 0;
        if (sim->box.mask >> k & 1)
            continue;
        if (c < lo && !(g > 0))
            d = lo - c;
        else if (c > hi && !(g < 0))
            d = c - hi;
        d2 += d * d;
    }
    return d2;
}

/* This rank's own grains farther than the pad from E (lost), at most one
 * more than STRAYS_MAX (so that too many is known). */
static size_t offer_own(const grains_sim *sim, const thermo_sums *s, stray_offer *own)
{
    slot_run alone;
    size_t n_runs, n = 0;
    const slot_run *runs = sim_own_runs(sim, &alone, &n_runs);
    for (size_t r = 0; r < n_runs; r++)
        for (uint32_t i = runs[r].lo; i < runs[r].hi && n <= STRAYS_MAX; i++) {
            vec3 x = sim->pt.x[i];
            real d2 = box_distance2(sim, s, x);
            if (d2 > s->pad * s->pad)
                own[n++] = (stray_offer){sim->pt.id[i], 0, {x.x, x.y, x.z}, sqrt(d2)};
        }
    return n;
}

static int nearer(const void *a, const void *b)
{
    const stray_offer *p = a, *q = b;
    return p->dist < q->dist ? -1 : p->dist > q->dist ? 1 : (p->id > q->id) - (p->id < q->id);
}

static int id_order(const void *a, const void *b)
{
    uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;
    return (p > q) - (p < q);
}

/* The smallest gap, less the reach, between two of the offers [0, n). */
static real clearance_each(const grains_sim *sim, const stray_offer *o, size_t n, real reach)
{
    real least = INFINITY;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            vec3 d = periodic_delta(&sim->box, v3(o[a].x[0] - o[b].x[0], o[a].x[1] - o[b].x[1], o[a].x[2] - o[b].x[2]));
            least = fmin(least, v3_norm(d) - 2 * sim->p.R_max - reach);
        }
    return least;
}

/* Where this rank holds each stray (a pass over its particles, the ids sorted). */
static void place(grains_sim *sim)
{
    sim_strays *st = &sim->strays;
    for (uint32_t k = 0; k < st->n; k++)
        st->slot[k] = NO_SLOT;
    for (size_t i = 0; i < sim->pt.n && st->n; i++) {
        const uint32_t *at = bsearch(&sim->pt.id[i], st->id, st->n, sizeof *st->id, id_order);
        if (at)
            st->slot[at - st->id] = (uint32_t)i;
    }
}

/* Of the lost grains sorted by distance, the nearest join the rest while a
 * stray would lie within the skin of it: the rest then reaches D (the
 * farthest of them) from E, grains by R_max more, elements by their radius
 * (the lost box's pad less R_max). */
static void choose(grains_sim *sim, stray_offer *all, size_t n, const thermo_sums *s, real reach)
{
    sim_strays *st = &sim->strays;
    const real R = sim->p.R_max, skin = sim->p.skin;
    qsort(all, n, sizeof *all, nearer);
    size_t first = 0;
    real D = s->pad, clear = -INFINITY;
    for (; first < n; D = all[first++].dist) {
        clear = all[first].dist - fmax(D + R, s->pad - R) - R - reach;
        if (clear > skin)
            break;
    }
    real each = clearance_each(sim, all + first, n - first, reach);
    if (first == n || !(each > skin))
        return;
    st->n = (uint32_t)(n - first);
    st->clear_rest = clear;
    st->clear_each = each;
    for (uint32_t k = 0; k < st->n; k++)
        st->id[k] = all[first + k].id;
    qsort(st->id, st->n, sizeof *st->id, id_order);
    place(sim);
}

void sim_strays_find(grains_sim *sim, real list_pad)
{
    sim_strays *st = &sim->strays;
    *st = (sim_strays){.clear_rest = INFINITY, .clear_each = INFINITY};
    thermo_sums s = {0};
    sim_lost_box(sim, &s);
    if (!s.boxed || sim->integrator->advance) /* (the implicit rows bound every grain's motion as one) */
        return;
    stray_offer own[STRAYS_MAX + 1];
    size_t n = offer_own(sim, &s, own);
    if (!sim_shared(sim)) {
        if (n <= STRAYS_MAX)
            choose(sim, own, n, &s, list_pad - sim->p.skin);
        sim->strays_over += n > STRAYS_MAX; /* (none kept apart: grains_sim_strays_overflowed) */
        return;
    }
    size_t bytes = 0;
    const void *every = sim_ranks_gather(&sim->rank_view, own, n * sizeof *own, &bytes);
    stray_offer all[STRAYS_MAX];
    if (bytes <= sizeof all) {
        memcpy(all, every, bytes);
        choose(sim, all, bytes / sizeof *all, &s, list_pad - sim->p.skin);
    }
    sim->strays_over += bytes > sizeof all;
}

size_t grains_sim_strays_overflowed(const grains_sim *sim) { return sim->strays_over; }

/* Whether slot i lies in one of the runs. */
static int in_runs(uint32_t i, const slot_run *runs, size_t n_runs)
{
    for (size_t r = 0; r < n_runs; r++)
        if (i >= runs[r].lo && i < runs[r].hi)
            return 1;
    return 0;
}

static real speed2_of(const grains_particles *pt, uint32_t i, real most)
{
    return speed2_max(most, v3_dot(pt->v[i], pt->v[i]), v3_dot(pt->w[i], pt->w[i]));
}

/* The largest squared speed over the runs but the strays' slots (sorted). */
static real near_speed2(const grains_particles *pt, const slot_run *runs, size_t n_runs, const uint32_t *skip,
                        uint32_t n_skip)
{
    real most = 0;
    uint32_t k = 0;
    for (size_t r = 0; r < n_runs; r++)
        for (uint32_t i = runs[r].lo; i < runs[r].hi; i++) {
            while (k < n_skip && skip[k] < i)
                k++;
            if (k < n_skip && skip[k] == i)
                continue;
            most = speed2_of(pt, i, most);
        }
    return most;
}

void sim_strays_split(grains_sim *sim, const slot_run *runs, size_t n_runs)
{
    sim_strays *st = &sim->strays;
    st->v2_far = 0;
    if (!st->n)
        return;
    real total = 0;
    for (int t = 0; t < sim->nthreads; t++)
        total = sim->v2_thread[t] > total ? sim->v2_thread[t] : total;
    uint32_t mine[STRAYS_MAX], n_mine = 0;
    for (uint32_t k = 0; k < st->n; k++)
        if (st->slot[k] != NO_SLOT && in_runs(st->slot[k], runs, n_runs)) {
            mine[n_mine++] = st->slot[k];
            st->v2_far = speed2_of(&sim->pt, st->slot[k], st->v2_far);
        }
    qsort(mine, n_mine, sizeof *mine, id_order);
    real near = st->v2_far < total ? total : near_speed2(&sim->pt, runs, n_runs, mine, n_mine);
    for (int t = 0; t < sim->nthreads; t++)
        sim->v2_thread[t] = t ? 0 : near;
}

void sim_strays_advance(grains_sim *sim, int moves)
{
    sim_strays *st = &sim->strays;
    real near = 0;
    for (int t = 0; t < sim->nthreads; t++)
        near = sim->v2_thread[t] > near ? sim->v2_thread[t] : near;
    if (moves) {
        sim->displacement += sqrt(near) * sim->p.dt;
        st->moved += sqrt(st->v2_far) * sim->p.dt;
    }
    if (st->n) /* the largest of all again: the finite state's check, the next step's record */
        for (int t = 0; t < sim->nthreads; t++)
            sim->v2_thread[t] = t ? 0 : st->v2_far > near ? st->v2_far : near;
}

int sim_strays_close(const grains_sim *sim, real elements)
{
    const sim_strays *st = &sim->strays;
    return st->n && (2 * st->moved >= st->clear_each || st->moved + fmax(sim->displacement, elements) >= st->clear_rest);
}

/* Written after the rest of the state, where there are strays; read where
 * the state goes on (a state without them, or of before them, ends first). */
void sim_strays_write_state(const sim_strays *st, bytes_out *o)
{
    if (!st->n)
        return;
    bytes_put_u32(o, st->n);
    bytes_put_u32s(o, st->id, st->n);
    bytes_put_real(o, st->moved);
    bytes_put_real(o, st->clear_rest);
    bytes_put_real(o, st->clear_each);
}

grains_status sim_strays_read_state(grains_sim *sim, bytes_in *in, size_t n_particles, grains_error *err)
{
    sim_strays *st = &sim->strays;
    *st = (sim_strays){.clear_rest = INFINITY, .clear_each = INFINITY};
    if (in->left <= 4) /* (the CRC alone) */
        return GRAINS_OK;
    uint32_t n = bytes_get_u32(in);
    if (n == 0 || n > STRAYS_MAX)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: its strays (%u)", n);
    bytes_get_u32s(in, st->id, n);
    st->moved = bytes_get_real(in);
    st->clear_rest = bytes_get_real(in);
    st->clear_each = bytes_get_real(in);
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in its strays");
    int ok = st->moved >= 0 && st->moved < INFINITY && st->clear_rest > 0 && st->clear_rest < INFINITY &&
             st->clear_each > 0;
    for (uint32_t k = 0; k < n && ok; k++)
        ok = st->id[k] < n_particles && (k == 0 || st->id[k] > st->id[k - 1]);
    if (!ok) {
        *st = (sim_strays){.clear_rest = INFINITY, .clear_each = INFINITY};
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: its strays");
    }
    st->n = n;
    return GRAINS_OK;
}

void sim_strays_place(grains_sim *sim) { place(sim); }
