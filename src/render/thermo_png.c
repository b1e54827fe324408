/* The thermo table as a PNG (render/render.h): one panel per column,
 * against time, two panels across. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/text.h"
#include "render/render.h"

enum { MAX_COLUMNS = 32, PANEL_W = 420, PANEL_H = 190 };

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

static void label(cairo_t *cr, double x, double y, const char *fmt, double v)
{
    char s[48];
    snprintf(s, sizeof s, fmt, v);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

/* Column c against column 1 in the panel whose top left is (x0, y0). */
static void panel(cairo_t *cr, const table *t, int c, double x0, double y0)
{
    double t0 = t->v[1], t1 = t->v[(t->rows - 1) * (size_t)t->cols + 1], lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < t->rows; i++)
        lo = fmin(lo, t->v[i * (size_t)t->cols + (size_t)c]), hi = fmax(hi, t->v[i * (size_t)t->cols + (size_t)c]);
    if (hi <= lo)
        hi = lo + 1;
    double L = x0 + 70, R = x0 + PANEL_W - 15, T = y0 + 25, B = y0 + PANEL_H - 30;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, L, T, R - L, B - T);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 13);
    cairo_move_to(cr, L, y0 + 18);
    cairo_show_text(cr, t->name[c]);
    cairo_set_font_size(cr, 10);
    label(cr, x0 + 4, T + 8, "%.4g", hi);
    label(cr, x0 + 4, B, "%.4g", lo);
    label(cr, L, B + 14, "%.4g", t0);
    label(cr, R - 60, B + 14, "%.4g", t1);
    cairo_move_to(cr, 0.5 * (L + R) - 20, B + 14);
    cairo_show_text(cr, t->name[1]);
    cairo_set_source_rgb(cr, 0.0, 0.35, 0.7);
    cairo_set_line_width(cr, 1.5);
    for (size_t i = 0; i < t->rows; i++) {
        const double *row = t->v + i * (size_t)t->cols;
        double x = t1 > t0 ? L + (R - L) * (row[1] - t0) / (t1 - t0) : L, y = B - (B - T) * (row[c] - lo) / (hi - lo);
        i ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
    }
    cairo_stroke(cr);
}

grains_status render_thermo_png(const char *csv, const char *png, grains_error *err)
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
        panel(cr, &t, k + 2, (k % 2) * PANEL_W, (k / 2) * PANEL_H);
    cairo_status_t cs = cairo_status(cr);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_write_to_png(s, png);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    free(t.v);
    if (cs != CAIRO_STATUS_SUCCESS)
        return grains_error_set(err, GRAINS_ERR_IO, png, 0, "cannot write the plot: %s", cairo_status_to_string(cs));
    return GRAINS_OK;
}
