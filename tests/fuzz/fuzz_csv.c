/* Fuzzes the particle CSV reader, and what the run does with its rows:
 * adding them to a simulation and the start check. The file read in 3
 * parts, as 3 ranks read it (grains_csv_part_each), must give the rows of
 * the whole read, in order, or be refused where the whole read is. */
#include <string.h>

#include "fuzz_input.h"
#include "grains/io.h"
#include "grains/sim.h"

typedef struct {
    const grains_particle *whole;
    size_t n, taken, differ;
} parts_check;

static grains_status same_row(void *ctx, size_t row, const grains_particle *p, grains_error *err)
{
    parts_check *c = ctx;
    (void)err;
    c->differ += row != c->taken || row >= c->n || memcmp(p, &c->whole[row], sizeof *p) != 0;
    c->taken++;
    return GRAINS_OK;
}

/* Aborts when the parts' rows differ from the whole read's (`ok`: whether it read). */
static void check_parts(const char *path, int ok, const grains_particle *p, size_t n)
{
    enum { PARTS = 3 };
    parts_check c = {p, ok ? n : 0, 0, 0};
    grains_csv_count before = {0, 0}, part;
    grains_error err;
    int refused = 0;
    for (int k = 0; k < PARTS; k++) {
        refused |= grains_csv_part_count(path, k, PARTS, &part, &err) != GRAINS_OK;
        refused |= grains_csv_part_each(path, k, PARTS, &before, same_row, &c, &err) != GRAINS_OK;
        before.lines += part.lines;
        before.rows += part.rows;
    }
    if (ok && (refused || c.differ || c.taken != n || before.rows != n))
        abort(); /* the parts lost, added or changed a row */
    if (!ok && !refused)
        abort(); /* the parts took what the whole refused */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grains_particle *p = NULL;
    size_t n = 0;
    grains_error err;
    const char *path = fuzz_file(data, size, ".csv");
    int ok = grains_csv_read(path, &p, &n, &err) == GRAINS_OK;
    check_parts(path, ok, p, n);
    if (ok && n <= 1000) {
        grains_params params;
        grains_params_default(&params);
        params.threads = 1;
        grains_params_derive(&params);
        grains_sim *sim = NULL;
        if (grains_sim_create(&sim, &params, &err) == GRAINS_OK) {
            int added = 1;
            for (size_t i = 0; i < n && added; i++)
                added = grains_sim_add_particle(sim, &p[i], &err) == GRAINS_OK;
            if (added)
                grains_sim_check_start(sim, &err);
            grains_sim_destroy(sim);
        }
    }
    free(p);
    return 0;
}
