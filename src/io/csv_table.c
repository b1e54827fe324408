/* A run's table read back (io/csv_table.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv_table.h"
#include "io/text.h"

void csv_table_free(csv_table *t)
{
    free(t->text), free(t->v);
    t->text = NULL, t->v = NULL;
}

int csv_table_cells(const char *line, char out[][40], int max)
{
    int n = 0;
    for (const char *p = line;; p++, n++) {
        size_t len = strcspn(p, ",");
        if (n < max)
            snprintf(out[n], 40, "%.*s", (int)(len < 39 ? len : 39), p);
        p += len;
        if (!*p)
            return n + 1;
    }
}

grains_status csv_table_read(const char *path, csv_table *t, grains_error *err)
{
    size_t len, cap = 0;
    char *text = read_input(path, &len, err), row[CSV_TABLE_COLS][40];
    memset(t, 0, sizeof *t);
    if (!text)
        return GRAINS_ERR_IO;
    line_reader r;
    lines_init(&r, text, len);
    const char *line = lines_next(&r);
    grains_status s = line && (t->cols = csv_table_cells(line, t->name, CSV_TABLE_COLS)) >= 2 &&
                              t->cols <= CSV_TABLE_COLS
                          ? GRAINS_OK
                          : grains_error_set(err, GRAINS_ERR_PARSE, path, 1, "not a table: no header of 2 to %d "
                                             "columns", CSV_TABLE_COLS);
    while (s == GRAINS_OK && (line = lines_next(&r))) {
        if (csv_table_cells(line, row, CSV_TABLE_COLS) != t->cols) {
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "expected %d cells", t->cols);
            break;
        }
        if (t->rows == cap && (t->rows + 1) * (size_t)t->cols > CSV_TABLE_MAX_CELLS) {
            s = grains_error_set(err, GRAINS_ERR_LIMIT, path, r.line, "more than %d cells: a table to plot is a "
                                 "profile or a probe's, not a 3D grid's", CSV_TABLE_MAX_CELLS);
            break;
        }
        if (t->rows == cap) {
            cap = cap ? 2 * cap : 1024;
            char(*tx)[24] = realloc(t->text, cap * (size_t)t->cols * sizeof *tx);
            double *v = tx ? realloc(t->v, cap * (size_t)t->cols * sizeof *v) : NULL;
            t->text = tx ? tx : t->text, t->v = v ? v : t->v;
            if (!tx || !v) {
                s = grains_error_set(err, GRAINS_ERR_NOMEM, path, r.line, "out of memory");
                break;
            }
        }
        for (int c = 0; c < t->cols; c++) {
            real x;
            size_t at = t->rows * (size_t)t->cols + (size_t)c;
            snprintf(t->text[at], 24, "%s", row[c]);
            t->v[at] = parse_real(row[c], strlen(row[c]), &x) && isfinite(x) ? (double)x : NAN;
        }
        t->rows++;
    }
    if (s == GRAINS_OK && r.fault)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "%s", r.fault);
    if (s == GRAINS_OK && t->rows == 0)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "no rows to plot");
    free(text);
    if (s != GRAINS_OK)
        csv_table_free(t);
    return s;
}

int csv_table_column(const csv_table *t, const char *name)
{
    for (int c = 0; c < t->cols; c++)
        if (strcmp(t->name[c], name) == 0)
            return c;
    return -1;
}
