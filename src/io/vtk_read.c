/* Reading back grains' own VTK XML PolyData (io/vtk_read.h). The text is
 * scanned tag by tag: section tags (Points, PointData, ...) say where the
 * next DataArray belongs; each DataArray is decoded as its format says. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/text.h"
#include "io/vtk_read.h"

/* zlib cannot expand a stream by more than about 1032:1 (its deflate
 * format's limit); a larger claim is a lie that would cost memory. */
#define ZLIB_MAX_RATIO 1100u

/* What a file's arrays may take, as decoded bytes and the doubles they
 * become, against the file's own length: grains' compressed frames inflate
 * to 0.92x their size (1,000 grains, measured), so about 2x with the
 * doubles; arrays of zeros compress more, yet not 50 times a frame's whole.
 * 100x refuses a few megabytes of zeros declared as tens of millions of
 * points, before they are inflated. */
#define FILE_RATIO 100u
#define FILE_SLACK (1u << 20)

typedef struct {
    const char *name;
    int compressed;
    grains_error *err;
    uint64_t left; /* bytes the arrays may still take (FILE_RATIO) */
    uint64_t budget;
} vtk_reader;

/* Takes `bytes` of the file's budget, or says why not. */
static grains_status spend(vtk_reader *r, const char *name, uint64_t bytes)
{
    if (bytes <= r->left) {
        r->left -= bytes;
        return GRAINS_OK;
    }
    return grains_error_set(r->err, GRAINS_ERR_LIMIT, r->name, 0,
                            "\"%s\" would take %.3g MB more, beyond the %.3g MB (%ux the file's size) its arrays may "
                            "take", name, (double)bytes / 1e6, (double)r->budget / 1e6, FILE_RATIO);
}

/* The value of attribute `key` in the tag [tag, end) into out; 0 if absent. */
static int attribute(const char *tag, const char *end, const char *key, char *out, size_t size)
{
    size_t k = strlen(key);
    for (const char *p = tag + 1; p + k + 2 < end; p++) {
        if (p[-1] != ' ' || strncmp(p, key, k) != 0 || p[k] != '=' || p[k + 1] != '"')
            continue;
        const char *v = p + k + 2, *q = memchr(v, '"', (size_t)(end - v));
        if (!q || (size_t)(q - v) >= size)
            return 0;
        memcpy(out, v, (size_t)(q - v));
        out[q - v] = '\0';
        return 1;
    }
    return 0;
}

/* A count attribute: a decimal in [0, 2^40); absent means 0. */
static int count_attribute(const char *tag, const char *end, const char *key, size_t *out)
{
    char v[32];
    long n = 0;
    *out = 0;
    if (!attribute(tag, end, key, v, sizeof v))
        return 1;
    if (!parse_long(v, strlen(v), &n) || n < 0 || n >= (1L << 40))
        return 0;
    *out = (size_t)n;
    return 1;
}

static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Decodes `chars` base64 characters (a multiple of 4, '=' padding only at
 * the end) into out; returns the bytes written, or -1 if malformed. */
static long base64_decode(const char *s, size_t chars, unsigned char *out)
{
    if (chars % 4)
        return -1;
    size_t n = 0;
    for (size_t k = 0; k < chars; k += 4) {
        int pad = (s[k + 3] == '=') + (s[k + 2] == '=');
        if (pad && k + 4 != chars)
            return -1;
        int v[4];
        for (int j = 0; j < 4; j++)
            if ((v[j] = j >= 4 - pad ? 0 : base64_value(s[k + j])) < 0)
                return -1;
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 | (unsigned)v[3];
        out[n++] = (unsigned char)(w >> 16);
        if (pad < 2)
            out[n++] = (unsigned char)(w >> 8);
        if (pad < 1)
            out[n++] = (unsigned char)w;
    }
    return (long)n;
}

/* The base64 characters that encode `bytes` bytes on their own. */
static size_t base64_chars(size_t bytes) { return (bytes + 2) / 3 * 4; }

static grains_status fail(vtk_reader *r, const char *array, const char *why)
{
    return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "DataArray \"%s\": %s", array, why);
}

