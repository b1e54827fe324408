/* VTK XML PolyData (.vtp) and ParaView collections (.pvd), ASCII so that any
 * XML parser and ParaView read them. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grains/io.h"
#include "io/atomic_file.h"
#include "io/mesh_drawing.h"

static void piece_open(FILE *f, size_t points, size_t verts, size_t lines, size_t polys)
{
    fputs("<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n<PolyData>\n", f);
    fprintf(f,
            "<Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" NumberOfStrips=\"0\" "
            "NumberOfPolys=\"%zu\">\n", points, verts, lines, polys);
}

static void piece_close(FILE *f) { fputs("</Piece>\n</PolyData>\n</VTKFile>\n", f); }

static void array_open(FILE *f, const char *type, const char *name, int comps)
{
    fprintf(f, "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n", type, name, comps);
}

static void array_close(FILE *f) { fputs("</DataArray>\n", f); }

/* Connectivity and offsets of `n` cells of `size` vertices numbered from `first`. */
static void cells_identity(FILE *f, const char *tag, size_t n)
{
    fprintf(f, "<%s>\n", tag);
    array_open(f, "Int64", "connectivity", 1);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%zu\n", i);
    array_close(f);
    array_open(f, "Int64", "offsets", 1);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%zu\n", i + 1);
    array_close(f);
    fprintf(f, "</%s>\n", tag);
}

grains_status grains_vtk_write_particles(const char *path, const grains_sim *sim, grains_error *err)
{
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    FILE *f = af.f;
    size_t n = grains_sim_count(sim);
    grains_particle p;
    piece_open(f, n, n, 0, 0);
    fputs("<Points>\n", f);
    array_open(f, "Float64", "position", 3);
    for (size_t i = 0; i < n; i++)
        grains_sim_get_particle(sim, i, &p), fprintf(f, "%.10g %.10g %.10g\n", p.x.x, p.x.y, p.x.z);
    array_close(f);
    fputs("</Points>\n<PointData Scalars=\"radius\" Vectors=\"velocity\">\n", f);
    array_open(f, "Float64", "radius", 1);
    for (size_t i = 0; i < n; i++)
        grains_sim_get_particle(sim, i, &p), fprintf(f, "%.10g\n", p.R);
    array_close(f);
    array_open(f, "Float64", "velocity", 3);
    for (size_t i = 0; i < n; i++)
        grains_sim_get_particle(sim, i, &p), fprintf(f, "%.10g %.10g %.10g\n", p.v.x, p.v.y, p.v.z);
    array_close(f);
    array_open(f, "Float64", "angular_velocity", 3);
    for (size_t i = 0; i < n; i++)
        grains_sim_get_particle(sim, i, &p), fprintf(f, "%.10g %.10g %.10g\n", p.w.x, p.w.y, p.w.z);
    array_close(f);
    array_open(f, "Float64", "orientation", 4);
    for (size_t i = 0; i < n; i++)
        grains_sim_get_particle(sim, i, &p), fprintf(f, "%.10g %.10g %.10g %.10g\n", p.q.q0, p.q.q1, p.q.q2, p.q.q3);
    array_close(f);
    array_open(f, "Int64", "id", 1);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%zu\n", i);
    array_close(f);
    if (grains_sim_params(sim)->n_materials > 1) {
        array_open(f, "Int32", "material", 1);
        for (size_t i = 0; i < n; i++)
            grains_sim_get_particle(sim, i, &p), fprintf(f, "%d\n", p.material);
        array_close(f);
    }
    fputs("</PointData>\n", f);
    cells_identity(f, "Verts", n);
    piece_close(f);
    return atomic_commit(&af, err);
}

/* One kind of cells (Verts, Lines or Polys) of a mesh drawing. */
static void drawing_cells(FILE *f, const draw_cells *c, const char *tag)
{
    fprintf(f, "<%s>\n", tag);
    array_open(f, "Int64", "connectivity", 1);
    for (size_t k = 0; k < c->n_conn; k++)
        fprintf(f, "%u\n", c->conn[k]);
    array_close(f);
    array_open(f, "Int64", "offsets", 1);
    for (size_t k = 0; k < c->n; k++)
        fprintf(f, "%u\n", c->end[k]);
    array_close(f);
    fprintf(f, "</%s>\n", tag);
}

/* A per-element integer as cell data, in the cells' order. */
static void element_ints(FILE *f, const mesh_drawing *d, const grains_mesh *m, const char *name, int body)
{
    array_open(f, "Int32", name, 1);
    for (int k = 0; k < DRAW_KINDS; k++)
        for (size_t c = 0; c < d->cells[k].n; c++) {
            const grains_mesh_element *el = &m->elements[d->cells[k].element[c]];
            fprintf(f, "%d\n", body ? el->body : el->material);
        }
    array_close(f);
}

