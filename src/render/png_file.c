/* PNG files written whole (render/png_file.h). */
#include "render/png_file.h"

#include "io/atomic_file.h"

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

grains_status png_file_write(cairo_t *cr, const char *path, const char *what, grains_error *err)
{
    cairo_status_t cs = cairo_status(cr);
    if (cs != CAIRO_STATUS_SUCCESS)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot draw %s: %s", what, cairo_status_to_string(cs));
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    cs = cairo_surface_write_to_png_stream(cairo_get_target(cr), to_file, af.f);
    if (cs != CAIRO_STATUS_SUCCESS) {
        atomic_abandon(&af);
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write %s: %s", what, cairo_status_to_string(cs));
    }
    return atomic_commit(&af, err);
}