/* Uncompressed binary: a UInt64 byte count, then the bytes. */
static grains_status binary_plain(vtk_reader *r, const char *name, const char *s, size_t len, unsigned char **raw,
                                  size_t *n)
{
    uint64_t h;
    unsigned char b[9];
    if (len < 12 || base64_decode(s, 12, b) != 8)
        return fail(r, name, "no valid header");
    memcpy(&h, b, 8);
    if (h > (len - 12) / 4 * 3 || base64_chars((size_t)h) != len - 12)
        return fail(r, name, "its byte count does not match its data");
    *raw = malloc((size_t)h + 3);
    if (!*raw)
        return grains_error_set(r->err, GRAINS_ERR_NOMEM, r->name, 0, "out of memory reading \"%s\"", name);
    *n = (size_t)base64_decode(s + 12, len - 12, *raw);
    return *n == h ? GRAINS_OK : fail(r, name, "its data is not base64 of its byte count");
}

/* The compressed layout's header: [blocks, block size, last block size,
 * compressed size of each block] as UInt64, base64 on its own. */
static grains_status zlib_header(vtk_reader *r, const char *name, const char *s, size_t len, uint64_t **h,
                                 size_t *chars)
{
    unsigned char b[9];
    uint64_t blocks;
    if (len < 12 || base64_decode(s, 12, b) < 8)
        return fail(r, name, "no valid header");
    memcpy(&blocks, b, 8);
    if (blocks > len / 8)
        return fail(r, name, "more blocks than its data can hold");
    size_t bytes = (size_t)(3 + blocks) * 8;
    *chars = base64_chars(bytes);
    *h = malloc(bytes + 3);
    if (!*h)
        return grains_error_set(r->err, GRAINS_ERR_NOMEM, r->name, 0, "out of memory reading \"%s\"", name);
    if (*chars > len || base64_decode(s, *chars, (unsigned char *)*h) != (long)bytes)
        return fail(r, name, "its header is not base64");
    return GRAINS_OK;
}

/* Inflates each block into raw; the sizes were checked against the data. */
static grains_status zlib_blocks(vtk_reader *r, const char *name, const uint64_t *h, const unsigned char *z,
                                 size_t z_len, unsigned char *raw)
{
    size_t at = 0, out = 0;
    for (uint64_t k = 0; k < h[0]; k++) {
        uint64_t want = k + 1 == h[0] && h[2] ? h[2] : h[1], have = h[3 + k];
        if (have > z_len - at)
            return fail(r, name, "a compressed block runs past its data");
        uLongf got = (uLongf)want;
        if (uncompress(raw + out, &got, z + at, (uLong)have) != Z_OK || got != want)
            return fail(r, name, "a compressed block does not inflate to its size");
        at += (size_t)have;
        out += (size_t)want;
    }
    return at == z_len ? GRAINS_OK : fail(r, name, "bytes after its compressed blocks");
}

/* The bytes the blocks inflate to, if the compressed data can hold them. */
static int inflated_size(const uint64_t *h, uint64_t z_len, uint64_t *total)
{
    uint64_t most = z_len * ZLIB_MAX_RATIO + 64, last = h[2] ? h[2] : h[1];
    if (h[0] == 0)
        return (*total = 0), 1;
    if (h[1] == 0 || h[1] > most || last > h[1] || h[0] - 1 > most / h[1])
        return 0;
    *total = (h[0] - 1) * h[1] + last;
    return *total <= most;
}

static grains_status binary_zlib(vtk_reader *r, const char *name, const char *s, size_t len, unsigned char **raw,
                                 size_t *n)
{
    uint64_t *h = NULL;
    size_t chars = 0;
    grains_status st = zlib_header(r, name, s, len, &h, &chars);
    if (st != GRAINS_OK) {
        free(h);
        return st;
    }
    size_t z_max = (len - chars) / 4 * 3;
    uint64_t total = 0;
    unsigned char *z = malloc(z_max + 3);
    long z_len = z ? base64_decode(s + chars, len - chars, z) : -1;
    if (!z)
        st = grains_error_set(r->err, GRAINS_ERR_NOMEM, r->name, 0, "out of memory reading \"%s\"", name);
    else if (z_len < 0)
        st = fail(r, name, "its data is not base64");
    else if (!inflated_size(h, (uint64_t)z_len, &total))
        st = fail(r, name, "its blocks claim more bytes than its compressed data can hold");
    else if ((st = spend(r, name, total)) == GRAINS_OK && !(*raw = malloc((size_t)total + 1)))
        st = grains_error_set(r->err, GRAINS_ERR_NOMEM, r->name, 0, "out of memory reading \"%s\"", name);
    else if (st == GRAINS_OK && (st = zlib_blocks(r, name, h, z, (size_t)z_len, *raw)) == GRAINS_OK)
        *n = (size_t)total;
    free(z);
    free(h);
    return st;
}

