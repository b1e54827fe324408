/* The thermo table as a PNG (render/render.h): one panel per column
 * (render/plot.h: ticks, units), against time, two panels across. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/text.h"
#include "render/plot.h"
#include "render/png_file.h"
#include "render/render.h"

enum { MAX_COLUMNS = 32, PANEL_W = 420, PANEL_H = 200 };

typedef struct {
    int cols;
    char name[MAX_COLUMNS][32];
    double *v; /* rows * cols */
    size_t rows, cap;
} table;

/* The comma-separated fields of a line into names or numbers; returns
 * how many, or -1 for a field that is not a finite number. */
static int split(const char *line, table *t, double *row)
{
    int n = 0;
    for (const char *p = line;; n++) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (n == MAX_COLUMNS)
            return -1;
        if (!row) {
            snprintf(t->name[n], sizeof t->name[n], "%.*s", (int)(len < 31 ? len : 31), p);
        } else {
            real v;
            if (!parse_real(p, len, &v))
                return -1;
            row[n] = (double)v;
        }
        if (!q)
            return n + 1;
        p = q + 1;
    }
}

static grains_status table_read(const char *path, table *t, grains_error *err)
{
    size_t len;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    line_reader r;
    lines_init(&r, text, len);
    const char *line = lines_next(&r);
    grains_status st = GRAINS_OK;
    if (!line || (t->cols = split(line, t, NULL)) < 3)
        st = grains_error_set(err, GRAINS_ERR_PARSE, path, 1, "not a thermo table: no header of 3 to %d columns",
                              MAX_COLUMNS);
    double row[MAX_COLUMNS];
    while (st == GRAINS_OK && (line = lines_next(&r))) {
        if (split(line, t, row) != t->cols) {
            st = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "expected %d numbers", t->cols);
        } else if (t->rows == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 256;
            double *v = realloc(t->v, cap * (size_t)t->cols * sizeof *v);
            if (!v)
                st = grains_error_set(err, GRAINS_ERR_NOMEM, path, r.line, "out of memory");
            else
                t->v = v, t->cap = cap;
        }
        if (st == GRAINS_OK)
            memcpy(t->v + t->rows++ * (size_t)t->cols, row, (size_t)t->cols * sizeof *row);
    }
    if (st == GRAINS_OK && r.fault)
        st = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "%s", r.fault);
    free(text);
    return st;
}

/* A thermo column's unit, from its name (docs/scenario.md, "Input and output"). */
static const char *unit_of(const char *name)
{
    static const char *const units[][2] = {{"time", "s"}, {"E_kin", "J"}, {"E_rot", "J"}, {"E_membrane", "J"},
                                           {"max_overlap", "of 2R*"}, {"newton_update", "m"}};
    for (size_t k = 0; k < sizeof units / sizeof *units; k++)
        if (strcmp(name, units[k][0]) == 0)
            return units[k][1];
    return NULL;
}

/* "name [unit]", or the name alone. */
static void labelled(char *out, size_t size, const char *name)
{
    const char *u = unit_of(name);
    if (u)
        snprintf(out, size, "%s [%s]", name, u);
    else
        snprintf(out, size, "%s", name);
}

/* Column c against column 1 (time) in the panel whose top left is (x0, y0);
 * energies on a log axis when asked. */
static void panel(cairo_t *cr, const table *t, int c, double x0, double y0, int log_y)
{
    char x_label[48], y_label[48];
    labelled(x_label, sizeof x_label, t->name[1]);
    labelled(y_label, sizeof y_label, t->name[c]);
    int energy = strncmp(t->name[c], "E_", 2) == 0;
    plot_series s = {t->v + 1, t->v + c, NULL, t->rows, (size_t)t->cols, NULL};
    plot_panel p = {x0, y0, PANEL_W, PANEL_H, t->name[c], x_label, y_label, log_y && energy};
    plot_draw(cr, &p, &s, 1);
}

grains_status render_thermo_png(const char *csv, const char *png, int log_y, grains_error *err)
{
    table t = {0};
    grains_status st = table_read(csv, &t, err);
    if (st == GRAINS_OK && t.rows == 0)
        st = grains_error_set(err, GRAINS_ERR_PARSE, csv, 0, "no rows to plot");
    if (st != GRAINS_OK) {
        free(t.v);
        return st;
    }
    int panels = t.cols - 2, rows = (panels + 1) / 2;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 2 * PANEL_W, rows * PANEL_H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (int k = 0; k < panels; k++)
        panel(cr, &t, k + 2, (k % 2) * PANEL_W, (k / 2) * PANEL_H, log_y);
    grains_status written = png_file_write(cr, png, "the plot", err);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    free(t.v);
    return written;
}
