/* A head-on impact with the linear spring-dashpot is a damped harmonic
 * oscillator of the overlap (variational-integrator paper, Section 3.1,
 * Eqs. 33-34): m* delta'' = -k_n delta - eta_n delta'. Physical facts checked,
 * for every integrator:
 * - the overlap follows the analytic solution over the whole contact, to
 *   1% of the largest overlap at h = t_c/160 (the paper's fine step);
 * - the error falls at least linearly with h (the damping force sees the
 *   velocity half a step late in every scheme: first order), from t_c/16;
 * - with e_n = 1 the impact is elastic and the error falls quadratically
 *   (velocity Verlet is second order without velocity-dependent forces).
 * The oblique impact (offset 0.1 d, mu = 0.5, e_n = 0.9; the paper's
 * Figs. 6-7): the kinetic energy curves of one sphere at h = t_c/16 and
 * t_c/160 approach the converged curve (h = t_c/1600, same integrator), at
 * least linearly in h (against a reference with its own error 1/10 of the
 * fine step's: an 11-fold fall for first order), K_T within 1% of K0 and K_R
 * within 10% of its peak at t_c/160 (measured: Verlet 0.13% and 0.45%,
 * Euler 0.78% and 4.3%, its friction order being first order). K_R is
 * allowed a 5-fold fall: the switch from sticking to sliding lands on the
 * step grid, an O(h) error with a phase that varies with h (measured
 * 7.1-fold, K_T 17-fold). Friction leaves the sphere spinning, and it keeps
 * less energy than it had.
 * The variational integrators (variational-integrator paper Section 2) run
 * the same cases, the oblique one frictionless (they need a potential): no
 * torque acts, the spheres never spin (K_R = 0 exactly), and their K_T
 * curves converge as the others'. */
#include "check.h"
#include "validate/validate.h"

static double curve_error(const double *a, const double *ref)
{
    double e = 0;
    for (int k = 0; k < OBLIQUE_SAMPLES; k++)
        e = nan_max(e, fabs(a[k] - ref[k]));
    return e;
}

static void oblique(test_ctx *t, grains_integrator integrator, const char *name)
{
    const double steps[3] = {16, 160, 1600};
    const int frictionless = grains_integrator_variational(integrator);
    double K_T[3][OBLIQUE_SAMPLES], K_R[3][OBLIQUE_SAMPLES];
    for (int k = 0; k < 3; k++) {
        rest_setup s = {GRAINS_CONTACT_LINEAR, GRAINS_DAMPING_BY_MODEL, integrator, 0.9, 0.1, steps[k], 0.1,
                        frictionless ? 0 : 0.5};
        grains_error e;
        if (oblique_run(&s, K_T[k], K_R[k], &e) != GRAINS_OK) {
            CHECK(t, 0, "%s: oblique_run: %s", name, e.message);
            return;
        }
    }
    double peak = 0;
    for (int k = 0; k < OBLIQUE_SAMPLES; k++)
        peak = nan_max(peak, K_R[2][k]);
    double eT[2], eR[2];
    for (int k = 0; k < 2; k++) {
        eT[k] = curve_error(K_T[k], K_T[2]);
        eR[k] = frictionless ? 0 : curve_error(K_R[k], K_R[2]) / peak;
    }
    if (frictionless) {
        printf("  oblique, frictionless, %s: K_T error %.3g (t_c/16), %.3g (t_c/160) of K0; largest K_R %g\n", name,
               eT[0], eT[1], peak);
        CHECK(t, peak == 0, "%s: no friction, no spin: K_R %g", name, peak);
        CHECK(t, eT[1] < 0.01 && eT[0] / eT[1] > 8, "%s: K_T curve converges: %.3g at t_c/160, %.3g-fold fall",
              name, eT[1], eT[0] / eT[1]);
        return;
    }
    const int end = OBLIQUE_SAMPLES - 1;
    printf("  oblique, %s: K_T error %.3g (t_c/16), %.3g (t_c/160) of K0; K_R error %.3g, %.3g of its peak;"
           " after: K_T %.4f, K_R %.5f\n", name, eT[0], eT[1], eR[0], eR[1], K_T[2][end], K_R[2][end]);
    CHECK(t, eT[1] < 0.01 && eR[1] < 0.1, "%s: oblique curves converged at t_c/160: %.3g, %.3g", name, eT[1], eR[1]);
    CHECK(t, eT[0] / eT[1] > 8 && eR[0] / eR[1] > 5, "%s: curve errors fall %.3g- and %.3g-fold for 10x smaller h",
          name, eT[0] / eT[1], eR[0] / eR[1]);
    CHECK(t, K_R[2][end] > 0 && K_T[2][end] + K_R[2][end] < 1, "%s: spinning after, less energy: %.4f + %.5f", name,
          K_T[2][end], K_R[2][end]);
}

int main(void)
{
    test_ctx t = {0, 0};
    const char *names[] = {"euler", "verlet", "verlet_improved", "variational_left", "variational_midpoint"};
    for (int i = 0; i < 5; i++) {
        double err_coarse, err_fine, el_coarse, el_fine;
        grains_error e;
        rest_setup s = {GRAINS_CONTACT_LINEAR, GRAINS_DAMPING_BY_MODEL, (grains_integrator)i, 0.5, 0.1, 16, 0, 0};
        int ok = oscillator_run(&s, &err_coarse, &e) == GRAINS_OK;
        s.steps_per_tc = 160;
        ok = ok && oscillator_run(&s, &err_fine, &e) == GRAINS_OK;
        s.e_n = 1;
        ok = ok && oscillator_run(&s, &el_fine, &e) == GRAINS_OK;
        s.steps_per_tc = 16;
        ok = ok && oscillator_run(&s, &el_coarse, &e) == GRAINS_OK;
        CHECK(&t, ok, "%s: runs", names[i]);
        CHECK(&t, err_fine < 0.01, "%s: damped overlap within %.3g of delta_max at t_c/160", names[i], err_fine);
        CHECK(&t, err_coarse / err_fine > 8, "%s: damped error falls %.3g-fold for 10x smaller h", names[i],
              err_coarse / err_fine);
        CHECK(&t, el_coarse / el_fine > 70, "%s: elastic error falls %.3g-fold for 10x smaller h (second order)",
              names[i], el_coarse / el_fine);
        oblique(&t, (grains_integrator)i, names[i]);
    }
    return test_report(&t, "oscillator");
}
