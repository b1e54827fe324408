/* A run's record in its checkpoint (run/run.h): encoded with the
 * checkpoint's own little-endian streams, checked when read back. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "run/run.h"
#include "io/text.h"
#include "util/bytes.h"

#define ARGS_LIMIT 4096                 /* arguments a record holds */
#define ARG_BYTES (GRAINS_PATH_MAX + 64) /* and the bytes of each, its NUL included */

static void put_string(bytes_out *o, const char *s)
{
    bytes_put_u32(o, (uint32_t)strlen(s));
    bytes_put(o, s, strlen(s));
}

grains_status run_record_check(int argc, char **argv, grains_error *err)
{
    if (argc > ARGS_LIMIT)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "%d arguments: a run records at most %d in its checkpoint (put the settings in a "
                                "scenario file)", argc, ARGS_LIMIT);
    for (int a = 0; a < argc; a++)
        if (strlen(argv[a]) >= ARG_BYTES)
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                    "argument %d has %zu characters: a run records at most %d each in its checkpoint",
                                    a + 1, strlen(argv[a]), ARG_BYTES - 1);
    return GRAINS_OK;
}

grains_status run_record_encode(const run_record *r, void **bytes, size_t *n, grains_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the checkpoint");
    bytes_out o;
    bytes_out_init(&o, mem);
    put_string(&o, r->cwd);
    bytes_put_u32(&o, (uint32_t)r->argc);
    for (int a = 0; a < r->argc; a++)
        put_string(&o, r->argv[a]);
    bytes_put_u32(&o, r->inputs_crc);
    bytes_put_u64(&o, r->n_frames);
    for (size_t k = 0; k < r->n_frames; k++)
        bytes_put_real(&o, r->times[k]);
    for (int k = 0; k < TABLE_PROBES; k++) {
        bytes_put_i64(&o, r->table[k].len);
        bytes_put_u32(&o, r->table[k].crc);
    }
    bytes_put_real(&o, r->triaxial_h0);
    bytes_put_u64(&o, r->friction_id);
    bytes_put_i64(&o, r->mesh_from);
    bytes_put_u32(&o, (uint32_t)r->stage);
    bytes_put_real(&o, r->stage_began);
    bytes_put_i64(&o, r->stage_step);
    bytes_put_i64(&o, r->table[TABLE_PROBES].len); /* (last: a record of before probes ends above) */
    bytes_put_u32(&o, r->table[TABLE_PROBES].crc);
    bytes_put_i64(&o, r->table[TABLE_BOX].len); /* (after: a record of before box.csv ends above) */
    bytes_put_u32(&o, r->table[TABLE_BOX].crc);
    int failed = fclose(mem) != 0 || o.failed;
    if (failed) {
        free(buf);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the checkpoint");
    }
    *bytes = buf;
    *n = len;
    return GRAINS_OK;
}

/* A string of at most `cap` - 1 bytes without NUL, into a buffer of cap. */
static int get_string(bytes_in *in, char *s, size_t cap)
{
    uint32_t n = bytes_get_u32(in);
    if (in->bad || n >= cap || !bytes_get(in, s, n))
        return 0;
    s[n] = '\0';
    return strlen(s) == n;
}

static int get_args(run_record *r, bytes_in *in)
{
    uint32_t argc = bytes_get_u32(in);
    if (in->bad || argc > ARGS_LIMIT || !(r->argv = calloc(argc + 1, sizeof *r->argv)))
        return 0;
    for (r->argc = 0; r->argc < (int)argc; r->argc++)
        if (!(r->argv[r->argc] = malloc(ARG_BYTES)) || !get_string(in, r->argv[r->argc], ARG_BYTES)) {
            r->argc++; /* freed with the others */
            return 0;
        }
    return 1;
}

