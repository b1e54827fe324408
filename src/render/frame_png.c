/* One frame as a PNG (render/render.h): particles and surface faces
 * (render/faces.h) sorted by depth and painted far to near (the painter's algorithm), each
 * particle a disc shaded like a lit sphere and darkened with depth. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/faces.h"
#include "render/png_file.h"
#include "render/render.h"

typedef struct {
    double depth;
    int surface;  /* -1: a particle */
    size_t index; /* the particle, or the polygon's first connectivity entry */
    size_t count; /* the polygon's vertices */
} item;

static int farther_first(const void *a, const void *b)
{
    const item *p = a, *q = b;
    if (p->depth != q->depth)
        return p->depth < q->depth ? 1 : -1;
    if (p->surface != q->surface)
        return p->surface < q->surface ? -1 : 1;
    return p->index < q->index ? -1 : p->index > q->index;
}

static const vtk_array_in *points_of(const vtk_polydata *d)
{
    const vtk_array_in *p = vtk_polydata_array(d, VTK_IN_POINTS, "position");
    return p && p->comps == 3 && p->tuples == d->points ? p : NULL;
}

/* Polygon q's centroid. */
static void centroid(const vtk_polydata *d, const face_polygon *q, double c[3])
{
    const vtk_array_in *p = points_of(d), *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity");
    c[0] = c[1] = c[2] = 0;
    for (size_t j = 0; j < q->count; j++)
        for (int k = 0; k < 3; k++)
            c[k] += p->v[3 * (size_t)conn->v[q->first + j] + (size_t)k] / (double)q->count;
}

/* The faces of surface s as items at their polygons' mean depth (those
 * the clip plane leaves); returns how many were added. */
static size_t surface_items(const render_camera *cam, const render_frame *fr, const surface_faces *faces, int s,
                            item *out)
{
    size_t n = 0;
    if (!points_of(fr->surfaces[s]))
        return 0;
    for (size_t f = 0; f < faces->n; f++) {
        double depth = 0, c[3], x, y, z;
        size_t kept = 0;
        for (size_t q = faces->polygon_start[f]; q < faces->polygon_start[f + 1]; q++) {
            centroid(fr->surfaces[s], &faces->polygon[q], c);
            if (render_clipped(&fr->clip, c))
                continue;
            camera_project(cam, c, &x, &y, &z);
            depth += z, kept++;
        }
        if (kept && isfinite(depth))
            out[n++] = (item){depth / (double)kept, s, f, kept};
    }
    return n;
}

/* How squarely polygon q faces the camera (its normal by Newell's sum). */
static double facing(const render_camera *cam, const vtk_polydata *d, const face_polygon *q)
{
    const vtk_array_in *p = points_of(d), *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity");
    double n[3] = {0, 0, 0};
    for (size_t j = 0; j < q->count; j++) {
        const double *a = p->v + 3 * (size_t)conn->v[q->first + j],
                     *b = p->v + 3 * (size_t)conn->v[q->first + (j + 1) % q->count];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]), n[1] += (a[2] - b[2]) * (a[0] + b[0]), n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    return len > 0 ? fabs(n[0] * cam->w[0] + n[1] * cam->w[1] + n[2] * cam->w[2]) / len : 1;
}

/* A face: its polygons as one path, filled once (no seam along the edges
 * they share), flat shaded by how squarely it faces the camera; then its
 * outline. */
