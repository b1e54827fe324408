/* Restitution of a head-on collision of two equal spheres, for every
 * contact model and integrator (issue "Integrators and contact models":
 * validation case 7). */
#include <math.h>

#include "core/coeffs.h"
#include "grains/sim.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846

#define R_SPHERE 1e-3

static grains_params collision_params(const rest_setup *s, double *t_c, double *m_eff)
{
    const double R = R_SPHERE;
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = R;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.E = 1e7, p.e_n = s->e_n;
    p.mu_s = s->mu, p.mu_r = p.mu_t = 0;
    p.g = (grains_vec3){0, 0, 0};
    p.N_max = 0, p.N_spawn = 0;
    p.contact_model = s->model;
    p.damping = s->damping;
    p.integrator = s->integrator;
    p.coeff[COEFF_LINEAR_V0] = s->speed;
    p.threads = 1;
    /* contact time: Hertz (Eq. 30 of the improved-Verlet paper) or linear (Eq. 7) */
    double m = 4 * PI / 3 * p.rho * R * R * R, R_eff = R / 2;
    double E_eff = p.E / (2 * (1 - p.nu * p.nu));
    *m_eff = m / 2;
    *t_c = 2.94 * pow(15 * *m_eff / (16 * E_eff * sqrt(R_eff) * sqrt(s->speed)), 0.4);
    if (s->model == GRAINS_CONTACT_LINEAR) {
        p.coeff[COEFF_LINEAR_K_N] = 1.2024 * pow(sqrt(*m_eff) * E_eff * E_eff * R_eff * s->speed, 0.4); /* Eq. 1 */
        *t_c = PI * sqrt(*m_eff / p.coeff[COEFF_LINEAR_K_N]);                                           /* Eq. 7 */
    }
    p.dt = *t_c / s->steps_per_tc;
    return p;
}

/* Two spheres just touching, approaching at `speed`. */
static grains_status collision(const rest_setup *s, grains_sim **sim, double *t_c, double *m_eff, double *k_n,
                               grains_error *err)
{
    grains_params p = collision_params(s, t_c, m_eff);
    *k_n = p.coeff[COEFF_LINEAR_K_N];
    *sim = NULL;
    grains_status st = grains_sim_create(sim, &p, err);
    for (int k = 0; st == GRAINS_OK && k < 2; k++) {
        double side = k ? 1 : -1;
        double y = side * s->offset * R_SPHERE; /* offset * d / 2 */
        double x = side * sqrt(R_SPHERE * R_SPHERE - y * y); /* just touching */
        grains_particle q = {{x, y, 0}, {-side * s->speed / 2, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R_SPHERE, 0, 0};
        st = grains_sim_add_particle(*sim, &q, err);
    }
    return st;
}

grains_status rest_run(const rest_setup *s, double *e, grains_error *err)
{
    const double R = R_SPHERE;
    grains_sim *sim;
    double t_c, m_eff, k_n;
    grains_status st = collision(s, &sim, &t_c, &m_eff, &k_n, err);
    /* until they are apart and moving apart, at most 10 contact times */
    for (long n = 0; st == GRAINS_OK && n < 10 * (long)s->steps_per_tc; n++) {
        st = grains_sim_step(sim, err);
        grains_particle a, b;
        grains_sim_get_particle(sim, 0, &a);
        grains_sim_get_particle(sim, 1, &b);
        *e = (b.v.x - a.v.x) / s->speed;
        if (n > 2 && b.x.x - a.x.x > 2 * R && *e > 0)
            break;
    }
    grains_sim_destroy(sim);
    return st;
}

grains_status oscillator_run(const rest_setup *s, double *max_err, grains_error *err)
{
    grains_sim *sim;
    double t_c, m_eff, k_n;
    grains_status st = collision(s, &sim, &t_c, &m_eff, &k_n, err);
    /* eta_n by Eq. 31; the damped frequency and decay of Eqs. 33-34 */
    double l = log(s->e_n), eta = sqrt(4 * m_eff * k_n / (1 + PI * PI / (l * l)));
    double decay = eta / (2 * m_eff), w_d = sqrt(k_n / m_eff - decay * decay);
    double worst = 0, peak = 0;
    for (long n = 1; st == GRAINS_OK; n++) {
        st = grains_sim_step(sim, err);
        double t = grains_sim_time(sim);
        if (w_d * t >= PI)
            break;
        grains_particle a, b;
        grains_sim_get_particle(sim, 0, &a);
        grains_sim_get_particle(sim, 1, &b);
        double delta = 2 * R_SPHERE - (b.x.x - a.x.x);
        double exact = s->speed / w_d * exp(-decay * t) * sin(w_d * t);
        worst = fmax(worst, fabs(delta - exact));
        peak = fmax(peak, exact);
    }
    *max_err = worst / peak;
    grains_sim_destroy(sim);
    return st;
}

grains_status oblique_run(const rest_setup *s, double K_T[OBLIQUE_SAMPLES], double K_R[OBLIQUE_SAMPLES],
                          grains_error *err)
{
    grains_sim *sim;
    double t_c, m_eff, k_n;
    grains_status st = collision(s, &sim, &t_c, &m_eff, &k_n, err);
    const double m = 2 * m_eff, I = 0.4 * m * R_SPHERE * R_SPHERE, v = s->speed / 2;
    const double K0 = 0.5 * m * v * v;
    const long every = (long)(s->steps_per_tc / 16 + 0.5);
    for (int k = 0; st == GRAINS_OK && k < OBLIQUE_SAMPLES; k++) {
        if (k > 0)
            st = grains_sim_advance(sim, every, err);
        grains_particle q;
        grains_sim_get_particle(sim, 1, &q); /* the right sphere */
        K_T[k] = 0.5 * m * (q.v.x * q.v.x + q.v.y * q.v.y) / K0;
        K_R[k] = 0.5 * I * q.w.z * q.w.z / K0;
    }
    grains_sim_destroy(sim);
    return st;
}
