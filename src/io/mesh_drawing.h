/* A mesh as VTK draws it: points, and cells of three kinds (vertices,
 * lines, polygons), each cell knowing the element it shows. Points and
 * segments with a radius are drawn as spheres and tubes of that radius
 * (a spherocylinder as a tube between two spheres); a parallelogram gets
 * its implied fourth corner. A simulation's membrane elements (body < 0)
 * are left out: grains_vtk_write_membranes draws the membranes. */
#ifndef GRAINS_IO_MESH_DRAWING_H
#define GRAINS_IO_MESH_DRAWING_H

#include "grains/mesh.h"

enum { DRAW_VERTS, DRAW_LINES, DRAW_POLYS, DRAW_KINDS };

typedef struct {
    uint32_t *conn;     /* point ids, cell after cell */
    size_t n_conn, cap_conn;
    uint32_t *end;      /* per cell: one past its last id in conn */
    uint32_t *element;  /* per cell: the element it draws */
    size_t n, cap, cap_end;
} draw_cells;

typedef struct {
    grains_vec3 *points;
    size_t n_points, cap_points;
    draw_cells cells[DRAW_KINDS];
} mesh_drawing;

grains_status mesh_drawing_build(mesh_drawing *d, const grains_mesh *m, grains_error *err);
void mesh_drawing_free(mesh_drawing *d);

#endif