static void draw_face(cairo_t *cr, const render_camera *cam, const render_frame *fr, const surface_faces *faces,
                      const item *it)
{
    const vtk_polydata *d = fr->surfaces[it->surface];
    const vtk_array_in *p = points_of(d), *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity");
    double x, y, z, c[3], g = 0.9;
    size_t f = it->index;
    for (size_t q = faces->polygon_start[f]; q < faces->polygon_start[f + 1]; q++) {
        const face_polygon *poly = &faces->polygon[q];
        centroid(d, poly, c);
        if (render_clipped(&fr->clip, c))
            continue;
        for (size_t j = 0; j < poly->count; j++) {
            camera_project(cam, p->v + 3 * (size_t)conn->v[poly->first + j], &x, &y, &z);
            j ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
        }
        cairo_close_path(cr);
        g = 0.55 + 0.35 * facing(cam, d, poly);
    }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_set_source_rgba(cr, g, g, g * 1.02, 0.30);
    cairo_fill(cr);
    for (size_t e = faces->edge_start[f]; e < faces->edge_start[f + 1]; e++) {
        const double *a = p->v + 3 * faces->edge[e][0], *b = p->v + 3 * faces->edge[e][1];
        double mid[3] = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
        if (render_clipped(&fr->clip, mid))
            continue;
        camera_project(cam, a, &x, &y, &z);
        cairo_move_to(cr, x, y);
        camera_project(cam, b, &x, &y, &z);
        cairo_line_to(cr, x, y);
    }
    cairo_set_source_rgba(cr, 0.25, 0.25, 0.3, 0.35);
    cairo_set_line_width(cr, 0.6);
    cairo_stroke(cr);
}

/* The disc of centre (x, y) and radius r as a path, where it meets the
 * picture: none when it misses it, the picture's rectangle when it covers
 * it, else an arc, or where the disc is far larger than the picture the
 * part of its rim that crosses it (a box zoomed far into a grain gives
 * discs of 1e300 pixels, which cairo would draw for minutes, and
 * coordinates beyond its fixed point); 0 when there is no path. */
static int disc_path(cairo_t *cr, const render_camera *cam, double x, double y, double r)
{
    double W = cam->width, H = cam->height, dx = fmax(fmax(-x, x - W), 0), dy = fmax(fmax(-y, y - H), 0);
    double far_x = fmax(fabs(x), fabs(x - W)), far_y = fmax(fabs(y), fabs(y - H)), big = 4 * (W + H);
    if (!(dx * dx + dy * dy < r * r)) /* (NaN: nothing) */
        return 0;
    if (far_x * far_x + far_y * far_y <= r * r) {
        cairo_rectangle(cr, 0, 0, W, H);
        return 1;
    }
    if (r <= big) {
        cairo_arc(cr, x, y, r, 0, 6.283185307179586);
        return 1;
    }
    /* the rim near the picture's centre c, from the disc's centre along d,
     * sampled over an arc of 2 big each way: p = c + (r cos f - dist) d + r sin f t */
    double cx = W / 2 - x, cy = H / 2 - y, dist = hypot(cx, cy), ux = cx / dist, uy = cy / dist;
    for (int k = 0; k <= 64; k++) {
        double f = (k / 32.0 - 1) * 2 * big / r, a = (r - dist) - 2 * r * sin(f / 2) * sin(f / 2), b = r * sin(f);
        double px = W / 2 + a * ux - b * uy, py = H / 2 + a * uy + b * ux;
        k ? cairo_line_to(cr, px, py) : cairo_move_to(cr, px, py);
    }
    double back = 2 * big; /* (closed on the disc's side, beyond the picture) */
    double ex = W / 2 + (r - dist - back) * ux, ey = H / 2 + (r - dist - back) * uy;
    cairo_line_to(cr, ex - 2 * big * uy, ey + 2 * big * ux);
    cairo_line_to(cr, ex + 2 * big * uy, ey - 2 * big * ux);
    cairo_close_path(cr);
    return 1;
}

/* A grain as a lit disc of its value's colour; over a slice (outline), its
 * rim alone, so that the field shows through. */
