/* A head-on impact with the linear spring-dashpot is a damped harmonic
 * oscillator of the overlap (variational-integrator paper, Section 3.1,
 * Eqs. 33-34): m* delta'' = -k_n delta - eta_n delta'. Physical facts checked,
 * for every integrator:
 * - the overlap follows the analytic solution over the whole contact, to
 *   1% of the largest overlap at h = t_c/160 (the paper's fine step);
 * - the error falls at least linearly with h (the damping force sees the
 *   velocity half a step late in every scheme: first order), from t_c/16;
 * - with e_n = 1 the impact is elastic and the error falls quadratically
 *   (velocity Verlet is second order without velocity-dependent forces). */
#include "check.h"
#include "validate/validate.h"

int main(void)
{
    test_ctx t = {0, 0};
    const char *names[] = {"euler", "verlet", "verlet_improved"};
    for (int i = 0; i < 3; i++) {
        double err_coarse, err_fine, el_coarse, el_fine;
        grains_error e;
        rest_setup s = {GRAINS_CONTACT_LINEAR, (grains_integrator)i, 0.5, 0.1, 16};
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
    }
    return test_report(&t, "oscillator");
}
