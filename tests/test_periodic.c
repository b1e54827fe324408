/* Periodic boundaries.
 * - Translation invariance: a frictional oblique collision straddling the
 *   periodic faces (contact, spring history and rebuilds across them) gives
 *   the same result as in the middle of the box, to rounding.
 * - A ring of compressed spheres closed through the boundary is in
 *   equilibrium: every contact, including the one across the faces, pushes
 *   equally (a missed contact would let the chain spring apart).
 * - A dense gas in a box periodic in x, y and z conserves momentum to
 *   rounding and gives bit-identical states with 1, 2 and 3 threads (the
 *   blocks on both faces of the period have different colours).
 * - A period shorter than 4 cells is a clear error. */
#include <string.h>

#include "check.h"
#include "support.h"

static const double R = 1e-3;

static grains_params box_params(int mask, double L)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.periodic = mask;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){L, L, L};
    p.mu_s = 0.3, p.mu_r = 0.1, p.mu_t = 0.1;
    p.skin = 0.05 * R; /* rebuilds (and wraps) every few steps */
    return p;
}

/* Two spheres meeting obliquely with spin around `centre`; returns sphere 0
 * and 1 after the collision, positions brought back into the box. */
static void collide(grains_vec3 centre, grains_particle out[2])
{
    grains_params p = box_params(7, 20 * R);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){centre.x - 1.2 * R, centre.y - 0.5 * R, centre.z - 0.2 * R}, (grains_vec3){0.5, 0, 0},
        (grains_vec3){0, 0, 30}, R);
    add(sim, (grains_vec3){centre.x + 1.2 * R, centre.y + 0.5 * R, centre.z + 0.2 * R}, (grains_vec3){-0.5, 0, 0.1},
        (grains_vec3){10, 0, 0}, R);
    advance(sim, 3000);
    for (int k = 0; k < 2; k++) {
        out[k] = get(sim, (size_t)k);
        double *x = &out[k].x.x;
        for (int a = 0; a < 3; a++)
            x[a] -= 20 * R * floor(x[a] / (20 * R));
    }
    grains_sim_destroy(sim);
}

static double rel(double a, double b, double scale) { return fabs(a - b) / scale; }

static void translation(test_ctx *t)
{
    grains_particle mid[2], face[2];
    collide((grains_vec3){10 * R, 10 * R, 10 * R}, mid);
    collide((grains_vec3){0, 20 * R, 0.1 * R}, face); /* on the x and y faces, near z = 0 */
    double worst_v = 0, worst_w = 0, worst_x = 0;
    for (int k = 0; k < 2; k++) {
        const double *vm = &mid[k].v.x, *vf = &face[k].v.x, *wm = &mid[k].w.x, *wf = &face[k].w.x;
        const double *xm = &mid[k].x.x, *xf = &face[k].x.x, shift[3] = {-10 * R, 10 * R, -9.9 * R};
        for (int a = 0; a < 3; a++) {
            worst_v = nan_max(worst_v, rel(vm[a], vf[a], 0.5));
            worst_w = nan_max(worst_w, rel(wm[a], wf[a], 30));
            double d = xf[a] - xm[a] - shift[a];
            d -= 20 * R * rint(d / (20 * R));
            worst_x = nan_max(worst_x, fabs(d) / R);
        }
    }
    printf("  collision across the faces vs in the middle: |dv| %.2g, |dw| %.2g, |dx| %.2g (relative)\n", worst_v,
           worst_w, worst_x);
    CHECK(t, mid[0].v.x != 0.5, "the spheres collided: v = %g", mid[0].v.x);
    CHECK(t, worst_v < 1e-9 && worst_w < 1e-9 && worst_x < 1e-9,
          "collision across the faces matches the one inside: %.3g %.3g %.3g", worst_v, worst_w, worst_x);
}

/* n spheres along x, each overlapping the next by delta, the last the first
 * through the face x = L. */
