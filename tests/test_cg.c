/* Coarse-grained fields (grains/fields.h) against what they must be:
 *  - a simple cubic lattice of spheres at rest: inside the bulk the density
 *    is the grains' density times the lattice's solid fraction pi/6, the
 *    solid fraction pi/6 and the number density 1/a^3, to 1%, for the
 *    Gaussian kernel of widths a and 1.5 a and Lucy's of 1.5 a and 2 a, on
 *    nodes that fall everywhere between the grains;
 *  - a band of the lattice averaged over: the grains in the band alone
 *    count, over its volume (the bulk density again); a periodic span
 *    counts every grain;
 *  - the lattice moving uniformly: the velocity field is that velocity and
 *    the kinetic stress zero, to round-off, wherever there is mass;
 *  - contacts scattered inside the grid: the contact stress summed over the
 *    grid's volume is the sum of the branch vectors times the forces, to
 *    round-off (each contact's line integral of the kernel is normalized on
 *    the nodes), on a grid and on a profile averaged along x and y;
 *  - a column of grains settled under gravity on a floor, periodic across:
 *    the vertical stress at height z (a profile along z) is minus the weight
 *    of the grains above z over the box's cross-section (g times the
 *    density's integral above z), to 2%, 2w away from the top and from the
 *    floor (the static balance the contact stress's line integral keeps;
 *    the grid reaches 3w below the floor, so that no grain's kernel is cut);
 *  - frames averaged: the mean and the standard error of the mean of a field
 *    that alternates between two values are theirs;
 *  - the turned grid's axes: the contact stress integral is the branches
 *    times the forces in those axes (E S E^T), to round-off;
 *  - the settled column's step written as a run's frame (VTK) and read back
 *    gives the same fields to round-off; the reader refuses what is not a
 *    frame;
 *  - grids that cannot be are refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "grains/fields.h"
#include "grains/io.h"
#include "io/cg_read.h"
#include "support.h"

/* The rest of a grid: no axes of its own (x, y and z), no periodic span. */
#define PLAIN {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {0, 0, 0}

static const double R = 1e-3, RHO = 2500, PI = 3.14159265358979323846;
enum { SIDE = 16 };

typedef struct {
    size_t n;
    grains_vec3 *x, *v;
    double *mass, *volume;
} lattice;

/* SIDE^3 spheres of radius R, touching (a = 2R), centres at (i + 1/2) a, all with velocity U. */
static lattice make_lattice(grains_vec3 U)
{
    lattice l = {(size_t)SIDE * SIDE * SIDE, NULL, NULL, NULL, NULL};
    l.x = malloc(l.n * sizeof *l.x), l.v = malloc(l.n * sizeof *l.v);
    l.mass = malloc(l.n * sizeof *l.mass), l.volume = malloc(l.n * sizeof *l.volume);
    double a = 2 * R, volume = 4.0 / 3.0 * PI * R * R * R;
    for (size_t m = 0; m < l.n; m++) {
        int i = (int)(m % SIDE), j = (int)(m / SIDE % SIDE), k = (int)(m / SIDE / SIDE);
        l.x[m] = (grains_vec3){(i + 0.5) * a, (j + 0.5) * a, (k + 0.5) * a};
        l.v[m] = U;
        l.volume[m] = volume;
        l.mass[m] = RHO * volume;
    }
    return l;
}

static void free_lattice(lattice *l) { free(l->x), free(l->v), free(l->mass), free(l->volume); }

