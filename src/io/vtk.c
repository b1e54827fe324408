/* VTK XML PolyData (.vtp) and ParaView collections (.pvd), ASCII so that any
 * XML parser and ParaView read them. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grains/io.h"
#include "io/atomic_file.h"

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

/* Mesh cells grouped as VTK orders them: vertices, lines, polygons. */
static void mesh_cells(FILE *f, const grains_mesh *m, const char *tag, int lo, int hi)
{
    size_t off = 0, extra = m->n_vertices;
    fprintf(f, "<%s>\n", tag);
    array_open(f, "Int64", "connectivity", 1);
    for (size_t e = 0; e < m->n_elements; e++) {
        const grains_mesh_element *el = &m->elements[e];
        if (el->n < lo || el->n > hi)
            continue;
        if (el->n == 4) /* parallelogram corners in order: v0 v1 (v1+v3-v0) v3 */
            fprintf(f, "%u %u %zu %u\n", el->v[0], el->v[1], extra++, el->v[3]);
        else
            for (int k = 0; k < el->n; k++)
                fprintf(f, "%u%c", el->v[k], k + 1 < el->n ? ' ' : '\n');
    }
    array_close(f);
    array_open(f, "Int64", "offsets", 1);
    for (size_t e = 0; e < m->n_elements; e++)
        if (m->elements[e].n >= lo && m->elements[e].n <= hi)
            fprintf(f, "%zu\n", off += (size_t)m->elements[e].n);
    array_close(f);
    fprintf(f, "</%s>\n", tag);
}

static size_t count_cells(const grains_mesh *m, int lo, int hi)
{
    size_t c = 0;
    for (size_t e = 0; e < m->n_elements; e++)
        c += m->elements[e].n >= lo && m->elements[e].n <= hi;
    return c;
}

grains_status grains_vtk_write_mesh(const char *path, const grains_mesh *m, grains_error *err)
{
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    FILE *f = af.f;
    size_t quads = count_cells(m, 4, 4);
    piece_open(f, m->n_vertices + quads, count_cells(m, 1, 1), count_cells(m, 2, 2), count_cells(m, 3, 4));
    fputs("<Points>\n", f);
    array_open(f, "Float64", "position", 3);
    for (size_t k = 0; k < m->n_vertices; k++)
        fprintf(f, "%.17g %.17g %.17g\n", m->vertices[k].x, m->vertices[k].y, m->vertices[k].z);
    for (size_t e = 0; e < m->n_elements; e++) {
        const grains_mesh_element *el = &m->elements[e];
        if (el->n != 4)
            continue;
        grains_vec3 a = m->vertices[el->v[0]], b = m->vertices[el->v[1]], d = m->vertices[el->v[3]];
        fprintf(f, "%.17g %.17g %.17g\n", b.x + d.x - a.x, b.y + d.y - a.y, b.z + d.z - a.z);
    }
    array_close(f);
    fputs("</Points>\n<CellData Scalars=\"radius\">\n", f);
    array_open(f, "Float64", "radius", 1);
    for (int lo = 1; lo <= 3; lo++) /* same order as the cells: 1, 2, then 3-4 */
        for (size_t e = 0; e < m->n_elements; e++)
            if (m->elements[e].n >= lo && m->elements[e].n <= (lo == 3 ? 4 : lo))
                fprintf(f, "%.17g\n", m->elements[e].R);
    array_close(f);
    int materials = 0, bodies = 0;
    for (size_t e = 0; e < m->n_elements; e++) {
        materials |= m->elements[e].material >= 0;
        bodies |= m->elements[e].body > 0;
    }
    if (bodies) { /* several meshes: each element's, numbered as in `meshes` */
        array_open(f, "Int32", "mesh", 1);
        for (int lo = 1; lo <= 3; lo++)
            for (size_t e = 0; e < m->n_elements; e++)
                if (m->elements[e].n >= lo && m->elements[e].n <= (lo == 3 ? 4 : lo))
                    fprintf(f, "%d\n", m->elements[e].body);
        array_close(f);
    }
    if (materials) { /* -1 rigid, -2 the run's default */
        array_open(f, "Int32", "material", 1);
        for (int lo = 1; lo <= 3; lo++)
            for (size_t e = 0; e < m->n_elements; e++)
                if (m->elements[e].n >= lo && m->elements[e].n <= (lo == 3 ? 4 : lo))
                    fprintf(f, "%d\n", m->elements[e].material);
        array_close(f);
    }
    fputs("</CellData>\n", f);
    mesh_cells(f, m, "Verts", 1, 1);
    mesh_cells(f, m, "Lines", 2, 2);
    mesh_cells(f, m, "Polys", 3, 4);
    piece_close(f);
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
