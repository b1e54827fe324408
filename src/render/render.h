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
/* Widens the bounds to the box [lo, hi] (its eight corners). */
void camera_include_box(render_camera *c, const double lo[3], const double hi[3]);
#define CAMERA_MAX_SIDE 8192 /* pixels along either side at most (grains render --width's largest) */
/* Fits what it was shown into `width` pixels, with a margin; the height
 * follows from the scene's aspect (even, for video encoders), and a scene
 * taller than wide gets a narrower image where its height would pass
 * CAMERA_MAX_SIDE. */
void camera_fit(render_camera *c, int width);
/* Screen position (pixels, y down) and depth of a point. */
void camera_project(const render_camera *c, const double *p, double *x, double *y, double *depth);
/* Screen position of the point at (u, v) along the screen's axes. */
void camera_screen(const render_camera *c, double u, double v, double *x, double *y);

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
/* A field's SI unit ("m/s", "Pa", "-" for a number without one), by its
 * name or its component's ("velocity_x", "stress_zz"); "" when unknown. */
const char *render_unit(const char *field);
/* A legend's words: the field, its unit, its range ("velocity [m/s]  0 .. 1.2"). */
void render_legend_text(const render_colour *c, char *buf, size_t size);

/* A plane that cuts the scene: what lies beyond it (on the side its
 * normal points to: a particle's centre, a polygon's centroid) is not
 * drawn, to look inside a pile or a drum. */
typedef struct {
    int on;
    double point[3], normal[3];
} render_clip;

/* Whether p is beyond the clip plane. */
int render_clipped(const render_clip *c, const double p[3]);

/* A field drawn under the grains (each drawn over it as its rim alone): nu x nv cells over [lo, hi] along the
 * screen's axes u and v (u fastest), a value each (NAN: none, left blank),
 * coloured over colour's range (render/colour.c), with its own legend. */
typedef struct {
    int nu, nv;
    double lo[2], hi[2];
    const double *value;
    render_colour colour;
} render_slice;

/* One frame: particles, and surfaces (meshes, membranes) drawn as
 * translucent faces (coplanar triangles that share edges filled as one, their
 * outline drawn, so that no diagonal shows); a label (e.g. the time) in the
 * corner. */
typedef struct {
    const vtk_polydata *particles;
    const vtk_polydata *surfaces[2];
    int n_surfaces;
    const char *label;
    render_clip clip;
    const render_slice *slice; /* or NULL */
} render_frame;

grains_status render_frame_png(const render_camera *cam, const render_colour *colour, const render_frame *f,
                               const char *png, grains_error *err);

/* The thermo table (a header row, then numbers) as one panel per column
 * against the second column (time), in a PNG; the energies (E_...) on
 * logarithmic axes when log_y. */
grains_status render_thermo_png(const char *csv, const char *png, int log_y, grains_error *err);

#endif
