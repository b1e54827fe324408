/* Rank 0's particles a window of ids at a time, to write a frame, when
 * the ranks hold their own particles alone (grains_ranks.local) and rank
 * 0 has not gathered them all (decomp/rank_writer.c): each rank sends the
 * fields asked of its own particles in the window, with their ids, and
 * rank 0 lays them out by id. The frames are by id, so rank 0 holds a
 * window where the gather held every particle (and a checkpoint's copy
 * still does), and the file's bytes are the same: the arrays are written
 * as their values come (io/vtk_array.h). Each rank finds its own in a
 * window through an index of them by window, built once per frame. */
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "util/array.h"

size_t sim_ranks_frame_window(const rank_sim *sim)
{
    size_t w = sim->ranks->peers.window;
    return w ? w : GRAINS_FRAME_WINDOW;
}

static void window_failed(const rank_sim *sim)
{
    sim_ranks_stop(sim, "out of memory sending the particles to write: stopping them all");
}

/* Whether held particle i is this rank's own: dealt, its dealer's (as the
 * writer's gather sends them); else of its blocks at the last cut, or
 * added since as the next cut will take it (decomp/rank_local.c,
 * mark_copies). */
int sim_ranks_owns(const rank_sim *sim, uint32_t i)
{
    const sim_ranks *r = sim->ranks;
    size_t cut = r->dealt ? 0 : r->cut_n;
    return i < cut ? r->mine[i] : sim_ranks_added_own(sim, i);
}

/* The own particles by window of their ids (a counting sort): window w's
 * are window_order[window_start[w] .. window_start[w + 1]). */
static void index_windows(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    const grains_particles *pt = sim->pt;
    size_t W = sim_ranks_frame_window(sim), n_windows = r->n_ids / W + 1;
    if (!array_reserve((void **)&r->window_start, &r->window_start_cap, n_windows + 1, sizeof *r->window_start, 1))
        window_failed(sim);
    memset(r->window_start, 0, (n_windows + 1) * sizeof *r->window_start);
    size_t n_own = 0;
    for (uint32_t i = 0; i < pt->n; i++)
        if (sim_ranks_owns(sim, i)) {
            r->window_start[pt->id[i] / W + 1]++;
            n_own++;
        }
    if (!array_reserve((void **)&r->window_order, &r->window_order_cap, n_own + 1, sizeof *r->window_order, 1))
        window_failed(sim);
    for (size_t w = 0; w < n_windows; w++)
        r->window_start[w + 1] += r->window_start[w];
    size_t *next = r->window_start; /* each window's next place, then its end: shifted back below */
    for (uint32_t i = 0; i < pt->n; i++)
        if (sim_ranks_owns(sim, i))
            r->window_order[next[pt->id[i] / W]++] = i;
    memmove(r->window_start + 1, r->window_start, n_windows * sizeof *r->window_start);
    r->window_start[0] = 0;
    r->windows_held = pt->n;
    r->windows_valid = 1;
}

size_t sim_ranks_window_own(const rank_sim *sim, size_t w, const uint32_t **own)
{
    sim_ranks *r = sim->ranks;
    if (!r->windows_valid || r->windows_held != sim->pt->n)
        index_windows(sim);
    *own = r->window_order + r->window_start[w];
    return r->window_start[w + 1] - r->window_start[w];
}

/* The bytes a particle travels in: its id, then the fields asked. */
static size_t record_bytes(unsigned fields)
{
    size_t b = sizeof(uint32_t);
    b += fields & GRAINS_FIELD_X ? sizeof(vec3) : 0;
    b += fields & GRAINS_FIELD_V ? sizeof(vec3) : 0;
    b += fields & GRAINS_FIELD_W ? sizeof(vec3) : 0;
    b += fields & GRAINS_FIELD_Q ? sizeof(quat) : 0;
    b += fields & GRAINS_FIELD_R ? sizeof(real) : 0;
    b += fields & GRAINS_FIELD_MATERIAL ? sizeof(int) : 0;
    b += fields & GRAINS_FIELD_TAG ? sizeof(int) : 0;
    return b;
}

