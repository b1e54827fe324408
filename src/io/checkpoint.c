/* The checkpoint file (grains/checkpoint.h): header, the caller's bytes,
 * the simulation's state (sim/state.h), CRC-32. */
#include "grains/checkpoint.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/atomic_file.h"
#include "io/text.h"
#include "sim/state.h"

static const char MAGIC[8] = {'G', 'R', 'A', 'I', 'N', 'S', 'C', 'K'};
#define BYTE_ORDER_MARK 0x01020304u
#define APP_LIMIT ((uint64_t)1 << 40)

static void write_header(bytes_out *o, const void *app, size_t app_bytes)
{
    bytes_put(o, MAGIC, sizeof MAGIC);
    bytes_put_u32(o, GRAINS_CHECKPOINT_FORMAT);
    bytes_put_u32(o, BYTE_ORDER_MARK);
    bytes_put_u32(o, (uint32_t)sizeof(real));
    bytes_put_u32(o, (uint32_t)strlen(GRAINS_VERSION));
    bytes_put(o, GRAINS_VERSION, strlen(GRAINS_VERSION));
    bytes_put_u64(o, app_bytes);
    bytes_put(o, app, app_bytes);
}

grains_status grains_checkpoint_write(const char *path, grains_sim *sim, const void *app, size_t app_bytes,
                                      grains_error *err)
{
    if (!sim_state_writer(sim)) /* it sends its share: rank 0 writes */
        return sim_write_state(sim, NULL, err);
    atomic_file af;
    grains_status s = atomic_open(&af, path, err);
    if (s != GRAINS_OK) {
        grains_error ignored;
        sim_write_state(sim, NULL, &ignored); /* the other ranks' part of it still */
        return s;
    }
    af.durable = 1;
    bytes_out o;
    bytes_out_init(&o, af.f);
    write_header(&o, app, app_bytes);
    s = sim_write_state(sim, &o, err);
    bytes_put_crc(&o);
    if (s != GRAINS_OK || o.failed) {
        atomic_abandon(&af);
        return s != GRAINS_OK ? s : grains_error_set(err, GRAINS_ERR_IO, path, 0, "write failed (disk full?)");
    }
    return atomic_commit(&af, err);
}

/* An open checkpoint, positioned after its header. */
typedef struct {
    FILE *f;
    bytes_in in;
    uint64_t app_bytes;
} checkpoint_reader;

static grains_status open_reader(checkpoint_reader *r, const char *path, grains_error *err)
{
    struct stat st;
    r->f = input_open(path);
    if (!r->f)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s",
                                errno == EINVAL ? "not a regular file" : strerror(errno));
    if (fstat(fileno(r->f), &st) != 0 || !S_ISREG(st.st_mode))
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "not a regular file");
    bytes_in_init(&r->in, r->f, (uint64_t)st.st_size);
    char magic[sizeof MAGIC], version[64];
    bytes_get(&r->in, magic, sizeof magic);
    uint32_t format = bytes_get_u32(&r->in), order = bytes_get_u32(&r->in), real_size = bytes_get_u32(&r->in);
    uint32_t version_len = bytes_get_u32(&r->in);
    if (r->in.bad || memcmp(magic, MAGIC, sizeof MAGIC) != 0)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "not a grains checkpoint");
    if (format != GRAINS_CHECKPOINT_FORMAT || order != BYTE_ORDER_MARK || real_size != sizeof(real))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0,
                                "checkpoint format %u with %u-byte reals; this grains reads format %d with %zu-byte reals",
                                format, real_size, GRAINS_CHECKPOINT_FORMAT, sizeof(real));
    if (version_len >= sizeof version || !bytes_get(&r->in, version, version_len))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "damaged: its program version");
    version[version_len] = '\0';
    if (strcmp(version, GRAINS_VERSION) != 0)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0,
                                "written by grains %s; this is grains %s, whose steps may differ: resume with %s",
                                version, GRAINS_VERSION, version);
    r->app_bytes = bytes_get_u64(&r->in);
    if (r->in.bad || r->app_bytes > r->in.left || r->app_bytes > APP_LIMIT)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "truncated or damaged (its length)");
    return GRAINS_OK;
}

/* Reads through the rest of the stream to its CRC, which must match. */
static grains_status check_rest(checkpoint_reader *r, const char *path, grains_error *err)
{
    char buf[65536];
    while (r->in.left > 4 && !r->in.bad)
        bytes_get(&r->in, buf, r->in.left - 4 < sizeof buf ? (size_t)(r->in.left - 4) : sizeof buf);
    if (r->in.left != 4 || !bytes_check_crc(&r->in))
        return grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "damaged or truncated (its CRC does not match)");
    return GRAINS_OK;
}

/* The caller's bytes, the rest of the file then read to its CRC when
 * `checked`. */
static grains_status read_app(const char *path, int checked, void **app, size_t *app_bytes, grains_error *err)
{
    checkpoint_reader r = {0};
    *app = NULL;
    *app_bytes = 0;
    grains_status s = open_reader(&r, path, err);
    if (s == GRAINS_OK && !(*app = malloc(r.app_bytes ? (size_t)r.app_bytes : 1)))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK) {
        bytes_get(&r.in, *app, (size_t)r.app_bytes);
        *app_bytes = (size_t)r.app_bytes;
        s = checked ? check_rest(&r, path, err) : GRAINS_OK;
    }
    if (r.f)
        fclose(r.f);
    if (s != GRAINS_OK) {
        free(*app);
        *app = NULL;
    }
    return s;
}

grains_status grains_checkpoint_read_app(const char *path, void **app, size_t *app_bytes, grains_error *err)
{
    return read_app(path, 1, app, app_bytes, err);
}

grains_status grains_checkpoint_peek_app(const char *path, void **app, size_t *app_bytes, grains_error *err)
{
    return read_app(path, 0, app, app_bytes, err);
}

/* A state that does not read may be a damaged or truncated file: its
 * CRC, checked through the whole file, says so first, as when the file
 * was checked before its state was read (grains_checkpoint_read_app). */
static grains_status damage_first(const char *path, grains_status s, grains_error *err)
{
    void *app = NULL;
    size_t n = 0;
    grains_error damaged;
    if (read_app(path, 1, &app, &n, &damaged) != GRAINS_OK && err) {
        *err = damaged;
        s = damaged.status;
    }
    free(app);
    return s;
}

grains_status grains_checkpoint_read_sim(const char *path, grains_sim *sim, grains_error *err)
{
    checkpoint_reader r = {0};
    grains_status s = open_reader(&r, path, err);
    if (s == GRAINS_OK) { /* past the caller's bytes: read, so that the CRC covers them */
        char buf[65536];
        for (uint64_t left = r.app_bytes; left > 0 && !r.in.bad;) {
            size_t chunk = left < sizeof buf ? (size_t)left : sizeof buf;
            bytes_get(&r.in, buf, chunk);
            left -= chunk;
        }
        s = sim_read_state(sim, &r.in, err);
        if (s != GRAINS_OK && err && !err->file[0]) /* the parts' errors name no file */
            snprintf(err->file, sizeof err->file, "%s", path);
    }
    if (s == GRAINS_OK && (r.in.left != 4 || !bytes_check_crc(&r.in)))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "damaged or truncated (its CRC does not match)");
    if (r.f)
        fclose(r.f);
    return s == GRAINS_ERR_PARSE ? damage_first(path, s, err) : s;
}