grains_status grains_vtk_write_mesh(const char *path, const grains_mesh *m, grains_error *err)
{
    mesh_drawing d;
    grains_status s = mesh_drawing_build(&d, m, err);
    if (s != GRAINS_OK)
        return s;
    atomic_file af;
    if ((s = atomic_open(&af, path, err)) != GRAINS_OK) {
        mesh_drawing_free(&d);
        return s;
    }
    FILE *f = af.f;
    piece_open(f, d.n_points, d.cells[DRAW_VERTS].n, d.cells[DRAW_LINES].n, d.cells[DRAW_POLYS].n);
    fputs("<Points>\n", f);
    array_open(f, "Float64", "position", 3);
    for (size_t k = 0; k < d.n_points; k++)
        fprintf(f, "%.17g %.17g %.17g\n", d.points[k].x, d.points[k].y, d.points[k].z);
    array_close(f);
    fputs("</Points>\n<CellData Scalars=\"radius\">\n", f);
    array_open(f, "Float64", "radius", 1);
    for (int k = 0; k < DRAW_KINDS; k++)
        for (size_t c = 0; c < d.cells[k].n; c++)
            fprintf(f, "%.17g\n", m->elements[d.cells[k].element[c]].R);
    array_close(f);
    int materials = 0, bodies = 0;
    for (size_t e = 0; e < m->n_elements; e++) {
        materials |= m->elements[e].material >= 0; /* -1 rigid, -2 the run's default */
        bodies |= m->elements[e].body > 0;
    }
    if (materials)
        element_ints(f, &d, m, "material", 0);
    if (bodies) /* several meshes: each element's, numbered as in `meshes` */
        element_ints(f, &d, m, "mesh", 1);
    fputs("</CellData>\n", f);
    drawing_cells(f, &d.cells[DRAW_VERTS], "Verts");
    drawing_cells(f, &d.cells[DRAW_LINES], "Lines");
    drawing_cells(f, &d.cells[DRAW_POLYS], "Polys");
    piece_close(f);
    mesh_drawing_free(&d);
    return atomic_commit(&af, err);
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

static void membrane_point_data(FILE *f, const grains_sim *sim)
{
    grains_membrane_vertex v;
    size_t n_m = grains_sim_membrane_count(sim);
    fputs("<Points>\n", f);
    array_open(f, "Float64", "position", 3);
    for (size_t k = 0; k < n_m; k++)
        for (size_t i = 0; i < grains_sim_membrane_vertices(sim, k); i++)
            grains_sim_get_membrane_vertex(sim, k, i, &v), fprintf(f, "%.10g %.10g %.10g\n", v.x.x, v.x.y, v.x.z);
    array_close(f);
    fputs("</Points>\n<PointData Vectors=\"velocity\">\n", f);
    array_open(f, "Float64", "velocity", 3);
    for (size_t k = 0; k < n_m; k++)
        for (size_t i = 0; i < grains_sim_membrane_vertices(sim, k); i++)
            grains_sim_get_membrane_vertex(sim, k, i, &v), fprintf(f, "%.10g %.10g %.10g\n", v.v.x, v.v.y, v.v.z);
    array_close(f);
    array_open(f, "Int32", "membrane", 1);
    for (size_t k = 0; k < n_m; k++)
        for (size_t i = 0; i < grains_sim_membrane_vertices(sim, k); i++)
            fprintf(f, "%zu\n", k);
    array_close(f);
    fputs("</PointData>\n", f);
}

static void membrane_cell_data(FILE *f, const grains_sim *sim)
{
    uint32_t v[3];
    double stretch;
    grains_membrane_load load;
    const grains_vec3 z = {0, 0, 1};
    size_t n_m = grains_sim_membrane_count(sim);
    fputs("<CellData Scalars=\"stretch\">\n", f);
    array_open(f, "Float64", "stretch", 1);
    for (size_t k = 0; k < n_m; k++)
        for (size_t t = 0; t < grains_sim_membrane_triangles(sim, k); t++)
            grains_sim_get_membrane_triangle(sim, k, t, v, &stretch), fprintf(f, "%.10g\n", stretch);
    array_close(f);
    array_open(f, "Float64", "pressure", 1);
    for (size_t k = 0; k < n_m; k++) {
        grains_sim_membrane_load(sim, k, z, z, &load);
        for (size_t t = 0; t < grains_sim_membrane_triangles(sim, k); t++)
            fprintf(f, "%.10g\n", load.pressure);
    }
    array_close(f);
    fputs("</CellData>\n", f);
}

grains_status grains_vtk_write_membranes(const char *path, const grains_sim *sim, grains_error *err)
{
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    FILE *f = af.f;
    size_t n_m = grains_sim_membrane_count(sim), n_t = 0, first = 0;
    uint32_t v[3];
    double stretch;
    for (size_t k = 0; k < n_m; k++)
        n_t += grains_sim_membrane_triangles(sim, k);
    piece_open(f, membrane_points(sim), 0, 0, n_t);
    membrane_point_data(f, sim);
    membrane_cell_data(f, sim);
    fputs("<Polys>\n", f);
    array_open(f, "Int64", "connectivity", 1);
    for (size_t k = 0; k < n_m; first += grains_sim_membrane_vertices(sim, k), k++)
        for (size_t t = 0; t < grains_sim_membrane_triangles(sim, k); t++) {
            grains_sim_get_membrane_triangle(sim, k, t, v, &stretch);
            fprintf(f, "%zu %zu %zu\n", first + v[0], first + v[1], first + v[2]);
        }
    array_close(f);
    array_open(f, "Int64", "offsets", 1);
    for (size_t t = 0; t < n_t; t++)
        fprintf(f, "%zu\n", 3 * (t + 1));
    array_close(f);
    fputs("</Polys>\n", f);
    piece_close(f);
    return atomic_commit(&af, err);
}
