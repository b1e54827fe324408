/* Meshes of elements with 1 to 4 vertices, each with its own radius
 * (TinyDEM Section 3.3): a point is a sphere, a segment a spherocylinder,
 * a triangle or parallelogram a plate with rounded edges. A simulation moves
 * them as rigid bodies (grains/motion.h). */
#ifndef GRAINS_MESH_H
#define GRAINS_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "grains/api.h"
#include "grains/error.h"
#include "grains/real.h"

GRAINS_API_BEGIN

/* An element's material when it names none: the run's mesh_material. */
#define GRAINS_MESH_MATERIAL_DEFAULT (-2)

/* One element. For n = 4 the element is the parallelogram spanned by
 * v[0], v[1] and v[3] (v[2] is implied: v[1] + v[3] - v[0]), as in TinyDEM. */
typedef struct {
    int n;                  /* number of vertices, 1..4 */
    uint32_t v[4];          /* vertex indices */
    int radius_index;       /* index into grains_params.R_mesh */
    real R;                 /* [L] radius of the element */
    int material;           /* GRAINS_MESH_MATERIAL_DEFAULT, -1 rigid, or a material */
    int body;               /* in a simulation: which of its meshes the element belongs to */
    int line;               /* the line of its file that gave it (OFF, ASCII STL), or 0 */
    grains_vec3 lo, hi;     /* bounding box of the vertices, grown by R */
    int off;                /* in a simulation: its mesh removed (grains_sim_remove_mesh): nothing meets it */
    int periodic;           /* in a simulation: the axes (1 x, 2 y, 4 z) along which it repeats with
                             * the periodic box (grains_sim_set_mesh_periodic); 0: it does not */
} grains_mesh_element;

typedef struct {
    grains_vec3 *vertices;
    size_t n_vertices, cap_vertices;
    grains_mesh_element *elements;
    size_t n_elements, cap_elements;
    grains_vec3 period;     /* [L] the periodic box's periods, along the axes elements repeat along */
} grains_mesh;

grains_status grains_mesh_create(grains_mesh **out, grains_error *err);
void grains_mesh_destroy(grains_mesh *m);

grains_status grains_mesh_add_vertex(grains_mesh *m, grains_vec3 x, grains_error *err);

/* Adds an element of `n` vertices with radius `R` and the default material;
 * checks the vertex indices and that the element is not degenerate
 * (repeated vertices, zero area). */
grains_status grains_mesh_add_element(grains_mesh *m, int n, const uint32_t *v, int radius_index, real R,
                                      grains_error *err);

/* Recomputes every element's bounding box after vertices have moved. */
void grains_mesh_update_bounds(grains_mesh *m);

/* x minus the point of element `e` closest to x (see geometry/primitives.h);
 * of a periodic element, x's image nearest the element's centre. */
grains_vec3 grains_mesh_offset(const grains_mesh *m, size_t e, grains_vec3 x);
/* The image of x (by whole periods along the element's periodic axes)
 * nearest element e's centre: x itself for an element that does not repeat. */
grains_vec3 grains_mesh_image(const grains_mesh *m, size_t e, grains_vec3 x);

GRAINS_API_END

#endif
