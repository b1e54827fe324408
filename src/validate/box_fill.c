/* Filling a box (variational-integrator paper, Section 3.4): 218 equal
 * spheres fall under gravity into an L x L x 20L box, L = 6d, and settle.
 * Linear spring-dashpot, no friction; the start state is a lattice of
 * 5 x 5 per layer with random velocities, high in the box ("a snapshot
 * captured before all the particles had settled"). The same start state and
 * law run in LAMMPS (tests/peers/box_fill.sh) for the comparison. */
#include <math.h>
#include <stdio.h>

#include "core/coeffs.h"
#include "grains/mesh.h"
#include "util/rng.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846

box_setup box_default(grains_integrator integrator)
{
    box_setup s = {integrator, 0.01, 2500, 1e5, 0.5, 50, 0.2, 0.5, 0.8, 0.01, 42};
    return s;
}

double box_mass(const box_setup *s)
{
    double R = s->d / 2;
    return 4 * PI / 3 * s->rho * R * R * R;
}

double box_contact_time(const box_setup *s)
{
    return PI * sqrt(box_mass(s) / 2 / s->k_n); /* Eq. 7 with m* = m / 2, undamped */
}

grains_params box_params(const box_setup *s)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = s->d / 2;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.rho = s->rho;
    p.e_n = s->e_n;
    p.mu_s = p.mu_r = p.mu_t = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = s->k_n;
    p.integrator = s->integrator;
    p.dt = box_contact_time(s) / s->steps_per_tc;
    p.N_max = 0, p.N_spawn = 0;
    p.threads = 1;
    return p;
}

void box_start(const box_setup *s, grains_particle out[BOX_N])
{
    const double L = BOX_WIDTH * s->d, a = L / 5;
    grains_rng rng;
    rng_seed(&rng, s->seed);
    for (int k = 0; k < BOX_N; k++) {
        double u[3];
        for (int c = 0; c < 3; c++)
            u[c] = s->v_random * (2 * rng_uniform(&rng) - 1);
        grains_particle q = {{(k % 5 + 0.5) * a, (k / 5 % 5 + 0.5) * a, s->z_start + (k / 25) * a},
                             {u[0], u[1], u[2]}, {0, 0, 0}, {1, 0, 0, 0}, s->d / 2, 0, 0};
        out[k] = q;
    }
}

grains_status box_walls(grains_sim *sim, double L, double H, grains_error *err)
{
    const grains_vec3 corner[8] = {{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0},
                                   {0, 0, H}, {L, 0, H}, {L, L, H}, {0, L, H}};
    /* v0, v1, v3 span each rectangle (TinyDEM's parallelogram) */
    const uint32_t face[5][4] = {{0, 1, 2, 3}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    for (int k = 0; k < 8 && st == GRAINS_OK; k++)
        st = grains_mesh_add_vertex(m, corner[k], err);
    for (int f = 0; f < 5 && st == GRAINS_OK; f++)
        st = grains_mesh_add_element(m, 4, face[f], 0, 0, err);
    if (st == GRAINS_OK)
        st = grains_sim_set_mesh(sim, m, err);
    grains_mesh_destroy(m);
    return st;
}

/* Eqs. 35-36 of the current state. */
static void box_sample(const grains_sim *sim, double m, double *K, double *dv)
{
    size_t n = grains_sim_count(sim);
    double sum = 0, mean[3] = {0, 0, 0}, sq = 0;
    for (size_t i = 0; i < n; i++) {
        grains_particle q;
        grains_sim_get_particle(sim, i, &q);
        double I = 0.4 * m * q.R * q.R;
        double v2 = q.v.x * q.v.x + q.v.y * q.v.y + q.v.z * q.v.z;
        sum += m * v2 + I * (q.w.x * q.w.x + q.w.y * q.w.y + q.w.z * q.w.z);
        mean[0] += q.v.x, mean[1] += q.v.y, mean[2] += q.v.z;
        sq += v2;
    }
    *K = sum / (2 * (double)n);                                             /* Eq. 35 */
    for (int c = 0; c < 3; c++)
        mean[c] /= (double)n;
    /* Eq. 36: (1/3N) sum |v_bar - v|^2 = (<v^2> - |v_bar|^2) / 3 */
    *dv = (sq / (double)n - mean[0] * mean[0] - mean[1] * mean[1] - mean[2] * mean[2]) / 3;
}

grains_status box_run(const box_setup *s, box_result *out, grains_error *err)
{
    grains_params p = box_params(s);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = box_walls(sim, BOX_WIDTH * s->d, BOX_HEIGHT * BOX_WIDTH * s->d, err);
    grains_particle start[BOX_N];
    box_start(s, start);
    for (int k = 0; k < BOX_N && st == GRAINS_OK; k++)
        st = grains_sim_add_particle(sim, &start[k], err);
    double m = box_mass(s);
    long every = lround(s->sample / p.dt);
    out->n = 0;
    for (int k = 0; st == GRAINS_OK && k < BOX_SAMPLES; k++) {
        if ((double)k * s->sample > s->t_end + 1e-12)
            break;
        if (k > 0)
            st = grains_sim_advance(sim, every, err);
        if (st != GRAINS_OK)
            break;
        out->t[k] = grains_sim_time(sim);
        box_sample(sim, m, &out->K[k], &out->dv[k]);
        out->n = k + 1;
    }
    grains_sim_destroy(sim);
    return st;
}
