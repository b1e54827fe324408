/* The forces within a membrane (membrane paper Sections 2.3-2.4 and
 * Eq. 18): edge springs, hinges and pressure, summed into f in a fixed
 * order (edges, hinges, triangles, each in the membrane's order). */
#ifndef GRAINS_MEMBRANE_FORCES_H
#define GRAINS_MEMBRANE_FORCES_H

#include "membrane/membrane.h"

/* k = sqrt(3)/2 E d (Eq. 7): a triangular network of such springs has the
 * sheet's in-plane modulus E d and Poisson's ratio 1/3. */
static inline real membrane_spring_constant(const membrane_material *mat)
{
    return 0.8660254037844386 * mat->E * mat->d;
}

/* A hinge where it is now: the directions u_i of Eqs. 13-16 (u_4 with
 * Bridson's minus sign, which Eq. 16 as printed lacks), the signed angle
 * theta between the outward normals about x3 -> x4, as sin(theta / 2),
 * and what Eqs. 11-12 scale by. theta's gradient is -u_i: a rotation
 * about the edge that opens the hinge (turns n2 away from n1 about x3 ->
 * x4) raises theta. Degenerate (a triangle of zero area): ok = 0. */
typedef struct {
    vec3 u[4];
    real sin_half;   /* sin(theta / 2), theta in (-pi, pi] */
    real edge;       /* [L] |x4 - x3| */
    real n_sum;      /* [L^2] |N1| + |N2| */
    int ok;
} hinge_state;

hinge_state membrane_hinge_state(const membrane_hinge *h, const vec3 *x);

/* Each hinge's rest angle from the rest positions x0. */
void membrane_set_rest_angles(membrane *m);

/* The confining pressure at time t: none before mat->pressure_after, then
 * mat->pressure, reached linearly over mat->pressure_ramp. */
real membrane_pressure_at(const membrane_material *mat, real t);

/* Adds to f every vertex's force at positions x and velocities v, under
 * `pressure` (Eq. 18; membrane_pressure_at). */
void membrane_forces(const membrane *m, const vec3 *x, const vec3 *v, real pressure, vec3 *f);

/* The membrane's area at positions x. */
double membrane_area(const membrane *m, const vec3 *x);

/* The springs' elastic energy sum k (rho - rho0)^2 / 2 (Eq. 6). */
double membrane_stretch_energy(const membrane *m, const vec3 *x);

#endif
