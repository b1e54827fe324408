/* Filling a box (variational-integrator paper, Section 3.4, Fig. 11):
 * 218 spheres settle under gravity in a 6d x 6d x 120d box. Prints the mean
 * kinetic energy per particle (Eq. 35) and the velocity fluctuation (Eq. 36)
 * over time for each integrator.
 *
 *   build/example_box_fill                 # the table, every integrator
 *   build/example_box_fill --lammps DIR    # also DIR/start.data and DIR/params.lmp for
 *                                          # the LAMMPS deck tests/peers/box_fill.in
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "validate/validate.h"

/* The start state as a LAMMPS data file (atom_style sphere). */
static int write_data(const char *dir, const box_setup *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/start.data", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return perror(path), 0;
    grains_particle q[BOX_N];
    box_start(s, q);
    double L = BOX_WIDTH * s->d;
    fprintf(f, "grains box_fill start state (variational-integrator paper, Section 3.4)\n\n%d atoms\n1 atom types\n\n",
            BOX_N);
    fprintf(f, "0 %.17g xlo xhi\n0 %.17g ylo yhi\n0 %.17g zlo zhi\n\nAtoms # sphere\n\n", L, L, BOX_HEIGHT * L);
    for (int k = 0; k < BOX_N; k++)
        fprintf(f, "%d 1 %.17g %.17g %.17g %.17g %.17g\n", k + 1, 2 * q[k].R, s->rho, q[k].x.x, q[k].x.y, q[k].x.z);
    fprintf(f, "\nVelocities\n\n");
    for (int k = 0; k < BOX_N; k++)
        fprintf(f, "%d %.17g %.17g %.17g 0 0 0\n", k + 1, q[k].v.x, q[k].v.y, q[k].v.z);
    return fclose(f) == 0;
}

/* The law in LAMMPS' gran/hooke terms: damping force m_eff gamma_n v_n, so
 * Eq. 31's eta_n = 2 beta sqrt(m* k_n) is gamma_n = 2 beta sqrt(k_n / m*),
 * with m* = m/2 between particles and m against a wall. */
static int write_params(const char *dir, const box_setup *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/params.lmp", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return perror(path), 0;
    double m = box_mass(s), beta = 1 / sqrt(1 + pow(3.14159265358979323846 / log(s->e_n), 2)); /* Eq. 21 */
    grains_params p = box_params(s);
    fprintf(f, "variable kn equal %.17g\n", s->k_n);
    fprintf(f, "variable gamman_pair equal %.17g\n", 2 * beta * sqrt(s->k_n / (m / 2)));
    fprintf(f, "variable gamman_wall equal %.17g\n", 2 * beta * sqrt(s->k_n / m));
    fprintf(f, "variable dt equal %.17g\n", p.dt);
    fprintf(f, "variable every equal %ld\n", lround(s->sample / p.dt));
    fprintf(f, "variable steps equal %ld\n", lround(s->t_end / s->sample) * lround(s->sample / p.dt));
    fprintf(f, "variable L equal %.17g\n", BOX_WIDTH * s->d);
    return fclose(f) == 0;
}

int main(int argc, char **argv)
{
    const char *lammps = argc == 3 && strcmp(argv[1], "--lammps") == 0 ? argv[2] : NULL;
    if (argc != 1 && !lammps) {
        fprintf(stderr, "usage: %s [--lammps DIR]\n", argv[0]);
        return 2;
    }
    box_setup s = box_default(GRAINS_INTEGRATOR_VERLET);
    if (lammps && (!write_data(lammps, &s) || !write_params(lammps, &s)))
        return 1;
    enum { N = 5 };
    static box_result r[N];
    const char *names[N] = {"euler", "verlet", "verlet_improved", "variational_left", "variational_midpoint"};
    for (int i = 0; i < N; i++) {
        s.integrator = (grains_integrator)i;
        grains_error err;
        if (box_run(&s, &r[i], &err) != GRAINS_OK) {
            fprintf(stderr, "box_fill: %s\n", err.message);
            return 1;
        }
    }
    printf("# %d spheres, d = %g m, k_n = %g N/m, e_n = %g, dt = t_c/%g = %.6g s\n", BOX_N, s.d, s.k_n, s.e_n,
           s.steps_per_tc, box_contact_time(&s) / s.steps_per_tc);
    printf("# t [s], then K [J] (Eq. 35) and dv [m^2/s^2] (Eq. 36) for");
    for (int i = 0; i < N; i++)
        printf(" %s", names[i]);
    printf("\n");
    for (int k = 0; k < r[0].n; k++) {
        printf("%.9f", r[0].t[k]);
        for (int i = 0; i < N; i++)
            printf(" %.10e %.10e", r[i].K[k], r[i].dv[k]);
        printf("\n");
    }
    return 0;
}