static char *put_bytes(char *at, const void *v, size_t n, int asked)
{
    if (!asked)
        return at;
    memcpy(at, v, n);
    return at + n;
}

static char *put_record(char *at, const grains_particles *pt, uint32_t i, unsigned fields)
{
    int material = pt->mat[i], tag = pt->tag[i];
    at = put_bytes(at, &pt->id[i], sizeof pt->id[i], 1);
    at = put_bytes(at, &pt->x[i], sizeof pt->x[i], fields & GRAINS_FIELD_X);
    at = put_bytes(at, &pt->v[i], sizeof pt->v[i], fields & GRAINS_FIELD_V);
    at = put_bytes(at, &pt->w[i], sizeof pt->w[i], fields & GRAINS_FIELD_W);
    at = put_bytes(at, &pt->q[i], sizeof pt->q[i], fields & GRAINS_FIELD_Q);
    at = put_bytes(at, &pt->R[i], sizeof pt->R[i], fields & GRAINS_FIELD_R);
    at = put_bytes(at, &material, sizeof material, fields & GRAINS_FIELD_MATERIAL);
    return put_bytes(at, &tag, sizeof tag, fields & GRAINS_FIELD_TAG);
}

static const char *take_bytes(const char *at, void *v, size_t n, int asked)
{
    if (!asked)
        return at;
    memcpy(v, at, n);
    return at + n;
}

/* A record into out, at its id's place in the window from `first`. */
static const char *take_record(const char *at, grains_particle *out, size_t first, unsigned fields)
{
    uint32_t id;
    at = take_bytes(at, &id, sizeof id, 1);
    grains_particle *p = &out[id - first];
    at = take_bytes(at, &p->x, sizeof p->x, fields & GRAINS_FIELD_X);
    at = take_bytes(at, &p->v, sizeof p->v, fields & GRAINS_FIELD_V);
    at = take_bytes(at, &p->w, sizeof p->w, fields & GRAINS_FIELD_W);
    at = take_bytes(at, &p->q, sizeof p->q, fields & GRAINS_FIELD_Q);
    at = take_bytes(at, &p->R, sizeof p->R, fields & GRAINS_FIELD_R);
    at = take_bytes(at, &p->material, sizeof p->material, fields & GRAINS_FIELD_MATERIAL);
    return take_bytes(at, &p->tag, sizeof p->tag, fields & GRAINS_FIELD_TAG);
}

/* Every rank's records of the window into out: each id of the window
 * once, or the ranks disagree on what they own (a bug, not an input):
 * every rank stops, rather than write a frame with holes. */
static void take_window(const rank_sim *sim, const char *all, size_t total, unsigned fields, size_t first,
                        size_t count, grains_particle *out)
{
    size_t record = record_bytes(fields), got = 0;
    uint8_t *seen = calloc(count, 1);
    if (!seen)
        window_failed(sim);
    for (const char *at = all; total % record == 0 && at < all + total; got++) {
        uint32_t id;
        memcpy(&id, at, sizeof id);
        if (id < first || id - first >= count || seen[id - first]++)
            break;
        at = take_record(at, out, first, fields);
    }
    free(seen);
    if (got * record != total || got != count)
        sim_ranks_stop(sim, "the ranks sent rank 0 a window of particles to write with ids missing or twice: "
                            "stopping them all");
}

/* This rank's own particles of ids [first, first + count) into the send
 * buffer; their bytes. */