static void draw_particle(cairo_t *cr, const render_camera *cam, const render_colour *colour, const double *x3,
                          double radius, double value, int outline)
{
    double x, y, z, rgb[3];
    camera_project(cam, x3, &x, &y, &z);
    render_colour_of(colour, value, rgb);
    double span = cam->hi[2] - cam->lo[2];
    double near = span > 0 ? 1 - 0.45 * fmin(fmax((z - cam->lo[2]) / span, 0), 1) : 1;
    double r = fmax(radius * cam->scale, 0.6);
    if (!disc_path(cr, cam, x, y, r))
        return;
    if (outline) {
        cairo_set_source_rgba(cr, 0.15, 0.15, 0.15, 0.5);
        cairo_set_line_width(cr, fmin(1, 0.2 * r));
        cairo_stroke(cr);
        return;
    }
    if (r < 2 || r > 4 * (cam->width + cam->height)) { /* (a dot, or a disc that fills the picture: flat) */
        cairo_set_source_rgb(cr, rgb[0] * near, rgb[1] * near, rgb[2] * near);
        cairo_fill(cr);
        return;
    }
    /* a sphere lit from the upper left: a highlight, darkening to the rim */
    cairo_pattern_t *g = cairo_pattern_create_radial(x - 0.35 * r, y - 0.35 * r, 0, x - 0.35 * r, y - 0.35 * r, 1.4 * r);
    cairo_pattern_add_color_stop_rgb(g, 0, near * (0.65 * rgb[0] + 0.35), near * (0.65 * rgb[1] + 0.35),
                                     near * (0.65 * rgb[2] + 0.35));
    cairo_pattern_add_color_stop_rgb(g, 1, near * 0.4 * rgb[0], near * 0.4 * rgb[1], near * 0.4 * rgb[2]);
    cairo_set_source(cr, g);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
}

/* The slice's cells, each a rectangle of its colour (none where it has no value). */
static void draw_slice(cairo_t *cr, const render_camera *cam, const render_slice *sl)
{
    double du = (sl->hi[0] - sl->lo[0]) / sl->nu, dv = (sl->hi[1] - sl->lo[1]) / sl->nv, rgb[3], x0, y0, x1, y1;
    for (int j = 0; j < sl->nv; j++)
        for (int i = 0; i < sl->nu; i++) {
            double v = sl->value[(size_t)j * (size_t)sl->nu + (size_t)i];
            if (!isfinite(v))
                continue;
            camera_screen(cam, sl->lo[0] + i * du, sl->lo[1] + j * dv, &x0, &y0);
            camera_screen(cam, sl->lo[0] + (i + 1) * du, sl->lo[1] + (j + 1) * dv, &x1, &y1);
            render_colour_of(&sl->colour, v, rgb);
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            cairo_rectangle(cr, x0, y1, x1 - x0 + 0.5, y0 - y1 + 0.5); /* (+0.5: no hairline between cells) */
            cairo_fill(cr);
        }
}

