/* grains render DIR: a PNG per particle frame of a run's output folder
 * (render/render.h), a plot of its thermo table, and an MP4 of the
 * frames when ffmpeg is on the PATH. The camera and the colour range are
 * the same for every frame, fitted to all of them, so a movie does not
 * jump. */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "io/text.h"
#include "cli/render_slice.h"
#include "io/atomic_file.h"
#include "render/render.h"

extern char **environ;

/* What the camera is fitted to: every particle and surface, the particles
 * alone, the surfaces alone, or a box. */
typedef enum { FIT_ALL, FIT_PARTICLES, FIT_MESHES, FIT_BOX } render_fit;

typedef struct {
    const char *dir, *out, *field;
    render_view view;
    int width, every, has_range, mesh, movie, log;
    long only; /* --frame K: that frame alone (-1: the last); -2: every frame */
    double lo, hi;
    render_fit fit;
    double box[6];
    render_clip clip;
    slice_opts slice;      /* spec NULL: none */
    char out_buf[4096];
} render_opts;

static int usage(const char *why)
{
    fprintf(stderr, "grains render: %s\nusage: grains render DIR [-o OUT] [--color FIELD] [--view front|side|top|iso] "
                    "[--width PX] [--range LO,HI] [--every K] [--frame K] [--fit particles|meshes] "
                    "[--box X0,Y0,Z0,X1,Y1,Z1] [--clip PX,PY,PZ,NX,NY,NZ] [--slice FIELD [--slice-cells N] "
                    "[--slice-width W] [--slice-range LO,HI]] [--log] [--no-mesh] [--no-movie]\n", why);
    return EXIT_INPUT;
}

/* --box: a box of some volume; --clip: a point and a direction (made unit). */
static int parse_box(const char *v, render_opts *o)
{
    double *b = o->box;
    return parse_reals(v, b, 6) && b[3] > b[0] && b[4] > b[1] && b[5] > b[2] && (o->fit = FIT_BOX);
}

static int parse_clip(const char *v, render_clip *c)
{
    double a[6];
    if (!parse_reals(v, a, 6))
        return 0;
    double n = sqrt(a[3] * a[3] + a[4] * a[4] + a[5] * a[5]);
    if (!(n > 0) || !isfinite(n))
        return 0;
    *c = (render_clip){1, {a[0], a[1], a[2]}, {a[3] / n, a[4] / n, a[5] / n}};
    return 1;
}

/* "LO,HI": two finite numbers, LO < HI, and nothing after them. */
static int parse_range(const char *v, double *lo, double *hi)
{
    int end = -1;
    return sscanf(v, "%lf,%lf%n", lo, hi, &end) == 2 && end == (int)strlen(v) && isfinite(*lo) && isfinite(*hi) &&
           *lo < *hi;
}

static int parse_view(const char *s, render_view *v)
{
    static const char *names[] = {"front", "side", "top", "iso"};
    for (int k = 0; k < 4; k++)
        if (strcmp(s, names[k]) == 0)
            return (*v = (render_view)k), 1;
    return 0;
}

