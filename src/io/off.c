/* OFF meshes (GeomView's Object File Format) with TinyDEM's radius index:
 * "OFF", then "Nv Nf Ne", Nv lines "x y z", Nf lines "n v0 .. v(n-1) [r]",
 * where r indexes the mesh radii (default 0). '#' starts a comment. */
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "io/atomic_file.h"
#include "io/text.h"

#define MAX_TOKENS 16

typedef struct {
    const char *s[MAX_TOKENS];
    size_t len[MAX_TOKENS];
    int n;
    int overflow;
} tokens;

/* Splits a line at blanks, dropping a trailing '#' comment. */
static void tokenize(char *line, tokens *t)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    t->n = 0;
    t->overflow = 0;
    for (char *p = line; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        char *start = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (t->n == MAX_TOKENS) {
            t->overflow = 1;
            return;
        }
        t->s[t->n] = start;
        t->len[t->n++] = (size_t)(p - start);
    }
}

/* Next line holding something other than blanks and comments. */
static int next_content(line_reader *r, tokens *t)
{
    const char *line;
    while ((line = lines_next(r))) {
        if (r->fault) /* the caller reports it */
            return t->n = 0, t->overflow = 1, 1;
        tokenize(r->buf, t);
        if (t->n > 0 || t->overflow)
            return 1;
    }
    return 0;
}

typedef struct {
    const char *name;
    const real *R_mesh;
    int n_radii;
    grains_error *err;
} off_ctx;

static grains_status read_counts(line_reader *r, tokens *t, const off_ctx *c, long *nv, long *nf)
{
    if (!next_content(r, t) || t->n != 1 || t->len[0] != 3 || strncmp(t->s[0], "OFF", 3) != 0)
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line, "expected the header 'OFF'");
    long ne;
    if (!next_content(r, t) || t->n != 3 || !parse_long(t->s[0], t->len[0], nv) ||
        !parse_long(t->s[1], t->len[1], nf) || !parse_long(t->s[2], t->len[2], &ne))
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                                "expected three counts 'vertices faces edges'");
    if (*nv < 0 || *nf < 0 || ne < 0 || *nv > 100000000L || *nf > 100000000L)
        return grains_error_set(c->err, GRAINS_ERR_RANGE, c->name, r->line,
                                "counts %ld %ld %ld: must be in [0, 1e8]", *nv, *nf, ne);
    return GRAINS_OK;
}

static grains_status read_vertex(line_reader *r, tokens *t, const off_ctx *c, long k, long nv, grains_mesh *m)
{
    if (!next_content(r, t))
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                                "file ends after %ld of %ld vertices", k, nv);
    real x[3];
    if (t->n != 3 || !parse_real(t->s[0], t->len[0], &x[0]) || !parse_real(t->s[1], t->len[1], &x[1]) ||
        !parse_real(t->s[2], t->len[2], &x[2]))
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                                "vertex %ld: expected three finite coordinates 'x y z'", k);
    return grains_mesh_add_vertex(m, (grains_vec3){x[0], x[1], x[2]}, c->err);
}

static grains_status read_face(line_reader *r, tokens *t, const off_ctx *c, long k, long nf, grains_mesh *m)
{
    long n, index = 0, material = GRAINS_MESH_MATERIAL_DEFAULT;
    if (!next_content(r, t))
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line, "file ends after %ld of %ld faces", k, nf);
    if (t->overflow || !parse_long(t->s[0], t->len[0], &n) || n < 1 || n > 4)
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                                "face %ld: expected a vertex count of 1 to 4 (point, segment, triangle, rectangle)", k);
    if (t->n < n + 1 || t->n > n + 3)
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                                "face %ld: expected %ld vertex indices, then optionally a radius index and a material, "
                                "found %d values", k, n, t->n - 1);
    uint32_t v[4];
    for (int a = 0; a < n; a++) {
        long idx;
        if (!parse_long(t->s[a + 1], t->len[a + 1], &idx) || idx < 0 || idx >= (long)m->n_vertices)
            return grains_error_set(c->err, GRAINS_ERR_RANGE, c->name, r->line,
                                    "face %ld: vertex index '%.*s' out of range [0, %zu)", k, (int)t->len[a + 1],
                                    t->s[a + 1], m->n_vertices);
        v[a] = (uint32_t)idx;
    }
    if (t->n >= n + 2 && !parse_long(t->s[n + 1], t->len[n + 1], &index))
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line, "face %ld: radius index must be an integer", k);
    if (index < 0 || index >= c->n_radii)
        return grains_error_set(c->err, GRAINS_ERR_RANGE, c->name, r->line,
                                "face %ld: radius index %ld has no radius (R_mesh lists %d)", k, index, c->n_radii);
    if (t->n == n + 3 && (!parse_long(t->s[n + 2], t->len[n + 2], &material) || material < GRAINS_RIGID ||
                          material >= GRAINS_MAX_MATERIALS))
        return grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                                "face %ld: material '%.*s' must be an integer from -1 (rigid) to %d", k,
                                (int)t->len[n + 2], t->s[n + 2], GRAINS_MAX_MATERIALS - 1);
    grains_status s = grains_mesh_add_element(m, (int)n, v, (int)index, c->R_mesh[index], c->err);
    if (s == GRAINS_OK) {
        m->elements[m->n_elements - 1].material = (int)material;
        m->elements[m->n_elements - 1].line = r->line;
    }
    if (s != GRAINS_OK && c->err) { /* add the location to the mesh's own message */
        c->err->line = r->line;
        snprintf(c->err->file, sizeof c->err->file, "%s", c->name);
    }
    return s;
}

