/* Percolation of fines through a frozen bed (improved-velocity-Verlet
 * paper, Section 5.2, Figs. 13-14): pours a random bed of large spheres,
 * freezes it, drops non-interacting fines on it and counts, for each
 * integrator, how many are still trapped in the bed at the end (paper, with
 * a 20 R x 20 R x 40 R bed after 2 s: about 25% with the standard velocity
 * Verlet, under 2% with the improved one).
 *
 *   example_percolation [WIDTH DEPTH [FINES [T_END [OVERLAP [POUR_MU]]]]]
 *
 * WIDTH (>= 8.8) and DEPTH in large radii (default 10 20; paper 20 40), T_END in
 * seconds (default 2), OVERLAP = Eq. 27's tolerated overlap over the fine
 * diameter (default 1e-3 as the paper; dt = t_c / 40 follows from it),
 * POUR_MU the large spheres' friction while the bed is poured (default
 * 0.3; 0 packs denser). */
#include <stdio.h>
#include <stdlib.h>

#include "example_args.h"
#include "validate/validate.h"

int main(int argc, char **argv)
{
    const char *names[] = {"euler", "verlet", "verlet_improved"};
    const char *me = "example_percolation";
    perc_setup s = perc_default(GRAINS_INTEGRATOR_EULER);
    if (argc == 2 || argc > 7) {
        fprintf(stderr, "usage: example_percolation [WIDTH DEPTH [FINES [T_END [OVERLAP [POUR_MU]]]]]\n");
        return 2;
    }
    if (argc > 2) /* the pour's periodic grid needs 4 cells of 2.2 R across */
        s.width = example_arg(me, argv, 1, 8.8, 200), s.depth = example_arg(me, argv, 2, 2, 400);
    if (argc > 3)
        s.n_fines = (int)example_arg(me, argv, 3, 1, 1e6);
    if (argc > 4)
        s.t_end = example_arg(me, argv, 4, 1e-3, 100);
    if (argc > 5)
        s.overlap = example_arg(me, argv, 5, 1e-5, 0.1);
    if (argc > 6)
        s.pour_mu = example_arg(me, argv, 6, 0, 10);
    perc_bed bed;
    grains_error err;
    if (perc_bed_make(&s, &bed, &err) != GRAINS_OK) {
        fprintf(stderr, "bed: %s\n", err.message);
        return 1;
    }
    printf("bed %g R x %g R x %.1f R: %d spheres (R = %g mm) poured with mu %g, packing %.3f, kinetic energy left "
           "%.2g J\n", s.width, s.width, bed.top / s.R, bed.n, s.R * 1e3, s.pour_mu, bed.packing, bed.K);
    printf("fines: %d, ratio %g, mu %g, e_n %g, k_n %.5g N/m (Eq. 27, overlap %g d), t_c %.3g s, dt = t_c / %g\n",
           s.n_fines, s.ratio, s.mu, s.e_n, perc_stiffness(&s), s.overlap, perc_contact_time(&s), s.steps_per_tc);
    printf("%-16s %8s %8s %10s %12s %10s\n", "", "trapped", "through", "fraction", "half by [s]", "t [s]");
    for (int k = 0; k < 3; k++) {
        s.integrator = (grains_integrator)k;
        perc_result r;
        if (perc_run(&s, &bed, &r, &err) != GRAINS_OK) {
            fprintf(stderr, "%s: %s\n", names[k], err.message);
            perc_bed_free(&bed);
            return 1;
        }
        printf("%-16s %8d %8d %9.1f%% %12.3f %10.3f   (%ld steps, %d mesh spheres with images)\n", names[k],
               r.trapped, r.through, 100.0 * r.trapped / r.n_fines, r.t_half, r.t, r.steps, r.n_elements);
    }
    perc_bed_free(&bed);
    return 0;
}
