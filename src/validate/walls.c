/* Flat walls for the validation cases: squares normal to x. */
#include "grains/mesh.h"
#include "validate/validate.h"

grains_status validate_x_walls(grains_sim *sim, const double *x, int n, double L, grains_error *err)
{
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    if (st != GRAINS_OK)
        return st;
    for (int w = 0; w < n && st == GRAINS_OK; w++) {
        const grains_vec3 corner[4] = {{x[w], -L, -L}, {x[w], L, -L}, {x[w], L, L}, {x[w], -L, L}};
        for (int k = 0; k < 4 && st == GRAINS_OK; k++)
            st = grains_mesh_add_vertex(m, corner[k], err);
        uint32_t v[4] = {4 * (uint32_t)w, 4 * (uint32_t)w + 1, 4 * (uint32_t)w + 2, 4 * (uint32_t)w + 3};
        if (st == GRAINS_OK)
            st = grains_mesh_add_element(m, 4, v, 0, 0, err);
    }
    if (st == GRAINS_OK)
        st = grains_sim_set_mesh(sim, m, err);
    grains_mesh_destroy(m);
    return st;
}
