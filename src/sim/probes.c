/* Probes (sim/probes.h): each plane's crossings found by the side of it a
 * grain's centre is on at a step's start and end, summed by (tag, size
 * class) in id order, so that the sums are the same bits for any thread
 * count; a box's contents counted when asked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

void sim_probes_free(sim_probes *pr)
{
    free(pr->before), free(pr->sum), free(pr->found), free(pr->z_before);
    memset(pr, 0, sizeof *pr);
}

/* The size class of radius R: how many of the probe's bounds are <= R. */
static int size_class(const grains_probe *q, real R)
{
    int k = 0;
    while (k < q->n_sizes && R >= q->size[k])
        k++;
    return k;
}

static double distance(const grains_probe *q, vec3 x)
{
    return (x.x - q->point.x) * q->normal.x + (x.y - q->point.y) * q->normal.y + (x.z - q->point.z) * q->normal.z;
}

/* Whether x (at distance s along the normal) is within the plane's disc. */
static int within(const grains_probe *q, vec3 x, double s)
{
    if (q->radius <= 0)
        return 1;
    double dx = x.x - q->point.x - s * q->normal.x, dy = x.y - q->point.y - s * q->normal.y,
           dz = x.z - q->point.z - s * q->normal.z;
    return dx * dx + dy * dy + dz * dz <= q->radius * q->radius;
}

static int planes(const grains_params *p)
{
    int n = 0;
    for (int k = 0; k < p->n_probes; k++)
        n += !p->probe[k].box;
    return n;
}

/* Half the shortest periodic span: a grain's distance to a plane changes
 * by a span when it wraps, by less than a radius in a step otherwise. */
static double wrap_jump(const grains_sim *sim)
{
    double jump = INFINITY;
    const real lo[3] = {sim->p.box_min.x, sim->p.box_min.y, sim->p.box_min.z};
    const real hi[3] = {sim->p.box_max.x, sim->p.box_max.y, sim->p.box_max.z};
    for (int a = 0; a < 3; a++)
        if (sim->p.periodic >> a & 1)
            jump = fmin(jump, (hi[a] - lo[a]) / 2);
    return jump;
}

grains_status sim_probes_before(grains_sim *sim, grains_error *err)
{
    sim_probes *pr = &sim->probes;
    size_t n = sim->pt.n, m = (size_t)planes(&sim->p);
    if (sim_shared(sim))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "probes among ranks are not supported yet: run them "
                                "in one process (any number of threads)");
    if (m * n > pr->cap_before) {
        double *b = realloc(pr->before, m * n * sizeof *b);
        if (!b)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the probes' %zu grains", n);
        pr->before = b, pr->cap_before = m * n;
    }
    if (sim->box.sheared && n > pr->cap_z) {
        double *z = realloc(pr->z_before, n * sizeof *z);
        if (!z)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the probes' %zu grains", n);
        pr->z_before = z, pr->cap_z = n;
    }
    for (size_t i = 0; sim->box.sheared && i < n; i++)
        pr->z_before[sim->pt.id[i]] = sim->pt.x[i].z;
    pr->n_ids = n, pr->jump = wrap_jump(sim);
    for (int k = 0, j = 0; k < sim->p.n_probes; k++) {
        if (sim->p.probe[k].box)
            continue;
        for (size_t i = 0; i < n; i++)
            pr->before[(size_t)j * n + sim->pt.id[i]] = distance(&sim->p.probe[k], sim->pt.x[i]);
        j++;
    }
    return GRAINS_OK;
}

/* The sum of key (probe, tag, size), made if new; NULL: no memory. */
static probe_sum *sum_of(sim_probes *pr, int32_t probe, int32_t tag, int32_t size)
{
    size_t lo = 0, hi = pr->n_sum;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const probe_sum *s = &pr->sum[mid];
        int before = s->probe != probe ? s->probe < probe : s->tag != tag ? s->tag < tag : s->size < size;
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    probe_sum *s = &pr->sum[lo];
    if (lo < pr->n_sum && s->probe == probe && s->tag == tag && s->size == size)
        return s;
    if (pr->n_sum == pr->cap_sum) {
        size_t cap = pr->cap_sum ? 2 * pr->cap_sum : 16;
        probe_sum *grown = realloc(pr->sum, cap * sizeof *grown);
        if (!grown)
            return NULL;
        pr->sum = grown, pr->cap_sum = cap;
    }
    memmove(&pr->sum[lo + 1], &pr->sum[lo], (pr->n_sum - lo) * sizeof *pr->sum);
    pr->n_sum++;
    pr->sum[lo] = (probe_sum){probe, tag, size, 0, 0, {0, 0, 0}};
    return &pr->sum[lo];
}

