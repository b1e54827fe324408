/* Contact histories named by stable ids (grains_contact): read out of the
 * streamed store in list order, and put back through the next rebuild, which
 * places them as it places the histories it carries over (sim/rebuild.c).
 * Checkpoints and other processes use these; the force loop never does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

/* The same contact seen from its other particle: the sliding spring is odd
 * under the exchange, and the rolling one where the run's rolling model
 * says so (contact/rolling.h); see store_remap. */
static void turn_over(const grains_sim *sim, grains_contact *c)
{
    uint32_t a = c->a;
    c->a = c->b;
    c->b = a;
    for (int k = 0; k < 3; k++) {
        c->us[k] = -c->us[k];
        if (sim->hp.rolling_traits.odd)
            c->ur[k] = -c->ur[k];
    }
}

static int by_names(const void *pa, const void *pb)
{
    const grains_contact *a = pa, *b = pb;
    if (a->wall != b->wall)
        return a->wall < b->wall ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* The contact of storage slot i with list entry `entry` (flags cleared). */
static grains_contact record_of(const grains_sim *sim, uint32_t i, uint32_t entry, const real *e)
{
    grains_contact c;
    hm_history full;
    const hm_history *h = &full;
    store_unpack(&sim->cs.layout, e, &full);
    c.wall = (entry & STORE_MESH_BIT) != 0;
    c.a = particles_id_of(&sim->pt, i);
    c.b = c.wall ? entry & STORE_INDEX_MASK : particles_id_of(&sim->pt, entry & STORE_INDEX_MASK);
    for (int k = 0; k < 3; k++)
        c.us[k] = h->us[k], c.ur[k] = h->ur[k];
    c.ut = h->ut;
    if (!c.wall && c.b < c.a)
        turn_over(sim, &c);
    return c;
}

size_t grains_sim_contact_count(const grains_sim *sim)
{
    if (sim->has_pending)
        return sim->n_pending;
    size_t n = 0;
    for (size_t b = 0; b < sim->cs.n_blocks; b++)
        n += sim->cs.block[b].n;
    return n;
}

grains_status grains_sim_get_contacts(const grains_sim *sim, grains_contact *out, size_t n, size_t *got,
                                      grains_error *err)
{
    size_t count = grains_sim_contact_count(sim);
    *got = 0;
    if (n < count)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "room for %zu contacts, %zu have springs", n, count);
    if (sim->has_pending) {
        memcpy(out, sim->pending, count * sizeof *out);
        *got = count;
        return GRAINS_OK;
    }
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    size_t k = 0;
    for (uint32_t b = 0; b < sim->cs.n_blocks; b++) {
        size_t m = 0; /* the block's histories come in its lists' order */
        for (uint32_t i = g->first[g->block_start[b]]; i < g->first[g->block_start[b + 1]]; i++)
            for (uint32_t e = nb->start[i]; e < nb->start[i + 1]; e++)
                if (nb->j[e] & STORE_HIST_BIT)
                    out[k++] = record_of(sim, i, nb->j[e] & ~STORE_HIST_BIT, store_history(&sim->cs, b, m++));
    }
    qsort(out, k, sizeof *out, by_names);
    *got = k;
    return GRAINS_OK;
}

static int finite_springs(const grains_contact *c)
{
    int ok = isfinite(c->ut);
    for (int k = 0; k < 3; k++)
        ok &= isfinite(c->us[k]) && isfinite(c->ur[k]);
    return ok;
}

/* Contact k names what exists, with finite springs. */
static grains_status check_contact(const grains_sim *sim, const grains_contact *c, size_t k, grains_error *err)
{
    size_t n = sim->pt.n, n_el = sim->mesh ? sim->mesh->n_elements : 0;
    if (c->wall != 0 && c->wall != 1)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "contacts[%zu]: wall = %d, expected 0 or 1", k,
                                c->wall);
    if (c->a >= n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "contacts[%zu]: particle %u does not exist (%zu "
                                "particles)", k, c->a, n);
    if (c->wall && c->b >= n_el)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "contacts[%zu]: element %u does not exist (%zu "
                                "elements)", k, c->b, n_el);
    if (!c->wall && (c->b >= n || c->b == c->a))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "contacts[%zu]: particle %u with %u: expected two "
                                "particles of the %zu", k, c->a, c->b, n);
    if (!finite_springs(c))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "contacts[%zu] (%u with %u): a spring is not finite",
                                k, c->a, c->b);
    return GRAINS_OK;
}

grains_status grains_sim_set_contacts(grains_sim *sim, const grains_contact *in, size_t n, grains_error *err)
{
    grains_contact *copy = malloc((n ? n : 1) * sizeof *copy);
    if (!copy)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %zu contacts", n);
    for (size_t k = 0; k < n; k++) {
        grains_status s = check_contact(sim, &in[k], k, err);
        if (s != GRAINS_OK) {
            free(copy);
            return s;
        }
        copy[k] = in[k];
        if (!copy[k].wall && copy[k].b < copy[k].a)
            turn_over(sim, &copy[k]);
    }
    qsort(copy, n, sizeof *copy, by_names);
    for (size_t k = 1; k < n; k++)
        if (by_names(&copy[k - 1], &copy[k]) == 0) {
            grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "contacts: %s %u with %u is given twice",
                             copy[k].wall ? "particle and element" : "particles", copy[k].a, copy[k].b);
            free(copy);
            return GRAINS_ERR_RANGE;
        }
    free(sim->pending);
    sim->pending = copy;
    sim->n_pending = n;
    sim->has_pending = 1;
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

grains_status sim_load_contacts(grains_sim *sim, store_key *keys, grains_error *err)
{
    grains_status s = store_load(&sim->cs, sim->n_pending, err);
    if (s != GRAINS_OK)
        return s;
    for (size_t k = 0; k < sim->n_pending; k++) {
        const grains_contact *c = &sim->pending[k];
        hm_history h;
        for (int a = 0; a < 3; a++)
            h.us[a] = c->us[a], h.ur[a] = c->ur[a];
        h.ut = c->ut;
        store_pack(&sim->cs.layout, store_entry(&sim->cs, k), &h); /* springs of modes that act */
        /* as a sees them: store_remap turns them over if b comes first */
        keys[k] = (store_key){sim->pt.slot[c->a], c->wall ? c->b | STORE_MESH_BIT : sim->pt.slot[c->b]};
    }
    free(sim->pending);
    sim->pending = NULL;
    sim->n_pending = 0;
    sim->has_pending = 0;
    return GRAINS_OK;
}
