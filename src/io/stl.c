/* STL meshes, ASCII or binary, told apart by content: a binary file is an
 * 80-byte header, a little-endian 32-bit triangle count and 50 bytes per
 * triangle, so its size is 84 + 50 n exactly; anything else must be ASCII
 * ("solid", facets of three vertices, "endsolid"). Normals are ignored (the
 * vertex order defines the face). Vertices with the same coordinates are
 * merged, in order of first appearance, so that neighbouring triangles
 * share them. Every triangle gets radius index 0. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "io/text.h"
#include "util/array.h"

#define STL_LIMIT 50000000u /* triangles; 2.5 GB of binary STL */

/* Vertices by their coordinates' bits: open addressing, size a power of 2. */
typedef struct {
    uint32_t *slot; /* vertex index + 1, 0 = empty */
    size_t mask;
} vertex_table;

static uint64_t bits_hash(grains_vec3 x)
{
    uint64_t h = 1469598103934665603u, b[3];
    memcpy(&b[0], &x.x, 8), memcpy(&b[1], &x.y, 8), memcpy(&b[2], &x.z, 8);
    for (int k = 0; k < 3; k++)
        h = (h ^ b[k]) * 1099511628211u;
    return h ^ (h >> 29);
}

static int table_init(vertex_table *t, size_t triangles)
{
    size_t size = 64;
    while (size < 4 * triangles) /* at most 3 n vertices: below 3/4 full */
        size *= 2;
    t->slot = calloc(size, sizeof *t->slot);
    t->mask = size - 1;
    return t->slot != NULL;
}

/* The index of vertex x in m, added when new. */
static grains_status vertex_of(vertex_table *t, grains_mesh *m, grains_vec3 x, uint32_t *out, grains_error *err)
{
    size_t k = bits_hash(x) & t->mask;
    for (; t->slot[k]; k = (k + 1) & t->mask) {
        grains_vec3 y = m->vertices[t->slot[k] - 1];
        if (memcmp(&x, &y, sizeof x) == 0) {
            *out = t->slot[k] - 1;
            return GRAINS_OK;
        }
    }
    grains_status s = grains_mesh_add_vertex(m, x, err);
    if (s != GRAINS_OK)
        return s;
    t->slot[k] = (uint32_t)m->n_vertices;
    *out = t->slot[k] - 1;
    return GRAINS_OK;
}

/* Adds triangle (a, b, c); `where` names it in errors (line or number). */
static grains_status add_triangle(vertex_table *t, grains_mesh *m, const grains_vec3 x[3], real R, const char *name,
                                  int line, size_t number, grains_error *err)
{
    uint32_t v[3];
    grains_status s = GRAINS_OK;
    for (int k = 0; k < 3 && s == GRAINS_OK; k++) {
        if (!isfinite(x[k].x) || !isfinite(x[k].y) || !isfinite(x[k].z))
            return grains_error_set(err, GRAINS_ERR_RANGE, name, line,
                                    "triangle %zu: vertex %d is not finite (%g, %g, %g)", number, k + 1, x[k].x,
                                    x[k].y, x[k].z);
        s = vertex_of(t, m, x[k], &v[k], err);
    }
    if (s == GRAINS_OK && (s = grains_mesh_add_element(m, 3, v, 0, R, err)) != GRAINS_OK && err) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        grains_error_set(err, s, name, line, "triangle %zu: %s", number, why);
    }
    if (s == GRAINS_OK)
        m->elements[m->n_elements - 1].line = line;
    return s;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float le_float(const unsigned char *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static grains_status parse_binary(const unsigned char *d, uint32_t n, const char *name, real R, grains_mesh *m,
                                  grains_error *err)
{
    vertex_table t;
    if (!table_init(&t, n))
        return grains_error_set(err, GRAINS_ERR_NOMEM, name, 0, "out of memory for %u triangles", n);
    grains_status s = GRAINS_OK;
    for (uint32_t k = 0; k < n && s == GRAINS_OK; k++) {
        const unsigned char *tri = d + 84 + 50 * (size_t)k + 12; /* past the normal */
        grains_vec3 x[3];
        for (int a = 0; a < 3; a++)
            x[a] = (grains_vec3){le_float(tri + 12 * a), le_float(tri + 12 * a + 4), le_float(tri + 12 * a + 8)};
        s = add_triangle(&t, m, x, R, name, 0, k + 1, err);
    }
    free(t.slot);
    return s;
}

/* ASCII STL as a stream of words, with line numbers. */
typedef struct {
    const char *p, *end;
    int line;
    const char *word;
    size_t len;
    int word_line;  /* the line of the last word read, for "the file ends" */
} words;

static int next_word(words *w)
{
    if (w->len)
        w->word_line = w->line;
    while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' || *w->p == '\r' || *w->p == '\n')) {
        if (*w->p == '\n')
            w->line++;
        w->p++;
    }
    w->word = w->p;
    while (w->p < w->end && !(*w->p == ' ' || *w->p == '\t' || *w->p == '\r' || *w->p == '\n'))
        w->p++;
    w->len = (size_t)(w->p - w->word);
    return w->len > 0;
}

static int is_word(const words *w, const char *s) { return w->len == strlen(s) && memcmp(w->word, s, w->len) == 0; }

