/* Impact with a bonded pair (variational-integrator paper, Section 3.3,
 * Fig. 10): a bonded pair of equal spheres, moving together, hits a third
 * one head-on. Bond and contact are linear springs of different stiffness
 * (two time scales), undamped. The reference is the three-body problem on
 * the line, m x0'' = -F_b, m x1'' = F_b - F_c, m x2'' = F_c, with F_b =
 * k_B delta_01 (pulling too) and F_c = k max(delta_12, 0), integrated by
 * RK4 with a step far below the engine's. */
#include <math.h>

#include "core/coeffs.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846
#define R_BP 1e-3     /* [m] radius */
#define RHO_BP 2500.0 /* [kg/m^3] */
#define K_BP 1e4      /* [N/m] contact stiffness */

bp_setup bp_default(grains_integrator integrator)
{
    bp_setup s = {integrator, 0.25, 200, 0.1, 3};
    return s;
}

static double bp_mass(void) { return 4 * PI / 3 * RHO_BP * R_BP * R_BP * R_BP; }

double bp_contact_time(void) { return PI * sqrt(bp_mass() / 2 / K_BP); } /* Eq. 7, m* = m / 2 */

double bp_bond_period(const bp_setup *s) { return 2 * PI / sqrt(2 * s->k_ratio * K_BP / bp_mass()); }

/* --- the reference ---------------------------------------------------- */

typedef struct {
    double x[3], v[3];
} line_state;

static void line_forces(const bp_setup *s, const line_state *q, double *F_b, double *F_c)
{
    *F_b = s->k_ratio * K_BP * (2 * R_BP - (q->x[1] - q->x[0]));
    *F_c = fmax(K_BP * (2 * R_BP - (q->x[2] - q->x[1])), 0);
}

static line_state line_rate(const bp_setup *s, const line_state *q)
{
    double F_b, F_c, m = bp_mass();
    line_forces(s, q, &F_b, &F_c);
    line_state r = {{q->v[0], q->v[1], q->v[2]}, {-F_b / m, (F_b - F_c) / m, F_c / m}};
    return r;
}

static line_state line_add(const line_state *a, double h, const line_state *b)
{
    line_state r;
    for (int k = 0; k < 3; k++)
        r.x[k] = a->x[k] + h * b->x[k], r.v[k] = a->v[k] + h * b->v[k];
    return r;
}

static void rk4(const bp_setup *s, line_state *q, double h)
{
    line_state k1 = line_rate(s, q), t = line_add(q, h / 2, &k1);
    line_state k2 = line_rate(s, &t);
    t = line_add(q, h / 2, &k2);
    line_state k3 = line_rate(s, &t);
    t = line_add(q, h, &k3);
    line_state k4 = line_rate(s, &t);
    for (int k = 0; k < 3; k++) {
        q->x[k] += h / 6 * (k1.x[k] + 2 * k2.x[k] + 2 * k3.x[k] + k4.x[k]);
        q->v[k] += h / 6 * (k1.v[k] + 2 * k2.v[k] + 2 * k3.v[k] + k4.v[k]);
    }
}

/* --- the engine ------------------------------------------------------- */

static grains_params bp_params(const bp_setup *s, double dt)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = R_BP;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.rho = RHO_BP;
    p.e_n = 1, p.mu_s = 0.5, p.mu_r = 0, p.mu_t = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = K_BP;
    p.bond_kn = s->k_ratio * K_BP;
    p.bond_tolerance = 0.01; /* the paper: |delta| < d / 100 */
    p.integrator = s->integrator;
    p.dt = dt;
    p.g = (grains_vec3){0, 0, 0};
    p.N_max = 0, p.N_spawn = 0;
    p.threads = 1;
    return p;
}

/* Particles 0 and 1 touch (the pair, moving at +speed); 2 moves at
 * -speed, d/20 from 1: beyond the d/100 that bonds. */
static line_state bp_start(const bp_setup *s)
{
    line_state q = {{-3 * R_BP, -R_BP, 1.1 * R_BP}, {s->speed, s->speed, -s->speed}};
    return q;
}

