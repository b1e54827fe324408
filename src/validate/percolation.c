/* Percolation of fines through a frozen bed (improved-velocity-Verlet paper,
 * Section 5.2, Figs. 13-14): non-interacting fine spheres fall from just
 * above a random, periodic bed of large ones and percolate under gravity.
 * The standard velocity Verlet traps many of them in the unphysical
 * pendulum of Section 2; the improved scheme lets them through.
 *
 * The bed is made here by pouring the large spheres into the periodic box
 * and letting them settle (the paper grows them instead; either gives a
 * random packing). Frozen, they become mesh spheres; the mesh is not
 * periodic, so the images of those near a side are added across it. */
#include <math.h>
#include <stdlib.h>

#include "core/coeffs.h"
#include "grains/mesh.h"
#include "util/rng.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846
#define G 9.81

perc_setup perc_default(grains_integrator integrator)
{
    perc_setup s = {integrator, 2e-3, 20, 0.3, 0.8, 2500, 0.3, 1e-3, 40, 10, 20, 64, 2.0, 0.3, 7};
    return s;
}

static double sphere_mass(double rho, double r) { return 4 * PI / 3 * rho * r * r * r; }

double perc_stiffness(const perc_setup *s)
{
    double r = s->R / s->ratio, delta = s->overlap * 2 * r;
    return sphere_mass(s->rho, r) * 2 * G * s->R / (delta * delta); /* Eq. 27, m* = m, V0^2 = 2 g R */
}

/* Eq. 7 with the damping of Eq. 31 for e_n. */
double perc_contact_time(const perc_setup *s)
{
    double L = log(s->e_n);
    return PI * sqrt(sphere_mass(s->rho, s->R / s->ratio) / perc_stiffness(s)) * sqrt(1 + L * L / (PI * PI));
}

/* --- the bed --------------------------------------------------------- */

/* Pouring: stiff enough that the resting overlap is far below 0.1% of R,
 * damped (e_n 0.1) to settle in a few bounces. */
static grains_params pour_params(const perc_setup *s, double W, double k_n)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = s->R;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.rho = s->rho, p.nu = s->nu, p.e_n = 0.1;
    p.mu_s = s->pour_mu, p.mu_r = 0, p.mu_t = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = k_n;
    p.dt = PI * sqrt(sphere_mass(s->rho, s->R) / 2 / k_n) / 20;
    p.g = (grains_vec3){0, 0, -G};
    p.periodic = 3;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){W, W, s->depth * s->R};
    p.skin = 0.2 * s->R; /* cells of 2.2 R: a 10 R period holds the 4 a periodic grid needs */
    p.N_max = 0, p.N_spawn = 0;
    p.threads = 1;
    return p;
}

/* A loose lattice, n_side^2 per layer, jittered, with small random speeds. */
static grains_status pour_start(grains_sim *sim, const perc_setup *s, int n, double W, grains_rng *rng,
                                grains_error *err)
{
    int n_side = (int)floor(W / (2.2 * s->R));
    double a = W / n_side, jitter = 0.45 * (a - 2 * s->R);
    grains_status st = GRAINS_OK;
    for (int k = 0; st == GRAINS_OK && k < n; k++) {
        int layer = k / (n_side * n_side), cell = k % (n_side * n_side);
        double u[5];
        for (int c = 0; c < 5; c++)
            u[c] = 2 * rng_uniform(rng) - 1;
        grains_particle q = {{(cell % n_side + 0.5) * a + jitter * u[0], (cell / n_side + 0.5) * a + jitter * u[1],
                              1.1 * s->R + 2.2 * s->R * layer},
                             {0.1 * u[2], 0.1 * u[3], 0.1 * u[4]}, {0, 0, 0}, {1, 0, 0, 0}, s->R, 0, 0};
        st = grains_sim_add_particle(sim, &q, err);
    }
    return st;
}

