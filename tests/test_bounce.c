/* A sphere bouncing between walls without damping (variational-integrator
 * paper Section 3.2): every integrator keeps the total energy bounded.
 * - After 250 collisions the energy (all kinetic between collisions) is off
 *   by less than (h / t_c)^2: each collision's error is second order (the
 *   force has a kink where the contact begins and ends, met at a random
 *   phase of the step grid).
 * - The error does not grow with the number of collisions: after 1000 it is
 *   still below 3 (h / t_c)^2 (no drift; the variational midpoint rule's
 *   wanders within +-2.2 (h / t_c)^2 over 3200 collisions at t_c/32, the
 *   phase of each contact's start on the step grid deciding its sign).
 * - Within a contact the energy of the Verlet schemes stays within
 *   3 (h / t_c)^2, and so does the variational midpoint rule's; Euler's is
 *   first order (velocities half a step off the positions), within 2 h / t_c,
 *   and so is the variational left rule's (symplectic Euler without
 *   dashpots). */
#include "check.h"
#include "validate/validate.h"

static bounce_result run(test_ctx *t, grains_integrator integrator, double steps_per_tc, int collisions)
{
    bounce_setup s = {integrator, steps_per_tc, collisions};
    bounce_result r = {0, 0, 0};
    grains_error err;
    if (bounce_run(&s, &r, &err) != GRAINS_OK)
        CHECK(t, 0, "bounce_run: %s", err.message);
    return r;
}

int main(void)
{
    test_ctx ctx = {0, 0}, *t = &ctx;
    const char *names[5] = {"euler", "verlet", "verlet_improved", "variational_left", "variational_midpoint"};
    for (int i = 0; i < 5; i++) {
        for (double n = 32; n <= 160; n *= 5) {
            bounce_result r = run(t, (grains_integrator)i, n, 250);
            printf("  %s, h = t_c/%g: energy after 250 collisions %+.3e, largest deviation %.3e\n", names[i], n,
                   r.drift, r.max_dev);
            CHECK(t, r.collisions == 250, "%s: 250 collisions, got %d", names[i], r.collisions);
            CHECK(t, fabs(r.drift) < 2 / (n * n), "%s, t_c/%g: |drift| %.3g < 2 (h/t_c)^2", names[i], n, r.drift);
            double bound = i == 0 || i == 3 ? 2 / n : 3 / (n * n); /* variational_left: symplectic Euler */
            CHECK(t, r.max_dev < bound, "%s, t_c/%g: deviation in contact %.3g < %.3g", names[i], n, r.max_dev, bound);
        }
        bounce_result a = run(t, (grains_integrator)i, 32, 100), b = run(t, (grains_integrator)i, 32, 1000);
        printf("  %s, h = t_c/32: after 100 collisions %+.3e, after 1000 %+.3e\n", names[i], a.drift, b.drift);
        CHECK(t, fabs(b.drift) < 3.0 / (32 * 32), "%s: energy error bounded: %.3g after 1000, %.3g after 100",
              names[i], b.drift, a.drift);
    }
    return test_report(t, "test_bounce");
}
