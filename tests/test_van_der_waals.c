/* Van der Waals attraction (libgran, Hamaker 1937) in the engine:
 * - the force between two spheres, and between a sphere and a plane, follows
 *   Hamaker's formula over four decades of gap, saturates below delta0 and
 *   vanishes beyond the cut-off; the pair forces cancel (momentum);
 * - it acts through the neighbour lists even when the skin is shorter than
 *   the cut-off;
 * - combined with the Hertz contact, a sphere on a wall resists a pull
 *   below the saturated attraction and leaves under a larger one. */
#include "check.h"
#include "core/coeffs.h"
#include "support.h"
#include "validate/validate.h"

/* The relative error of one force is set by one Euler step (x moves by
 * dt^2 F / m, far below the gap) and the central difference (h = 1e-4 gap:
 * O(h^2) = 1e-8): 1e-6 bounds both. */
static void force_law(test_ctx *t, int wall)
{
    vdw_setup s = vdw_default();
    s.wall = wall;
    const double gaps[] = {0.2e-9, 0.4e-9, 1e-9, 3e-9, 10e-9, 39e-9, 41e-9, 1e-6};
    for (size_t k = 0; k < sizeof gaps / sizeof gaps[0]; k++) {
        s.gap = gaps[k];
        vdw_result r;
        grains_error err;
        if (vdw_run(&s, &r, &err) != GRAINS_OK) {
            CHECK(t, 0, "vdw_run: %s", err.message);
            return;
        }
        double want = vdw_expected(&s);
        printf("  %s gap %.3g m: F = %.6g N (Hamaker %.6g N)\n", wall ? "wall" : "pair", s.gap, r.force, want);
        char what[80];
        snprintf(what, sizeof what, "%s attraction at gap %g", wall ? "sphere-wall" : "sphere-sphere", s.gap);
        if (want == 0)
            CHECK(t, r.force == 0, "%s: beyond the cut-off no force, got %g", what, r.force);
        else
            CHECK_REL(t, r.force, want, 1e-6, what);
        if (!wall)
            CHECK(t, fabs(r.momentum) <= 1e-12 * r.impulse, "pair forces cancel: momentum %g of %g", r.momentum,
                  r.impulse);
    }
    /* near contact both laws tend to A R* / (6 s^2) */
    s.gap = 1e-9;
    double R_eff = wall ? s.R_1 : s.R_1 * s.R_2 / (s.R_1 + s.R_2);
    CHECK_REL(t, vdw_expected(&s), s.A * R_eff / (6 * s.gap * s.gap), 1e-3, "near field A R* / (6 s^2)");
}

/* A sphere touching a floor, pulled away by a body force of `factor` times
 * the saturated attraction; returns its final gap. */
static double pull_off(double factor)
{
    vdw_setup s = vdw_default();
    grains_params p = scene_params();
    p.R_min = p.R_max = s.R_1;
    p.rho = 2500, p.E = 1e9;
    p.coeff[COEFF_VDW_A] = s.A, p.coeff[COEFF_VDW_DELTA0] = s.delta0, p.coeff[COEFF_VDW_CUTOFF] = s.cutoff;
    double R = s.R_1;
    double F_sat = 2 * s.A * R * R * R / (3 * pow(s.delta0 * (s.delta0 + 2 * R), 2));
    p.g = (grains_vec3){0, 0, factor * F_sat / mass(&p, R)};
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 10 * R, 0);
    add(sim, (grains_vec3){0, 0, R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    advance(sim, 20000); /* 3e-4 s, about 400 contact times */
    double gap = get(sim, 0).x.z - R;
    grains_sim_destroy(sim);
    return gap;
}

static void adhesion(test_ctx *t)
{
    double held = pull_off(0.9), freed = pull_off(1.1);
    printf("  pull-off: gap under 0.9 F_sat %.3g m, under 1.1 F_sat %.3g m\n", held, freed);
    CHECK(t, held < 0, "a pull of 0.9 F_sat leaves the sphere in contact: gap %g", held);
    CHECK(t, freed > 1e-6, "a pull of 1.1 F_sat tears the sphere off: gap %g", freed);
}

int main(void)
{
    test_ctx t = {0, 0};
    force_law(&t, 0);
    force_law(&t, 1);
    adhesion(&t);
    return test_report(&t, "test_van_der_waals");
}
