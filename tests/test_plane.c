/* 2D runs (dimension = 2, src/sim/plane.c): grains poured onto a floor
 * tilted out of their planes stay in them to the bit; positions along the
 * normal never change, there is no velocity along it, and the grains spin
 * (and turn) about the normal only. The same pour in 3D leaves the planes,
 * so the floor does push out of them. Inputs that would pull grains out
 * of their planes are refused. */
#include "check.h"
#include "support.h"
#include "util/rng.h"

/* A floor through the origin, tilted so that its normal leans along y. */
static void tilted_floor(grains_sim *sim, double L)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    const double slope = 0.3; /* z rises 0.3 per unit of y */
    grains_mesh_add_vertex(m, (grains_vec3){-L, -L, -slope * L}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){L, -L, -slope * L}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){L, L, slope * L}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-L, L, slope * L}, &err);
    uint32_t v[4] = {0, 1, 2, 3};
    if (grains_mesh_add_element(m, 4, v, 0, 0, &err) != GRAINS_OK || grains_sim_set_mesh(sim, m, &err) != GRAINS_OK) {
        fprintf(stderr, "tilted floor: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(m);
}

/* 120 grains in two planes y = 0 and y = 5 mm, dropped with spins about
 * every axis and sideways speeds (the in-plane parts survive in 2D). */
static grains_sim *pour(int dimension, grains_particle *start)
{
    const double R = 1e-3;
    grains_params p = scene_params();
    p.R_min = R, p.R_max = 1.2 * R;
    p.g = (grains_vec3){0, 0, -9.81};
    p.mu_s = 0.5, p.mu_r = 0.1, p.mu_t = 0.05;
    p.dimension = dimension;
    grains_sim *sim = scene(&p);
    tilted_floor(sim, 0.05);
    grains_rng rng;
    rng_seed(&rng, 11);
    for (int k = 0; k < 120; k++) {
        double r = R * (1 + 0.2 * rng_uniform(&rng));
        grains_vec3 x = {(k % 12 - 5.5) * 2.6 * R, k % 2 ? 5e-3 : 0, (2 + k / 12) * 2.6 * R};
        grains_vec3 v = {0.1 * rng_uniform(&rng), 0.1 * rng_uniform(&rng), -0.2};
        grains_vec3 w = {5 * rng_uniform(&rng), 5 * rng_uniform(&rng), 5 * rng_uniform(&rng)};
        add(sim, x, v, w, r);
        start[k] = get(sim, (size_t)k);
    }
    grains_error err;
    if (grains_sim_advance(sim, 4000, &err) != GRAINS_OK) {
        fprintf(stderr, "pour: %s\n", err.message);
        exit(1);
    }
    return sim;
}

static void stays_in_plane(test_ctx *t)
{
    grains_particle start[120];
    grains_sim *flat = pour(2, start);
    int moved = 0, off_plane_v = 0, off_axis_w = 0, off_axis_q = 0;
    double spin = 0, dx = 0;
    for (size_t i = 0; i < 120; i++) {
        grains_particle p = get(flat, i);
        moved += memcmp(&p.x.y, &start[i].x.y, sizeof p.x.y) != 0;
        off_plane_v += p.v.y != 0;
        off_axis_w += p.w.x != 0 || p.w.z != 0;
        off_axis_q += p.q.q1 != 0 || p.q.q3 != 0;
        spin = nan_max(spin, fabs(p.w.y));
        dx = nan_max(dx, fabs(p.x.x - start[i].x.x));
    }
    grains_thermo th;
    grains_sim_thermo(flat, &th);
    printf("  2D: %zu contacts, in-plane travel up to %.3g mm, spins up to %.3g rad/s about y\n", th.n_contacts,
           1e3 * dx, spin);
    CHECK(t, th.n_contacts > 60 && dx > 1e-3 && spin > 1, "the grains fell, touched and spun in their planes");
    CHECK(t, moved == 0, "2D: every y is its starting value to the bit (%d moved)", moved);
    CHECK(t, off_plane_v == 0 && off_axis_w == 0, "2D: no velocity along y (%d), spin only about y (%d)",
          off_plane_v, off_axis_w);
    CHECK(t, off_axis_q == 0, "2D: orientations turned about y only (%d)", off_axis_q);
    grains_sim *deep = pour(3, start);
    double left = 0;
    for (size_t i = 0; i < 120; i++)
        left = nan_max(left, fabs(get(deep, i).x.y - start[i].x.y));
    printf("  3D, the same pour: grains left their planes by up to %.3g mm\n", 1e3 * left);
    CHECK(t, left > 1e-4, "3D: the tilted floor pushes the grains out of their planes (%.3g m)", left);
    grains_sim_destroy(flat), grains_sim_destroy(deep);
}

static void refused(test_ctx *t)
{
    grains_params p;
    grains_params_default(&p);
    p.dimension = 2;
    p.plane_normal = 2; /* z, with gravity along -z */
    grains_error err;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "g = [0, 0, -9.81]"),
          "gravity along the normal: %s", err.message);
    p.plane_normal = 1;
    p.v0 = (grains_vec3){0, 1, -1};
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "v0"), "v0 out of the plane: %s",
          err.message);
    p.v0 = (grains_vec3){0, 0, -1};
    p.dimension = 4;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_ERR_RANGE && strstr(err.message, "dimension = 4"),
          "dimension = 4: %s", err.message);
    p.dimension = 2;
    CHECK(t, grains_params_check(&p, &err) == GRAINS_OK, "the default run in 2D, planes normal to y: %s",
          err.message);
}

int main(void)
{
    test_ctx t = {0, 0};
    stays_in_plane(&t);
    refused(&t);
    return test_report(&t, "test_plane");
}
