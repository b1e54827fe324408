/* Contact histories follow their contacts (TinyDEM Eq. 50 integrates each
 * spring from first touch to separation): the store keeps every history
 * with its contact through any sequence of contacts beginning, continuing
 * and ending in list order, through windows that overflow, and through the
 * rebuild's gathering and re-ordering. Checked against a plain model: each
 * listed pair holds the number of its contact (0: none) and each history
 * carries that number in all its springs: the seven of hm_history, and the
 * narrower entries of runs whose friction modes act in no pair (sliding
 * only: 3 reals; sliding and twisting: 4; none: 1). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "contact/store.h"
#include "util/rng.h"

#define MAX_BLOCKS 8
#define MAX_LIST 48

typedef struct {
    int n_blocks;
    int len[MAX_BLOCKS];             /* list entries of each block */
    double id[MAX_BLOCKS][MAX_LIST]; /* contact number of each entry, 0: none */
} model;

static void stamp(real *h, int width, double id)
{
    for (int a = 0; a < width; a++)
        h[a] = id + 0.1 * a;
}

static int stamped(const real *h, int width, double id)
{
    for (int a = 0; a < width; a++)
        if (h[a] != id + 0.1 * a)
            return 0;
    return 1;
}

/* One step of a block: contacts begin, continue (checked, restamped) or end. */
static void walk_block(test_ctx *t, contact_store *cs, store_queue *q, model *m, int b, grains_rng *rng,
                       double *next_id)
{
    store_stream s;
    store_open(&s, cs, (uint32_t)b, q);
    const int w = cs->layout.width;
    for (int k = 0; k < m->len[b]; k++) {
        double u = rng_uniform(rng), *id = &m->id[b][k];
        if (*id != 0 && u < 0.2) {
            store_drop(&s);
            *id = 0;
        } else if (*id != 0) {
            real *h = store_carry(&s);
            CHECK(t, stamped(h, w, *id), "block %d entry %d: history of contact %g carried intact", b, k, *id);
            *id = (*next_id)++;
            stamp(h, w, *id);
        } else if (u < 0.3) {
            real *h = store_insert(&s);
            CHECK(t, h && h[0] == 0 && h[w - 1] == 0, "new history is zero");
            *id = (*next_id)++;
            stamp(h, w, *id);
        }
    }
    store_close(&s);
}

/* The rebuild: gathered in block order, then re-dealt to new blocks with some
 * contacts ended, into windows with random spare room. */
static void rebuild(test_ctx *t, contact_store *cs, model *m, grains_rng *rng)
{
    size_t n = 0;
    grains_status s = store_gather(cs, &n, NULL);
    CHECK(t, s == GRAINS_OK, "gather");
    size_t k = 0;
    int order_ok = 1;
    double old_id[MAX_BLOCKS * MAX_LIST];
    for (int b = 0; b < m->n_blocks; b++)
        for (int e = 0; e < m->len[b]; e++)
            if (m->id[b][e] != 0) {
                order_ok &= k < n && stamped(store_entry(cs, k), cs->layout.width, m->id[b][e]);
                old_id[k++] = m->id[b][e];
            }
    CHECK(t, order_ok && k == n, "gathered %zu histories in list order (model: %zu)", n, k);

    model nm;
    memset(&nm, 0, sizeof nm);
    nm.n_blocks = 1 + (int)(rng_uniform(rng) * MAX_BLOCKS);
    for (int b = 0; b < nm.n_blocks; b++)
        nm.len[b] = 1 + (int)(rng_uniform(rng) * (MAX_LIST - 1));
    store_key *keys = calloc(n ? n : 1, sizeof *keys);
    /* Each history goes to a random free entry of a random new block, or ends. */
    for (size_t h = 0; h < n; h++) {
        int b = (int)(rng_uniform(rng) * nm.n_blocks), e = (int)(rng_uniform(rng) * nm.len[b]);
        if (rng_uniform(rng) < 0.1 || nm.id[b][e] != 0) {
            keys[h].i = STORE_DEAD;
            continue;
        }
        nm.id[b][e] = old_id[h];
        keys[h].i = (uint32_t)b;
        keys[h].j = (uint32_t)e;
    }
    uint32_t pending[MAX_BLOCKS], live[MAX_BLOCKS];
    for (int b = 0; b < nm.n_blocks; b++) {
        live[b] = 0;
        for (int e = 0; e < nm.len[b]; e++)
            live[b] += nm.id[b][e] != 0;
        pending[b] = (uint32_t)(rng_uniform(rng) * 3);
    }
    CHECK(t, store_windows(cs, pending, live, (size_t)nm.n_blocks, NULL) == GRAINS_OK, "windows");
    for (size_t h = 0; h < n; h++) {
        if (keys[h].i == STORE_DEAD)
            continue;
        uint32_t b = keys[h].i, rank = 0;
        for (uint32_t e = 0; e < keys[h].j; e++)
            rank += nm.id[b][e] != 0;
        keys[h].j = (uint32_t)cs->block[b].base + rank;
    }
    store_permute(cs, keys, n);
    free(keys);
    for (int b = 0; b < nm.n_blocks; b++) {
        size_t place = cs->block[b].base;
        for (int e = 0; e < nm.len[b]; e++)
            if (nm.id[b][e] != 0)
                CHECK(t, stamped(store_entry(cs, place++), cs->layout.width, nm.id[b][e]),
                      "block %d entry %d in its new place", b, e);
    }
    *m = nm;
}

static void run_store(test_ctx *t, store_layout L, store_queue *q)
{
    contact_store cs;
    store_init(&cs, L);
    grains_rng rng;
    rng_seed(&rng, 7);
    model m;
    memset(&m, 0, sizeof m);
    double next_id = 1;
    /* Empty windows to begin with: every first contact overflows. */
    m.n_blocks = 4;
    uint32_t zero[4] = {0, 0, 0, 0};
    for (int b = 0; b < m.n_blocks; b++)
        m.len[b] = 40;
    CHECK(t, store_windows(&cs, zero, zero, 4, NULL) == GRAINS_OK, "first windows");
    int overflowed = 0, queued = 0;
    for (int round = 0; round < 60; round++) {
        for (int step = 0; step < 5; step++)
            for (int b = 0; b < m.n_blocks; b++) {
                walk_block(t, &cs, q, &m, b, &rng, &next_id);
                overflowed |= cs.block[b].n > cs.block[b].cap;
                queued |= q->cap > 0;
            }
        rebuild(t, &cs, &m, &rng);
    }
    CHECK(t, overflowed && queued, "width %d: the overflow arrays (%d) and the queue (%d) were exercised", L.width,
          overflowed, queued);
    store_free(&cs);
}

int main(void)
{
    test_ctx t = {0, 0};
    store_queue q = {0}; /* one queue through stores of every width, as a thread's through runs */
    const int modes[4][3] = {{1, 1, 1}, {1, 0, 0}, {1, 0, 1}, {0, 0, 0}};
    const int widths[4] = {STORE_FULL_WIDTH, 3, 4, 1};
    for (int k = 0; k < 4; k++) {
        store_layout L = store_layout_of(modes[k][0], modes[k][1], modes[k][2]);
        CHECK(&t, L.width == widths[k], "layout %d: width %d (want %d)", k, L.width, widths[k]);
        run_store(&t, L, &q);
    }
    store_queue_free(&q);
    return test_report(&t, "store");
}