static int by_probe_then_id(const void *a, const void *b)
{
    const probe_crossing *x = a, *y = b;
    if (x->probe != y->probe)
        return x->probe < y->probe ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The crossings of plane k (j-th of the planes) into pr->found from *n on. */
static grains_status find_crossings(grains_sim *sim, int k, size_t j, size_t *n, grains_error *err)
{
    sim_probes *pr = &sim->probes;
    const grains_probe *q = &sim->p.probe[k];
    for (size_t i = 0; i < sim->pt.n; i++) {
        uint32_t id = sim->pt.id[i];
        if (id >= pr->n_ids) /* added during the step: no side at its start */
            continue;
        double s0 = pr->before[j * pr->n_ids + id], s1 = distance(q, sim->pt.x[i]);
        if ((s0 < 0) == (s1 < 0) || !(fabs(s1 - s0) < pr->jump) || !within(q, sim->pt.x[i], s1))
            continue;
        if (sim->box.sheared && !(fabs(sim->pt.x[i].z - pr->z_before[id]) < sim->box.L[2] / 2))
            continue; /* it wrapped along z, and along x with the images' offset */
        if (*n == pr->cap_found) {
            size_t cap = pr->cap_found ? 2 * pr->cap_found : 64;
            probe_crossing *grown = realloc(pr->found, cap * sizeof *grown);
            if (!grown)
                return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the probes' crossings");
            pr->found = grown, pr->cap_found = cap;
        }
        pr->found[(*n)++] = (probe_crossing){k, s1 >= 0 ? 1 : -1, id, (uint32_t)i};
    }
    return GRAINS_OK;
}

grains_status sim_probes_after(grains_sim *sim, grains_error *err)
{
    sim_probes *pr = &sim->probes;
    size_t n = 0;
    for (int k = 0, j = 0; k < sim->p.n_probes; k++) {
        if (sim->p.probe[k].box)
            continue;
        grains_status s = find_crossings(sim, k, (size_t)j++, &n, err);
        if (s != GRAINS_OK)
            return s;
    }
    if (n > 1)
        qsort(pr->found, n, sizeof *pr->found, by_probe_then_id);
    for (size_t c = 0; c < n; c++) {
        const probe_crossing *x = &pr->found[c];
        size_t i = x->at;
        probe_sum *s = sum_of(pr, x->probe, sim->pt.tag[i], size_class(&sim->p.probe[x->probe], sim->pt.R[i]));
        if (!s)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the probes' sums");
        double m = x->sign * grains_params_mass(&sim->p, sim->pt.mat[i], sim->pt.R[i]);
        s->number += x->sign, s->mass += m;
        s->momentum[0] += m * sim->pt.v[i].x, s->momentum[1] += m * sim->pt.v[i].y, s->momentum[2] += m * sim->pt.v[i].z;
    }
    return GRAINS_OK;
}

static int inside(const grains_probe *q, vec3 x)
{
    return x.x >= q->lo.x && x.x <= q->hi.x && x.y >= q->lo.y && x.y <= q->hi.y && x.z >= q->lo.z && x.z <= q->hi.z;
}

/* A box's contents now, by id, into the sums of `held`. */
static grains_status box_contents(const grains_sim *sim, int k, sim_probes *held, grains_error *err)
{
    const grains_probe *q = &sim->p.probe[k];
    for (size_t id = 0; id < sim->pt.n; id++) {
        uint32_t i = sim->pt.slot[id];
        if (!inside(q, sim->pt.x[i]))
            continue;
        probe_sum *s = sum_of(held, k, sim->pt.tag[i], size_class(q, sim->pt.R[i]));
        if (!s)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the probes' sums");
        double m = grains_params_mass(&sim->p, sim->pt.mat[i], sim->pt.R[i]);
        s->number++, s->mass += m;
        s->momentum[0] += m * sim->pt.v[i].x, s->momentum[1] += m * sim->pt.v[i].y, s->momentum[2] += m * sim->pt.v[i].z;
    }
    return GRAINS_OK;
}

grains_status grains_sim_probe_rows(const grains_sim *sim, int k, grains_probe_row **rows, size_t *n,
                                    grains_error *err)
{
    *rows = NULL, *n = 0;
    if (k < 0 || k >= sim->p.n_probes)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "probe %d: the run has %d", k, sim->p.n_probes);
    if (sim_shared(sim))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "probes among ranks are not supported yet");
    sim_probes held = {0};
    const sim_probes *from = &sim->probes;
    grains_status s = GRAINS_OK;
    if (sim->p.probe[k].box && (s = box_contents(sim, k, &held, err)) == GRAINS_OK)
        from = &held;
    size_t count = 0;
    for (size_t c = 0; c < from->n_sum; c++)
        count += from->sum[c].probe == k;
    if (s == GRAINS_OK && !(*rows = malloc((count + 1) * sizeof **rows)))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a probe's rows");
    for (size_t c = 0; s == GRAINS_OK && c < from->n_sum; c++) {
        const probe_sum *x = &from->sum[c];
        if (x->probe == k)
            (*rows)[(*n)++] = (grains_probe_row){x->tag, x->size, x->number, x->mass,
                                                 {x->momentum[0], x->momentum[1], x->momentum[2]}};
    }
    sim_probes_free(&held);
    return s;
}

