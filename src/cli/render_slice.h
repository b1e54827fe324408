/* grains render --slice FIELD: a coarse-grained field of each frame
 * (grains/fields.h) on a grid in the camera's axes, averaged along the line
 * of sight, drawn under the grains, drawn as rims over it (render/render.h's render_slice). */
#ifndef GRAINS_CLI_RENDER_SLICE_H
#define GRAINS_CLI_RENDER_SLICE_H

#include "grains/fields.h"
#include "render/render.h"

typedef struct {
    const char *spec;       /* FIELD, FIELD_x .. FIELD_z, FIELD_xx .. FIELD_zz */
    grains_cg_field field;
    int component;          /* -1: a vector's magnitude, a tensor's mean normal (trace / 3) */
    int cells;              /* along the screen's width */
    double width;           /* [L] the kernel's; 0: a cell's size */
    int has_range;
    double lo, hi;
} slice_opts;

/* FIELD[_COMPONENT] among the fields' names; 0 if it is none. */
int slice_parse(const char *spec, slice_opts *o);
/* The slice of the frame in `particles` (and `contacts`, or NULL) seen by
 * cam: *values (the caller frees it) hold its cells. */
grains_status slice_make(const slice_opts *o, const render_camera *cam, const char *particles, const char *contacts,
                         render_slice *out, double **values, grains_error *err);

#endif
