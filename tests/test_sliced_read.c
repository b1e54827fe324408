/* The particles of a checkpoint read in slices (particles/particles.h,
 * util/bytes.h), as ranks resuming a run read them: each of several
 * readers checks its slice of every field and reads the particles it keeps
 * elsewhere. The fact checked: how the file is split among readers changes
 * nothing a reader can see. The values kept are those written, the
 * slices' CRCs joined are the file's CRC, and a damaged file gives the
 * error of one reader reading it whole: the first damage in the file's
 * order, whichever reader's slice holds it. Small windows (4 particles)
 * split 20 particles among 3 readers: 4, 8 and 8. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "particles/particles.h"

#define N 20
#define READERS 3
#define WINDOW 4

/* N particles, every field a function of the particle (stored at i, id
 * N - 1 - i), and the file they are written to with a CRC after them. */
static FILE *written(grains_particles *pt)
{
    grains_error err;
    if (particles_reserve(pt, N, &err) != GRAINS_OK || particles_reserve_ids(pt, N, &err) != GRAINS_OK)
        return NULL;
    pt->n = N;
    for (int i = 0; i < N; i++) {
        pt->x[i] = (vec3){i, 2 * i, 3 * i};
        pt->v[i] = (vec3){-i, 0.5 * i, 1};
        pt->w[i] = (vec3){0, i, 0};
        pt->q[i] = (quat){1, 0, 0, 0};
        pt->R[i] = 0.001 * (i + 1);
        pt->mat[i] = (uint8_t)(i % 2);
        pt->tag[i] = 7 * i;
        pt->f[i] = (vec3){i, i, i};
        pt->t[i] = (vec3){0, 0, -i};
        pt->slot[N - 1 - i] = (uint32_t)i;
    }
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    bytes_out o;
    bytes_out_init(&o, f);
    particles_write_state(pt, &o);
    bytes_put_crc(&o);
    rewind(f);
    return o.failed ? NULL : f;
}

/* What the readers made of the file: the first reader's particles (it
 * keeps the even places), the error they agree on and whether the CRC
 * joined from their slices is the file's. */
typedef struct {
    grains_status status;
    grains_error err;
    int crc_good;
} sliced;

static sliced read_sliced(FILE *f, grains_particles *kept0)
{
    sliced out = {GRAINS_OK, {0}, 0};
    long size;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    rewind(f);
    bytes_in in;
    bytes_in_init(&in, f, (uint64_t)size);
    grains_particles pt[READERS] = {{0}};
    particles_slice found[READERS];
    uint32_t where[N];
    size_t n = 0, kept = 0;
    bytes_span fields;
    out.status = particles_read_head(&pt[0], &in, &n, &fields, &out.err);
    for (size_t i = 0; i < n; i++)
        where[i] = i % 2 ? UINT32_MAX : (uint32_t)kept++;
    for (int r = 1; out.status == GRAINS_OK && r < READERS; r++) /* (each reader has the slots read) */
        if ((out.status = particles_reserve_ids(&pt[r], n, &out.err)) == GRAINS_OK)
            memcpy(pt[r].slot, pt[0].slot, n * sizeof *pt[0].slot);
    for (int r = 0; out.status == GRAINS_OK && r < READERS; r++) {
        bytes_slicing sl = {r, READERS, WINDOW};
        out.status = particles_read_slice(&pt[r], &in, &fields, n, where, kept, 2, &sl, &found[r], &out.err);
    }
    if (out.status == GRAINS_OK)
        out.status = particles_slice_error(found, READERS, &out.err);
    uint32_t crc;
    bytes_slicing all = {0, READERS, WINDOW};
    if (out.status == GRAINS_OK && particles_fields_crc(found, &all, n, &crc, &out.err) == GRAINS_OK) {
        bytes_span_known(&in, &fields, crc);
        bytes_splice(&in, &fields);
        out.crc_good = in.left == 4 && bytes_check_crc(&in);
    }
    *kept0 = pt[0];
    for (int r = 1; r < READERS; r++)
        particles_free(&pt[r]);
    return out;
}

