/* A particle's listed mesh elements as candidates of the ghost-free
 * selection (interact/mesh_select.h), compiled once more per instruction set
 * with the lanes (CMakeLists.txt, GRAINS_KERNEL_SOURCES), as are the
 * closest points it takes (geometry/). */
#include "interact/contact_visit.h"
#include "interact/mesh_select.h"

/* The candidates of particle i's listed elements [k0, end): closest points,
 * features, whether they touch, and which make contacts (interact/mesh_select.h). */
void sim_select_mesh_contacts(const force_view *fv, uint32_t i, vec3 x_i, int mat_i, uint32_t k0, uint32_t end,
                               mesh_candidate *c, const int mixed, const int extended)
{
    const grains_particles *pt = &fv->pt;
    int n = (int)(end - k0);
    for (int a = 0; a < n; a++) {
        uint32_t entry = fv->nb.j[k0 + (uint32_t)a], e = entry & STORE_INDEX_MASK;
        const grains_mesh_element *el = &fv->mesh->elements[e];
        c[a].e = e;
        c[a].dx = mesh_offset_feature(fv->mesh, e, x_i, &c[a].f);
        c[a].d2 = v3_dot(c[a].dx, c[a].dx);
        const hm_law *law = hm_law_pw(fv->hp, mat_i, el->material);
        const int sticky = extended && fv->hp->holds;
        real reach = pt->R[i] + el->R + (sticky ? hold_gap(law, pt->R[i], el->R, 1, entry) : 0);
        c[a].touching = c[a].d2 < reach * reach && c[a].d2 > 0 && !(mixed && law->no_contact);
        c[a].had_history = (entry & STORE_HIST_BIT) != 0;
    }
    mesh_select(fv->mesh, c, n);
}
