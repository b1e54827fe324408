/* A running simulation's last recorded step as a frame of the fields
 * (grains_cg_add_sim): its grains by id, their masses and volumes from
 * their materials, and the contacts its force loop recorded. */
#include <math.h>
#include <stdlib.h>

#include "grains/fields.h"

#define CG_PI 3.14159265358979323846

/* The frame's arrays, held together. */
typedef struct {
    grains_vec3 *x, *v;
    double *mass, *volume;
    int *coordination;
    grains_cg_contact *contacts;
    grains_contact_force *recorded;
} sim_frame;

static void frame_free(sim_frame *f)
{
    free(f->x), free(f->v), free(f->mass), free(f->volume), free(f->coordination), free(f->contacts);
    free(f->recorded);
}

/* x put back into the run's periodic box along its periodic axes. */
static grains_vec3 wrapped(const grains_params *p, grains_vec3 x)
{
    double *c[3] = {&x.x, &x.y, &x.z};
    const double lo[3] = {p->box_min.x, p->box_min.y, p->box_min.z}, hi[3] = {p->box_max.x, p->box_max.y,
                                                                              p->box_max.z};
    for (int a = 0; a < 3; a++)
        if (p->periodic >> a & 1)
            *c[a] -= floor((*c[a] - lo[a]) / (hi[a] - lo[a])) * (hi[a] - lo[a]);
    return x;
}

/* The grains' centres (in the periodic box), velocities, masses and volumes. */
static void take_grains(const grains_sim *sim, size_t n, sim_frame *f)
{
    const grains_params *p = grains_sim_params(sim);
    for (size_t id = 0; id < n; id++) {
        grains_particle q;
        grains_sim_get_particle(sim, id, &q);
        double volume = 4.0 / 3.0 * CG_PI * q.R * q.R * q.R;
        f->x[id] = wrapped(p, q.x), f->v[id] = q.v;
        f->volume[id] = volume;
        f->mass[id] = grains_params_mass(p, q.material, q.R);
    }
}

grains_status grains_cg_add_sim_grains(grains_cg *cg, const grains_sim *sim, grains_error *err)
{
    size_t n = grains_sim_count(sim);
    sim_frame f = {malloc((n + 1) * sizeof *f.x), malloc((n + 1) * sizeof *f.v), malloc((n + 1) * sizeof *f.mass),
                   malloc((n + 1) * sizeof *f.volume), NULL, NULL, NULL};
    grains_status s = GRAINS_OK;
    if (f.x && f.v && f.mass && f.volume) {
        take_grains(sim, n, &f);
        s = grains_cg_add_frame(cg, &(grains_cg_frame){n, f.x, f.v, f.mass, f.volume, NULL, 0, NULL}, err);
    } else {
        s = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a frame's fields");
    }
    frame_free(&f);
    return s;
}

grains_status grains_cg_add_sim(grains_cg *cg, const grains_sim *sim, grains_error *err)
{
    size_t n = grains_sim_count(sim), n_contacts = grains_sim_recorded_count(sim), got = 0;
    if (n_contacts == 0 && grains_sim_contact_count(sim) > 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "fields: the last step recorded no contacts "
                                "(grains_sim_record_contacts before it)");
    sim_frame f = {malloc((n + 1) * sizeof *f.x), malloc((n + 1) * sizeof *f.v), malloc((n + 1) * sizeof *f.mass),
                   malloc((n + 1) * sizeof *f.volume), malloc((n + 1) * sizeof *f.coordination),
                   malloc((n_contacts + 1) * sizeof *f.contacts), malloc((n_contacts + 1) * sizeof *f.recorded)};
    grains_status s = f.x && f.v && f.mass && f.volume && f.coordination && f.contacts && f.recorded
                          ? grains_sim_get_contact_forces(sim, f.recorded, n_contacts, &got, err)
                          : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a frame's fields");
    if (s == GRAINS_OK) {
        take_grains(sim, n, &f);
        for (size_t id = 0; id < n; id++)
            f.coordination[id] = 0;
        for (size_t c = 0; c < got; c++) {
            const grains_contact_force *r = &f.recorded[c];
            if (r->a < n) /* (grains added since the recorded step come after its ids) */
                f.coordination[r->a]++;
            if (!r->wall && r->b < n)
                f.coordination[r->b]++;
            grains_vec3 force = {r->f_n.x + r->f_t.x, r->f_n.y + r->f_t.y, r->f_n.z + r->f_t.z};
            grains_vec3 a = wrapped(grains_sim_params(sim), r->x_a); /* the branch from there */
            grains_vec3 b = {a.x + r->x_b.x - r->x_a.x, a.y + r->x_b.y - r->x_a.y, a.z + r->x_b.z - r->x_a.z};
            f.contacts[c] = (grains_cg_contact){a, b, force};
        }
        grains_cg_frame frame = {n, f.x, f.v, f.mass, f.volume, f.coordination, got, f.contacts};
        s = grains_cg_add_frame(cg, &frame, err);
    }
    frame_free(&f);
    return s;
}