/* One reader reading it whole: its error. */
static grains_status read_whole(FILE *f, grains_error *err)
{
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    bytes_in in;
    bytes_in_init(&in, f, (uint64_t)size);
    grains_particles pt = {0};
    grains_status s = particles_read_state(&pt, &in, 2, err);
    particles_free(&pt);
    return s;
}

/* The particles each keep what was written at their place. */
static int kept_as_written(const grains_particles *got, const grains_particles *wrote)
{
    int same = got->n == N / 2;
    for (size_t k = 0; same && k < got->n; k++) {
        size_t i = 2 * k;
        same = memcmp(&got->x[k], &wrote->x[i], sizeof(vec3)) == 0 &&
               memcmp(&got->v[k], &wrote->v[i], sizeof(vec3)) == 0 &&
               memcmp(&got->w[k], &wrote->w[i], sizeof(vec3)) == 0 &&
               memcmp(&got->q[k], &wrote->q[i], sizeof(quat)) == 0 && got->R[k] == wrote->R[i] &&
               got->mat[k] == wrote->mat[i] && got->tag[k] == wrote->tag[i] &&
               memcmp(&got->f[k], &wrote->f[i], sizeof(vec3)) == 0 &&
               memcmp(&got->t[k], &wrote->t[i], sizeof(vec3)) == 0 && got->id[k] == wrote->n - 1 - i &&
               got->slot[wrote->n - 1 - i] == k;
    }
    return same;
}

static void whole_file(test_ctx *t)
{
    grains_particles wrote = {0}, got = {0};
    FILE *f = written(&wrote);
    sliced s = f ? read_sliced(f, &got) : (sliced){GRAINS_ERR_IO, {0}, 0};
    CHECK(t, s.status == GRAINS_OK && s.crc_good && kept_as_written(&got, &wrote),
          "20 particles read by 3 readers in windows of 4: status %d, CRC joined "
          "%s, the kept values as written",
          s.status, s.crc_good ? "good" : "bad");
    if (f)
        fclose(f);
    particles_free(&wrote), particles_free(&got);
}

/* The particles written over the file again, with their CRC. */
static void rewrite(FILE *f, const grains_particles *pt)
{
    rewind(f);
    bytes_out o;
    bytes_out_init(&o, f);
    particles_write_state(pt, &o);
    bytes_put_crc(&o);
    fflush(f);
}

/* Damage written into the particles at stored places (a negative radius,
 * a velocity not finite; -1: none): the readers' error is one reader's. */
static void damaged(test_ctx *t, int bad_radius_at, int bad_velocity_at, const char *want)
{
    grains_particles wrote = {0}, got = {0};
    FILE *f = written(&wrote);
    if (f) {
        if (bad_radius_at >= 0)
            wrote.R[bad_radius_at] = -1;
        if (bad_velocity_at >= 0)
            wrote.v[bad_velocity_at].y = NAN;
        rewrite(f, &wrote);
    }
    grains_error one = {0};
    grains_status s1 = f ? read_whole(f, &one) : GRAINS_ERR_IO;
    sliced s = f ? read_sliced(f, &got) : (sliced){GRAINS_ERR_IO, {0}, 0};
    CHECK(t,
          s1 == GRAINS_ERR_PARSE && s.status == s1 && strcmp(one.message, s.err.message) == 0 &&
              strstr(s.err.message, want),
          "radius damaged at %d, velocity at %d: one reader says '%s', 3 readers "
          "'%s'",
          bad_radius_at, bad_velocity_at, one.message, s.err.message);
    if (f)
        fclose(f);
    particles_free(&wrote), particles_free(&got);
}

int main(void)
{
    test_ctx t = {0, 0};
    whole_file(&t);
    damaged(&t, 17, -1, "radius");    /* in the last reader's slice alone */
    damaged(&t, 2, 17, "not finite"); /* the velocities come first in the file,
                                         whoever reads them */
    damaged(&t, 17, 9, "not finite");
    return test_report(&t, "test_sliced_read");
}
