/* VTK XML PolyData (.vtp) and ParaView collections (.pvd). The frames'
 * arrays are compressed binary by default, or plain binary or ASCII
 * (io/vtk_array.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grains/io.h"
#include "io/atomic_file.h"
#include "io/mesh_drawing.h"
#include "io/vtk_array.h"

/* Cells of one vertex each, 0 to n - 1: connectivity and offsets. `ib`
 * holds n integers. */
static void cells_identity(vtk_out *o, const char *tag, int64_t *ib, size_t n)
{
    fprintf(o->f, "<%s>\n", tag);
    for (size_t i = 0; i < n; i++)
        ib[i] = (int64_t)i;
    vtk_ints(o, "Int64", "connectivity", 1, ib, n);
    for (size_t i = 0; i < n; i++)
        ib[i] = (int64_t)i + 1;
    vtk_ints(o, "Int64", "offsets", 1, ib, n);
    fprintf(o->f, "</%s>\n", tag);
}

/* One field of every particle into b (comps values each). */
enum { FIELD_X, FIELD_R, FIELD_V, FIELD_W, FIELD_Q };

static void particle_field(const grains_sim *sim, int field, double *b, size_t n)
{
    grains_particle p;
    for (size_t i = 0; i < n; i++) {
        grains_sim_get_particle(sim, i, &p);
        const double all[5][4] = {{p.x.x, p.x.y, p.x.z}, {p.R}, {p.v.x, p.v.y, p.v.z},
                                  {p.w.x, p.w.y, p.w.z}, {p.q.q0, p.q.q1, p.q.q2, p.q.q3}};
        static const int comps[5] = {3, 1, 3, 3, 4};
        memcpy(b + (size_t)comps[field] * i, all[field], (size_t)comps[field] * sizeof *b);
    }
}

/* From the contacts the last step recorded: each particle's number of
 * contacts, their force sum and Love's stress (9 components, row-major). */
static void contact_arrays(vtk_out *o, const grains_sim *sim, double *b, int64_t *ib, size_t n)
{
    int *coord = malloc(n * sizeof *coord);
    double(*stress)[9] = malloc(n * sizeof *stress);
    if (!coord || !stress) {
        o->out_of_memory = 1;
        free(coord);
        free(stress);
        return;
    }
    grains_sim_contact_stress(sim, coord, stress);
    for (size_t i = 0; i < n; i++)
        ib[i] = coord[i];
    vtk_ints(o, "Int32", "coordination", 1, ib, n);
    for (size_t i = 0; i < n; i++) {
        grains_vec3 f, t;
        grains_sim_contact_sums(sim, i, &f, &t);
        b[3 * i] = f.x, b[3 * i + 1] = f.y, b[3 * i + 2] = f.z;
    }
    vtk_doubles(o, "contact_force", 3, b, n, 10);
    vtk_doubles(o, "stress", 9, &stress[0][0], n, 10);
    free(coord);
    free(stress);
}

static void particle_arrays(vtk_out *o, const grains_sim *sim, double *b, int64_t *ib, size_t n)
{
    static const char *names[5] = {"position", "radius", "velocity", "angular_velocity", "orientation"};
    static const int comps[5] = {3, 1, 3, 3, 4};
    fputs("<Points>\n", o->f);
    for (int k = 0; k < 5; k++) {
        if (k == FIELD_R)
            fputs("</Points>\n<PointData Scalars=\"radius\" Vectors=\"velocity\">\n", o->f);
        particle_field(sim, k, b, n);
        vtk_doubles(o, names[k], comps[k], b, n, 10);
    }
    for (size_t i = 0; i < n; i++)
        ib[i] = (int64_t)i;
    vtk_ints(o, "Int64", "id", 1, ib, n);
    if (grains_sim_params(sim)->n_materials > 1) {
        grains_particle p;
        for (size_t i = 0; i < n; i++)
            grains_sim_get_particle(sim, i, &p), ib[i] = p.material;
        vtk_ints(o, "Int32", "material", 1, ib, n);
    }
    grains_particle p;
    for (size_t i = 0; i < n; i++)
        grains_sim_get_particle(sim, i, &p), ib[i] = p.tag;
    vtk_ints(o, "Int32", "tag", 1, ib, n);
    grains_vec3 f, t;
    if (n && grains_sim_contact_sums(sim, 0, &f, &t))
        contact_arrays(o, sim, b, ib, n);
    fputs("</PointData>\n", o->f);
}