static int parse_opts(int argc, char **argv, render_opts *o)
{
    *o = (render_opts){.field = "velocity", .width = 800, .every = 1, .mesh = 1, .movie = 1, .only = -2,
                       .slice = {.cells = 120}};
    for (int k = 0; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        long n;
        if (strcmp(a, "--no-mesh") == 0) {
            o->mesh = 0;
            continue;
        }
        if (strcmp(a, "--no-movie") == 0) {
            o->movie = 0;
            continue;
        }
        if (strcmp(a, "--log") == 0) {
            o->log = 1;
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
        if (strcmp(a, "-o") == 0)
            o->out = v;
        else if (strcmp(a, "--color") == 0 || strcmp(a, "--colour") == 0)
            o->field = v;
        else if (strcmp(a, "--view") == 0 && parse_view(v, &o->view))
            continue;
        else if (strcmp(a, "--width") == 0 && parse_long(v, strlen(v), &n) && n >= 64 && n <= CAMERA_MAX_SIDE)
            o->width = (int)n;
        else if (strcmp(a, "--every") == 0 && parse_long(v, strlen(v), &n) && n >= 1 && n <= 1000000)
            o->every = (int)n;
        else if (strcmp(a, "--frame") == 0 && parse_long(v, strlen(v), &n) && n >= -1 && n <= 999999)
            o->only = n;
        else if (strcmp(a, "--range") == 0 && parse_range(v, &o->lo, &o->hi))
            o->has_range = 1;
        else if (strcmp(a, "--fit") == 0 && (strcmp(v, "particles") == 0 || strcmp(v, "meshes") == 0))
            o->fit = v[0] == 'p' ? FIT_PARTICLES : FIT_MESHES;
        else if (strcmp(a, "--box") == 0 && parse_box(v, o))
            continue;
        else if (strcmp(a, "--clip") == 0 && parse_clip(v, &o->clip))
            continue;
        else if (strcmp(a, "--slice") == 0 && slice_parse(v, &o->slice))
            continue;
        else if (strcmp(a, "--slice-cells") == 0 && parse_long(v, strlen(v), &n) && n >= 2 && n <= 1024)
            o->slice.cells = (int)n;
        else if (strcmp(a, "--slice-width") == 0 && parse_reals(v, &o->slice.width, 1) && o->slice.width > 0)
            continue;
        else if (strcmp(a, "--slice-range") == 0 && parse_range(v, &o->slice.lo, &o->slice.hi))
            o->slice.has_range = 1;
        else
            return usage("an unknown option or a value out of range (--width 64..8192, --every >= 1, "
                         "--frame K >= -1, --range LO,HI with LO < HI, --fit particles or meshes, --box with "
                         "max > min, --clip a point and a direction, --slice a field of grains fields (density, "
                         "velocity_x, stress_zz, ...), --slice-cells 2..1024, --slice-width > 0)");
    }
    if (!o->dir)
        return usage("which output folder? (grains render output)");
    int in_run = !o->out;
    if (in_run) {
        snprintf(o->out_buf, sizeof o->out_buf, "%s/render", o->dir);
        o->out = o->out_buf;
    }
    return cli_output_usable("render", o->out, in_run, 0);
}

/* DIR/STEM%06d.vtp for frame k, or DIR/STEM.vtp (one file for all). */
static int frame_file(char *path, size_t size, const char *dir, const char *stem, size_t k)
{
    snprintf(path, size, "%s/%s%06zu.vtp", dir, stem, k);
    if (cli_file_exists(path))
        return 1;
    snprintf(path, size, "%s/%s.vtp", dir, stem);
    return cli_file_exists(path);
}

/* The frames' times from particles.pvd's timestep attributes (NAN where
 * unknown). */
static void frame_times(const char *dir, double *t, size_t n)
{
    char path[4200];
    size_t len, k = 0;
    for (size_t i = 0; i < n; i++)
        t[i] = NAN;
    snprintf(path, sizeof path, "%s/particles.pvd", dir);
    char *text = read_file(path, &len), *p = text;
    while (p && k < n && (p = strstr(p, "timestep=\""))) {
        real v;
        char *q = strchr(p + 10, '"');
        if (q && parse_real(p + 10, (size_t)(q - p - 10), &v))
            t[k] = (double)v;
        k++;
        p += 10;
    }
    free(text);
}

/* The frame's surfaces: the mesh and the membranes, those that exist. */
static grains_status read_surfaces(const render_opts *o, size_t k, vtk_polydata *s, int *n, grains_error *err)
{
    static const char *stems[] = {"mesh", "membranes"};
    char path[4200];
    *n = 0;
    for (int j = 0; j < 2 && o->mesh; j++) {
        if (!frame_file(path, sizeof path, o->dir, stems[j], k))
            continue;
        grains_status st = vtk_polydata_read(path, &s[*n], err);
        if (st != GRAINS_OK)
            return st;
        (*n)++;
    }
    return GRAINS_OK;
}

/* The frames drawn: every `every`-th, or the one --frame names. */
static size_t first_frame(const render_opts *o, size_t frames)
{
    return o->only == -2 ? 0 : o->only == -1 ? frames - 1 : (size_t)o->only;
}

static size_t frame_step(const render_opts *o, size_t frames)
{
    return o->only == -2 ? (size_t)o->every : frames;
}

/* Pass 1: the camera's bounds and the field's range over every frame drawn. */
static grains_status survey(const render_opts *o, size_t frames, render_camera *cam, render_colour *c,
                            grains_error *err)
{
    char path[4200];
    double lo = INFINITY, hi = -INFINITY;
    int found = 0;
    for (size_t k = first_frame(o, frames); k < frames; k += frame_step(o, frames)) {
        vtk_polydata d, s[2];
        int n = 0;
        snprintf(path, sizeof path, "%s/particles%06zu.vtp", o->dir, k);
        grains_status st = vtk_polydata_read(path, &d, err);
        if (st == GRAINS_OK)
            st = read_surfaces(o, k, s, &n, err);
        double *v = st == GRAINS_OK ? malloc((d.points + 1) * sizeof *v) : NULL;
        if (v && render_field_values(&d, c->field, v)) {
            found = 1;
            for (size_t i = 0; i < d.points; i++)
                if (isfinite(v[i]))
                    lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
        }
        if (o->fit == FIT_ALL || o->fit == FIT_PARTICLES)
            camera_include(cam, &d);
        for (int j = 0; j < n; j++) {
            if (o->fit == FIT_ALL || o->fit == FIT_MESHES)
                camera_include(cam, &s[j]);
            vtk_polydata_free(&s[j]);
        }
        vtk_polydata_free(&d);
        free(v);
        if (st != GRAINS_OK)
            return st;
    }
    if (!found)
        return grains_error_set(err, GRAINS_ERR_ARG, o->dir, 0, "no particle frame has a point array \"%s\" "
                                "(try velocity, radius, angular_velocity, id, tag)", c->field);
    c->lo = o->has_range ? o->lo : lo;
    c->hi = o->has_range ? o->hi : hi;
    if (o->fit == FIT_BOX)
        camera_include_box(cam, o->box, o->box + 3);
    return GRAINS_OK;
}

/* Frame k's slice, from its particles and (when written) contacts. */
static grains_status frame_slice(const render_opts *o, const render_camera *cam, size_t k, render_slice *slice,
                                 double **values, grains_error *err)
{
    char particles[4200], contacts[4200];
    snprintf(particles, sizeof particles, "%s/particles%06zu.vtp", o->dir, k);
    snprintf(contacts, sizeof contacts, "%s/contacts%06zu.vtp", o->dir, k);
    return slice_make(&o->slice, cam, particles, cli_file_exists(contacts) ? contacts : NULL, slice, values, err);
}

static grains_status draw_frame(const render_opts *o, const render_camera *cam, const render_colour *c, size_t k,
                                double t, grains_error *err)
{
    char path[4200], png[4200], label[64];
    vtk_polydata d, s[2];
    int n = 0;
    snprintf(path, sizeof path, "%s/particles%06zu.vtp", o->dir, k);
    grains_status st = vtk_polydata_read(path, &d, err);
    if (st != GRAINS_OK)
        return st;
    if ((st = read_surfaces(o, k, s, &n, err)) == GRAINS_OK) {
        if (isfinite(t))
            snprintf(label, sizeof label, "t = %.4g s   N = %zu", t, d.points);
        else
            snprintf(label, sizeof label, "frame %zu   N = %zu", k, d.points);
        render_frame f = {&d, {&s[0], &s[1]}, n, label, o->clip, NULL};
        render_slice slice;
        double *values = NULL;
        if (o->slice.spec && (st = frame_slice(o, cam, k, &slice, &values, err)) == GRAINS_OK)
            f.slice = &slice;
        snprintf(png, sizeof png, "%s/frame%06zu.png", o->out, k); /* the run's frame number */
        if (st == GRAINS_OK)
            st = render_frame_png(cam, c, &f, png, err);
        free(values);
    }
    for (int j = 0; j < n; j++)
        vtk_polydata_free(&s[j]);
    vtk_polydata_free(&d);
    return st;
}

/* ffmpeg on the PATH, as an executable file. */
static int have_ffmpeg(void)
{
    const char *path = getenv("PATH");
    char dir[4200];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s/ffmpeg", (int)n, path);
        if (n && access(dir, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* OUT/movie.mp4 from the frames drawn, at 10 per second: ffmpeg's concat
 * list OUT/movie_frames.txt names them (the run's frame numbers need not
 * follow on). No shell: the names go to ffmpeg as they are. */
static int make_movie(const render_opts *o, size_t frames)
{
    char list[4200], movie[4200];
    snprintf(list, sizeof list, "%s/movie_frames.txt", o->out);
    snprintf(movie, sizeof movie, "%s/movie.mp4", o->out);
    atomic_file af;
    grains_error err;
    struct stat st; /* (ffmpeg -y would write through a link or into a FIFO planted there) */
    if ((lstat(movie, &st) == 0 && !S_ISREG(st.st_mode)) || atomic_open(&af, list, &err) != GRAINS_OK)
        return 0;
    fputs("ffconcat version 1.0\n", af.f);
    for (size_t k = first_frame(o, frames); k < frames; k += frame_step(o, frames))
        fprintf(af.f, "file frame%06zu.png\nduration 0.1\n", k);
    if (atomic_commit(&af, &err) != GRAINS_OK)
        return 0;
    char *args[] = {"ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", list, "-pix_fmt",
                    "yuv420p", "-r", "10", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", movie, NULL};
    pid_t pid;
    int status;
    if (posix_spawnp(&pid, "ffmpeg", NULL, NULL, args, environ) != 0 || waitpid(pid, &status, 0) != pid)
        return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int finish(const render_opts *o, size_t frames, size_t drawn)
{
    char csv[4200], png[4200];
    grains_error err;
    printf("grains render: %zu frames in %s/frame%06zu.png ... (named by the run's frame numbers)\n", drawn, o->out,
           first_frame(o, frames));
    snprintf(csv, sizeof csv, "%s/thermo.csv", o->dir);
    snprintf(png, sizeof png, "%s/thermo.png", o->out);
    if (cli_file_exists(csv)) {
        if (render_thermo_png(csv, png, o->log, &err) != GRAINS_OK)
            return cli_report(&err), EXIT_INPUT;
        printf("grains render: the thermo table plotted in %s\n", png);
    }
    if (o->movie && drawn > 1 && have_ffmpeg())
        printf(make_movie(o, frames) ? "grains render: the movie is %s/movie.mp4\n"
                                     : "grains render: ffmpeg failed to make %s/movie.mp4\n", o->out);
    else if (o->movie && drawn > 1)
        printf("grains render: no ffmpeg on the PATH, so no movie (Debian: apt install ffmpeg)\n");
    return 0;
}

int cli_render(int argc, char **argv)
{
    render_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc)
        return rc;
    grains_error err;
    size_t frames = cli_count_frames(o.dir);
    if (frames == 0) {
        fprintf(stderr, "grains render: no %s/particles000000.vtp: not the output folder of a run\n", o.dir);
        return EXIT_INPUT;
    }
    if (o.only >= 0 && (size_t)o.only >= frames) {
        fprintf(stderr, "grains render: --frame %ld: the run in %s has frames 0 to %zu\n", o.only, o.dir, frames - 1);
        return EXIT_INPUT;
    }
    render_camera cam;
    render_colour colour = {o.field, 0, 1, 0};
    colour.categorical = strcmp(o.field, "tag") == 0 || strcmp(o.field, "material") == 0;
    camera_init(&cam, o.view);
    double *times = malloc(frames * sizeof *times);
    grains_status st = times ? grains_output_dir(o.out, &err) : GRAINS_ERR_NOMEM;
    if (st == GRAINS_OK && (st = survey(&o, frames, &cam, &colour, &err)) == GRAINS_OK) {
        camera_fit(&cam, o.width);
        frame_times(o.dir, times, frames);
    }
    size_t drawn = 0;
    for (size_t k = first_frame(&o, frames); st == GRAINS_OK && k < frames; k += frame_step(&o, frames), drawn++)
        st = draw_frame(&o, &cam, &colour, k, times[k], &err);
    free(times);
    if (st == GRAINS_ERR_NOMEM && !err.message[0])
        return fprintf(stderr, "grains render: out of memory\n"), EXIT_INPUT;
    if (st != GRAINS_OK)
        return cli_report(&err), EXIT_INPUT;
    return finish(&o, frames, drawn);
}
