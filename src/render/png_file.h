/* A cairo image written as a PNG file in full or not at all, through a
 * temporary renamed over the path (io/atomic_file.h): a symlink planted
 * at the path is replaced, never followed, and a FIFO or a device there
 * is refused, never opened. */
#ifndef GRAINS_RENDER_PNG_FILE_H
#define GRAINS_RENDER_PNG_FILE_H

#include <cairo.h>

#include "grains/error.h"

/* The image of `cr` (its state checked first) into `path`; `what` names
 * it in an error ("the plot", "the image"). */
grains_status png_file_write(cairo_t *cr, const char *path, const char *what, grains_error *err);

#endif
