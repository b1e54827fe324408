/* The data arrays of a VTK XML file, in the file's format: ASCII text,
 * base64 binary, or base64 binary of zlib-compressed blocks (the
 * vtkZLibDataCompressor layout, with UInt64 headers: VTK file version
 * 1.0, read by ParaView and VTK since 2012). */
#ifndef GRAINS_IO_VTK_ARRAY_H
#define GRAINS_IO_VTK_ARRAY_H

#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "grains/io.h"
#include "io/atomic_file.h"

typedef struct {
    FILE *f;
    grains_vtk_format format;
    int out_of_memory; /* an array could not be encoded: the file is incomplete */
} vtk_out;

/* The XML declaration and the VTKFile element of a file of `type`
 * (PolyData, ...), with the attributes its format needs. */
void vtk_file_open(vtk_out *o, const char *type);
void vtk_file_close(vtk_out *o);

/* An array of n tuples of `comps` values: doubles (in ASCII with
 * `digits` significant digits), or integers written as `type` (Int32 or
 * Int64). An empty array is written as ASCII, which any format may hold. */
void vtk_doubles(vtk_out *o, const char *name, int comps, const double *a, size_t n, int digits);
void vtk_ints(vtk_out *o, const char *type, const char *name, int comps, const int64_t *a, size_t n);

/* An array of n tuples written as its values come, in as many calls as
 * suit the caller (the bytes are those of one call): opened, given n *
 * comps values in all, closed. */
typedef struct {
    vtk_out *o;
    int comps, digits, narrow, ascii;
    size_t k;                /* ASCII: the values written */
    unsigned char carry[3];  /* binary: bytes short of a base64 group */
    int n_carry;
    int deflating;           /* compressed: */
    z_stream z;
    uint64_t zipped;         /* the bytes deflate gave */
    fpos_t header_at;        /* where the header's room lies */
} vtk_stream;
void vtk_stream_open(vtk_stream *s, vtk_out *o, const char *type, const char *name, int comps, size_t n, int digits);
void vtk_stream_doubles(vtk_stream *s, const double *a, size_t m);
void vtk_stream_ints(vtk_stream *s, const int64_t *a, size_t m);
void vtk_stream_close(vtk_stream *s);

/* A PolyData file's one piece of the given numbers of points and cells. */
void vtk_piece_open(vtk_out *o, size_t points, size_t verts, size_t lines, size_t polys);
void vtk_piece_close(vtk_out *o);

/* The file's end: committed, unless an array could not be encoded. */
grains_status vtk_finish(vtk_out *o, atomic_file *af, const char *path, grains_error *err);

#endif
