/* The three-particle test of the improved-velocity-Verlet paper (Section 2,
 * Figures 1-5, Appendix 1): the rigid-body solution and the same case run
 * in the engine. */
#include <math.h>

#include "core/coeffs.h"
#include "grains/mesh.h"
#include "grains/sim.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846
#define G 9.81
#define RHO 2500.0
#define YOUNG 72e9
#define POISSON 0.3

tp_setup tp_default(grains_integrator integrator)
{
    tp_setup s = {2e-3, 7, 0.6, 5 * PI / 180, 50, 0.2, integrator};
    return s;
}

double tp_critical_ratio(double mu) { return 1 / (sqrt(1 + mu * mu) - 1); } /* Eq. 22 */

/* Geometry of the valley: cos(alpha) = R / (R + r) (Eq. 35); the fine
 * centre moves on a circle of radius rho = (R + r) sin(alpha) about the axis. */
typedef struct {
    double r, sin_a, rho;
} valley;

static valley valley_of(const tp_setup *s)
{
    valley v;
    v.r = s->R / s->ratio;
    double cos_a = s->R / (s->R + v.r);
    v.sin_a = sqrt(1 - cos_a * cos_a);
    v.rho = (s->R + v.r) * v.sin_a;
    return v;
}

/* Rolling (Eqs. 36-39): dv/dt = g sin(theta) 5 sin^2(a) / (5 sin^2(a) + 2). */
static double rolling_accel(const valley *vl, double theta)
{
    double s2 = vl->sin_a * vl->sin_a;
    return G * sin(theta) * 5 * s2 / (5 * s2 + 2);
}

/* Eq. 39: the rolling speed of the centre at theta from rest at theta0. */
static double rolling_speed(const tp_setup *s, const valley *vl, double theta)
{
    double s2 = vl->sin_a * vl->sin_a;
    double v2 = 10 * G * vl->rho * s2 * (cos(s->theta0) - cos(theta)) / (5 * s2 + 2);
    return v2 > 0 ? sqrt(v2) : 0;
}

void tp_rigid(const tp_setup *s, tp_result *out)
{
    valley vl = valley_of(s);
    const double h = 1e-7;
    double theta = s->theta0, v = 0, omega = 0, t = 0;
    int sliding = 0;
    double theta_slide = 0;
    for (;;) {
        double N = G * cos(theta) - v * v / vl.rho; /* Eq. 43, per unit mass */
        if (N <= 0)
            break;
        double a;
        if (!sliding) {
            a = rolling_accel(&vl, theta);
            double friction = 0.4 * a / (vl.sin_a * vl.sin_a); /* Eq. 40: I domega/dt / (r sin a), per unit mass */
            if (friction > s->mu * N / vl.sin_a) {              /* Eq. 44: mu on each contact's normal force */
                sliding = 1;
                theta_slide = theta;
            }
        }
        if (sliding) {
            a = G * sin(theta) - s->mu * N / vl.sin_a;          /* Eq. 45 */
            omega += h * 2.5 * s->mu * N / vl.r;                /* torque mu N r, I = 2/5 m r^2 */
        } else {
            omega = v / (vl.r * vl.sin_a);                      /* Eq. 34 */
        }
        v += h * a; /* semi-implicit Euler with h = 0.1 us: far below the figures' resolution */
        theta += h * v / vl.rho;
        t += h;
    }
    *out = (tp_result){1, theta, omega, t, theta, 0, 0, theta_slide, 0};
}

/* Eq. 1 for the fine-large pair at V0 = sqrt(2 g R). */
static double stiffness(const tp_setup *s, const valley *vl, double *m_eff)
{
    double m_f = 4 * PI / 3 * RHO * pow(vl->r, 3), m_l = 4 * PI / 3 * RHO * pow(s->R, 3);
    *m_eff = m_f * m_l / (m_f + m_l);                          /* Eq. 2 */
    double R_eff = s->R * vl->r / (s->R + vl->r);              /* Eq. 3 */
    double E_eff = YOUNG / (2 * (1 - POISSON * POISSON));      /* Eq. 4 */
    double V0 = sqrt(2 * G * s->R);
    return 1.2024 * pow(sqrt(*m_eff) * E_eff * E_eff * R_eff * V0, 0.4);
}