static size_t put_window(const rank_sim *sim, unsigned fields, size_t first, size_t count)
{
    sim_ranks *r = sim->ranks;
    const grains_particles *pt = sim->pt;
    size_t W = sim_ranks_frame_window(sim), w0 = first / W, w1 = (first + count - 1) / W + 1;
    size_t k0 = r->window_start[w0], k1 = r->window_start[w1 < r->n_ids / W + 1 ? w1 : r->n_ids / W + 1];
    if (!array_reserve((void **)&r->send, &r->send_cap, (k1 - k0) * record_bytes(fields) + 1, 1, 4))
        window_failed(sim);
    char *at = r->send;
    for (size_t k = k0; k < k1; k++) {
        uint32_t i = r->window_order[k];
        if (pt->id[i] >= first && pt->id[i] < first + count)
            at = put_record(at, pt, i, fields);
    }
    return (size_t)(at - r->send);
}

void sim_ranks_particle_window(const rank_sim *sim, unsigned fields, size_t first, size_t count, grains_particle *out)
{
    sim_ranks *r = sim->ranks;
    if (!rank_local(sim) || !r->holds_share || r->writer_whole) { /* each reads what it holds */
        for (size_t k = 0; k < count && out; k++)
            sim->doors->get_particle(sim->core, first + k, &out[k]);
        return;
    }
    if (count == 0)
        return;
    if (!r->windows_valid || r->windows_held != sim->pt->n)
        index_windows(sim);
    size_t total;
    const char *all = sim_ranks_to_writer(sim, put_window(sim, fields, first, count), &total);
    if (r->peers.rank == 0 && out)
        take_window(sim, all, total, fields, first, count, out);
}

char *sim_ranks_to_writer(const rank_sim *sim, size_t bytes, size_t *total)
{
    sim_ranks *r = sim->ranks;
    size_t P = (size_t)r->peers.size;
    memset(r->send_counts, 0, P * sizeof *r->send_counts);
    r->send_counts[0] = bytes; /* to rank 0 alone (its own to itself) */
    r->recv = r->peers.alltoall(r->peers.ctx, r->send, r->send_counts, r->counts, r->recv, &r->recv_cap);
    *total = 0;
    for (size_t q = 0; q < P; q++)
        *total += r->counts[q];
    return r->recv;
}

void sim_ranks_window_thermo(const rank_sim *sim)
{
    sim_ranks *r = sim->ranks;
    size_t W = sim_ranks_frame_window(sim), n = r->n_ids;
    grains_particle *win = r->peers.rank == 0 ? malloc(((W < n ? W : n) + 1) * sizeof *win) : NULL;
    if (!win && r->peers.rank == 0)
        window_failed(sim);
    thermo_sums s;
    sim->doors->thermo_start(sim->core, &s);
    /* (positions count the lost alone, outside the box of the meshes: with none, a window is 27% lighter) */
    const unsigned fields = GRAINS_FIELD_V | GRAINS_FIELD_W | GRAINS_FIELD_R | GRAINS_FIELD_MATERIAL |
                            (s.boxed ? GRAINS_FIELD_X : 0);
    for (size_t first = 0; first < n; first += W) {
        size_t count = n - first < W ? n - first : W;
        sim_ranks_particle_window(sim, fields, first, count, win);
        for (size_t k = 0; k < count && r->peers.rank == 0; k++)
            sim->doors->thermo_add(sim->core, &s, &win[k]);
    }
    free(win);
    uint64_t bonds[2] = {0, 0}; /* intact, broken: each on the owner of its first particle */
    for (size_t k = 0; k < sim->bonds->n; k++) {
        const sim_bond *b = &sim->bonds->list[k];
        uint32_t i = b->a < r->n_ids ? sim->pt->slot[b->a] : UINT32_MAX;
        bonds[b->broken != 0] += i < sim->pt->n && sim_ranks_owns(sim, i);
    }
    r->peers.sum(r->peers.ctx, bonds, 2);
    s.bonds = (size_t)bonds[0];
    s.broken = (size_t)bonds[1];
    sim_ranks_drop_exchange(r, 1, 1); /* (a window's: kept, they would stay until the next exchange) */
    r->thermo = s;
    r->thermo_whole = 1; /* (rank 0's alone are the sums) */
}
