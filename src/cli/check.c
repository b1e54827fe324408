/* grains check: validate a scenario with its mesh and particles, and print
 * the figures that follow from it before anything runs. */
#include <math.h>

#include "cli/cli.h"

#define PI 3.14159265358979323846

/* Hertz contact time of a head-on elastic impact at speed v:
 * t_c = 2.9432 delta_max / v, delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5). */
static double hertz_time(double E_eff, double R_eff, double m_eff, double v)
{
    double delta_max = pow(15 * m_eff * v * v / (16 * E_eff * sqrt(R_eff)), 0.4);
    return 2.9432 * delta_max / v;
}

static void print_contact_times(const grains_params *p)
{
    double v = sqrt(p->v0.x * p->v0.x + p->v0.y * p->v0.y + p->v0.z * p->v0.z);
    if (!(v > 0)) {
        printf("  contact time        : v0 = 0, no impact speed to evaluate\n");
        return;
    }
    double m = 4 * PI / 3 * p->rho * p->R_min * p->R_min * p->R_min;
    double E_pp = p->E / (2 * (1 - p->nu * p->nu)), E_pw = p->E / (1 - p->nu * p->nu);
    double t_pp = hertz_time(E_pp, p->R_min / 2, m / 2, v);
    double t_pw = hertz_time(E_pw, p->R_min, m, v);
    printf("  contact time        : %.4g s particle-particle, %.4g s particle-wall (R_min, |v0| = %g m/s, elastic Hertz)\n",
           t_pp, t_pw, v);
    printf("  steps per contact   : %.1f particle-particle, %.1f particle-wall\n", t_pp / p->dt, t_pw / p->dt);
}

int cli_check(int argc, char **argv)
{
    grains_scenario sc;
    cli_flags fl;
    grains_error err;
    grains_sim *sim = NULL;
    if (cli_scenario(argc, argv, &sc, &fl, &err) != GRAINS_OK || cli_load(&sc, &sim, &err) != GRAINS_OK) {
        cli_report(&err);
        return EXIT_INPUT;
    }
    const grains_params *p = grains_sim_params(sim);
    const grains_mesh *mesh = grains_sim_mesh(sim);
    long steps = p->N_frames * p->N_steps;
    size_t n_max = grains_sim_count(sim) + (size_t)p->N_max;
    printf("%s: OK\n", sc.source[0] ? sc.source : "built-in default scenario");
    printf("  timestep dt         : %.6g s%s\n", p->dt, p->dt == grains_params_default_dt(p) ? " (Eq. 49)" : "");
    print_contact_times(p);
    printf("  steps               : %ld (%ld frames of %ld)\n", steps, p->N_frames, p->N_steps);
    printf("  simulated time      : %.6g s\n", (double)steps * p->dt);
    printf("  particles           : %zu from file, up to %ld spawned\n", grains_sim_count(sim), p->N_max);
    printf("  mesh                : %zu elements, %zu vertices\n", mesh ? mesh->n_elements : 0,
           mesh ? mesh->n_vertices : 0);
    /* ~430 bytes per particle measured on a dense pack (docs/benchmarks.md),
     * plus a few MB for the program itself. */
    printf("  memory estimate     : %.3g MB for %zu particles\n", (double)n_max * 430e-6 + 3, n_max);
    grains_sim_destroy(sim);
    return 0;
}
