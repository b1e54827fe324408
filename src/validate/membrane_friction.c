/* The membrane paper's friction test (Section 3.2, Fig. 6), see
 * validate/validate.h: a sphere dragged across a held membrane of patches or
 * of vertex spheres, what it feels and how high it rides. */
#include <math.h>

#include "validate/validate.h"
#include "membrane/sheet.h"

#define SPACING 1.33e-3
#define SPEED 0.05
#define RADIUS 2e-3

/* The sphere (material 0, glass) and the membrane (material 1, latex) of
 * Table 2, mu = 1.2 between them, under gravity. */
static grains_params mf_params(int threads)
{
    grains_params p;
    grains_params_default(&p);
    p.N_max = p.N_spawn = 0;
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.R_min = p.R_max = RADIUS;
    p.rho = 2500, p.E = 4.6e10, p.nu = 0.245, p.e_n = 0.5;
    p.mu_s = 0.25, p.mu_r = 0, p.mu_t = 0;
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = 1000, .E = 1.25e6, .nu = 1.0 / 3};
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 0, .b = 1, .e_n = -1, .mu_s = 1.2, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    p.mesh_material = 1;
    p.R_mesh[0] = 0;
    p.g = (grains_vec3){0, 0, -9.81};
    p.threads = threads;
    p.dt = 5e-6; /* the sphere's contact period on the membrane: 3.5 ms */
    return p;
}

/* A 16 x 14 sheet in z = 0, every vertex held by a fixed triangle 1 m below. */
static grains_status held_sheet(grains_sim *sim, double vertex_radius, grains_error *err)
{
    grains_mesh *mesh = NULL, *anchor = NULL;
    grains_membrane_material mat = {.E = 1.25e6, .d = 3e-4, .rho = 1000, .gamma = 0.15, .k_el = 1e-3,
                                    .k_diss = 1e-4, .vertex_radius = vertex_radius, .material = 1};
    const grains_vec3 c[3] = {{0, 0, -1}, {0.001, 0, -1}, {0, 0.001, -1}};
    const uint32_t v[3] = {0, 1, 2};
    grains_status s = grains_mesh_create(&anchor, err);
    for (int k = 0; s == GRAINS_OK && k < 3; k++)
        s = grains_mesh_add_vertex(anchor, c[k], err);
    if (s == GRAINS_OK)
        s = grains_mesh_add_element(anchor, 3, v, 0, 1, err);
    if (s == GRAINS_OK)
        s = grains_sim_add_mesh(sim, anchor, NULL, err);
    if (s == GRAINS_OK)
        s = membrane_sheet_mesh(&mesh, 16, 14, SPACING, err);
    if (s == GRAINS_OK)
        s = grains_sim_add_membrane(sim, mesh, &mat, err);
    for (size_t i = 0; s == GRAINS_OK && i < 16 * 14; i++)
        s = grains_sim_pin_membrane_vertex(sim, 0, i, 0, err);
    grains_mesh_destroy(mesh);
    grains_mesh_destroy(anchor);
    return s;
}

/* One step's row into the sums. */
static void sample(const grains_sim *sim, const grains_particle *p, mf_result *r, double *fx_sum, long *rows,
                   long *off)
{
    grains_vec3 f = grains_sim_guide_force(sim);
    (*rows)++;
    *fx_sum += f.x, r->fz_mean += f.z;
    r->fx_min = fmin(r->fx_min, f.x), r->fx_max = fmax(r->fx_max, f.x);
    r->z_min = fmin(r->z_min, p->x.z), r->z_max = fmax(r->z_max, p->x.z);
    if (f.z > 0) {
        double ratio = -f.x / (r->mu * f.z);
        r->ratio_min = fmin(r->ratio_min, ratio), r->ratio_max = fmax(r->ratio_max, ratio);
    } else {
        (*off)++;
    }
}

grains_status mf_run(const mf_setup *s, mf_result *r, grains_error *err)
{
    grains_params p = mf_params(s->threads);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = held_sheet(sim, s->vertex_radius, err);
    /* just clear of the sheet (of the vertex spheres' tops), set down by gravity */
    grains_particle p0 = {{0.004, 0.0081, RADIUS + s->vertex_radius + 1e-6}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0},
                          RADIUS, 0, 0};
    grains_guide g = {0, {SPEED, 0, 0}, {0, 0, 1}};
    if (st == GRAINS_OK)
        st = grains_sim_add_particle(sim, &p0, err);
    if (st == GRAINS_OK)
        st = grains_sim_guide(sim, &g, err);
    *r = (mf_result){.mu = 1.2, .ratio_min = INFINITY, .ratio_max = -INFINITY, .fx_min = INFINITY,
                     .fx_max = -INFINITY, .z_min = INFINITY, .z_max = -INFINITY};
    long steps = lround(s->length / SPEED / p.dt), from = lround(0.002 / SPEED / p.dt), rows = 0, off = 0;
    double fx_sum = 0;
    for (long k = 1; st == GRAINS_OK && k <= steps; k++) {
        st = grains_sim_step(sim, err);
        grains_sim_get_particle(sim, 0, &r->last);
        const grains_particle *q = &r->last;
        r->x_err = fmax(r->x_err, fabs(q->x.x - (p0.x.x + SPEED * p.dt * (double)k)) + fabs(q->x.y - p0.x.y));
        r->w_max = fmax(r->w_max, fabs(q->w.x) + fabs(q->w.y) + fabs(q->w.z));
        if (k >= from)
            sample(sim, q, r, &fx_sum, &rows, &off);
    }
    if (rows > 0) {
        r->fz_mean /= (double)rows;
        r->ratio = -fx_sum / (double)rows / (r->mu * r->fz_mean);
        r->off = (double)off / (double)rows;
    }
    grains_sim_destroy(sim);
    return st;
}
