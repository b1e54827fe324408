/* The friction test of the membrane paper (Section 3.2, Fig. 6) and the
 * guide it needs (grains_sim_guide). Each test states the physical fact it
 * checks:
 * - a guided sphere on a rigid floor, pushed sideways by gravity too, moves
 *   across the axis at exactly the set velocity (x = x0 + v t to round-off),
 *   never spins, and once sliding feels Coulomb's force: |f_t| = mu f_n;
 * - dragged at 0.05 m/s across a membrane of patches of side 1.33 mm (every
 *   vertex pinned, as the paper's flat membrane), a sphere of radius 2 mm
 *   slides as on a plane: the friction force is mu F_n to 1% and its height
 *   constant, while across the same membrane of vertex spheres (MSS_particle)
 *   both oscillate;
 * - the same bits on 1 and 2 threads;
 * - a guide that cannot be kept is refused: a velocity along the axis, a
 *   zero axis, a particle that does not exist, an implicit integrator; and
 *   relaxation of a run with a guided particle. */
#include <float.h>
#include <math.h>

#include "check.h"
#include "validate/validate.h"
#include "support.h"

#define SPEED 0.05

/* What a drag on the floor saw: fx / (mu fz) from step `from` on, and
 * from the start the track and the spin. */
typedef struct {
    double ratio_min, ratio_max;
    double x_err;         /* largest |x - x0 - v t| + |y - y0| */
    double w_max;         /* largest |w| */
    grains_particle last;
} drag_stats;

static grains_params drag_params(int threads)
{
    grains_params p = scene_params();
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.R_min = p.R_max = 0.002;
    p.rho = 2500, p.E = 1e7, p.nu = 0.3, p.e_n = 0.5;
    p.mu_s = 0.5, p.mu_r = 0, p.mu_t = 0;
    p.mesh_material = 0;
    p.g = (grains_vec3){0, 0, -9.81};
    p.threads = threads;
    p.dt = 1e-5;  /* the contact's period is 2.2 ms */
    return p;
}

static void guide(grains_sim *sim, grains_vec3 velocity)
{
    grains_guide g = {0, velocity, {0, 0, 1}};
    grains_error err;
    if (grains_sim_guide(sim, &g, &err) != GRAINS_OK) {
        fprintf(stderr, "guide: %s\n", err.message);
        exit(1);
    }
}

/* Steps the guided sphere 0 for `steps`, sampling from step `from` on. */
static drag_stats drag(grains_sim *sim, long steps, long from, double mu)
{
    drag_stats d = {INFINITY, -INFINITY, 0, 0, get(sim, 0)};
    const grains_particle p0 = get(sim, 0);
    const double dt = grains_sim_params(sim)->dt;
    for (long k = 1; k <= steps; k++) {
        step(sim);
        grains_particle p = get(sim, 0);
        d.x_err = nan_max(d.x_err, fabs(p.x.x - (p0.x.x + p0.v.x * dt * (double)k)) + fabs(p.x.y - p0.x.y));
        d.w_max = nan_max(d.w_max, fabs(p.w.x) + fabs(p.w.y) + fabs(p.w.z));
        d.last = p;
        if (k < from)
            continue;
        grains_vec3 f = grains_sim_guide_force(sim);
        double ratio = -f.x / (mu * f.z);
        d.ratio_min = nan_min(d.ratio_min, ratio), d.ratio_max = nan_max(d.ratio_max, ratio);
    }
    return d;
}

static void guided_on_floor(test_ctx *t)
{
    grains_params p = drag_params(1);
    p.g = (grains_vec3){2.0, -1.0, -9.81}; /* the guide holds it against the sideways pull too */
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    add(sim, (grains_vec3){0, 0, 0.002}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 30, 0}, 0.002);
    guide(sim, (grains_vec3){SPEED, 0, 0});
    drag_stats d = drag(sim, 20000, 10000, p.mu_s);
    printf("  guided on a rigid floor: x off v t by %.2g m, |w| at most %.2g, f_t / (mu f_n) %.15g to %.15g\n",
           d.x_err, d.w_max, d.ratio_min, d.ratio_max);
    /* x advances by v dt each step: a rounding of x's last bit per step */
    CHECK(t, d.x_err < 20000 * DBL_EPSILON * fabs(d.last.x.x) && d.w_max == 0,
          "the guide holds the velocity across the axis and the spin");
    CHECK(t, fabs(d.ratio_min - 1) < 1e-12 && fabs(d.ratio_max - 1) < 1e-12,
          "a sphere sliding on a rigid floor feels mu f_n (Coulomb)");
    grains_sim_destroy(sim);
}