/* The memory a mesh of these counts takes, against what the machine has. */
static grains_status check_memory(const line_reader *r, const off_ctx *c, long nv, long nf)
{
    double need = 2.0 * ((double)nv * sizeof(grains_vec3) + (double)nf * sizeof(grains_mesh_element)); /* growth */
    double have = (double)machine_bytes();
    if (have > 0 && need > have / 2)
        return grains_error_set(c->err, GRAINS_ERR_LIMIT, c->name, r->line,
                                "%ld vertices and %ld faces need %.3g GB, more than half the %.3g GB this process may use", nv,
                                nf, need / 1e9, have / 1e9);
    return GRAINS_OK;
}

static grains_status parse_off(line_reader *r, const off_ctx *c, grains_mesh *m)
{
    tokens t;
    long nv, nf;
    grains_status s = read_counts(r, &t, c, &nv, &nf);
    if (s == GRAINS_OK)
        s = check_memory(r, c, nv, nf);
    for (long k = 0; s == GRAINS_OK && k < nv; k++)
        s = read_vertex(r, &t, c, k, nv, m);
    for (long k = 0; s == GRAINS_OK && k < nf; k++)
        s = read_face(r, &t, c, k, nf, m);
    if (s == GRAINS_OK && next_content(r, &t))
        s = grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line,
                             "unexpected content after the %ld faces the header announced", nf);
    if (s != GRAINS_OK && r->fault) /* the line itself was unusable: say why */
        s = grains_error_set(c->err, GRAINS_ERR_PARSE, c->name, r->line, "%s", r->fault);
    return s;
}

grains_status grains_off_parse(const char *text, const char *name, const real *R_mesh, int n_radii,
                               grains_mesh **out, grains_error *err)
{
    grains_mesh *m;
    grains_status s = grains_mesh_create(&m, err);
    if (s != GRAINS_OK)
        return s;
    line_reader r;
    lines_init(&r, text, strlen(text));
    off_ctx c = {name, R_mesh, n_radii, err};
    s = parse_off(&r, &c, m);
    if (s != GRAINS_OK) {
        grains_mesh_destroy(m);
        return s;
    }
    *out = m;
    return GRAINS_OK;
}

grains_status grains_off_read(const char *path, const real *R_mesh, int n_radii, grains_mesh **out,
                              grains_error *err)
{
    size_t len;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    grains_status s;
    if (memchr(text, '\0', len))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "binary data in an OFF file");
    else
        s = grains_off_parse(text, path, R_mesh, n_radii, out, err);
    free(text);
    return s;
}

grains_status grains_off_write(const char *path, const grains_mesh *m, grains_error *err)
{
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    fprintf(af.f, "OFF\n%zu %zu 0\n", m->n_vertices, m->n_elements);
    for (size_t k = 0; k < m->n_vertices; k++)
        fprintf(af.f, "%.17g %.17g %.17g\n", m->vertices[k].x, m->vertices[k].y, m->vertices[k].z);
    for (size_t e = 0; e < m->n_elements; e++) {
        const grains_mesh_element *el = &m->elements[e];
        fprintf(af.f, "%d", el->n);
        for (int k = 0; k < el->n; k++)
            fprintf(af.f, " %u", el->v[k]);
        fprintf(af.f, " %d", el->radius_index);
        if (el->material != GRAINS_MESH_MATERIAL_DEFAULT)
            fprintf(af.f, " %d", el->material);
        fputc('\n', af.f);
    }
    return atomic_commit(&af, err);
}
