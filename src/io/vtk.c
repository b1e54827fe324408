/* VTK XML PolyData (.vtp) and ParaView collections (.pvd). The frames'
 * arrays are compressed binary by default, or plain binary or ASCII
 * (io/vtk_array.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grains/io.h"
#include "grains/ranks.h"
#include "io/atomic_file.h"
#include "io/mesh_drawing.h"
#include "io/vtk_array.h"

/* Where a frame's particles come from, a window of ids at a time: each
 * process's own reading (one process, or a copy that holds them all), or
 * rank 0's windows from every rank (grains_sim_particle_window). */
typedef struct {
    const grains_sim *sim;
    grains_sim *shared; /* the windows, collective: every rank calls alike */
    size_t n, window;
} particle_source;

static void source_fill(const particle_source *src, unsigned fields, size_t first, size_t count,
                        grains_particle *out)
{
    if (src->shared) {
        grains_sim_particle_window(src->shared, fields, first, count, out);
        return;
    }
    for (size_t k = 0; k < count && out; k++)
        grains_sim_get_particle(src->sim, first + k, &out[k]);
}

/* A grain's mass comes from its radius and its material's density; its
 * persistent id from its id (grains_sim_uid), no field of its own. */
enum { MASS_FIELDS = GRAINS_FIELD_R | GRAINS_FIELD_MATERIAL, UID_ARRAY = 1 << 30 };

/* A frame's arrays of the particles, in the file's order; `before` opens
 * the element it is the first of. */
typedef struct {
    const char *name, *type, *before;
    unsigned field; /* 0: the id */
    int comps;
} particle_array;

static const particle_array particle_arrays_table[] = {
    {"position", "Float64", "<Points>\n", GRAINS_FIELD_X, 3},
    {"radius", "Float64", "</Points>\n<PointData Scalars=\"radius\" Vectors=\"velocity\">\n", GRAINS_FIELD_R, 1},
    {"mass", "Float64", "", MASS_FIELDS, 1},
    {"velocity", "Float64", "", GRAINS_FIELD_V, 3},
    {"angular_velocity", "Float64", "", GRAINS_FIELD_W, 3},
    {"orientation", "Float64", "", GRAINS_FIELD_Q, 4},
    {"id", "Int64", "", 0, 1},
    {"uid", "Int64", "", UID_ARRAY, 1},
    {"material", "Int32", "", GRAINS_FIELD_MATERIAL, 1},
    {"tag", "Int32", "", GRAINS_FIELD_TAG, 1},
};

/* One array's values of a window (p: its particles from `first`). */
static void window_values(const particle_array *a, const grains_sim *sim, const grains_particle *p, size_t first,
                          size_t count, double *b, int64_t *ib)
{
    const grains_params *params = grains_sim_params(sim);
    for (size_t k = 0; k < count; k++) {
        const grains_particle *q = &p[k];
        switch (a->field) {
        case GRAINS_FIELD_X: memcpy(b + 3 * k, (const double[3]){q->x.x, q->x.y, q->x.z}, 3 * sizeof *b); break;
        case GRAINS_FIELD_R: b[k] = q->R; break;
        case MASS_FIELDS: b[k] = grains_params_mass(params, q->material, q->R); break;
        case GRAINS_FIELD_V: memcpy(b + 3 * k, (const double[3]){q->v.x, q->v.y, q->v.z}, 3 * sizeof *b); break;
        case GRAINS_FIELD_W: memcpy(b + 3 * k, (const double[3]){q->w.x, q->w.y, q->w.z}, 3 * sizeof *b); break;
        case GRAINS_FIELD_Q:
            memcpy(b + 4 * k, (const double[4]){q->q.q0, q->q.q1, q->q.q2, q->q.q3}, 4 * sizeof *b);
            break;
        case GRAINS_FIELD_MATERIAL: ib[k] = q->material; break;
        case GRAINS_FIELD_TAG: ib[k] = q->tag; break;
        case UID_ARRAY: ib[k] = (int64_t)grains_sim_uid(sim, first + k); break;
        default: ib[k] = (int64_t)(first + k); break;
        }
    }
}

/* Room for one window: its particles and an array's values of them. */
typedef struct {
    grains_particle *p;
    double *b;
    int64_t *ib;
} window_room;

/* One array, a window at a time (o NULL: a rank that sends its windows
 * and writes nothing). */
static void write_array(vtk_out *o, const particle_source *src, const particle_array *a, window_room *w)
{
    vtk_stream s;
    int ints = a->type[0] == 'I';
    if (o) {
        fputs(a->before, o->f);
        vtk_stream_open(&s, o, a->type, a->name, a->comps, src->n, 10);
    }
    for (size_t first = 0; first < src->n; first += src->window) {
        size_t count = src->n - first < src->window ? src->n - first : src->window;
        if (a->field && a->field != UID_ARRAY)
            source_fill(src, a->field, first, count, w->p);
        if (!o)
            continue;
        window_values(a, src->sim, w->p, first, count, w->b, w->ib);
        if (ints)
            vtk_stream_ints(&s, w->ib, count * (size_t)a->comps);
        else
            vtk_stream_doubles(&s, w->b, count * (size_t)a->comps);
    }
    if (o)
        vtk_stream_close(&s);
}