grains_status perc_bed_make(const perc_setup *s, perc_bed *bed, grains_error *err)
{
    double W = s->width * s->R;
    /* a random loose packing fills about 0.6 of the bed's volume */
    int n = (int)lround(0.6 * W * W * s->depth * s->R / (4 * PI / 3 * pow(s->R, 3)));
    int n_side = (int)floor(W / (2.2 * s->R));
    double H = 2.2 * s->R * ((n + n_side * n_side - 1) / (n_side * n_side) + 1);
    /* overlap 2% of R at the speed of the fall through H */
    double m_eff = sphere_mass(s->rho, s->R) / 2, delta = 0.02 * s->R, k_n = m_eff * 2 * G * H / (delta * delta);
    *bed = (perc_bed){0, NULL, 0, W, 0, 0};
    if (n_side < 1)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "percolation: the bed (%g R) is narrower than 2.2 R",
                                s->width);
    grains_params p = pour_params(s, W, k_n);
    grains_sim *sim = NULL;
    grains_rng rng;
    rng_seed(&rng, s->seed);
    grains_status st = grains_sim_create(&sim, &p, err);
    const grains_vec3 ground[4] = {{-W, -W, 0}, {2 * W, -W, 0}, {2 * W, 2 * W, 0}, {-W, 2 * W, 0}}; /* past the sides */
    if (st == GRAINS_OK)
        st = validate_rectangles(sim, ground, 1, err);
    if (st == GRAINS_OK)
        st = pour_start(sim, s, n, W, &rng, err);
    if (st == GRAINS_OK) /* the fall from H, then settling */
        st = grains_sim_advance(sim, (long)ceil((sqrt(2 * H / G) + 0.3) / p.dt), err);
    if (st == GRAINS_OK && !(bed->x = malloc(3 * (size_t)n * sizeof *bed->x)))
        st = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "percolation: out of memory for the bed");
    for (int k = 0; st == GRAINS_OK && k < n; k++) {
        grains_particle q;
        grains_sim_get_particle(sim, (size_t)k, &q);
        bed->x[3 * k] = q.x.x - W * floor(q.x.x / W), bed->x[3 * k + 1] = q.x.y - W * floor(q.x.y / W);
        bed->x[3 * k + 2] = q.x.z;
        bed->top = fmax(bed->top, q.x.z + s->R);
        bed->K += 0.5 * sphere_mass(s->rho, s->R) * (q.v.x * q.v.x + q.v.y * q.v.y + q.v.z * q.v.z);
    }
    bed->n = st == GRAINS_OK ? n : 0;
    bed->packing = bed->n * sphere_mass(1, s->R) / (W * W * bed->top);
    grains_sim_destroy(sim);
    return st;
}

void perc_bed_free(perc_bed *bed)
{
    free(bed->x);
    bed->x = NULL;
    bed->n = 0;
}

/* --- the fines ------------------------------------------------------- */

/* Sphere k of the bed at (x, y, z), and its images across the sides that a
 * fine within the box (or a skin beyond it) can reach. */
static grains_status add_with_images(grains_mesh *m, const perc_setup *s, double W, const double *x, int *n_elements,
                                     grains_error *err)
{
    double reach = s->R + 4 * s->R / s->ratio; /* R + r + the skin (0.6 r) and more */
    grains_status st = GRAINS_OK;
    for (int i = -1; st == GRAINS_OK && i <= 1; i++)
        for (int j = -1; st == GRAINS_OK && j <= 1; j++) {
            double cx = x[0] + i * W, cy = x[1] + j * W;
            if (cx < -reach || cx > W + reach || cy < -reach || cy > W + reach)
                continue;
            uint32_t v = (uint32_t)(*n_elements);
            st = grains_mesh_add_vertex(m, (grains_vec3){cx, cy, x[2]}, err);
            if (st == GRAINS_OK)
                st = grains_mesh_add_element(m, 1, &v, 0, s->R, err);
            (*n_elements)++;
        }
    return st;
}