grains_status grains_vtk_write_particles(const char *path, const grains_sim *sim, grains_vtk_format format,
                                         grains_error *err)
{
    size_t n = grains_sim_count(sim);
    double *b = malloc((4 * n + 1) * sizeof *b);
    int64_t *ib = malloc((n + 1) * sizeof *ib);
    atomic_file af;
    grains_status s = b && ib ? atomic_open(&af, path, err)
                              : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory for %zu particles", n);
    if (s == GRAINS_OK) {
        vtk_out o = {af.f, format, 0};
        vtk_piece_open(&o, n, n, 0, 0);
        particle_arrays(&o, sim, b, ib, n);
        cells_identity(&o, "Verts", ib, n);
        vtk_piece_close(&o);
        s = vtk_finish(&o, &af, path, err);
    }
    free(b);
    free(ib);
    return s;
}

/* One kind of cells (Verts, Lines or Polys) of a mesh drawing. */
static void drawing_cells(vtk_out *o, const draw_cells *c, const char *tag, int64_t *ib)
{
    fprintf(o->f, "<%s>\n", tag);
    for (size_t k = 0; k < c->n_conn; k++)
        ib[k] = c->conn[k];
    vtk_ints(o, "Int64", "connectivity", 1, ib, c->n_conn);
    for (size_t k = 0; k < c->n; k++)
        ib[k] = c->end[k];
    vtk_ints(o, "Int64", "offsets", 1, ib, c->n);
    fprintf(o->f, "</%s>\n", tag);
}

/* A per-element integer as cell data, in the cells' order. */
static void element_ints(vtk_out *o, const mesh_drawing *d, const grains_mesh *m, const char *name, int body,
                         int64_t *ib)
{
    size_t n = 0;
    for (int k = 0; k < DRAW_KINDS; k++)
        for (size_t c = 0; c < d->cells[k].n; c++) {
            const grains_mesh_element *el = &m->elements[d->cells[k].element[c]];
            ib[n++] = body ? el->body : el->material;
        }
    vtk_ints(o, "Int32", name, 1, ib, n);
}

static void mesh_arrays(vtk_out *o, const mesh_drawing *d, const grains_mesh *m, double *b, int64_t *ib)
{
    fputs("<Points>\n", o->f);
    for (size_t k = 0; k < d->n_points; k++)
        memcpy(b + 3 * k, (const double[3]){d->points[k].x, d->points[k].y, d->points[k].z}, 3 * sizeof *b);
    vtk_doubles(o, "position", 3, b, d->n_points, 17);
    fputs("</Points>\n<CellData Scalars=\"radius\">\n", o->f);
    size_t n = 0;
    for (int k = 0; k < DRAW_KINDS; k++)
        for (size_t c = 0; c < d->cells[k].n; c++)
            b[n++] = m->elements[d->cells[k].element[c]].R;
    vtk_doubles(o, "radius", 1, b, n, 17);
    int materials = 0, bodies = 0;
    for (size_t e = 0; e < m->n_elements; e++) {
        materials |= m->elements[e].material >= 0; /* -1 rigid, -2 the run's default */
        bodies |= m->elements[e].body > 0;
    }
    if (materials)
        element_ints(o, d, m, "material", 0, ib);
    if (bodies) /* several meshes: each element's, numbered as in `meshes` */
        element_ints(o, d, m, "mesh", 1, ib);
    fputs("</CellData>\n", o->f);
    drawing_cells(o, &d->cells[DRAW_VERTS], "Verts", ib);
    drawing_cells(o, &d->cells[DRAW_LINES], "Lines", ib);
    drawing_cells(o, &d->cells[DRAW_POLYS], "Polys", ib);
}

