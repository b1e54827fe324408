/* The three-particle test (improved-velocity-Verlet paper, Section 2,
 * Figure 5, Eq. 22, Appendix 1). Physical facts checked:
 * - The rigid-body solution (Appendix 1) leaves the valley at theta ~ 61
 *   degrees with omega ~ 425 1/s for size ratio 7 and mu = 0.6 (the paper's
 *   figures, read to about 1 degree and 1%).
 * - The improved velocity Verlet follows it: pure rolling at omega =
 *   v / (r sin alpha) (Eq. 34) to 1e-4 before sliding begins, and it leaves
 *   within 3 degrees of the rigid angle (the soft contact's overlap moves the
 *   contact points; the paper's own runs leave slightly late too).
 * - The standard velocity Verlet traps the fine sphere in an unphysical
 *   pendulum (it swings past the bottom, theta > 90 degrees) exactly where
 *   Eq. 22 allows (size ratio above 1 / (sqrt(1 + mu^2) - 1)) and lets it go
 *   below; the improved scheme lets it go everywhere. */
#include <math.h>

#include "check.h"
#include "validate/validate.h"

#define DEG (3.14159265358979323846 / 180)

static tp_result run(double ratio, double mu, grains_integrator integrator, const tp_result *rigid)
{
    tp_setup s = tp_default(integrator);
    s.ratio = ratio, s.mu = mu;
    s.t_end = 2 * rigid->t_sep;
    tp_result r;
    grains_error err;
    if (tp_run(&s, &r, &err) != GRAINS_OK) {
        printf("tp_run: %s\n", err.message);
        r.separated = -1;
    }
    return r;
}

static tp_result rigid_of(double ratio, double mu)
{
    tp_setup s = tp_default(GRAINS_INTEGRATOR_VERLET);
    s.ratio = ratio, s.mu = mu;
    tp_result r;
    tp_rigid(&s, &r);
    return r;
}

int main(void)
{
    test_ctx t = {0, 0};
    tp_result rigid = rigid_of(7, 0.6);
    CHECK_ABS(&t, rigid.theta_sep / DEG, 61, 1, "rigid solution leaves at ~61 degrees (paper)");
    CHECK_REL(&t, rigid.omega_sep, 425, 0.01, "rigid solution: omega ~ 425 1/s when it leaves (paper)");

    tp_result imp = run(7, 0.6, GRAINS_INTEGRATOR_VERLET_IMPROVED, &rigid);
    CHECK(&t, imp.separated == 1, "improved Verlet: the fine sphere leaves the valley");
    CHECK_ABS(&t, imp.theta_sep / DEG, rigid.theta_sep / DEG, 3, "improved Verlet: angle when it leaves");
    CHECK_REL(&t, imp.omega_sep, rigid.omega_sep, 0.06, "improved Verlet: omega when it leaves");
    CHECK(&t, imp.omega_err < 1e-4, "improved Verlet: pure rolling omega = v / (r sin a) to %.2g", imp.omega_err);

    /* Figure 5's boundary, Eq. 22: one size ratio either side for three mu. */
    const double mu[3] = {0.9, 0.6, 0.45}, below[3] = {2, 5, 8}, above[3] = {4, 7, 12};
    for (int k = 0; k < 3; k++) {
        double Rc = tp_critical_ratio(mu[k]);
        CHECK(&t, below[k] < Rc && above[k] > Rc, "grid straddles Eq. 22 (R_c = %.3g)", Rc);
        for (int side = 0; side < 2; side++) {
            double ratio = side ? above[k] : below[k];
            tp_result rg = rigid_of(ratio, mu[k]);
            tp_result std = side == 1 && k == 1 ? run(7, 0.6, GRAINS_INTEGRATOR_VERLET, &rigid)
                                                : run(ratio, mu[k], GRAINS_INTEGRATOR_VERLET, &rg);
            tp_result fix = side == 1 && k == 1 ? imp : run(ratio, mu[k], GRAINS_INTEGRATOR_VERLET_IMPROVED, &rg);
            if (side) {
                CHECK(&t, std.separated == 0 && std.theta_max > 90 * DEG,
                      "standard Verlet traps above R_c (mu %g, ratio %g): left %d, max theta %.1f deg", mu[k], ratio,
                      std.separated, std.theta_max / DEG);
            } else {
                CHECK(&t, std.separated == 1, "standard Verlet lets go below R_c (mu %g, ratio %g)", mu[k], ratio);
            }
            CHECK(&t, fix.separated == 1 && fabs(fix.theta_sep - rg.theta_sep) < 3 * DEG,
                  "improved Verlet lets go (mu %g, ratio %g) at %.2f deg, rigid %.2f", mu[k], ratio,
                  fix.theta_sep / DEG, rg.theta_sep / DEG);
        }
    }
    return test_report(&t, "three_particle");
}
