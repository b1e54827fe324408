/* Coarse-grained fields, averaged over frames (grains/fields.h; after
 * Weinhart et al. 2012: density, momentum, the kinetic stress from the
 * velocities less the field's, the contact stress along each branch). A
 * frame's grains and contacts go to their cells' sums through the kernel's
 * weights; the sums give the frame's fields; the frames' fields give their
 * mean and the spread about it (Welford's running sums). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cg/kernel.h"

#define CG_MAX_CELLS ((size_t)1 << 21)
#define CG_MAX_PER_AXIS 1024
#define CG_MAX_QUADRATURE 64
/* A kernel's reach in cells along an axis, and the nodes it covers: a
 * wider kernel is a larger grid's. Every grain and every point along a
 * branch visits all the nodes in reach, so 262,144 of them (a 3D kernel
 * reaching 31 cells each way: cells of a tenth of a Gaussian's width)
 * already cost 2.6e10 visits a frame of 10^5 grains; more is cells far
 * finer than the kernel resolves. */
#define CG_MAX_REACH_CELLS 512
#define CG_MAX_STENCIL ((size_t)1 << 18)
/* The work between two questions whether to stop (grains_cg_ask_stop), in
 * nodes visited and cells filled: a few ms. */
#define CG_ASK_EVERY ((size_t)1 << 16)

/* A frame's sums in a cell: mass, mass times velocity, mass times each
 * product of velocities (xx, xy, xz, yy, yz, zz), grains, contacts, volume. */
enum { S_M, S_MV = 1, S_MVV = 4, S_N = 10, S_Z, S_VOL, N_SUMS };

struct grains_cg {
    cg_kernel k;
    double axis[3][3]; /* rows: the grid's axes in x, y, z */
    size_t cells, frames;
    double cell_volume;
    double *sums;    /* per cell N_SUMS */
    double *contact; /* per cell 9: the branches times the forces */
    double *frame;   /* per cell GRAINS_CG_COMPONENTS: this frame's fields */
    double *mean, *m2;
    size_t *at;      /* a point's nodes and weights (cg_kernel_weights), and their scratch */
    double *w, *scratch;
    grains_stop_asked stop_asked; /* (grains_cg_ask_stop) */
    void *stop_ctx;
    size_t work;  /* the work since the last question (CG_ASK_EVERY) */
    int contacts; /* the frames' contacts: given with every one (1), with none (0) */
};

#define CG_WIDTH(id, name, comps, doc) case GRAINS_CG_##id: return comps;
#define CG_NAME(id, name, comps, doc) case GRAINS_CG_##id: return name;

int grains_cg_offset(grains_cg_field f)
{
    if (f < 0 || f >= GRAINS_CG_N_FIELDS)
        return -1;
    int at = 0;
    for (int k = 0; k < (int)f; k++)
        at += grains_cg_width((grains_cg_field)k);
    return at;
}

int grains_cg_width(grains_cg_field f)
{
    switch (f) { GRAINS_CG_FIELD_LIST(CG_WIDTH) default: return 0; }
}

const char *grains_cg_name(grains_cg_field f)
{
    switch (f) { GRAINS_CG_FIELD_LIST(CG_NAME) default: return NULL; }
}

