/* grains plot DIR: a run's tables drawn (render/plot.h): probes.csv, a
 * panel per probe of the number that crossed it or that it holds against
 * time, a line per tag and the total; with --profile, the profile of
 * grains fields (DIR/fields/fields.csv, one axis kept), a panel per column
 * with its standard error as a band. */
#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/csv_table.h"
#include "render/plot.h"
#include "render/png_file.h"
#include "render/render.h"

enum { MAX_PANELS = 16, MAX_LINES = 8, PANEL_W = 460, PANEL_H = 260 };

/* An image of `panels` panels, two across (one alone: its own width), white. */
static cairo_t *panels_image(int panels)
{
    int across = panels > 1 ? 2 : 1;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, across * PANEL_W,
                                                          (panels + 1) / 2 * PANEL_H);
    cairo_t *cr = cairo_create(surface);
    cairo_surface_destroy(surface); /* (cr holds it) */
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    return cr;
}

static grains_status write_png(cairo_t *cr, const char *png, grains_error *err)
{
    grains_status s = png_file_write(cr, png, "the plot", err);
    cairo_destroy(cr);
    if (s == GRAINS_OK)
        printf("grains plot: %s\n", png);
    return s;
}

/* Probe `name`'s lines: its total, then each tag's (its size classes
 * summed), against time; how many lines. x: the times, y: per line. */
static int probe_lines(const csv_table *t, const char *name, double *x, size_t *n, double *y, char tags[][24])
{
    int ct = csv_table_column(t, "time"), cp = csv_table_column(t, "probe"), cg = csv_table_column(t, "tag"), cs = csv_table_column(t, "size_class"),
        cn = csv_table_column(t, "number"), lines = 1;
    *n = 0;
    snprintf(tags[0], 24, "all");
    for (size_t r = 0; r < t->rows; r++) {
        const char(*row)[24] = t->text + r * (size_t)t->cols;
        if (strcmp(row[cp], name) != 0)
            continue;
        double time = t->v[r * (size_t)t->cols + (size_t)ct], number = t->v[r * (size_t)t->cols + (size_t)cn];
        if (*n == 0 || x[*n - 1] != time) { /* a new frame: every line 0 there */
            x[(*n)++] = time;
            for (int l = 0; l < MAX_LINES; l++)
                y[(size_t)l * t->rows + *n - 1] = 0;
        }
        int l = 0;
        if (strcmp(row[cg], "all") != 0) {
            for (l = 1; l < lines && strcmp(tags[l], row[cg]) != 0; l++)
                ;
            if (l == lines && lines < MAX_LINES)
                snprintf(tags[lines++], 24, "%s", row[cg]);
        } else if (strcmp(row[cs], "all") != 0) {
            continue;
        }
        if (l < lines)
            y[(size_t)l * t->rows + *n - 1] += number;
    }
    return lines;
}

/* DIR/probes.csv as DIR/probes.png: a panel per probe. */
static grains_status plot_probes(const char *dir, const char *png, grains_error *err)
{
    char path[4200], names[MAX_PANELS][24];
    csv_table t;
    snprintf(path, sizeof path, "%s/probes.csv", dir);
    grains_status s = csv_table_read(path, &t, err);
    int cp = s == GRAINS_OK ? csv_table_column(&t, "probe") : -1, n_probes = 0;
    if (s == GRAINS_OK && (cp < 0 || csv_table_column(&t, "time") < 0 || csv_table_column(&t, "tag") < 0 || csv_table_column(&t, "number") < 0 ||
                           csv_table_column(&t, "size_class") < 0))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 1, "not a probes table (time,probe,tag,size_class,number,...)");
    for (size_t r = 0; s == GRAINS_OK && r < t.rows; r++) {
        int k = 0;
        while (k < n_probes && strcmp(names[k], t.text[r * (size_t)t.cols + (size_t)cp]) != 0)
            k++;
        if (k == n_probes && n_probes < MAX_PANELS)
            snprintf(names[n_probes++], 24, "%s", t.text[r * (size_t)t.cols + (size_t)cp]);
    }
    double *x = s == GRAINS_OK ? malloc(t.rows * sizeof *x) : NULL, *y = x ? malloc(MAX_LINES * t.rows * sizeof *y) : NULL;
    if (s == GRAINS_OK && !y)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK) {
        cairo_t *cr = panels_image(n_probes);
        for (int k = 0; k < n_probes; k++) {
            char tags[MAX_LINES][24], labels[MAX_LINES][40], title[64];
            size_t n;
            int lines = probe_lines(&t, names[k], x, &n, y, tags), drawn = 0;
            plot_series series[MAX_LINES];
            if (lines == 2) /* one tag: its line is the total's, drawn once */
                snprintf(labels[0], sizeof labels[0], "all (tag %.23s)", tags[1]);
            for (int l = lines == 2 ? 2 : 1; l < lines; l++) { /* each tag, then the total on top */
                snprintf(labels[l], sizeof labels[l], "tag %.23s", tags[l]);
                series[drawn++] = (plot_series){x, y + (size_t)l * t.rows, NULL, n, 1, labels[l]};
            }
            if (lines != 2)
                snprintf(labels[0], sizeof labels[0], "all");
            series[drawn++] = (plot_series){x, y, NULL, n, 1, labels[0]};
            snprintf(title, sizeof title, "probe %.23s", names[k]);
            plot_panel p = {(k % 2) * PANEL_W, (k / 2) * PANEL_H, PANEL_W, PANEL_H, title, "time [s]", "grains", 0};
            plot_draw(cr, &p, series, drawn);
        }
        s = write_png(cr, png, err);
    }
    free(x), free(y);
    csv_table_free(&t);
    return s;
}