/* A colour bar with the field's name and range, bottom right (left: the slice's). */
static void draw_legend(cairo_t *cr, const render_camera *cam, const render_colour *c, int left)
{
    double w = 0.3 * cam->width, h = 10, x0 = left ? 12 : cam->width - w - 12, y0 = cam->height - 30, rgb[3];
    char text[96];
    for (int k = 0; k < 64; k++) {
        render_colour_of(c, c->categorical ? k / 8 : c->lo + (c->hi - c->lo) * (k + 0.5) / 64, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, x0 + w * k / 64, y0, w / 64 + 0.5, h);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_set_font_size(cr, 12);
    render_legend_text(c, text, sizeof text);
    cairo_move_to(cr, x0, y0 + h + 14);
    cairo_show_text(cr, text);
}

/* The frame's bonds (its particles' Lines: two ids each), as lines between
 * the centres they join, over the grains; none whose end is clipped away,
 * or that names a particle the frame does not have. */
static void draw_bonds(cairo_t *cr, const render_camera *cam, const render_frame *f)
{
    const vtk_array_in *pos = f->particles ? points_of(f->particles) : NULL;
    const vtk_array_in *ends = f->particles ? vtk_polydata_array(f->particles, VTK_IN_LINES, "connectivity") : NULL;
    const vtk_array_in *rad = f->particles ? vtk_polydata_array(f->particles, VTK_IN_POINT_DATA, "radius") : NULL;
    if (!pos || !ends || ends->tuples % 2)
        return;
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    for (size_t k = 0; k + 1 < ends->tuples; k += 2) {
        double a = ends->v[k], b = ends->v[k + 1], xa, ya, xb, yb, z;
        if (!(a >= 0 && b >= 0 && a < (double)pos->tuples && b < (double)pos->tuples))
            continue;
        const double *pa = pos->v + 3 * (size_t)a, *pb = pos->v + 3 * (size_t)b;
        if (render_clipped(&f->clip, pa) || render_clipped(&f->clip, pb))
            continue;
        camera_project(cam, pa, &xa, &ya, &z);
        camera_project(cam, pb, &xb, &yb, &z);
        double r = rad && rad->tuples == pos->tuples ? fmin(fabs(rad->v[(size_t)a]), fabs(rad->v[(size_t)b])) : 0;
        if (!(isfinite(xa) && isfinite(ya) && isfinite(xb) && isfinite(yb)) ||
            fmax(fabs(xa - xb), fabs(ya - yb)) > 4 * (cam->width + cam->height)) /* (a far stretched one: not drawn) */
            continue;
        cairo_set_line_width(cr, fmin(fmax(0.3 * r * cam->scale, 1), 8));
        cairo_move_to(cr, xa, ya);
        cairo_line_to(cr, xb, yb);
        cairo_stroke(cr);
    }
}

static void draw_items(cairo_t *cr, const render_camera *cam, const render_colour *colour, const render_frame *f,
                       const surface_faces *faces, const item *items, size_t n, const double *values)
{
    const vtk_array_in *pos = f->particles ? points_of(f->particles) : NULL;
    const vtk_array_in *rad = f->particles ? vtk_polydata_array(f->particles, VTK_IN_POINT_DATA, "radius") : NULL;
    for (size_t k = 0; k < n; k++) {
        const item *it = &items[k];
        if (it->surface >= 0)
            draw_face(cr, cam, f, &faces[it->surface], it);
        else
            draw_particle(cr, cam, colour, pos->v + 3 * it->index,
                          rad && rad->tuples == pos->tuples ? fabs(rad->v[it->index]) : 0, values[it->index],
                          f->slice != NULL);
    }
}

/* Every particle and face of the frame as items, sorted far to near. */
static item *frame_items(const render_camera *cam, const render_frame *f, const surface_faces *faces, size_t *n)
{
    const vtk_array_in *pos = f->particles ? points_of(f->particles) : NULL;
    size_t most = pos ? pos->tuples : 0;
    for (int s = 0; s < f->n_surfaces; s++)
        most += faces[s].n;
    item *items = malloc((most + 1) * sizeof *items);
    if (!items)
        return NULL;
    *n = 0;
    for (size_t i = 0; pos && i < pos->tuples; i++) {
        double x, y, z;
        camera_project(cam, pos->v + 3 * i, &x, &y, &z);
        if (isfinite(x) && isfinite(y) && isfinite(z) && !render_clipped(&f->clip, pos->v + 3 * i))
            items[(*n)++] = (item){z, -1, i, 0};
    }
    for (int s = 0; s < f->n_surfaces; s++)
        *n += surface_items(cam, f, &faces[s], s, items + *n);
    qsort(items, *n, sizeof *items, farther_first);
    return items;
}

grains_status render_frame_png(const render_camera *cam, const render_colour *colour, const render_frame *f,
                               const char *png, grains_error *err)
{
    size_t n = 0, np = f->particles ? f->particles->points : 0;
    surface_faces faces[2] = {{0}, {0}};
    int built = 1;
    for (int s = 0; s < f->n_surfaces; s++)
        built = built && surface_faces_build(f->surfaces[s], &faces[s]);
    item *items = built ? frame_items(cam, f, faces, &n) : NULL;
    double *values = calloc(np + 1, sizeof *values);
    if (!items || !values) {
        free(items);
        free(values);
        surface_faces_free(&faces[0]), surface_faces_free(&faces[1]);
        return grains_error_set(err, GRAINS_ERR_NOMEM, png, 0, "out of memory drawing the frame");
    }
    if (f->particles)
        render_field_values(f->particles, colour->field, values);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, cam->width, cam->height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (f->slice) /* (the grains over it as rims: the slice's colours and legend alone) */
        draw_slice(cr, cam, f->slice);
    draw_items(cr, cam, colour, f, faces, items, n, values);
    draw_bonds(cr, cam, f);
    draw_legend(cr, cam, f->slice ? &f->slice->colour : colour, f->slice != NULL);
    if (f->label) {
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_set_font_size(cr, 14);
        cairo_move_to(cr, 10, 20);
        cairo_show_text(cr, f->label);
    }
    grains_status written = png_file_write(cr, png, "the image", err);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    free(items);
    free(values);
    surface_faces_free(&faces[0]), surface_faces_free(&faces[1]);
    return written;
}
