/* The two-particle impact of the variational-integrator paper (Section
 * 3.1, Figs. 6-7): linear spring, offset 0.1 d, mu = 0.5 (0 for the
 * variational integrators, which need a potential), e_n = 0.9. Prints
 * the right sphere's kinetic energy, translational K_T and rotational K_R
 * relative to its initial K_T, every t_c/16, for each integrator at
 * h = t_c/160 and t_c/16.
 *   build/example_two_particle_impact > impact.txt   (columns: t/t_c, then
 *   K_T and K_R for euler, verlet, verlet_improved, variational_left,
 *   variational_midpoint at t_c/160, then t_c/16) */
#include <stdio.h>

#include "validate/validate.h"

int main(void)
{
    enum { N = 5 };
    double K_T[2][N][OBLIQUE_SAMPLES], K_R[2][N][OBLIQUE_SAMPLES];
    const double steps[2] = {160, 16};
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < N; i++) {
            double mu = grains_integrator_variational((grains_integrator)i) ? 0 : 0.5;
            rest_setup s = {GRAINS_CONTACT_LINEAR, GRAINS_DAMPING_BY_MODEL, (grains_integrator)i, 0.9, 0.1, steps[h],
                            0.1, mu};
            grains_error err;
            if (oblique_run(&s, K_T[h][i], K_R[h][i], &err) != GRAINS_OK) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
        }
    printf("# t/t_c");
    for (int h = 0; h < 2; h++)
        printf("  K_T,K_R euler/verlet/verlet_improved/variational_left/variational_midpoint at t_c/%g", steps[h]);
    printf("\n");
    for (int k = 0; k < OBLIQUE_SAMPLES; k++) {
        printf("%.4f", k / 16.0);
        for (int h = 0; h < 2; h++)
            for (int i = 0; i < N; i++)
                printf(" %.6f %.6f", K_T[h][i][k], K_R[h][i][k]);
        printf("\n");
    }
    return 0;
}
