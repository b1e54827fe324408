/* Generated membranes: a flat sheet and a cylinder of (nearly) equilateral
 * triangles. */
#ifndef GRAINS_MEMBRANE_SHEET_H
#define GRAINS_MEMBRANE_SHEET_H

#include "grains/mesh.h"

/* ny rows of nx vertices spaced s in the plane z = 0, rows s sqrt(3)/2
 * apart along y and odd rows shifted by s/2 along x; triangles
 * counter-clockwise seen from +z (the outside). */
grains_status membrane_sheet_mesh(grains_mesh **out, int nx, int ny, real s, grains_error *err);

/* The side of a cylinder about the z axis, radius Rc, from z = 0 to H:
 * rings of n = round(2 pi Rc / s) vertices (at least 3) about
 * s sqrt(3)/2 apart along z (at least 2 rings, the last at H), every other ring turned by
 * half a step; triangles counter-clockwise seen from outside (normals point
 * away from the axis). The ends are open: ring 0 holds vertices [0, n),
 * the last ring the last n; *n_ring is n. */
grains_status membrane_cylinder_mesh(grains_mesh **out, size_t *n_ring, real Rc, real H, real s, grains_error *err);

#endif
