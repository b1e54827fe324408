/* Bonded pairs (libgran): the list of bonds by particle id, its index by
 * storage slot for the force loop, formation from initial proximity, and
 * the bond forces of one step (bonds/bond.h).
 *
 * The bonds are kept sorted by (a, b), a < b, so that their forces are
 * summed in one order whatever the thread count or the storage order. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bonds/bond.h"
#include "bonds/bonds.h"
#include "geometry/periodic.h"
#include "util/array.h"

static int by_ids(const void *pa, const void *pb)
{
    const sim_bond *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* Sorted, a pair listed twice kept once. */
void sim_bonds_sort(sim_bonds *bs)
{
    if (bs->sorted || bs->n == 0)
        return;
    qsort(bs->list, bs->n, sizeof *bs->list, by_ids);
    size_t kept = 1;
    for (size_t k = 1; k < bs->n; k++)
        if (bs->list[k].a != bs->list[kept - 1].a || bs->list[k].b != bs->list[kept - 1].b)
            bs->list[kept++] = bs->list[k];
    bs->n = kept;
    bs->sorted = 1;
}

grains_status sim_bonds_add(sim_bonds *bs, size_t a, size_t b, size_t n_ids, real bond_kn, grains_error *err)
{
    if (a >= n_ids || b >= n_ids || a == b)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "bond %zu-%zu: a bond joins two different particles, ids 0 to %zu", a, b,
                                n_ids ? n_ids - 1 : 0);
    if (!(bond_kn > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "bond %zu-%zu: bonds need bond_kn > 0", a, b);
    if (!array_reserve((void **)&bs->list, &bs->cap, bs->n + 1, sizeof *bs->list, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory adding a bond");
    sim_bond *bd = &bs->list[bs->n++];
    *bd = (sim_bond){0};
    bd->a = (uint32_t)(a < b ? a : b);
    bd->b = (uint32_t)(a < b ? b : a);
    bs->sorted = 0;
    return GRAINS_OK;
}

/* Room for a push per bond (sim_bond_forces; with bonds added since, a
 * step goes without, on one thread). */
static grains_status reserve_pushes(sim_bonds *bs, grains_error *err)
{
    if (!array_reserve((void **)&bs->push, &bs->push_cap, bs->n + 1, sizeof *bs->push, 8))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the pushes of %zu bonds", bs->n);
    return GRAINS_OK;
}

int sim_bonds_fill_index(sim_bonds *bs, size_t n, const uint32_t *slot, const uint8_t *keep)
{
    if (!array_reserve((void **)&bs->start, &bs->start_cap, n + 1, sizeof *bs->start, 8) ||
        !array_reserve((void **)&bs->partner, &bs->partner_cap, 2 * bs->n + 1, sizeof *bs->partner, 8))
        return 0;
    for (size_t i = 0; i <= n; i++)
        bs->start[i] = 0;
    bs->indexed = n;
    for (size_t k = 0; k < bs->n; k++)
        if (keep ? keep[k] : !bs->list[k].broken) {
            bs->start[slot[bs->list[k].a] + 1]++;
            bs->start[slot[bs->list[k].b] + 1]++;
        }
    for (size_t i = 0; i < n; i++)
        bs->start[i + 1] += bs->start[i];
    for (size_t k = 0; k < bs->n; k++)
        if (keep ? keep[k] : !bs->list[k].broken) {
            uint32_t i = slot[bs->list[k].a], j = slot[bs->list[k].b];
            bs->partner[bs->start[i]++] = j;
            bs->partner[bs->start[j]++] = i;
        }
    for (size_t i = n; i > 0; i--) /* the fill moved each start to the next one's */
        bs->start[i] = bs->start[i - 1];
    bs->start[0] = 0;
    return 1;
}

/* For each slot, its partners through intact bonds (CSR), after the
 * rebuild's reordering. */
void sim_bonds_drop_index(sim_bonds *bs)
{
    free(bs->start);
    free(bs->partner);
    bs->start = bs->partner = NULL;
    bs->start_cap = bs->partner_cap = bs->indexed = 0;
}

grains_status sim_bonds_index(sim_bonds *bs, const grains_particles *pt, grains_error *err)
{
    sim_bonds_sort(bs);
    if (!sim_bonds_fill_index(bs, pt->n, pt->slot, NULL))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory indexing %zu bonds", bs->n);
    return reserve_pushes(bs, err);
}

/* Whether particles i and j both stay put (their materials fixed: infinitely
 * heavy in contacts, hm_params_init): no bond joins them, and one that does
 * (a bonds file's) pushes nothing. */
static int both_fixed(const bonds_view *v, uint32_t i, uint32_t j)
{
    return isinf(v->hp->rho[v->pt->mat[i]]) && isinf(v->hp->rho[v->pt->mat[j]]);
}

/* Bonds between the particles whose gap is below bond_tolerance times the
 * smaller diameter (the variational-integrator paper bonds |delta| < d/100),
 * found through the candidate lists (the tolerance lies within the skin).
 * Ranks holding their own particles alone form those with an own particle
 * (every pair with one is listed there). */
grains_status sim_bonds_form(const bonds_view *v, const grains_neighbors *nb, const uint8_t *mine, size_t n_ids,
                             grains_error *err)
{
    const grains_particles *pt = v->pt;
    const uint32_t *id = pt->id;
    grains_status s = GRAINS_OK;
    for (uint32_t i = 0; s == GRAINS_OK && i < nb->n_particles; i++)
        for (uint32_t k = nb->start[i]; s == GRAINS_OK && k < nb->start[i + 1]; k++) {
            uint32_t j = nb->j[k];
            if ((j & STORE_MESH_BIT) || (mine && !mine[i] && !mine[j & STORE_INDEX_MASK]))
                continue;
            j &= STORE_INDEX_MASK;
            if (both_fixed(v, i, j))
                continue;
            real gap = v3_norm(periodic_delta(v->box, v3_sub(pt->x[i], pt->x[j]))) - pt->R[i] - pt->R[j];
            if (fabs(gap) < v->p->bond_tolerance * 2 * fmin(pt->R[i], pt->R[j]))
                s = sim_bonds_add(v->bonds, id[i], id[j], n_ids, v->p->bond_kn, err);
        }
    return s;
}

enum { BOND_PUSHES, BOND_BROKE, BOND_IDLE };

/* Bond k's push from this step's positions and velocities, into *out (its
 * springs, force and torque updated; nothing added to the particles), so
 * that threads may evaluate bonds at once: a bond reads and writes only
 * itself. A bond that breaks pushes nothing from this step on. */
static void bond_eval(const bonds_view *v, const bond_law *law, size_t k, bond_push *out)
{
    const grains_particles *pt = v->pt;
    sim_bond *bd = &v->bonds->list[k];
    out->state = BOND_IDLE;
    if (bd->broken)
        return;
    uint32_t i = pt->slot[bd->a], j = pt->slot[bd->b];
    if (both_fixed(v, i, j))
        return;
    vec3 v_j = pt->v[j]; /* (its image's, across a sheared box) */
    vec3 dx = periodic_delta_moving(v->box, v3_sub(pt->x[i], pt->x[j]), &v_j);
    hm_pair pr = {dx, pt->R[i], pt->R[j], pt->v[i], v_j, pt->w[i], pt->w[j], 0, NULL,
                  v->hp->rho[pt->mat[i]], v->hp->rho[pt->mat[j]]};
    hm_result r;
    real torque;
    if (bond_force(v->hp, law, &pr, &bd->h, &r, &torque)) {
        bd->broken = 1;
        bd->force = bd->torque = 0;
        out->state = BOND_BROKE;
        return;
    }
    bd->force = v3_norm(r.f);
    bd->torque = torque;
    *out = (bond_push){r.f, r.t_i, r.t_j, BOND_PUSHES};
}

/* Bond k's push added to its particles' sums; 1 if it broke this step. */
static int bond_apply(const bonds_view *v, size_t k, const bond_push *p)
{
    if (p->state != BOND_PUSHES)
        return p->state == BOND_BROKE;
    grains_particles *pt = v->pt;
    uint32_t i = pt->slot[v->bonds->list[k].a], j = pt->slot[v->bonds->list[k].b];
    pt->f[i] = v3_add(pt->f[i], p->f);
    pt->t[i] = v3_add(pt->t[i], p->t_a);
    pt->f[j] = v3_sub(pt->f[j], p->f);
    pt->t[j] = v3_add(pt->t[j], p->t_b);
    return 0;
}

/* The forces of every intact bond, added in the bonds' order after every
 * contact (one order of summation, whatever the threads); whether one
 * broke (the pair may touch as a contact now: the caller has the lists
 * rebuilt, on every rank). The team evaluates the bonds at once into
 * their pushes, then one thread adds them in order: the same bits as one
 * thread's loop (one thread, or a team without room for the pushes,
 * evaluates and adds each bond in turn).
 * `which` lists the n_which bonds evaluated, or NULL: all. (Shared among
 * ranks with steps that send the halo alone, a rank evaluates the bonds of
 * its own particles alone, listed at the cut: their partners are in its
 * halo, so the two owners of a bond get the same bits.) */
void sim_bond_forces(const bonds_view *v, const uint32_t *which, size_t n_which, int threads, force_diag *d)
{
    const bond_law law = bond_law_of(v->p);
    size_t n = which ? n_which : v->bonds->n;
    bond_push *push = v->bonds->push, one;
    int team = threads > 1 && v->bonds->push_cap >= n; /* the same on every thread */
    if (team) {
#pragma omp for schedule(static)
        for (size_t m = 0; m < n; m++)
            bond_eval(v, &law, which ? which[m] : m, &push[m]);
    }
#pragma omp single
    {
        int broke = 0;
        for (size_t m = 0; m < n; m++) {
            size_t k = which ? which[m] : m;
            if (!team)
                bond_eval(v, &law, k, &one);
            broke |= bond_apply(v, k, team ? &push[m] : &one);
        }
        d->bonds_broke = broke;
    }
}

void sim_bonds_free(sim_bonds *bs)
{
    free(bs->list);
    free(bs->start);
    free(bs->partner);
    free(bs->push);
    *bs = (sim_bonds){0};
}

/* Reals of a bond as written: its springs, force and torque. */
#define BOND_REALS (STORE_FULL_WIDTH + 2)

void sim_bonds_write_state(const sim_bonds *bs, size_t n_particles, bytes_out *o)
{
    (void)n_particles;
    bytes_put_u64(o, bs->n);
    bytes_put_u32(o, (uint32_t)bs->sorted);
    bytes_put_u32(o, (uint32_t)bs->formed);
    for (size_t k = 0; k < bs->n; k++) {
        const sim_bond *bd = &bs->list[k];
        bytes_put_u32(o, bd->a);
        bytes_put_u32(o, bd->b);
        bytes_put_u32(o, (uint32_t)bd->broken);
        bytes_put_reals(o, (const real *)&bd->h, STORE_FULL_WIDTH);
        bytes_put_real(o, bd->force);
        bytes_put_real(o, bd->torque);
    }
    size_t indexed = bs->start ? bs->indexed : 0;
    bytes_put_u64(o, bs->start ? indexed + 1 : 0);
    bytes_put_u32s(o, bs->start, bs->start ? indexed + 1 : 0);
    size_t partners = bs->start ? bs->start[indexed] : 0;
    bytes_put_u64(o, partners);
    bytes_put_u32s(o, bs->partner, partners);
}

static grains_status read_bond_list(sim_bonds *bs, bytes_in *in, size_t n_particles, grains_error *err)
{
    size_t n;
    if (!bytes_get_count(in, 12 + BOND_REALS * sizeof(real), SIZE_MAX / sizeof(sim_bond), &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the bond count");
    if (!array_reserve((void **)&bs->list, &bs->cap, n, sizeof *bs->list, 8))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu bonds", n);
    bs->sorted = bytes_get_u32(in) != 0;
    bs->formed = bytes_get_u32(in) != 0;
    for (bs->n = 0; bs->n < n; bs->n++) {
        sim_bond *bd = &bs->list[bs->n];
        bd->a = bytes_get_u32(in);
        bd->b = bytes_get_u32(in);
        uint32_t broken = bytes_get_u32(in);
        bd->broken = broken != 0;
        real v[BOND_REALS];
        bytes_get_reals(in, v, BOND_REALS);
        memcpy(&bd->h, v, sizeof bd->h);
        bd->force = v[STORE_FULL_WIDTH];
        bd->torque = v[STORE_FULL_WIDTH + 1];
        int finite = 1;
        for (int k = 0; k < BOND_REALS; k++)
            finite = finite && isfinite(v[k]);
        if (!in->bad && (bd->a >= bd->b || bd->b >= n_particles || broken > 1 || !finite))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: bond %zu", bs->n);
    }
    return GRAINS_OK;
}

static grains_status read_bond_index(sim_bonds *bs, bytes_in *in, size_t n_particles, grains_error *err)
{
    size_t n_start, n_partner;
    if (!bytes_get_count(in, 4, n_particles + 1, &n_start) ||
        (n_start && !array_reserve((void **)&bs->start, &bs->start_cap, n_start, sizeof *bs->start, 8)))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the bonds' index");
    bytes_get_u32s(in, bs->start, n_start);
    if (!bytes_get_count(in, 4, 2 * bs->n, &n_partner) ||
        (n_partner && !array_reserve((void **)&bs->partner, &bs->partner_cap, n_partner, sizeof *bs->partner, 8)))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the bonds' index");
    bytes_get_u32s(in, bs->partner, n_partner);
    bs->indexed = n_start ? n_start - 1 : 0;
    int ok = !in->bad && (n_start == 0 ? n_partner == 0 : bs->start[0] == 0 && bs->start[n_start - 1] == n_partner);
    for (size_t i = 0; ok && i + 1 < n_start; i++)
        ok = bs->start[i + 1] >= bs->start[i];
    for (size_t k = 0; ok && k < n_partner; k++)
        ok = bs->partner[k] < bs->indexed;
    return ok ? GRAINS_OK : grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: the bonds' index");
}

grains_status sim_bonds_read_state(sim_bonds *bs, bytes_in *in, size_t n_particles, grains_error *err)
{
    grains_status s = read_bond_list(bs, in, n_particles, err);
    if (s == GRAINS_OK)
        s = read_bond_index(bs, in, n_particles, err);
    if (s == GRAINS_OK && in->bad)
        s = grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the bonds");
    return s;
}
