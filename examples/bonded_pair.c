/* Impact with a bonded pair (variational-integrator paper, Section 3.3,
 * Fig. 10): a bonded pair hits a third sphere head-on. Prints, for each
 * integrator, the contact and bond forces against the reference solution
 * of the three bodies on a line, the bond's period after the impact against
 * 2 pi / sqrt(2 k_B / m), and the conservation figures.
 *
 *   example_bonded_pair [K_RATIO [STEPS_PER_TC]]     (default 0.25 200) */
#include <stdio.h>
#include <stdlib.h>

#include "example_args.h"
#include "validate/validate.h"

int main(int argc, char **argv)
{
    const char *names[] = {"euler", "verlet", "verlet_improved"};
    bp_setup s = bp_default(GRAINS_INTEGRATOR_EULER);
    if (argc > 3) {
        fprintf(stderr, "usage: example_bonded_pair [K_RATIO [STEPS_PER_TC]]\n");
        return 2;
    }
    if (argc > 1)
        s.k_ratio = example_arg("example_bonded_pair", argv, 1, 1e-3, 1e3);
    if (argc > 2)
        s.steps_per_tc = example_arg("example_bonded_pair", argv, 2, 10, 1e5);
    printf("k_B / k = %g, contact time %.4g s, dt = t_c / %g, bond period 2 pi / sqrt(2 k_B / m) = %.6g s\n",
           s.k_ratio, bp_contact_time(), s.steps_per_tc, bp_bond_period(&s));
    printf("%-16s %6s %7s %11s %11s %11s %13s %11s %11s\n", "", "bonds", "broken", "F_c err", "F_b err",
           "period [s]", "pair v [m/s]", "energy", "momentum");
    for (int k = 0; k < 3; k++) {
        s.integrator = (grains_integrator)k;
        bp_result r;
        grains_error err;
        if (bp_run(&s, &r, &err) != GRAINS_OK) {
            fprintf(stderr, "%s: %s\n", names[k], err.message);
            return 1;
        }
        printf("%-16s %6zu %7s %11.3e %11.3e %11.6g %13.6f %11.3e %11.3e   (peaks %.4g N contact, %.4g N bond;"
               " reference pair v %.6f)\n",
               names[k], r.bonds, r.broken ? "yes" : "no", r.err_contact, r.err_bond, r.period, r.pair_speed,
               r.energy_drift, r.momentum, r.peak_contact, r.peak_bond, r.ref_pair_speed);
    }
    return 0;
}
