/* Relaxation to a static packing, the variational integrator's quasi-static
 * limit (docs/model.md): the 218 spheres of the box-filling case (variational-
 * integrator paper Section 3.4) dropped from their lattice and relaxed in
 * one go in their 6 d x 6 d box, without dynamics. Prints the pseudo-steps, the remaining force
 * imbalance, the potential energy before and after, and the pile's height.
 *   build/example_relax_pile [FORCE_TOL]     (default 1e-6 of each weight) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_args.h"
#include "validate/validate.h"

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [FORCE_TOL]\n", argv[0]);
        return 2;
    }
    double tol = argc > 1 ? example_arg(argv[0], argv, 1, 1e-12, 0.1) : 1e-6;
    box_setup s = box_default(GRAINS_INTEGRATOR_EULER);
    grains_particle start[BOX_N];
    box_start(&s, start);
    grains_params p = box_params(&s);
    grains_sim *sim = NULL;
    grains_error err;
    grains_status st = grains_sim_create(&sim, &p, &err);
    if (st == GRAINS_OK)
        st = box_walls(sim, BOX_WIDTH * s.d, BOX_HEIGHT * s.d, &err);
    for (int i = 0; st == GRAINS_OK && i < BOX_N; i++)
        st = grains_sim_add_particle(sim, &start[i], &err);
    grains_relax_result r;
    if (st == GRAINS_OK)
        st = grains_sim_relax(sim, tol, 100000, &r, &err);
    if (st != GRAINS_OK) {
        fprintf(stderr, "relax_pile: %s\n", err.message);
        grains_sim_destroy(sim);
        return 1;
    }
    double top = 0;
    for (size_t i = 0; i < BOX_N; i++) {
        grains_particle q;
        grains_sim_get_particle(sim, i, &q);
        top = fmax(top, q.x.z + q.R);
    }
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    printf("%d spheres, d = %g m, k_n = %g N/m, in a %d d x %d d box\n", BOX_N, s.d, s.k_n, BOX_WIDTH, BOX_WIDTH);
    printf("%s after %ld pseudo-steps (%ld Newton iterations): largest net force %.3g of a weight\n",
           r.converged ? "static" : "NOT converged", r.steps, r.newton, r.imbalance);
    printf("potential energy %.6g J -> %.6g J; %zu contacts, largest overlap %.3g of 2R*, top %.3g d\n",
           r.energy_start, r.energy_end, th.n_contacts, th.max_overlap, top / s.d);
    grains_sim_destroy(sim);
    return r.converged ? 0 : 1;
}
