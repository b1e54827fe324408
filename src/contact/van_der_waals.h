/* Van der Waals attraction between spheres (Hamaker 1937, as libgran uses
 * it), combinable with every contact model. With centre distance d, radii
 * R_1, R_2, P = d^2 - (R_1 + R_2)^2 and M = d^2 - (R_1 - R_2)^2, Hamaker's
 * potential is
 *   U = -A/6 [2 R_1 R_2 / P + 2 R_1 R_2 / M + ln(P / M)],
 * and the attraction F = dU/dd pulls the centres together:
 *   F = A d / 3 [2 R_1 R_2 / P^2 + 2 R_1 R_2 / M^2 - 1/P + 1/M],
 * which tends to A R* / (6 s^2) as the gap s = d - R_1 - R_2 closes. A wall
 * (R_2 = inf) gives the sphere-plane law F = 2 A R^3 / (3 s^2 (s + 2R)^2).
 * The force stops growing at the saturation gap delta0 (it is F(delta0) at
 * smaller gaps and through an overlap) and is 0 beyond the cut-off. */
#ifndef GRAINS_CONTACT_VAN_DER_WAALS_H
#define GRAINS_CONTACT_VAN_DER_WAALS_H

#include "grains/params.h"

/* Its coefficients: the Hamaker constant A [M L^2/T^2] (0: none), the
 * minimum gap delta0 [L] and the cut-off gap [L]. */
typedef struct {
    real A, delta0, cutoff;
} vdw_coeffs;

static inline vdw_coeffs vdw_coeffs_of(const grains_params *p)
{
    return (vdw_coeffs){p->hamaker, p->vdw_delta0, p->vdw_cutoff};
}

/* How far beyond touching it acts: the cut-off, where there is any. */
static inline real vdw_reach(const vdw_coeffs *v) { return v->A > 0 ? v->cutoff : 0; }

/* Magnitude of the attraction at gap s (any sign); 0 beyond cut_off. */
static inline real vdw_attraction(real A, real delta0, real cut_off, real R_1, real R_2, int wall, real s)
{
    if (s >= cut_off)
        return 0;
    if (s < delta0)
        s = delta0;
    if (wall) {
        real q = s * (s + 2 * R_1);
        return 2 * A * R_1 * R_1 * R_1 / (3 * q * q);
    }
    real d = R_1 + R_2 + s;
    real P = s * (2 * (R_1 + R_2) + s);            /* d^2 - (R_1 + R_2)^2 without cancellation */
    real M = d * d - (R_1 - R_2) * (R_1 - R_2);
    real two_RR = 2 * R_1 * R_2;
    return A * d / 3 * (two_RR / (P * P) + two_RR / (M * M) - 1 / P + 1 / M);
}

#endif
