/* Steady flow down a rough incline (validate/validate.h's chute_run): the
 * grains and the bed of examples/chute.cfg (Silbert et al. 2001's contact:
 * k_n = 2e5 m g / d, e_n = 0.88, mu = 0.5), on a smaller base, and its depth
 * profile coarse-grained from the running simulation as examples/chute.py
 * reads it from `grains fields` (docs/analysis.md, "The chute"). */
#include <math.h>
#include <stdlib.h>

#include "core/coeffs.h"
#include "grains/fields.h"
#include "validate/validate.h"

#define CHUTE_D 0.002        /* [m] the flowing grains' diameter */
#define CHUTE_BED_R 0.00095  /* [m] the bed's grains: 0.95 of the flow's radius, no hole to fall through */
#define CHUTE_BASE 0.00105   /* [m] the bed's top, its centres' mean height and radius */
#define CHUTE_G 9.81
#define CHUTE_CELLS 80       /* a profile of d/2 cells, 40 d high */

/* One radius R from a discrete law, within the run's [CHUTE_BED_R, CHUTE_D / 2]. */
static grains_size_distribution one_size(double R)
{
    return (grains_size_distribution){.law = GRAINS_SIZES_DISCRETE, .R_lo = CHUTE_BED_R, .R_hi = CHUTE_D / 2,
                                      .n = 1, .R = {R}, .fraction = {1}};
}

/* The bed: one layer laid until no grain fits; then the flow, 20 attempts a
 * step (the bed is laid before the flow's grains are all in). */
static void chute_spawns(grains_params *p, const chute_setup *s, double L)
{
    p->spawn[0] = (grains_spawn_region){.lo = {0, 0, 0}, .hi = {L, L, 0.0002}, .material = 1, .tag = 0,
                                        .rate = 5000, .full_after = 20, .sizes = one_size(CHUTE_BED_R)};
    p->spawn[1] = (grains_spawn_region){.lo = {0, 0, 0.003}, .hi = {L, L, 0.003 + 5 * s->H * CHUTE_D},
                                        .material = 0, .tag = 1, .rate = 20, .count = s->grains,
                                        .sizes = one_size(CHUTE_D / 2)};
    p->n_spawns = 2;
    p->N_max = s->grains + (long)(L * L / (CHUTE_BED_R * CHUTE_BED_R)); /* more than the bed takes */
}

static grains_params chute_params(const chute_setup *s)
{
    grains_params p;
    grains_params_default(&p);
    const double L = s->base * CHUTE_D, th = s->theta * 3.14159265358979323846 / 180;
    double m = 2500 * 3.14159265358979323846 / 6 * CHUTE_D * CHUTE_D * CHUTE_D;
    p.R_min = CHUTE_BED_R, p.R_max = CHUTE_D / 2;
    p.rho = 2500, p.E = 1e7, p.nu = 0.3, p.e_n = 0.88;
    p.mu_s = 0.5, p.mu_r = 0, p.mu_t = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = 2e5 * m * CHUTE_G / CHUTE_D;
    p.dt = 1.64e-6; /* t_c / 40 */
    p.g = (grains_vec3){CHUTE_G * sin(th), 0, -CHUTE_G * cos(th)};
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.periodic = 3; /* x and y */
    p.box_min = (grains_vec3){0, 0, -0.01}, p.box_max = (grains_vec3){L, L, 0.2};
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu, .fixed = 1};
    chute_spawns(&p, s, L);
    p.threads = 1;
    return p;
}

static grains_status advance_time(grains_sim *sim, double t, grains_error *err)
{
    long steps = lround(t / grains_sim_params(sim)->dt);
    return grains_sim_advance(sim, steps > 0 ? steps : 1, err);
}

/* `samples` frames of the profile, each of the step its contacts were recorded at. */
static grains_status sample(grains_sim *sim, const chute_setup *s, grains_cg *cg, grains_error *err)
{
    grains_status st = GRAINS_OK;
    for (int k = 0; k < s->samples && st == GRAINS_OK; k++) {
        st = advance_time(sim, s->measure / s->samples, err);
        grains_sim_record_contacts(sim, 1);
        if (st == GRAINS_OK)
            st = grains_sim_advance(sim, 1, err);
        grains_sim_record_contacts(sim, 0);
        if (st == GRAINS_OK)
            st = grains_cg_add_sim(cg, sim, err);
    }
    return st;
}

