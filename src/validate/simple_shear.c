/* Steady simple shear at constant pressure (validate/validate.h's
 * shear_run): one point of mu(I) and phi(I) as examples/mu_of_I.cfg and
 * examples/mu_of_I.py measure it (docs/analysis.md, "mu(I) and phi(I)"). */
#include <math.h>

#include "validate/validate.h"

#define SHEAR_P 10.0 /* [Pa] */
#define SHEAR_BLOCKS 10

static grains_params shear_params(const shear_setup *s)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = 0.9e-3, p.R_max = 1.1e-3;
    p.rho = 2500, p.E = 1e7, p.nu = 0.25, p.e_n = 0.5;
    p.mu_s = s->mu_p, p.mu_r = 0, p.mu_t = 0;
    p.g = (grains_vec3){0, 0, 0};
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.periodic = 7;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){0.02, 0.012, 0.0235}; /* phi = 0.57 once grown */
    p.s_min = p.box_min, p.s_max = p.box_max;
    p.v0 = (grains_vec3){0, 0, 0};
    p.N_max = 760, p.N_spawn = 5000;
    p.grow_from = 0.6, p.grow_time = 0.5;
    p.shear_rate = s->I * sqrt(SHEAR_P / p.rho) / 2e-3; /* I = rate d / sqrt(P / rho) */
    p.threads = 1;
    return p;
}

static grains_status advance_time(grains_sim *sim, double t, grains_error *err)
{
    long steps = lround(t / grains_sim_params(sim)->dt);
    return grains_sim_advance(sim, steps > 0 ? steps : 1, err);
}

static void blocks_mean(const double *x, double *mean, double *error)
{
    double sum = 0, sq = 0;
    for (int b = 0; b < SHEAR_BLOCKS; b++)
        sum += x[b];
    *mean = sum / SHEAR_BLOCKS;
    for (int b = 0; b < SHEAR_BLOCKS; b++)
        sq += (x[b] - *mean) * (x[b] - *mean);
    *error = sqrt(sq / (SHEAR_BLOCKS - 1) / SHEAR_BLOCKS);
}

/* The measured strains in blocks: each block's mean stress and solid fraction. */
static grains_status measure(grains_sim *sim, const shear_setup *s, double rate, shear_result *out,
                             grains_error *err)
{
    double P[SHEAR_BLOCKS], mu[SHEAR_BLOCKS], phi[SHEAR_BLOCKS], tau = 0, P_sum = 0;
    grains_sim_clear_box_means(sim);
    for (int b = 0; b < SHEAR_BLOCKS; b++) {
        grains_status st = advance_time(sim, s->strains / SHEAR_BLOCKS / rate, err);
        if (st != GRAINS_OK)
            return st;
        grains_box_state box;
        grains_sim_box(sim, &box);
        grains_sim_clear_box_means(sim);
        P[b] = -box.mean_stress[8];
        mu[b] = box.mean_stress[2] / P[b];
        phi[b] = box.mean_solid_fraction;
        tau += box.mean_stress[2], P_sum += P[b];
    }
    double unused;
    blocks_mean(P, &out->P, &unused);
    blocks_mean(mu, &unused, &out->dmu); /* (the ratio's error from its blocks': tau and P move together) */
    blocks_mean(phi, &out->phi, &out->dphi);
    out->mu = tau / P_sum;
    out->I = rate * 2e-3 / sqrt(out->P / 2500);
    return GRAINS_OK;
}

grains_status shear_run(const shear_setup *s, shear_result *out, grains_error *err)
{
    grains_params p = shear_params(s);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = advance_time(sim, 1.0, err); /* grown at constant volume */
    const char *name = "box_pressure";
    const double pressure = SHEAR_P;
    if (st == GRAINS_OK)
        st = grains_sim_set_named_params(sim, 1, &name, &pressure, err);
    if (st == GRAINS_OK)
        st = advance_time(sim, s->skip / p.shear_rate, err);
    if (st == GRAINS_OK)
        st = measure(sim, s, p.shear_rate, out, err);
    grains_sim_destroy(sim);
    return st;
}