static void ring(test_ctx *t)
{
    const int n = 8;
    const double delta = 0.01 * R, L = n * (2 * R - delta);
    grains_params p = box_params(1, L);
    p.box_min = (grains_vec3){0, -1, -1}, p.box_max = (grains_vec3){L, 1, 1};
    grains_sim *sim = scene(&p);
    for (int k = 0; k < n; k++)
        add(sim, (grains_vec3){(k + 0.5) * (2 * R - delta), 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    advance(sim, 200);
    double worst = 0;
    for (int k = 0; k < n; k++)
        worst = nan_max(worst, fabs(get(sim, (size_t)k).v.x));
    /* one contact alone would accelerate a sphere to ~k delta dt / m per step: ~1e-1 m/s by now */
    printf("  compressed ring of %d through the face: largest speed %.3g m/s\n", n, worst);
    CHECK(t, worst < 1e-12, "a ring closed through the periodic face stays in equilibrium: %.3g m/s", worst);
    grains_sim_destroy(sim);
}

/* 216 spheres on a lattice with random velocities; P0 gets the sum of
 * the initial velocities (equal masses: the momentum / m). */
static grains_sim *gas(int threads, double P0[3])
{
    const double L = 16 * R;
    grains_params p = box_params(7, L);
    p.skin = 0.3 * R;
    p.threads = threads;
    grains_sim *sim = scene(&p);
    unsigned s = 12345;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 6; k++) {
                double v[3];
                for (int a = 0; a < 3; a++) {
                    s = s * 1103515245u + 12345u;
                    v[a] = ((s >> 8) / 16777216.0 - 0.5) * 2;
                    P0[a] += v[a];
                }
                add(sim, (grains_vec3){(i + 0.5) * L / 6, (j + 0.5) * L / 6, (k + 0.5) * L / 6},
                    (grains_vec3){v[0], v[1], v[2]}, (grains_vec3){0, 0, 0}, R);
            }
    advance(sim, 4000);
    return sim;
}

static void gas_in_box(test_ctx *t)
{
    double P0[3] = {0, 0, 0}, P[3] = {0, 0, 0}, ignored[3] = {0, 0, 0}, scale = 0;
    grains_sim *a = gas(1, P0), *b = gas(2, ignored), *c = gas(3, ignored);
    int same = 1;
    for (size_t i = 0; i < grains_sim_count(a); i++) {
        grains_particle pa = get(a, i), pb = get(b, i), pc = get(c, i);
        same = same && same_particle(pa, pb) && same_particle(pa, pc); /* not memcmp: the struct's padding */
        P[0] += pa.v.x, P[1] += pa.v.y, P[2] += pa.v.z;
        scale += fabs(pa.v.x) + fabs(pa.v.y) + fabs(pa.v.z);
    }
    double drift = nan_max(fabs(P[0] - P0[0]), nan_max(fabs(P[1] - P0[1]), fabs(P[2] - P0[2]))) / scale;
    printf("  gas of 216 in an xyz-periodic box, 4000 steps: momentum drift %.3g of sum |v|\n", drift);
    CHECK(t, drift < 1e-13, "momentum is conserved across the periodic faces: drift %.3g", drift);
    CHECK(t, same, "1, 2 and 3 threads give bit-identical states in a periodic box");
    grains_sim_destroy(a), grains_sim_destroy(b), grains_sim_destroy(c);
}

static void too_small(test_ctx *t)
{
    grains_params p = box_params(2, 6 * R); /* cells of 2R + skin: fewer than 4 per period */
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){R, R, R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    grains_error err;
    grains_status s = grains_sim_step(sim, &err);
    printf("  period of 6 R: %s\n", s == GRAINS_OK ? "accepted" : err.message);
    CHECK(t, s == GRAINS_ERR_LIMIT && strstr(err.message, "periodic box"), "a period under 4 cells is refused");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    translation(&t);
    ring(&t);
    gas_in_box(&t);
    too_small(&t);
    return test_report(&t, "test_periodic");
}
