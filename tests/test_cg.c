/* Coarse-grained fields (grains/fields.h) against what they must be:
 *  - a simple cubic lattice of spheres at rest: inside the bulk the density
 *    is the grains' density times the lattice's solid fraction pi/6, the
 *    solid fraction pi/6 and the number density 1/a^3, to 1%, for the
 *    Gaussian kernel of widths a and 1.5 a and Lucy's of 1.5 a and 2 a, on
 *    nodes that fall everywhere between the grains;
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
 *  - grids that cannot be are refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grains/fields.h"
#include "support.h"

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
    return (grains_cg_grid){{0, 0, 0}, {L, L, L}, {n, n, n}, {0, 0, 0}, kernel, width};
}

/* Whether cell (i, j, k)'s centre is a kernel's reach and a lattice
 * spacing inside the lattice's faces. */
static int in_bulk(const grains_cg *cg, int i, int j, int k, double reach)
{
    grains_vec3 c = grains_cg_centre(cg, i, j, k);
    double lo = reach + 2 * R, hi = SIDE * 2 * R - lo;
    return c.x >= lo && c.x <= hi && c.y >= lo && c.y <= hi && c.z >= lo && c.z <= hi;
}

static void lattice_at_rest(test_ctx *t, grains_cg_kernel kernel, double width)
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
                    worst[q] = fmax(worst[q], fabs(cell[grains_cg_offset(field[q])] / want[q] - 1));
                bulk++;
            }
    const char *name = kernel == GRAINS_CG_GAUSSIAN ? "Gaussian" : "Lucy";
    CHECK(t, bulk > 0 && worst[0] < 0.01 && worst[1] < 0.01 && worst[2] < 0.01,
          "a lattice at rest, %s kernel of width %g a: in %zu bulk cells the density, solid fraction and number "
          "density are rho pi/6, pi/6 and 1/a^3 within %.2g%%, %.2g%%, %.2g%% (1%%)", name, width / a, bulk,
          100 * worst[0], 100 * worst[1], 100 * worst[2]);
    printf("  lattice, %-8s w = %.2g a: %4zu bulk cells, density within %.2g%%\n", name, width / a, bulk,
           100 * worst[0]);
    free(mean);
    grains_cg_destroy(cg);
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
        worst_v = fmax(worst_v, fabs(vel[0] - U.x) + fabs(vel[1] - U.y) + fabs(vel[2] - U.z));
        for (int e = 0; e < 9; e++)
            worst_k = fmax(worst_k, fabs(cell[grains_cg_offset(GRAINS_CG_STRESS_KINETIC) + e]) / (rho * u2));
    }
    CHECK(t, with_mass > 0 && worst_v < 1e-14 * sqrt(u2) && worst_k < 1e-13,
          "a lattice moving at U: in %zu cells with mass the velocity is U (|V - U| <= %.2g m/s) and the kinetic "
          "stress 0 (%.2g rho U^2)", with_mass, worst_v, worst_k);
    free(mean);
    grains_cg_destroy(cg);
    free_lattice(&l);
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

static void contact_stress_integral(test_ctx *t, int profile)
{
    double L = SIDE * 2 * R, sum[9];
    enum { N = 500 };
    grains_cg_contact *c = scatter_contacts(N, L, sum);
    grains_cg_grid g = {{-4 * R, -4 * R, -4 * R}, {L + 4 * R, L + 4 * R, L + 4 * R}, {20, 20, 20}, {0, 0, 0},
                        GRAINS_CG_GAUSSIAN, 1.5 * R};
    if (profile)
        g.n[0] = g.n[1] = 1, g.averaged[0] = g.averaged[1] = 1;
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
        scale = fmax(scale, fabs(sum[e]));
    for (int e = 0; e < 9; e++)
        worst = fmax(worst, fabs(total[e] - sum[e]) / scale);
    CHECK(t, worst < 1e-13, "%d contacts on a %s: the contact stress over the grid's volume is the sum of the "
          "branches times the forces to %.2g of its largest component", N, profile ? "profile along z" : "grid",
          worst);
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

static void column_stress(test_ctx *t)
{
    grains_sim *sim = settled_column(t);
    double L = 12 * R, w = 2 * R, g = 9.81, top = 0;
    size_t n = grains_sim_count(sim);
    for (size_t i = 0; i < n; i++)
        top = fmax(top, get(sim, i).x.z + get(sim, i).R);
    int cells = 60;
    grains_cg_grid grid = {{0, 0, -3 * w}, {L, L, 1.2 * top}, {1, 1, cells}, {1, 1, 0}, GRAINS_CG_GAUSSIAN, w};
    grains_cg *cg;
    grains_error err;
    if (grains_cg_create(&cg, &grid, &err) != GRAINS_OK || grains_cg_add_sim(cg, sim, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        grains_sim_destroy(sim);
        return;
    }
    double *mean = malloc((size_t)cells * GRAINS_CG_COMPONENTS * sizeof *mean), worst = 0, worst_sharp = 0;
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
            double szz = cell[grains_cg_offset(GRAINS_CG_STRESS) + 8];
            worst = fmax(worst, fabs(szz + g * above) / (g * above));
            worst_sharp = fmax(worst_sharp, fabs(szz + g * sharp / (L * L)) / (g * sharp / (L * L)));
            checked++;
        }
        above += rho * h / 2;
    }
    CHECK(t, checked > 10 && worst < 0.02, "a settled column of %zu grains %.3g m high: at %d heights 2w from the "
          "floor and the top the vertical stress is minus g times the density's integral above, the weight above "
          "per area, within %.2g%% (2%%; the sharp count of the grains above: within %.2g%%, the layers' steps)", n,
          top, checked, 100 * worst, 100 * worst_sharp);
    printf("  column: %zu grains, %d heights, sigma_zz within %.2g%% of the weight above (%.2g%% of the sharp "
           "count's)\n", n, checked, 100 * worst, 100 * worst_sharp);
    free(mean);
    grains_cg_destroy(cg);
    grains_sim_destroy(sim);
}

