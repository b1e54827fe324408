/* A rebuild's moves of the particles (particles_permute): every field of
 * each particle arrives at its new place, whole, on 1, 2 and 3 threads (on
 * several, each thread moves whole fields, following the permutation's
 * cycles with a bitmap of its own), with the per-step sums or without them
 * (then their memory, a rebuild's scratch, is left as it was); slot and id
 * stay each other's inverse. Permutations: one cycle through all, short
 * local cycles (a rebuild's usual), fixed points among them, and none. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "particles/particles.h"
#include "util/rng.h"

enum { N = 1000 };

/* Particle id's values, each field's own: what it must hold wherever it is. */
static void fill(grains_particles *pt, uint32_t i, uint32_t id)
{
    double a = id;
    pt->x[i] = v3(a, a + 0.1, a + 0.2), pt->v[i] = v3(-a, 1, 2), pt->w[i] = v3(3, -a, 4);
    pt->q[i] = (quat){a, 0.5, 0.25, -a};
    pt->R[i] = 1 + a;
    pt->mat[i] = (uint8_t)(id % 7);
    pt->tag[i] = -(int32_t)id;
    pt->f[i] = v3(a, 5, 6), pt->t[i] = v3(7, a, 8);
    pt->id[i] = id;
    pt->slot[id] = i;
}

static int holds(const grains_particles *pt, uint32_t i, uint32_t id, int with_sums)
{
    grains_particles want = *pt;
    vec3 x, v, w, f, t;
    quat q;
    real R;
    uint8_t mat;
    int32_t tag;
    uint32_t slot[N], idv;
    want.x = &x, want.v = &v, want.w = &w, want.f = &f, want.t = &t, want.q = &q, want.R = &R, want.mat = &mat;
    want.tag = &tag, want.id = &idv, want.slot = slot;
    fill(&want, 0, id);
    int same = !memcmp(&x, &pt->x[i], sizeof x) && !memcmp(&v, &pt->v[i], sizeof v) &&
               !memcmp(&w, &pt->w[i], sizeof w) && !memcmp(&q, &pt->q[i], sizeof q) && R == pt->R[i] &&
               mat == pt->mat[i] && tag == pt->tag[i] && idv == pt->id[i] && pt->slot[id] == i;
    if (with_sums)
        same &= !memcmp(&f, &pt->f[i], sizeof f) && !memcmp(&t, &pt->t[i], sizeof t);
    return same;
}

/* where[] of kind k: 0 one cycle through all, 1 short cycles (runs of up to
 * 5 rotated, one run in 4 left in place), 2 none moved. */
static void permutation(uint32_t *where, int k, grains_rng *r)
{
    for (uint32_t i = 0; i < N; i++)
        where[i] = i;
    if (k == 0) {
        for (uint32_t i = 0; i < N; i++)
            where[i] = (i + 1) % N;
    } else if (k == 1) {
        for (uint32_t i = 0; i < N;) {
            uint32_t run = 1 + (uint32_t)(rng_uniform(r) * 5), end = i + run < N ? i + run : N;
            int still = rng_uniform(r) < 0.25;
            for (uint32_t j = i; j < end; j++)
                where[j] = still ? j : (j + 1 < end ? j + 1 : i);
            i = end;
        }
    }
}

int main(void)
{
    test_ctx t = {0, 0};
    grains_particles pt = {0};
    grains_error err;
    if (particles_reserve(&pt, N, &err) != GRAINS_OK) {
        CHECK(&t, 0, "reserve: %s", err.message);
        return test_report(&t, "particles");
    }
    pt.n = N;
    grains_rng r;
    rng_seed(&r, 2026);
    uint32_t where[N];
    const char *kinds[] = {"one cycle through all", "short local cycles", "none moved"};
    for (int k = 0; k < 3; k++)
        for (int threads = 1; threads <= 3; threads++)
            for (int with_sums = 0; with_sums <= 1; with_sums++) {
                for (uint32_t i = 0; i < N; i++)
                    fill(&pt, i, i);
                permutation(where, k, &r);
                uint32_t to[N];
                memcpy(to, where, sizeof to);
                particles_permute(&pt, where, with_sums, threads);
                int all = 1, sums_kept = 1;
                for (uint32_t id = 0; id < N; id++) {
                    all &= holds(&pt, to[id], id, with_sums);
                    if (!with_sums) /* (left in place: particle i's as filled) */
                        sums_kept &= pt.f[id].y == 5 && pt.f[id].x == (double)id && pt.t[id].y == (double)id;
                }
                CHECK(&t, all && sums_kept, "%s, %d thread(s), %s: every field of every particle at its place%s",
                      kinds[k], threads, with_sums ? "with the sums" : "without the sums",
                      with_sums ? "" : ", the sums' memory untouched");
            }
    particles_free(&pt);
    return test_report(&t, "particles");
}
