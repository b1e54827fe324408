/* The particles' moves into a rebuild's order (particles/particles.h). On
 * one thread all fields move at once, cycle by cycle. On several, each
 * thread takes whole fields, the largest first, and follows the same
 * cycles in each, marking the places it has filled in a bitmap of its own:
 * `where` is read by all and changed by none. Which thread moves a field
 * changes no bit. */
#include "particles/particles.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* In place, cycle by cycle: each move carries one particle's fields to its
 * new place and picks up the particle that stood there. */
static void permute_all_at_once(grains_particles *pt, uint32_t *where, int with_sums)
{
    for (uint32_t s = 0; s < pt->n; s++) {
        if (where[s] == s)
            continue;
        vec3 x = pt->x[s], v = pt->v[s], w = pt->w[s], f = with_sums ? pt->f[s] : v3(0, 0, 0);
        vec3 t = with_sums ? pt->t[s] : f;
        quat q = pt->q[s];
        real R = pt->R[s];
        uint8_t mat = pt->mat[s];
        int32_t tag = pt->tag[s];
        uint32_t id = pt->id[s], dst = where[s];
        while (dst != s) {
            vec3 tx = pt->x[dst], tv = pt->v[dst], tw = pt->w[dst], tf = f, tt = t;
            quat tq = pt->q[dst];
            real tR = pt->R[dst];
            uint8_t tmat = pt->mat[dst];
            int32_t ttag = pt->tag[dst];
            uint32_t tid = pt->id[dst];
            pt->x[dst] = x, pt->v[dst] = v, pt->w[dst] = w, pt->q[dst] = q, pt->R[dst] = R, pt->mat[dst] = mat;
            pt->tag[dst] = tag, pt->id[dst] = id;
            if (with_sums) {
                tf = pt->f[dst], tt = pt->t[dst];
                pt->f[dst] = f, pt->t[dst] = t;
            }
            x = tx, v = tv, w = tw, q = tq, R = tR, mat = tmat, tag = ttag, id = tid, f = tf, t = tt;
            uint32_t next = where[dst];
            where[dst] = dst;
            dst = next;
        }
        pt->x[s] = x, pt->v[s] = v, pt->w[s] = w, pt->q[s] = q, pt->R[s] = R, pt->mat[s] = mat;
        pt->tag[s] = tag, pt->id[s] = id;
        if (with_sums)
            pt->f[s] = f, pt->t[s] = t;
        where[s] = s;
    }
}

enum { MAX_FIELD_BYTES = sizeof(quat) };

/* One field of n elements of `size` bytes (a constant where inlined, so
 * that the copies are moves of registers) moved to where[]; done: a
 * bitmap of n bits, cleared here, of the places filled. */
static inline __attribute__((always_inline)) void permute_field_as(char *a, size_t size, const uint32_t *where,
                                                                    size_t n, uint64_t *done)
{
    memset(done, 0, (n / 64 + 1) * sizeof *done);
    for (size_t s = 0; s < n; s++) {
        if (done[s / 64] >> (s % 64) & 1)
            continue;
        done[s / 64] |= (uint64_t)1 << (s % 64);
        size_t dst = where[s];
        if (dst == s)
            continue;
        char carry[MAX_FIELD_BYTES], stood[MAX_FIELD_BYTES];
        memcpy(carry, a + s * size, size);
        while (dst != s) {
            memcpy(stood, a + dst * size, size);
            memcpy(a + dst * size, carry, size);
            memcpy(carry, stood, size);
            done[dst / 64] |= (uint64_t)1 << (dst % 64);
            dst = where[dst];
        }
        memcpy(a + s * size, carry, size);
    }
}

static void permute_field(void *a, size_t size, const uint32_t *where, size_t n, uint64_t *done)
{
    switch (size) { /* (the particles' fields' sizes) */
    case 1: permute_field_as(a, 1, where, n, done); break;
    case 4: permute_field_as(a, 4, where, n, done); break;
    case 8: permute_field_as(a, 8, where, n, done); break;
    case 24: permute_field_as(a, 24, where, n, done); break;
    default: permute_field_as(a, MAX_FIELD_BYTES, where, n, done); break;
    }
}

_Static_assert(sizeof(quat) == MAX_FIELD_BYTES && sizeof(vec3) == 24 && sizeof(real) == 8,
               "the fields' sizes permute_field knows");

/* Field by field, the fields over the threads (each thread its bitmap in
 * `done`, n / 64 + 1 words apart); 0 when there is no room for the bitmaps. */
static int permute_by_fields(grains_particles *pt, const uint32_t *where, int with_sums, int nthreads)
{
    size_t words = pt->n / 64 + 1;
    uint64_t *done = malloc((size_t)nthreads * words * sizeof *done);
    if (!done)
        return 0;
    struct {
        void *a;
        size_t size;
        int sum; /* f or t */
    } field[] = {{pt->q, sizeof *pt->q, 0},     {pt->x, sizeof *pt->x, 0},   {pt->v, sizeof *pt->v, 0},
                 {pt->w, sizeof *pt->w, 0},     {pt->f, sizeof *pt->f, 1},   {pt->t, sizeof *pt->t, 1},
                 {pt->R, sizeof *pt->R, 0},     {pt->tag, sizeof *pt->tag, 0}, {pt->id, sizeof *pt->id, 0},
                 {pt->mat, sizeof *pt->mat, 0}};
    int n_fields = (int)(sizeof field / sizeof *field);
#pragma omp parallel num_threads(nthreads)
    {
        int thread = 0;
#ifdef _OPENMP
        thread = omp_get_thread_num();
#endif
#pragma omp for schedule(dynamic, 1)
        for (int k = 0; k < n_fields; k++)
            if (with_sums || !field[k].sum)
                permute_field(field[k].a, field[k].size, where, pt->n, done + (size_t)thread * words);
    }
    free(done);
    return 1;
}

void particles_permute(grains_particles *pt, uint32_t *where, int with_sums, int nthreads)
{
    if (nthreads < 2 || !permute_by_fields(pt, where, with_sums, nthreads))
        permute_all_at_once(pt, where, with_sums);
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (size_t s = 0; s < pt->n; s++) /* the ids held need not be 0 .. n-1 (a rank's share) */
        pt->slot[pt->id[s]] = (uint32_t)s;
}
