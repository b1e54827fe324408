/* Coplanar polygons that share edges, gathered into faces (render/faces.h):
 * each edge sorted by its two points, polygons on either side of an edge
 * joined (union-find) when their normals are parallel to 1e-6; a face's
 * outline the edges that only one of its polygons has. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/faces.h"

typedef struct {
    size_t a, b;    /* the edge's points, a < b */
    size_t polygon; /* which polygon has it */
} edge_of;

static int by_points(const void *x, const void *y)
{
    const edge_of *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->polygon < q->polygon ? -1 : p->polygon > q->polygon;
}

static size_t root(size_t *parent, size_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* The valid polygons (3 or more points, all in the file) and their unit
 * normals (Newell's: any planar polygon, whatever its first corner). */
static size_t read_polygons(const vtk_polydata *d, face_polygon *poly, double (*normal)[3])
{
    const vtk_array_in *p = vtk_polydata_array(d, VTK_IN_POINTS, "position"),
                       *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity"),
                       *off = vtk_polydata_array(d, VTK_IN_POLYS, "offsets");
    size_t n = 0, begin = 0;
    if (!p || p->comps != 3 || !conn || !off)
        return 0;
    for (size_t k = 0; k < off->tuples; k++) {
        double end = off->v[k];
        if (!(end >= (double)begin && end <= (double)conn->tuples))
            break;
        size_t count = (size_t)end - begin;
        int bad = count < 3;
        double nn[3] = {0, 0, 0};
        for (size_t j = 0; j < count && !bad; j++) {
            double i = conn->v[begin + j], i2 = conn->v[begin + (j + 1) % count];
            bad = !(i >= 0 && i < (double)p->tuples && i2 >= 0 && i2 < (double)p->tuples);
            if (bad)
                break;
            const double *a = p->v + 3 * (size_t)i, *b = p->v + 3 * (size_t)i2;
            nn[0] += (a[1] - b[1]) * (a[2] + b[2]), nn[1] += (a[2] - b[2]) * (a[0] + b[0]),
                nn[2] += (a[0] - b[0]) * (a[1] + b[1]);
        }
        double len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
        if (!bad) {
            poly[n] = (face_polygon){begin, count};
            for (int c = 0; c < 3; c++)
                normal[n][c] = len > 0 ? nn[c] / len : 0;
            n++;
        }
        begin = (size_t)end;
    }
    return n;
}

/* Every polygon's edges, sorted by their points. */
static size_t list_edges(const vtk_polydata *d, const face_polygon *poly, size_t n, edge_of *e)
{
    const vtk_array_in *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity");
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t j = 0; j < poly[k].count; j++) {
            size_t a = (size_t)conn->v[poly[k].first + j], b = (size_t)conn->v[poly[k].first + (j + 1) % poly[k].count];
            e[m++] = (edge_of){a < b ? a : b, a < b ? b : a, k};
        }
    qsort(e, m, sizeof *e, by_points);
    return m;
}

/* Polygons on either side of an edge, parallel, joined. */
static void join(const edge_of *e, size_t m, double (*normal)[3], size_t *parent)
{
    for (size_t k = 0; k + 1 < m; k++) {
        if (e[k].a != e[k + 1].a || e[k].b != e[k + 1].b)
            continue;
        const double *p = normal[e[k].polygon], *q = normal[e[k + 1].polygon];
        if (fabs(p[0] * q[0] + p[1] * q[1] + p[2] * q[2]) > 1 - 1e-6)
            parent[root(parent, e[k].polygon)] = root(parent, e[k + 1].polygon);
    }
}

/* The length of the run of edges equal to e[k] (the polygons that share it). */
static size_t run_at(const edge_of *e, size_t m, size_t k)
{
    size_t run = 1;
    while (k + run < m && e[k + run].a == e[k].a && e[k + run].b == e[k].b)
        run++;
    return run;
}

/* The face whose outline edge e[j] (in its run [k, k + run)) is: its
 * polygon's, unless another polygon of that face has the edge too. */
static size_t outline_face(const edge_of *e, size_t k, size_t run, size_t j, const size_t *face, size_t *parent)
{
    size_t fj = face[root(parent, e[j].polygon)], same = 0;
    for (size_t i = k; i < k + run; i++)
        same += face[root(parent, e[i].polygon)] == fj;
    return same == 1 ? fj : SIZE_MAX;
}

/* Counts per face into start[1 ..] made offsets, at a copy of them. */
static void offsets(size_t *start, size_t *at, size_t faces)
{
    for (size_t q = 0; q < faces; q++)
        start[q + 1] += start[q];
    memcpy(at, start, (faces + 1) * sizeof *at);
}

/* Faces numbered in order of their first polygon; polygons and outline
 * edges gathered by face (counting sorts). */
static int gather(const face_polygon *poly, size_t n, const edge_of *e, size_t m, size_t *parent, surface_faces *f)
{
    size_t *face = malloc((n + 1) * sizeof *face), *at = malloc((n + 2) * sizeof *at);
    f->polygon_start = calloc(n + 2, sizeof *f->polygon_start);
    f->edge_start = calloc(n + 2, sizeof *f->edge_start);
    f->polygon = malloc((n + 1) * sizeof *f->polygon);
    f->edge = malloc((m + 1) * sizeof *f->edge);
    int ok = face && at && f->polygon_start && f->edge_start && f->polygon && f->edge;
    for (size_t k = 0; ok && k < n; k++) /* a root's face number, given at its first polygon */
        face[k] = root(parent, k) == k ? f->n++ : SIZE_MAX;
    for (size_t k = 0; ok && k < n; k++)
        f->polygon_start[face[root(parent, k)] + 1]++;
    if (ok)
        offsets(f->polygon_start, at, f->n);
    for (size_t k = 0; ok && k < n; k++)
        f->polygon[at[face[root(parent, k)]]++] = poly[k];
    for (int pass = 0; ok && pass < 2; pass++) { /* the outline edges counted per face, then placed */
        for (size_t k = 0, run; k < m; k += run) {
            run = run_at(e, m, k);
            for (size_t j = k; j < k + run; j++) {
                size_t fj = outline_face(e, k, run, j, face, parent);
                if (fj != SIZE_MAX && pass == 0)
                    f->edge_start[fj + 1]++;
                else if (fj != SIZE_MAX)
                    f->edge[at[fj]][0] = e[j].a, f->edge[at[fj]++][1] = e[j].b;
            }
        }
        if (pass == 0)
            offsets(f->edge_start, at, f->n);
    }
    free(face), free(at);
    return ok;
}

int surface_faces_build(const vtk_polydata *d, surface_faces *f)
{
    const vtk_array_in *off = vtk_polydata_array(d, VTK_IN_POLYS, "offsets"),
                       *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity");
    size_t most = off ? off->tuples : 0, edges = conn ? conn->tuples : 0;
    memset(f, 0, sizeof *f);
    face_polygon *poly = malloc((most + 1) * sizeof *poly);
    double(*normal)[3] = malloc((most + 1) * sizeof *normal);
    edge_of *e = malloc((edges + 1) * sizeof *e);
    size_t *parent = malloc((most + 1) * sizeof *parent);
    int ok = poly && normal && e && parent;
    if (ok) {
        size_t n = read_polygons(d, poly, normal), m = list_edges(d, poly, n, e);
        for (size_t k = 0; k < n; k++)
            parent[k] = k;
        join(e, m, normal, parent);
        ok = gather(poly, n, e, m, parent, f);
    }
    free(poly), free(normal), free(e), free(parent);
    if (!ok)
        surface_faces_free(f);
    return ok;
}

void surface_faces_free(surface_faces *f)
{
    free(f->polygon_start), free(f->polygon), free(f->edge_start), free(f->edge);
    memset(f, 0, sizeof *f);
}
