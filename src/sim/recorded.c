/* The contacts of a recorded step through the API (grains/sim.h): their
 * count, their forces, each particle's sums and the stress the contacts
 * make (interact/contact_record.c records them). */
#include <string.h>

#include "math/pi.h"
#include "sim/sim_internal.h"

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
