/* TinyDEM particle CSV files (Section 6), read a chunk at a time, with an
 * optional 15th column, the material, and after it an optional 16th, the tag. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "grains/ranks.h"
#include "io/atomic_file.h"
#include "io/text.h"
#include "math/vec3.h"

#define CSV_HEADER "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz"
#define CSV_MATERIAL ",material"
#define CSV_TAG ",tag"
#define CSV_FIELDS 16 /* at most: the 14 of TinyDEM, the material and the tag */

static const char *const field_name[CSV_FIELDS] = {"x",  "y",  "z",  "R",  "vx", "vy", "vz",     "q0",
                                                    "q1", "q2", "q3", "wx", "wy", "wz", "material", "tag"};

/* The number of fields the header announces (14, 15 or 16), or 0. */
static int header_fields(const char *line)
{
    char clean[128];
    size_t n = 0;
    for (const char *c = line; *c && n + 1 < sizeof clean; c++)
        if (*c != ' ' && *c != '\t')
            clean[n++] = *c;
    clean[n] = '\0';
    if (strcmp(clean, CSV_HEADER) == 0)
        return CSV_FIELDS - 2;
    if (strcmp(clean, CSV_HEADER CSV_MATERIAL) == 0)
        return CSV_FIELDS - 1;
    return strcmp(clean, CSV_HEADER CSV_MATERIAL CSV_TAG) == 0 ? CSV_FIELDS : 0;
}

static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t')
            return 0;
    return 1;
}

/* Splits one record into its `fields` numbers; names the first bad field. */
static grains_status parse_record(const char *line, const char *path, int ln, int fields, real v[CSV_FIELDS],
                                  grains_error *err)
{
    const char *s = line;
    for (int k = 0; k < fields; k++) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (k < fields - 1 && !comma)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, ln,
                                    "expected %d comma-separated values, found %d (truncated line?)", fields, k + 1);
        if (k == fields - 1 && comma)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, ln, "more than %d values on the line", fields);
        if (!parse_real(s, len, &v[k]))
            return grains_error_set(err, GRAINS_ERR_PARSE, path, ln,
                                    "%s = '%.*s': expected a finite number", field_name[k], (int)(len > 40 ? 40 : len), s);
        s = comma ? comma + 1 : s + len;
    }
    return GRAINS_OK;
}

static grains_status check_particle(const grains_particle *p, const char *path, int ln, grains_error *err)
{
    if (!(p->R > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, path, ln, "R = %g: particle radius must be > 0", p->R);
    real qn = sqrt(p->q.q0 * p->q.q0 + p->q.q1 * p->q.q1 + p->q.q2 * p->q.q2 + p->q.q3 * p->q.q3);
    if (fabs(qn - 1) > 1e-6)
        return grains_error_set(err, GRAINS_ERR_RANGE, path, ln,
                                "orientation (q0,q1,q2,q3) has norm %.9g: a unit quaternion is expected", qn);
    return GRAINS_OK;
}

/* The material column: an integer below GRAINS_MAX_MATERIALS (whether the
 * run has that material is checked when the particle is added). */
static grains_status material_of(real v, const char *path, int ln, int *out, grains_error *err)
{
    if (!(v >= 0 && v < GRAINS_MAX_MATERIALS && v == floor(v)))
        return grains_error_set(err, GRAINS_ERR_RANGE, path, ln, "material = %g: expected an integer from 0 to %d", v,
                                GRAINS_MAX_MATERIALS - 1);
    *out = (int)v;
    return GRAINS_OK;
}

/* The tag column: an integer of at most 10^6 in magnitude (as the scenario's tags). */
static grains_status tag_of(real v, const char *path, int ln, int *out, grains_error *err)
{
    if (!(v >= -1e6 && v <= 1e6 && v == floor(v)))
        return grains_error_set(err, GRAINS_ERR_RANGE, path, ln, "tag = %g: expected an integer from -1000000 to 1000000",
                                v);
    *out = (int)v;
    return GRAINS_OK;
}

/* One record's particle, its fields checked. */
static grains_status record_particle(const char *line, const char *path, int ln, int fields, grains_particle *q,
                                     grains_error *err)
{
    real v[CSV_FIELDS];
    grains_status s = parse_record(line, path, ln, fields, v, err);
    if (s != GRAINS_OK)
        return s;
    *q = (grains_particle){{v[0], v[1], v[2]}, {v[4], v[5], v[6]}, {v[11], v[12], v[13]},
                           {v[7], v[8], v[9], v[10]}, v[3], 0, 0};
    if (fields >= CSV_FIELDS - 1 && (s = material_of(v[14], path, ln, &q->material, err)) != GRAINS_OK)
        return s;
    if (fields == CSV_FIELDS && (s = tag_of(v[15], path, ln, &q->tag, err)) != GRAINS_OK)
        return s;
    return check_particle(q, path, ln, err);
}

/* The fields the file's first line, its header, announces. */
static grains_status header_of(const char *path, int *fields, long long *size, grains_error *err)
{
    line_stream *in = lines_stream_open(path, 0);
    char why[128];
    if (!in)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s",
                                read_file_why(errno, path, why, sizeof why));
    const char *line = lines_stream_next(in);
    *fields = line && !in->lines.fault ? header_fields(line) : 0;
    const char *fault = line ? in->lines.fault : NULL; /* (a string constant, kept past the free) */
    *size = in->size;
    int failed = in->failed;
    lines_stream_free(in);
    if (failed)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s", strerror(failed));
    if (!*fields && fault)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 1, "%s", fault);
    if (!*fields)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 1, "expected the header line '%s' (optionally with '%s' or '%s')",
                                CSV_HEADER, CSV_MATERIAL, CSV_MATERIAL CSV_TAG);
    return GRAINS_OK;
}

