/* VTK XML data arrays in ASCII or base64 binary (io/vtk_array.h). In
 * binary, an array is a header of UInt64 values, then the data; each is
 * base64-encoded on its own, as VTK's reader expects. Uncompressed, the
 * header is the data's byte count; compressed, it is [1 block, its size,
 * 0 (no partial block), its compressed size], the data one zlib stream.
 * An array is written as its values come (vtk_stream_*), so that a frame
 * of any size is written a window of particles at a time. */
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

static void array_open(vtk_out *o, const char *type, const char *name, int comps, int ascii)
{
    fprintf(o->f, "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"%s\">\n", type, name, comps,
            ascii ? "ascii" : "binary");
}

/* Base64 of the bytes as they come: those short of a group of 3 wait for
 * the next, so that the text is the one-piece encoding of them all. */
static void stream_base64(vtk_stream *s, const unsigned char *b, size_t n)
{
    for (; n > 0 && s->n_carry > 0; n--) {
        s->carry[s->n_carry++] = *b++;
        if (s->n_carry == 3) {
            put_base64(s->o->f, s->carry, 3);
            s->n_carry = 0;
        }
    }
    if (s->n_carry > 0) /* (all taken into the group) */
        return;
    size_t whole = n - n % 3;
    put_base64(s->o->f, b, whole);
    memcpy(s->carry, b + whole, n - whole);
    s->n_carry = (int)(n - whole);
}

/* Deflates what is pending (flush: Z_NO_FLUSH or Z_FINISH) into the
 * base64 text. Fed in pieces, deflate gives the bytes of one call on the
 * whole (zlib's output does not depend on where its input was cut), so
 * the file is the same for any window. */
static void stream_deflate(vtk_stream *s, int flush)
{
    unsigned char buf[16384];
    int ret;
    do {
        s->z.next_out = buf;
        s->z.avail_out = sizeof buf;
        ret = deflate(&s->z, flush);
        size_t made = sizeof buf - s->z.avail_out;
        s->zipped += made;
        stream_base64(s, buf, made);
    } while (ret == Z_OK && (s->z.avail_in > 0 || s->z.avail_out == 0 || flush == Z_FINISH));
    if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
        s->o->out_of_memory = 1;
}

void vtk_stream_open(vtk_stream *s, vtk_out *o, const char *type, const char *name, int comps, size_t n, int digits)
{
    *s = (vtk_stream){.o = o, .comps = comps, .digits = digits, .narrow = strcmp(type, "Int32") == 0};
    size_t m = n * (size_t)comps, bytes = m * (s->narrow ? 4 : 8);
    s->ascii = o->format == GRAINS_VTK_ASCII || m == 0;
    array_open(o, type, name, comps, s->ascii);
    if (s->ascii)
        return;
    if (o->format == GRAINS_VTK_BINARY) {
        uint64_t h = bytes;
        put_header(o->f, &h, 1);
        return;
    }
    /* [1 block, its size, 0 (no partial block), its compressed size]: the
     * last is known at the end, and its text takes the same room */
    uint64_t h[4] = {1, bytes, 0, 0};
    if (fgetpos(o->f, &s->header_at) != 0 || deflateInit(&s->z, Z_BEST_SPEED) != Z_OK) {
        o->out_of_memory = 1;
        return;
    }
    s->deflating = 1;
    put_header(o->f, h, 4);
}

static void stream_bytes(vtk_stream *s, const void *bytes, size_t n)
{
    if (!s->deflating) {
        if (s->o->format == GRAINS_VTK_BINARY)
            stream_base64(s, bytes, n);
        return;
    }
    s->z.next_in = (unsigned char *)(uintptr_t)bytes; /* (zlib's type; it does not write it) */
    s->z.avail_in = (uInt)n;
    stream_deflate(s, Z_NO_FLUSH);
}

void vtk_stream_doubles(vtk_stream *s, const double *a, size_t m)
{
    if (!s->ascii) {
        stream_bytes(s, a, m * sizeof *a);
        return;
    }
    for (size_t k = 0; k < m; k++, s->k++)
        fprintf(s->o->f, "%.*g%c", s->digits, a[k], (s->k + 1) % (size_t)s->comps ? ' ' : '\n');
}

void vtk_stream_ints(vtk_stream *s, const int64_t *a, size_t m)
{
    if (s->ascii) {
        for (size_t k = 0; k < m; k++, s->k++)
            fprintf(s->o->f, "%lld%c", (long long)a[k], (s->k + 1) % (size_t)s->comps ? ' ' : '\n');
    } else if (s->narrow) {
        int32_t b[1024];
        for (size_t k0 = 0; k0 < m; k0 += 1024) {
            size_t k1 = m - k0 < 1024 ? m : k0 + 1024;
            for (size_t k = k0; k < k1; k++)
                b[k - k0] = (int32_t)a[k];
            stream_bytes(s, b, (k1 - k0) * sizeof *b);
        }
    } else {
        stream_bytes(s, a, m * sizeof *a);
    }
}

void vtk_stream_close(vtk_stream *s)
{
    FILE *f = s->o->f;
    if (s->deflating) {
        s->z.avail_in = 0;
        stream_deflate(s, Z_FINISH);
        deflateEnd(&s->z);
    }
    if (s->n_carry)
        put_base64(f, s->carry, (size_t)s->n_carry);
    if (s->deflating) { /* the compressed size, into its header's room */
        fpos_t end;
        uint64_t h[4] = {1, 0, 0, s->zipped};
        h[1] = s->z.total_in;
        if (fgetpos(f, &end) != 0 || fsetpos(f, &s->header_at) != 0)
            s->o->out_of_memory = 1;
        put_header(f, h, 4);
        if (fsetpos(f, &end) != 0)
            s->o->out_of_memory = 1;
    }
    fputs(s->ascii ? "</DataArray>\n" : "\n</DataArray>\n", f);
}

void vtk_doubles(vtk_out *o, const char *name, int comps, const double *a, size_t n, int digits)
{
    vtk_stream s;
    vtk_stream_open(&s, o, "Float64", name, comps, n, digits);
    vtk_stream_doubles(&s, a, n * (size_t)comps);
    vtk_stream_close(&s);
}

void vtk_ints(vtk_out *o, const char *type, const char *name, int comps, const int64_t *a, size_t n)
{
    vtk_stream s;
    vtk_stream_open(&s, o, type, name, comps, n, 0);
    vtk_stream_ints(&s, a, n * (size_t)comps);
    vtk_stream_close(&s);
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
