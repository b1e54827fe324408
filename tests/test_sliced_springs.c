/* The contact histories of a checkpoint read in slices (contact/store.h,
 * util/bytes.h), as ranks resuming a run read them: each of several
 * readers checks every spring of its slice and reads elsewhere the runs of
 * the histories it keeps. The fact checked: how the file is split among
 * readers changes nothing a reader can see. The springs kept are those
 * written, in their order, the slices' CRCs joined are the file's CRC,
 * and a damaged spring gives the error of one reader reading it whole,
 * whichever reader's slice holds it. Small windows (4 histories) split 22
 * histories in 3 blocks among 3 readers: 8, 8 and 6. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "contact/store.h"

#define N 22
#define READERS 3
#define WINDOW 4
#define BLOCKS 3

static const size_t block_n[BLOCKS] = {9, 0, 13};

/* Spring s of history k, as written. */
static real spring(size_t k, size_t s) { return (real)(k + 1) + 0.125 * (real)s; }

/* The store's file: the layout, the blocks' counts, then every spring
 * (spring(k, s), but bad_at's first one, NaN when bad_at >= 0), with a
 * CRC after them. */
static FILE *written(const store_layout *L, int bad_at)
{
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    bytes_out o;
    bytes_out_init(&o, f);
    bytes_put_u32(&o, (uint32_t)L->width);
    bytes_put_u64(&o, BLOCKS);
    for (size_t b = 0; b < BLOCKS; b++) {
        bytes_put_u64(&o, block_n[b]);
        bytes_put_u32(&o, 0);
    }
    for (size_t k = 0; k < N; k++)
        for (size_t s = 0; s < (size_t)L->width; s++)
            bytes_put_real(&o, (int)k == bad_at && s == 0 ? NAN : spring(k, s));
    bytes_put_crc(&o);
    rewind(f);
    return o.failed ? NULL : f;
}

static void input(FILE *f, bytes_in *in)
{
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    bytes_in_init(in, f, (uint64_t)size);
}

/* What the readers made of the file: the first reader's springs (it keeps
 * the histories of the keys live: every third, and the run 12..17), the
 * error they agree on and whether the CRC joined from their slices is the
 * file's. */
typedef struct {
    grains_status status;
    grains_error err;
    int crc_good;
    size_t n_kept;
} sliced;

static int live(size_t k) { return k % 3 == 0 || (k >= 12 && k < 18); }

static sliced read_sliced(FILE *f, const store_layout *L, real *kept0)
{
    sliced out = {GRAINS_OK, {0}, 0, 0};
    bytes_in in;
    input(f, &in);
    contact_store cs;
    store_init(&cs, *L);
    bytes_span springs;
    store_key keys[N];
    for (size_t k = 0; k < N; k++)
        keys[k] = (store_key){live(k) ? (uint32_t)k : STORE_DEAD, (uint32_t)k + 1};
    for (size_t k = 0; k < N; k++)
        out.n_kept += keys[k].i != STORE_DEAD;
    out.status = store_read_counts(&cs, &in, BLOCKS, &springs, &out.err);
    store_slice found[READERS];
    real *kept = malloc(out.n_kept * (size_t)L->width * sizeof *kept);
    for (int r = 0; out.status == GRAINS_OK && r < READERS; r++) {
        bytes_slicing sl = {r, READERS, WINDOW};
        if (!kept)
            out.status = GRAINS_ERR_NOMEM;
        else
            out.status = store_read_slice(&cs, &in, &springs, N, keys, r ? kept : kept0, &sl, &found[r], &out.err);
    }
    if (out.status == GRAINS_OK)
        out.status = store_slice_error(found, READERS, &out.err);
    uint32_t crc;
    bytes_slicing all = {0, READERS, WINDOW};
    if (out.status == GRAINS_OK && store_springs_crc(&cs, found, &all, N, &crc, &out.err) == GRAINS_OK) {
        bytes_span_known(&in, &springs, crc);
        bytes_splice(&in, &springs);
        out.crc_good = in.left == 4 && bytes_check_crc(&in);
    }
    free(kept);
    store_free(&cs);
    return out;
}

/* One reader reading them whole: its error. */
static grains_status read_whole(FILE *f, const store_layout *L, grains_error *err)
{
    bytes_in in;
    input(f, &in);
    contact_store cs;
    store_init(&cs, *L);
    grains_status s = store_read_state(&cs, &in, BLOCKS, err);
    store_free(&cs);
    return s;
}

/* The live histories' springs, in their order, as written. */
static int kept_as_written(const real *kept, size_t n_kept, size_t width)
{
    size_t m = 0;
    int same = 1;
    for (size_t k = 0; k < N; k++)
        for (size_t s = 0; live(k) && s < width; s++)
            same = same && m / width < n_kept && kept[m++] == spring(k, s);
    return same && m == n_kept * width;
}

static void whole_file(test_ctx *t, const store_layout *L)
{
    FILE *f = written(L, -1);
    real *kept = malloc(N * (size_t)L->width * sizeof *kept);
    sliced s = f && kept ? read_sliced(f, L, kept) : (sliced){GRAINS_ERR_IO, {0}, 0, 0};
    CHECK(t, s.status == GRAINS_OK && s.crc_good && kept_as_written(kept, s.n_kept, (size_t)L->width),
          "22 histories of %d springs read by 3 readers in windows of 4: status %d, CRC joined %s, "
          "the %zu kept as written",
          L->width, s.status, s.crc_good ? "good" : "bad", s.n_kept);
    if (f)
        fclose(f);
    free(kept);
}

/* A spring not finite in history bad_at: the readers' error is one reader's. */
static void damaged(test_ctx *t, const store_layout *L, int bad_at)
{
    FILE *f = written(L, bad_at);
    real *kept = malloc(N * (size_t)L->width * sizeof *kept);
    grains_error one = {0};
    grains_status s1 = f ? read_whole(f, L, &one) : GRAINS_ERR_IO;
    sliced s = f && kept ? read_sliced(f, L, kept) : (sliced){GRAINS_ERR_IO, {0}, 0, 0};
    CHECK(t,
          s1 == GRAINS_ERR_PARSE && s.status == s1 && strcmp(one.message, s.err.message) == 0 &&
              strstr(s.err.message, "not finite"),
          "history %d damaged (%s): one reader says '%s', 3 readers '%s'", bad_at,
          live((size_t)bad_at) ? "kept by the first" : "let go by the first", one.message, s.err.message);
    if (f)
        fclose(f);
    free(kept);
}

int main(void)
{
    test_ctx t = {0, 0};
    store_layout full = store_layout_of(1, 1, 1), sliding = store_layout_of(1, 0, 0);
    whole_file(&t, &full);
    whole_file(&t, &sliding);
    damaged(&t, &full, 20); /* in the last reader's slice, a history the first lets go */
    damaged(&t, &full, 9);  /* in the second reader's slice, one the first keeps */
    damaged(&t, &full, 1);  /* in the first reader's own slice */
    return test_report(&t, "test_sliced_springs");
}
