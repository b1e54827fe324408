/* Damping sub-model "tsuji" (Tsuji, Tanaka and Ishida 1992, Powder Technology 71, 239-250), the
 * damping of LAMMPS's `damping tsuji`: the Hertz contact's dashpots
 * are alpha(e) sqrt(m k_n) and alpha(e) sqrt(m k_t), k_n = 4/3 E* a and k_t = 8 G* a the springs at
 * the contact radius a (Eqs. 12-13), alpha(e) the sixth-degree fit to Tsuji's chart (Marshall
 * 2009, Eq. 53).
 *
 * Tsuji's m is the mass of one of two equal spheres, twice their reduced mass m*: with m* the
 * dashpot is sqrt(2) alpha sqrt(m* k_n). Taken with m* as printed in LAMMPS's manual, the fit
 * gives restitutions up to 0.14 above e_n (0.235 for e_n = 0.1, 0.616 for 0.5; measured by
 * tests/test_submodels.c against the oscillator). With the factor, the fit's own error is at
 * most 1.1e-3 over e_n = 0.1 .. 0.9 (0.014 at e_n = 0); TinyDEM's Eq. 21 is exact. */
#ifndef GRAINS_CONTACT_DAMPING_TSUJI_H
#define GRAINS_CONTACT_DAMPING_TSUJI_H

#include <math.h>

#include "grains/real.h"

/* alpha(e) for e in [0, 1]: 1.2728 at e = 0, 3e-4 at e = 1. */
static inline real tsuji_alpha(real e)
{
    static const real c[7] = {1.2728, -4.2783, 11.087, -22.348, 27.467, -18.022, 4.8218};
    real a = 0;
    for (int k = 6; k >= 0; k--)
        a = a * e + c[k];
    return a;
}

/* The factor beta by which normal_hertz.h's Eq. 18, c_n = sqrt(5 m* k_n) beta, gives Tsuji's
 * dashpot sqrt(2) alpha sqrt(m* k_n). */
static inline real tsuji_beta(real e)
{
    return tsuji_alpha(e) * sqrt(2.0 / 5.0);
}

#endif