static grains_cg *fields_of(const grains_cg_grid *g, const lattice *l, test_ctx *t)
{
    grains_cg *cg;
    grains_error err;
    grains_cg_frame f = {l->n, l->x, l->v, l->mass, l->volume, NULL, 0, NULL};
    if (grains_cg_create(&cg, g, &err) != GRAINS_OK || grains_cg_add_frame(cg, &f, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        return NULL;
    }
    return cg;
}

/* The lattice's box in cells of 16/35 a: nodes that fall everywhere
 * between the grains (on a grid commensurate with the lattice every node
 * sees the same neighbourhood, and any kernel gives the mean exactly). */
static grains_cg_grid lattice_grid(grains_cg_kernel kernel, double width)
{
    double L = SIDE * 2 * R;
    int n = 35;
    return (grains_cg_grid){{0, 0, 0}, {L, L, L}, {n, n, n}, {0, 0, 0}, kernel, width, PLAIN};
}

/* Whether cell (i, j, k)'s centre is a kernel's reach and a lattice
 * spacing inside the lattice's faces. */
static int in_bulk(const grains_cg *cg, int i, int j, int k, double reach)
{
    grains_vec3 c = grains_cg_centre(cg, i, j, k);
    double lo = reach + 2 * R, hi = SIDE * 2 * R - lo;
    return c.x >= lo && c.x <= hi && c.y >= lo && c.y <= hi && c.z >= lo && c.z <= hi;
}

/* tol: the kernel's ripple at the lattice's wavevector, what smooths the
 * layers (0.32% for the Gaussian of width a, cut at 3w and lowered to 0
 * there; Lucy's, narrower in reach, less smooth): each bound a little
 * above its kernel's, not the 1% of any of them, which let 20 times the
 * wider kernels' error pass. */
static void lattice_at_rest(test_ctx *t, grains_cg_kernel kernel, double width, double tol)
{
    lattice l = make_lattice((grains_vec3){0, 0, 0});
    grains_cg_grid g = lattice_grid(kernel, width);
    grains_cg *cg = fields_of(&g, &l, t);
    if (!cg)
        return;
    double *mean = malloc(grains_cg_cells(cg) * GRAINS_CG_COMPONENTS * sizeof *mean);
    grains_cg_mean(cg, mean);
    double a = 2 * R, nu = PI / 6, worst[3] = {0, 0, 0}, reach = kernel == GRAINS_CG_GAUSSIAN ? 3 * width : 2 * width;
    const double want[3] = {RHO * nu, nu, 1 / (a * a * a)};
    const grains_cg_field field[3] = {GRAINS_CG_DENSITY, GRAINS_CG_SOLID_FRACTION, GRAINS_CG_NUMBER};
    size_t bulk = 0;
    for (int k = 0; k < g.n[2]; k++)
        for (int j = 0; j < g.n[1]; j++)
            for (int i = 0; i < g.n[0]; i++) {
                if (!in_bulk(cg, i, j, k, reach))
                    continue;
                const double *cell = mean + ((size_t)i + (size_t)g.n[0] * ((size_t)j + (size_t)g.n[1] * k)) *
                                                GRAINS_CG_COMPONENTS;
                for (int q = 0; q < 3; q++)
                    worst[q] = nan_max(worst[q], fabs(cell[grains_cg_offset(field[q])] / want[q] - 1));
                bulk++;
            }
    const char *name = kernel == GRAINS_CG_GAUSSIAN ? "Gaussian" : "Lucy";
    CHECK(t, bulk > 0 && worst[0] < tol && worst[1] < tol && worst[2] < tol,
          "a lattice at rest, %s kernel of width %g a: in %zu bulk cells the density, solid fraction and number "
          "density are rho pi/6, pi/6 and 1/a^3 within %.2g%%, %.2g%%, %.2g%% (%.2g%%)", name, width / a, bulk,
          100 * worst[0], 100 * worst[1], 100 * worst[2], 100 * tol);
    printf("  lattice, %-8s w = %.2g a: %4zu bulk cells, density within %.2g%%\n", name, width / a, bulk,
           100 * worst[0]);
    free(mean);
    grains_cg_destroy(cg);
    free_lattice(&l);
}

/* The lattice averaged along x over a band of 8 of its 16 columns and
 * along y over all: only the grains whose centres lie in the band count,
 * over the band's volume, so that the bulk density is rho pi/6 again (1%);
 * the band's span taken as periodic (every grain counting) doubles it. */
static void lattice_band(test_ctx *t)
{
    lattice l = make_lattice((grains_vec3){0, 0, 0});
    double a = 2 * R, L = SIDE * a, want = RHO * PI / 6, worst = 0, doubled = 0;
    grains_cg_grid g = {{4 * a, 0, 0}, {12 * a, L, L}, {1, 1, 35}, {1, 1, 0}, GRAINS_CG_GAUSSIAN, 1.5 * a, PLAIN};
    for (int periodic = 0; periodic < 2; periodic++) {
        g.periodic[0] = periodic;
        grains_cg *cg = fields_of(&g, &l, t);
        if (!cg)
            break;
        double mean[35 * GRAINS_CG_COMPONENTS];
        grains_cg_mean(cg, mean);
        for (int k = 0; k < 35; k++) {
            double z = grains_cg_centre(cg, 0, 0, k).z, rho = mean[k * GRAINS_CG_COMPONENTS];
            if (z < 4.5 * a || z > L - 4.5 * a)
                continue;
            if (periodic)
                doubled = nan_max(doubled, fabs(rho / (2 * want) - 1));
            else
                worst = nan_max(worst, fabs(rho / want - 1));
        }
        grains_cg_destroy(cg);
    }
    CHECK(t, worst < 0.01 && doubled < 0.01, "a band of 8 of the lattice's 16 columns: the bulk density is rho pi/6 "
          "within %.2g%% (the band taken as a periodic span: twice it, within %.2g%%)", 100 * worst, 100 * doubled);
    free_lattice(&l);
}

static void lattice_moving(test_ctx *t)
{
    const grains_vec3 U = {0.3, -0.2, 0.1};
    lattice l = make_lattice(U);
    grains_cg_grid g = lattice_grid(GRAINS_CG_LUCY, 3 * R);
    grains_cg *cg = fields_of(&g, &l, t);
    if (!cg)
        return;
    double *mean = malloc(grains_cg_cells(cg) * GRAINS_CG_COMPONENTS * sizeof *mean);
    grains_cg_mean(cg, mean);
    double worst_v = 0, worst_k = 0, u2 = U.x * U.x + U.y * U.y + U.z * U.z;
    size_t with_mass = 0;
    for (size_t c = 0; c < grains_cg_cells(cg); c++) {
        const double *cell = mean + c * GRAINS_CG_COMPONENTS, *vel = cell + grains_cg_offset(GRAINS_CG_VELOCITY);
        double rho = cell[grains_cg_offset(GRAINS_CG_DENSITY)];
        if (rho <= 0)
            continue;
        with_mass++;
        worst_v = nan_max(worst_v, fabs(vel[0] - U.x) + fabs(vel[1] - U.y) + fabs(vel[2] - U.z));
        for (int e = 0; e < 9; e++)
            worst_k = nan_max(worst_k, fabs(cell[grains_cg_offset(GRAINS_CG_STRESS_KINETIC) + e]) / (rho * u2));
    }
    CHECK(t, with_mass > 0 && worst_v < 1e-14 * sqrt(u2) && worst_k < 1e-13,
          "a lattice moving at U: in %zu cells with mass the velocity is U (|V - U| <= %.2g m/s) and the kinetic "
          "stress 0 (%.2g rho U^2)", with_mass, worst_v, worst_k);
    free(mean);
    grains_cg_destroy(cg);
    free_lattice(&l);
}

/* The lattice's grains moving at U + D and U - D by turns, a checkerboard
 * ((i + j + k) even or odd): in the bulk the velocity field is U and the
 * kinetic stress -rho <dv dv> = -rho D D, the one that is not zero. The
 * kernel sees the two halves in shares 1/2 + f and 1/2 - f (f its leak at
 * the checkerboard's wavevector: 3.5e-4 for the Gaussian of width 1.5 a,
 * cut at 3w, whose leak at the lattice's own gives the 0.044% above), and
 * then gives V = U + 2f D and, exactly, -rho (D D - (V - U)(V - U)): that,
 * to round-off (mutation: the kinetic stress's sign flipped fails by 2). */
static void lattice_fluctuating(test_ctx *t)
{
    const grains_vec3 U = {0.3, -0.2, 0.1}, D = {0.05, 0.02, -0.04};
    lattice l = make_lattice(U);
    for (size_t m = 0; m < l.n; m++) {
        int s = (int)(m % SIDE + m / SIDE % SIDE + m / SIDE / SIDE) % 2 ? -1 : 1;
        l.v[m] = (grains_vec3){U.x + s * D.x, U.y + s * D.y, U.z + s * D.z};
    }
    double width = 3 * R;
    grains_cg_grid g = lattice_grid(GRAINS_CG_GAUSSIAN, width);
    grains_cg *cg = fields_of(&g, &l, t);
    if (!cg)
        return;
    double *mean = malloc(grains_cg_cells(cg) * GRAINS_CG_COMPONENTS * sizeof *mean), worst_v = 0, worst_k = 0;
    grains_cg_mean(cg, mean);
    const double d[3] = {D.x, D.y, D.z}, u[3] = {U.x, U.y, U.z}, dd = D.x * D.x + D.y * D.y + D.z * D.z;
    size_t bulk = 0;
    for (int k = 0; k < g.n[2]; k++)
        for (int j = 0; j < g.n[1]; j++)
            for (int i = 0; i < g.n[0]; i++) {
                if (!in_bulk(cg, i, j, k, 3 * width))
                    continue;
                const double *cell = mean + ((size_t)i + (size_t)g.n[0] * ((size_t)j + (size_t)g.n[1] * k)) *
                                                GRAINS_CG_COMPONENTS;
                double rho = cell[grains_cg_offset(GRAINS_CG_DENSITY)], dv[3];
                for (int a = 0; a < 3; a++) {
                    dv[a] = cell[grains_cg_offset(GRAINS_CG_VELOCITY) + a] - u[a];
                    worst_v = nan_max(worst_v, fabs(dv[a]) / sqrt(dd));
                }
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) {
                        double got = cell[grains_cg_offset(GRAINS_CG_STRESS_KINETIC) + 3 * a + b];
                        worst_k = nan_max(worst_k, fabs(got + rho * (d[a] * d[b] - dv[a] * dv[b])) / (rho * dd));
                    }
                bulk++;
            }
    CHECK(t, bulk > 0 && worst_v < 1e-3 && worst_k < 1e-11,
          "a lattice moving at U +- D by turns: in %zu bulk cells the velocity is U (to %.2g |D|, 1e-3) and the "
          "kinetic stress -rho (D D - (V - U)(V - U)) (to %.2g rho |D|^2, 1e-11)", bulk, worst_v, worst_k);
    printf("  fluctuating lattice: %zu bulk cells, V - U within %.2g |D|, kinetic stress within %.2g rho D^2\n", bulk,
           worst_v, worst_k);
    free(mean);
    grains_cg_destroy(cg);
    free_lattice(&l);
}