static double energy(const bp_setup *s, const line_state *q)
{
    double m = bp_mass(), F_b, F_c, K = 0;
    line_forces(s, q, &F_b, &F_c);
    for (int k = 0; k < 3; k++)
        K += 0.5 * m * q->v[k] * q->v[k];
    return K + F_b * F_b / (2 * s->k_ratio * K_BP) + F_c * F_c / (2 * K_BP);
}

static line_state engine_state(const grains_sim *sim)
{
    line_state q;
    for (int k = 0; k < 3; k++) {
        grains_particle p;
        grains_sim_get_particle(sim, (size_t)k, &p);
        q.x[k] = p.x.x, q.v[k] = p.v.x;
    }
    return q;
}

/* Compares one step's forces with the reference's and notes the bond's
 * zero crossings after the contact has ended (for the period). */
static void compare(const bp_setup *s, const grains_sim *sim, const line_state *before, const line_state *ref,
                    bp_result *out, double *last_b, double *first_cross, int *crossings)
{
    line_state q = engine_state(sim);
    double F_b, F_c, G_b, G_c, B_b, B_c, t = grains_sim_time(sim);
    line_forces(s, &q, &F_b, &F_c);
    line_forces(s, ref, &G_b, &G_c);
    /* the force a step reports is that of the positions it used: before
     * the step (Euler) or after the drift, where it ends (Verlet) */
    line_forces(s, before, &B_b, &B_c);
    grains_bond bond;
    grains_sim_get_bond(sim, 0, &bond);
    out->broken |= bond.broken;
    double reported = s->integrator == GRAINS_INTEGRATOR_EULER ? B_b : F_b;
    out->bond_force_err = fmax(out->bond_force_err, fabs(bond.force - fabs(reported)));
    out->err_contact = fmax(out->err_contact, fabs(F_c - G_c));
    out->err_bond = fmax(out->err_bond, fabs(F_b - G_b));
    out->peak_contact = fmax(out->peak_contact, G_c);
    out->peak_bond = fmax(out->peak_bond, fabs(G_b));
    if (F_c == 0 && out->peak_contact > 0 && *last_b * F_b < 0) { /* a crossing, interpolated */
        double tc = t - grains_sim_params(sim)->dt * F_b / (F_b - *last_b);
        if (*crossings == 0)
            *first_cross = tc;
        out->period = 2 * (tc - *first_cross) / (*crossings ? *crossings : 1);
        (*crossings)++;
    }
    *last_b = F_b;
}

grains_status bp_run(const bp_setup *s, bp_result *out, grains_error *err)
{
    double t_c = bp_contact_time(), dt = t_c / s->steps_per_tc;
    double t_end = 0.1 * R_BP / (2 * s->speed) + t_c + s->periods * bp_bond_period(s);
    *out = (bp_result){0};
    grains_params p = bp_params(s, dt);
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    line_state ref = bp_start(s);
    for (int k = 0; st == GRAINS_OK && k < 3; k++) {
        grains_particle q = {{ref.x[k], 0, 0}, {ref.v[k], 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R_BP, 0, 0};
        st = grains_sim_add_particle(sim, &q, err);
    }
    const int sub = 100; /* reference steps per engine step */
    double E0 = energy(s, &ref), P0 = bp_mass() * (ref.v[0] + ref.v[1] + ref.v[2]), last_b = 0, first = 0;
    int crossings = 0;
    while (st == GRAINS_OK && grains_sim_time(sim) < t_end) {
        line_state before = engine_state(sim);
        st = grains_sim_step(sim, err);
        for (int k = 0; k < sub; k++)
            rk4(s, &ref, dt / sub);
        if (st == GRAINS_OK)
            compare(s, sim, &before, &ref, out, &last_b, &first, &crossings);
    }
    if (st == GRAINS_OK) {
        out->bonds = grains_sim_bond_count(sim);
        line_state q = engine_state(sim);
        out->energy_drift = energy(s, &q) / E0 - 1;
        out->momentum = bp_mass() * (q.v[0] + q.v[1] + q.v[2]) - P0;
        out->err_contact /= out->peak_contact;
        out->err_bond /= out->peak_contact;
        out->bond_force_err /= out->peak_contact;
        out->pair_speed = (q.v[0] + q.v[1]) / 2;
        out->ref_pair_speed = (ref.v[0] + ref.v[1]) / 2;
    }
    grains_sim_destroy(sim);
    return st;
}
