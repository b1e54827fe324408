/* Outlets: at the end of every step, each particle whose centre is in a
 * sink (the first of the scenario's order that holds it) or, with
 * remove_lost, lost out of the meshes' box (sim/thermo.c) is logged with
 * its step, time, id, tag, place and velocity, counted by sink and tag,
 * and removed (grains_sim_remove): in id order, from positions alone, so
 * the same on any number of threads and across a checkpoint. Among ranks,
 * each finds those of its own particles, and every rank logs and removes
 * them all (decomp/rank_remove.c). */
#include <stdlib.h>
#include <string.h>

#include "decomp/hooks.h"
#include "sim/sim_internal.h"
#include "util/array.h"

/* Whether x is in sink k: its box, or the cylinder along z inscribed in it
 * (its cross-section the ellipse in the box's x-y face), as an insertion
 * region's. */
static int in_sink(const grains_sink *k, vec3 x)
{
    if (!(x.x >= k->lo.x && x.x <= k->hi.x && x.y >= k->lo.y && x.y <= k->hi.y && x.z >= k->lo.z &&
          x.z <= k->hi.z))
        return 0;
    if (!k->cylinder)
        return 1;
    real ax = (k->hi.x - k->lo.x) / 2, ay = (k->hi.y - k->lo.y) / 2;
    real u = (x.x - (k->lo.x + k->hi.x) / 2) / ax, w = (x.y - (k->lo.y + k->hi.y) / 2) / ay;
    return u * u + w * w <= 1;
}

/* The sink that takes a particle at x: its index, -1 for lost, -2 for none. */
static int sink_of(const grains_sim *sim, const thermo_sums *box, vec3 x)
{
    for (int k = 0; k < sim->p.n_sinks; k++)
        if (in_sink(&sim->p.sink[k], x))
            return k;
    return sim->p.remove_lost && sim_lost(sim, box, x) ? -1 : -2;
}

static int by_sink_tag(const sink_count *a, int sink, int tag)
{
    return a->sink != sink ? (a->sink < sink ? -1 : 1) : a->tag != tag ? (a->tag < tag ? -1 : 1) : 0;
}

/* One more removed by `sink` with `tag`; 0 out of memory. */
static int count_one(sim_sinks *k, int sink, int tag)
{
    size_t at = 0;
    while (at < k->n_count && by_sink_tag(&k->count[at], sink, tag) < 0)
        at++;
    if (at < k->n_count && by_sink_tag(&k->count[at], sink, tag) == 0) {
        k->count[at].n++;
        return 1;
    }
    if (!array_reserve((void **)&k->count, &k->cap_count, k->n_count + 1, sizeof *k->count, 4))
        return 0;
    memmove(k->count + at + 1, k->count + at, (k->n_count - at) * sizeof *k->count);
    k->count[at] = (sink_count){sink, tag, 1};
    k->n_count++;
    return 1;
}

/* A removal logged and counted; 0 out of memory. */
static int note(sim_sinks *k, const grains_removal *r)
{
    if (!array_reserve((void **)&k->log, &k->cap_log, k->n_log + 1, sizeof *k->log, 64) ||
        !count_one(k, r->sink, r->tag))
        return 0;
    k->log[k->n_log++] = *r;
    return 1;
}

static int by_id(const void *a, const void *b)
{
    size_t x = ((const grains_removal *)a)->id, y = ((const grains_removal *)b)->id;
    return (x > y) - (x < y);
}

/* The removals of the particles this process moves (its own, among
 * ranks), in storage order: *n of them at *found (malloc'd); 0 out of
 * memory. */
