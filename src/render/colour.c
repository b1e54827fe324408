/* Colouring particles by a field (render/render.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"

int render_field_values(const vtk_polydata *d, const char *field, double *out)
{
    const vtk_array_in *a = vtk_polydata_array(d, VTK_IN_POINT_DATA, field);
    if (!a || a->tuples != d->points)
        return 0;
    for (size_t i = 0; i < a->tuples; i++) {
        double s = 0;
        for (int k = 0; k < a->comps; k++)
            s += a->v[i * (size_t)a->comps + (size_t)k] * a->v[i * (size_t)a->comps + (size_t)k];
        out[i] = a->comps == 1 ? a->v[i] : sqrt(s);
    }
    return 1;
}

/* Control points of a dark-blue, teal, green, yellow map (viridis-like:
 * brightness rises monotonically, so it reads in grey too). */
static const double ramp[5][3] = {
    {0.267, 0.005, 0.329}, {0.231, 0.322, 0.545}, {0.129, 0.569, 0.549}, {0.369, 0.788, 0.384}, {0.993, 0.906, 0.144}};

/* Distinct colours for tags and materials (Okabe-Ito, colour-blind safe). */
static const double palette[8][3] = {{0.00, 0.45, 0.70}, {0.90, 0.62, 0.00}, {0.00, 0.62, 0.45}, {0.80, 0.40, 0.00},
                                     {0.35, 0.70, 0.90}, {0.80, 0.60, 0.70}, {0.94, 0.89, 0.26}, {0.40, 0.40, 0.40}};

void render_colour_of(const render_colour *c, double x, double rgb[3])
{
    if (c->categorical) {
        double m = fmod(fabs(isfinite(x) ? round(x) : 0), 8);
        memcpy(rgb, palette[(int)m], 3 * sizeof *rgb);
        return;
    }
    double t = c->hi > c->lo ? (x - c->lo) / (c->hi - c->lo) : 0.5;
    t = isfinite(t) ? fmin(fmax(t, 0), 1) * 4 : 0;
    int k = t >= 4 ? 3 : (int)t;
    for (int j = 0; j < 3; j++)
        rgb[j] = ramp[k][j] + (t - k) * (ramp[k + 1][j] - ramp[k][j]);
}

const char *render_unit(const char *field)
{
    /* (longest names first: "stress_kinetic" before "stress", "velocity" after "angular_velocity") */
    static const char *const units[][2] = {
        {"angular_velocity", "1/s"}, {"number_density", "1/m^3"}, {"solid_fraction", "-"}, {"coordination", "-"},
        {"contact_force", "N"},      {"density", "kg/m^3"},       {"momentum", "kg/(m^2 s)"}, {"velocity", "m/s"},
        {"stress", "Pa"},            {"radius", "m"},             {"mass", "kg"},           {"overlap", "m"},
        {"normal_force", "N"},       {"force", "N"}};
    for (size_t k = 0; field && k < sizeof units / sizeof *units; k++)
        if (strncmp(field, units[k][0], strlen(units[k][0])) == 0)
            return units[k][1];
    return "";
}

void render_legend_text(const render_colour *c, char *buf, size_t size)
{
    const char *unit = render_unit(c->field);
    if (c->categorical)
        snprintf(buf, size, "%s: 0 1 2 3 4 5 6 7", c->field);
    else if (*unit)
        snprintf(buf, size, "%s [%s]  %.3g .. %.3g", c->field, unit, c->lo, c->hi);
    else
        snprintf(buf, size, "%s  %.3g .. %.3g", c->field, c->lo, c->hi);
}
