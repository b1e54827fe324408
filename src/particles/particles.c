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

/* The reasons a slice fails, by the codes particles_slice carries. */
enum { FINE, TRUNCATED, NOT_FINITE_AT, BAD_RADIUS_AT, BAD_MATERIAL_AT };

/* Each field's bytes per particle, in the order particles_write_state
 * writes them: x, v, w, q, R, material, tag, f, t. */
static const size_t FIELD_BYTES[PARTICLES_FIELDS] = {
    3 * sizeof(real), 3 * sizeof(real), 3 * sizeof(real), 4 * sizeof(real), sizeof(real), 1, sizeof(uint32_t),
    3 * sizeof(real), 3 * sizeof(real)};
enum { RADII = 4, MATERIALS = 5, TAGS = 6 };

/* The fields passed over as one reader reads them: the span, the records
 * [lo, hi) it checks (its slice) and where each kept one goes. */
typedef struct {
    const bytes_in *in;
    const bytes_span *span;
    size_t n, lo, hi, window;
    const uint32_t *where;
    grains_particles *pt;
    int n_materials;
    real *buf; /* a window of any field */
} fields_file;

/* Field f's records [i0, i0 + m), at `at`: read, checked and folded into
 * *crc when `checks` (finite; radius: > 0 too; material: one of the
 * run's), those kept copied to where[i]; why it failed (FINE). */
static int read_range(const fields_file *ff, int f, uint64_t at, size_t i0, size_t m, int checks, uint32_t *crc)
{
    size_t size = FIELD_BYTES[f], width = size / sizeof(real);
    bytes_in part;
    bytes_span_part(ff->in, ff->span, at + (uint64_t)i0 * size, (uint64_t)m * size, checks ? *crc : bytes_crc_none(),
                    &part);
    int read = f == MATERIALS ? bytes_get(&part, ff->buf, m)
               : f == TAGS    ? bytes_get_u32s(&part, (uint32_t *)ff->buf, m)
                              : bytes_get_reals(&part, ff->buf, m * width);
    if (!read)
        return TRUNCATED;
    const uint8_t *mat = (const uint8_t *)ff->buf;
    for (size_t k = 0; checks && f == MATERIALS && k < m; k++)
        if (mat[k] >= ff->n_materials)
            return BAD_MATERIAL_AT;
    for (size_t k = 0; checks && f != MATERIALS && f != TAGS && k < m * width; k++)
        if (!isfinite(ff->buf[k]) || (f == RADII && !(ff->buf[k] > 0)))
            return f == RADII ? BAD_RADIUS_AT : NOT_FINITE_AT;
    *crc = checks ? part.crc : *crc;
    real *to[PARTICLES_FIELDS] = {(real *)ff->pt->x, (real *)ff->pt->v, (real *)ff->pt->w, (real *)ff->pt->q,
                                  ff->pt->R,         NULL,               NULL,               (real *)ff->pt->f,
                                  (real *)ff->pt->t};
    for (size_t k = 0; k < m; k++) {
        uint32_t i = ff->where[i0 + k];
        if (i == UINT32_MAX)
            continue;
        if (f == MATERIALS)
            ff->pt->mat[i] = mat[k];
        else if (f == TAGS)
            ff->pt->tag[i] = ((const int32_t *)ff->buf)[k];
        else
            memcpy(to[f] + (size_t)i * width, ff->buf + k * width, size);
    }
    return FINE;
}

#define GAP 256 /* particles let go that a run reads through rather than seek past */

/* The end of the run of particles kept from a (kept), before `end`: up to
 * the last kept with fewer than GAP let go before it. */
static size_t run_end(const uint32_t *where, size_t a, size_t end)
{
    size_t last = a;
    for (size_t b = a + 1; b < end && b - last <= GAP; b++)
        last = where[b] != UINT32_MAX ? b : last;
    return last + 1;
}

/* Field f, at `at`, a window at a time: whole in the slice, the runs of
 * those kept elsewhere. */
static int read_field(const fields_file *ff, int f, uint64_t at, uint32_t *crc)
{
    for (size_t i0 = 0; i0 < ff->n; i0 += ff->window) {
        size_t end = ff->n - i0 < ff->window ? ff->n : i0 + ff->window;
        if (i0 >= ff->lo && i0 < ff->hi) {
            int why = read_range(ff, f, at, i0, end - i0, 1, crc);
            if (why != FINE)
                return why;
            continue;
        }
        for (size_t a = i0; a < end;) {
            if (ff->where[a] == UINT32_MAX) {
                a++;
                continue;
            }
            size_t b = run_end(ff->where, a, end);
            int why = read_range(ff, f, at, a, b - a, 0, crc);
            if (why != FINE)
                return why;
            a = b;
        }
    }
    return FINE;
}

grains_status particles_read_slice(grains_particles *pt, const bytes_in *in, const bytes_span *fields, size_t n,
                                   const uint32_t *where, size_t kept, int n_materials, const bytes_slicing *sl,
                                   particles_slice *found, grains_error *err)
{
    *found = (particles_slice){.field = PARTICLES_FIELDS};
    grains_status s = particles_reserve(pt, kept, err);
    if (s != GRAINS_OK)
        return s;
    fields_file ff = {in, fields, n, 0, 0, sl->window, where, pt, n_materials, malloc(4 * sl->window * sizeof(real))};
    if (!ff.buf)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading %zu particles", n);
    bytes_slice(n, sl, &ff.lo, &ff.hi);
    uint64_t at = 0;
    for (int f = 0; f < PARTICLES_FIELDS; f++) {
        found->crc[f] = bytes_crc_none();
        int why = found->field == PARTICLES_FIELDS ? read_field(&ff, f, at, &found->crc[f]) : FINE;
        if (why != FINE)
            found->field = (uint32_t)f, found->why = (uint32_t)why;
        at += (uint64_t)n * FIELD_BYTES[f];
    }
    free(ff.buf);
    for (uint32_t id = 0; id < n; id++) {
        uint32_t to = where[pt->slot[id]];
        pt->slot[id] = to;
        if (to != UINT32_MAX)
            pt->id[to] = id;
    }
    pt->n = kept;
    return GRAINS_OK;
}

grains_status particles_fields_crc(const particles_slice *found, const bytes_slicing *sl, size_t n, uint32_t *crc,
                                   grains_error *err)
{
    uint32_t *of_field = malloc((size_t)sl->readers * sizeof *of_field);
    if (!of_field)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading %zu particles", n);
    *crc = bytes_crc_none();
    for (int f = 0; f < PARTICLES_FIELDS; f++) {
        for (int r = 0; r < sl->readers; r++)
            of_field[r] = found[r].crc[f];
        *crc = bytes_slices_join(*crc, of_field, sl, n, FIELD_BYTES[f]);
    }
    free(of_field);
    return GRAINS_OK;
}

grains_status particles_slice_error(const particles_slice *found, int readers, grains_error *err)
{
    static const char *const why[] = {NULL, NULL, NOT_FINITE, BAD_RADIUS, BAD_MATERIAL};
    const particles_slice *first = &found[0];
    for (int r = 1; r < readers; r++)
        first = found[r].field < first->field ? &found[r] : first;
    if (first->field >= PARTICLES_FIELDS)
        return GRAINS_OK;
    if (first->why == TRUNCATED || first->why >= sizeof why / sizeof *why)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the particles");
    return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: %s", why[first->why]);
}
