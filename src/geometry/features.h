/* Which feature of a mesh element - its face, an edge or a vertex - holds
 * the point closest to a particle, named by the mesh's vertex ids so that
 * neighbouring elements can tell that they share it (the membrane paper's
 * Eq. 17 classification, for rigid meshes as for patches). */
#ifndef GRAINS_GEOMETRY_FEATURES_H
#define GRAINS_GEOMETRY_FEATURES_H

#include <stdint.h>

#include "grains/mesh.h"
#include "math/vec3.h"

/* dim 2: the face of element a; dim 1: the edge between vertices a < b;
 * dim 0: vertex a. A parallelogram's implied corner has the id
 * FEATURE_IMPLIED | element, which no other element shares. */
typedef struct {
    int dim;
    uint32_t a, b;
} mesh_feature;

#define FEATURE_IMPLIED 0x80000000u

/* x minus the closest point of element e, and the feature that holds it. */
vec3 mesh_offset_feature(const grains_mesh *m, uint32_t e, vec3 x, mesh_feature *f);

/* Whether the vertex or edge f is one of element e's (never for a face). */
int mesh_feature_on(const grains_mesh *m, uint32_t e, mesh_feature f);

/* Whether element e has at least one vertex of the vertex or edge f. */
int mesh_feature_touches(const grains_mesh *m, uint32_t e, mesh_feature f);

static inline int mesh_feature_same(mesh_feature f, mesh_feature g)
{
    return f.dim == g.dim && f.a == g.a && f.b == g.b;
}

#endif
