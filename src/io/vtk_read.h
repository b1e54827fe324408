/* Reading back the VTK XML PolyData files grains writes (io/vtk_array.h):
 * ASCII, base64 binary, or base64 zlib-compressed binary, UInt64 headers,
 * this machine's byte order. Every array is returned as doubles. The file
 * is untrusted: counts, sizes, base64 and zlib blocks are checked, and a
 * claimed size is believed only as far as the bytes present can hold it. */
#ifndef GRAINS_IO_VTK_READ_H
#define GRAINS_IO_VTK_READ_H

#include <stddef.h>

#include "grains/error.h"

/* Where in the Piece an array lies. */
typedef enum {
    VTK_IN_NONE = 0,
    VTK_IN_POINTS,
    VTK_IN_POINT_DATA,
    VTK_IN_CELL_DATA,
    VTK_IN_VERTS,
    VTK_IN_LINES,
    VTK_IN_STRIPS,
    VTK_IN_POLYS
} vtk_section;

enum { VTK_READ_MAX_ARRAYS = 48 };

typedef struct {
    char name[64];
    vtk_section section;
    int comps;
    int integer; /* its type was an integer (Int64, Int32, UInt8) */
    size_t tuples;
    double *v; /* tuples * comps values */
} vtk_array_in;

typedef struct {
    size_t points, verts, lines, strips, polys;
    int n_arrays;
    vtk_array_in array[VTK_READ_MAX_ARRAYS];
} vtk_polydata;

/* The file at `path`, or the text [text, text+len) named `name` in errors
 * (text[len] must be '\0', as read_file leaves it). On failure *d is left empty (nothing to free). */
grains_status vtk_polydata_read(const char *path, vtk_polydata *d, grains_error *err);
grains_status vtk_polydata_parse(const char *text, size_t len, const char *name, vtk_polydata *d,
                                 grains_error *err);

/* The array of that name in that section, or NULL. */
const vtk_array_in *vtk_polydata_array(const vtk_polydata *d, vtk_section section, const char *name);

void vtk_polydata_free(vtk_polydata *d);

#endif