/* The largest count of values among a drawing's arrays. */
static size_t drawing_values(const mesh_drawing *d)
{
    size_t n = 3 * d->n_points + 1;
    for (int k = 0; k < DRAW_KINDS; k++)
        n = n > d->cells[k].n_conn + d->cells[k].n ? n : d->cells[k].n_conn + d->cells[k].n;
    return n + d->cells[DRAW_VERTS].n + d->cells[DRAW_LINES].n + d->cells[DRAW_POLYS].n;
}

grains_status grains_vtk_write_mesh(const char *path, const grains_mesh *m, grains_vtk_format format,
                                    grains_error *err)
{
    mesh_drawing d;
    grains_status s = mesh_drawing_build(&d, m, err);
    if (s != GRAINS_OK)
        return s;
    size_t n = drawing_values(&d);
    double *b = malloc(n * sizeof *b);
    int64_t *ib = malloc(n * sizeof *ib);
    atomic_file af;
    s = b && ib ? atomic_open(&af, path, err) : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK) {
        vtk_out o = {af.f, format, 0};
        vtk_piece_open(&o, d.n_points, d.cells[DRAW_VERTS].n, d.cells[DRAW_LINES].n, d.cells[DRAW_POLYS].n);
        mesh_arrays(&o, &d, m, b, ib);
        vtk_piece_close(&o);
        s = vtk_finish(&o, &af, path, err);
    }
    free(b);
    free(ib);
    mesh_drawing_free(&d);
    return s;
}

