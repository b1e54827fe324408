/* The contacts of a recorded step (interact/contact_record.h). */
#include "interact/contact_record.h"

#include <stdlib.h>
#include <string.h>


#ifdef _OPENMP
#include <omp.h>
#define THREAD_ID() omp_get_thread_num()
#else
#define THREAD_ID() 0
#endif

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* Room for n particles' sums. */
static int grow_particles(contact_record *r, size_t n)
{
    if (n <= r->cap_particles)
        return 1;
    size_t c = n + n / 2 + 16;
    vec3 *f = realloc(r->f_sum, c * sizeof *f);
    if (f)
        r->f_sum = f;
    vec3 *t = f ? realloc(r->t_sum, c * sizeof *t) : NULL;
    if (!t)
        return 0;
    r->t_sum = t;
    r->cap_particles = c;
    return 1;
}

int contact_record_begin(contact_record *r, const grains_particles *pt, size_t nb, int threads)
{
    size_t n = pt->n, cap_before = r->cap_blocks;
    r->valid = 0;
    r->id = pt->id;
    if (!grow((void **)&r->block, &r->cap_blocks, nb, sizeof *r->block) || !grow_particles(r, n))
        return 0;
    memset(r->block + cap_before, 0, (r->cap_blocks - cap_before) * sizeof *r->block);
    if (!r->block_of_thread && !(r->block_of_thread = calloc((size_t)threads, sizeof *r->block_of_thread)))
        return 0;
    for (size_t b = 0; b < nb; b++)
        r->block[b].n = 0, r->block[b].failed = 0;
    r->n_blocks = nb;
    r->n_particles = n;
    return 1;
}

void contact_record_add(contact_record *r, uint32_t i, uint32_t j, int wall, vec3 x_i, vec3 x_j, vec3 f, real delta)
{
    contact_block *b = &r->block[r->block_of_thread[THREAD_ID()]];
    if (!grow((void **)&b->c, &b->cap, b->n + 1, sizeof *b->c)) {
        b->failed = 1;
        return;
    }
    vec3 d = v3_sub(x_i, x_j);
    real len = v3_norm(d);
    vec3 n = len > 0 ? v3_scale(1 / len, d) : v3(0, 0, 0);
    vec3 f_n = v3_scale(v3_dot(f, n), n);
    const uint32_t *id = r->id;
    b->c[b->n++] = (grains_contact_force){id[i], wall ? j : id[j], wall, x_i, x_j, f_n, v3_sub(f, f_n),
                                          delta};
}

void contact_record_sums(contact_record *r, const grains_particles *pt, long step)
{
    for (size_t i = 0; i < r->n_particles; i++) {
        r->f_sum[pt->id[i]] = pt->f[i];
        r->t_sum[pt->id[i]] = pt->t[i];
    }
    r->valid = 1;
    r->step = step;
}

void contact_record_free(contact_record *r)
{
    for (size_t b = 0; b < r->cap_blocks; b++)
        free(r->block[b].c);
    free(r->block);
    free(r->block_of_thread);
    free(r->f_sum);
    free(r->t_sum);
    *r = (contact_record){0};
}