/* Part k of `parts` of a file: the lines whose first byte lies in its
 * k-th share of the bytes, [size k / parts, size (k + 1) / parts). */
typedef struct {
    line_stream *in;
    long long hi;
    int fields;
} csv_part;

static long long share_of(long long size, int k, int parts)
{
    return size / parts * k + size % parts * k / parts; /* size k / parts, exact, without overflow */
}

static grains_status part_open(const char *path, int k, int parts, csv_part *pt, grains_error *err)
{
    long long size = 0;
    grains_status s = header_of(path, &pt->fields, &size, err);
    if (s != GRAINS_OK)
        return s;
    long long lo = share_of(size, k, parts);
    pt->hi = share_of(size, k + 1, parts);
    char why[128];
    if (!(pt->in = lines_stream_open(path, lo > 0 ? lo - 1 : 0)))
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s",
                                read_file_why(errno, path, why, sizeof why));
    if (lo > 0) /* the rest of the line with the byte before ours: the part before ours has it */
        lines_stream_next(pt->in);
    return GRAINS_OK;
}

/* The part's next line, or NULL past its share (or at the end); *row:
 * whether it holds a particle (not the header, at the file's start, nor blank). */
static const char *part_next(csv_part *pt, int *row)
{
    const char *line = lines_stream_next(pt->in);
    if (!line || pt->in->at >= pt->hi)
        return NULL;
    *row = pt->in->at != 0 && (pt->in->lines.fault || !blank(line));
    return line;
}

static grains_status part_close(csv_part *pt, const char *path, grains_status s, grains_error *err)
{
    if (s == GRAINS_OK && pt->in->failed)
        s = grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s", strerror(pt->in->failed));
    lines_stream_free(pt->in);
    return s;
}

grains_status grains_csv_part_count(const char *path, int k, int parts, grains_csv_count *out, grains_error *err)
{
    csv_part pt;
    *out = (grains_csv_count){0, 0};
    grains_status s = part_open(path, k, parts, &pt, err);
    if (s != GRAINS_OK)
        return s;
    int row;
    while (part_next(&pt, &row)) {
        out->lines++;
        out->rows += (size_t)row;
    }
    return part_close(&pt, path, GRAINS_OK, err);
}