static grains_params tp_params(const tp_setup *s, const valley *vl, double k_n, double dt)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = vl->r;
    p.R_mesh[0] = s->R;
    p.n_mesh_radii = 1;
    p.rho = RHO, p.E = YOUNG, p.nu = POISSON, p.e_n = 0.8;
    p.mu_s = s->mu, p.mu_r = 0, p.mu_t = 0, p.eta = 0; /* no rolling or twisting friction (Section 2) */
    p.g = (grains_vec3){0, 0, -G};
    p.N_max = 0, p.N_spawn = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = k_n;
    p.integrator = s->integrator;
    p.dt = dt;
    p.threads = 1;
    return p;
}

/* The two large spheres, touching at the origin, axis along y. */
static grains_status large_spheres(grains_sim *sim, double R, grains_error *err)
{
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    for (int k = 0; st == GRAINS_OK && k < 2; k++) {
        uint32_t v = (uint32_t)k;
        st = grains_mesh_add_vertex(m, (grains_vec3){0, k ? R : -R, 0}, err);
        if (st == GRAINS_OK)
            st = grains_mesh_add_element(m, 1, &v, 0, R, err);
    }
    if (st == GRAINS_OK)
        st = grains_sim_set_mesh(sim, m, err);
    grains_mesh_destroy(m);
    return st;
}

static int touching(const grains_particle *p, double R)
{
    for (int k = 0; k < 2; k++) {
        double dy = p->x.y - (k ? R : -R);
        if (p->x.x * p->x.x + dy * dy + p->x.z * p->x.z < (R + p->R) * (R + p->R))
            return 1;
    }
    return 0;
}

/* Follows the fine sphere until it has been apart from both large ones for
 * 1 ms (it falls freely then, nothing can catch it) or t_end. */
static grains_status follow(grains_sim *sim, const tp_setup *s, const valley *vl, tp_result *out, grains_error *err)
{
    tp_result rigid;
    tp_rigid(s, &rigid);
    double apart_since = -1, t = 0;
    int touched = 0;
    out->omega_err = 0;
    while (t < s->t_end && !(apart_since >= 0 && t - apart_since > 1e-3)) {
        grains_status st = grains_sim_step(sim, err);
        if (st != GRAINS_OK)
            return st;
        t = grains_sim_time(sim);
        grains_particle p;
        grains_sim_get_particle(sim, 0, &p);
        double theta = atan2(p.x.x, p.x.z), omega = fabs(p.w.y);
        if (touching(&p, s->R)) {
            touched = 1;
            apart_since = -1;
            out->theta_sep = theta, out->omega_sep = omega, out->t_sep = t;
            /* pure rolling (Eq. 34) on the way down, clear of the start */
            if (theta > s->theta0 + 10 * PI / 180 && theta < rigid.theta_slide && theta >= out->theta_max) {
                double w_rigid = rolling_speed(s, vl, theta) / (vl->r * vl->sin_a);
                out->omega_err = fmax(out->omega_err, fabs(omega - w_rigid) / w_rigid);
            }
            out->theta_max = fmax(out->theta_max, theta);
        } else if (touched && apart_since < 0) {
            apart_since = t;
        }
    }
    out->separated = touched && apart_since >= 0;
    return GRAINS_OK;
}

grains_status tp_run(const tp_setup *s, tp_result *out, grains_error *err)
{
    valley vl = valley_of(s);
    double m_eff, k_n = stiffness(s, &vl, &m_eff);
    double dt = PI * sqrt(m_eff / k_n) / s->steps_per_tc; /* Eq. 7 */
    *out = (tp_result){0, 0, 0, 0, 0, dt, k_n, 0, 0};
    grains_params p = tp_params(s, &vl, k_n, dt);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = large_spheres(sim, s->R, err);
    if (st == GRAINS_OK) {
        double ct = cos(s->theta0), st0 = sin(s->theta0);
        grains_particle fine = {{vl.rho * st0, 0, vl.rho * ct}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, vl.r, 0, 0};
        st = grains_sim_add_particle(sim, &fine, err);
    }
    if (st == GRAINS_OK)
        st = follow(sim, s, &vl, out, err);
    grains_sim_destroy(sim);
    return st;
}
