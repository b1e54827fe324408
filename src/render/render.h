/* Pictures of a run without ParaView (grains render): its VTK frames drawn
 * with cairo as PNG images, and its thermo table as a plot. */
#ifndef GRAINS_RENDER_H
#define GRAINS_RENDER_H

#include "grains/error.h"
#include "io/vtk_read.h"

/* Where the camera looks from: front (along +y, z up), side (along -x,
 * z up), top (down -z, y up), or iso (from -x, -y and above). */
typedef enum { RENDER_FRONT, RENDER_SIDE, RENDER_TOP, RENDER_ISO } render_view;

/* An orthographic camera: screen axes u (right) and v (up), depth along
 * w (into the screen), fitted to the bounds it was shown. */
typedef struct {
    double u[3], v[3], w[3];
    double lo[3], hi[3];  /* bounds along u, v, w of what it was shown */
    double scale;         /* pixels per length */
    int width, height;    /* pixels */
} render_camera;

void camera_init(render_camera *c, render_view view);
/* Widens the bounds to the points of d (each with its radius, if any). */
void camera_include(render_camera *c, const vtk_polydata *d);
#define CAMERA_MAX_SIDE 8192 /* pixels along either side at most (grains render --width's largest) */
/* Fits what it was shown into `width` pixels, with a margin; the height
 * follows from the scene's aspect (even, for video encoders), and a scene
 * taller than wide gets a narrower image where its height would pass
 * CAMERA_MAX_SIDE. */
void camera_fit(render_camera *c, int width);
/* Screen position (pixels, y down) and depth of a point. */
void camera_project(const render_camera *c, const double *p, double *x, double *y, double *depth);

/* How particles are coloured: by `field` (a point array; a vector's
 * magnitude), over [lo, hi]; categorical fields (tag, material) by a
 * palette of distinct colours. */
typedef struct {
    const char *field;
    double lo, hi;
    int categorical;
} render_colour;

/* The field's value for each particle (n of them) in out; 0 if the frame
 * has no such array. */
int render_field_values(const vtk_polydata *d, const char *field, double *out);
/* The colour of value x: a perceptually ordered map (dark blue to yellow)
 * over [lo, hi], or a palette entry for categorical fields. */
void render_colour_of(const render_colour *c, double x, double rgb[3]);

/* One frame: particles, and surfaces (meshes, membranes) drawn as
 * translucent triangles; a label (e.g. the time) in the corner. */
typedef struct {
    const vtk_polydata *particles;
    const vtk_polydata *surfaces[2];
    int n_surfaces;
    const char *label;
} render_frame;

grains_status render_frame_png(const render_camera *cam, const render_colour *colour, const render_frame *f,
                               const char *png, grains_error *err);

/* The thermo table (a header row, then numbers) as one panel per column
 * against the second column (time), in a PNG. */
grains_status render_thermo_png(const char *csv, const char *png, grains_error *err);

#endif
