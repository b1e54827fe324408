/* VTK XML data arrays in ASCII or base64 binary (io/vtk_array.h). In
 * binary, an array is a header of UInt64 values, then the data; each is
 * base64-encoded on its own, as VTK's reader expects. Uncompressed, the
 * header is the data's byte count; compressed, it is [1 block, its size,
 * 0 (no partial block), its compressed size], the data one zlib stream. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/vtk_array.h"

static const char base64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* n bytes as base64 (RFC 4648, padded). */
static void put_base64(FILE *f, const unsigned char *b, size_t n)
{
    char out[4];
    for (size_t k = 0; k < n; k += 3) {
        unsigned v = (unsigned)b[k] << 16 | (k + 1 < n ? (unsigned)b[k + 1] << 8 : 0) | (k + 2 < n ? b[k + 2] : 0);
        out[0] = base64_digits[v >> 18 & 63];
        out[1] = base64_digits[v >> 12 & 63];
        out[2] = k + 1 < n ? base64_digits[v >> 6 & 63] : '=';
        out[3] = k + 2 < n ? base64_digits[v & 63] : '=';
        fwrite(out, 1, 4, f);
    }
}

/* The machine's byte order, which the file declares: the arrays are
 * written as they lie in memory, headers and data alike. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define VTK_BYTE_ORDER "BigEndian"
#else
#define VTK_BYTE_ORDER "LittleEndian"
#endif

/* UInt64 header values, in the machine's byte order. */
static void put_header(FILE *f, const uint64_t *h, int n)
{
    unsigned char b[4 * 8];
    memcpy(b, h, 8 * (size_t)n);
    put_base64(f, b, 8 * (size_t)n);
}

void vtk_file_open(vtk_out *o, const char *type)
{
    fprintf(o->f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"%s\" version=\"1.0\" byte_order=\"" VTK_BYTE_ORDER "\" "
                  "header_type=\"UInt64\"%s>\n", type,
            o->format == GRAINS_VTK_COMPRESSED ? " compressor=\"vtkZLibDataCompressor\"" : "");
}

void vtk_file_close(vtk_out *o) { fputs("</VTKFile>\n", o->f); }

/* The bytes of a binary array, as they lie in memory. */
static void put_binary(vtk_out *o, const void *bytes, size_t n)
{
    if (o->format == GRAINS_VTK_BINARY) {
        uint64_t h = n;
        put_header(o->f, &h, 1);
        put_base64(o->f, bytes, n);
        return;
    }
    uLongf size = compressBound((uLong)n);
    unsigned char *z = malloc(size);
    if (!z || compress2(z, &size, bytes, (uLong)n, Z_BEST_SPEED) != Z_OK) {
        o->out_of_memory = 1;
        free(z);
        return;
    }
    uint64_t h[4] = {1, n, 0, size};
    put_header(o->f, h, 4);
    put_base64(o->f, z, size);
    free(z);
}

static void array_open(vtk_out *o, const char *type, const char *name, int comps, int ascii)
{
    fprintf(o->f, "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"%s\">\n", type, name, comps,
            ascii ? "ascii" : "binary");
}

void vtk_doubles(vtk_out *o, const char *name, int comps, const double *a, size_t n, int digits)
{
    size_t m = n * (size_t)comps;
    int ascii = o->format == GRAINS_VTK_ASCII || m == 0;
    array_open(o, "Float64", name, comps, ascii);
    if (ascii)
        for (size_t k = 0; k < m; k++)
            fprintf(o->f, "%.*g%c", digits, a[k], (k + 1) % (size_t)comps ? ' ' : '\n');
    else
        put_binary(o, a, m * sizeof *a);
    fputs(ascii ? "</DataArray>\n" : "\n</DataArray>\n", o->f);
}

void vtk_ints(vtk_out *o, const char *type, const char *name, int comps, const int64_t *a, size_t n)
{
    size_t m = n * (size_t)comps;
    int ascii = o->format == GRAINS_VTK_ASCII || m == 0, narrow = strcmp(type, "Int32") == 0;
    array_open(o, type, name, comps, ascii);
    if (ascii) {
        for (size_t k = 0; k < m; k++)
            fprintf(o->f, "%lld%c", (long long)a[k], (k + 1) % (size_t)comps ? ' ' : '\n');
    } else if (narrow) {
        int32_t *b = malloc(m * sizeof *b);
        if (!b) {
            o->out_of_memory = 1;
        } else {
            for (size_t k = 0; k < m; k++)
                b[k] = (int32_t)a[k];
            put_binary(o, b, m * sizeof *b);
            free(b);
        }
    } else {
        put_binary(o, a, m * sizeof *a);
    }
    fputs(ascii ? "</DataArray>\n" : "\n</DataArray>\n", o->f);
}

void vtk_piece_open(vtk_out *o, size_t points, size_t verts, size_t lines, size_t polys)
{
    vtk_file_open(o, "PolyData");
    fprintf(o->f,
            "<PolyData>\n<Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" "
            "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n", points, verts, lines, polys);
}

void vtk_piece_close(vtk_out *o)
{
    fputs("</Piece>\n</PolyData>\n", o->f);
    vtk_file_close(o);
}

/* The file's end: committed, unless an array could not be encoded. */
grains_status vtk_finish(vtk_out *o, atomic_file *af, const char *path, grains_error *err)
{
    if (o->out_of_memory) {
        atomic_abandon(af);
        return grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory encoding the VTK arrays");
    }
    return atomic_commit(af, err);
}
