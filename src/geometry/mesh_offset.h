/* A point's offset from a mesh element (centre minus closest point, by the
 * image nearest the element along its periodic axes) and that image: what
 * grains_mesh_offset and grains_mesh_image (grains/mesh.h) give, for the
 * loops compiled once more per instruction set (CMakeLists.txt,
 * GRAINS_KERNEL_SOURCES), which take their own copy under another name
 * (the library exports the API's alone). */
#ifndef GRAINS_GEOMETRY_MESH_OFFSET_H
#define GRAINS_GEOMETRY_MESH_OFFSET_H

#include "grains/mesh.h"
#include "math/vec3.h"

vec3 mesh_element_offset(const grains_mesh *m, size_t e, vec3 x);
vec3 mesh_element_image(const grains_mesh *m, size_t e, vec3 x);

#endif
