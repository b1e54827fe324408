/* The bonds file: a header `a,b` and one bond per line, two particle ids
 * (their order in the particles file, from 0). Lines starting with '#'
 * and blank lines are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "io/text.h"
#include "util/array.h"

/* "a,b" as two ids in [0, n_particles). */
static int parse_bond(const char *s, size_t n_particles, size_t *a, size_t *b)
{
    const char *comma = strchr(s, ',');
    long x, y;
    if (!comma || !parse_long(s, (size_t)(comma - s), &x) || !parse_long(comma + 1, strlen(comma + 1), &y))
        return 0;
    if (x < 0 || y < 0 || (size_t)x >= n_particles || (size_t)y >= n_particles || x == y)
        return 0;
    *a = (size_t)x, *b = (size_t)y;
    return 1;
}

/* A bond as read: its ids, smaller first, and its line. */
typedef struct {
    size_t a, b;
    int line;
} bond_row;

static int by_pair(const void *x, const void *y)
{
    const bond_row *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->line < q->line ? -1 : p->line > q->line;
}

/* Every bond line of the text into *rows (ids checked against n). */
static grains_status read_rows(const char *path, char *text, size_t len, size_t n, bond_row **rows, size_t *n_rows,
                               grains_error *err)
{
    line_reader r;
    lines_init(&r, text, len);
    const char *line;
    int header = 0;
    size_t cap = 0;
    grains_status s = GRAINS_OK;
    while (s == GRAINS_OK && (line = lines_next(&r))) {
        size_t a, b;
        if (r.fault)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "%s", r.fault);
        else if (!line[strspn(line, " \t")] || line[strspn(line, " \t")] == '#')
            continue;
        else if (!header)
            header = 1, s = strcmp(line, "a,b") == 0 ? GRAINS_OK
                                                     : grains_error_set(err, GRAINS_ERR_PARSE, path, r.line,
                                                                        "expected the header 'a,b'");
        else if (!parse_bond(line, n, &a, &b))
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line,
                                 "expected two different particle ids 'a,b', each in [0, %zu)", n);
        else if (!array_reserve((void **)rows, &cap, *n_rows + 1, sizeof **rows, 2))
            s = grains_error_set(err, GRAINS_ERR_NOMEM, path, r.line, "out of memory for the bonds");
        else
            (*rows)[(*n_rows)++] = (bond_row){a < b ? a : b, a < b ? b : a, r.line};
    }
    if (s == GRAINS_OK && !header)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "empty bonds file: expected the header 'a,b'");
    return s;
}

grains_status grains_bonds_read(const char *path, grains_sim *sim, grains_error *err)
{
    size_t len, n_rows = 0;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    bond_row *rows = NULL;
    grains_status s = read_rows(path, text, len, grains_sim_count(sim), &rows, &n_rows, err);
    free(text);
    bond_row *sorted = s == GRAINS_OK && n_rows ? malloc(n_rows * sizeof *sorted) : NULL;
    if (s == GRAINS_OK && n_rows && !sorted)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory for the bonds");
    if (sorted) { /* a pair listed twice is a mistake, not two bonds (the second line named) */
        memcpy(sorted, rows, n_rows * sizeof *rows);
        qsort(sorted, n_rows, sizeof *sorted, by_pair);
        for (size_t k = 1; s == GRAINS_OK && k < n_rows; k++)
            if (sorted[k].a == sorted[k - 1].a && sorted[k].b == sorted[k - 1].b)
                s = grains_error_set(err, GRAINS_ERR_PARSE, path, sorted[k].line,
                                     "bond %zu,%zu is listed again (first at line %d)", sorted[k].a, sorted[k].b,
                                     sorted[k - 1].line);
        free(sorted);
    }
    for (size_t k = 0; s == GRAINS_OK && k < n_rows; k++) /* in the file's order */
        if ((s = grains_sim_add_bond(sim, rows[k].a, rows[k].b, err)) != GRAINS_OK && err) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            grains_error_set(err, s, path, rows[k].line, "%s", why);
        }
    free(rows);
    return s;
}