static int find(const grains_sim *sim, grains_removal **found, size_t *n)
{
    thermo_sums box;
    sim_lost_box(sim, &box);
    const grains_particles *pt = &sim->pt;
    slot_run alone;
    size_t n_runs, cap = 0;
    const slot_run *runs = sim_own_runs(sim, &alone, &n_runs);
    *found = NULL;
    *n = 0;
    for (size_t r = 0; r < n_runs; r++)
        for (uint32_t i = runs[r].lo; i < runs[r].hi; i++) {
            int sink = sink_of(sim, &box, pt->x[i]);
            if (sink == -2)
                continue;
            if (!array_reserve((void **)found, &cap, *n + 1, sizeof **found, 16))
                return 0;
            grains_removal *rec = &(*found)[(*n)++];
            memset(rec, 0, sizeof *rec); /* (the padding too: the bytes travel among ranks) */
            rec->step = sim->step, rec->time = grains_sim_time(sim), rec->sink = sink;
            rec->id = pt->id[i], rec->tag = pt->tag[i], rec->x = pt->x[i], rec->v = pt->v[i];
            rec->uid = sim_uid(&sim->uids, pt->id[i]);
        }
    return 1;
}

grains_status sim_sinks_apply(grains_sim *sim, grains_error *err)
{
    if (!sim->p.n_sinks && !sim->p.remove_lost)
        return GRAINS_OK;
    grains_removal *found;
    size_t n;
    int ok = find(sim, &found, &n);
    if (sim_shared(sim)) { /* every rank's, to every rank (this one's none if short of memory: no rank waits) */
        grains_removal *all = sim_ranks_gather_removals(&sim->rank_view, ok ? found : NULL, ok ? n : 0, &n);
        free(found);
        found = all;
    }
    if (n)
        qsort(found, n, sizeof *found, by_id);
    size_t *ids = malloc((n ? n : 1) * sizeof *ids);
    for (size_t k = 0; ok && ids && k < n; k++) {
        ok = note(&sim->sinks, &found[k]);
        ids[k] = found[k].id;
    }
    grains_status s = ok && ids ? grains_sim_remove(sim, n, ids, err)
                                : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0,
                                                   "out of memory removing particles at the sinks");
    free(found);
    free(ids);
    return s;
}

size_t grains_sim_removals(const grains_sim *sim, const grains_removal **log)
{
    *log = sim->sinks.log;
    return sim->sinks.n_log;
}

void grains_sim_clear_removals(grains_sim *sim) { sim->sinks.n_log = 0; }

size_t grains_sim_removed(const grains_sim *sim, int sink, int tag, int any_tag)
{
    size_t n = 0;
    for (size_t k = 0; k < sim->sinks.n_count; k++) {
        const sink_count *c = &sim->sinks.count[k];
        if (c->sink == sink && (any_tag || c->tag == tag))
            n += (size_t)c->n;
    }
    return n;
}

void sim_sinks_free(sim_sinks *k)
{
    free(k->log);
    free(k->count);
    memset(k, 0, sizeof *k);
}

void sim_sinks_write_state(const sim_sinks *k, bytes_out *o)
{
    bytes_put_u64(o, k->n_count);
    for (size_t c = 0; c < k->n_count; c++) {
        bytes_put_u32(o, (uint32_t)k->count[c].sink);
        bytes_put_u32(o, (uint32_t)k->count[c].tag);
        bytes_put_u64(o, k->count[c].n);
    }
}

grains_status sim_sinks_read_state(sim_sinks *k, bytes_in *in, int n_sinks, grains_error *err)
{
    size_t n;
    if (!bytes_get_count(in, 16, SIZE_MAX, &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the sinks' counts");
    if (!array_reserve((void **)&k->count, &k->cap_count, n ? n : 1, sizeof *k->count, 4))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the sinks' counts");
    for (size_t c = 0; c < n; c++) {
        sink_count *s = &k->count[c];
        s->sink = (int32_t)bytes_get_u32(in);
        s->tag = (int32_t)bytes_get_u32(in);
        s->n = bytes_get_u64(in);
        if (!in->bad && (s->sink < -1 || s->sink >= n_sinks || (c > 0 && by_sink_tag(&k->count[c - 1], s->sink,
                                                                                     s->tag) >= 0)))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the sinks' counts");
    }
    k->n_count = n;
    k->n_log = 0;
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the sinks' counts") : GRAINS_OK;
}