void sim_probes_write_state(const sim_probes *pr, bytes_out *o)
{
    bytes_put_u64(o, pr->n_sum);
    for (size_t c = 0; c < pr->n_sum; c++) {
        const probe_sum *s = &pr->sum[c];
        bytes_put_u32(o, (uint32_t)s->probe), bytes_put_u32(o, (uint32_t)s->tag), bytes_put_u32(o, (uint32_t)s->size);
        bytes_put_i64(o, s->number);
        bytes_put_real(o, s->mass);
        bytes_put_reals(o, s->momentum, 3);
    }
}

/* A sum read back: a plane of the run, a size class it has, finite, after the one before it. */
static int sum_valid(const probe_sum *s, const probe_sum *prev, const grains_params *p)
{
    if (s->probe < 0 || s->probe >= p->n_probes || p->probe[s->probe].box || s->size < 0 ||
        s->size > p->probe[s->probe].n_sizes ||
        !isfinite(s->mass) || !isfinite(s->momentum[0]) || !isfinite(s->momentum[1]) || !isfinite(s->momentum[2]))
        return 0;
    return !prev || prev->probe < s->probe ||
           (prev->probe == s->probe && (prev->tag < s->tag || (prev->tag == s->tag && prev->size < s->size)));
}

grains_status sim_probes_read_state(sim_probes *pr, bytes_in *in, const grains_params *p, grains_error *err)
{
    size_t n;
    if (!bytes_get_count(in, 36, SIZE_MAX / sizeof(probe_sum), &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the probes' sums");
    probe_sum *sum = malloc((n + 1) * sizeof *sum);
    if (!sum)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the probes' sums");
    for (size_t c = 0; c < n; c++) {
        probe_sum *s = &sum[c];
        s->probe = (int32_t)bytes_get_u32(in), s->tag = (int32_t)bytes_get_u32(in), s->size = (int32_t)bytes_get_u32(in);
        s->number = bytes_get_i64(in);
        s->mass = bytes_get_real(in);
        bytes_get_reals(in, s->momentum, 3);
        if (in->bad || !sum_valid(s, c ? &sum[c - 1] : NULL, p)) {
            free(sum);
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the probes' sums");
        }
    }
    free(pr->sum);
    pr->sum = sum, pr->n_sum = n, pr->cap_sum = n + 1;
    return GRAINS_OK;
}