static int get_frames(run_record *r, bytes_in *in)
{
    if (!bytes_get_count(in, sizeof(double), SIZE_MAX / sizeof(double), &r->n_frames) ||
        !(r->times = malloc((r->n_frames + 1) * sizeof *r->times)))
        return 0;
    for (size_t k = 0; k < r->n_frames; k++)
        r->times[k] = bytes_get_real(in);
    for (int k = 0; k < TABLE_PROBES; k++) {
        r->table[k].len = bytes_get_i64(in);
        r->table[k].crc = bytes_get_u32(in);
        if (r->table[k].len < 0)
            return 0;
    }
    r->triaxial_h0 = bytes_get_real(in);
    r->friction_id = (size_t)bytes_get_u64(in);
    r->mesh_from = (long)bytes_get_i64(in);
    uint32_t stage = bytes_get_u32(in);
    r->stage = stage <= GRAINS_MAX_STAGES ? (int)stage : -1;
    r->stage_began = bytes_get_real(in);
    r->stage_step = (long)bytes_get_i64(in);
    if (in->left > 0) { /* (a record of before probes ends here) */
        r->table[TABLE_PROBES].len = bytes_get_i64(in);
        r->table[TABLE_PROBES].crc = bytes_get_u32(in);
    }
    if (in->left > 0) { /* (a record of before box.csv ends here) */
        r->table[TABLE_BOX].len = bytes_get_i64(in);
        r->table[TABLE_BOX].crc = bytes_get_u32(in);
    }
    if (r->table[TABLE_PROBES].len < 0 || r->table[TABLE_BOX].len < 0)
        return 0;
    /* (no frame yet: a program's checkpoint before its first) */
    return !in->bad && r->stage >= 0 && isfinite(r->stage_began) && r->stage_step >= 0 && r->mesh_from >= -1 &&
           r->mesh_from <= (long)r->n_frames;
}

grains_status run_record_decode(run_record *r, const void *bytes, size_t n, const char *path, grains_error *err)
{
    memset(r, 0, sizeof *r);
    FILE *mem = fmemopen((void *)bytes, n ? n : 1, "rb");
    if (!mem)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory reading the checkpoint");
    bytes_in in;
    bytes_in_init(&in, mem, n);
    int ok = get_string(&in, r->cwd, sizeof r->cwd) && get_args(r, &in);
    r->inputs_crc = bytes_get_u32(&in);
    ok = ok && get_frames(r, &in) && in.left == 0;
    fclose(mem);
    if (!ok) {
        run_record_free(r);
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "damaged: the run's record");
    }
    return GRAINS_OK;
}

void run_record_free(run_record *r)
{
    for (int a = 0; r->argv && a < r->argc; a++)
        free(r->argv[a]);
    free(r->argv);
    free(r->times);
    r->argv = NULL;
    r->times = NULL;
    r->argc = 0;
}

static grains_status crc_file(const char *path, uint32_t *crc, grains_error *err)
{
    FILE *f = input_open(path);
    if (!f)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s",
                                errno == EINVAL ? "not a regular file" : strerror(errno));
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        *crc = (uint32_t)crc32(*crc, buf, (unsigned)got);
    int failed = ferror(f);
    fclose(f);
    return failed ? grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read") : GRAINS_OK;
}

/* A file a scenario may name: "" and the built-in hourglass are none. */
static grains_status crc_named(const char *path, uint32_t *crc, grains_error *err)
{
    if (!path[0] || strcmp(path, GRAINS_BUILTIN_HOURGLASS) == 0)
        return GRAINS_OK;
    return crc_file(path, crc, err);
}

grains_status run_inputs_crc(const grains_scenario *sc, uint32_t *crc, grains_error *err)
{
    *crc = (uint32_t)crc32(0L, Z_NULL, 0);
    grains_status s = crc_named(sc->source, crc, err);
    if (s == GRAINS_OK)
        s = crc_named(sc->mesh, crc, err);
    for (int k = 0; s == GRAINS_OK && k < sc->n_meshes; k++) {
        s = crc_named(sc->meshes[k].file, crc, err);
        if (s == GRAINS_OK && sc->meshes[k].motion.type == GRAINS_MOTION_TABLE)
            s = crc_named(sc->meshes[k].table, crc, err);
    }
    for (int k = 0; s == GRAINS_OK && k < sc->n_membranes; k++)
        if (sc->membranes[k].shape == GRAINS_SHAPE_FILE)
            s = crc_named(sc->membranes[k].file, crc, err);
    if (s == GRAINS_OK)
        s = crc_named(sc->particles, crc, err);
    if (s == GRAINS_OK)
        s = crc_named(sc->bonds, crc, err);
    return s;
}
