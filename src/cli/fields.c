/* grains fields DIR: the coarse-grained fields (grains/fields.h) of a run's
 * frames, averaged over a window of them, as DIR/fields/fields.vti
 * (ParaView) and fields.csv (a row per cell). Each frame's grains come from
 * its particlesNNNNNN.vtp, its contacts from contactsNNNNNN.vtp (written
 * when the scenario's output has contacts = true). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/run.h"
#include "io/cg_read.h"
#include "io/text.h"

typedef struct {
    const char *dir, *out;
    long first, last;        /* frames first..last (-1: the last there is) */
    double width, cell, rho; /* 0: chosen from the frames */
    grains_cg_kernel kernel;
    int averaged[3], periodic[3], has_box, has_axes, contacts;
    double box[6];
    grains_vec3 axis[3];
    char out_buf[4096];
} fields_opts;

static int usage(const char *why)
{
    fprintf(stderr, "grains fields: %s\nusage: grains fields DIR [-o OUT] [--frames FIRST[:LAST]] [--width W] "
                    "[--kernel gaussian|lucy] [--cell H] [--average AXES] [--box X0,Y0,Z0,X1,Y1,Z1] "
                    "[--axes AX,AY,AZ,BX,BY,BZ] [--periodic AXES] [--rho RHO] [--no-contacts]\n", why);
    return EXIT_INPUT;
}

/* "FIRST" or "FIRST:LAST" or "FIRST:" (to the last). */
static int parse_frames(const char *v, long *first, long *last)
{
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    *last = -1;
    if (!parse_long(v, n, first) || *first < 0)
        return 0;
    if (!colon)
        return (*last = *first), 1;
    return !colon[1] || (parse_long(colon + 1, strlen(colon + 1), last) && *last >= *first);
}

/* AXES: letters among x, y, z (or "none"). */
static int parse_axes_averaged(const char *v, int *averaged)
{
    if (strcmp(v, "none") == 0)
        return 1;
    for (; *v; v++) {
        if (*v < 'x' || *v > 'z' || averaged[*v - 'x'])
            return 0;
        averaged[*v - 'x'] = 1;
    }
    return 1;
}

/* Two directions: the first normalized, the second made normal to it, the
 * third their cross product. */
static int parse_grid_axes(const char *v, grains_vec3 *e)
{
    double a[6];
    if (!parse_reals(v, a, 6))
        return 0;
    double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(la > 0))
        return 0;
    e[0] = (grains_vec3){a[0] / la, a[1] / la, a[2] / la};
    double d = a[3] * e[0].x + a[4] * e[0].y + a[5] * e[0].z;
    grains_vec3 b = {a[3] - d * e[0].x, a[4] - d * e[0].y, a[5] - d * e[0].z};
    double lb = sqrt(b.x * b.x + b.y * b.y + b.z * b.z);
    if (!(lb > 1e-6 * sqrt(a[3] * a[3] + a[4] * a[4] + a[5] * a[5])))
        return 0;
    e[1] = (grains_vec3){b.x / lb, b.y / lb, b.z / lb};
    e[2] = (grains_vec3){e[0].y * e[1].z - e[0].z * e[1].y, e[0].z * e[1].x - e[0].x * e[1].z,
                         e[0].x * e[1].y - e[0].y * e[1].x};
    return 1;
}

/* One option with its value; 0 if unknown or out of range. */
static int parse_option(const char *a, const char *v, fields_opts *o)
{
    double x;
    if (strcmp(a, "-o") == 0)
        return (o->out = v), 1;
    if (strcmp(a, "--frames") == 0)
        return parse_frames(v, &o->first, &o->last);
    if (strcmp(a, "--kernel") == 0 && (strcmp(v, "gaussian") == 0 || strcmp(v, "lucy") == 0))
        return (o->kernel = v[0] == 'l' ? GRAINS_CG_LUCY : GRAINS_CG_GAUSSIAN), 1;
    if (strcmp(a, "--average") == 0)
        return parse_axes_averaged(v, o->averaged);
    if (strcmp(a, "--periodic") == 0)
        return parse_axes_averaged(v, o->periodic);
    if (strcmp(a, "--box") == 0)
        return (o->has_box = parse_reals(v, o->box, 6));
    if (strcmp(a, "--axes") == 0)
        return (o->has_axes = parse_grid_axes(v, o->axis));
    int positive = parse_reals(v, &x, 1) && x > 0;
    if (strcmp(a, "--width") == 0 && positive)
        return (o->width = x), 1;
    if (strcmp(a, "--cell") == 0 && positive)
        return (o->cell = x), 1;
    if (strcmp(a, "--rho") == 0 && positive)
        return (o->rho = x), 1;
    return 0;
}

