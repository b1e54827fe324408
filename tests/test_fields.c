/* A particle's fields in bulk (grains_sim_get_reals, _get_ints, _set_reals, _set_ints): the same
 * values as one particle at a time, a run of ids anywhere in the simulation, and a refused set
 * that changes nothing. The facts:
 * - each field read in bulk is, bit for bit, what grains_sim_get_particle gives for every id;
 * - a field written in bulk is what each particle then holds, and a run stepped after it gives
 *   the same bits as the same values set one particle at a time;
 * - a value the run cannot take (a radius <= 0, a non-finite velocity, a material beyond the
 *   run's), an id past the last, a field of the other kind or the read-only id are refused
 *   with an error, and no particle changes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "grains/sim.h"
#include "support.h"

#define N 20

static grains_sim *cloud(int n_materials)
{
    grains_params p;
    grains_params_default(&p);
    p.N_max = 0;
    p.n_materials = n_materials;
    for (int m = 1; m < n_materials; m++)
        p.material[m] = (grains_material){.rho = p.rho * (1 + m), .E = p.E, .nu = p.nu};
    p.R_min = 0.003, p.R_max = 0.006;
    grains_sim *sim;
    grains_error err;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK) {
        fprintf(stderr, "test_fields: %s\n", err.message);
        return NULL;
    }
    for (int k = 0; k < N; k++) {
        grains_particle q = {{0.03 * (k % 5), 0.03 * (k / 5), 0.01 * (k % 3)},
                             {0.1 * k, -0.05 * k, 0.02},
                             {1.0 * k, 0, -0.5 * k},
                             {1, 0, 0, 0},
                             0.004 + 0.0001 * k,
                             k % n_materials,
                             k % 4};
        grains_sim_add_particle(sim, &q, NULL);
    }
    return sim;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Every field of ids [first, first + count) read in bulk against one at a time. */
static size_t bulk_differs(const grains_sim *sim, size_t first, size_t count)
{
    double r[3 * N];
    int64_t v[N];
    size_t bad = 0;
    grains_particle p;
    grains_bulk_field reals[] = {GRAINS_BULK_POSITION, GRAINS_BULK_VELOCITY, GRAINS_BULK_ANGULAR_VELOCITY,
                            GRAINS_BULK_RADIUS};
    for (int f = 0; f < 4; f++) {
        bad += grains_sim_get_reals(sim, reals[f], first, count, r, NULL) != GRAINS_OK;
        int w = reals[f] == GRAINS_BULK_RADIUS ? 1 : 3;
        for (size_t k = 0; k < count; k++) {
            grains_sim_get_particle(sim, first + k, &p);
            const double *want = reals[f] == GRAINS_BULK_POSITION ? &p.x.x
                                 : reals[f] == GRAINS_BULK_VELOCITY ? &p.v.x
                                 : reals[f] == GRAINS_BULK_ANGULAR_VELOCITY ? &p.w.x
                                                                             : &p.R;
            for (int c = 0; c < w; c++)
                bad += !same_bits(r[w * k + (size_t)c], want[c]);
        }
    }
    grains_bulk_field ints[] = {GRAINS_BULK_ID, GRAINS_BULK_TAG, GRAINS_BULK_MATERIAL};
    for (int f = 0; f < 3; f++) {
        bad += grains_sim_get_ints(sim, ints[f], first, count, v, NULL) != GRAINS_OK;
        for (size_t k = 0; k < count; k++) {
            grains_sim_get_particle(sim, first + k, &p);
            int64_t want = f == 0 ? (int64_t)(first + k) : f == 1 ? p.tag : p.material;
            bad += v[k] != want;
        }
    }
    return bad;
}

static void reads(test_ctx *t)
{
    grains_sim *sim = cloud(2);
    CHECK(t, sim != NULL, "a cloud of %d particles", N);
    if (!sim)
        return;
    CHECK(t, bulk_differs(sim, 0, N) == 0, "every field of every particle read in bulk is the single read's, bit "
          "for bit");
    advance(sim, 50); /* (every step checked: a failed advance moves nothing, and the reads would agree) */
    CHECK(t, bulk_differs(sim, 7, 9) == 0, "after 50 steps (particles stored in another order), ids 7 to 15 too");
    CHECK(t, bulk_differs(sim, N, 0) == 0, "an empty run of ids at the end reads nothing and succeeds");
    grains_sim_destroy(sim);
}

/* The state of every particle, compared bit for bit. */
static size_t states_differ(const grains_sim *a, const grains_sim *b)
{
    size_t bad = 0;
    for (size_t id = 0; id < N; id++) {
        grains_particle p, q;
        grains_sim_get_particle(a, id, &p);
        grains_sim_get_particle(b, id, &q);
        bad += memcmp(&p.x, &q.x, sizeof p.x) != 0 || memcmp(&p.v, &q.v, sizeof p.v) != 0 ||
               memcmp(&p.w, &q.w, sizeof p.w) != 0 || !same_bits(p.R, q.R) || p.tag != q.tag ||
               p.material != q.material;
    }
    return bad;
}