typedef enum { T_F64, T_F32, T_I64, T_I32, T_U8, T_BAD } value_type;

static value_type type_of(const char *t)
{
    static const char *names[] = {"Float64", "Float32", "Int64", "Int32", "UInt8"};
    for (int k = 0; k < 5; k++)
        if (strcmp(t, names[k]) == 0)
            return (value_type)k;
    return T_BAD;
}

static size_t type_size(value_type t) { return (size_t[]){8, 4, 8, 4, 1}[t]; }

static double value_at(const unsigned char *p, value_type t)
{
    double d;
    float f;
    int64_t l;
    int32_t i;
    switch (t) {
    case T_F64: memcpy(&d, p, 8); return d;
    case T_F32: memcpy(&f, p, 4); return f;
    case T_I64: memcpy(&l, p, 8); return (double)l;
    case T_I32: memcpy(&i, p, 4); return i;
    default: return *p;
    }
}

/* Whitespace-separated numbers, as many as fit; returns the count or -1
 * for a token that is not a finite number. */
static long ascii_values(const char *s, size_t len, double *out, size_t max)
{
    size_t n = 0, k = 0;
    while (k < len) {
        while (k < len && strchr(" \t\r\n", s[k]))
            k++;
        size_t b = k;
        while (k < len && !strchr(" \t\r\n", s[k]))
            k++;
        if (k == b)
            break;
        real v;
        if (n == max || !parse_real(s + b, k - b, &v))
            return -1;
        out[n++] = (double)v;
    }
    return (long)n;
}

static void trim(const char **s, size_t *len)
{
    while (*len && strchr(" \t\r\n", **s))
        (*s)++, (*len)--;
    while (*len && strchr(" \t\r\n", (*s)[*len - 1]))
        (*len)--;
}

/* The values of one DataArray's text [s, s+len) into a->v. */
static grains_status array_values(vtk_reader *r, vtk_array_in *a, const char *format, value_type t, const char *s,
                                  size_t len)
{
    trim(&s, &len);
    if (strcmp(format, "ascii") == 0) {
        size_t max = len / 2 + 1;
        if (!(a->v = malloc(max * sizeof *a->v)))
            return grains_error_set(r->err, GRAINS_ERR_NOMEM, r->name, 0, "out of memory reading \"%s\"", a->name);
        long n = ascii_values(s, len, a->v, max);
        if (n < 0)
            return fail(r, a->name, "a value that is not a finite number");
        a->tuples = (size_t)n;
        return GRAINS_OK;
    }
    if (strcmp(format, "binary") != 0)
        return fail(r, a->name, "format is neither ascii nor binary (appended data is not read)");
    unsigned char *raw = NULL;
    size_t n = 0;
    grains_status st = r->compressed ? binary_zlib(r, a->name, s, len, &raw, &n) : binary_plain(r, a->name, s, len, &raw, &n);
    if (st == GRAINS_OK && n % type_size(t))
        st = fail(r, a->name, "its byte count is not a whole number of values");
    if (st == GRAINS_OK)
        st = spend(r, a->name, (uint64_t)(n / type_size(t)) * sizeof *a->v);
    if (st == GRAINS_OK && !(a->v = malloc((n / type_size(t) + 1) * sizeof *a->v)))
        st = grains_error_set(r->err, GRAINS_ERR_NOMEM, r->name, 0, "out of memory reading \"%s\"", a->name);
    for (size_t k = 0; st == GRAINS_OK && k < n / type_size(t); k++)
        a->v[k] = value_at(raw + k * type_size(t), t);
    a->tuples = n / type_size(t);
    free(raw);
    return st;
}

/* The number of tuples an array in `section` must have (SIZE_MAX: any). */
static size_t tuples_expected(const vtk_polydata *d, vtk_section section, const char *name)
{
    size_t cells = d->verts + d->lines + d->strips + d->polys;
    size_t of_section[] = {0, d->points, d->points, cells, d->verts, d->lines, d->strips, d->polys};
    if (section >= VTK_IN_VERTS && strcmp(name, "connectivity") == 0)
        return SIZE_MAX;
    return of_section[section];
}

