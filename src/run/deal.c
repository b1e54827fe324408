/* The particles' file read by ranks that each hold their own particles
 * alone: each reads its part of it (the lines that start in its share of
 * the bytes), so that the file is parsed once over the ranks, not once on
 * every rank, and no rank holds every row. Each counts its part's lines
 * and rows, learns those of the parts before its own, then adds its rows
 * as the ids of their rows in the file (grains_sim_deal_range), an error
 * at its line in the file. The first error in the file, that of the lowest
 * rank that found one, is every rank's: one message, which names the rank
 * only when the failure was that rank's alone (memory). */
#include <stdlib.h>

#include "run/run.h"

/* A rank's verdict as the ranks exchange it, with its part's counts. */
typedef struct {
    grains_error err;
    int failed;
    grains_csv_count count;
} part_verdict;

/* Whether only the rank that met it could have: not the input's fault. */
static int rank_alone(grains_status s) { return s == GRAINS_ERR_NOMEM || s == GRAINS_ERR_IO; }

/* Every rank's verdict and counts (counts[k], rank k's); returns the
 * first failure's status, its error in *err on every rank. */
static grains_status exchange(const grains_ranks *r, grains_status s, grains_error *err, grains_csv_count own,
                              grains_csv_count *counts)
{
    part_verdict mine = {.failed = s != GRAINS_OK, .count = own};
    if (s != GRAINS_OK)
        mine.err = *err;
    size_t cap = 0, *sizes = malloc((size_t)r->size * sizeof *sizes);
    if (!sizes)
        r->fail(r->ctx, "out of memory reading the particles: stopping them all"); /* (it does not return) */
    part_verdict *all = r->allgather(r->ctx, &mine, sizeof mine, sizes, NULL, &cap);
    free(sizes);
    int first = -1;
    for (int k = r->size - 1; k >= 0; k--) {
        counts[k] = all[k].count;
        first = all[k].failed ? k : first;
    }
    if (first >= 0) {
        grains_error e = all[first].err;
        if (first > 0 && rank_alone(e.status))
            grains_error_set(&e, e.status, e.file[0] ? e.file : NULL, e.line, "rank %d: %s", first, all[first].err.message);
        *err = e;
    }
    free(all);
    return first >= 0 ? err->status : GRAINS_OK;
}

typedef struct {
    grains_sim *sim;
    size_t taken;
} part_rows;

static grains_status take_row(void *ctx, size_t row, const grains_particle *p, grains_error *err)
{
    part_rows *pr = ctx;
    pr->taken++;
    return run_add_row(pr->sim, row, p, err);
}

grains_status run_load_part(const char *path, const grains_ranks *r, grains_sim *sim, grains_error *err)
{
    grains_csv_count own = {0, 0}, before = {0, 0}, whole = {0, 0};
    grains_csv_count *counts = malloc((size_t)r->size * sizeof *counts);
    if (!counts)
        r->fail(r->ctx, "out of memory reading the particles: stopping them all");
    grains_status s = exchange(r, grains_csv_part_count(path, r->rank, r->size, &own, err), err, own, counts);
    for (int k = 0; s == GRAINS_OK && k < r->size; k++) {
        if (k < r->rank)
            before.lines += counts[k].lines, before.rows += counts[k].rows;
        whole.rows += counts[k].rows;
    }
    part_rows pr = {sim, 0};
    if (s == GRAINS_OK) {
        grains_status mine = grains_sim_deal_range(sim, before.rows, own.rows, whole.rows, err);
        if (mine == GRAINS_OK)
            mine = grains_csv_part_each(path, r->rank, r->size, &before, take_row, &pr, err);
        if (mine == GRAINS_OK && pr.taken != own.rows)
            mine = grains_error_set(err, GRAINS_ERR_IO, path, 0, "changed while it was read (%zu rows, then %zu)",
                                    own.rows, pr.taken);
        s = exchange(r, mine, err, own, counts);
    }
    free(counts);
    return s;
}
