/* A column of spheres relaxed to rest on a floor (grains_sim_relax, the
 * variational integrator's quasi-static limit): each contact carries the
 * weight above it, so its overlap is n m g / k_n (linear) or
 * (n m g / K)^(2/3) (Hertz, K = 4/3 E* sqrt(R*), TinyDEM Eqs. 12-16). */
#include <math.h>

#include "core/coeffs.h"
#include "grains/sim.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846
#define R 1e-3
#define G 9.81

static grains_params column_params(grains_contact_model model)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = R;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.rho = 2500;
    p.mu_s = 0.5; /* relaxation has no friction: it plays no part */
    p.g = (grains_vec3){0, 0, -G};
    p.N_max = p.N_spawn = 0;
    p.contact_model = model;
    p.coeff[COEFF_LINEAR_K_N] = 10;
    p.dt = 1e-4;
    p.threads = 1;
    return p;
}

/* The overlap the load of `above` spheres gives: against the floor (rigid,
 * R* = R) or against the sphere below (R* = R/2). */
static double expected_overlap(const grains_params *p, int above, int floor_too)
{
    double load = above * 4 * PI / 3 * p->rho * R * R * R * G;
    if (p->contact_model == GRAINS_CONTACT_LINEAR)
        return load / p->coeff[COEFF_LINEAR_K_N];
    double E_eff = p->E / ((floor_too ? 1 : 2) * (1 - p->nu * p->nu)), R_eff = floor_too ? R : R / 2;
    return pow(load / (4.0 / 3 * E_eff * sqrt(R_eff)), 2.0 / 3);
}

grains_status column_run(grains_contact_model model, int n, column_result *out, grains_error *err)
{
    grains_params p = column_params(model);
    grains_sim *sim = NULL;
    grains_status s = grains_sim_create(&sim, &p, err);
    const double L = 0.1;
    const grains_vec3 floor_corners[4] = {{-L, -L, 0}, {L, -L, 0}, {L, L, 0}, {-L, L, 0}};
    if (s == GRAINS_OK)
        s = validate_rectangles(sim, floor_corners, 1, err);
    for (int k = 0; s == GRAINS_OK && k < n; k++) {
        grains_particle q = {{0, 0, R + 2.1 * R * k}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R, 0, 0};
        s = grains_sim_add_particle(sim, &q, err);
    }
    if (s == GRAINS_OK)
        s = grains_sim_relax(sim, 1e-9, 10000, &out->relax, err);
    out->worst = 0;
    double below = 0;
    for (int k = 0; s == GRAINS_OK && k < n; k++) {
        grains_particle q;
        grains_sim_get_particle(sim, (size_t)k, &q);
        double overlap = (k == 0 ? R : below + 2 * R) - q.x.z;
        out->worst = fmax(out->worst, fabs(overlap / expected_overlap(&p, n - k, k == 0) - 1));
        below = q.x.z;
    }
    grains_sim_destroy(sim);
    return s;
}