static grains_status bed_mesh(grains_sim *sim, const perc_setup *s, const perc_bed *bed, int *n_elements,
                              grains_error *err)
{
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    *n_elements = 0;
    for (int k = 0; st == GRAINS_OK && k < bed->n; k++)
        st = add_with_images(m, s, bed->W, &bed->x[3 * k], n_elements, err);
    if (st == GRAINS_OK)
        st = grains_sim_set_mesh(sim, m, err);
    grains_mesh_destroy(m);
    return st;
}

/* Linear spring-dashpot with k_n by Eq. 27 and k_t by Eq. 6, damping by
 * Eq. 31, no rolling or twisting friction; fines pass through each other. */
static grains_params fine_params(const perc_setup *s, const perc_bed *bed)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = s->R / s->ratio;
    p.n_mesh_radii = 1, p.R_mesh[0] = s->R;
    p.rho = s->rho, p.nu = s->nu, p.e_n = s->e_n;
    p.mu_s = s->mu, p.mu_r = 0, p.mu_t = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = perc_stiffness(s);
    p.integrator = s->integrator;
    p.dt = perc_contact_time(s) / s->steps_per_tc;
    p.g = (grains_vec3){0, 0, -G};
    p.periodic = 3;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){bed->W, bed->W, bed->top};
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 0, .b = 0, .e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 1};
    p.N_max = 0, p.N_spawn = 0;
    p.threads = 1;
    return p;
}

/* At random (x, y), 0.2 mm above the bed's highest point, at rest. */
static grains_status release_fines(grains_sim *sim, const perc_setup *s, const perc_bed *bed, grains_error *err)
{
    grains_rng rng;
    rng_seed(&rng, s->seed + 1);
    double r = s->R / s->ratio;
    grains_status st = GRAINS_OK;
    for (int k = 0; st == GRAINS_OK && k < s->n_fines; k++) {
        double x = bed->W * rng_uniform(&rng), y = bed->W * rng_uniform(&rng);
        grains_particle q = {{x, y, bed->top + 0.2e-3 + r}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, r, 0, 0};
        st = grains_sim_add_particle(sim, &q, err);
    }
    return st;
}

/* Runs to t_end, or until every fine has left the bed's floor (z = 0)
 * behind: nothing lies below it, so none comes back. */
static grains_status follow_fines(grains_sim *sim, const perc_setup *s, perc_result *out, grains_error *err)
{
    double r = s->R / s->ratio, dt = grains_sim_params(sim)->dt;
    const long chunk = (long)ceil(1e-3 / dt); /* look every millisecond */
    int below = 0;
    while (grains_sim_time(sim) < s->t_end && below < s->n_fines) {
        grains_status st = grains_sim_advance(sim, chunk, err);
        if (st != GRAINS_OK)
            return st;
        below = 0;
        for (int k = 0; k < s->n_fines; k++) {
            grains_particle q;
            grains_sim_get_particle(sim, (size_t)k, &q);
            below += q.x.z < -r;
        }
        if (below * 2 >= s->n_fines && out->t_half == 0)
            out->t_half = grains_sim_time(sim);
    }
    out->through = below;
    out->trapped = s->n_fines - below;
    out->t = grains_sim_time(sim);
    out->steps = grains_sim_steps(sim);
    return GRAINS_OK;
}

grains_status perc_run(const perc_setup *s, const perc_bed *bed, perc_result *out, grains_error *err)
{
    *out = (perc_result){.n_fines = s->n_fines, .n_bed = bed->n};
    out->k_n = perc_stiffness(s);
    out->t_c = perc_contact_time(s);
    out->dt = out->t_c / s->steps_per_tc;
    grains_params p = fine_params(s, bed);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = bed_mesh(sim, s, bed, &out->n_elements, err);
    if (st == GRAINS_OK)
        st = release_fines(sim, s, bed, err);
    if (st == GRAINS_OK)
        st = follow_fines(sim, s, out, err);
    grains_sim_destroy(sim);
    return st;
}
