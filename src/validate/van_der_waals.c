/* Van der Waals attraction against Hamaker's formula (issue "Integrators
 * and contact models": validation case 7). The engine's force is measured
 * from one Euler step from rest, m dv / dt; the expected one is -dU/dd from
 * Hamaker's potential by central differences, an evaluation independent of
 * the closed-form derivative in contact/van_der_waals.h. */
#include <math.h>

#include "core/coeffs.h"
#include "grains/sim.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846

/* Hamaker (1937): two spheres of radii R_1, R_2 at centre distance d, or
 * a sphere of radius R_1 at gap s from a plane. */
static double hamaker_potential(double A, double R_1, double R_2, int wall, double s)
{
    if (wall)
        return -A / 6 * (R_1 / s + R_1 / (s + 2 * R_1) + log(s / (s + 2 * R_1)));
    double d = R_1 + R_2 + s;
    double P = d * d - (R_1 + R_2) * (R_1 + R_2), M = d * d - (R_1 - R_2) * (R_1 - R_2);
    return -A / 6 * (2 * R_1 * R_2 / P + 2 * R_1 * R_2 / M + log(P / M));
}

vdw_setup vdw_default(void)
{
    vdw_setup s = {1e-19, 10e-6, 5e-6, 0.4e-9, 40e-9, 0, 0};
    return s;
}

double vdw_expected(const vdw_setup *s)
{
    if (s->gap >= s->cutoff)
        return 0;
    double gap = fmax(s->gap, s->delta0), h = 1e-4 * gap;
    return (hamaker_potential(s->A, s->R_1, s->R_2, s->wall, gap + h) -
            hamaker_potential(s->A, s->R_1, s->R_2, s->wall, gap - h)) / (2 * h);
}

static grains_params vdw_params(const vdw_setup *s)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = fmin(s->R_1, s->R_2), p.R_max = fmax(s->R_1, s->R_2);
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.rho = 2500, p.E = 1e9;
    p.g = (grains_vec3){0, 0, 0};
    p.N_max = 0, p.N_spawn = 0;
    p.coeff[COEFF_VDW_A] = s->A, p.coeff[COEFF_VDW_DELTA0] = s->delta0, p.coeff[COEFF_VDW_CUTOFF] = s->cutoff;
    p.skin = s->delta0; /* below the cut-off: the lists must reach further on their own */
    p.threads = 1;
    return p;
}

static grains_status add_sphere(grains_sim *sim, double x, double R, grains_error *err)
{
    grains_particle q = {{x, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R, 0, 0};
    return grains_sim_add_particle(sim, &q, err);
}

grains_status vdw_run(const vdw_setup *s, vdw_result *out, grains_error *err)
{
    grains_params p = vdw_params(s);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = s->wall ? validate_x_walls(sim, (const double[1]){0}, 1, 10 * s->R_1, err)
                     : add_sphere(sim, -s->R_2 - s->gap, s->R_2, err);
    if (st == GRAINS_OK)
        st = add_sphere(sim, s->R_1 + (s->wall ? s->gap : 0), s->R_1, err); /* sphere 1 on the +x side */
    if (st == GRAINS_OK)
        st = grains_sim_step(sim, err);
    if (st == GRAINS_OK) {
        grains_particle q;
        size_t n = grains_sim_count(sim);
        double dt = grains_sim_params(sim)->dt, rho = grains_sim_params(sim)->rho;
        grains_sim_get_particle(sim, n - 1, &q);
        double m_1 = 4 * PI / 3 * rho * pow(s->R_1, 3);
        out->force = -m_1 * q.v.x / dt; /* attraction pulls sphere 1 towards -x */
        out->momentum = m_1 * q.v.x;
        out->impulse = fabs(out->momentum);
        if (!s->wall) {
            grains_sim_get_particle(sim, 0, &q);
            out->momentum += 4 * PI / 3 * rho * pow(s->R_2, 3) * q.v.x;
        }
    }
    grains_sim_destroy(sim);
    return st;
}