/* The friction test of grains/validate.h (mf_run): 6 mm of drag, sampled
 * after 2 mm. */
static mf_result friction_test(double vertex_radius, int threads, double length)
{
    mf_setup s = {vertex_radius, length, threads};
    mf_result r;
    grains_error err;
    if (mf_run(&s, &r, &err) != GRAINS_OK) {
        fprintf(stderr, "friction test: %s\n", err.message);
        exit(1);
    }
    return r;
}

static void friction(test_ctx *t)
{
    mf_result patch = friction_test(0, 1, 0.006), particle = friction_test(8.33e-4, 1, 0.006);
    printf("  patches: fx / (mu F_n) mean %.15g, %.15g to %.15g; z %.9g to %.9g m (%.2g m apart)\n", patch.ratio,
           patch.ratio_min, patch.ratio_max, patch.z_min, patch.z_max, patch.z_max - patch.z_min);
    printf("  vertex spheres: fx / (mu F_n) mean %.6g, %.6g to %.6g; fx %.4g to %.4g N; z %.6g to %.6g m (%.3g m "
           "apart); off the sheet %.0f%% of the steps\n",
           particle.ratio, particle.ratio_min, particle.ratio_max, particle.fx_min, particle.fx_max, particle.z_min,
           particle.z_max, particle.z_max - particle.z_min, 100 * particle.off);
    CHECK(t, patch.ratio_min > 0.99 && patch.ratio_max < 1.01, "on patches the friction force is mu F_n to 1%%");
    /* the overlap is about 4.6 um: its steady value to 1e-3 */
    CHECK(t, patch.z_max - patch.z_min < 4.6e-9 && patch.off == 0, "on patches the height is constant");
    /* 24,000 steps, each x += v dt rounded */
    CHECK(t, patch.x_err < 24000 * DBL_EPSILON * fabs(patch.last.x.x) && patch.w_max == 0,
          "the sphere keeps to its track without spinning (%.2g m off)", patch.x_err);
    CHECK(t, particle.z_max - particle.z_min > 1e-5 && particle.fx_max - particle.fx_min > particle.mu * particle.fz_mean,
          "on vertex spheres height and friction oscillate");
    mf_result one = friction_test(0, 1, 0.003), two = friction_test(0, 2, 0.003);
    CHECK(t, same_particle(one.last, two.last), "the same bits on 1 and 2 threads");
}

static void refuses(test_ctx *t)
{
    grains_params p = drag_params(1);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0.002}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.002);
    grains_error err;
    const grains_guide bad[] = {{0, {SPEED, 0, 0.01}, {0, 0, 1}}, {0, {SPEED, 0, 0}, {0, 0, 0}},
                                {1, {SPEED, 0, 0}, {0, 0, 1}}, {0, {NAN, 0, 0}, {0, 0, 1}}};
    const char *what[] = {"a velocity along the axis", "a zero axis", "a particle that does not exist",
                          "a velocity that is not finite"};
    for (int k = 0; k < 4; k++)
        CHECK(t, grains_sim_guide(sim, &bad[k], &err) == GRAINS_ERR_RANGE, "%s is refused (%s)", what[k],
              err.message);
    grains_relax_result rr;
    CHECK(t, grains_sim_guide(sim, &(grains_guide){0, {SPEED, 0, 0}, {0, 0, 1}}, &err) == GRAINS_OK &&
                 grains_sim_relax(sim, 1e-3, 10, &rr, &err) == GRAINS_ERR_RANGE,
          "relaxation, which would stop the guided particle, is refused (%s)", err.message);
    grains_sim_destroy(sim);
    p.integrator = GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT;
    p.mu_s = 0; /* its only condition */
    sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0.002}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.002);
    CHECK(t, grains_sim_guide(sim, &(grains_guide){0, {SPEED, 0, 0}, {0, 0, 1}}, &err) == GRAINS_ERR_RANGE,
          "an implicit integrator is refused (%s)", err.message);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    guided_on_floor(&t);
    friction(&t);
    refuses(&t);
    return test_report(&t, "test_membrane_friction");
}
