/* A panel of a line plot drawn with cairo (thermo.png, grains plot): a
 * frame with ticks at round numbers and their values, axis labels with
 * their units, a linear or a logarithmic y axis, several series each with
 * an optional band of +- its error, and their legend. */
#ifndef GRAINS_RENDER_PLOT_H
#define GRAINS_RENDER_PLOT_H

#include <cairo.h>
#include <stddef.h>

/* n points (x[k s], y[k s]) for stride s; err NULL or a band's half-width. */
typedef struct {
    const double *x, *y, *err;
    size_t n, stride;
    const char *label; /* in the legend; NULL: none */
} plot_series;

typedef struct {
    double x0, y0, w, h; /* the panel's place in the image, pixels */
    const char *title, *x_label, *y_label;
    int log_y;           /* a logarithmic y axis (its values <= 0 left out) */
} plot_panel;

void plot_draw(cairo_t *cr, const plot_panel *p, const plot_series *s, int n);

/* The ticks of [lo, hi] at round numbers (1, 2 or 5 times a power of 10),
 * about `want` of them; how many (at most max) into t. */
int plot_ticks(double lo, double hi, int want, double *t, int max);

#endif
