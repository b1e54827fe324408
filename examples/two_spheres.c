/* Driving libgrains from C without a scenario file: two spheres collide
 * head-on, and the program prints the measured restitution coefficient.
 *   build/example_two_spheres            (prints e for e_n = 0.5)     */
#include <stdio.h>

#include "grains/sim.h"

int main(void)
{
    grains_params p;
    grains_params_default(&p);   /* Table 2 */
    p.N_max = 0;                 /* no spawning: we place the particles */
    p.g = (grains_vec3){0, 0, 0};
    p.e_n = 0.5;

    grains_error err;
    grains_sim *sim;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const double R = 0.005, v = 0.4;
    grains_particle a = {{-R, 0, 0}, {v / 2, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R, 0, 0};
    grains_particle b = {{R + 1e-6, 0, 0}, {-v / 2, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R, 0, 0};
    grains_sim_add_particle(sim, &a, &err);
    grains_sim_add_particle(sim, &b, &err);

    if (grains_sim_advance(sim, 2000, &err) != GRAINS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    grains_sim_get_particle(sim, 0, &a);
    grains_sim_get_particle(sim, 1, &b);
    printf("e_n = %.2f, measured restitution e = %.4f after t = %.4g s\n", p.e_n, (b.v.x - a.v.x) / v,
           grains_sim_time(sim));
    grains_sim_destroy(sim);
    return 0;
}
