/* Generated membranes: a flat sheet of equilateral triangles. */
#ifndef GRAINS_MEMBRANE_SHEET_H
#define GRAINS_MEMBRANE_SHEET_H

#include "grains/mesh.h"

/* ny rows of nx vertices spaced s in the plane z = 0, rows s sqrt(3)/2
 * apart along y and odd rows shifted by s/2 along x; triangles
 * counter-clockwise seen from +z (the outside). */
grains_status membrane_sheet_mesh(grains_mesh **out, int nx, int ny, real s, grains_error *err);

#endif