/* Cells of one vertex each, 0 to n - 1: connectivity and offsets. */
static void cells_identity(vtk_out *o, size_t n, size_t window, int64_t *ib)
{
    fputs("<Verts>\n", o->f);
    for (int64_t shift = 0; shift < 2; shift++) {
        vtk_stream s;
        vtk_stream_open(&s, o, "Int64", shift ? "offsets" : "connectivity", 1, n, 0);
        for (size_t first = 0; first < n; first += window) {
            size_t count = n - first < window ? n - first : window;
            for (size_t k = 0; k < count; k++)
                ib[k] = (int64_t)(first + k) + shift;
            vtk_stream_ints(&s, ib, count);
        }
        vtk_stream_close(&s);
    }
    fputs("</Verts>\n", o->f);
}

/* From the contacts the last step recorded: each particle's number of
 * contacts, their force sum and Love's stress (9 components, row-major). */
static void contact_arrays(vtk_out *o, const grains_sim *sim, size_t n)
{
    int *coord = malloc(n * sizeof *coord);
    double(*stress)[9] = malloc(n * sizeof *stress);
    double *b = malloc((3 * n + 1) * sizeof *b);
    int64_t *ib = malloc((n + 1) * sizeof *ib);
    if (coord && stress && b && ib) {
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
    } else {
        o->out_of_memory = 1;
    }
    free(coord);
    free(stress);
    free(b);
    free(ib);
}

/* The intact bonds as lines between their particles (ParaView and grains
 * render draw them): connectivity a, b per bond, offsets 2, 4, ...,
 * through ib a window of values at a time. */
static void bond_lines(vtk_out *o, const size_t *pairs, size_t n, int64_t *ib, size_t window)
{
    fputs("<Lines>\n", o->f);
    for (int offsets = 0; offsets < 2; offsets++) {
        vtk_stream s;
        vtk_stream_open(&s, o, "Int64", offsets ? "offsets" : "connectivity", 1, offsets ? n : 2 * n, 0);
        size_t values = offsets ? n : 2 * n;
        for (size_t first = 0; first < values; first += window) {
            size_t count = values - first < window ? values - first : window;
            for (size_t k = 0; k < count; k++)
                ib[k] = offsets ? (int64_t)(2 * (first + k + 1)) : (int64_t)pairs[first + k];
            vtk_stream_ints(&s, ib, count);
        }
        vtk_stream_close(&s);
    }
    fputs("</Lines>\n", o->f);
}

/* The particles' file, or (path NULL) a rank's part in rank 0's writing
 * of it. */
static grains_status write_particles(const char *path, const particle_source *src, grains_vtk_format format,
                                     grains_error *err)
{
    size_t n = src->n, room = !path ? 0 : n < src->window ? n : src->window; /* (a rank that sends: none) */
    window_room w = {malloc((room + 1) * sizeof *w.p), malloc((4 * room + 1) * sizeof *w.b),
                     malloc((room + 1) * sizeof *w.ib)};
    atomic_file af;
    grains_status s = GRAINS_OK;
    if (!path) {
        free(w.p);
        w.p = NULL;
    } else if (!w.p || !w.b || !w.ib) {
        free(w.p);
        w.p = NULL;
        s = grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    }
    if (s == GRAINS_OK && path)
        s = atomic_open(&af, path, err);
    vtk_out o = {s == GRAINS_OK && path ? af.f : NULL, format, 0}, *out = o.f ? &o : NULL;
    size_t *pairs = NULL, n_bonds = grains_sim_bond_pairs(src->shared ? src->shared : src->sim, &pairs); /* (collective) */
    if (n_bonds == SIZE_MAX) {
        n_bonds = 0;
        o.out_of_memory = 1;
    }
    if (out)
        vtk_piece_open(out, n, n, n_bonds, 0);
    int materials = grains_sim_params(src->sim)->n_materials > 1;
    /* every rank alike, with a file or none (out of memory: the windows
     * are sent all the same, and go nowhere) */
    for (size_t k = 0; k < sizeof particle_arrays_table / sizeof *particle_arrays_table; k++)
        if (particle_arrays_table[k].field != GRAINS_FIELD_MATERIAL || materials)
            write_array(out, src, &particle_arrays_table[k], &w);
    if (out) {
        grains_vec3 f, t;
        if (n && grains_sim_contact_sums(src->sim, 0, &f, &t))
            contact_arrays(out, src->sim, n);
        fputs("</PointData>\n", o.f);
        cells_identity(out, n, src->window, w.ib);
        if (n_bonds)
            bond_lines(out, pairs, n_bonds, w.ib, room); /* (ib holds room values) */
        vtk_piece_close(out);
        s = vtk_finish(out, &af, path, err);
    }
    free(w.p);
    free(w.b);
    free(w.ib);
    free(pairs);
    return s;
}

grains_status grains_vtk_write_particles(const char *path, const grains_sim *sim, grains_vtk_format format,
                                         grains_error *err)
{
    particle_source src = {sim, NULL, grains_sim_count(sim), GRAINS_FRAME_WINDOW};
    return write_particles(path, &src, format, err);
}

grains_status grains_vtk_write_frame(const char *path, grains_sim *sim, grains_vtk_format format, grains_error *err)
{
    particle_source src = {sim, sim, grains_sim_count(sim), grains_sim_frame_window(sim)};
    return write_particles(path, &src, format, err);
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
