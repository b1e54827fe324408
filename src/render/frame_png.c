/* One frame as a PNG (render/render.h): particles and surface triangles
 * sorted by depth and painted far to near (the painter's algorithm), each
 * particle a disc shaded like a lit sphere and darkened with depth. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

/* The polygons of surface s as items; returns how many were added. A
 * polygon that names a point outside the file is left out. */
static size_t surface_items(const render_camera *cam, const vtk_polydata *d, int s, item *out)
{
    const vtk_array_in *p = points_of(d), *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity"),
                       *off = vtk_polydata_array(d, VTK_IN_POLYS, "offsets");
    size_t n = 0, begin = 0;
    if (!p || !conn || !off)
        return 0;
    for (size_t k = 0; k < off->tuples; k++) {
        double end = off->v[k], depth = 0, x, y, z;
        if (!(end >= (double)begin && end <= (double)conn->tuples))
            break;
        size_t count = (size_t)end - begin, bad = count < 3;
        for (size_t j = begin; j < (size_t)end && !bad; j++) {
            double i = conn->v[j];
            bad = !(i >= 0 && i < (double)p->tuples);
            if (!bad)
                camera_project(cam, p->v + 3 * (size_t)i, &x, &y, &z), depth += z / (double)count;
        }
        if (!bad && isfinite(depth))
            out[n++] = (item){depth, s, begin, count};
        begin = (size_t)end;
    }
    return n;
}

static void draw_polygon(cairo_t *cr, const render_camera *cam, const vtk_polydata *d, const item *it)
{
    const vtk_array_in *p = points_of(d), *conn = vtk_polydata_array(d, VTK_IN_POLYS, "connectivity");
    double q[3][3], x, y, z;
    for (size_t j = 0; j < it->count; j++) {
        const double *a = p->v + 3 * (size_t)conn->v[it->index + j];
        camera_project(cam, a, &x, &y, &z);
        if (j < 3)
            for (int k = 0; k < 3; k++)
                q[j][k] = a[k];
        j ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
    }
    cairo_close_path(cr);
    /* flat shading: how squarely the face looks at the camera */
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++)
        e1[k] = q[1][k] - q[0][k], e2[k] = q[2][k] - q[0][k];
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double facing = len > 0 ? fabs(n[0] * cam->w[0] + n[1] * cam->w[1] + n[2] * cam->w[2]) / len : 1;
    double g = 0.55 + 0.35 * facing;
    cairo_set_source_rgba(cr, g, g, g * 1.02, 0.30);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.25, 0.25, 0.3, 0.35);
    cairo_set_line_width(cr, 0.6);
    cairo_stroke(cr);
}

static void draw_particle(cairo_t *cr, const render_camera *cam, const render_colour *colour, const double *x3,
                          double radius, double value)
{
    double x, y, z, rgb[3];
    camera_project(cam, x3, &x, &y, &z);
    render_colour_of(colour, value, rgb);
    double span = cam->hi[2] - cam->lo[2];
    double near = span > 0 ? 1 - 0.45 * fmin(fmax((z - cam->lo[2]) / span, 0), 1) : 1;
    double r = fmax(radius * cam->scale, 0.6);
    cairo_arc(cr, x, y, r, 0, 6.283185307179586);
    if (r < 2) {
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

/* A colour bar with the field's name and range, bottom right. */
static void draw_legend(cairo_t *cr, const render_camera *cam, const render_colour *c)
{
    double w = 0.3 * cam->width, h = 10, x0 = cam->width - w - 12, y0 = cam->height - 30, rgb[3];
    char text[96];
    for (int k = 0; k < 64; k++) {
        render_colour_of(c, c->categorical ? k / 8 : c->lo + (c->hi - c->lo) * (k + 0.5) / 64, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, x0 + w * k / 64, y0, w / 64 + 0.5, h);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_set_font_size(cr, 12);
    if (c->categorical)
        snprintf(text, sizeof text, "%s: 0 1 2 3 4 5 6 7", c->field);
    else
        snprintf(text, sizeof text, "%s  %.3g .. %.3g", c->field, c->lo, c->hi);
    cairo_move_to(cr, x0, y0 + h + 14);
    cairo_show_text(cr, text);
}

static void draw_items(cairo_t *cr, const render_camera *cam, const render_colour *colour, const render_frame *f,
                       const item *items, size_t n, const double *values)
{
    const vtk_array_in *pos = f->particles ? points_of(f->particles) : NULL;
    const vtk_array_in *rad = f->particles ? vtk_polydata_array(f->particles, VTK_IN_POINT_DATA, "radius") : NULL;
    for (size_t k = 0; k < n; k++) {
        const item *it = &items[k];
        if (it->surface >= 0)
            draw_polygon(cr, cam, f->surfaces[it->surface], it);
        else
            draw_particle(cr, cam, colour, pos->v + 3 * it->index,
                          rad && rad->tuples == pos->tuples ? fabs(rad->v[it->index]) : 0, values[it->index]);
    }
}

/* Every particle and polygon of the frame as items, sorted far to near. */
static item *frame_items(const render_camera *cam, const render_frame *f, size_t *n)
{
    const vtk_array_in *pos = f->particles ? points_of(f->particles) : NULL;
    size_t most = pos ? pos->tuples : 0;
    for (int s = 0; s < f->n_surfaces; s++) {
        const vtk_array_in *off = vtk_polydata_array(f->surfaces[s], VTK_IN_POLYS, "offsets");
        most += off ? off->tuples : 0;
    }
    item *items = malloc((most + 1) * sizeof *items);
    if (!items)
        return NULL;
    *n = 0;
    for (size_t i = 0; pos && i < pos->tuples; i++) {
        double x, y, z;
        camera_project(cam, pos->v + 3 * i, &x, &y, &z);
        if (isfinite(x) && isfinite(y) && isfinite(z))
            items[(*n)++] = (item){z, -1, i, 0};
    }
    for (int s = 0; s < f->n_surfaces; s++)
        *n += surface_items(cam, f->surfaces[s], s, items + *n);
    qsort(items, *n, sizeof *items, farther_first);
    return items;
}

grains_status render_frame_png(const render_camera *cam, const render_colour *colour, const render_frame *f,
                               const char *png, grains_error *err)
{
    size_t n = 0, np = f->particles ? f->particles->points : 0;
    item *items = frame_items(cam, f, &n);
    double *values = calloc(np + 1, sizeof *values);
    if (!items || !values) {
        free(items);
        free(values);
        return grains_error_set(err, GRAINS_ERR_NOMEM, png, 0, "out of memory drawing the frame");
    }
    if (f->particles)
        render_field_values(f->particles, colour->field, values);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, cam->width, cam->height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    draw_items(cr, cam, colour, f, items, n, values);
    draw_legend(cr, cam, colour);
    if (f->label) {
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_set_font_size(cr, 14);
        cairo_move_to(cr, 10, 20);
        cairo_show_text(cr, f->label);
    }
    cairo_status_t st = cairo_status(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_write_to_png(surface, png);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    free(items);
    free(values);
    if (st != CAIRO_STATUS_SUCCESS)
        return grains_error_set(err, GRAINS_ERR_IO, png, 0, "cannot write the image: %s", cairo_status_to_string(st));
    return GRAINS_OK;
}