/* A field that is 1 then 3: mean 2, standard error of the mean 1 (sd sqrt 2 over sqrt 2). */
static void frames_averaged(test_ctx *t)
{
    grains_cg_grid g = {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, GRAINS_CG_GAUSSIAN, 1};
    grains_cg *cg;
    grains_error err;
    grains_vec3 x = {0.5, 0.5, 0.5}, v = {0, 0, 0};
    double m[2] = {1, 3}, vol = 0;
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK) {
        CHECK(t, 0, "fields: %s", err.message);
        return;
    }
    for (int k = 0; k < 2; k++) {
        grains_cg_frame f = {1, &x, &v, &m[k], &vol, NULL, 0, NULL};
        grains_cg_add_frame(cg, &f, &err);
    }
    double mean[GRAINS_CG_COMPONENTS], sem[GRAINS_CG_COMPONENTS];
    grains_cg_mean(cg, mean);
    grains_cg_sem(cg, sem);
    int d = grains_cg_offset(GRAINS_CG_DENSITY);
    CHECK(t, grains_cg_frames(cg) == 2 && mean[d] == 2 && fabs(sem[d] - 1) < 1e-15,
          "a density of 1 then 3 in one cell of volume 1: mean %g, standard error %g (2 and 1)", mean[d], sem[d]);
    grains_cg_destroy(cg);
}

static void refused(test_ctx *t)
{
    const grains_cg_grid bad[] = {
        {{0, 0, 0}, {0, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5},  /* no extent */
        {{0, 0, 0}, {1, 1, 1}, {0, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5},  /* no cell */
        {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {1, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5},  /* averaged, 4 cells */
        {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.1},  /* reaches no node */
        {{0, 0, 0}, {1, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_LUCY, NAN},     /* width NaN */
        {{0, 0, 0}, {1, 1, 1}, {1024, 1024, 4}, {0, 0, 0}, GRAINS_CG_LUCY, 1}, /* 4M cells */
    };
    int all = 1;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        grains_cg *cg = (grains_cg *)&all;
        grains_error err;
        all = all && grains_cg_create(&cg, &bad[k], &err) == GRAINS_ERR_RANGE && cg == NULL;
    }
    CHECK(t, all, "grids of no extent, no cell, 4 cells along an averaged axis, a width that reaches no node, a "
          "NaN width or 4M cells are refused");
}

int main(void)
{
    test_ctx t = {0, 0};
    /* (Lucy's smooths the layers less: within 1.6% at w = a) */
    lattice_at_rest(&t, GRAINS_CG_GAUSSIAN, 2 * R);
    lattice_at_rest(&t, GRAINS_CG_GAUSSIAN, 3 * R);
    lattice_at_rest(&t, GRAINS_CG_LUCY, 3 * R);
    lattice_at_rest(&t, GRAINS_CG_LUCY, 4 * R);
    lattice_moving(&t);
    contact_stress_integral(&t, 0);
    contact_stress_integral(&t, 1);
    column_stress(&t);
    frames_averaged(&t);
    refused(&t);
    return test_report(&t, "test_cg");
}
