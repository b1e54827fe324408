/* The orthographic camera of grains render (render/render.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "render/render.h"

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void normalize(double *a)
{
    double n = sqrt(dot(a, a));
    for (int k = 0; k < 3; k++)
        a[k] /= n;
}

void camera_init(render_camera *c, render_view view)
{
    static const double into[4][3] = {{0, 1, 0}, {-1, 0, 0}, {0, 0, -1}, {1, 1, -0.8}};
    static const double up[4][3] = {{0, 0, 1}, {0, 0, 1}, {0, 1, 0}, {0, 0, 1}};
    memset(c, 0, sizeof *c);
    memcpy(c->w, into[view], sizeof c->w);
    normalize(c->w);
    double d = dot(up[view], c->w);
    for (int k = 0; k < 3; k++)
        c->v[k] = up[view][k] - d * c->w[k];
    normalize(c->v);
    /* u = w x v: right-handed, so that the front view has x to the right */
    c->u[0] = c->w[1] * c->v[2] - c->w[2] * c->v[1];
    c->u[1] = c->w[2] * c->v[0] - c->w[0] * c->v[2];
    c->u[2] = c->w[0] * c->v[1] - c->w[1] * c->v[0];
    for (int k = 0; k < 3; k++)
        c->lo[k] = DBL_MAX, c->hi[k] = -DBL_MAX;
}

void camera_include(render_camera *c, const vtk_polydata *d)
{
    const vtk_array_in *p = vtk_polydata_array(d, VTK_IN_POINTS, "position");
    if (!p)
        p = d->n_arrays && d->array[0].section == VTK_IN_POINTS ? &d->array[0] : NULL;
    const vtk_array_in *r = vtk_polydata_array(d, VTK_IN_POINT_DATA, "radius");
    if (!p || p->comps != 3)
        return;
    for (size_t i = 0; i < p->tuples; i++) {
        const double *x = p->v + 3 * i;
        double rad = r && r->comps == 1 ? fabs(r->v[i]) : 0;
        if (!isfinite(dot(x, x)) || !isfinite(rad))
            continue;
        const double *axis[3] = {c->u, c->v, c->w};
        for (int k = 0; k < 3; k++) {
            double s = dot(x, axis[k]);
            c->lo[k] = fmin(c->lo[k], s - rad);
            c->hi[k] = fmax(c->hi[k], s + rad);
        }
    }
}

void camera_include_box(render_camera *c, const double lo[3], const double hi[3])
{
    const double *axis[3] = {c->u, c->v, c->w};
    for (int corner = 0; corner < 8; corner++) {
        double x[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2]};
        for (int k = 0; k < 3; k++) {
            double s = dot(x, axis[k]);
            c->lo[k] = fmin(c->lo[k], s), c->hi[k] = fmax(c->hi[k], s);
        }
    }
}

int render_clipped(const render_clip *c, const double p[3])
{
    return c->on && (p[0] - c->point[0]) * c->normal[0] + (p[1] - c->point[1]) * c->normal[1] +
                            (p[2] - c->point[2]) * c->normal[2] > 0;
}

void camera_fit(render_camera *c, int width)
{
    for (int k = 0; k < 3; k++)
        if (c->lo[k] > c->hi[k]) /* nothing shown: a unit box */
            c->lo[k] = -0.5, c->hi[k] = 0.5;
    double du = c->hi[0] - c->lo[0], dv = c->hi[1] - c->lo[1], margin = 0.04 * fmax(du, dv) + DBL_MIN;
    for (int k = 0; k < 2; k++)
        c->lo[k] -= margin, c->hi[k] += margin;
    du += 2 * margin;
    dv += 2 * margin;
    double aspect = fmin(fmax(dv / du, 0.25), 4.0);
    if (width * aspect > CAMERA_MAX_SIDE) /* a tall scene: its height is held to the widths allowed */
        width = (int)(CAMERA_MAX_SIDE / aspect);
    c->width = width & ~1;
    c->height = (int)lround(width * aspect) & ~1;
    c->scale = fmin(c->width / du, c->height / dv);
}

void camera_screen(const render_camera *c, double u, double v, double *x, double *y)
{
    *x = 0.5 * c->width + (u - 0.5 * (c->lo[0] + c->hi[0])) * c->scale;
    *y = 0.5 * c->height - (v - 0.5 * (c->lo[1] + c->hi[1])) * c->scale;
}

void camera_project(const render_camera *c, const double *p, double *x, double *y, double *depth)
{
    double cu = 0.5 * (c->lo[0] + c->hi[0]), cv = 0.5 * (c->lo[1] + c->hi[1]);
    *x = 0.5 * c->width + (dot(p, c->u) - cu) * c->scale;
    *y = 0.5 * c->height - (dot(p, c->v) - cv) * c->scale;
    *depth = dot(p, c->w);
}