static int zero(grains_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

static double dot(grains_vec3 a, grains_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/* The grid's axes, orthonormal to 1e-9, or none given. */
static int axes_valid(const grains_cg_grid *g)
{
    if (zero(g->axis[0]) && zero(g->axis[1]) && zero(g->axis[2]))
        return 1;
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++)
            if (!(fabs(dot(g->axis[a], g->axis[b]) - (a == b)) <= 1e-9))
                return 0;
    return 1;
}

/* The kernel's reach in cells along each axis kept, and the nodes it
 * covers, within bounds (before an int or a size holds them); the cells'
 * volume a double can divide by (a grid of 1e-150 has none). */
static grains_status check_reach(const grains_cg_grid *g, const double *lo, const double *hi, grains_error *err)
{
    double reach = (g->kernel == GRAINS_CG_GAUSSIAN ? 3 : 2) * g->width, stencil = 1, volume = 1;
    for (int a = 0; a < 3; a++) {
        double cell = (hi[a] - lo[a]) / g->n[a], cells = reach / cell;
        volume *= cell;
        if (g->averaged[a])
            continue;
        if (!(cells <= CG_MAX_REACH_CELLS))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the kernel of width %g reaches %.3g "
                                    "cells of %g along %c: at most %d (a narrower kernel, or larger cells)", g->width,
                                    cells, cell, "xyz"[a], CG_MAX_REACH_CELLS);
        stencil *= 2 * ceil(cells) + 1;
    }
    if (stencil > (double)CG_MAX_STENCIL)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the kernel of width %g covers %.3g nodes of "
                                "the grid around each grain: at most %zu (a narrower kernel, or larger cells)",
                                g->width, stencil, CG_MAX_STENCIL);
    if (!(isnormal(volume) && isfinite(1 / volume)))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: cells of volume %g: beyond the range of "
                                "numbers the fields are divided by (a grid of a sensible size in the run's units)",
                                volume);
    return GRAINS_OK;
}

static grains_status check_grid(const grains_cg_grid *g, grains_error *err)
{
    const double lo[3] = {g->lo.x, g->lo.y, g->lo.z}, hi[3] = {g->hi.x, g->hi.y, g->hi.z};
    const char *axis = "xyz";
    size_t cells = 1;
    for (int a = 0; a < 3; a++) {
        if (!(isfinite(lo[a]) && isfinite(hi[a]) && hi[a] > lo[a]))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the grid has no extent along %c "
                                    "(%g to %g)", axis[a], lo[a], hi[a]);
        if (g->periodic[a] && !g->averaged[a])
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: periodic along %c, which is not "
                                    "averaged: a periodic span is taken along averaged axes only", axis[a]);
        if (g->n[a] < 1 || g->n[a] > CG_MAX_PER_AXIS || (g->averaged[a] && g->n[a] != 1))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: %d cells along %c: 1 to %d, and 1 "
                                    "along an averaged axis", g->n[a], axis[a], CG_MAX_PER_AXIS);
        double cell = (hi[a] - lo[a]) / g->n[a];
        if (!g->averaged[a] && !(isfinite(g->width) && g->width >= cell / 2))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the width %g does not reach the "
                                    "nodes: at least half a cell (%g along %c)", g->width, cell / 2, axis[a]);
        cells *= (size_t)g->n[a];
    }
    if (!(g->width > 0 && isfinite(g->width)) || (g->kernel != GRAINS_CG_GAUSSIAN && g->kernel != GRAINS_CG_LUCY))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: a width > 0 and a Gaussian or Lucy kernel");
    if (cells > CG_MAX_CELLS)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: %zu cells, more than %zu", cells,
                                CG_MAX_CELLS);
    if (!axes_valid(g))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the grid's axes are not orthonormal");
    return check_reach(g, lo, hi, err);
}

grains_status grains_cg_create(grains_cg **out, const grains_cg_grid *grid, grains_error *err)
{
    *out = NULL;
    grains_status s = check_grid(grid, err);
    if (s != GRAINS_OK)
        return s;
    grains_cg *cg = calloc(1, sizeof *cg);
    if (cg) {
        cg_kernel_init(&cg->k, grid);
        int own = !zero(grid->axis[0]);
        for (int a = 0; a < 3; a++) {
            grains_vec3 e = own ? grid->axis[a] : (grains_vec3){a == 0, a == 1, a == 2};
            cg->axis[a][0] = e.x, cg->axis[a][1] = e.y, cg->axis[a][2] = e.z;
            cg->k.grid.axis[a] = e;
        }
        cg->cells = (size_t)grid->n[0] * (size_t)grid->n[1] * (size_t)grid->n[2];
        cg->cell_volume = cg->k.cell[0] * cg->k.cell[1] * cg->k.cell[2];
        cg->sums = malloc(cg->cells * N_SUMS * sizeof *cg->sums);
        cg->contact = malloc(cg->cells * 9 * sizeof *cg->contact);
        cg->frame = malloc(cg->cells * GRAINS_CG_COMPONENTS * sizeof *cg->frame);
        cg->mean = calloc(cg->cells * GRAINS_CG_COMPONENTS, sizeof *cg->mean);
        cg->m2 = calloc(cg->cells * GRAINS_CG_COMPONENTS, sizeof *cg->m2);
        cg->at = malloc(cg->k.stencil * sizeof *cg->at);
        cg->w = malloc(cg->k.stencil * sizeof *cg->w);
        cg->scratch = malloc(6 * cg->k.row * sizeof *cg->scratch);
    }
    if (!cg || !cg->sums || !cg->contact || !cg->frame || !cg->mean || !cg->m2 || !cg->at || !cg->w || !cg->scratch) {
        size_t stencil = cg ? cg->k.stencil : 0;
        grains_cg_destroy(cg);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the fields' %d x %d x %d cells "
                                "or the kernel's %zu nodes around a grain", grid->n[0], grid->n[1], grid->n[2],
                                stencil);
    }
    *out = cg;
    return GRAINS_OK;
}

