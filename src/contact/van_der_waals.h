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

/* Its coefficients, each a scenario key (core/coeffs.h), per pair of
 * materials: a pair whose materials give their own Hamaker constants
 * A_a, A_b takes sqrt(A_a A_b), the combining rule of Hamaker constants
 * (Israelachvili, Intermolecular and Surface Forces, Eq. 13.16);
 * X(ID, name, unit, default, least, doc). delta0 > 0 and the cut-off (0 or
 * beyond delta0) are checked in every pair (core/params.c); a cut-off of
 * 0 is 100 delta0 (vdw_cutoff_of). */
#define COHESION_VAN_DER_WAALS_COEFFS(X)                                                                                   \
    X(VDW_A, "hamaker", "ML^2/T^2", 0, 0, "Hamaker constant of the van der Waals attraction (>= 0); 0 = off")   \
    X(VDW_DELTA0, "vdw_delta0", "L", 0.4e-9, 0,                                                                 \
      "van der Waals saturation gap (> 0); default 0.4e-9 (the lower end of 0.4-1 nm: libgran, after Ranade "  \
      "1987)")                                                                                                  \
    X(VDW_CUTOFF, "vdw_cutoff", "L", 0, 0, "gap beyond which the attraction is 0 (> vdw_delta0); default 100 vdw_delta0")

/* The cut-off a pair acts to: its own, or 100 delta0, where the attraction
 * has fallen below 1e-4 of its saturation. */
static inline real vdw_cutoff_of(real delta0, real cutoff) { return cutoff > 0 ? cutoff : 100 * delta0; }

/* How far beyond touching a pair's attraction acts: its cut-off, where it
 * has any. */
static inline real vdw_reach(real A, real cutoff) { return A > 0 ? cutoff : 0; }

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
