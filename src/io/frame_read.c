/* The library's reader of its own VTK frames (grains/io.h), over the
 * checked parser of io/vtk_read.c. */
#include <stdlib.h>

#include "grains/io.h"
#include "io/vtk_read.h"

struct grains_frame {
    vtk_polydata d;
};

grains_status grains_frame_read(const char *path, grains_frame **out, grains_error *err)
{
    *out = NULL;
    grains_frame *f = malloc(sizeof *f);
    if (!f)
        return grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    grains_status s = vtk_polydata_read(path, &f->d, err);
    if (s != GRAINS_OK) {
        free(f);
        return s;
    }
    *out = f;
    return GRAINS_OK;
}

size_t grains_frame_points(const grains_frame *f) { return f->d.points; }

int grains_frame_array_count(const grains_frame *f) { return f->d.n_arrays; }

grains_frame_array grains_frame_get(const grains_frame *f, int k)
{
    if (k < 0 || k >= f->d.n_arrays)
        return (grains_frame_array){0};
    const vtk_array_in *a = &f->d.array[k];
    return (grains_frame_array){a->name, (grains_frame_part)a->section, a->comps, a->integer, a->tuples, a->v};
}

void grains_frame_free(grains_frame *f)
{
    if (!f)
        return;
    vtk_polydata_free(&f->d);
    free(f);
}