grains_status grains_pvd_write(const char *path, const char *const *files, const double *times, size_t n,
                               grains_error *err)
{
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    fputs("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
          "<Collection>\n", af.f);
    for (size_t k = 0; k < n; k++)
        fprintf(af.f, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", times[k], files[k]);
    fputs("</Collection>\n</VTKFile>\n", af.f);
    return atomic_commit(&af, err);
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

grains_status grains_output_dir(const char *dir, grains_error *err)
{
    struct stat st;
    if (make_dirs(dir) != 0 || stat(dir, &st) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, dir, 0, "cannot create the output directory: %s",
                                strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return grains_error_set(err, GRAINS_ERR_IO, dir, 0, "exists and is not a directory");
    if (access(dir, W_OK | X_OK) != 0)
        return grains_error_set(err, GRAINS_ERR_IO, dir, 0, "output directory is not writable: %s", strerror(errno));
    return GRAINS_OK;
}

/* Points of all membranes, membrane after membrane. */
static size_t membrane_points(const grains_sim *sim)
{
    size_t n = 0;
    for (size_t k = 0; k < grains_sim_membrane_count(sim); k++)
        n += grains_sim_membrane_vertices(sim, k);
    return n;
}

/* The membranes' vertices: positions, velocities, membrane numbers. */
static void membrane_point_data(vtk_out *o, const grains_sim *sim, double *b, int64_t *ib)
{
    grains_membrane_vertex v;
    size_t n_m = grains_sim_membrane_count(sim), n = 0;
    for (size_t k = 0; k < n_m; k++)
        for (size_t i = 0; i < grains_sim_membrane_vertices(sim, k); i++, n++) {
            grains_sim_get_membrane_vertex(sim, k, i, &v);
            memcpy(b + 3 * n, (const double[3]){v.x.x, v.x.y, v.x.z}, 3 * sizeof *b);
            ib[n] = (int64_t)k;
        }
    fputs("<Points>\n", o->f);
    vtk_doubles(o, "position", 3, b, n, 10);
    fputs("</Points>\n<PointData Vectors=\"velocity\">\n", o->f);
    n = 0;
    for (size_t k = 0; k < n_m; k++)
        for (size_t i = 0; i < grains_sim_membrane_vertices(sim, k); i++, n++) {
            grains_sim_get_membrane_vertex(sim, k, i, &v);
            memcpy(b + 3 * n, (const double[3]){v.v.x, v.v.y, v.v.z}, 3 * sizeof *b);
        }
    vtk_doubles(o, "velocity", 3, b, n, 10);
    vtk_ints(o, "Int32", "membrane", 1, ib, n);
    fputs("</PointData>\n", o->f);
}

/* The triangles' stretch and the pressure on them. */
static void membrane_cell_data(vtk_out *o, const grains_sim *sim, double *b)
{
    uint32_t v[3];
    double stretch;
    grains_membrane_load load;
    const grains_vec3 z = {0, 0, 1};
    size_t n_m = grains_sim_membrane_count(sim), n = 0;
    fputs("<CellData Scalars=\"stretch\">\n", o->f);
    for (size_t k = 0; k < n_m; k++)
        for (size_t t = 0; t < grains_sim_membrane_triangles(sim, k); t++)
            grains_sim_get_membrane_triangle(sim, k, t, v, &stretch), b[n++] = stretch;
    vtk_doubles(o, "stretch", 1, b, n, 10);
    n = 0;
    for (size_t k = 0; k < n_m; k++) {
        grains_sim_membrane_load(sim, k, z, z, &load);
        for (size_t t = 0; t < grains_sim_membrane_triangles(sim, k); t++)
            b[n++] = load.pressure;
    }
    vtk_doubles(o, "pressure", 1, b, n, 10);
    fputs("</CellData>\n", o->f);
}

/* The triangles, numbered over all membranes' vertices. */
static void membrane_polys(vtk_out *o, const grains_sim *sim, int64_t *ib, size_t n_t)
{
    uint32_t v[3];
    double stretch;
    size_t n = 0, first = 0;
    fputs("<Polys>\n", o->f);
    for (size_t k = 0; k < grains_sim_membrane_count(sim); first += grains_sim_membrane_vertices(sim, k), k++)
        for (size_t t = 0; t < grains_sim_membrane_triangles(sim, k); t++) {
            grains_sim_get_membrane_triangle(sim, k, t, v, &stretch);
            for (int c = 0; c < 3; c++)
                ib[n++] = (int64_t)(first + v[c]);
        }
    vtk_ints(o, "Int64", "connectivity", 1, ib, n);
    for (size_t t = 0; t < n_t; t++)
        ib[t] = 3 * ((int64_t)t + 1);
    vtk_ints(o, "Int64", "offsets", 1, ib, n_t);
    fputs("</Polys>\n", o->f);
}

grains_status grains_vtk_write_membranes(const char *path, const grains_sim *sim, grains_vtk_format format,
                                         grains_error *err)
{
    size_t n_t = 0, n_p = membrane_points(sim);
    for (size_t k = 0; k < grains_sim_membrane_count(sim); k++)
        n_t += grains_sim_membrane_triangles(sim, k);
    size_t n = 3 * (n_p > n_t ? n_p : n_t) + 1;
    double *b = malloc(n * sizeof *b);
    int64_t *ib = malloc(n * sizeof *ib);
    atomic_file af;
    grains_status s = b && ib ? atomic_open(&af, path, err)
                              : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK) {
        vtk_out o = {af.f, format, 0};
        vtk_piece_open(&o, n_p, 0, 0, n_t);
        membrane_point_data(&o, sim, b, ib);
        membrane_cell_data(&o, sim, b);
        membrane_polys(&o, sim, ib, n_t);
        vtk_piece_close(&o);
        s = vtk_finish(&o, &af, path, err);
    }
    free(b);
    free(ib);
    return s;
}