static int parse_opts(int argc, char **argv, fields_opts *o)
{
    *o = (fields_opts){.last = -1, .kernel = GRAINS_CG_GAUSSIAN, .contacts = 1};
    for (int k = 0; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (strcmp(a, "--no-contacts") == 0) {
            o->contacts = 0;
            continue;
        }
        if (a[0] != '-') {
            if (o->dir)
                return usage("more than one folder");
            o->dir = a;
            continue;
        }
        if (!v)
            return usage("an option without its value");
        k++;
        if (!parse_option(a, v, o))
            return usage("an unknown option or a value out of range (--frames K or K:L or K:, --width, --cell and "
                         "--rho > 0, --kernel gaussian or lucy, --average and --periodic letters of xyz, --box six "
                         "numbers, --axes two directions not parallel)");
    }
    if (!o->dir)
        return usage("which output folder? (grains fields output)");
    /* Averaged along a periodic axis, the fields are per the period's span: the grains' extent
     * (the span chosen without --box) would spread their mass over a radius too many. */
    if ((o->periodic[0] || o->periodic[1] || o->periodic[2]) && !o->has_box)
        return usage("--periodic needs --box: along a periodic axis the grid spans the period (the "
                     "periodic box's box_min to box_max)");
    if (o->has_box)
        for (int a = 0; a < 3; a++)
            if (!(o->box[a] < o->box[3 + a]))
                return usage("--box X0,Y0,Z0,X1,Y1,Z1 with X0 < X1, Y0 < Y1 and Z0 < Z1");
    int in_run = !o->out;
    if (in_run) {
        snprintf(o->out_buf, sizeof o->out_buf, "%s/fields", o->dir);
        o->out = o->out_buf;
    }
    return cli_output_usable("fields", o->out, in_run, 0);
}

/* Frame k's particles, and its contacts when wanted and written. */
static const char *frame_paths(const fields_opts *o, size_t k, char *particles, char *contacts, size_t size)
{
    snprintf(particles, size, "%s/particles%06zu.vtp", o->dir, k);
    snprintf(contacts, size, "%s/contacts%06zu.vtp", o->dir, k);
    return o->contacts && cli_file_exists(contacts) ? contacts : NULL;
}

/* u in the grid's axes. */
static grains_vec3 in_axes(const grains_vec3 *e, grains_vec3 u)
{
    return (grains_vec3){e[0].x * u.x + e[0].y * u.y + e[0].z * u.z, e[1].x * u.x + e[1].y * u.y + e[1].z * u.z,
                         e[2].x * u.x + e[2].y * u.y + e[2].z * u.z};
}

/* The frames' extent in the grid's axes (lo, hi) and their grains' mean
 * radius (the first frame's). */
typedef struct {
    double lo[3], hi[3], mean_radius;
} frames_extent;

