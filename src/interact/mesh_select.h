/* Ghost-free contacts with meshes: the selection rule of the membrane
 * paper's Table 1 (Hu et al. 2013), made deterministic. */
#ifndef GRAINS_INTERACT_MESH_SELECT_H
#define GRAINS_INTERACT_MESH_SELECT_H

#include "contact/hertz_mindlin.h"
#include "geometry/features.h"

/* One listed element of one particle. */
typedef struct {
    uint32_t e;           /* element */
    vec3 dx;              /* particle centre minus the closest point */
    real d2;              /* |dx|^2 */
    mesh_feature f;       /* the feature that holds the closest point */
    int touching;
    int keep;             /* set by mesh_select */
    int by;               /* the candidate that supersedes this one, or -1 */
    int had_history;      /* the contact existed at the last step */
    int donor;            /* new and kept: the superseded candidate whose history it takes over, or -1 */
    hm_history inherited; /* the donor's history (filled by the caller) */
} mesh_candidate;

/* Decides which of the touching candidates (in ascending element order)
 * make contacts. A candidate whose closest point lies on a vertex or edge
 * that a touching neighbour also has is superseded: by the neighbour whose
 * closest point is on a feature of higher dimension (a face beats an edge,
 * an edge a vertex), or, at the same vertex or edge, by the lower element.
 * Beyond the paper's pairs with a common edge: an edge or vertex that ends
 * at a vertex of a neighbour whose larger feature pushes within 45 degrees
 * of the same way is superseded too. Faces are never superseded, so a
 * concave edge or corner (the particle touches both faces) keeps all its
 * contacts. A new contact takes over the
 * history of the lowest candidate it superseded (directly or through a
 * chain), so a contact that slides across a seam keeps its springs. */
void mesh_select(const grains_mesh *m, mesh_candidate *c, int n);

#endif
