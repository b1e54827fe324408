/* Spawn box (TinyDEM Section 3.1): N_max particles appear, none overlapping
 * another or the mesh, with radii uniform in [R_min, R_max] even when most
 * attempts fail, because a failed attempt's radius carries over. Insertion
 * regions: each adds its own material and tag in its own box, stops at its
 * count or when full and says so, and draws radii that follow its
 * distribution (uniform, discrete by number or mass, lognormal) by the
 * statistics of the draws; tag rules relabel the grains that cross them. */
#include <string.h>

#include "grains/checkpoint.h"
#include "insert/size_draw.h"
#include "sim/sim_internal.h"

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
    advance(sim, steps);
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

/* A closed box of 4 cm filled from regions at rest, without gravity:
 * nothing moves, so a region that fills up stays full. */
static grains_params region_params(void)
{
    grains_params p = scene_params();
    p.N_max = 1000000;
    p.R_min = 1e-3;
    p.R_max = 4e-3;
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = 2500, .E = 1e7, .nu = 0.25};
    p.seed = 3;
    return p;
}

static grains_spawn_region region(grains_vec3 lo, grains_vec3 hi, long rate)
{
    grains_spawn_region r = {lo, hi, 0, 0, 0, 0, rate, 0, {0, 0, 0}, {0, 0, 0},
                             {GRAINS_SIZES_UNIFORM, 1e-3, 4e-3, 0, 0, 0, {0}, {0}, 0}};
    return r;
}

static int inside(grains_vec3 x, grains_spawn_region r)
{
    return x.x >= r.lo.x && x.x <= r.hi.x && x.y >= r.lo.y && x.y <= r.hi.y && x.z >= r.lo.z && x.z <= r.hi.z;
}

/* Region 0 adds its count of material 1, tag 7; region 1, a box that holds
 * a handful, stops full after 5 steps without a fit; each particle lies in
 * its region with its region's tag and material. */
static void regions_stop_and_label(test_ctx *t)
{
    grains_params p = region_params();
    p.n_spawns = 2;
    p.spawn[0] = region((grains_vec3){0, 0, 0}, (grains_vec3){0.04, 0.04, 0.04}, 20);
    p.spawn[0].count = 150, p.spawn[0].material = 1, p.spawn[0].tag = 7;
    p.spawn[1] = region((grains_vec3){0.1, 0, 0}, (grains_vec3){0.11, 0.01, 0.01}, 20);
    p.spawn[1].full_after = 5, p.spawn[1].tag = 2;
    grains_sim *sim = scene(&p);
    advance(sim, 200);
    grains_spawn_report a = grains_sim_spawn_report(sim, 0), b = grains_sim_spawn_report(sim, 1);
    printf("  region 0: %ld added, stop %d at step %ld; region 1: %ld added, stop %d at step %ld\n", a.added, a.stop,
           a.stop_step, b.added, b.stop, b.stop_step);
    CHECK(t, a.stop == GRAINS_SPAWN_COUNT_REACHED && a.added == 150, "region 0 stops at its count of 150");
    CHECK(t, b.stop == GRAINS_SPAWN_FULL && b.added > 0 && b.added < 50 && b.idle_steps == 5,
          "region 1 stops full after 5 idle steps");
    long n0 = 0, n1 = 0, wrong = 0;
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_particle q = get(sim, i);
        if (q.tag == 7)
            n0++, wrong += !inside(q.x, p.spawn[0]) || q.material != 1;
        else if (q.tag == 2)
            n1++, wrong += !inside(q.x, p.spawn[1]) || q.material != 0;
        else
            wrong++;
    }
    CHECK(t, n0 == a.added && n1 == b.added && wrong == 0, "%ld + %ld particles by tag, %ld misplaced or mislabelled",
          n0, n1, wrong);
    CHECK(t, grains_sim_has_tags(sim), "a run with tagged regions writes tags");
    grains_sim_destroy(sim);
}

