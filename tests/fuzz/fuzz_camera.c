/* Fuzzes grains render's options where they reach the drawing: a camera's
 * box (--box), the picture's width (--width), a view, and a few grains of
 * any place and radius, from the input's doubles and bytes, drawn as a PNG.
 * What must hold: the picture is drawn or refused within the harness's
 * timeout (a box of 1e-300 drew a disc of 1e300 pixels for minutes), no
 * sanitizer's report. */
#include <math.h>

#include "fuzz_input.h"
#include "io/vtk_read.h"
#include "render/render.h"

static double next_double(const uint8_t *data, size_t size, size_t *at)
{
    double x = 0;
    if (*at + sizeof x <= size)
        memcpy(&x, data + *at, sizeof x);
    *at += sizeof x;
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0;
    unsigned view = size ? data[at++] % 4 : 0, width = size > 1 ? 64 + data[at++] % 64 : 64;
    double box[6];
    for (int k = 0; k < 6; k++)
        box[k] = next_double(data, size, &at);
    char text[4096], *p = text, *end = text + sizeof text;
    enum { N = 3 };
    double x[3 * N], r[N];
    for (int k = 0; k < 3 * N; k++)
        x[k] = next_double(data, size, &at);
    for (int k = 0; k < N; k++)
        r[k] = next_double(data, size, &at);
    p += snprintf(p, (size_t)(end - p), "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
                  "header_type=\"UInt64\">\n<PolyData>\n<Piece NumberOfPoints=\"%d\" NumberOfVerts=\"0\" "
                  "NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n<Points>\n<DataArray "
                  "type=\"Float64\" Name=\"position\" NumberOfComponents=\"3\" format=\"ascii\">", N);
    for (int k = 0; k < 3 * N; k++)
        p += snprintf(p, (size_t)(end - p), " %.17g", x[k]);
    p += snprintf(p, (size_t)(end - p), "</DataArray>\n</Points>\n<PointData>\n<DataArray type=\"Float64\" "
                  "Name=\"radius\" NumberOfComponents=\"1\" format=\"ascii\">");
    for (int k = 0; k < N; k++)
        p += snprintf(p, (size_t)(end - p), " %.17g", r[k]);
    snprintf(p, (size_t)(end - p), "</DataArray>\n</PointData>\n</Piece>\n</PolyData>\n</VTKFile>\n");
    vtk_polydata d;
    grains_error err;
    if (vtk_polydata_parse(text, strlen(text), "fuzz", &d, &err) != GRAINS_OK)
        return 0;
    render_camera cam;
    camera_init(&cam, (render_view)view);
    int finite = 1;
    for (int k = 0; k < 6; k++)
        finite = finite && isfinite(box[k]);
    if (finite && box[3] > box[0] && box[4] > box[1] && box[5] > box[2])
        camera_include_box(&cam, box, box + 3); /* (what --box takes: finite numbers, max > min) */
    else
        camera_include(&cam, &d);
    camera_fit(&cam, (int)width);
    render_colour colour = {"radius", 0, 1, 0};
    render_frame f = {&d, {NULL, NULL}, 0, NULL, {0, {0, 0, 0}, {0, 0, 0}}, NULL};
    render_frame_png(&cam, &colour, &f, fuzz_output(".png"), &err);
    vtk_polydata_free(&d);
    return 0;
}
