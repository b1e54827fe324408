/* A coarse-grained field behind the grains (cli/render_slice.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/render_slice.h"
#include "io/cg_read.h"

int slice_parse(const char *spec, slice_opts *o)
{
    static const char *const vec[] = {"x", "y", "z"};
    static const char *const ten[] = {"xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"};
    o->spec = spec;
    for (int f = 0; f < GRAINS_CG_N_FIELDS; f++) {
        const char *name = grains_cg_name((grains_cg_field)f);
        size_t n = strlen(name);
        int comps = grains_cg_width((grains_cg_field)f);
        if (strncmp(spec, name, n) != 0)
            continue;
        o->field = (grains_cg_field)f;
        if (spec[n] == '\0')
            return (o->component = comps == 1 ? 0 : -1), 1;
        for (int c = 0; spec[n] == '_' && c < comps && comps > 1; c++)
            if (strcmp(spec + n + 1, comps == 3 ? vec[c] : ten[c]) == 0)
                return (o->component = c), 1;
    }
    return 0;
}

/* The grid: the camera's u, v and w as its axes, w averaged over the
 * scene's depth; square cells, `cells` of them across. */
static grains_cg_grid slice_grid(const slice_opts *o, const render_camera *cam)
{
    double du = (cam->hi[0] - cam->lo[0]) / o->cells;
    int nv = (int)fmin(1024, fmax(1, ceil((cam->hi[1] - cam->lo[1]) / du)));
    grains_cg_grid g = {{cam->lo[0], cam->lo[1], cam->lo[2] - du}, {cam->hi[0], cam->lo[1] + nv * du, cam->hi[2] + du},
                        {o->cells, nv, 1}, {0, 0, 1}, GRAINS_CG_GAUSSIAN, o->width > 0 ? o->width : du,
                        {{cam->u[0], cam->u[1], cam->u[2]}, {cam->v[0], cam->v[1], cam->v[2]},
                         {cam->w[0], cam->w[1], cam->w[2]}},
                        {0, 0, 0}};
    return g;
}

/* The chosen value of a cell: the field in x, y, z (E^T V, E^T T E for the
 * grid's axes E), its component, magnitude or mean normal. */
static double cell_value(const slice_opts *o, const grains_cg_grid *g, const double *cell)
{
    const double *v = cell + grains_cg_offset(o->field);
    int comps = grains_cg_width(o->field);
    const double E[3][3] = {{g->axis[0].x, g->axis[0].y, g->axis[0].z}, {g->axis[1].x, g->axis[1].y, g->axis[1].z},
                            {g->axis[2].x, g->axis[2].y, g->axis[2].z}};
    double w[9] = {0};
    if (comps == 1)
        return v[0];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < (comps == 9 ? 3 : 1); b++)
            for (int r = 0; r < 3; r++)
                for (int s = 0; s < (comps == 9 ? 3 : 1); s++)
                    w[comps == 9 ? 3 * a + b : a] += comps == 9 ? E[r][a] * v[3 * r + s] * E[s][b] : E[r][a] * v[r];
    if (o->component >= 0)
        return w[o->component];
    return comps == 3 ? sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) : (w[0] + w[4] + w[8]) / 3;
}

grains_status slice_make(const slice_opts *o, const render_camera *cam, const char *particles, const char *contacts,
                         render_slice *out, double **values, grains_error *err)
{
    grains_cg_grid g = slice_grid(o, cam);
    grains_cg *cg = NULL;
    cg_frame_in f;
    *values = NULL;
    grains_status s = cg_frame_read(particles, contacts, 0, &f, err);
    if (s == GRAINS_OK && (s = grains_cg_create(&cg, &g, err)) == GRAINS_OK)
        s = grains_cg_add_frame(cg, &f.frame, err);
    size_t cells = cg ? grains_cg_cells(cg) : 0;
    double *mean = s == GRAINS_OK ? malloc(cells * GRAINS_CG_COMPONENTS * sizeof *mean) : NULL;
    double *v = mean ? malloc(cells * sizeof *v) : NULL;
    if (s == GRAINS_OK && !v)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, particles, 0, "out of memory for the slice");
    double lo = INFINITY, hi = -INFINITY;
    if (s == GRAINS_OK) {
        grains_cg_mean(cg, mean);
        for (size_t c = 0; c < cells; c++) { /* blank where no grain reaches */
            const double *cell = mean + c * GRAINS_CG_COMPONENTS;
            v[c] = cell[grains_cg_offset(GRAINS_CG_DENSITY)] > 0 ? cell_value(o, &g, cell) : NAN;
            if (isfinite(v[c]))
                lo = fmin(lo, v[c]), hi = fmax(hi, v[c]);
        }
        *out = (render_slice){g.n[0], g.n[1], {g.lo.x, g.lo.y}, {g.hi.x, g.hi.y}, v,
                              {o->spec, o->has_range ? o->lo : lo, o->has_range ? o->hi : hi, 0}};
        *values = v, v = NULL;
    }
    free(mean), free(v);
    grains_cg_destroy(cg);
    if (f.x)
        cg_frame_free(&f);
    return s;
}
