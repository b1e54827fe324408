/* The cohesion sub-model "jkr" (contact/submodels.c): the adhesive elastic
 * contact of Johnson, Kendall and Roberts (1971). With W the work of
 * adhesion, E* and R* of the pair, the contact radius a and the overlap
 * delta are related by
 *   delta = a^2 / R* - sqrt(2 pi W a / E*)
 * and the elastic normal force (repulsive > 0) is
 *   F = 4 E* a^3 / (3 R*) - sqrt(8 pi W E* a^3).
 * F is least, -3/2 pi W R* (the pull-off force), at a^3 = 9 pi W R*^2 /
 * (8 E*); at fixed overlap the contact snaps when d delta / da = 0, at
 * a^3 = pi W R*^2 / (8 E*), delta = -3/4 (pi^2 W^2 R* / E*^2)^(1/3). A
 * contact forms at touching (delta = 0) and holds, stretched into a neck,
 * until that gap: the history of the pair says which it is. The stiffnesses
 * and dashpots are Hertz's at the contact radius a (normal_hertz.h), and
 * Coulomb's limits take the load |F + 2 F_c|, F_c = 3/2 pi W R*, as
 * Thornton and Yin (1991): a stuck contact resists sliding at zero load. */
#ifndef GRAINS_CONTACT_COHESION_JKR_H
#define GRAINS_CONTACT_COHESION_JKR_H

#include <math.h>

#include "grains/params.h"
#include "math/pi.h"

/* Its coefficient (core/coeffs.h), per pair of materials: the work of
 * adhesion W [M/T^2]. Two materials that give their own W_a, W_b take
 * sqrt(W_a W_b), the geometric mean (Berthelot's rule for surface energies,
 * W_ab = 2 sqrt(gamma_a gamma_b), W = 2 gamma). */
#define COHESION_JKR_COEFFS(X)                                                                                \
    X(JKR_W, "work_of_adhesion", "M/T^2", 0, 0,                                                               \
      "JKR: work of adhesion W (> 0 with cohesion = \"jkr\"), = 2 gamma for two like surfaces; pull-off force " \
      "3/2 pi W R*")

/* The pull-off force F_c = 3/2 pi W R*. */
static inline real jkr_pull_off(real W, real R_eff) { return 1.5 * HM_PI * W * R_eff; }

/* The gap at which a contact snaps, 3/4 (pi^2 W^2 R* / E*^2)^(1/3) > 0. */
static inline real jkr_snap_gap(real W, real R_eff, real E_eff)
{
    return 0.75 * cbrt(HM_PI * HM_PI * W * W * R_eff / (E_eff * E_eff));
}

/* The contact radius at overlap delta (>= minus the snap gap), on the
 * stable branch. Newton on s = sqrt(a) for g(s) = s^4 / R* - c s - delta,
 * c = sqrt(2 pi W / E*): g is convex, and the start lies right of the root
 * (s0^4 / R* >= delta + c s0 term by term), so the iterates fall
 * monotonically onto it. */
static inline real jkr_contact_radius(real W, real R_eff, real E_eff, real delta)
{
    real c = sqrt(2 * HM_PI * W / E_eff);
    real s = sqrt(sqrt(R_eff * fmax(delta, 0))) + cbrt(R_eff * c);
    for (int it = 0; it < 100; it++) {
        real s3 = s * s * s, g = s3 * s / R_eff - c * s - delta, slope = 4 * s3 / R_eff - c;
        if (!(g > 0 && slope > 0))
            break;
        real step = g / slope;
        s -= step;
        if (step <= 1e-15 * s)
            break;
    }
    return s * s;
}

/* The elastic normal force at contact radius a. */
static inline real jkr_force(real W, real R_eff, real E_eff, real a)
{
    real a3 = a * a * a;
    return 4 * E_eff * a3 / (3 * R_eff) - sqrt(8 * HM_PI * W * E_eff * a3);
}

#endif