/* One DataArray: its tag [tag, end), its text up to `close`. */
static grains_status data_array(vtk_reader *r, vtk_polydata *d, vtk_section section, const char *tag,
                                const char *end, const char *close)
{
    char type[16], format[16], comps_s[8];
    long comps = 1;
    if (d->n_arrays == VTK_READ_MAX_ARRAYS)
        return grains_error_set(r->err, GRAINS_ERR_LIMIT, r->name, 0, "more than %d DataArrays", VTK_READ_MAX_ARRAYS);
    vtk_array_in *a = &d->array[d->n_arrays];
    memset(a, 0, sizeof *a);
    if (section == VTK_IN_NONE)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "a DataArray outside Points, PointData, "
                                "CellData, Verts, Lines, Strips or Polys");
    if (!attribute(tag, end, "Name", a->name, sizeof a->name) || !attribute(tag, end, "type", type, sizeof type) ||
        !attribute(tag, end, "format", format, sizeof format))
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "a DataArray without Name, type or format");
    if (attribute(tag, end, "NumberOfComponents", comps_s, sizeof comps_s) &&
        (!parse_long(comps_s, strlen(comps_s), &comps) || comps < 1 || comps > 16))
        return fail(r, a->name, "NumberOfComponents is not in [1, 16]");
    if (type_of(type) == T_BAD)
        return fail(r, a->name, "type is not Float64, Float32, Int64, Int32 or UInt8");
    a->section = section;
    a->comps = (int)comps;
    a->integer = type_of(type) != T_F64 && type_of(type) != T_F32;
    d->n_arrays++;
    grains_status st = array_values(r, a, format, type_of(type), end + 1, (size_t)(close - end - 1));
    if (st != GRAINS_OK)
        return st;
    size_t want = tuples_expected(d, section, a->name);
    if (a->tuples % (size_t)comps || (want != SIZE_MAX && a->tuples / (size_t)comps != want))
        return fail(r, a->name, "its number of values does not match the Piece's counts");
    a->tuples /= (size_t)comps;
    return GRAINS_OK;
}

/* VTKFile's attributes: PolyData, this machine's byte order, UInt64
 * headers, no compressor or zlib. */
static grains_status file_tag(vtk_reader *r, const char *tag, const char *end)
{
    char v[64];
    const char *order = (const union { uint16_t u; char c; }){1}.c ? "LittleEndian" : "BigEndian";
    if (!attribute(tag, end, "type", v, sizeof v) || strcmp(v, "PolyData") != 0)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "not a VTK PolyData file");
    if (attribute(tag, end, "byte_order", v, sizeof v) && strcmp(v, order) != 0)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "byte order %s; this machine is %s", v, order);
    if (attribute(tag, end, "header_type", v, sizeof v) && strcmp(v, "UInt64") != 0)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "header_type %s; only UInt64 is read", v);
    r->compressed = attribute(tag, end, "compressor", v, sizeof v);
    if (r->compressed && strcmp(v, "vtkZLibDataCompressor") != 0)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "compressor %s; only zlib is read", v);
    return GRAINS_OK;
}

static grains_status piece_tag(vtk_reader *r, vtk_polydata *d, const char *tag, const char *end)
{
    if (count_attribute(tag, end, "NumberOfPoints", &d->points) &&
        count_attribute(tag, end, "NumberOfVerts", &d->verts) &&
        count_attribute(tag, end, "NumberOfLines", &d->lines) &&
        count_attribute(tag, end, "NumberOfStrips", &d->strips) &&
        count_attribute(tag, end, "NumberOfPolys", &d->polys))
        return GRAINS_OK;
    return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "a Piece count that is not a number below 2^40");
}

/* The section a tag opens (or VTK_IN_NONE for a closing section tag), or
 * -1 for any other tag. */
static int section_of(const char *tag)
{
    static const char *names[] = {"Points", "PointData", "CellData", "Verts", "Lines", "Strips", "Polys"};
    int closing = tag[1] == '/';
    for (int k = 0; k < 7; k++) {
        size_t n = strlen(names[k]);
        const char *p = tag + 1 + closing;
        if (strncmp(p, names[k], n) == 0 && (p[n] == '>' || p[n] == ' '))
            return closing ? VTK_IN_NONE : k + 1;
    }
    return -1;
}