grains_status grains_csv_part_each(const char *path, int k, int parts, const grains_csv_count *before,
                                   grains_csv_take take, void *ctx, grains_error *err)
{
    csv_part pt;
    grains_status s = part_open(path, k, parts, &pt, err);
    if (s != GRAINS_OK)
        return s;
    size_t line_no = before->lines, row_no = before->rows;
    const char *line;
    int row;
    while (s == GRAINS_OK && (line = part_next(&pt, &row))) {
        int ln = ++line_no > INT_MAX ? INT_MAX : (int)line_no;
        grains_particle q;
        if (pt.in->lines.fault)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, ln, "%s", pt.in->lines.fault);
        else if (row && (s = record_particle(line, path, ln, pt.fields, &q, err)) == GRAINS_OK)
            s = take(ctx, row_no++, &q, err);
    }
    return part_close(&pt, path, s, err);
}

grains_status grains_csv_each(const char *path, grains_csv_take take, void *ctx, grains_error *err)
{
    grains_csv_count none = {0, 0};
    return grains_csv_part_each(path, 0, 1, &none, take, ctx, err);
}

/* grains_csv_read's array, grown as the rows come. */
typedef struct {
    grains_particle *p;
    size_t n, cap;
} particle_array;

static grains_status append(void *ctx, size_t row, const grains_particle *q, grains_error *err)
{
    particle_array *a = ctx;
    (void)row;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        grains_particle *np = realloc(a->p, cap * sizeof *np);
        if (!np)
            return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading particles");
        a->p = np;
        a->cap = cap;
    }
    a->p[a->n++] = *q;
    return GRAINS_OK;
}

grains_status grains_csv_read(const char *path, grains_particle **out, size_t *n, grains_error *err)
{
    particle_array a = {NULL, 0, 0};
    grains_status s = grains_csv_each(path, append, &a, err);
    if (s != GRAINS_OK) {
        free(a.p);
        return s;
    }
    *out = a.p;
    *n = a.n;
    return GRAINS_OK;
}

/* The header for the columns a run has. */
static void write_header(FILE *f, int materials, int tags)
{
    fputs(tags ? CSV_HEADER CSV_MATERIAL CSV_TAG "\n" : materials ? CSV_HEADER CSV_MATERIAL "\n" : CSV_HEADER "\n", f);
}

static void write_row(FILE *f, const grains_particle *p, int materials, int tags)
{
    /* 17 significant digits: every double reads back exactly. */
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", p->x.x, p->x.y,
            p->x.z, p->R, p->v.x, p->v.y, p->v.z, p->q.q0, p->q.q1, p->q.q2, p->q.q3, p->w.x, p->w.y, p->w.z);
    if (materials)
        fprintf(f, ",%d", p->material);
    if (tags)
        fprintf(f, ",%d", p->tag);
    fputc('\n', f);
}

grains_status grains_csv_write(const char *path, const grains_sim *sim, grains_error *err)
{
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK)
        return s;
    int tags = grains_sim_has_tags(sim), materials = tags || grains_sim_params(sim)->n_materials > 1;
    write_header(af.f, materials, tags);
    for (size_t i = 0, n = grains_sim_count(sim); i < n; i++) {
        grains_particle p;
        grains_sim_get_particle(sim, i, &p);
        write_row(af.f, &p, materials, tags);
    }
    return atomic_commit(&af, err);
}

grains_status grains_csv_write_frame(const char *path, grains_sim *sim, grains_error *err)
{
    size_t n = grains_sim_count(sim), W = grains_sim_frame_window(sim);
    grains_particle *p = path ? malloc(((n < W ? n : W) + 1) * sizeof *p) : NULL; /* (a rank that sends: none) */
    atomic_file af;
    grains_status s = p || !path ? GRAINS_OK : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK && path)
        s = atomic_open(&af, path, err);
    FILE *f = s == GRAINS_OK && path ? af.f : NULL;
    int tags = grains_sim_has_tags(sim), materials = tags || grains_sim_params(sim)->n_materials > 1;
    if (f)
        write_header(f, materials, tags);
    for (size_t first = 0; first < n; first += W) { /* (every rank alike, with a file or none) */
        size_t count = n - first < W ? n - first : W;
        grains_sim_particle_window(sim, GRAINS_FIELD_ALL, first, count, p);
        for (size_t k = 0; k < count && f; k++)
            write_row(f, &p[k], materials, tags);
    }
    free(p);
    return f ? atomic_commit(&af, err) : s;
}