void grains_cg_destroy(grains_cg *cg)
{
    if (!cg)
        return;
    free(cg->sums), free(cg->contact), free(cg->frame), free(cg->mean), free(cg->m2), free(cg->at), free(cg->w);
    free(cg->scratch);
    free(cg);
}

/* value[0 .. n) times each weight of the point p into the first n of the
 * per-cell arrays of `stride` values at `to`. */
static void spread(grains_cg *cg, const double p[3], const double *value, int n, double *to, int stride)
{
    size_t m = cg_kernel_weights(&cg->k, p, cg->at, cg->w, cg->scratch);
    for (size_t q = 0; q < m; q++) {
        double *cell = to + cg->at[q] * (size_t)stride;
        for (int c = 0; c < n; c++)
            cell[c] += cg->w[q] * value[c];
    }
}

static int finite3(grains_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* u in the grid's axes. */
static grains_vec3 in_axes(const grains_cg *cg, grains_vec3 u)
{
    const double(*e)[3] = cg->axis;
    return (grains_vec3){e[0][0] * u.x + e[0][1] * u.y + e[0][2] * u.z, e[1][0] * u.x + e[1][1] * u.y + e[1][2] * u.z,
                         e[2][0] * u.x + e[2][1] * u.y + e[2][2] * u.z};
}

/* Grain i's sums to its cells. */
static void spread_grain(grains_cg *cg, const grains_cg_frame *f, size_t i)
{
    grains_vec3 v = in_axes(cg, f->v[i]), x = in_axes(cg, f->x[i]);
    double m = f->mass[i];
    double value[N_SUMS] = {m, m * v.x, m * v.y, m * v.z, m * v.x * v.x, m * v.x * v.y, m * v.x * v.z,
                            m * v.y * v.y, m * v.y * v.z, m * v.z * v.z, 1, f->coordination ? f->coordination[i] : 0,
                            f->volume[i]};
    const double p[3] = {x.x, x.y, x.z};
    spread(cg, p, value, N_SUMS, cg->sums, N_SUMS);
}

void grains_cg_ask_stop(grains_cg *cg, grains_stop_asked asked, void *ctx)
{
    cg->stop_asked = asked, cg->stop_ctx = ctx;
}

/* After `work` more (nodes visited, cells filled): whether to stop
 * (grains_cg_ask_stop), asked once every CG_ASK_EVERY of work, so that a
 * wide kernel's few grains or one long branch are stopped within too. */
static int stop_now(grains_cg *cg, size_t work)
{
    cg->work += work;
    if (cg->work < CG_ASK_EVERY)
        return 0;
    cg->work = 0;
    return cg->stop_asked && cg->stop_asked(cg->stop_ctx);
}

/* A contact's branch times its force along the branch (the line integral
 * of the kernel from x_a to x_b, by the midpoint rule at points w/2 apart,
 * CG_MAX_QUADRATURE of them at most: a branch beyond 32w, a stretched bond's,
 * is sampled more coarsely; each point's share still sums exactly); 0
 * when asked to stop part-way. */
static int spread_contact(grains_cg *cg, const grains_cg_contact *c)
{
    grains_vec3 a = in_axes(cg, c->x_a), branch = in_axes(cg, (grains_vec3){c->x_b.x - c->x_a.x, c->x_b.y - c->x_a.y,
                                                                          c->x_b.z - c->x_a.z}), force = in_axes(cg, c->f);
    double b[3] = {branch.x, branch.y, branch.z}, f[3] = {force.x, force.y, force.z};
    double length = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    int n = (int)fmin(CG_MAX_QUADRATURE, fmax(1, ceil(length / (cg->k.grid.width / 2))));
    double value[9];
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            value[3 * r + s] = b[r] * f[s] / n;
    for (int q = 0; q < n; q++) {
        double t = (q + 0.5) / n, p[3] = {a.x + t * b[0], a.y + t * b[1], a.z + t * b[2]};
        spread(cg, p, value, 9, cg->contact, 9);
        if (stop_now(cg, cg->k.stencil))
            return 0;
    }
    return 1;
}

/* The first value of the frame that is not finite (or a mass that is not
 * positive), named in err. */
static grains_status check_frame(const grains_cg_frame *f, grains_error *err)
{
    for (size_t i = 0; i < f->n; i++)
        if (!finite3(f->x[i]) || !finite3(f->v[i]) || !(f->mass[i] > 0 && isfinite(f->mass[i])) ||
            !(f->volume[i] >= 0 && isfinite(f->volume[i])) || (f->coordination && f->coordination[i] < 0))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: grain %zu has a value that is not "
                                    "finite, a mass <= 0 or a negative volume or coordination", i);
    for (size_t c = 0; c < f->n_contacts; c++)
        if (!finite3(f->contacts[c].x_a) || !finite3(f->contacts[c].x_b) || !finite3(f->contacts[c].f))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: contact %zu is not finite", c);
    return GRAINS_OK;
}