static grains_status survey(const fields_opts *o, const grains_vec3 *e, size_t first, size_t last, frames_extent *x,
                            grains_error *err)
{
    char path[4200], unused[4200];
    *x = (frames_extent){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}, 0};
    for (size_t k = first; k <= last; k++) {
        cg_frame_in f;
        if (run_signals_caught())
            return grains_error_set(err, GRAINS_ERR_STOPPED, NULL, 0, "stopped on request");
        frame_paths(o, k, path, unused, sizeof path);
        grains_status s = cg_frame_read(path, NULL, o->rho, &f, err);
        if (s != GRAINS_OK)
            return s;
        for (size_t i = 0; i < f.frame.n; i++) {
            grains_vec3 p = in_axes(e, f.x[i]);
            const double c[3] = {p.x, p.y, p.z};
            for (int a = 0; a < 3; a++)
                x->lo[a] = fmin(x->lo[a], c[a]), x->hi[a] = fmax(x->hi[a], c[a]);
            if (k == first)
                x->mean_radius += cbrt(f.volume[i] * 3 / (4 * 3.14159265358979323846)) / (double)f.frame.n;
        }
        cg_frame_free(&f);
    }
    return GRAINS_OK;
}

/* The grid: the box given, or the frames' extent grown by the kernel's
 * reach (3w Gaussian, 2w Lucy: no grain's mass falls beyond the faces) along
 * the axes kept and by a mean radius along those averaged (the span the
 * grains fill); cells of edge H (default w) along the axes kept. */
static grains_status make_grid(const fields_opts *o, const frames_extent *x, grains_cg_grid *g, grains_error *err)
{
    if (!o->has_box && !(x->hi[0] >= x->lo[0]))
        return grains_error_set(err, GRAINS_ERR_RANGE, o->dir, 0, "fields: the frames hold no grains to choose the "
                                "grid from: give --box and --width");
    if (o->width <= 0 && !(x->mean_radius > 0 && isfinite(x->mean_radius)))
        return grains_error_set(err, GRAINS_ERR_RANGE, o->dir, 0, "fields: the grains' mean radius, %g, is no "
                                "kernel width (volumes beyond the range of numbers): give --width", x->mean_radius);
    *g = (grains_cg_grid){.kernel = o->kernel, .width = o->width > 0 ? o->width : x->mean_radius};
    if (o->has_axes)
        memcpy(g->axis, o->axis, sizeof g->axis);
    double lo[3], hi[3], cell = o->cell > 0 ? o->cell : g->width;
    double reach = (g->kernel == GRAINS_CG_LUCY ? 2 : 3) * g->width;
    for (int a = 0; a < 3; a++) {
        double grow = o->averaged[a] ? x->mean_radius : reach;
        lo[a] = o->has_box ? o->box[a] : x->lo[a] - grow;
        hi[a] = o->has_box ? o->box[3 + a] : x->hi[a] + grow;
        if (!(isfinite(hi[a] - lo[a])))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the grid would span %g to %g along %c "
                                    "(the grains' extent and the kernel's reach): beyond the range of numbers; give "
                                    "--box and --width", lo[a], hi[a], "xyz"[a]);
        double n = o->averaged[a] ? 1 : ceil((hi[a] - lo[a]) / cell);
        if (!(n <= 1024))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: %.3g cells of %g along %c: at most 1024 "
                                    "(a larger --cell, or --box)", n, cell, "xyz"[a]);
        g->n[a] = (int)fmax(1, n);
        g->averaged[a] = o->averaged[a];
        g->periodic[a] = o->periodic[a];
    }
    g->lo = (grains_vec3){lo[0], lo[1], lo[2]}, g->hi = (grains_vec3){hi[0], hi[1], hi[2]};
    return GRAINS_OK;
}

/* Every frame of the window into the fields; 128 + a signal if one came. */
static int add_frames(const fields_opts *o, grains_cg *cg, size_t first, size_t last, int *with_contacts,
                      grains_error *err)
{
    char path[4200], contacts_path[4200];
    *with_contacts = 0;
    for (size_t k = first; k <= last; k++) {
        if (run_signals_caught())
            return 128 + run_signals_caught();
        cg_frame_in f;
        const char *c = frame_paths(o, k, path, contacts_path, sizeof path);
        grains_status s = cg_frame_read(path, c, o->rho, &f, err);
        if (s == GRAINS_OK && (s = grains_cg_add_frame(cg, &f.frame, err)) != GRAINS_OK)
            snprintf(err->file, sizeof err->file, "%.1000s", path); /* the frame the value is in */
        cg_frame_free(&f);
        if (s == GRAINS_ERR_STOPPED)
            return 128 + run_signals_caught();
        if (s != GRAINS_OK)
            return EXIT_INPUT;
        *with_contacts += c != NULL;
    }
    return 0;
}

