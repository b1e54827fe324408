/* A table motion's rows: a CSV with the header t,x,y,z,angle, then one row
 * per line ('#' comments and blank lines skipped): the time, the mesh's
 * shift and its turn about the motion's axis [rad]. */
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "io/text.h"
#include "util/array.h"

#define TABLE_LIMIT 10000000u

/* The numbers of a comma-separated line; their count, or -1. */
static int split(const char *line, real *out, int max)
{
    int n = 0;
    for (const char *p = line;; n++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == max || !parse_real(p, len, &out[n]))
            return -1;
        if (!comma)
            return n + 1;
        p = comma + 1;
    }
}

static int blank(const char *line)
{
    line += strspn(line, " \t");
    return *line == '\0' || *line == '#';
}

static grains_status parse_rows(line_reader *r, const char *path, grains_motion_sample **rows, size_t *n,
                                grains_error *err)
{
    size_t cap = 0;
    const char *line;
    while ((line = lines_next(r))) {
        if (r->fault)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, r->line, "%s", r->fault);
        if (blank(line))
            continue;
        real v[5];
        if (split(line, v, 5) != 5)
            return grains_error_set(err, GRAINS_ERR_PARSE, path, r->line,
                                    "expected five finite numbers t,x,y,z,angle");
        if (*n && v[0] <= (*rows)[*n - 1].t)
            return grains_error_set(err, GRAINS_ERR_RANGE, path, r->line, "time %g does not increase (before: %g)",
                                    v[0], (*rows)[*n - 1].t);
        if (*n >= TABLE_LIMIT)
            return grains_error_set(err, GRAINS_ERR_LIMIT, path, r->line, "more than %u rows", TABLE_LIMIT);
        if (!array_reserve((void **)rows, &cap, *n + 1, sizeof **rows, 1))
            return grains_error_set(err, GRAINS_ERR_NOMEM, path, r->line, "out of memory for %zu rows", *n + 1);
        (*rows)[(*n)++] = (grains_motion_sample){v[0], {v[1], v[2], v[3]}, v[4]};
    }
    if (!*n)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, r->line, "no rows after the header");
    return GRAINS_OK;
}

grains_status grains_motion_table_read(const char *path, grains_motion_sample **out, size_t *n, grains_error *err)
{
    *out = NULL;
    *n = 0;
    size_t len;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    grains_status s = GRAINS_OK;
    line_reader r;
    lines_init(&r, text, len);
    const char *line;
    while ((line = lines_next(&r)) && blank(line) && !r.fault)
        ;
    if (memchr(text, '\0', len))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "binary data in a motion table");
    else if (!line || strspn(line, " \t") + strlen("t,x,y,z,angle") != strlen(line) ||
             strcmp(line + strspn(line, " \t"), "t,x,y,z,angle") != 0)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "expected the header t,x,y,z,angle");
    else
        s = parse_rows(&r, path, out, n, err);
    free(text);
    if (s != GRAINS_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return s;
}
