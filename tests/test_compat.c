/* The default conventions are the physically correct ones, and compat =
 * "tinydem" restores the printed paper's (docs/model.md, "grains and
 * TinyDEM"):
 * - orientation: a sphere spinning freely at a constant world-frame w turns
 *   about w, whatever its orientation, so q(T) = exp(w T / 2) q(0) exactly
 *   (SPIRAL is exact for constant w); the printed Eq. 46 turns it about
 *   q* w q instead;
 * - friction order: two spheres that collide head-on while counter-spinning
 *   leave with the spin that the converged solution gives; the spring
 *   incremented after the force (forward Euler) misses it by O(dt / t_c). */
#include "check.h"
#include "math/quat.h"
#include "support.h"

#define PI 3.14159265358979323846

static const char *const integrator_names[] = {"euler", "verlet", "verlet_improved"};

/* A free sphere turned 90 degrees about z, spinning at 1 rad/s about world x
 * for a quarter turn. */
static grains_quat free_spin(grains_integrator integrator, grains_compat compat)
{
    grains_params p = scene_params();
    p.integrator = integrator;
    p.compat = compat;
    p.dt = PI / 2 / 1000;
    grains_sim *sim = scene(&p);
    grains_particle s = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {cos(PI / 4), 0, 0, sin(PI / 4)}, 0.01, 0, 0};
    grains_error err;
    grains_sim_add_particle(sim, &s, &err);
    grains_sim_advance(sim, 1000, &err);
    grains_quat q = get(sim, 0).q;
    grains_sim_destroy(sim);
    return q;
}

static double quat_distance(grains_quat a, grains_quat b)
{
    double d = fabs(a.q0 - b.q0) + fabs(a.q1 - b.q1) + fabs(a.q2 - b.q2) + fabs(a.q3 - b.q3);
    double e = fabs(a.q0 + b.q0) + fabs(a.q1 + b.q1) + fabs(a.q2 + b.q2) + fabs(a.q3 + b.q3);
    return nan_min(d, e); /* q and -q are one rotation */
}

static void orientation(test_ctx *t)
{
    grains_quat q0 = {cos(PI / 4), 0, 0, sin(PI / 4)}, turn = {cos(PI / 4), sin(PI / 4), 0, 0};
    grains_quat world = quat_mul(turn, q0), body = quat_mul(q0, turn);
    for (int k = 0; k < 3; k++) {
        grains_quat q = free_spin((grains_integrator)k, GRAINS_COMPAT_NONE);
        /* 1000 products of unit quaternions: round-off grows as sqrt(1000) eps */
        CHECK(t, quat_distance(q, world) < 1e-13, "%s: q(T) = (%g %g %g %g), want exp(wT/2) q0 (distance %.3g)",
              integrator_names[k], q.q0, q.q1, q.q2, q.q3, quat_distance(q, world));
        grains_quat c = free_spin((grains_integrator)k, GRAINS_COMPAT_TINYDEM);
        CHECK(t, quat_distance(c, body) < 1e-13, "%s compat: q(T) = q0 exp(wT/2) as printed (distance %.3g)",
              integrator_names[k], quat_distance(c, body));
    }
    printf("  free spin, q0 = 90 deg about z, w = x, quarter turn: printed Eq. 46 ends %.3f away from exp(wT/2) q0\n",
           quat_distance(body, world));
}

/* The spin of the left sphere after a head-on collision at 0.2 m/s of two
 * alumina-like spheres (R 0.1 m, e_n = 1) spinning at +-10 rad/s about y:
 * their surfaces meet at equal speed, so only rolling friction acts. */
static double counter_spin(grains_compat compat, double dt_scale)
{
    grains_params p = scene_params();
    p.compat = compat;
    p.rho = 2700, p.E = 7e10, p.nu = 0.33, p.e_n = 1, p.mu_s = 0.4, p.mu_r = 0.3, p.mu_t = 0.2;
    const double R = 0.1;
    p.R_min = p.R_max = R;
    p.dt = dt_scale * grains_params_default_dt(&p);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){-R - 1e-6, 0, 0}, (grains_vec3){0.2, 0, 0}, (grains_vec3){0, 10, 0}, R);
    add(sim, (grains_vec3){R + 1e-6, 0, 0}, (grains_vec3){-0.2, 0, 0}, (grains_vec3){0, -10, 0}, R);
    grains_error err;
    grains_thermo th;
    int touched = 0;
    for (long steps = 0; steps < 10000000; steps++) { /* until the spheres have met and parted */
        grains_sim_step(sim, &err);
        grains_sim_thermo(sim, &th);
        touched |= th.n_contacts > 0;
        if (touched && th.n_contacts == 0)
            break;
    }
    double w = get(sim, 0).w.y;
    grains_sim_destroy(sim);
    return w;
}

/* The rebound spin at Eq. 49's dt (about 40 steps of contact) against the
 * converged one (dt / 400, where both orders agree to 1e-4). */
static void friction_order(test_ctx *t)
{
    double exact = counter_spin(GRAINS_COMPAT_NONE, 1.0 / 400);
    double correct = counter_spin(GRAINS_COMPAT_NONE, 1), printed = counter_spin(GRAINS_COMPAT_TINYDEM, 1);
    printf("  counter-spinning head-on impact: rebound spin %.6f (converged), %.6f (default), %.6f (tinydem) rad/s\n",
           exact, correct, printed);
    /* Incrementing first makes the spring second order: error O((dt/t_c)^2) */
    CHECK_REL(t, correct, exact, 1e-4, "default order: rebound spin");
    double err_printed = fabs(printed - exact) / exact;
    CHECK(t, err_printed > 1e-3, "compat = tinydem keeps the printed order's first-order error (%.3g)", err_printed);
}

int main(void)
{
    test_ctx t = {0, 0};
    orientation(&t);
    friction_order(&t);
    return test_report(&t, "test_compat");
}
