/* grains render's pieces: the VTK reader gives back what the writer wrote,
 * and the picture shows the scene as an orthographic camera sees it; a clip
 * plane hides what lies beyond it; coplanar triangles are one face, drawn
 * without a seam along their shared edge; a camera zoomed far into a grain
 * draws it at once, its rim where it is; plots' ticks fall on round
 * numbers and their lines are drawn; a PNG is never written into a FIFO
 * nor through a symlink. */
#include <cairo.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>
#include <unistd.h>

#include "check.h"
#include "grains/io.h"
#include "render/faces.h"
#include "render/plot.h"
#include "render/render.h"
#include "support.h"

/* Two spheres on the front camera's line of sight through (0, 0) (the
 * nearer at y = -0.5 with tag 1), and a third to the right, moving. */
static grains_sim *three_spheres(void)
{
    grains_params p = scene_params();
    p.R_min = 0.1, p.R_max = 0.3;
    grains_sim *sim = scene(&p);
    grains_particle q[3] = {{{0, 0.5, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, 0.3, 0, 0},
                            {{0, -0.5, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, 0.2, 0, 1},
                            {{1.0 / 3, 0.1, 0.7}, {0.25, -1e-17, 3}, {1, 2, 3}, {1, 0, 0, 0}, 0.1, 0, 2}};
    grains_error err;
    for (int k = 0; k < 3; k++)
        if (grains_sim_add_particle(sim, &q[k], &err) != GRAINS_OK)
            exit(fprintf(stderr, "%s\n", err.message));
    return sim;
}

/* Each format reads back to the values written: bit for bit in binary,
 * to the 10 significant digits ASCII holds. */
static void reads_back(test_ctx *t, const grains_sim *sim, grains_vtk_format format, const char *path)
{
    grains_error err;
    vtk_polydata d;
    CHECK(t, grains_vtk_write_particles(path, sim, format, &err) == GRAINS_OK, "write: %s", err.message);
    CHECK(t, vtk_polydata_read(path, &d, &err) == GRAINS_OK, "read: %s", err.message);
    const vtk_array_in *x = vtk_polydata_array(&d, VTK_IN_POINTS, "position"),
                       *v = vtk_polydata_array(&d, VTK_IN_POINT_DATA, "velocity"),
                       *tag = vtk_polydata_array(&d, VTK_IN_POINT_DATA, "tag"),
                       *off = vtk_polydata_array(&d, VTK_IN_VERTS, "offsets");
    CHECK(t, d.points == 3 && x && v && tag && off && x->tuples == 3 && x->comps == 3 && off->tuples == 3,
          "format %d: 3 points with position, velocity, tag and vertex offsets", (int)format);
    if (!(x && v && tag && d.points == 3)) {
        vtk_polydata_free(&d);
        return;
    }
    double tol = format == GRAINS_VTK_ASCII ? 5e-10 : 0; /* 10 digits: half a unit of the 10th */
    for (size_t i = 0; i < 3; i++) {
        grains_particle p = get(sim, i);
        for (int k = 0; k < 3; k++) {
            CHECK_ABS(t, x->v[3 * i + (size_t)k], ((double *)&p.x)[k], tol * fabs(((double *)&p.x)[k]), "position");
            CHECK_ABS(t, v->v[3 * i + (size_t)k], ((double *)&p.v)[k], tol * fabs(((double *)&p.v)[k]), "velocity");
        }
        CHECK(t, tag->v[i] == p.tag, "tag %zu: %g, want %d", i, tag->v[i], p.tag);
    }
    vtk_polydata_free(&d);
}

/* A file cut short anywhere is refused with a message, never misread. */
static void truncations_refused(test_ctx *t, const char *path)
{
    size_t len;
    FILE *f = fopen(path, "rb");
    char *text = malloc(1 << 16);
    len = f ? fread(text, 1, 1 << 16, f) : 0;
    if (f)
        fclose(f);
    int accepted = 0;
    for (size_t cut = 0; cut + 20 < len; cut += 7) {
        char *part = malloc(cut + 1);
        memcpy(part, text, cut);
        part[cut] = '\0';
        vtk_polydata d;
        grains_error err = {0};
        if (vtk_polydata_parse(part, cut, "cut", &d, &err) == GRAINS_OK)
            accepted += d.points == 3 && d.n_arrays > 0 && vtk_polydata_array(&d, VTK_IN_VERTS, "offsets") != NULL;
        else
            CHECK(t, err.message[0], "a refusal says why (cut at %zu)", cut);
        vtk_polydata_free(&d);
        free(part);
    }
    CHECK(t, accepted == 0, "%d truncated files read as complete", accepted);
    free(text);
}

/* Base64 of n bytes into out (4 characters per 3 bytes, '=' padded). */
static size_t base64(const unsigned char *in, size_t n, char *out)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t k = 0; k < n; k += 3) {
        uint32_t v = (uint32_t)in[k] << 16 | (k + 1 < n ? (uint32_t)in[k + 1] << 8 : 0) | (k + 2 < n ? in[k + 2] : 0);
        out[o++] = abc[v >> 18 & 63], out[o++] = abc[v >> 12 & 63];
        out[o++] = k + 1 < n ? abc[v >> 6 & 63] : '=';
        out[o++] = k + 2 < n ? abc[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

/* A few kilobytes of zlib'd zeros declared as 700,000 points (16.8 MB of
 * positions, more as doubles): refused before they are inflated, since a
 * file's arrays may take at most 100 times its size. */
static void zeros_refused(test_ctx *t)
{
    const size_t points = 700000, raw = points * 3 * sizeof(double);
    unsigned char *zeros = calloc(raw, 1);
    uLongf z_len = compressBound(raw);
    unsigned char *z = malloc(z_len), head[32];
    compress(z, &z_len, zeros, raw);
    uint64_t h[4] = {1, raw, 0, z_len};
    memcpy(head, h, sizeof head); /* (little-endian, as the file says) */
    char *text = malloc(2 * z_len + 4096), *at = text;
    at += sprintf(at, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
                      "header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\">\n<PolyData>\n<Piece "
                      "NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" "
                      "NumberOfPolys=\"0\">\n<Points>\n<DataArray type=\"Float64\" Name=\"position\" "
                      "NumberOfComponents=\"3\" format=\"binary\">\n", points);
    at += base64(head, sizeof head, at);
    at += base64(z, z_len, at);
    at += sprintf(at, "\n</DataArray>\n</Points>\n</Piece>\n</PolyData>\n</VTKFile>\n");
    vtk_polydata d;
    grains_error err = {0};
    grains_status s = vtk_polydata_parse(text, (size_t)(at - text), "zeros.vtp", &d, &err);
    CHECK(t, s == GRAINS_ERR_LIMIT && strstr(err.message, "\"position\" would take 16.8 MB"),
          "%zu bytes declaring %zu points are refused: %s", (size_t)(at - text), points, err.message);
    if (s == GRAINS_OK)
        vtk_polydata_free(&d);
    free(zeros), free(z), free(text);
}

/* A Piece's counts are claims the arrays must back: counts of 2^39 points
 * or a line with no data under them are refused by the reader, so no
 * reader of its counts sizes a buffer from them (a fuzzed 100-byte file
 * once asked the frames' reader for 50 GB). */
static void counts_unbacked(test_ctx *t)
{
    static const char *pieces[] = {
        "NumberOfPoints=\"549755813888\" NumberOfVerts=\"0\" NumberOfLines=\"0\"",
        "NumberOfPoints=\"0\" NumberOfVerts=\"0\" NumberOfLines=\"1\"",
        "NumberOfPoints=\"0\" NumberOfVerts=\"3\" NumberOfLines=\"0\"",
    };
    static const char *claims[] = {"NumberOfPoints=\"549755813888\"", "NumberOfLines=\"1\"",
                                   "NumberOfVerts=\"3\""};
    int all = 1;
    for (int k = 0; k < 3; k++) {
        char text[512];
        int n = snprintf(text, sizeof text, "<VTKFile type=\"PolyData\"><PolyData><Piece %s NumberOfStrips=\"0\" "
                         "NumberOfPolys=\"0\"></Piece></PolyData></VTKFile>", pieces[k]);
        vtk_polydata d;
        grains_error err = {0};
        grains_status s = vtk_polydata_parse(text, (size_t)n, "claims.vtp", &d, &err);
        int ok = s == GRAINS_ERR_PARSE && strstr(err.message, claims[k]);
        if (!ok)
            printf("  %s: status %d (%s)\n", pieces[k], s, err.message);
        if (s == GRAINS_OK)
            vtk_polydata_free(&d);
        all = all && ok;
    }
    CHECK(t, all, "Pieces claiming 2^39 points, a line or three vertices with no array under them are refused");
}

static void pixel(cairo_surface_t *s, int x, int y, double rgb[3])
{
    const unsigned char *row = cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s);
    uint32_t px;
    memcpy(&px, row + 4 * x, 4);
    rgb[0] = (px >> 16 & 255) / 255.0, rgb[1] = (px >> 8 & 255) / 255.0, rgb[2] = (px & 255) / 255.0;
}

/* The PNG render_frame_png writes at `png`, loaded (NULL, and a failed
 * check, when it fails): the file is removed first, so that no earlier
 * test's picture is read in its place. */
static cairo_surface_t *rendered(test_ctx *t, const render_camera *cam, const render_colour *colour,
                                 const render_frame *f, const char *png, const char *what)
{
    grains_error err;
    unlink(png);
    grains_status s = render_frame_png(cam, colour, f, png, &err);
    CHECK(t, s == GRAINS_OK, "%s: rendered (%s)", what, s == GRAINS_OK ? "yes" : err.message);
    cairo_surface_t *surface = s == GRAINS_OK ? cairo_image_surface_create_from_png(png) : NULL;
    if (surface && cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        CHECK(t, 0, "%s: the PNG loads", what);
        cairo_surface_destroy(surface);
        surface = NULL;
    }
    return surface;
}

/* The three spheres' frame at `vtp` and the front camera fitted to it,
 * 400 pixels wide; 0 (a failed check) if the frame does not read. */
static int front_view(test_ctx *t, const char *vtp, vtk_polydata *d, render_camera *cam)
{
    grains_error err;
    if (vtk_polydata_read(vtp, d, &err) != GRAINS_OK) {
        CHECK(t, 0, "%s", err.message);
        return 0;
    }
    camera_init(cam, RENDER_FRONT);
    camera_include(cam, d);
    camera_fit(cam, 400);
    return 1;
}

/* The front camera looks along +y: the sphere at y = -0.5 (tag 1, orange)
 * hides the larger one behind it (tag 0, blue) at the centre, the blue one
 * shows in the ring around it, and the corners are background. */
static void picture(test_ctx *t, const char *vtp, const char *png)
{
    vtk_polydata d;
    render_camera cam;
    render_colour colour = {"tag", 0, 1, 1};
    if (!front_view(t, vtp, &d, &cam))
        return;
    /* the spheres span 0.7333 across and 1.1 up (z from -0.3 to 0.8); a
     * margin of 4% of the larger on each side */
    CHECK_REL(t, cam.hi[0] - cam.lo[0], 1.0 / 3 + 0.1 + 0.3 + 0.08 * 1.1, 1e-12, "the fitted width");
    CHECK_REL(t, cam.hi[1] - cam.lo[1], 1.1 * 1.08, 1e-12, "the fitted height");
    render_frame f = {&d, {NULL, NULL}, 0, "test", {0, {0, 0, 0}, {0, 0, 0}}, NULL};
    cairo_surface_t *s = rendered(t, &cam, &colour, &f, png, "three spheres");
    if (!s) {
        vtk_polydata_free(&d);
        return;
    }
    CHECK(t, cairo_image_surface_get_width(s) == 400, "the PNG is 400 pixels wide");
    double x, y, z, c[3], ring[3], corner[3];
    camera_project(&cam, (double[]){0, 0, 0}, &x, &y, &z);
    pixel(s, (int)x, (int)y, c);
    pixel(s, (int)(x + 0.25 * cam.scale), (int)y, ring);
    pixel(s, 2, cam.height - 40, corner);
    CHECK(t, c[0] > c[2] + 0.1, "centre: the nearer orange sphere (rgb %.2f %.2f %.2f)", c[0], c[1], c[2]);
    CHECK(t, ring[2] > ring[0] + 0.1, "ring: the farther blue sphere (rgb %.2f %.2f %.2f)", ring[0], ring[1], ring[2]);
    CHECK(t, corner[0] == 1 && corner[1] == 1 && corner[2] == 1, "corner: background");
    cairo_surface_destroy(s);
    vtk_polydata_free(&d);
}

static void thermo_plot(test_ctx *t, const char *csv, const char *png)
{
    FILE *f = fopen(csv, "w");
    fputs("step,time,N,E_kin\n0,0,1,0.5\n10,0.1,2,0.25\n20,0.2,3,0.125\n", f);
    fclose(f);
    grains_error err;
    unlink(png);
    CHECK(t, render_thermo_png(csv, png, 0, &err) == GRAINS_OK, "thermo plot: %s", err.message);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    int ok = cairo_surface_status(s) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_width(s) > 0;
    size_t coloured = 0; /* (the lines: pixels neither grey nor white; mutation: no series drawn, 0) */
    for (int y = 0; ok && y < cairo_image_surface_get_height(s); y++)
        for (int x = 0; x < cairo_image_surface_get_width(s); x++) {
            double c[3];
            pixel(s, x, y, c);
            coloured += fabs(c[0] - c[1]) > 0.2 || fabs(c[1] - c[2]) > 0.2;
        }
    CHECK(t, ok && coloured > 100, "the plot is a PNG with its lines drawn (%zu coloured pixels)", coloured);
    cairo_surface_destroy(s);
    f = fopen(csv, "w");
    fputs("step,time,N\n0,0,nan\n", f);
    fclose(f);
    CHECK(t, render_thermo_png(csv, png, 0, &err) == GRAINS_ERR_PARSE && strstr(err.message, "3 numbers"),
          "a NaN row is refused: %s", err.message);
    f = fopen(csv, "w"); /* a header of 33 columns: the limit is named */
    for (int c = 0; c < 33; c++)
        fprintf(f, "%sc%d", c ? "," : "", c);
    fputs("\n", f);
    fclose(f);
    CHECK(t, render_thermo_png(csv, png, 0, &err) == GRAINS_ERR_PARSE && strstr(err.message, "3 to 32 columns"),
          "a header of 33 columns is refused, naming the limit: %s", err.message);
}

/* The three spheres with the clip plane y = 0 facing the camera (normal
 * -y): the nearer orange sphere is cut away and the blue one shows at the
 * centre. */
static void clipped(test_ctx *t, const char *vtp, const char *png)
{
    vtk_polydata d;
    render_camera cam;
    render_colour colour = {"tag", 0, 1, 1};
    if (!front_view(t, vtp, &d, &cam))
        return;
    render_frame f = {&d, {NULL, NULL}, 0, NULL, {1, {0, 0, 0}, {0, -1, 0}}, NULL};
    cairo_surface_t *s = rendered(t, &cam, &colour, &f, png, "clipped");
    if (!s) {
        vtk_polydata_free(&d);
        return;
    }
    double x, y, z, c[3];
    camera_project(&cam, (double[]){0, 0, 0}, &x, &y, &z);
    pixel(s, (int)x, (int)y, c);
    CHECK(t, c[2] > c[0] + 0.1, "clipped at y = 0: the farther blue sphere shows at the centre (rgb %.2f %.2f %.2f)",
          c[0], c[1], c[2]);
    cairo_surface_destroy(s);
    vtk_polydata_free(&d);
}

/* A surface of n points and the triangles `tris` (3 indices each) in ASCII VTK. */
static grains_status surface(const double *pts, int n, const int *tris, int m, vtk_polydata *d)
{
    char text[4096];
    int at = snprintf(text, sizeof text, "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
                      "header_type=\"UInt64\">\n<PolyData>\n<Piece NumberOfPoints=\"%d\" NumberOfVerts=\"0\" "
                      "NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"%d\">\n<Points>\n<DataArray "
                      "type=\"Float64\" Name=\"position\" NumberOfComponents=\"3\" format=\"ascii\">", n, m);
    for (int k = 0; k < 3 * n; k++)
        at += snprintf(text + at, sizeof text - (size_t)at, " %g", pts[k]);
    at += snprintf(text + at, sizeof text - (size_t)at, "</DataArray>\n</Points>\n<Polys>\n<DataArray type=\"Int64\" "
                   "Name=\"connectivity\" format=\"ascii\">");
    for (int k = 0; k < 3 * m; k++)
        at += snprintf(text + at, sizeof text - (size_t)at, " %d", tris[k]);
    at += snprintf(text + at, sizeof text - (size_t)at, "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" "
                   "format=\"ascii\">");
    for (int k = 0; k < m; k++)
        at += snprintf(text + at, sizeof text - (size_t)at, " %d", 3 * k + 3);
    snprintf(text + at, sizeof text - (size_t)at, "</DataArray>\n</Polys>\n</Piece>\n</PolyData>\n</VTKFile>\n");
    grains_error err;
    return vtk_polydata_parse(text, strlen(text), "surface", d, &err);
}

/* A unit cube of 12 triangles: 6 faces of 2 triangles, each outlined by
 * its 4 sides (no diagonal); a square of 2 triangles drawn translucent
 * facing the camera: the pixels on its diagonal are those beside it. */
static void faces(test_ctx *t, const char *png)
{
    static const double cube[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
    static const int tris[] = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 5, 1, 0, 4, 5,
                               1, 6, 2, 1, 5, 6, 2, 7, 3, 2, 6, 7, 3, 4, 0, 3, 7, 4};
    vtk_polydata d;
    surface_faces f;
    int whole = surface(cube, 8, tris, 12, &d) == GRAINS_OK && surface_faces_build(&d, &f);
    for (size_t k = 0; whole && k < f.n; k++)
        whole = f.polygon_start[k + 1] - f.polygon_start[k] == 2 && f.edge_start[k + 1] - f.edge_start[k] == 4;
    CHECK(t, whole && f.n == 6, "a cube of 12 triangles: %zu faces of 2 triangles and 4 outline edges each", f.n);
    if (whole)
        surface_faces_free(&f), vtk_polydata_free(&d);
    static const double square[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
    static const int two[] = {0, 1, 2, 0, 2, 3};
    if (surface(square, 4, two, 2, &d) != GRAINS_OK)
        return;
    render_camera cam;
    render_colour colour = {"velocity", 0, 1, 0};
    grains_error err;
    camera_init(&cam, RENDER_FRONT);
    camera_include(&cam, &d);
    camera_fit(&cam, 200);
    render_frame fr = {NULL, {&d, NULL}, 1, NULL, {0, {0, 0, 0}, {0, 0, 0}}, NULL};
    (void)err;
    cairo_surface_t *s = rendered(t, &cam, &colour, &fr, png, "a square");
    if (!s) {
        vtk_polydata_free(&d);
        return;
    }
    double worst = 0, shade = 1, x, y, z, on[3], off[3], out[3];
    for (int k = 1; k < 10; k++) { /* along the diagonal from (0, 0) to (1, 1), and a little above it */
        camera_project(&cam, (double[]){0.1 * k, 0, 0.1 * k}, &x, &y, &z);
        pixel(s, (int)x, (int)y, on);
        pixel(s, (int)x, (int)y - 6, off);
        for (int c = 0; c < 3; c++)
            worst = nan_max(worst, fabs(on[c] - off[c])), shade = nan_min(shade, 1 - off[c]);
    }
    camera_project(&cam, (double[]){1.02, 0, 0.5}, &x, &y, &z); /* beside it, in the margin */
    pixel(s, (int)x + 2, (int)y, out);
    /* (mutation: the faces not drawn left every pixel white and passed the seam check alone) */
    CHECK(t, shade >= 2.0 / 255 && out[0] == 1 && out[1] == 1 && out[2] == 1,
          "the square is drawn: its pixels %.3g darker than the background beside it", shade);
    CHECK(t, worst <= 1.0 / 255, "a translucent square of two triangles: no seam along the diagonal (%.3g)", worst);
    cairo_surface_destroy(s);
    vtk_polydata_free(&d);
}

/* The three spheres through a window 2e-8 across: at the blue sphere's
 * centre it fills the picture; on its top rim (z = 0.3) the rim crosses
 * the middle, blue below and background above; a disc of some 1e10
 * pixels, drawn at once (cairo took minutes a frame to draw it whole:
 * the test's timeout). */
static void zoomed(test_ctx *t, const char *vtp, const char *png)
{
    vtk_polydata d;
    grains_error err;
    render_colour colour = {"tag", 0, 1, 1};
    if (vtk_polydata_read(vtp, &d, &err) != GRAINS_OK) {
        CHECK(t, 0, "%s", err.message);
        return;
    }
    const double at[2][2] = {{0.25, 0.1}, {0, 0.3}}; /* (u, v): inside the blue sphere alone; its top rim */
    for (int k = 0; k < 2; k++) {
        render_camera cam;
        camera_init(&cam, RENDER_FRONT);
        for (int a = 0; a < 2; a++)
            cam.lo[a] = at[k][a] - 1e-8, cam.hi[a] = at[k][a] + 1e-8;
        cam.lo[2] = -1, cam.hi[2] = 1;
        camera_fit(&cam, 200);
        render_frame f = {&d, {NULL, NULL}, 0, NULL, {0, {0, 0, 0}, {0, 0, 0}}, NULL};
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        cairo_surface_t *s = rendered(t, &cam, &colour, &f, png, k ? "the rim zoomed" : "a grain zoomed");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!s)
            continue;
        double low[3], high[3];
        pixel(s, cam.width / 2, cam.height - 10, low);
        pixel(s, cam.width / 2, 10, high);
        int blue_low = low[2] > low[0] + 0.1, blue_high = high[2] > high[0] + 0.1;
        int white_high = high[0] == 1 && high[1] == 1 && high[2] == 1;
        CHECK(t, blue_low && (k ? white_high : blue_high), "%s: blue below (rgb %.2f %.2f %.2f), %s above (rgb %.2f "
              "%.2f %.2f), drawn in %.3g s", k ? "the rim 2e-8 across" : "inside a grain, 2e-8 across", low[0],
              low[1], low[2], k ? "background" : "blue", high[0], high[1], high[2],
              (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        cairo_surface_destroy(s);
    }
    vtk_polydata_free(&d);
}

/* A slice of 2 x 2 cells behind no grain (grains render --slice): each
 * cell's centre takes its value's colour on the map, the NaN cell none
 * (the background), to a unit of the PNG's 8 bits (mutation: the cells
 * drawn in the wrong order, or not at all, fails). */
static void slice_cells(test_ctx *t, const char *png)
{
    render_camera cam;
    camera_init(&cam, RENDER_FRONT);
    cam.lo[0] = cam.lo[1] = cam.lo[2] = 0, cam.hi[0] = cam.hi[1] = cam.hi[2] = 1;
    camera_fit(&cam, 200);
    const double value[4] = {0, 0.3, 1, NAN};
    render_slice sl = {2, 2, {0, 0}, {1, 1}, value, {"density", 0, 1, 0}};
    render_colour colour = {"velocity", 0, 1, 0};
    render_frame f = {NULL, {NULL, NULL}, 0, NULL, {0, {0, 0, 0}, {0, 0, 0}}, &sl};
    cairo_surface_t *s = rendered(t, &cam, &colour, &f, png, "a slice");
    if (!s)
        return;
    double worst = 0;
    for (int k = 0; k < 4; k++) {
        double x, y, got[3], want[3] = {1, 1, 1};
        camera_screen(&cam, 0.25 + 0.5 * (k % 2), 0.25 + 0.5 * (k / 2), &x, &y);
        pixel(s, (int)x, (int)y, got);
        if (isfinite(value[k]))
            render_colour_of(&sl.colour, value[k], want);
        for (int c = 0; c < 3; c++)
            worst = nan_max(worst, fabs(got[c] - want[c]));
    }
    CHECK(t, worst <= 1.0 / 255, "a 2 x 2 slice: each cell its value's colour, the NaN cell blank (to %.3g)", worst);
    cairo_surface_destroy(s);
}

/* A slice under the three spheres shows through them: the grains are
 * drawn as their rims over it, so that the centre of the nearest sphere
 * has the slice's colour (to a unit of the PNG's 8 bits), not the grain's
 * (mutation: the grains filled over the slice, as before, fails); the
 * rim's pixel is darker than the slice. */
static void slice_through(test_ctx *t, const char *vtp, const char *png)
{
    vtk_polydata d;
    render_camera cam;
    if (!front_view(t, vtp, &d, &cam))
        return;
    const double value[1] = {0.3};
    render_slice sl = {1, 1, {cam.lo[0], cam.lo[1]}, {cam.hi[0], cam.hi[1]}, value, {"density", 0, 1, 0}};
    render_colour colour = {"tag", 0, 1, 1};
    render_frame f = {&d, {NULL, NULL}, 0, NULL, {0, {0, 0, 0}, {0, 0, 0}}, &sl};
    cairo_surface_t *s = rendered(t, &cam, &colour, &f, png, "a slice under grains");
    if (s) {
        double x, y, z, got[3], rim[3], want[3], worst = 0;
        render_colour_of(&sl.colour, 0.3, want);
        camera_project(&cam, (double[]){0, -0.5, 0}, &x, &y, &z);
        pixel(s, (int)x, (int)y, got);
        for (int c = 0; c < 3; c++)
            worst = nan_max(worst, fabs(got[c] - want[c]));
        CHECK(t, worst <= 1.0 / 255, "the nearest sphere's centre shows the slice's colour (to %.3g)", worst);
        int edge = 0;
        for (int dx = -3; dx <= 3 && !edge; dx++) { /* (its rim: a pixel about 0.2 x scale to the left) */
            pixel(s, (int)(x - 0.2 * cam.scale) + dx, (int)y, rim);
            edge = rim[0] + rim[1] + rim[2] < want[0] + want[1] + want[2] - 0.05;
        }
        CHECK(t, edge, "its rim is drawn over the slice, darker");
        cairo_surface_destroy(s);
    }
    vtk_polydata_free(&d);
}

/* Bonds are drawn: two grains 0.1 apart (radius 0.04) joined by a Line:
 * the point midway, in the gap between them, is the bond's dark grey; the
 * same frame without its Lines leaves it background (mutation: no bonds
 * drawn fails). */
static void bonds_drawn(test_ctx *t, const char *png)
{
    static const char *head = "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
                              "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<PolyData>\n";
    char text[2048];
    double gap[2][3];
    for (int with = 0; with < 2; with++) {
        snprintf(text, sizeof text,
                 "%s<Piece NumberOfPoints=\"2\" NumberOfVerts=\"0\" NumberOfLines=\"%d\" NumberOfStrips=\"0\" "
                 "NumberOfPolys=\"0\">\n<Points>\n<DataArray type=\"Float64\" Name=\"position\" "
                 "NumberOfComponents=\"3\" format=\"ascii\">0 0 0 0.1 0 0</DataArray>\n</Points>\n<PointData>\n"
                 "<DataArray type=\"Float64\" Name=\"radius\" NumberOfComponents=\"1\" format=\"ascii\">0.04 0.04"
                 "</DataArray>\n</PointData>\n%s</Piece>\n</PolyData>\n</VTKFile>\n", head, with,
                 with ? "<Lines>\n<DataArray type=\"Int64\" Name=\"connectivity\" NumberOfComponents=\"1\" "
                        "format=\"ascii\">0 1</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" "
                        "NumberOfComponents=\"1\" format=\"ascii\">2</DataArray>\n</Lines>\n"
                      : "");
        vtk_polydata d;
        grains_error err;
        if (vtk_polydata_parse(text, strlen(text), "bonds", &d, &err) != GRAINS_OK) {
            CHECK(t, 0, "the bonds' frame parses: %s", err.message);
            return;
        }
        render_camera cam;
        camera_init(&cam, RENDER_FRONT);
        camera_include(&cam, &d);
        camera_fit(&cam, 300);
        render_colour colour = {"tag", 0, 1, 1};
        render_frame f = {&d, {NULL, NULL}, 0, NULL, {0, {0, 0, 0}, {0, 0, 0}}, NULL};
        cairo_surface_t *s = rendered(t, &cam, &colour, &f, png, with ? "a bond" : "no bond");
        double x, y, z;
        camera_project(&cam, (double[]){0.05, 0, 0}, &x, &y, &z);
        gap[with][0] = gap[with][1] = gap[with][2] = -1;
        if (s)
            pixel(s, (int)x, (int)y, gap[with]), cairo_surface_destroy(s);
        vtk_polydata_free(&d);
    }
    CHECK(t, gap[1][0] < 0.3 && gap[1][1] < 0.3 && gap[1][2] < 0.3 && gap[0][0] == 1 && gap[0][1] == 1 && gap[0][2] == 1,
          "the gap between two bonded grains shows the bond (rgb %.2f %.2f %.2f), unbonded the background (%.2f)",
          gap[1][0], gap[1][1], gap[1][2], gap[0][0]);
}

/* The legends say their field's unit: SI, by the field or its component. */
static void legend_units(test_ctx *t)
{
    char a[96], b[96], c[96], e[96];
    render_legend_text(&(render_colour){"velocity", 0, 1.5, 0}, a, sizeof a);
    render_legend_text(&(render_colour){"stress_zz", -10, 0, 0}, b, sizeof b);
    render_legend_text(&(render_colour){"angular_velocity", 0, 2, 0}, c, sizeof c);
    render_legend_text(&(render_colour){"tag", 0, 7, 1}, e, sizeof e);
    CHECK(t, strcmp(a, "velocity [m/s]  0 .. 1.5") == 0 && strcmp(b, "stress_zz [Pa]  -10 .. 0") == 0 &&
          strcmp(c, "angular_velocity [1/s]  0 .. 2") == 0 && strcmp(e, "tag: 0 1 2 3 4 5 6 7") == 0,
          "legends with units: '%s', '%s', '%s', '%s'", a, b, c, e);
}

/* A PNG path that is a FIFO is refused at once, never opened (a plain
 * write would block for ever); one that is a symlink is replaced by the
 * picture, the file it pointed to left as it was. */
static void png_paths(test_ctx *t, const char *dir, const char *csv)
{
    char fifo[128], link[128], target[128];
    snprintf(fifo, sizeof fifo, "%s/fifo.png", dir);
    snprintf(link, sizeof link, "%s/link.png", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    grains_error err;
    FILE *f = fopen(target, "w");
    fputs("keep", f);
    fclose(f);
    if (mkfifo(fifo, 0600) != 0 || symlink(target, link) != 0) {
        CHECK(t, 0, "a FIFO and a symlink to test with");
        return;
    }
    grains_status s = render_thermo_png(csv, fifo, 0, &err);
    struct stat st;
    CHECK(t, s == GRAINS_ERR_IO && strstr(err.message, "not a regular file") && stat(fifo, &st) == 0 &&
          S_ISFIFO(st.st_mode), "a plot into a FIFO is refused, the FIFO left: %s", err.message);
    s = render_thermo_png(csv, link, 0, &err);
    char kept[8] = {0};
    f = fopen(target, "r");
    size_t n = f ? fread(kept, 1, sizeof kept - 1, f) : 0;
    if (f)
        fclose(f);
    CHECK(t, s == GRAINS_OK && lstat(link, &st) == 0 && S_ISREG(st.st_mode) && n == 4 && strcmp(kept, "keep") == 0,
          "a plot onto a symlink replaces the link, the file it named unchanged (%s)", kept);
    unlink(fifo), unlink(link), unlink(target);
}

/* Ticks at multiples of 1, 2 or 5 times a power of ten, inside the range. */
static void ticks(test_ctx *t)
{
    double v[32];
    int n = plot_ticks(0, 0.145, 5, v, 32), round = n >= 4 && n <= 10;
    for (int k = 0; k < n; k++)
        round = round && v[k] >= 0 && v[k] <= 0.145 && fabs(v[k] / 0.02 - floor(v[k] / 0.02 + 0.5)) < 1e-9;
    CHECK(t, round, "ticks of [0, 0.145]: %d at multiples of 0.02", n);
}

/* A scene four times taller than wide at the largest --width: its image
 * is held to CAMERA_MAX_SIDE pixels high (8192 x 25722 pixels, 812 MB,
 * before), narrower in proportion, the scene still fitted whole. */
static void tall_scene(test_ctx *t)
{
    render_camera cam;
    camera_init(&cam, RENDER_FRONT);
    cam.lo[0] = 0, cam.hi[0] = 0.1, cam.lo[1] = 0, cam.hi[1] = 0.4, cam.lo[2] = cam.hi[2] = 0;
    camera_fit(&cam, CAMERA_MAX_SIDE);
    CHECK(t, cam.height <= CAMERA_MAX_SIDE && cam.width <= CAMERA_MAX_SIDE / 3, "a tall scene: %d x %d pixels",
          cam.width, cam.height);
    CHECK(t, (cam.hi[1] - cam.lo[1]) * cam.scale <= cam.height + 1e-9, "the tall scene fits its image");
}

int main(void)
{
    test_ctx t = {0};
    char dir[] = "/tmp/grains-render-XXXXXX", vtp[64], png[64], csv[64];
    if (!mkdtemp(dir))
        return 1;
    snprintf(vtp, sizeof vtp, "%s/p.vtp", dir);
    snprintf(png, sizeof png, "%s/p.png", dir);
    snprintf(csv, sizeof csv, "%s/thermo.csv", dir);
    grains_sim *sim = three_spheres();
    reads_back(&t, sim, GRAINS_VTK_ASCII, vtp);
    truncations_refused(&t, vtp);
    reads_back(&t, sim, GRAINS_VTK_BINARY, vtp);
    truncations_refused(&t, vtp);
    reads_back(&t, sim, GRAINS_VTK_COMPRESSED, vtp);
    truncations_refused(&t, vtp);
    picture(&t, vtp, png);
    clipped(&t, vtp, png);
    faces(&t, png);
    zoomed(&t, vtp, png);
    slice_cells(&t, png);
    slice_through(&t, vtp, png);
    legend_units(&t);
    bonds_drawn(&t, png);
    ticks(&t);
    tall_scene(&t);
    zeros_refused(&t);
    counts_unbacked(&t);
    thermo_plot(&t, csv, png);
    FILE *f = fopen(csv, "w");
    fputs("step,time,N\n0,0,1\n10,0.1,2\n", f);
    fclose(f);
    png_paths(&t, dir, csv);
    grains_sim_destroy(sim);
    unlink(vtp), unlink(png), unlink(csv), rmdir(dir);
    return test_report(&t, "test_render");
}