static void writes(test_ctx *t)
{
    grains_sim *bulk = cloud(2), *single = cloud(2);
    if (!bulk || !single)
        return;
    double v[3 * N], R[N];
    int64_t tag[N], mat[N];
    for (int k = 0; k < N; k++) {
        v[3 * k] = -0.2 * k, v[3 * k + 1] = 0.3, v[3 * k + 2] = 0.01 * k;
        R[k] = 0.0045 - 0.00005 * k;
        tag[k] = 100 + k, mat[k] = (k + 1) % 2;
    }
    grains_error err;
    int ok = grains_sim_set_reals(bulk, GRAINS_BULK_VELOCITY, 0, N, v, &err) == GRAINS_OK &&
             grains_sim_set_reals(bulk, GRAINS_BULK_RADIUS, 0, N, R, &err) == GRAINS_OK &&
             grains_sim_set_ints(bulk, GRAINS_BULK_TAG, 0, N, tag, &err) == GRAINS_OK &&
             grains_sim_set_ints(bulk, GRAINS_BULK_MATERIAL, 0, N, mat, &err) == GRAINS_OK;
    CHECK(t, ok, "velocities, radii, tags and materials set in bulk (%s)", ok ? "ok" : err.message);
    for (size_t id = 0; id < N; id++) {
        grains_particle p;
        grains_sim_get_particle(single, id, &p);
        p.v = (grains_vec3){v[3 * id], v[3 * id + 1], v[3 * id + 2]};
        p.R = R[id], p.tag = (int)tag[id], p.material = (int)mat[id];
        grains_sim_set_particle(single, id, &p);
    }
    CHECK(t, states_differ(bulk, single) == 0, "each particle holds what the bulk set gave it, as set one by one");
    advance(bulk, 200);
    advance(single, 200);
    CHECK(t, states_differ(bulk, single) == 0, "200 steps later the two runs have the same bits");
    grains_sim_destroy(bulk);
    grains_sim_destroy(single);
}

static void refusals(test_ctx *t)
{
    grains_sim *sim = cloud(2), *before = cloud(2);
    if (!sim || !before)
        return;
    double r[3 * N];
    int64_t v[N];
    for (int k = 0; k < 3 * N; k++)
        r[k] = 0.001;
    for (int k = 0; k < N; k++)
        v[k] = 1;
    grains_error err;
    r[11] = 0; /* particle 11's radius */
    CHECK(t, grains_sim_set_reals(sim, GRAINS_BULK_RADIUS, 0, N, r, &err) == GRAINS_ERR_RANGE &&
                 strstr(err.message, "particle 11's radius") != NULL,
          "a radius of 0 is refused, naming the particle (%s)", err.message);
    r[11] = 0.001;
    r[3 * 4 + 1] = NAN; /* particle 4's velocity y */
    CHECK(t, grains_sim_set_reals(sim, GRAINS_BULK_VELOCITY, 0, N, r, &err) == GRAINS_ERR_RANGE &&
                 strstr(err.message, "particle 4's velocity") != NULL,
          "a velocity that is not a number is refused (%s)", err.message);
    v[6] = 2; /* two materials: 0 and 1 */
    CHECK(t, grains_sim_set_ints(sim, GRAINS_BULK_MATERIAL, 0, N, v, &err) == GRAINS_ERR_RANGE &&
                 strstr(err.message, "particle 6's material") != NULL,
          "a material beyond the run's is refused (%s)", err.message);
    CHECK(t, grains_sim_get_reals(sim, GRAINS_BULK_POSITION, 15, 6, r, &err) == GRAINS_ERR_ARG,
          "ids past the last are refused (%s)", err.message);
    CHECK(t, grains_sim_get_ints(sim, GRAINS_BULK_POSITION, 0, 1, v, &err) == GRAINS_ERR_ARG &&
                 grains_sim_get_reals(sim, GRAINS_BULK_TAG, 0, 1, r, &err) == GRAINS_ERR_ARG &&
                 grains_sim_get_reals(sim, (grains_bulk_field)99, 0, 1, r, &err) == GRAINS_ERR_ARG,
          "a field of the other kind, or none, is refused (%s)", err.message);
    CHECK(t, grains_sim_set_ints(sim, GRAINS_BULK_ID, 0, 1, v, &err) == GRAINS_ERR_ARG, "the id is read only (%s)",
          err.message);
    CHECK(t, states_differ(sim, before) == 0, "after every refusal no particle has changed");
    grains_sim_destroy(sim);
    grains_sim_destroy(before);
}

int main(void)
{
    test_ctx t = {0, 0};
    reads(&t);
    writes(&t);
    refusals(&t);
    return test_report(&t, "test_fields");
}