/* What was made, and where. */
static void summary(const fields_opts *o, const grains_cg_grid *g, size_t first, size_t last, int with_contacts,
                    double seconds)
{
    size_t frames = last - first + 1;
    printf("grains fields: %zu frame%s (%zu to %zu), %d x %d x %d cells, %s kernel of width %g, %s; %.3g s a frame read and spread\n",
           frames, frames > 1 ? "s" : "", first, last, g->n[0], g->n[1], g->n[2],
           g->kernel == GRAINS_CG_LUCY ? "Lucy" : "Gaussian", g->width,
           with_contacts ? "contacts included" : "no contacts (contacts = true in output records them): "
                                                 "coordination and the contact stress left out", seconds / (double)frames);
    printf("grains fields: %s/fields.vti and %s/fields.csv\n", o->out, o->out);
}

static grains_status write_fields(const fields_opts *o, const grains_cg *cg, grains_error *err)
{
    char path[4200];
    grains_status s = grains_output_dir(o->out, err);
    if (s == GRAINS_OK && snprintf(path, sizeof path, "%s/fields.vti", o->out) > 0)
        s = grains_cg_write_vti(cg, path, GRAINS_VTK_COMPRESSED, err);
    if (s == GRAINS_OK && snprintf(path, sizeof path, "%s/fields.csv", o->out) > 0)
        s = grains_cg_write_csv(cg, path, err);
    return s;
}

/* The frames of the window, checked against those there are. */
static int window(const fields_opts *o, size_t *first, size_t *last)
{
    size_t frames = cli_count_frames(o->dir);
    if (frames == 0) {
        fprintf(stderr, "grains fields: no %s/particles000000.vtp: not the output folder of a run\n", o->dir);
        return EXIT_INPUT;
    }
    *first = (size_t)o->first;
    *last = o->last < 0 ? frames - 1 : (size_t)o->last;
    if (*last >= frames || *first > *last) { /* (FIRST: beyond the last frame) */
        fprintf(stderr, "grains fields: --frames %ld:%zu: the run in %s has frames 0 to %zu\n", o->first, *last,
                o->dir, frames - 1);
        return EXIT_INPUT;
    }
    return 0;
}

int cli_fields(int argc, char **argv)
{
    fields_opts o;
    size_t first, last;
    int rc = parse_opts(argc, argv, &o), with_contacts = 0;
    if (rc || (rc = window(&o, &first, &last)))
        return rc;
    run_signals_catch(NULL);
    grains_error err = {0};
    grains_vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (o.has_axes)
        memcpy(e, o.axis, sizeof e);
    frames_extent x;
    grains_cg_grid g;
    grains_cg *cg = NULL;
    struct timespec t0 = {0}, t1 = {0};
    grains_status s = survey(&o, e, first, o.has_box && o.width > 0 ? first : last, &x, &err);
    if (s == GRAINS_OK && (s = make_grid(&o, &x, &g, &err)) == GRAINS_OK &&
        (s = grains_cg_create(&cg, &g, &err)) == GRAINS_OK)
        grains_cg_ask_stop(cg, run_signals_asked, NULL); /* (a large grid's frame takes long: SIGTERM within it) */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (s == GRAINS_OK && (rc = add_frames(&o, cg, first, last, &with_contacts, &err)) == 0) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        s = write_fields(&o, cg, &err);
    }
    if (s == GRAINS_OK && rc == 0)
        summary(&o, &g, first, last, with_contacts, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    grains_cg_destroy(cg);
    if (s == GRAINS_ERR_STOPPED)
        rc = 128 + run_signals_caught();
    if (rc > 128)
        return fprintf(stderr, "grains fields: stopped by signal %d: nothing written\n", rc - 128), rc;
    if (s != GRAINS_OK || rc)
        return cli_report(&err), EXIT_INPUT;
    return 0;
}
