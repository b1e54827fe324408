/* Generated membranes (membrane/sheet.h). */
#include "membrane/sheet.h"

#include <math.h>

/* The two triangles between vertices a, b of one row and up, up1 above
 * them, counter-clockwise: the row above is shifted forward by half a step
 * from an even row and back from an odd one. */
static grains_status add_cell(grains_mesh *m, int odd, uint32_t a, uint32_t b, uint32_t up, uint32_t up1,
                              grains_error *err)
{
    uint32_t t1[3] = {a, b, up}, t2[3] = {b, up1, up}, u1[3] = {a, up1, up}, u2[3] = {a, b, up1};
    grains_status st = grains_mesh_add_element(m, 3, odd ? u1 : t1, 0, 0, err);
    return st == GRAINS_OK ? grains_mesh_add_element(m, 3, odd ? u2 : t2, 0, 0, err) : st;
}

/* Vertices a generated membrane may have: a membrane's vertex holds about
 * 200 bytes, so 10^7 of them take 2 GB (the membrane paper's largest,
 * 20,374). Checked before anything is allocated. */
#define MEMBRANE_VERTICES 1e7

grains_status membrane_sheet_mesh(grains_mesh **out, int nx, int ny, real s, grains_error *err)
{
    *out = NULL;
    if (nx < 2 || ny < 2 || !(s > 0) || !isfinite(s) || (double)nx * ny > MEMBRANE_VERTICES)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane sheet: %d x %d vertices with spacing %g: need at least 2 x 2, at most "
                                "%g vertices, spacing > 0", nx, ny, s, MEMBRANE_VERTICES);
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    const real h = s * sqrt(3.0) / 2;
    for (int r = 0; st == GRAINS_OK && r < ny; r++)
        for (int c = 0; st == GRAINS_OK && c < nx; c++)
            st = grains_mesh_add_vertex(m, (grains_vec3){c * s + (r % 2 ? s / 2 : 0), r * h, 0}, err);
    for (int r = 0; st == GRAINS_OK && r + 1 < ny; r++)
        for (int c = 0; st == GRAINS_OK && c + 1 < nx; c++) {
            uint32_t a = (uint32_t)(r * nx + c);
            st = add_cell(m, r % 2, a, a + 1, a + (uint32_t)nx, a + 1 + (uint32_t)nx, err);
        }
    if (st != GRAINS_OK) {
        grains_mesh_destroy(m);
        return st;
    }
    *out = m;
    return GRAINS_OK;
}

grains_status membrane_cylinder_mesh(grains_mesh **out, size_t *n_ring, real Rc, real H, real s, grains_error *err)
{
    *out = NULL;
    const real PI = 3.14159265358979323846, h = s * sqrt(3.0) / 2;
    if (!(Rc > 0 && H > 0 && s > 0) || !isfinite(Rc) || !isfinite(H) || !isfinite(s))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane cylinder: radius %g, height %g, spacing %g: all must be > 0", Rc, H, s);
    double around = fmax(3, round(2 * PI * Rc / s)), along = fmax(2, round(H / h) + 1);
    if (!(around * along <= MEMBRANE_VERTICES))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane cylinder: radius %g, height %g, spacing %g make %.0f x %.0f vertices: at "
                                "most %g (a larger spacing)", Rc, H, s, around, along, MEMBRANE_VERTICES);
    int n = (int)around, rings = (int)along;
    real dz = H / (rings - 1); /* the last ring at H exactly, where a platen meets it */
    grains_mesh *m;
    grains_status st = grains_mesh_create(&m, err);
    for (int r = 0; st == GRAINS_OK && r < rings; r++)
        for (int c = 0; st == GRAINS_OK && c < n; c++) {
            real phi = 2 * PI * (c + (r % 2 ? 0.5 : 0)) / n;
            st = grains_mesh_add_vertex(m, (grains_vec3){Rc * cos(phi), Rc * sin(phi), r * dz}, err);
        }
    for (int r = 0; st == GRAINS_OK && r + 1 < rings; r++)
        for (int c = 0; st == GRAINS_OK && c < n; c++) {
            /* as the sheet's rows, wrapped around: angle for x, z for y */
            uint32_t a = (uint32_t)(r * n + c), b = (uint32_t)(r * n + (c + 1) % n);
            st = add_cell(m, r % 2, a, b, a + (uint32_t)n, b + (uint32_t)n, err);
        }
    if (st != GRAINS_OK) {
        grains_mesh_destroy(m);
        return st;
    }
    *n_ring = (size_t)n;
    *out = m;
    return GRAINS_OK;
}