/* The run's spawn keys and the same region listed give the same particles to the bit. */
static void listed_region_is_the_default(test_ctx *t)
{
    grains_params p = region_params();
    p.N_max = 300, p.N_spawn = 40;
    p.s_min = (grains_vec3){0, 0, 0}, p.s_max = (grains_vec3){0.06, 0.06, 0.06};
    grains_params q = p;
    q.n_spawns = 1;
    q.spawn[0] = grains_params_spawn(&p, 0);
    grains_sim *a = scene(&p), *b = scene(&q);
    advance(a, 50);
    advance(b, 50);
    int same = grains_sim_count(a) == grains_sim_count(b) && grains_sim_count(a) == 300;
    for (size_t i = 0; same && i < grains_sim_count(a); i++)
        same = same_particle(get(a, i), get(b, i));
    CHECK(t, same, "the spawn keys and the listed region give the same 300 particles (%zu, %zu)", grains_sim_count(a),
          grains_sim_count(b));
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* Radii of a region filled until it jams (most attempts fail, small grains
 * would fit more often). */
static grains_sim *fill(grains_size_distribution sizes, long steps, size_t *n)
{
    grains_params p = region_params();
    p.n_spawns = 1;
    p.spawn[0] = region((grains_vec3){0, 0, 0}, (grains_vec3){0.08, 0.08, 0.08}, 200);
    p.spawn[0].sizes = sizes;
    grains_sim *sim = scene(&p);
    advance(sim, steps);
    *n = grains_sim_count(sim);
    return sim;
}

/* Discrete sizes: 1 and 3 mm, half the mass each, so 27 small grains for
 * one large: the large grains' share of the number, p = 1/28, holds in a
 * box filled until it jams. The count of large grains is binomial; 4
 * standard deviations. */
static void discrete_by_mass(test_ctx *t)
{
    grains_size_distribution d = {GRAINS_SIZES_DISCRETE, 1e-3, 4e-3, 0, 0, 2, {1e-3, 3e-3}, {0.5, 0.5}, 1};
    CHECK_ABS(t, size_draw_share(&d, 1), 1.0 / 28, 1e-15, "number share of the large radius");
    size_t n, large = 0;
    grains_sim *sim = fill(d, 300, &n);
    for (size_t i = 0; i < n; i++)
        large += get(sim, i).R == 3e-3;
    double p = 1.0 / 28, expect = (double)n * p, sd = sqrt(expect * (1 - p));
    printf("  discrete: %zu grains, %zu large (expected %.1f +- %.1f)\n", n, large, expect, sd);
    CHECK(t, n > 3000, "the box fills (%zu grains)", n);
    CHECK_ABS(t, (double)large, expect, 4 * sd, "large grains among the spawned");
    grains_sim_destroy(sim);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The lognormal's distribution function, truncated to [lo, hi]. */
static double lognormal_cdf(const grains_size_distribution *d, double R)
{
    double z = log(R / d->median) / d->sigma, a = log(d->R_lo / d->median) / d->sigma,
           b = log(d->R_hi / d->median) / d->sigma;
    double F = 0.5 * erfc(-z / sqrt(2)), Fa = 0.5 * erfc(-a / sqrt(2)), Fb = 0.5 * erfc(-b / sqrt(2));
    return (F - Fa) / (Fb - Fa);
}

/* Lognormal sizes (median 1.8 mm, sigma 0.35, within [1, 4] mm): the
 * Kolmogorov-Smirnov distance of the spawned radii from the truncated
 * distribution is below its 0.1% critical value 1.95 / sqrt(n). */
static void lognormal(test_ctx *t)
{
    grains_size_distribution d = {GRAINS_SIZES_LOGNORMAL, 1e-3, 4e-3, 1.8e-3, 0.35, 0, {0}, {0}, 0};
    size_t n;
    grains_sim *sim = fill(d, 300, &n);
    double *R = malloc(n * sizeof *R), D = 0;
    for (size_t i = 0; i < n; i++)
        R[i] = get(sim, i).R;
    qsort(R, n, sizeof *R, by_value);
    for (size_t i = 0; i < n; i++) {
        double F = lognormal_cdf(&d, R[i]);
        D = nan_max(D, nan_max(fabs(F - (double)i / (double)n), fabs(F - (double)(i + 1) / (double)n)));
    }
    printf("  lognormal: %zu grains, KS distance %.4f (0.1%% critical value %.4f)\n", n, D, 1.95 / sqrt((double)n));
    CHECK(t, n > 3000, "the box fills (%zu grains)", n);
    CHECK(t, R[0] >= 1e-3 && R[n - 1] <= 4e-3, "radii within [1, 4] mm: %g to %g", R[0], R[n - 1]);
    CHECK(t, D < 1.95 / sqrt((double)n), "KS distance %.4f", D);
    free(R);
    grains_sim_destroy(sim);
}

/* Grains falling through a tag rule's box take its tag; those that never
 * reach it keep their region's. */
static void tag_rules(test_ctx *t)
{
    grains_params p = region_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.n_spawns = 1;
    p.spawn[0] = region((grains_vec3){0, 0, 0.1}, (grains_vec3){0.04, 0.04, 0.12}, 5);
    p.spawn[0].count = 40, p.spawn[0].tag = 1;
    p.n_tag_rules = 2;
    p.tag_rule[0] = (grains_tag_rule){{-1, -1, -1}, {0.02, 1, 0.05}, 5};
    p.tag_rule[1] = (grains_tag_rule){{0.02, -1, -1}, {1, 1, 0.05}, 6};
    grains_sim *sim = scene(&p);
    advance(sim, 300); /* the 40 are in, falling */
    long early = 0, late = 0, wrong = 0;
    for (size_t i = 0; i < grains_sim_count(sim); i++)
        early += get(sim, i).tag == 1;
    double dt = grains_sim_params(sim)->dt;
    advance(sim, (long)(0.2 / dt)); /* 0.2 s: every grain falls below z = 0.05 */
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_particle q = get(sim, i);
        late += q.x.z < 0.05;
        wrong += q.tag != (q.x.x < 0.02 ? 5 : 6);
    }
    CHECK(t, early == 40, "above the rules the 40 grains keep their region's tag (%ld do)", early);
    CHECK(t, late == 40 && wrong == 0, "%ld grains below, %ld with the wrong side's tag", late, wrong);
    grains_sim_destroy(sim);
}

/* A run that starts empty and spawns ahead (for its frame 0) holds the
 * first step's particles before it, and then moves as the run that did not. */
static void spawn_ahead(test_ctx *t)
{
    grains_sim *a = spawn_run(400, 0, 1), *b = spawn_run(400, 0, 1);
    grains_error err;
    CHECK(t, grains_sim_spawn_ahead(a, &err) == GRAINS_OK, "spawn ahead");
    step(b);
    CHECK(t, grains_sim_count(a) > 0 && grains_sim_count(a) == grains_sim_count(b),
          "before the first step, the %zu particles the first step spawns (%zu)", grains_sim_count(a),
          grains_sim_count(b));
    advance(a, 30);
    advance(b, 29);
    int same = grains_sim_count(a) == grains_sim_count(b);
    for (size_t i = 0; same && i < grains_sim_count(a); i++)
        same = same_particle(get(a, i), get(b, i));
    CHECK(t, same, "after 30 steps the same %zu particles as without spawning ahead", grains_sim_count(a));
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* The simulation of a grain that an insertion region adds 0.1 mm from a
 * grain at rest (`onto_floor` 0: along x) or above a floor at z = 0 (1),
 * towards it at 1 m/s, without gravity; `c` gets the added grain as the
 * first step leaves it. */
static grains_sim *newcomer_scene(int onto_floor, grains_particle *c)
{
    const double R = 1e-3, gap = 1e-4;
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.N_max = 2;
    p.N_spawn = 1;
    p.v0 = onto_floor ? (grains_vec3){0, 0, -1} : (grains_vec3){1, 0, 0};
    grains_vec3 at = onto_floor ? (grains_vec3){0, 0, R + gap} : (grains_vec3){0, 0, 0};
    p.s_min = (grains_vec3){at.x - 1e-7, at.y - 1e-7, at.z - 1e-7};
    p.s_max = (grains_vec3){at.x + 1e-7, at.y + 1e-7, at.z + 1e-7};
    grains_sim *sim = scene(&p);
    if (onto_floor) /* (and a grain at rest far off: grains wait for lists that hold one) */
        floor_mesh(sim, 0.01, 0);
    add(sim, onto_floor ? (grains_vec3){5e-3, 0, R} : (grains_vec3){2 * R + gap, 0, 0}, (grains_vec3){0, 0, 0},
        (grains_vec3){0, 0, 0}, R);
    step(sim);
    *c = get(sim, grains_sim_count(sim) - 1);
    return sim;
}

/* The same scene with both grains placed by the caller: listed from the
 * first step. */
static grains_sim *placed_scene(int onto_floor, grains_particle c)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 1e-3;
    grains_sim *sim = scene(&p);
    if (onto_floor)
        floor_mesh(sim, 0.01, 0);
    add(sim, onto_floor ? (grains_vec3){5e-3, 0, 1e-3} : (grains_vec3){2.1e-3, 0, 0}, (grains_vec3){0, 0, 0},
        (grains_vec3){0, 0, 0}, 1e-3);
    add(sim, c.x, c.v, c.w, c.R);
    return sim;
}

/* A grain an insertion region adds waits for the next rebuild outside the
 * lists (a newcomer: no rebuild for each added grain) only while nothing can
 * reach it: one added 0.1 mm from a grain or a wall, approaching at 1 m/s,
 * touches long before any grain has moved half the skin (0.3 mm), which
 * alone would rebuild the lists, and must be listed by then. Its collision
 * is the one of the same grains placed by the caller (listed from the first
 * step), to round-off: velocities after 2 ms (the contact over) within 1e-12
 * m/s, and a pair's momentum kept to 1e-15 of it. Listed too late, the grain
 * would run 0.2 mm into the other before any force. */
static void newcomers_meet_in_time(test_ctx *t)
{
    for (int floor = 0; floor <= 1; floor++) {
        grains_particle c;
        grains_sim *a = newcomer_scene(floor, &c);
        grains_sim *b = placed_scene(floor, c);
        long steps = (long)(2e-3 / grains_sim_params(a)->dt);
        advance(a, steps);
        advance(b, steps);
        grains_particle ca = get(a, grains_sim_count(a) - 1), cb = get(b, grains_sim_count(b) - 1);
        grains_vec3 va = ca.v, vb = cb.v;
        double diff = fabs(va.x - vb.x) + fabs(va.y - vb.y) + fabs(va.z - vb.z);
        printf("  %s: the added grain leaves at (%.6f, %.6f, %.6f) m/s, placed (%.6f, %.6f, %.6f)\n",
               floor ? "floor" : "grain", va.x, va.y, va.z, vb.x, vb.y, vb.z);
        CHECK(t, floor ? va.z > 0 : va.x < 0.5, "the added grain bounced off the %s", floor ? "floor" : "grain");
        CHECK(t, diff < 1e-12, "and as the placed one does (|dv| %.3g m/s)", diff);
        if (!floor) {
            double p = get(a, 0).v.x + ca.v.x;
            CHECK_ABS(t, p, 1.0, 1e-15, "the pair's momentum (per mass) after the collision");
        }
        grains_sim_destroy(a);
        grains_sim_destroy(b);
    }
}

/* A checkpoint written while a newcomer waits (after the binned grains, in
 * no list) keeps it so: the run read from it goes on as the one that never
 * stopped, through the collision, bit for bit. */
static void newcomer_resumes(test_ctx *t)
{
    const char *path = "test_spawn_newcomer.grains";
    grains_particle c;
    grains_error err;
    grains_sim *a = newcomer_scene(0, &c);
    CHECK(t, a->pt.n == a->grid.n_particles + 1, "one newcomer waits after the first step (%zu grains, %zu binned)",
          a->pt.n, a->grid.n_particles);
    CHECK(t, grains_checkpoint_write(path, a, "app", 3, &err) == GRAINS_OK, "write: %s", err.message);
    grains_sim *b = NULL;
    grains_params p = *grains_sim_params(a);
    CHECK(t, grains_sim_create(&b, &p, &err) == GRAINS_OK, "create: %s", err.message);
    grains_status s = grains_checkpoint_read_sim(path, b, &err);
    CHECK(t, s == GRAINS_OK, "read: %s", s == GRAINS_OK ? "" : err.message);
    if (s == GRAINS_OK) {
        CHECK(t, b->pt.n == b->grid.n_particles + 1, "read back as a newcomer");
        long steps = (long)(2e-3 / p.dt);
        advance(a, steps);
        advance(b, steps);
        CHECK(t, same_particles(a, b), "the resumed run is the one that went on, %ld steps later", steps);
    }
    remove(path);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* Grains that enter one a step, each clear of everything, wait as
 * newcomers: 200 of them rebuild the lists at the first step, again to
 * list the first grain (newcomers wait for lists that hold a grain), and
 * then once when 64 wait and one more enters, not once for each grain. */
static void pour_rebuilds(test_ctx *t)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 1e-3;
    p.N_max = 200;
    p.N_spawn = 1;
    p.v0 = (grains_vec3){0, 0, 0};
    p.s_min = (grains_vec3){-0.05, -0.05, -0.05};
    p.s_max = (grains_vec3){0.05, 0.05, 0.05};
    grains_sim *sim = scene(&p);
    advance(sim, 65);
    const char *path = "test_spawn_pour.grains";
    grains_error err;
    grains_sim *b = NULL;
    CHECK(t, sim->pt.n == sim->grid.n_particles + NEWCOMERS_MAX, "after 65 steps %d newcomers wait (%zu grains, "
          "%zu binned)", NEWCOMERS_MAX, sim->pt.n, sim->grid.n_particles);
    CHECK(t, grains_checkpoint_write(path, sim, "app", 3, &err) == GRAINS_OK && grains_sim_create(&b, &p, &err) ==
          GRAINS_OK && grains_checkpoint_read_sim(path, b, &err) == GRAINS_OK, "and a checkpoint of them reads back");
    remove(path);
    grains_sim_destroy(b);
    advance(sim, 135);
    size_t expected = 2 + (200 - 1) / 65;
    CHECK(t, grains_sim_count(sim) == 200 && grains_sim_rebuilds(sim) == expected,
          "200 grains entered (%zu), the lists rebuilt %zu times (%zu expected)", grains_sim_count(sim),
          grains_sim_rebuilds(sim), expected);
    grains_sim_destroy(sim);
}

/* The grains a region near x = L adds with a mesh point (radius 0.5 mm) at
 * x = 0.5 mm of a box periodic along x (period L = 20 mm), repeated with
 * it, after 20 attempts: a grain (R = 1 mm) centred at x = L - 0.5 mm lies
 * 1 mm from the point's image, which it overlaps (1.5 mm), though outside
 * the point's own box; one centred at L / 2 is clear of both. */
static size_t spawned_beside_image(double x_region)
{
    const double L = 0.02;
    grains_params p = scene_params();
    p.R_min = p.R_max = 1e-3;
    p.periodic = 1;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){L, L, L};
    p.N_max = 1;
    p.N_spawn = 1;
    p.R_mesh[0] = 5e-4;
    p.v0 = (grains_vec3){0, 0, 0};
    p.s_min = (grains_vec3){x_region - 1e-7, L / 2 - 1e-7, L / 2 - 1e-7};
    p.s_max = (grains_vec3){x_region + 1e-7, L / 2 + 1e-7, L / 2 + 1e-7};
    grains_sim *sim = scene(&p);
    grains_mesh *m;
    grains_error err;
    uint32_t v[1] = {0};
    if (grains_mesh_create(&m, &err) != GRAINS_OK || grains_mesh_add_vertex(m, (grains_vec3){5e-4, L / 2, L / 2},
                                                                             &err) != GRAINS_OK ||
        grains_mesh_add_element(m, 1, v, 0, 5e-4, &err) != GRAINS_OK || grains_sim_set_mesh(sim, m, &err) != GRAINS_OK ||
        grains_sim_set_mesh_periodic(sim, 0, 1, &err) != GRAINS_OK) {
        fprintf(stderr, "periodic point: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(m);
    advance(sim, 20);
    size_t n = grains_sim_count(sim);
    grains_sim_destroy(sim);
    return n;
}

/* An insertion region's attempts meet a periodic mesh's elements by their
 * nearest images, as the contacts do: none fits over an image. */
static void periodic_mesh_images(test_ctx *t)
{
    size_t beside = spawned_beside_image(0.02 - 5e-4), clear = spawned_beside_image(0.01);
    CHECK(t, beside == 0 && clear == 1, "grains added over the image of a periodic mesh point: %zu (0), clear of it: %zu "
          "(1)", beside, clear);
}

/* Answers yes from its third question on. */
static int third_time(void *ctx)
{
    int *asked = ctx;
    return ++*asked >= 3;
}

/* A stop asked for inside a step's attempts (grains_sim_ask_stop) ends the
 * step after 3 x 1024 of them, and the simulation takes no step more. */
static void stop_inside_attempts(test_ctx *t)
{
    grains_params p = scene_params();
    p.N_max = 100000;
    p.N_spawn = 1000000;
    p.R_min = p.R_max = 1e-4;
    p.s_min = (grains_vec3){0, 0, 0};
    p.s_max = (grains_vec3){0.1, 0.1, 0.1};
    grains_sim *sim = scene(&p);
    int asked = 0;
    grains_sim_ask_stop(sim, third_time, &asked);
    grains_error err;
    grains_status s = grains_sim_step(sim, &err);
    CHECK(t, s == GRAINS_ERR_STOPPED && asked == 3, "the step stops at the third question (%s, asked %d times)",
          grains_status_string(s), asked);
    CHECK(t, strstr(err.message, "after 3072 of insertion region 0's attempts") != NULL, "it says where: %s",
          err.message);
    CHECK(t, grains_sim_step(sim, &err) == GRAINS_ERR_ARG && strstr(err.message, "stopped part-way"),
          "a later step is refused: %s", err.message);
    CHECK(t, grains_sim_spawn_ahead(sim, &err) == GRAINS_ERR_ARG, "and so is a spawn ahead");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    no_overlaps(&t);
    unbiased_radii(&t);
    seeded(&t);
    regions_stop_and_label(&t);
    listed_region_is_the_default(&t);
    discrete_by_mass(&t);
    lognormal(&t);
    tag_rules(&t);
    spawn_ahead(&t);
    stop_inside_attempts(&t);
    newcomers_meet_in_time(&t);
    newcomer_resumes(&t);
    pour_rebuilds(&t);
    periodic_mesh_images(&t);
    return test_report(&t, "test_spawn");
}
