/* A sphere bouncing between two parallel walls 1.01 d apart, undamped,
 * linear spring (variational-integrator paper Section 3.2, Fig. 9): the
 * total energy, kinetic plus the contact's k_n delta^2 / 2, over many
 * collisions. No force is lost in exact arithmetic, so any change is the
 * integrator's. */
#include <math.h>

#include "core/coeffs.h"
#include "grains/sim.h"
#include "validate/validate.h"

#define PI 3.14159265358979323846

#define R_SPHERE 1e-3
#define GAP (0.02 * R_SPHERE) /* walls 1.01 d apart */
#define SPEED 0.1
#define T_C 1e-4              /* contact time with a wall, Eq. 7 with m* = m */

static grains_params bounce_params(const bounce_setup *s, double m)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = p.R_max = R_SPHERE;
    p.n_mesh_radii = 1, p.R_mesh[0] = 0;
    p.e_n = 1, p.mu_s = p.mu_r = p.mu_t = 0;
    p.g = (grains_vec3){0, 0, 0};
    p.N_max = 0, p.N_spawn = 0;
    p.contact_model = GRAINS_CONTACT_LINEAR;
    p.coeff[COEFF_LINEAR_K_N] = m * PI * PI / (T_C * T_C); /* Eq. 7 */
    p.integrator = s->integrator;
    p.dt = T_C / s->steps_per_tc;
    p.threads = 1;
    return p;
}

/* Kinetic energy plus the spring energy of the overlaps with both walls. */
static double energy(const grains_particle *q, double m, double k_n)
{
    double I = 0.4 * m * R_SPHERE * R_SPHERE;
    double d_lo = fmax(0, R_SPHERE - q->x.x), d_hi = fmax(0, q->x.x + R_SPHERE - (2 * R_SPHERE + GAP));
    return 0.5 * m * (q->v.x * q->v.x + q->v.y * q->v.y + q->v.z * q->v.z) +
           0.5 * I * (q->w.x * q->w.x + q->w.y * q->w.y + q->w.z * q->w.z) + 0.5 * k_n * (d_lo * d_lo + d_hi * d_hi);
}

grains_status bounce_run(const bounce_setup *s, bounce_result *out, grains_error *err)
{
    const double m = 4 * PI / 3 * 1000 * pow(R_SPHERE, 3);
    grains_params p = bounce_params(s, m);
    p.rho = 1000;
    grains_sim *sim = NULL;
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = validate_x_walls(sim, (const double[2]){0, 2 * R_SPHERE + GAP}, 2, 10 * R_SPHERE, err);
    grains_particle q = {{R_SPHERE + GAP / 2, 0, 0}, {SPEED, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R_SPHERE, 0, 0};
    if (st == GRAINS_OK)
        st = grains_sim_add_particle(sim, &q, err);
    const double E0 = 0.5 * m * SPEED * SPEED;
    int touching = 0;
    out->collisions = 0, out->max_dev = 0, out->drift = 0;
    while (st == GRAINS_OK && out->collisions < s->collisions) {
        st = grains_sim_step(sim, err);
        grains_sim_get_particle(sim, 0, &q);
        double E = energy(&q, m, p.coeff[COEFF_LINEAR_K_N]);
        out->max_dev = fmax(out->max_dev, fabs(E / E0 - 1));
        int now = q.x.x < R_SPHERE || q.x.x > R_SPHERE + GAP;
        if (touching && !now) { /* a collision has ended: energy is all kinetic again */
            out->collisions++;
            out->drift = E / E0 - 1;
        }
        touching = now;
    }
    grains_sim_destroy(sim);
    return st;
}