static grains_status expect(words *w, const char *s, const char *name, grains_error *err)
{
    if (next_word(w) && is_word(w, s))
        return GRAINS_OK;
    if (w->len == 0)
        return grains_error_set(err, GRAINS_ERR_PARSE, name, w->word_line, "expected '%s', the file ends (truncated?)",
                                s);
    return grains_error_set(err, GRAINS_ERR_PARSE, name, w->line, "expected '%s', found '%.*s'", s,
                            (int)(w->len > 40 ? 40 : w->len), w->word);
}

static grains_status read_numbers(words *w, real *x, int n, const char *name, grains_error *err)
{
    for (int k = 0; k < n; k++)
        if (!next_word(w) || !parse_real(w->word, w->len, &x[k]))
            return grains_error_set(err, GRAINS_ERR_PARSE, name, w->line, "expected a finite number, found '%.*s'",
                                    (int)(w->len > 40 ? 40 : w->len), w->word);
    return GRAINS_OK;
}

/* "facet normal nx ny nz outer loop vertex x y z (3x) endloop endfacet",
 * after the word "facet". */
static grains_status read_facet(words *w, vertex_table *t, grains_mesh *m, real R, const char *name, size_t number,
                                grains_error *err)
{
    real normal[3], c[3];
    int line = w->line;
    grains_vec3 x[3];
    grains_status s = expect(w, "normal", name, err);
    if (s == GRAINS_OK && (s = read_numbers(w, normal, 3, name, err)) == GRAINS_OK &&
        (s = expect(w, "outer", name, err)) == GRAINS_OK)
        s = expect(w, "loop", name, err);
    for (int k = 0; k < 3 && s == GRAINS_OK; k++) {
        if ((s = expect(w, "vertex", name, err)) == GRAINS_OK && (s = read_numbers(w, c, 3, name, err)) == GRAINS_OK)
            x[k] = (grains_vec3){c[0], c[1], c[2]};
    }
    if (s == GRAINS_OK && (s = expect(w, "endloop", name, err)) == GRAINS_OK)
        s = expect(w, "endfacet", name, err);
    return s == GRAINS_OK ? add_triangle(t, m, x, R, name, line, number, err) : s;
}

static grains_status parse_ascii(const char *text, size_t len, const char *name, real R, grains_mesh *m,
                                 grains_error *err)
{
    words w = {text, text + len, 1, text, 0, 1};
    if (!next_word(&w) || !is_word(&w, "solid"))
        return grains_error_set(err, GRAINS_ERR_PARSE, name, w.line,
                                "not an STL file: neither 'solid' (ASCII) nor 84 + 50 n bytes (binary, %zu bytes)", len);
    while (w.p < w.end && *w.p != '\n') /* the solid's name */
        w.p++;
    vertex_table t; /* a facet takes at least 86 bytes of text: fewer than len / 28 vertices, under
                     * half of the table's 4 (len / 64) places, so probing always ends */
    if (!table_init(&t, len / 64))
        return grains_error_set(err, GRAINS_ERR_NOMEM, name, 0, "out of memory reading %zu bytes", len);
    grains_status s = GRAINS_OK;
    size_t number = 0;
    for (;;) {
        if (!next_word(&w)) {
            s = grains_error_set(err, GRAINS_ERR_PARSE, name, w.word_line,
                                 "expected 'facet' or 'endsolid', the file ends (truncated?)");
            break;
        }
        if (is_word(&w, "endsolid"))
            break;
        if (!is_word(&w, "facet")) {
            s = grains_error_set(err, GRAINS_ERR_PARSE, name, w.line, "expected 'facet' or 'endsolid', found '%.*s'",
                                 (int)(w.len > 40 ? 40 : w.len), w.word);
            break;
        }
        if (++number > STL_LIMIT) {
            s = grains_error_set(err, GRAINS_ERR_LIMIT, name, w.line, "more than %u triangles", STL_LIMIT);
            break;
        }
        if ((s = read_facet(&w, &t, m, R, name, number, err)) != GRAINS_OK)
            break;
    }
    free(t.slot);
    return s;
}

grains_status grains_stl_parse(const char *data, size_t len, const char *name, const real *R_mesh, int n_radii,
                               grains_mesh **out, grains_error *err)
{
    *out = NULL;
    if (n_radii < 1)
        return grains_error_set(err, GRAINS_ERR_RANGE, name, 0, "an STL mesh needs R_mesh[0]");
    grains_mesh *m;
    grains_status s = grains_mesh_create(&m, err);
    if (s != GRAINS_OK)
        return s;
    const unsigned char *d = (const unsigned char *)data;
    uint32_t n = len >= 84 ? le32(d + 80) : 0;
    /* ASCII has no NUL byte; a binary header may begin with "solid" too */
    int binary = len >= 84 && (memchr(data, '\0', len) || strncmp(data, "solid", 5) != 0);
    if (binary && (n > STL_LIMIT || len != 84 + 50 * (size_t)n))
        s = grains_error_set(err, GRAINS_ERR_PARSE, name, 0,
                             "binary STL: its header says %u triangles, which take %zu bytes, but the file has %zu "
                             "(truncated or not an STL file)", n, 84 + 50 * (size_t)n, len);
    else if (binary)
        s = parse_binary(d, n, name, R_mesh[0], m, err);
    else
        s = parse_ascii(data, len, name, R_mesh[0], m, err);
    if (s != GRAINS_OK) {
        grains_mesh_destroy(m);
        return s;
    }
    *out = m;
    return GRAINS_OK;
}
