/* Membranes (membrane paper, Götz & Pöschel 2022): triangulated surfaces
 * whose vertices carry mass, held together by edge springs and hinges
 * (docs/model.md, "Membranes"). */
#ifndef GRAINS_MEMBRANE_H
#define GRAINS_MEMBRANE_H

#include "grains/real.h"

/* What a membrane's `pressure` is. APPLIED: the pressure on its triangles
 * (Eq. 18); the grains feel less where the membrane's pinned rims carry part
 * of it (docs/howto-triaxial.md). FELT: the confining stress the grains feel
 * (their push on the membrane, radial about the material's axis, over its
 * area: grains_sim_membrane_load), held by a servo that adds to the pressure
 * applied, as a triaxial cell's controller does; the pressure applied stays
 * within [0, 10 pressure] (src/membrane/confine.c). */
typedef enum { GRAINS_PRESSURE_APPLIED, GRAINS_PRESSURE_FELT } grains_pressure_control;

/* The material of one membrane. */
typedef struct {
    real E;          /* [M/LT^2] Young's modulus of the sheet's material (> 0) */
    real d;          /* [L] thickness (> 0) */
    real rho;        /* [M/L^3] density (> 0): each triangle's mass rho d A goes to its vertices in thirds */
    real gamma;      /* [-] damping ratio of the edge springs (Eq. 6; >= 0) */
    real k_el;       /* [ML^2/T^2] bending stiffness (Eq. 11; >= 0) */
    real k_diss;     /* [ML/T] bending damping (Eq. 12; >= 0) */
    real pressure;   /* [M/LT^2] sigma_c on every triangle towards the inside (Eq. 18, confining);
                      * negative: from inside (inflating); 0: none */
    real pressure_after; /* [T] no pressure before this time (e.g. while grains grow inside) */
    real pressure_ramp;  /* [T] then it grows linearly from 0 over this time; 0: at once */
    grains_pressure_control pressure_control;
    real control_time;   /* [T] GRAINS_PRESSURE_FELT's time constant (>= 0; 0: 2000 dt) */
    grains_vec3 axis_point, axis; /* the axis the grains' push is measured about (axis of any
                                   * length > 0; a scenario's cylinder: its own, z through origin) */
    real vertex_radius; /* [L] 0: grains touch the triangles between the vertices (the patch model,
                         * Section 2.5); > 0: the MSS_particle model, grains touch the vertices as
                         * spheres of this radius and nothing between them (Section 3) */
    int material;    /* the run's material (grains_params) its patches touch grains with; 0: the run's own */
} grains_membrane_material;

#endif
