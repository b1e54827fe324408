/* The contacts of a recorded step (interact/contact_record.h). */
#include "interact/contact_record.h"

#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

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

int contact_record_begin(grains_sim *sim)
{
    contact_record *r = &sim->rec;
    size_t nb = sim->grid.n_blocks, n = sim->pt.n, cap_before = r->cap_blocks;
    r->valid = 0;
    if (!grow((void **)&r->block, &r->cap_blocks, nb, sizeof *r->block) || !grow_particles(r, n))
        return 0;
    memset(r->block + cap_before, 0, (r->cap_blocks - cap_before) * sizeof *r->block);
    if (!r->block_of_thread && !(r->block_of_thread = calloc((size_t)sim->nthreads, sizeof *r->block_of_thread)))
        return 0;
    for (size_t b = 0; b < nb; b++)
        r->block[b].n = 0, r->block[b].failed = 0;
    r->n_blocks = nb;
    r->n_particles = n;
    return 1;
}

void contact_record_add(grains_sim *sim, uint32_t i, uint32_t j, int wall, vec3 x_i, vec3 x_j, vec3 f, real delta)
{
    contact_record *r = &sim->rec;
    contact_block *b = &r->block[r->block_of_thread[THREAD_ID()]];
    if (!grow((void **)&b->c, &b->cap, b->n + 1, sizeof *b->c)) {
        b->failed = 1;
        return;
    }
    vec3 d = v3_sub(x_i, x_j);
    real len = v3_norm(d);
    vec3 n = len > 0 ? v3_scale(1 / len, d) : v3(0, 0, 0);
    vec3 f_n = v3_scale(v3_dot(f, n), n);
    const uint32_t *id = sim->pt.id;
    b->c[b->n++] = (grains_contact_force){id[i], wall ? j : id[j], wall, x_i, x_j, f_n, v3_sub(f, f_n),
                                          delta};
}

void contact_record_sums(grains_sim *sim)
{
    contact_record *r = &sim->rec;
    for (size_t i = 0; i < r->n_particles; i++) {
        r->f_sum[sim->pt.id[i]] = sim->pt.f[i];
        r->t_sum[sim->pt.id[i]] = sim->pt.t[i];
    }
    r->valid = 1;
    r->step = sim->step;
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

void grains_sim_record_contacts(grains_sim *sim, int on) { sim->rec.requested = on != 0; }

size_t grains_sim_recorded_count(const grains_sim *sim)
{
    const contact_record *r = &sim->rec;
    size_t n = 0;
    for (size_t b = 0; r->valid && b < r->n_blocks; b++)
        n += r->block[b].n;
    return n;
}

grains_status grains_sim_get_contact_forces(const grains_sim *sim, grains_contact_force *out, size_t n, size_t *got,
                                            grains_error *err)
{
    const contact_record *r = &sim->rec;
    size_t total = grains_sim_recorded_count(sim), k = 0;
    *got = 0;
    if (n < total)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "room for %zu contacts, %zu recorded", n, total);
    for (size_t b = 0; r->valid && b < r->n_blocks; b++) {
        if (r->block[b].failed)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory recording the contacts");
        if (r->block[b].n) /* (an empty block has no buffer) */
            memcpy(out + k, r->block[b].c, r->block[b].n * sizeof *out);
        k += r->block[b].n;
    }
    *got = k;
    return GRAINS_OK;
}

int grains_sim_contact_sums(const grains_sim *sim, size_t id, grains_vec3 *f, grains_vec3 *t)
{
    const contact_record *r = &sim->rec;
    if (!r->valid || id >= r->n_particles)
        return 0;
    *f = r->f_sum[id];
    *t = r->t_sum[id];
    return 1;
}

/* Adds r (x) f / V to one particle's stress. */
static void add_dyad(double *s, vec3 r, vec3 f, double V)
{
    const double a[3] = {r.x, r.y, r.z}, b[3] = {f.x, f.y, f.z};
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
            s[3 * k + l] += a[k] * b[l] / V;
}

/* The volume of particle id. */
static double volume(const grains_sim *sim, size_t id)
{
    double R = sim->pt.R[sim->pt.slot[id]];
    return 4 * HM_PI / 3 * R * R * R;
}

void grains_sim_contact_stress(const grains_sim *sim, int *coordination, double (*stress)[9])
{
    const contact_record *r = &sim->rec;
    size_t n = sim->pt.n;
    memset(coordination, 0, n * sizeof *coordination);
    memset(stress, 0, n * sizeof *stress);
    for (size_t b = 0; r->valid && b < r->n_blocks; b++)
        for (size_t k = 0; k < r->block[b].n; k++) {
            const grains_contact_force *c = &r->block[b].c[k];
            if (c->a >= n || (!c->wall && c->b >= n))
                continue; /* (particles are only added) */
            vec3 d = v3_sub(c->x_a, c->x_b), f = v3_add(c->f_n, c->f_t);
            real len = v3_norm(d);
            vec3 u = len > 0 ? v3_scale(1 / len, d) : v3(0, 0, 0);
            real R_a = sim->pt.R[sim->pt.slot[c->a]];
            coordination[c->a]++;
            add_dyad(stress[c->a], v3_scale(-(R_a - c->delta / 2), u), f, volume(sim, c->a));
            if (c->wall)
                continue;
            real R_b = sim->pt.R[sim->pt.slot[c->b]];
            coordination[c->b]++;
            add_dyad(stress[c->b], v3_scale(R_b - c->delta / 2, u), v3_scale(-1, f), volume(sim, c->b));
        }
}