/* Every count of the Piece has its data: points a Points array, cells an
 * offsets array of their own section, each already matched to its count.
 * A reader that sizes its buffers by the counts then allocates no more
 * than the file's arrays hold. */
static grains_status counts_backed(vtk_reader *r, const vtk_polydata *d)
{
    static const char *what[] = {"", "NumberOfPoints", "", "", "NumberOfVerts", "NumberOfLines", "NumberOfStrips",
                                 "NumberOfPolys"};
    size_t count[] = {0, d->points, 0, 0, d->verts, d->lines, d->strips, d->polys};
    for (int s = VTK_IN_POINTS; s <= VTK_IN_POLYS; s++) {
        int has = count[s] == 0;
        for (int k = 0; k < d->n_arrays && !has; k++)
            has = d->array[k].section == (vtk_section)s &&
                  (s == VTK_IN_POINTS || strcmp(d->array[k].name, "offsets") == 0);
        if (!has)
            return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "%s=\"%zu\" but no %s array holds them",
                                    what[s], count[s], s == VTK_IN_POINTS ? "Points" : "offsets");
    }
    return GRAINS_OK;
}

static grains_status scan(vtk_reader *r, vtk_polydata *d, const char *text, size_t len)
{
    const char *p = text, *stop = text + len;
    vtk_section section = VTK_IN_NONE;
    int seen_file = 0, seen_piece = 0, seen_end = 0;
    while ((p = memchr(p, '<', (size_t)(stop - p)))) {
        const char *end = memchr(p, '>', (size_t)(stop - p));
        if (!end)
            return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "the file ends inside a tag");
        grains_status st = GRAINS_OK;
        int sec = section_of(p);
        if (strncmp(p, "<VTKFile ", 9) == 0 && !seen_file++) {
            st = file_tag(r, p, end);
        } else if (strncmp(p, "<Piece ", 7) == 0 && seen_file && !seen_piece++) {
            st = piece_tag(r, d, p, end);
        } else if (strncmp(p, "<DataArray ", 11) == 0 && seen_piece) {
            const char *close = strstr(end, "</DataArray>");
            if (!close)
                return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "a DataArray without its end tag");
            if ((st = data_array(r, d, section, p, end, close)) == GRAINS_OK)
                end = close + 11;
        } else if (sec >= 0) {
            section = (vtk_section)sec;
        } else if (strncmp(p, "</VTKFile>", 10) == 0) {
            seen_end = seen_piece;
        }
        if (st != GRAINS_OK)
            return st;
        p = end + 1;
    }
    if (!seen_piece)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "no VTKFile with a Piece");
    if (!seen_end)
        return grains_error_set(r->err, GRAINS_ERR_PARSE, r->name, 0, "no </VTKFile>: the file is cut short");
    return counts_backed(r, d);
}

grains_status vtk_polydata_parse(const char *text, size_t len, const char *name, vtk_polydata *d, grains_error *err)
{
    memset(d, 0, sizeof *d);
    if (memchr(text, '\0', len))
        return grains_error_set(err, GRAINS_ERR_PARSE, name, 0, "a NUL byte: not a VTK XML file");
    uint64_t budget = (uint64_t)len * FILE_RATIO + FILE_SLACK;
    vtk_reader r = {name, 0, err, budget, budget};
    grains_status st = scan(&r, d, text, len);
    if (st != GRAINS_OK)
        vtk_polydata_free(d);
    return st;
}

grains_status vtk_polydata_read(const char *path, vtk_polydata *d, grains_error *err)
{
    memset(d, 0, sizeof *d);
    size_t len;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    grains_status st = vtk_polydata_parse(text, len, path, d, err);
    free(text);
    return st;
}

const vtk_array_in *vtk_polydata_array(const vtk_polydata *d, vtk_section section, const char *name)
{
    for (int k = 0; k < d->n_arrays; k++)
        if (d->array[k].section == section && strcmp(d->array[k].name, name) == 0)
            return &d->array[k];
    return NULL;
}

void vtk_polydata_free(vtk_polydata *d)
{
    for (int k = 0; k < d->n_arrays; k++)
        free(d->array[k].v);
    memset(d, 0, sizeof *d);
}
