/* Fuzzes the post-processors' option ranges where they reach the library:
 * a grid of the fields (grains fields --box, --width, --cell, --average,
 * --periodic, --kernel, --axes; Python's Fields) and a frame of a few grains
 * of any values, from the input's doubles and bytes. What must hold: a grid
 * is made or refused (no overflow of the kernel's reach, no cells of no
 * volume), a frame is added or refused, and added frames leave only finite
 * means and errors (nothing that is not a number is ever written), also
 * when a frame is stopped part-way. */
#include <math.h>

#include "fuzz_input.h"
#include "grains/fields.h"

/* The work an input may take, in the library's own questions whether to
 * stop (grains_cg_ask_stop, one every 65,536 nodes of the kernel visited or
 * cells filled: ~50 ms here), and the cells it may fill (~1 KB each): a
 * grid of 2M cells, or a kernel of 262,144 nodes that 3 frames of 4 grains
 * and 4 long branches visit 2e8 times, is legitimate and slow. Held so, the
 * fuzzer runs ~470 inputs a second (8 with 16 questions and 65,536 cells). */
enum { MAX_QUESTIONS = 4, MAX_CELLS_FILLED = 1 << 14 };

static int budget_spent(void *ctx)
{
    int *questions = ctx;
    return ++*questions > MAX_QUESTIONS;
}

/* The input as numbers: doubles taken from its bytes in turn, 0 past its end. */
typedef struct {
    const uint8_t *data;
    size_t size, at;
} numbers;

static double next_double(numbers *in)
{
    double x = 0;
    if (in->at + sizeof x <= in->size)
        memcpy(&x, in->data + in->at, sizeof x);
    in->at += sizeof x;
    return x;
}

static unsigned next_byte(numbers *in)
{
    return in->at < in->size ? in->data[in->at++] : 0;
}

static grains_vec3 next_vec(numbers *in)
{
    grains_vec3 v;
    v.x = next_double(in), v.y = next_double(in), v.z = next_double(in);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    numbers in = {data, size, 0};
    grains_cg_grid g;
    memset(&g, 0, sizeof g);
    unsigned flags = next_byte(&in);
    g.lo = next_vec(&in), g.hi = next_vec(&in);
    for (int a = 0; a < 3; a++) {
        g.n[a] = (int)(next_byte(&in) | next_byte(&in) << 8) - 256; /* (from -256: counts below 1 too) */
        g.averaged[a] = flags >> a & 1;
        g.periodic[a] = flags >> (3 + a) & 1;
    }
    g.kernel = flags >> 6 & 1 ? GRAINS_CG_LUCY : GRAINS_CG_GAUSSIAN;
    g.width = next_double(&in);
    if (flags >> 7 & 1)
        for (int a = 0; a < 3; a++)
            g.axis[a] = next_vec(&in);
    grains_cg *cg;
    grains_error err;
    if (grains_cg_create(&cg, &g, &err) != GRAINS_OK)
        return 0;
    if (grains_cg_cells(cg) > MAX_CELLS_FILLED) {
        grains_cg_destroy(cg); /* (made, its pages not touched) */
        return 0;
    }
    int questions = 0;
    grains_cg_ask_stop(cg, budget_spent, &questions);
    enum { N = 4 };
    grains_vec3 x[N], v[N];
    double mass[N], volume[N];
    int coordination[N];
    grains_cg_contact c[N];
    for (int frame = 0; frame < 3 && in.at < in.size; frame++) {
        for (int i = 0; i < N; i++) {
            x[i] = next_vec(&in), v[i] = next_vec(&in);
            mass[i] = next_double(&in), volume[i] = next_double(&in);
            coordination[i] = (int)next_byte(&in) - 8;
            c[i].x_a = next_vec(&in), c[i].x_b = next_vec(&in), c[i].f = next_vec(&in);
        }
        grains_cg_frame f = {N, x, v, mass, volume, coordination, (size_t)(next_byte(&in) % (N + 1)), c};
        grains_cg_add_frame(cg, &f, &err);
    }
    size_t n = grains_cg_cells(cg) * GRAINS_CG_COMPONENTS;
    double *mean = malloc(n * sizeof *mean), *sem = malloc(n * sizeof *sem);
    if (!mean || !sem)
        abort();
    grains_cg_mean(cg, mean);
    grains_cg_sem(cg, sem);
    for (size_t k = 0; k < n; k++)
        if (!isfinite(mean[k]) || !isfinite(sem[k]))
            abort(); /* a value that is not a number in the fields */
    free(mean), free(sem);
    grains_cg_destroy(cg);
    return 0;
}
