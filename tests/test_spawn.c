/* Spawn box (TinyDEM Section 3.1): N_max particles appear, none overlapping
 * another or the mesh, with radii uniform in [R_min, R_max] even when most
 * attempts fail, because a failed attempt's radius carries over. */
#include <string.h>

#include "check.h"
#include "support.h"

static grains_sim *spawn_run(long N_max, long steps, int with_floor)
{
    grains_params p = scene_params();
    p.N_max = N_max;
    p.N_spawn = 50;
    p.R_min = 1e-3;
    p.R_max = 3e-3;
    p.v0 = (grains_vec3){0, 0, 0};
    p.s_min = (grains_vec3){-0.02, -0.02, 0};
    p.s_max = (grains_vec3){0.02, 0.02, 0.04};
    p.seed = 7;
    grains_sim *sim = scene(&p);
    if (with_floor)
        floor_mesh(sim, 1, 0.005);
    grains_sim_advance(sim, steps, NULL);
    return sim;
}

static void no_overlaps(test_ctx *t)
{
    grains_sim *sim = spawn_run(400, 200, 1);
    size_t n = grains_sim_count(sim), bad = 0;
    for (size_t i = 0; i < n; i++) {
        grains_particle a = get(sim, i);
        if (fabs(a.x.z - 0.005) < a.R)
            bad++; /* overlaps the floor at z = 0.005 */
        for (size_t j = i + 1; j < n; j++) {
            grains_particle b = get(sim, j);
            double dx = a.x.x - b.x.x, dy = a.x.y - b.x.y, dz = a.x.z - b.x.z;
            bad += dx * dx + dy * dy + dz * dz < (a.R + b.R) * (a.R + b.R);
        }
    }
    CHECK(t, n == 400, "spawned %zu of N_max = 400", n);
    CHECK(t, bad == 0, "%zu overlaps among spawned particles and the floor", bad);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    CHECK(t, th.n_contacts == 0, "no contacts right after spawning at rest without gravity: %zu", th.n_contacts);
    /* Without contacts, gravity or drag nothing acts: every particle keeps
     * v0 = 0 and w0 = 0 exactly, through all the arrays' growth. */
    int still = 1;
    for (size_t i = 0; i < n; i++) {
        grains_particle q = get(sim, i);
        still = still && q.v.x == 0 && q.v.y == 0 && q.v.z == 0 && q.w.x == 0 && q.w.y == 0 && q.w.z == 0;
    }
    CHECK(t, still, "spawned particles without contacts stay exactly at rest");
    grains_sim_destroy(sim);
}

/* Filling the box until it jams (random sequential addition stops near 35%
 * by volume) makes most attempts fail, and small radii
 * fit more often: without the carried-over radius the mean would fall. The
 * mean of n uniform radii has standard error (R_max - R_min) / sqrt(12 n);
 * we allow 4 standard errors. */
static void unbiased_radii(test_ctx *t)
{
    grains_sim *sim = spawn_run(100000, 400, 0);
    size_t n = grains_sim_count(sim);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += get(sim, i).R;
    double mean = sum / (double)n, se = 2e-3 / sqrt(12.0 * (double)n);
    printf("  %zu spawned, mean radius %.6g (uniform mean 2e-3, standard error %.2g)\n", n, mean, se);
    CHECK(t, n > 400, "the box fills up (%zu particles)", n);
    CHECK_ABS(t, mean, 2e-3, 4 * se, "mean spawned radius");
    grains_sim_destroy(sim);
}

/* The same seed gives the same particles; another seed does not. */
static void seeded(test_ctx *t)
{
    grains_sim *a = spawn_run(100, 3, 0), *b = spawn_run(100, 3, 0);
    int same = grains_sim_count(a) == grains_sim_count(b);
    for (size_t i = 0; same && i < grains_sim_count(a); i++)
        same = same_particle(get(a, i), get(b, i));
    CHECK(t, same, "same seed, same particles");
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

int main(void)
{
    test_ctx t = {0, 0};
    no_overlaps(&t);
    unbiased_radii(&t);
    seeded(&t);
    return test_report(&t, "test_spawn");
}
