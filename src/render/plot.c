/* A panel of a line plot (render/plot.h). */
#include <math.h>
#include <stdio.h>

#include "render/plot.h"

enum { MAX_TICKS = 24 };

int plot_ticks(double lo, double hi, int want, double *t, int max)
{
    double span = hi - lo, raw = span / (want > 1 ? want : 1), mag, step;
    if (!(span > 0) || !isfinite(span))
        return 0;
    mag = pow(10, floor(log10(raw)));
    step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    int n = 0;
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step && n < max; v += step)
        t[n++] = fabs(v) < 1e-12 * step ? 0 : v;
    return n;
}

/* The y extent over the series (their bands included); log: the positive values. */
static void y_extent(const plot_panel *p, const plot_series *s, int n, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            double y = s[k].y[i * s[k].stride], e = s[k].err ? fabs(s[k].err[i * s[k].stride]) : 0;
            if (!isfinite(y) || (p->log_y && y - e <= 0 && y <= 0))
                continue;
            double a = p->log_y && y - e <= 0 ? y : y - e;
            *lo = fmin(*lo, p->log_y ? log10(a) : a), *hi = fmax(*hi, p->log_y ? log10(y + e) : y + e);
        }
    if (!(*hi >= *lo))
        *lo = 0, *hi = 1;
    if (*hi - *lo <= 1e-12 * fabs(*hi)) { /* a constant: half itself either side (0: -1 to 1) */
        double half = *hi != 0 ? 0.5 * fabs(*hi) : 1;
        *lo -= half, *hi += half;
    }
}

static void x_extent(const plot_series *s, int n, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int k = 0; k < n; k++)
        for (size_t i = 0; i < s[k].n; i++)
            if (isfinite(s[k].x[i * s[k].stride]))
                *lo = fmin(*lo, s[k].x[i * s[k].stride]), *hi = fmax(*hi, s[k].x[i * s[k].stride]);
    if (!(*hi > *lo))
        *lo = isfinite(*lo) ? *lo - 0.5 : 0, *hi = *lo + 1;
}

typedef struct {
    double L, R, T, B, xlo, xhi, ylo, yhi;
    int log_y;
} frame;

static double px(const frame *f, double x) { return f->L + (f->R - f->L) * (x - f->xlo) / (f->xhi - f->xlo); }

static double py(const frame *f, double y)
{
    double v = f->log_y ? (y > 0 ? log10(y) : -INFINITY) : y;
    return f->B - (f->B - f->T) * (v - f->ylo) / (f->yhi - f->ylo);
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double align)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - align * e.width, y);
    cairo_show_text(cr, s);
}

/* The frame, its ticks and their values, the labels. */
static void axes(cairo_t *cr, const frame *f, const plot_panel *p)
{
    double t[MAX_TICKS];
    char s[32];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, f->L, f->T, f->R - f->L, f->B - f->T);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 10);
    int nx = plot_ticks(f->xlo, f->xhi, 5, t, MAX_TICKS);
    for (int k = 0; k < nx; k++) {
        double x = px(f, t[k]);
        cairo_move_to(cr, x, f->B), cairo_line_to(cr, x, f->B - 4), cairo_stroke(cr);
        snprintf(s, sizeof s, "%.4g", t[k]);
        text_at(cr, x, f->B + 12, s, 0.5);
    }
    int ny = p->log_y ? 0 : plot_ticks(f->ylo, f->yhi, 4, t, MAX_TICKS);
    for (int e = (int)ceil(f->ylo); p->log_y && e <= (int)floor(f->yhi) && ny < MAX_TICKS; e++)
        t[ny++] = pow(10, e);
    for (int k = 0; k < ny; k++) {
        double y = py(f, t[k]);
        cairo_move_to(cr, f->L, y), cairo_line_to(cr, f->L + 4, y), cairo_stroke(cr);
        snprintf(s, sizeof s, "%.4g", t[k]);
        text_at(cr, f->L - 3, y + 3, s, 1);
    }
    cairo_set_font_size(cr, 11);
    if (p->x_label)
        text_at(cr, 0.5 * (f->L + f->R), f->B + 25, p->x_label, 0.5);
    if (p->y_label) {
        cairo_save(cr);
        cairo_translate(cr, p->x0 + 12, 0.5 * (f->T + f->B));
        cairo_rotate(cr, -1.5707963267948966); /* (a quarter turn: the label reads upwards) */
        text_at(cr, 0, 0, p->y_label, 0.5);
        cairo_restore(cr);
    }
    cairo_set_font_size(cr, 13);
    if (p->title)
        text_at(cr, f->L, p->y0 + 16, p->title, 0);
}

static const double palette[6][3] = {{0.0, 0.35, 0.7}, {0.85, 0.33, 0.1}, {0.2, 0.6, 0.2},
                                      {0.55, 0.2, 0.6}, {0.4, 0.4, 0.4}, {0.8, 0.6, 0.0}};

/* Series k: its band, its line, its legend entry. */
static void series(cairo_t *cr, const frame *f, const plot_series *s, int k)
{
    const double *c = palette[k % 6];
    if (s->err) {
        for (int side = 0; side < 2; side++)
            for (size_t j = 0; j < s->n; j++) {
                size_t i = side ? s->n - 1 - j : j;
                double y = s->y[i * s->stride] + (side ? -1 : 1) * fabs(s->err[i * s->stride]);
                j || side ? cairo_line_to(cr, px(f, s->x[i * s->stride]), py(f, y))
                          : cairo_move_to(cr, px(f, s->x[i * s->stride]), py(f, y));
            }
        cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.2);
        cairo_fill(cr);
    }
    int down = 0;
    for (size_t i = 0; i < s->n; i++) {
        double x = px(f, s->x[i * s->stride]), y = py(f, s->y[i * s->stride]);
        if (!isfinite(x) || !isfinite(y)) {
            down = 0;
            continue;
        }
        down ? cairo_line_to(cr, x, y) : cairo_move_to(cr, x, y);
        down = 1;
    }
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    if (s->label) {
        cairo_set_font_size(cr, 10);
        cairo_move_to(cr, f->R - 110, f->T + 12 + 12 * k), cairo_line_to(cr, f->R - 95, f->T + 12 + 12 * k);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        text_at(cr, f->R - 90, f->T + 16 + 12 * k, s->label, 0);
    }
}

void plot_draw(cairo_t *cr, const plot_panel *p, const plot_series *s, int n)
{
    frame f = {p->x0 + 70, p->x0 + p->w - 15, p->y0 + 25, p->y0 + p->h - 38, 0, 0, 0, 0, p->log_y};
    x_extent(s, n, &f.xlo, &f.xhi);
    y_extent(p, s, n, &f.ylo, &f.yhi);
    double pad = 0.05 * (f.yhi - f.ylo);
    f.ylo -= pad, f.yhi += pad;
    axes(cr, &f, p);
    cairo_save(cr);
    cairo_rectangle(cr, f.L, f.T, f.R - f.L, f.B - f.T);
    cairo_clip(cr);
    for (int k = 0; k < n; k++)
        series(cr, &f, &s[k], k);
    cairo_restore(cr);
}