/* A simple cubic lattice of 10^3 grains pressed 0.1% into their six
 * neighbours, one step recorded: in the bulk (a kernel's reach and a
 * spacing inside the faces) each grain has 6 contacts and the
 * coordination field is 6 to round-off (mutation: the coordination's
 * sum doubled, 12, fails). */
static void lattice_coordination(test_ctx *t)
{
    enum { K = 10 };
    grains_params p = scene_params();
    double a = 2 * R * (1 - 1e-3), L = K * a, w = R;
    grains_sim *sim = scene(&p);
    for (int m = 0; m < K * K * K; m++)
        add(sim, (grains_vec3){(m % K + 0.5) * a, (m / K % K + 0.5) * a, (m / K / K + 0.5) * a},
            (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    grains_sim_record_contacts(sim, 1);
    advance(sim, 1);
    grains_cg_grid g = {{0, 0, 0}, {L, L, L}, {20, 20, 20}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, w, PLAIN};
    grains_cg *cg;
    grains_error err;
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK || grains_cg_add_sim(cg, sim, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        grains_sim_destroy(sim);
        return;
    }
    double *mean = malloc(grains_cg_cells(cg) * GRAINS_CG_COMPONENTS * sizeof *mean), worst = 0;
    grains_cg_mean(cg, mean);
    size_t bulk = 0;
    for (size_t c = 0; c < grains_cg_cells(cg); c++) {
        grains_vec3 x = grains_cg_centre(cg, (int)(c % 20), (int)(c / 20 % 20), (int)(c / 400));
        double lo = 3 * w + a, hi = L - lo;
        if (x.x < lo || x.x > hi || x.y < lo || x.y > hi || x.z < lo || x.z > hi)
            continue;
        worst = nan_max(worst, fabs(mean[c * GRAINS_CG_COMPONENTS + grains_cg_offset(GRAINS_CG_COORDINATION)] - 6));
        bulk++;
    }
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    size_t pairs = 3 * K * K * (K - 1);
    CHECK(t, th.n_contacts == pairs && bulk > 0 && worst < 1e-12,
          "a simple cubic lattice pressed together: %zu contacts (%zu neighbour pairs); in %zu bulk cells the "
          "coordination is 6 to %.2g (1e-12)", th.n_contacts, pairs, bulk, worst);
    free(mean);
    grains_cg_destroy(cg);
    grains_sim_destroy(sim);
}

/* n contacts, branches and forces of up to 2R and 1 N, inside [3R, L - 3R]^3. */
static grains_cg_contact *scatter_contacts(size_t n, double L, double sum[9])
{
    grains_cg_contact *c = malloc(n * sizeof *c);
    unsigned s = 12345;
    memset(sum, 0, 9 * sizeof *sum);
    for (size_t m = 0; m < n; m++) {
        double u[9];
        for (int q = 0; q < 9; q++) {
            s = s * 1103515245u + 12345u;
            u[q] = (s >> 8) / 16777216.0;
        }
        grains_vec3 a = {3 * R + u[0] * (L - 8 * R), 3 * R + u[1] * (L - 8 * R), 3 * R + u[2] * (L - 8 * R)};
        grains_vec3 b = {a.x + 2 * R * (u[3] - 0.5), a.y + 2 * R * (u[4] - 0.5), a.z + 2 * R * (u[5] - 0.5)};
        grains_vec3 f = {u[6] - 0.5, u[7] - 0.5, u[8] - 0.5};
        c[m] = (grains_cg_contact){a, b, f};
        const double br[3] = {b.x - a.x, b.y - a.y, b.z - a.z}, fr[3] = {f.x, f.y, f.z};
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++)
                sum[3 * r + q] += br[r] * fr[q];
    }
    return c;
}

/* Grid axes turned 0.7 rad about (1, 2, 3): their rows. */
static void turned_axes(grains_vec3 e[3])
{
    double n = sqrt(14.0), u[3] = {1 / n, 2 / n, 3 / n}, c = cos(0.7), s = sin(0.7), m[3][3];
    for (int r = 0; r < 3; r++) /* Rodrigues: c I + s [u]x + (1 - c) u u^T */
        for (int q = 0; q < 3; q++)
            m[r][q] = c * (r == q) + (1 - c) * u[r] * u[q];
    m[0][1] -= s * u[2], m[0][2] += s * u[1], m[1][0] += s * u[2], m[1][2] -= s * u[0], m[2][0] -= s * u[1],
        m[2][1] += s * u[0];
    for (int r = 0; r < 3; r++)
        e[r] = (grains_vec3){m[r][0], m[r][1], m[r][2]};
}

/* T in axes e: E T E^T. */
static void tensor_in_axes(const grains_vec3 e[3], const double T[9], double out[9])
{
    const double E[3][3] = {{e[0].x, e[0].y, e[0].z}, {e[1].x, e[1].y, e[1].z}, {e[2].x, e[2].y, e[2].z}};
    for (int r = 0; r < 3; r++)
        for (int q = 0; q < 3; q++) {
            out[3 * r + q] = 0;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    out[3 * r + q] += E[r][a] * T[3 * a + b] * E[q][b];
        }
}

enum { ON_GRID, ON_PROFILE, ON_TURNED_PROFILE };

/* mode: a 20^3 grid; a profile along z; a profile along turned axes' third,
 * whose sum is then the branches times the forces in those axes. */
static void contact_stress_integral(test_ctx *t, int mode)
{
    static const char *what[] = {"grid", "profile along z", "profile along turned axes"};
    double L = SIDE * 2 * R, sum[9], want[9];
    enum { N = 500 };
    grains_cg_contact *c = scatter_contacts(N, L, sum);
    grains_cg_grid g = {{-4 * R, -4 * R, -4 * R}, {L + 4 * R, L + 4 * R, L + 4 * R}, {20, 20, 20}, {0, 0, 0},
                        GRAINS_CG_GAUSSIAN, 1.5 * R, PLAIN};
    if (mode != ON_GRID)
        g.n[0] = g.n[1] = 1, g.averaged[0] = g.averaged[1] = 1;
    memcpy(want, sum, sizeof want);
    if (mode == ON_TURNED_PROFILE) { /* (the contacts lie within 2L of the origin along any axis) */
        turned_axes(g.axis);
        tensor_in_axes(g.axis, sum, want);
        g.lo = (grains_vec3){-2 * L, -2 * L, -2 * L}, g.hi = (grains_vec3){2 * L, 2 * L, 2 * L}, g.n[2] = 60;
    }
    grains_cg *cg;
    grains_error err;
    grains_cg_frame f = {0, NULL, NULL, NULL, NULL, NULL, N, c};
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK || grains_cg_add_frame(cg, &f, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        free(c);
        return;
    }
    size_t cells = grains_cg_cells(cg);
    double *mean = malloc(cells * GRAINS_CG_COMPONENTS * sizeof *mean), total[9] = {0}, worst = 0, scale = 0;
    grains_cg_mean(cg, mean);
    double volume = (g.hi.x - g.lo.x) * (g.hi.y - g.lo.y) * (g.hi.z - g.lo.z) / (double)cells;
    for (size_t m = 0; m < cells; m++)
        for (int e = 0; e < 9; e++)
            total[e] += mean[m * GRAINS_CG_COMPONENTS + grains_cg_offset(GRAINS_CG_STRESS_CONTACT) + e] * volume;
    for (int e = 0; e < 9; e++)
        scale = nan_max(scale, fabs(want[e]));
    for (int e = 0; e < 9; e++)
        worst = nan_max(worst, fabs(total[e] - want[e]) / scale);
    CHECK(t, worst < 1e-13, "%d contacts on a %s: the contact stress over the grid's volume is the sum of the "
          "branches times the forces (in the grid's axes) to %.2g of its largest component", N, what[mode], worst);
    free(mean);
    free(c);
    grains_cg_destroy(cg);
}

/* 400 grains of radii R and 0.8 R dropped from a jittered lattice into a
 * periodic box 12 R square onto a floor at z = 0, settled until their
 * kinetic energy is below 1e-15 J (at 1e-12 J they still ring: the floor
 * carries 0.996 of their weight, at 1e-15 0.99999), then one step
 * recorded. */
static grains_sim *settled_column(test_ctx *t)
{
    grains_params p = scene_params();
    double L = 12 * R;
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = 0.8 * R, p.R_max = R;
    p.E = 1e7, p.e_n = 0.1, p.mu_s = 0.5;
    p.periodic = 3;
    p.box_min = (grains_vec3){0, 0, -L};
    p.box_max = (grains_vec3){L, L, 40 * L};
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 2 * L, 0);
    unsigned s = 777;
    for (int n = 0; n < 400; n++) { /* (jittered across, so that the grains do not settle in layers) */
        int i = n % 4, j = n / 4 % 4, k = n / 16;
        double u[2];
        for (int q = 0; q < 2; q++) {
            s = s * 1103515245u + 12345u;
            u[q] = ((s >> 8) / 16777216.0 - 0.5) * 0.8 * R;
        }
        add(sim, (grains_vec3){(i + 0.5) * L / 4 + u[0], (j + 0.5) * L / 4 + u[1], (k + 0.6) * 2.3 * R},
            (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, n % 3 ? R : 0.8 * R);
    }
    grains_thermo th;
    for (int round = 0; round < 400; round++) {
        advance(sim, 500);
        grains_sim_thermo(sim, &th);
        if (th.e_kin < 1e-15)
            break;
    }
    CHECK(t, th.e_kin < 1e-15, "the column settled (E_kin %g J)", th.e_kin);
    grains_sim_record_contacts(sim, 1);
    advance(sim, 1);
    return sim;
}

/* The same step written as a run's frame (particles and contacts VTK) and
 * read back as grains fields reads it: the profile `want` again, each
 * field to 1e-12 of its largest value (the branch taken from the files'
 * ends rather than the wrapped one: round-off). */
static void frame_from_files(test_ctx *t, const grains_sim *sim, const grains_cg_grid *grid, const double *want)
{
    char dir[] = "/tmp/grains_cg_XXXXXX", particles[64], contacts[64];
    grains_error err;
    grains_cg *cg = NULL;
    cg_frame_in f = {0};
    if (!mkdtemp(dir)) {
        CHECK(t, 0, "a temporary folder");
        return;
    }
    snprintf(particles, sizeof particles, "%s/particles000000.vtp", dir);
    snprintf(contacts, sizeof contacts, "%s/contacts000000.vtp", dir);
    grains_status s = grains_vtk_write_particles(particles, sim, GRAINS_VTK_COMPRESSED, &err);
    if (s == GRAINS_OK)
        s = grains_vtk_write_contacts(contacts, sim, GRAINS_VTK_COMPRESSED, &err);
    if (s == GRAINS_OK)
        s = cg_frame_read(particles, contacts, 0, &f, &err);
    if (s == GRAINS_OK && (s = grains_cg_create(&cg, grid, &err)) == GRAINS_OK)
        s = grains_cg_add_frame(cg, &f.frame, &err);
    size_t cells = cg ? grains_cg_cells(cg) : 0;
    double *got = malloc((cells + 1) * GRAINS_CG_COMPONENTS * sizeof *got), worst = 0;
    if (s == GRAINS_OK) {
        grains_cg_mean(cg, got);
        for (int field = 0; field < GRAINS_CG_N_FIELDS; field++) {
            int at = grains_cg_offset((grains_cg_field)field), comps = grains_cg_width((grains_cg_field)field);
            double scale = 0, diff = 0;
            for (size_t m = 0; m < cells * GRAINS_CG_COMPONENTS; m++) {
                int c = (int)(m % GRAINS_CG_COMPONENTS);
                if (c >= at && c < at + comps)
                    scale = nan_max(scale, fabs(want[m])), diff = nan_max(diff, fabs(got[m] - want[m]));
            }
            worst = nan_max(worst, scale > 0 ? diff / scale : diff);
        }
    }
    CHECK(t, s == GRAINS_OK && worst < 1e-12, "the frame written as VTK and read back gives the same fields to %.2g "
          "of each field's largest value (%s)", worst, s == GRAINS_OK ? "read" : err.message);
    free(got);
    grains_cg_destroy(cg);
    cg_frame_free(&f);
    remove(particles), remove(contacts), rmdir(dir);
}

static void column_stress(test_ctx *t)
{
    grains_sim *sim = settled_column(t);
    double L = 12 * R, w = 2 * R, g = 9.81, top = 0;
    size_t n = grains_sim_count(sim);
    for (size_t i = 0; i < n; i++)
        top = fmax(top, get(sim, i).x.z + get(sim, i).R);
    int cells = 60;
    grains_cg_grid grid = {{0, 0, -3 * w}, {L, L, 1.2 * top}, {1, 1, cells}, {1, 1, 0}, GRAINS_CG_GAUSSIAN, w,
                           {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {1, 1, 0}}; /* (x, y: the periodic box's span) */
    grains_cg *cg;
    grains_error err;
    if (grains_cg_create(&cg, &grid, &err) != GRAINS_OK || grains_cg_add_sim(cg, sim, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        grains_sim_destroy(sim);
        return;
    }
    double *mean = malloc((size_t)cells * GRAINS_CG_COMPONENTS * sizeof *mean), worst = 0, worst_sharp = 0;
    double shear = 0, asym = 0, k_lo = INFINITY, k_hi = -INFINITY; /* the other components, over g times above */
    grains_cg_mean(cg, mean);
    double h = (grid.hi.z - grid.lo.z) / cells, above = 0; /* [M/L^2] the density's integral above a cell's centre */
    int checked = 0;
    for (int k = cells - 1; k >= 0; k--) {
        const double *cell = mean + (size_t)k * GRAINS_CG_COMPONENTS;
        double z = grains_cg_centre(cg, 0, 0, k).z, rho = cell[grains_cg_offset(GRAINS_CG_DENSITY)], sharp = 0;
        above += rho * h / 2; /* (midpoint: half this cell, then the other half on the way down) */
        if (z >= 2 * w && z <= top - 2 * w) {
            for (size_t i = 0; i < n; i++)
                sharp += get(sim, i).x.z > z ? mass(grains_sim_params(sim), get(sim, i).R) : 0;
            const double *S = cell + grains_cg_offset(GRAINS_CG_STRESS);
            double szz = S[8];
            worst = nan_max(worst, fabs(szz + g * above) / (g * above));
            shear = nan_max(shear, nan_max(fabs(S[6]), fabs(S[7])) / (g * above)); /* (zx, zy: not xy) */
            asym = nan_max(asym, nan_max(fabs(S[1] - S[3]), nan_max(fabs(S[2] - S[6]), fabs(S[5] - S[7]))) /
                                     (g * above));
            k_lo = nan_min(k_lo, nan_min(S[0], S[4]) / szz), k_hi = nan_max(k_hi, nan_max(S[0], S[4]) / szz);
            worst_sharp = nan_max(worst_sharp, fabs(szz + g * sharp / (L * L)) / (g * sharp / (L * L)));
            checked++;
        }
        above += rho * h / 2;
    }
    /* the sharp count of the grains above z steps by a layer where the smooth profile does not: they part by
     * up to a fraction of a layer's weight over the weight above (measured 4.3%) */
    CHECK(t, checked > 10 && worst < 0.02 && worst_sharp < 0.06, "a settled column of %zu grains %.3g m high: at %d "
          "heights 2w from the floor and the top the vertical stress is minus g times the density's integral above, "
          "the weight above per area, within %.2g%% (2%%), and the weight of the grains whose centres are above "
          "within %.2g%% (6%%: the layers' steps)", n, top, checked, 100 * worst, 100 * worst_sharp);
    /* the horizontal force across a level is none in a column at rest, periodic across: sigma_zx = sigma_zy = 0
     * (the rows of the branch's z; sigma_xz differs by the grains' rolling torques); and a packing settled under
     * its weight pushes sideways less than down, 0 < K < 1 (the lateral ratio K0 of a granular bed at rest) */
    CHECK(t, shear < 5e-3 && k_lo > 0 && k_hi < 1, "the column's other stresses: sigma_zx and sigma_zy within %.2g of "
          "the weight above (5e-3), sigma_xx / sigma_zz and sigma_yy / sigma_zz in [%.3g, %.3g] (within (0, 1))",
          shear, k_lo, k_hi);
    printf("  column: %zu grains, %d heights, sigma_zz within %.2g%% of the weight above (%.2g%% of the sharp "
           "count's); shear %.2g, asymmetry %.2g of it; sigma_xx / sigma_zz, sigma_yy / sigma_zz in [%.3g, %.3g]\n",
           n, checked, 100 * worst, 100 * worst_sharp, shear, asym, k_lo, k_hi);
    frame_from_files(t, sim, &grid, mean);
    free(mean);
    grains_cg_destroy(cg);
    grains_sim_destroy(sim);
}

/* A field that is 1 then 3: mean 2, standard error of the mean 1 (sd sqrt 2 over sqrt 2). */
static void frames_averaged(test_ctx *t)
{
    grains_cg_grid g = {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, GRAINS_CG_GAUSSIAN, 1, PLAIN};
    grains_cg *cg;
    grains_error err;
    grains_vec3 x = {0.5, 0.5, 0.5}, v = {0, 0, 0};
    double m[2] = {1, 3}, vol = 0;
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        return;
    }
    int added = 0;
    for (int k = 0; k < 2; k++) {
        grains_cg_frame f = {1, &x, &v, &m[k], &vol, NULL, 0, NULL};
        added += grains_cg_add_frame(cg, &f, &err) == GRAINS_OK;
    }
    CHECK(t, added == 2, "two frames added (%s)", added == 2 ? "yes" : err.message);
    double mean[GRAINS_CG_COMPONENTS], sem[GRAINS_CG_COMPONENTS];
    grains_cg_mean(cg, mean);
    grains_cg_sem(cg, sem);
    int d = grains_cg_offset(GRAINS_CG_DENSITY);
    CHECK(t, grains_cg_frames(cg) == 2 && mean[d] == 2 && fabs(sem[d] - 1) < 1e-15,
          "a density of 1 then 3 in one cell of volume 1: mean %g, standard error %g (2 and 1)", mean[d], sem[d]);
    grains_cg_destroy(cg);
}

/* A particles file of two grains in ASCII, with `extra` point arrays
 * after position, velocity and radius. */
static void two_grains(char *out, size_t size, const char *radius, const char *extra)
{
    snprintf(out, size, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
             "header_type=\"UInt64\">\n<PolyData>\n<Piece NumberOfPoints=\"2\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
             "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n<Points>\n<DataArray type=\"Float64\" Name=\"position\" "
             "NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 0 0</DataArray>\n</Points>\n<PointData>\n"
             "<DataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"ascii\">0 0 0 0 0 0"
             "</DataArray>\n<DataArray type=\"Float64\" Name=\"radius\" NumberOfComponents=\"1\" format=\"ascii\">%s"
             "</DataArray>\n%s</PointData>\n</Piece>\n</PolyData>\n</VTKFile>\n", radius, extra);
}

/* One contact between points `ends`, its force on the first, and grains a, b of kind 0. */
static void one_contact(char *out, size_t size, const char *ends, const char *ab)
{
    snprintf(out, size, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
             "header_type=\"UInt64\">\n<PolyData>\n<Piece NumberOfPoints=\"2\" NumberOfVerts=\"0\" NumberOfLines=\"1\" "
             "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n<Points>\n<DataArray type=\"Float64\" Name=\"position\" "
             "NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 0 0</DataArray>\n</Points>\n<CellData>\n"
             "<DataArray type=\"Float64\" Name=\"force_normal\" NumberOfComponents=\"3\" format=\"ascii\">-1 0 0"
             "</DataArray>\n<DataArray type=\"Float64\" Name=\"force_tangential\" NumberOfComponents=\"3\" "
             "format=\"ascii\">0 0 0</DataArray>\n<DataArray type=\"Int32\" Name=\"kind\" NumberOfComponents=\"1\" "
             "format=\"ascii\">0</DataArray>\n%s</CellData>\n<Lines>\n<DataArray type=\"Int64\" Name=\"connectivity\" "
             "NumberOfComponents=\"1\" format=\"ascii\">%s</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" "
             "NumberOfComponents=\"1\" format=\"ascii\">2</DataArray>\n</Lines>\n</Piece>\n</PolyData>\n</VTKFile>\n",
             ab, ends);
}

/* What the frames' reader takes (a contact read whole, coordination
 * counted from it) and what it refuses, nothing held after. */
static void frames_read(test_ctx *t)
{
    static const char *mass = "<DataArray type=\"Float64\" Name=\"mass\" NumberOfComponents=\"1\" "
                              "format=\"ascii\">1 1</DataArray>\n";
    static const char *ab = "<DataArray type=\"Int64\" Name=\"a\" NumberOfComponents=\"1\" format=\"ascii\">0"
                            "</DataArray>\n<DataArray type=\"Int64\" Name=\"b\" NumberOfComponents=\"1\" "
                            "format=\"ascii\">%s</DataArray>\n";
    struct {
        const char *radius, *mass, *ends, *b;
        double rho;
        grains_status want;
        const char *what;
    } cases[] = {
        {"0.5 0.5", "", "0 1", "1", 1000, GRAINS_OK, "no mass array, a density given"},
        {"0.5 0.5", "", "0 1", "1", 0, GRAINS_ERR_PARSE, "no mass array and no density"},
        {"0.5 -0.5", "m", "0 1", "1", 0, GRAINS_ERR_RANGE, "a negative radius"},
        {"0.5 0.5", "m", "0 2", "1", 0, GRAINS_ERR_PARSE, "a contact's end beyond the points"},
        {"0.5 0.5", "m", "0 1", "2", 0, GRAINS_ERR_RANGE, "a contact naming grain 2 of 2"},
        {"0.5 0.5", "m", "0 1", "1", 0, GRAINS_OK, "a whole frame"},
    };
    int all = 1;
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char pt[2048], ct[2048], abt[512];
        vtk_polydata d, c;
        grains_error err;
        cg_frame_in f;
        two_grains(pt, sizeof pt, cases[k].radius, cases[k].mass[0] ? mass : "");
        snprintf(abt, sizeof abt, ab, cases[k].b);
        one_contact(ct, sizeof ct, cases[k].ends, abt);
        if (vtk_polydata_parse(pt, strlen(pt), "p", &d, &err) != GRAINS_OK ||
            vtk_polydata_parse(ct, strlen(ct), "c", &c, &err) != GRAINS_OK) {
            CHECK(t, 0, "the test's files parse: %s", err.message);
            return;
        }
        grains_status s = cg_frame_from_polydata(&d, "p", &c, "c", cases[k].rho, &f, &err);
        int ok = s == cases[k].want && (s != GRAINS_OK || (f.frame.n == 2 && f.frame.n_contacts == 1 &&
                                                            f.coordination[0] == 1 && f.coordination[1] == 1 &&
                                                            f.contacts[0].x_b.x == 1 && f.contacts[0].f.x == -1));
        if (!ok)
            printf("  frames' reader: %s: status %d, wanted %d (%s)\n", cases[k].what, s, cases[k].want, err.message);
        all = all && ok;
        if (s == GRAINS_OK)
            cg_frame_free(&f);
        vtk_polydata_free(&d), vtk_polydata_free(&c);
    }
    CHECK(t, all, "the frames' reader takes a whole frame (coordination counted from its contact) and one without "
          "masses given a density; it refuses no masses and no density, a negative radius, a contact's end beyond "
          "the points and a contact naming a grain that is not there");
}

static void refused(test_ctx *t)
{
    const grains_cg_grid bad[] = {
        {{0, 0, 0}, {0, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5, PLAIN},  /* no extent */
        {{0, 0, 0}, {1, 1, 1}, {0, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5, PLAIN},  /* no cell */
        {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {1, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5, PLAIN},  /* averaged, 4 cells */
        {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.1, PLAIN},  /* reaches no node */
        {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_LUCY, NAN, PLAIN},     /* width NaN */
        {{0, 0, 0}, {1, 1, 1}, {1024, 1024, 4}, {0, 0, 0}, GRAINS_CG_LUCY, 1, PLAIN}, /* 4M cells */
        {{0, 0, 0}, {1, 1, 1}, {1, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 1e10, PLAIN}, /* 3e10 cells' reach */
        {{0, 0, 0}, {1e-150, 1e-150, 1e-150}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 1e-150, PLAIN}, /* no volume */
        {{0, 0, 0}, {1, 1, 1}, {100, 100, 100}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.35, PLAIN}, /* 211^3 nodes each */
        {{0, 0, 0}, {1, 1, 1}, {100, 100, 100}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.13, PLAIN}, /* 79^3 nodes each */
    };
    int all = 1;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        grains_cg *cg = (grains_cg *)&all;
        grains_error err;
        all = all && grains_cg_create(&cg, &bad[k], &err) == GRAINS_ERR_RANGE && cg == NULL;
    }
    CHECK(t, all, "grids of no extent, no cell, 4 cells along an averaged axis, a width that reaches no node, a "
          "NaN width, 4M cells, a kernel reaching 3e10 cells (an int's overflow before), cells of 1e-450 m^3 (no "
          "volume a double holds) or kernels of 9.4e6 and 4.9e5 nodes in reach are refused");
}

static int always(void *ctx)
{
    (void)ctx;
    return 1;
}

/* A frame whose values are finite but whose products are not (velocities
 * of 1e300: m v v overflows) is refused, and so is one stopped on request
 * part-way; the averages keep the frame before, unchanged: nothing that
 * is not a number reaches them or a file. */
static void frames_refused(test_ctx *t)
{
    grains_cg_grid g = {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.25, PLAIN};
    grains_cg *cg;
    grains_error err;
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        return;
    }
    enum { N = 2048 }; /* (343 nodes each: the question comes every 192 grains) */
    static grains_vec3 x[N], v[N];
    static double m[N], vol[N];
    for (int k = 0; k < N; k++)
        x[k] = (grains_vec3){(k % 16 + 0.5) / 16, (k / 16 % 16 + 0.5) / 16, (k / 256 + 0.5) / 8}, m[k] = 1, vol[k] = 0;
    grains_cg_frame f = {N, x, v, m, vol, NULL, 0, NULL};
    size_t n = grains_cg_cells(cg) * GRAINS_CG_COMPONENTS;
    double *before = malloc(n * sizeof *before), *after = malloc(n * sizeof *after);
    grains_status first = grains_cg_add_frame(cg, &f, &err);
    grains_cg_mean(cg, before);
    for (int k = 0; k < N; k++)
        v[k] = (grains_vec3){1e300, 0, 0};
    grains_status huge = grains_cg_add_frame(cg, &f, &err);
    CHECK(t, first == GRAINS_OK && huge == GRAINS_ERR_RANGE && strstr(err.message, "beyond the range"),
          "velocities of 1e300 are refused: %s", err.message);
    for (int k = 0; k < N; k++)
        v[k] = (grains_vec3){1, 0, 0};
    grains_cg_ask_stop(cg, always, NULL);
    grains_status stopped = grains_cg_add_frame(cg, &f, &err);
    grains_cg_mean(cg, after);
    CHECK(t, stopped == GRAINS_ERR_STOPPED && grains_cg_frames(cg) == 1 && memcmp(before, after, n * sizeof *after) == 0,
          "a frame stopped on request is left out (%s); the averages are the first frame's, bit for bit",
          err.message);
    free(before), free(after);
    grains_cg_destroy(cg);
}

/* A frame of one grain whose kernel reaches 41^3 = 68,921 nodes (20 cells
 * each way, most beyond the grid's 8^3), more than the 65,536 of work
 * between two questions whether to stop, is stopped on request within the
 * grain (before, the question came every 1024 grains or cells: such a
 * frame of a few grains, or one long branch, ran to its end). */
static void stopped_within_a_grain(test_ctx *t)
{
    grains_cg_grid g = {{0, 0, 0}, {1, 1, 1}, {8, 8, 8}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 2.49 / 3, PLAIN};
    grains_cg *cg;
    grains_error err;
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        return;
    }
    grains_vec3 x = {0.5, 0.5, 0.5}, v = {0, 0, 0};
    double m = 1, vol = 0;
    grains_cg_frame f = {1, &x, &v, &m, &vol, NULL, 0, NULL};
    grains_cg_ask_stop(cg, always, NULL);
    grains_status stopped = grains_cg_add_frame(cg, &f, &err);
    CHECK(t, stopped == GRAINS_ERR_STOPPED && grains_cg_frames(cg) == 0,
          "one grain of a kernel of 68,921 nodes is stopped on request within it: status %d", (int)stopped);
    grains_cg_destroy(cg);
}

/* The same pressed lattice, its grains alone (no contacts recorded):
 * density, momentum and kinetic stress are those of the frame with its
 * contacts, bit for bit; the contact fields are not the cg's and leave
 * the CSV's columns; a frame with contacts after it is refused, and one
 * without after a frame with (the contact fields every frame's or none). */
static void grains_alone(test_ctx *t)
{
    enum { K = 6 };
    grains_params p = scene_params();
    double a = 2 * R * (1 - 1e-3), L = K * a;
    grains_sim *sim = scene(&p);
    for (int m = 0; m < K * K * K; m++)
        add(sim, (grains_vec3){(m % K + 0.5) * a, (m / K % K + 0.5) * a, (m / K / K + 0.5) * a},
            (grains_vec3){0.01 * (m % 3), 0, 0}, (grains_vec3){0, 0, 0}, R);
    grains_sim_record_contacts(sim, 1);
    advance(sim, 1);
    grains_cg_grid g = {{0, 0, 0}, {L, L, L}, {6, 6, 6}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, R, PLAIN};
    grains_cg *alone, *with;
    grains_error err, e_mix, e_mix2;
    if (grains_cg_create(&alone, &g, &err) != GRAINS_OK || grains_cg_create(&with, &g, &err) != GRAINS_OK ||
        grains_cg_add_sim_grains(alone, sim, &err) != GRAINS_OK || grains_cg_add_sim(with, sim, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        grains_sim_destroy(sim);
        return;
    }
    size_t all = grains_cg_cells(alone) * GRAINS_CG_COMPONENTS;
    double *m1 = malloc(all * sizeof *m1), *m2 = malloc(all * sizeof *m2);
    grains_cg_mean(alone, m1), grains_cg_mean(with, m2);
    int same = 1;
    grains_cg_field kept[] = {GRAINS_CG_DENSITY, GRAINS_CG_MOMENTUM, GRAINS_CG_NUMBER, GRAINS_CG_SOLID_FRACTION,
                              GRAINS_CG_STRESS_KINETIC};
    for (size_t c = 0; c < grains_cg_cells(alone); c++)
        for (size_t f = 0; f < sizeof kept / sizeof *kept; f++)
            for (int k = 0; k < grains_cg_width(kept[f]); k++) {
                size_t at = c * GRAINS_CG_COMPONENTS + (size_t)(grains_cg_offset(kept[f]) + k);
                same = same && m1[at] == m2[at];
            }
    CHECK(t, same && m1[grains_cg_offset(GRAINS_CG_DENSITY)] > 0,
          "the grains alone give the density, momentum, number, solid fraction and kinetic stress of the frame "
          "with its contacts, bit for bit");
    CHECK(t, !grains_cg_has_field(alone, GRAINS_CG_STRESS_CONTACT) && !grains_cg_has_field(alone, GRAINS_CG_STRESS) &&
          !grains_cg_has_field(alone, GRAINS_CG_COORDINATION) && grains_cg_has_field(alone, GRAINS_CG_STRESS_KINETIC) &&
          grains_cg_has_field(with, GRAINS_CG_STRESS), "without contacts the contact fields are not the fields'");
    char path[] = "/tmp/grains_cg_alone_XXXXXX";
    int fd = mkstemp(path);
    char head[4096] = "";
    if (fd >= 0 && grains_cg_write_csv(alone, path, &err) == GRAINS_OK) {
        FILE *f = fopen(path, "r");
        if (!f || !fgets(head, sizeof head, f))
            head[0] = 0;
        if (f)
            fclose(f);
    }
    if (fd >= 0)
        close(fd), unlink(path);
    CHECK(t, strstr(head, "stress_kinetic_xx,") && !strstr(head, "stress_contact") && !strstr(head, "coordination") &&
          !strstr(head, ",stress_xx"), "the CSV of the grains alone has no contact columns: %.80s...", head);
    grains_status mix = grains_cg_add_sim(alone, sim, &e_mix), mix2 = grains_cg_add_sim_grains(with, sim, &e_mix2);
    CHECK(t, mix == GRAINS_ERR_ARG && mix2 == GRAINS_ERR_ARG && grains_cg_frames(alone) == 1 &&
          grains_cg_frames(with) == 1, "a frame with contacts after one without is refused, and the other way "
          "about (%s)", e_mix.message);
    free(m1), free(m2);
    grains_cg_destroy(alone), grains_cg_destroy(with);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    /* (Lucy's smooths the layers less: within 1.6% at w = a) */
    lattice_at_rest(&t, GRAINS_CG_GAUSSIAN, 2 * R, 0.005); /* (measured: 0.32%) */
    lattice_at_rest(&t, GRAINS_CG_GAUSSIAN, 3 * R, 0.001); /* (0.044%) */
    lattice_at_rest(&t, GRAINS_CG_LUCY, 3 * R, 0.005);     /* (0.21%) */
    lattice_at_rest(&t, GRAINS_CG_LUCY, 4 * R, 0.001);     /* (0.033%) */
    lattice_moving(&t);
    lattice_fluctuating(&t);
    lattice_coordination(&t);
    grains_alone(&t);
    lattice_band(&t);
    contact_stress_integral(&t, ON_GRID);
    contact_stress_integral(&t, ON_PROFILE);
    contact_stress_integral(&t, ON_TURNED_PROFILE);
    column_stress(&t);
    frames_averaged(&t);
    refused(&t);
    frames_refused(&t);
    stopped_within_a_grain(&t);
    frames_read(&t);
    return test_report(&t, "test_cg");
}