/* A fields column's unit, by its field (docs/analysis.md). */
static const char *field_unit(const char *name)
{
    const char *unit = render_unit(name);
    return *unit ? unit : "-";
}

/* The columns a profile plot shows by default, those the table has. */
static const char *const default_columns[] = {"density", "solid_fraction", "velocity_x", "velocity_z", "stress_xx",
                                              "stress_zz"};

/* DIR/fields/fields.csv, a profile (its first column the one axis kept),
 * as DIR/fields/profile.png: a panel per column (`ys`, comma-separated, or
 * the defaults), each with its standard error's band. */
static grains_status plot_profile(const char *dir, const char *ys, const char *png, grains_error *err)
{
    char path[4200], want[MAX_PANELS][40];
    csv_table t;
    snprintf(path, sizeof path, "%s/fields/fields.csv", dir);
    grains_status s = csv_table_read(path, &t, err);
    int n = ys ? csv_table_cells(ys, want, MAX_PANELS) : 0, panels = 0, col[MAX_PANELS], sem[MAX_PANELS];
    if (n > MAX_PANELS)
        n = MAX_PANELS; /* (the first 16 columns asked for) */
    for (int k = 0; !ys && k < 6; k++)
        snprintf(want[n++], 40, "%s", default_columns[k]);
    if (s == GRAINS_OK && (strlen(t.name[0]) != 1 || !strchr("xyz", t.name[0][0]) || csv_table_column(&t, "density") != 1))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 1, "not a profile of grains fields (one axis kept: its "
                             "first column x, y or z, then density): grains fields DIR --average ...");
    for (int k = 0; s == GRAINS_OK && k < n; k++) {
        char name[48];
        snprintf(name, sizeof name, "%.39s_sem", want[k]);
        col[panels] = csv_table_column(&t, want[k]), sem[panels] = csv_table_column(&t, name);
        if (col[panels] < 1)
            s = grains_error_set(err, GRAINS_ERR_ARG, path, 1, "no column \"%s\" (density, velocity_x, stress_zz, ...)",
                                 want[k]);
        panels++;
    }
    if (s == GRAINS_OK) {
        cairo_t *cr = panels_image(panels);
        char x_label[48];
        snprintf(x_label, sizeof x_label, "%.39s [m]", t.name[0]);
        for (int k = 0; k < panels; k++) {
            char y_label[64];
            snprintf(y_label, sizeof y_label, "%.39s [%s]", t.name[col[k]], field_unit(t.name[col[k]]));
            plot_series series = {t.v, t.v + col[k], sem[k] >= 0 ? t.v + sem[k] : NULL, t.rows, (size_t)t.cols, NULL};
            plot_panel p = {(k % 2) * PANEL_W, (k / 2) * PANEL_H, PANEL_W, PANEL_H, t.name[col[k]], x_label,
                            y_label, 0};
            plot_draw(cr, &p, &series, 1);
        }
        s = write_png(cr, png, err);
    }
    csv_table_free(&t);
    return s;
}

static int usage(const char *why)
{
    fprintf(stderr, "grains plot: %s\nusage: grains plot DIR [--profile [--y COLUMN,...]] [-o PNG]\n", why);
    return EXIT_INPUT;
}

int cli_plot(int argc, char **argv)
{
    const char *dir = NULL, *png = NULL, *ys = NULL;
    int profile = 0;
    for (int k = 0; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (strcmp(a, "--profile") == 0)
            profile = 1;
        else if ((strcmp(a, "-o") == 0 || strcmp(a, "--y") == 0) && v)
            *(a[1] == 'o' ? &png : &ys) = v, k++;
        else if (a[0] != '-' && !dir)
            dir = a;
        else
            return usage("an unknown option, an option without its value, or a second folder");
    }
    if (!dir)
        return usage("which output folder? (grains plot output)");
    char out[4200], fields[4200];
    snprintf(out, sizeof out, profile ? "%s/fields/profile.png" : "%s/probes.png", dir);
    snprintf(fields, sizeof fields, "%s/fields", dir);
    int rc = png ? cli_output_usable("plot", png, 0, 1) : profile ? cli_output_usable("plot", fields, 1, 0) : 0;
    if (!rc && !png)
        rc = cli_output_usable("plot", out, 1, 1);
    if (rc)
        return rc;
    grains_error err;
    grains_status s = profile ? plot_profile(dir, ys, png ? png : out, &err) : plot_probes(dir, png ? png : out, &err);
    if (s != GRAINS_OK)
        return cli_report(&err), EXIT_INPUT;
    return 0;
}
