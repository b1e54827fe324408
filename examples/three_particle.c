/* The three-particle test of the improved-velocity-Verlet paper (Section 2):
 * a fine glass sphere rolls off the valley between two fixed large ones.
 * Prints, for each integrator, where it leaves them against the rigid-body
 * solution (the paper: theta ~ 61 degrees; the standard velocity Verlet traps
 * it in an unphysical pendulum instead).
 *
 *   example_three_particle [RATIO [MU [STEPS_PER_TC]]]      (paper: 7 0.6 270) */
#include <stdio.h>
#include <stdlib.h>

#include "example_args.h"
#include "validate/validate.h"

#define DEG (180 / 3.14159265358979323846)

int main(int argc, char **argv)
{
    const char *names[] = {"euler", "verlet", "verlet_improved"};
    tp_setup s = tp_default(GRAINS_INTEGRATOR_EULER);
    if (argc > 4) {
        fprintf(stderr, "usage: example_three_particle [RATIO [MU [STEPS_PER_TC]]]\n");
        return 2;
    }
    if (argc > 1)
        s.ratio = example_arg("example_three_particle", argv, 1, 1, 50);
    if (argc > 2)
        s.mu = example_arg("example_three_particle", argv, 2, 0, 10);
    if (argc > 3)
        s.steps_per_tc = example_arg("example_three_particle", argv, 3, 10, 10000);
    tp_result rigid;
    tp_rigid(&s, &rigid);
    s.t_end = 2 * rigid.t_sep;
    printf("size ratio %g, mu %g (critical ratio, Eq. 22: %.3g), release at %.1f deg\n", s.ratio, s.mu,
           tp_critical_ratio(s.mu), s.theta0 * DEG);
    printf("%-16s %9s %10s %12s %10s %14s\n", "", "leaves", "theta [deg]", "omega [1/s]", "t [ms]", "max theta [deg]");
    printf("%-16s %9s %10.2f %12.1f %10.2f %14s   (sliding from %.2f deg)\n", "rigid solution", "yes",
           rigid.theta_sep * DEG, rigid.omega_sep, rigid.t_sep * 1e3, "-", rigid.theta_slide * DEG);
    for (int k = 0; k < 3; k++) {
        s.integrator = (grains_integrator)k;
        tp_result r;
        grains_error err;
        if (tp_run(&s, &r, &err) != GRAINS_OK) {
            fprintf(stderr, "%s: %s\n", names[k], err.message);
            return 1;
        }
        printf("%-16s %9s %10.2f %12.1f %10.2f %14.1f   (dt %.3g s, k_n %.4g N/m, rolling omega within %.2g)\n",
               names[k], r.separated ? "yes" : "no", r.theta_sep * DEG, r.omega_sep, r.t_sep * 1e3,
               r.theta_max * DEG, r.dt, r.k_n, r.omega_err);
    }
    return 0;
}
