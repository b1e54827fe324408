/* The recorded contacts as VTK lines (grains_vtk_write_contacts): force
 * chains in ParaView, coloured by normal_force or drawn as tubes. */
#include <math.h>
#include <stdlib.h>

#include "grains/io.h"
#include "io/vtk_array.h"

/* Each contact's two ends as points, 2k and 2k + 1. */
static void contact_points(vtk_out *o, const grains_contact_force *c, size_t n, double *b)
{
    for (size_t k = 0; k < n; k++) {
        const grains_vec3 e[2] = {c[k].x_a, c[k].x_b};
        for (int s = 0; s < 2; s++)
            b[6 * k + 3 * (size_t)s] = e[s].x, b[6 * k + 3 * (size_t)s + 1] = e[s].y, b[6 * k + 3 * (size_t)s + 2] = e[s].z;
    }
    fputs("<Points>\n", o->f);
    vtk_doubles(o, "position", 3, b, 2 * n, 10);
    fputs("</Points>\n", o->f);
}

/* One line per contact, from point 2k to 2k + 1. */
static void contact_lines(vtk_out *o, size_t n, int64_t *ib)
{
    fputs("<Lines>\n", o->f);
    for (size_t k = 0; k < 2 * n; k++)
        ib[k] = (int64_t)k;
    vtk_ints(o, "Int64", "connectivity", 1, ib, 2 * n);
    for (size_t k = 0; k < n; k++)
        ib[k] = 2 * (int64_t)k + 2;
    vtk_ints(o, "Int64", "offsets", 1, ib, n);
    fputs("</Lines>\n", o->f);
}

static void vector_array(vtk_out *o, const char *name, const grains_contact_force *c, size_t n, int tangential,
                         double *b)
{
    for (size_t k = 0; k < n; k++) {
        grains_vec3 f = tangential ? c[k].f_t : c[k].f_n;
        b[3 * k] = f.x, b[3 * k + 1] = f.y, b[3 * k + 2] = f.z;
    }
    vtk_doubles(o, name, 3, b, n, 10);
}

static void contact_data(vtk_out *o, const grains_sim *sim, const grains_contact_force *c, size_t n, double *b,
                         int64_t *ib)
{
    fputs("<CellData Scalars=\"normal_force\" Vectors=\"force_normal\">\n", o->f);
    vector_array(o, "force_normal", c, n, 0, b);
    vector_array(o, "force_tangential", c, n, 1, b);
    for (size_t k = 0; k < n; k++) { /* along x_a - x_b: positive when it pushes a away from b */
        grains_vec3 d = {c[k].x_a.x - c[k].x_b.x, c[k].x_a.y - c[k].x_b.y, c[k].x_a.z - c[k].x_b.z};
        double len = sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fn = c[k].f_n.x * d.x + c[k].f_n.y * d.y + c[k].f_n.z * d.z;
        b[k] = len > 0 ? fn / len : 0;
    }
    vtk_doubles(o, "normal_force", 1, b, n, 10);
    for (size_t k = 0; k < n; k++)
        b[k] = c[k].delta;
    vtk_doubles(o, "overlap", 1, b, n, 10);
    for (size_t k = 0; k < n; k++)
        ib[k] = c[k].wall;
    vtk_ints(o, "Int32", "kind", 1, ib, n);
    for (size_t k = 0; k < n; k++)
        ib[k] = (int64_t)c[k].a;
    vtk_ints(o, "Int64", "a", 1, ib, n);
    for (size_t k = 0; k < n; k++)
        ib[k] = (int64_t)c[k].b;
    vtk_ints(o, "Int64", "b", 1, ib, n);
    for (size_t k = 0; k < n; k++) /* (the grains' persistent ids; b of a wall: -1) */
        ib[k] = c[k].a < grains_sim_count(sim) ? (int64_t)grains_sim_uid(sim, c[k].a) : -1;
    vtk_ints(o, "Int64", "uid_a", 1, ib, n);
    for (size_t k = 0; k < n; k++)
        ib[k] = !c[k].wall && c[k].b < grains_sim_count(sim) ? (int64_t)grains_sim_uid(sim, c[k].b) : -1;
    vtk_ints(o, "Int64", "uid_b", 1, ib, n);
    fputs("</CellData>\n", o->f);
}

grains_status grains_vtk_write_contacts(const char *path, const grains_sim *sim, grains_vtk_format format,
                                        grains_error *err)
{
    size_t n = grains_sim_recorded_count(sim), got;
    grains_contact_force *c = malloc((n + 1) * sizeof *c);
    double *b = malloc((6 * n + 1) * sizeof *b);
    int64_t *ib = malloc((2 * n + 1) * sizeof *ib);
    grains_status s = c && b && ib ? grains_sim_get_contact_forces(sim, c, n, &got, err)
                                   : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory for %zu contacts", n);
    atomic_file af;
    if (s == GRAINS_OK)
        s = atomic_open(&af, path, err);
    if (s == GRAINS_OK) {
        vtk_out o = {af.f, format, 0};
        vtk_piece_open(&o, 2 * n, 0, n, 0);
        contact_points(&o, c, n, b);
        contact_data(&o, sim, c, n, b, ib);
        contact_lines(&o, n, ib);
        vtk_piece_close(&o);
        s = vtk_finish(&o, &af, path, err);
    }
    free(c);
    free(b);
    free(ib);
    return s;
}
