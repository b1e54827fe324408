/* Generated membranes (membrane/sheet.h). */
#include "membrane/sheet.h"

#include <math.h>

grains_status membrane_sheet_mesh(grains_mesh **out, int nx, int ny, real s, grains_error *err)
{
    *out = NULL;
    if (nx < 2 || ny < 2 || !(s > 0) || !isfinite(s) || (double)nx * ny > 1e8)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane sheet: %d x %d vertices with spacing %g: need at least 2 x 2, at most "
                                "1e8 vertices, spacing > 0", nx, ny, s);
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    const real h = s * sqrt(3.0) / 2;
    for (int r = 0; st == GRAINS_OK && r < ny; r++)
        for (int c = 0; st == GRAINS_OK && c < nx; c++)
            st = grains_mesh_add_vertex(m, (grains_vec3){c * s + (r % 2 ? s / 2 : 0), r * h, 0}, err);
    for (int r = 0; st == GRAINS_OK && r + 1 < ny; r++)
        for (int c = 0; st == GRAINS_OK && c + 1 < nx; c++) {
            uint32_t a = (uint32_t)(r * nx + c), b = a + 1, up = a + (uint32_t)nx, up1 = up + 1;
            /* even rows: the row above is shifted right; odd rows: left */
            uint32_t t1[3] = {a, b, up}, t2[3] = {b, up1, up}, u1[3] = {a, up1, up}, u2[3] = {a, b, up1};
            st = grains_mesh_add_element(m, 3, r % 2 ? u1 : t1, 0, 0, err);
            if (st == GRAINS_OK)
                st = grains_mesh_add_element(m, 3, r % 2 ? u2 : t2, 0, 0, err);
        }
    if (st != GRAINS_OK) {
        grains_mesh_destroy(m);
        return st;
    }
    *out = m;
    return GRAINS_OK;
}
