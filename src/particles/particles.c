/* Growth and release of the particle arrays. */
#include "particles/particles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PARTICLE_LIMIT 2000000000u /* ids are 32-bit in contact keys */

static int grow_field(void **field, size_t cap, size_t size)
{
    void *p = realloc(*field, cap * size);
    if (!p)
        return 0;
    *field = p;
    return 1;
}

grains_status particles_reserve(grains_particles *pt, size_t need, grains_error *err)
{
    if (need <= pt->cap)
        return GRAINS_OK;
    if (need > PARTICLE_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %u particles", PARTICLE_LIMIT);
    size_t cap = pt->cap ? pt->cap + pt->cap / 2 : 64;
    if (cap < need)
        cap = need;
    if (cap > PARTICLE_LIMIT)
        cap = PARTICLE_LIMIT;
    int ok = grow_field((void **)&pt->x, cap, sizeof *pt->x) && grow_field((void **)&pt->v, cap, sizeof *pt->v) &&
             grow_field((void **)&pt->w, cap, sizeof *pt->w) && grow_field((void **)&pt->q, cap, sizeof *pt->q) &&
             grow_field((void **)&pt->R, cap, sizeof *pt->R) &&
             grow_field((void **)&pt->mat, cap, sizeof *pt->mat) &&
             grow_field((void **)&pt->tag, cap, sizeof *pt->tag) && grow_field((void **)&pt->f, 2 * cap, sizeof *pt->f) &&
             grow_field((void **)&pt->slot, cap > pt->slot_cap ? cap : pt->slot_cap, sizeof *pt->slot) &&
             grow_field((void **)&pt->id, cap, sizeof *pt->id);
    if (!ok)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu particles", need);
    /* f and t are one block: t moves from f + old cap to f + cap. The sums
     * are kept (velocity Verlet carries a(t) in them between steps); the new
     * places start at zero. */
    size_t old = pt->cap;
    pt->t = pt->f + cap;
    if (old)
        memmove(pt->t, pt->f + old, old * sizeof *pt->t);
    memset(pt->f + old, 0, (cap - old) * sizeof *pt->f);
    memset(pt->t + old, 0, (cap - old) * sizeof *pt->t);
    pt->cap = cap;
    pt->slot_cap = cap > pt->slot_cap ? cap : pt->slot_cap;
    return GRAINS_OK;
}

grains_status particles_reserve_ids(grains_particles *pt, size_t n_ids, grains_error *err)
{
    if (n_ids <= pt->slot_cap)
        return GRAINS_OK;
    if (!grow_field((void **)&pt->slot, n_ids, sizeof *pt->slot))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu particle ids", n_ids);
    pt->slot_cap = n_ids;
    return GRAINS_OK;
}

grains_status particles_reserve_id(grains_particles *pt, size_t id, grains_error *err)
{
    if (id < pt->slot_cap)
        return GRAINS_OK;
    if (id >= PARTICLE_LIMIT)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %u particles", PARTICLE_LIMIT);
    size_t grown = id + 1 + id / 2;
    return particles_reserve_ids(pt, grown < PARTICLE_LIMIT ? grown : PARTICLE_LIMIT, err);
}

void particles_free(grains_particles *pt)
{
    free(pt->x);
    free(pt->v);
    free(pt->w);
    free(pt->q);
    free(pt->R);
    free(pt->mat);
    free(pt->tag);
    free(pt->f); /* t is in the same block */
    free(pt->slot);
    free(pt->id);
    *pt = (grains_particles){0};
}

/* In place, cycle by cycle: each move carries one particle's fields to its
 * new place and picks up the particle that stood there. */
void particles_permute(grains_particles *pt, uint32_t *where)
{
    for (uint32_t s = 0; s < pt->n; s++) {
        if (where[s] == s)
            continue;
        vec3 x = pt->x[s], v = pt->v[s], w = pt->w[s];
        quat q = pt->q[s];
        real R = pt->R[s];
        uint8_t mat = pt->mat[s];
        int32_t tag = pt->tag[s];
        uint32_t id = pt->id[s], dst = where[s];
        while (dst != s) {
            vec3 tx = pt->x[dst], tv = pt->v[dst], tw = pt->w[dst];
            quat tq = pt->q[dst];
            real tR = pt->R[dst];
            uint8_t tmat = pt->mat[dst];
            int32_t ttag = pt->tag[dst];
            uint32_t tid = pt->id[dst];
            pt->x[dst] = x, pt->v[dst] = v, pt->w[dst] = w, pt->q[dst] = q, pt->R[dst] = R, pt->mat[dst] = mat;
            pt->tag[dst] = tag, pt->id[dst] = id;
            x = tx, v = tv, w = tw, q = tq, R = tR, mat = tmat, tag = ttag, id = tid;
            uint32_t next = where[dst];
            where[dst] = dst;
            dst = next;
        }
        pt->x[s] = x, pt->v[s] = v, pt->w[s] = w, pt->q[s] = q, pt->R[s] = R, pt->mat[s] = mat;
        pt->tag[s] = tag, pt->id[s] = id;
        where[s] = s;
    }
    for (uint32_t s = 0; s < pt->n; s++) /* the ids held need not be 0 .. n-1 (a rank's share) */
        pt->slot[pt->id[s]] = s;
}

/* The arrays' room cut to `cap` (>= n); t moves down to f + cap first. */
static void shrink(grains_particles *pt, size_t cap)
{
    memmove(pt->f + cap, pt->t, pt->n * sizeof *pt->t);
    pt->t = pt->f + cap;
    void **fields[] = {(void **)&pt->x, (void **)&pt->v, (void **)&pt->w, (void **)&pt->q, (void **)&pt->R,
                       (void **)&pt->mat, (void **)&pt->tag, (void **)&pt->id, (void **)&pt->f};
    size_t sizes[] = {sizeof *pt->x, sizeof *pt->v, sizeof *pt->w, sizeof *pt->q, sizeof *pt->R,
                      sizeof *pt->mat, sizeof *pt->tag, sizeof *pt->id, 2 * sizeof *pt->f};
    for (size_t k = 0; k < sizeof fields / sizeof *fields; k++)
        grow_field(fields[k], cap, sizes[k]); /* (smaller: it keeps the block where it cannot) */
    pt->t = pt->f + cap;
    pt->cap = cap;
}

void particles_keep(grains_particles *pt, const uint8_t *keep)
{
    size_t m = 0;
    for (size_t i = 0; i < pt->n; i++) {
        if (!keep[i]) {
            pt->slot[pt->id[i]] = UINT32_MAX;
            continue;
        }
        pt->x[m] = pt->x[i], pt->v[m] = pt->v[i], pt->w[m] = pt->w[i], pt->q[m] = pt->q[i];
        pt->R[m] = pt->R[i], pt->mat[m] = pt->mat[i], pt->tag[m] = pt->tag[i], pt->id[m] = pt->id[i];
        pt->f[m] = pt->f[i], pt->t[m] = pt->t[i];
        pt->slot[pt->id[m]] = (uint32_t)m;
        m++;
    }
    pt->n = m;
    if (m + m / 8 < pt->cap)
        shrink(pt, m > 64 ? m : 64);
}

/* id from slot, its inverse. */
static void name_slots(grains_particles *pt)
{
    for (uint32_t id = 0; id < pt->n; id++)
        pt->id[pt->slot[id]] = id;
}

void particles_write_state(const grains_particles *pt, bytes_out *o)
{
    size_t n = pt->n;
    bytes_put_u64(o, n);
    bytes_put_reals(o, (const real *)pt->x, 3 * n);
    bytes_put_reals(o, (const real *)pt->v, 3 * n);
    bytes_put_reals(o, (const real *)pt->w, 3 * n);
    bytes_put_reals(o, (const real *)pt->q, 4 * n);
    bytes_put_reals(o, pt->R, n);
    bytes_put(o, pt->mat, n);
    bytes_put_u32s(o, (const uint32_t *)pt->tag, n);
    bytes_put_reals(o, (const real *)pt->f, 3 * n);
    bytes_put_reals(o, (const real *)pt->t, 3 * n);
    bytes_put_u32s(o, pt->slot, n);
}

static int all_finite(const real *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return 0;
    return 1;
}

static const char NOT_FINITE[] = "a particle's position, velocity, spin, orientation or force is not finite";
static const char BAD_RADIUS[] = "a particle's radius is not positive and finite";
static const char BAD_MATERIAL[] = "a particle's material is not one of the run's";
static const char BAD_SLOTS[] = "the particles' storage places are not a permutation";
#define STATE_BYTES (20 * sizeof(real) + 1 + 2 * sizeof(uint32_t)) /* per particle, as written */

/* Whether slot[0 .. n) names each place below n once. */
static int slots_permute(const uint32_t *slot, size_t n, unsigned char *seen)
{
    for (size_t id = 0; id < n; id++)
        if (slot[id] >= n || seen[slot[id]]++)
            return 0;
    return 1;
}

/* Whether the values read are a state the engine can step from. */
static const char *particles_invalid(const grains_particles *pt, int n_materials, unsigned char *seen)
{
    size_t n = pt->n;
    if (!all_finite((const real *)pt->x, 3 * n) || !all_finite((const real *)pt->v, 3 * n) ||
        !all_finite((const real *)pt->w, 3 * n) || !all_finite((const real *)pt->q, 4 * n) ||
        !all_finite((const real *)pt->f, 3 * n) || !all_finite((const real *)pt->t, 3 * n))
        return NOT_FINITE;
    for (size_t i = 0; i < n; i++) {
        if (!(pt->R[i] > 0) || !isfinite(pt->R[i]))
            return BAD_RADIUS;
        if (pt->mat[i] >= n_materials)
            return BAD_MATERIAL;
    }
    return slots_permute(pt->slot, n, seen) ? NULL : BAD_SLOTS;
}

grains_status particles_read_state(grains_particles *pt, bytes_in *in, int n_materials, grains_error *err)
{
    size_t n;
    if (!bytes_get_count(in, STATE_BYTES, PARTICLE_LIMIT, &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the particle count is larger than the file");
    grains_status s = particles_reserve(pt, n, err);
    if (s != GRAINS_OK)
        return s;
    pt->n = n;
    bytes_get_reals(in, (real *)pt->x, 3 * n);
    bytes_get_reals(in, (real *)pt->v, 3 * n);
    bytes_get_reals(in, (real *)pt->w, 3 * n);
    bytes_get_reals(in, (real *)pt->q, 4 * n);
    bytes_get_reals(in, pt->R, n);
    bytes_get(in, pt->mat, n);
    bytes_get_u32s(in, (uint32_t *)pt->tag, n);
    bytes_get_reals(in, (real *)pt->f, 3 * n);
    bytes_get_reals(in, (real *)pt->t, 3 * n);
    bytes_get_u32s(in, pt->slot, n);
    if (in->bad) {
        pt->n = 0;
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the particles");
    }
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!seen)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory checking %zu particles", n);
    const char *why = particles_invalid(pt, n_materials, seen);
    free(seen);
    if (why) {
        pt->n = 0;
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: %s", why);
    }
    name_slots(pt);
    return GRAINS_OK;
}

grains_status particles_read_head(grains_particles *pt, bytes_in *in, size_t *n, bytes_span *fields, grains_error *err)
{
    pt->n = 0;
    if (!bytes_get_count(in, STATE_BYTES, PARTICLE_LIMIT, n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the particle count is larger than the file");
    bytes_skip(in, *n * (STATE_BYTES - sizeof(uint32_t)), fields);
    grains_status s = particles_reserve_ids(pt, *n, err);
    if (s != GRAINS_OK)
        return s;
    if (!bytes_get_u32s(in, pt->slot, *n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the particles");
    unsigned char *seen = calloc(*n ? *n : 1, 1);
    if (!seen)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory checking %zu particles", *n);
    int ok = slots_permute(pt->slot, *n, seen);
    free(seen);
    return ok ? GRAINS_OK : grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: %s", BAD_SLOTS);
}

#define WINDOW 32768 /* particles a field is read by */
static const char TRUNCATED[] = "truncated";

/* One field of n particles, `width` reals each, a window at a time into
 * buf: every value checked (finite; radius: > 0 too), those kept copied
 * to where[i]; why it failed, or NULL. */
static const char *read_reals(bytes_in *part, size_t n, size_t width, int radius, real *to, const uint32_t *where,
                              real *buf)
{
    for (size_t i0 = 0; i0 < n; i0 += WINDOW) {
        size_t m = n - i0 < WINDOW ? n - i0 : WINDOW;
        if (!bytes_get_reals(part, buf, m * width))
            return TRUNCATED;
        for (size_t k = 0; k < m * width; k++)
            if (!isfinite(buf[k]) || (radius && !(buf[k] > 0)))
                return radius ? BAD_RADIUS : NOT_FINITE;
        for (size_t k = 0; k < m; k++)
            if (where[i0 + k] != UINT32_MAX)
                memcpy(to + (size_t)where[i0 + k] * width, buf + k * width, width * sizeof *buf);
    }
    return NULL;
}

/* The materials, then the tags, as read_reals reads. */
static const char *read_labels(bytes_in *part, size_t n, int n_materials, grains_particles *pt, const uint32_t *where,
                               real *buf)
{
    uint8_t *mat = (uint8_t *)buf;
    for (size_t i0 = 0; i0 < n; i0 += WINDOW) {
        size_t m = n - i0 < WINDOW ? n - i0 : WINDOW;
        if (!bytes_get(part, mat, m))
            return TRUNCATED;
        for (size_t k = 0; k < m; k++) {
            if (mat[k] >= n_materials)
                return BAD_MATERIAL;
            if (where[i0 + k] != UINT32_MAX)
                pt->mat[where[i0 + k]] = mat[k];
        }
    }
    uint32_t *tag = (uint32_t *)buf;
    for (size_t i0 = 0; i0 < n; i0 += WINDOW) {
        size_t m = n - i0 < WINDOW ? n - i0 : WINDOW;
        if (!bytes_get_u32s(part, tag, m))
            return TRUNCATED;
        for (size_t k = 0; k < m; k++)
            if (where[i0 + k] != UINT32_MAX)
                pt->tag[where[i0 + k]] = (int32_t)tag[k];
    }
    return NULL;
}

/* Every field in the order particles_write_state writes them. */
static const char *read_fields(bytes_in *part, size_t n, int n_materials, grains_particles *pt, const uint32_t *where,
                               real *buf)
{
    const char *why = read_reals(part, n, 3, 0, (real *)pt->x, where, buf);
    why = why ? why : read_reals(part, n, 3, 0, (real *)pt->v, where, buf);
    why = why ? why : read_reals(part, n, 3, 0, (real *)pt->w, where, buf);
    why = why ? why : read_reals(part, n, 4, 0, (real *)pt->q, where, buf);
    why = why ? why : read_reals(part, n, 1, 1, pt->R, where, buf);
    why = why ? why : read_labels(part, n, n_materials, pt, where, buf);
    why = why ? why : read_reals(part, n, 3, 0, (real *)pt->f, where, buf);
    return why ? why : read_reals(part, n, 3, 0, (real *)pt->t, where, buf);
}

grains_status particles_read_kept(grains_particles *pt, bytes_in *fields, size_t n, const uint32_t *where,
                                  size_t kept, int n_materials, grains_error *err)
{
    grains_status s = particles_reserve(pt, kept, err);
    if (s != GRAINS_OK)
        return s;
    real *buf = malloc(4 * WINDOW * sizeof *buf);
    if (!buf)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading %zu particles", n);
    const char *why = read_fields(fields, n, n_materials, pt, where, buf);
    free(buf);
    if (why == TRUNCATED)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the particles");
    if (why)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: %s", why);
    for (uint32_t id = 0; id < n; id++) {
        uint32_t to = where[pt->slot[id]];
        pt->slot[id] = to;
        if (to != UINT32_MAX)
            pt->id[to] = id;
    }
    pt->n = kept;
    return GRAINS_OK;
}