static double at(const double *mean, int k, grains_cg_field f, int c)
{
    return mean[(size_t)k * GRAINS_CG_COMPONENTS + (size_t)grains_cg_offset(f) + (size_t)c];
}

/* The bulk's figures: the middle three fifths of the layer, from the bed's top
 * to where the solid fraction falls to half its value there. */
static void profile(const grains_cg *cg, const double *mean, chute_result *out)
{
    double top = CHUTE_BASE, phi_mid = 0;
    int n_mid = 0;
    for (int k = 0; k < CHUTE_CELLS; k++)
        if (at(mean, k, GRAINS_CG_SOLID_FRACTION, 0) > 0.3)
            top = fmax(top, grains_cg_centre(cg, 0, 0, k).z);
    for (int k = 0; k < CHUTE_CELLS; k++) {
        double z = grains_cg_centre(cg, 0, 0, k).z;
        if (z >= CHUTE_BASE + 0.3 * (top - CHUTE_BASE) && z <= CHUTE_BASE + 0.7 * (top - CHUTE_BASE))
            phi_mid += at(mean, k, GRAINS_CG_SOLID_FRACTION, 0), n_mid++;
    }
    double half = n_mid ? phi_mid / n_mid / 2 : 0, h = top;
    for (int k = 0; k + 1 < CHUTE_CELLS; k++) {
        double p0 = at(mean, k, GRAINS_CG_SOLID_FRACTION, 0), p1 = at(mean, k + 1, GRAINS_CG_SOLID_FRACTION, 0);
        double z0 = grains_cg_centre(cg, 0, 0, k).z, z1 = grains_cg_centre(cg, 0, 0, k + 1).z;
        if (z0 > CHUTE_BASE && p0 >= half && p1 < half)
            h = z0 + (z1 - z0) * (p0 - half) / (p0 - p1);
    }
    double H = h - CHUTE_BASE, sxz = 0, szz = 0;
    out->H = H / CHUTE_D, out->phi_min = 1, out->phi_max = 0, out->phi = 0;
    int n = 0;
    for (int k = 0; k < CHUTE_CELLS; k++) {
        double z = grains_cg_centre(cg, 0, 0, k).z, phi = at(mean, k, GRAINS_CG_SOLID_FRACTION, 0);
        if (z < CHUTE_BASE + 0.2 * H || z > h - 0.2 * H)
            continue;
        out->phi += phi, n++;
        out->phi_min = fmin(out->phi_min, phi), out->phi_max = fmax(out->phi_max, phi);
        sxz += at(mean, k, GRAINS_CG_STRESS, 2), szz += at(mean, k, GRAINS_CG_STRESS, 8);
    }
    out->phi = n ? out->phi / n : 0;
    out->stress_ratio = szz != 0 ? -sxz / szz : 0;
}

grains_status chute_run(const chute_setup *s, chute_result *out, grains_error *err)
{
    grains_params p = chute_params(s);
    grains_sim *sim = NULL;
    grains_cg *cg = NULL;
    const grains_cg_grid grid = {.lo = {0, 0, 0}, .hi = {p.box_max.x, p.box_max.y, CHUTE_CELLS * CHUTE_D / 2},
                                 .n = {1, 1, CHUTE_CELLS}, .averaged = {1, 1, 0}, .periodic = {1, 1, 0},
                                 .kernel = GRAINS_CG_GAUSSIAN, .width = CHUTE_D / 2};
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = grains_cg_create(&cg, &grid, err);
    if (st == GRAINS_OK)
        st = advance_time(sim, s->settle, err);
    if (st == GRAINS_OK)
        st = sample(sim, s, cg, err);
    double *mean = st == GRAINS_OK ? malloc(grains_cg_cells(cg) * GRAINS_CG_COMPONENTS * sizeof *mean) : NULL;
    if (st == GRAINS_OK && !mean)
        st = grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "chute: no memory for the profile");
    if (st == GRAINS_OK) {
        grains_cg_mean(cg, mean);
        profile(cg, mean, out);
    }
    free(mean);
    grains_cg_destroy(cg);
    grains_sim_destroy(sim);
    return st;
}