/* A cell's sums into its fields. */
static void cell_fields(const double *s, const double *contact, double volume, double *out)
{
    double rho = s[S_M] / volume, j[3] = {s[S_MV] / volume, s[S_MV + 1] / volume, s[S_MV + 2] / volume};
    double *vel = out + grains_cg_offset(GRAINS_CG_VELOCITY), *kin = out + grains_cg_offset(GRAINS_CG_STRESS_KINETIC);
    double *con = out + grains_cg_offset(GRAINS_CG_STRESS_CONTACT), *all = out + grains_cg_offset(GRAINS_CG_STRESS);
    static const int sym[9] = {0, 1, 2, 1, 3, 4, 2, 4, 5}; /* row-major (r, s) into the sums' xx, xy, xz, yy, yz, zz */
    out[grains_cg_offset(GRAINS_CG_DENSITY)] = rho;
    for (int a = 0; a < 3; a++) {
        out[grains_cg_offset(GRAINS_CG_MOMENTUM) + a] = j[a];
        vel[a] = rho > 0 ? j[a] / rho : 0;
    }
    out[grains_cg_offset(GRAINS_CG_NUMBER)] = s[S_N] / volume;
    out[grains_cg_offset(GRAINS_CG_COORDINATION)] = s[S_N] > 0 ? s[S_Z] / s[S_N] : 0;
    out[grains_cg_offset(GRAINS_CG_SOLID_FRACTION)] = s[S_VOL] / volume;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) { /* -(sum m v v - rho V V): tension positive */
            int e = 3 * r + c;
            kin[e] = -(s[S_MVV + sym[e]] / volume - (rho > 0 ? j[r] * j[c] / rho : 0));
            con[e] = contact[e] / volume;
            all[e] = kin[e] + con[e];
        }
}

/* Whether the frame's fields (cg->frame, every cell) and the running mean
 * and squares they would give are all finite: values of 1e300 are finite,
 * their squares and products are not. */
static int frame_finite(const grains_cg *cg)
{
    size_t K = GRAINS_CG_COMPONENTS, n = cg->frames + 1;
    for (size_t c = 0; c < cg->cells * K; c++) {
        double x = cg->frame[c], d = x - cg->mean[c], mean = cg->mean[c] + d / (double)n;
        if (!isfinite(x) || !isfinite(mean) || !isfinite(cg->m2[c] + d * (x - mean)))
            return 0;
    }
    return 1;
}

