/* A surface's polygons gathered into faces for drawing (render/frame_png.c):
 * polygons that share an edge and lie in one plane (a quad split into two
 * triangles, a wall of many) are one face, filled as one path, so that no
 * seam shows along their shared edges when drawn translucent; its outline
 * is the edges it does not share within itself. */
#ifndef GRAINS_RENDER_FACES_H
#define GRAINS_RENDER_FACES_H

#include <stddef.h>

#include "io/vtk_read.h"

typedef struct {
    size_t first, count; /* the polygon's entries in the Polys' connectivity */
} face_polygon;

typedef struct {
    size_t n;                 /* faces */
    size_t *polygon_start;    /* face f's polygons: polygon[polygon_start[f] .. polygon_start[f + 1]) */
    face_polygon *polygon;
    size_t *edge_start;       /* face f's outline: edge[edge_start[f] .. edge_start[f + 1]) */
    size_t (*edge)[2];        /* point indices */
} surface_faces;

/* The faces of d's polygons (those naming points the file has, 3 or
 * more); 0 and an empty set when memory fails. */
int surface_faces_build(const vtk_polydata *d, surface_faces *f);
void surface_faces_free(surface_faces *f);

#endif
