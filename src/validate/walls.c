/* Flat walls for the validation cases: rectangles of radius 0. */
#include "grains/mesh.h"
#include "validate/validate.h"

grains_status validate_rectangles(grains_sim *sim, const grains_vec3 *corner, int n, grains_error *err)
{
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    if (st != GRAINS_OK)
        return st;
    for (int r = 0; r < n && st == GRAINS_OK; r++) {
        for (int k = 0; k < 4 && st == GRAINS_OK; k++)
            st = grains_mesh_add_vertex(m, corner[4 * r + k], err);
        uint32_t v[4] = {4 * (uint32_t)r, 4 * (uint32_t)r + 1, 4 * (uint32_t)r + 2, 4 * (uint32_t)r + 3};
        if (st == GRAINS_OK)
            st = grains_mesh_add_element(m, 4, v, 0, 0, err);
    }
    if (st == GRAINS_OK)
        st = grains_sim_set_mesh(sim, m, err);
    grains_mesh_destroy(m);
    return st;
}

grains_status validate_x_walls(grains_sim *sim, const double *x, int n, double L, grains_error *err)
{
    grains_vec3 corner[4 * 4];
    if (n > 4)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "validate_x_walls: at most 4 walls, got %d", n);
    for (int w = 0; w < n; w++) {
        const grains_vec3 c[4] = {{x[w], -L, -L}, {x[w], L, -L}, {x[w], L, L}, {x[w], -L, L}};
        for (int k = 0; k < 4; k++)
            corner[4 * w + k] = c[k];
    }
    return validate_rectangles(sim, corner, n, err);
}