/* The frame's grains and contacts into the cells' sums, and those into
 * the frame's fields (cg->frame); 0 when asked to stop part-way. */
static int frame_fields(grains_cg *cg, const grains_cg_frame *f)
{
    memset(cg->sums, 0, cg->cells * N_SUMS * sizeof *cg->sums);
    memset(cg->contact, 0, cg->cells * 9 * sizeof *cg->contact);
    for (size_t i = 0; i < f->n; i++)
        if (spread_grain(cg, f, i), stop_now(cg, cg->k.stencil))
            return 0;
    for (size_t c = 0; c < f->n_contacts; c++)
        if (!spread_contact(cg, &f->contacts[c]))
            return 0;
    size_t K = GRAINS_CG_COMPONENTS;
    for (size_t cell = 0; cell < cg->cells; cell++)
        if (cell_fields(cg->sums + cell * N_SUMS, cg->contact + cell * 9, cg->cell_volume, cg->frame + cell * K),
            stop_now(cg, 1))
            return 0;
    return 1;
}

grains_status grains_cg_add_frame(grains_cg *cg, const grains_cg_frame *f, grains_error *err)
{
    int contacts = f->coordination != NULL || f->n_contacts > 0;
    if (cg->frames && contacts != cg->contacts)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "fields: a frame %s contacts after %zu frames %s: the "
                                "contact fields come from every frame or none", contacts ? "with" : "without",
                                cg->frames, contacts ? "without" : "with");
    grains_status s = check_frame(f, err);
    if (s != GRAINS_OK)
        return s;
    if (!frame_fields(cg, f))
        return grains_error_set(err, GRAINS_ERR_STOPPED, NULL, 0, "fields: stopped on request part-way through a "
                                "frame: the averages keep the %zu frames before it", cg->frames);
    size_t K = GRAINS_CG_COMPONENTS;
    if (!frame_finite(cg)) /* (the averages keep the frames before it) */
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "fields: the frame's fields are beyond the range of "
                                "numbers (velocities, forces or masses whose products overflow): not added");
    cg->frames++;
    cg->contacts = contacts;
    for (size_t c = 0; c < cg->cells * K; c++) { /* Welford: the mean and the squares about it */
        double d = cg->frame[c] - cg->mean[c];
        cg->mean[c] += d / (double)cg->frames;
        cg->m2[c] += d * (cg->frame[c] - cg->mean[c]);
    }
    return GRAINS_OK;
}

size_t grains_cg_cells(const grains_cg *cg) { return cg->cells; }

size_t grains_cg_frames(const grains_cg *cg) { return cg->frames; }

int grains_cg_has_field(const grains_cg *cg, grains_cg_field f)
{
    int of_contacts = f == GRAINS_CG_COORDINATION || f == GRAINS_CG_STRESS_CONTACT || f == GRAINS_CG_STRESS;
    return f >= 0 && f < GRAINS_CG_N_FIELDS && (!of_contacts || !cg->frames || cg->contacts);
}

void grains_cg_mean(const grains_cg *cg, double *out)
{
    memcpy(out, cg->mean, cg->cells * GRAINS_CG_COMPONENTS * sizeof *out);
}

void grains_cg_sem(const grains_cg *cg, double *out)
{
    size_t n = cg->frames;
    for (size_t c = 0; c < cg->cells * GRAINS_CG_COMPONENTS; c++)
        out[c] = n > 1 ? sqrt(cg->m2[c] / (double)(n - 1) / (double)n) : 0;
}

grains_vec3 grains_cg_centre(const grains_cg *cg, int i, int j, int k)
{
    const grains_cg_grid *g = &cg->k.grid;
    return (grains_vec3){g->lo.x + (i + 0.5) * cg->k.cell[0], g->lo.y + (j + 0.5) * cg->k.cell[1],
                         g->lo.z + (k + 0.5) * cg->k.cell[2]};
}

grains_cg_grid grains_cg_grid_of(const grains_cg *cg) { return cg->k.grid; }
