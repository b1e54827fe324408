/* Little-endian streams with a running CRC-32 (util/bytes.h). */
#include "util/bytes.h"

#include <string.h>
#include <sys/types.h>
#include <zlib.h>

static int host_little_endian(void)
{
    const uint32_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

void bytes_out_init(bytes_out *o, FILE *f) { *o = (bytes_out){f, (uint32_t)crc32(0L, Z_NULL, 0), 0}; }

void bytes_put(bytes_out *o, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) { /* zlib's lengths are unsigned int */
        unsigned chunk = n > (1u << 30) ? 1u << 30 : (unsigned)n;
        o->crc = (uint32_t)crc32(o->crc, b, chunk);
        if (fwrite(b, 1, chunk, o->f) != chunk)
            o->failed = 1;
        b += chunk;
        n -= chunk;
    }
}

static void put_le(bytes_out *o, uint64_t v, int n)
{
    unsigned char b[8];
    for (int k = 0; k < n; k++)
        b[k] = (unsigned char)(v >> (8 * k));
    bytes_put(o, b, (size_t)n);
}

void bytes_put_u32(bytes_out *o, uint32_t v) { put_le(o, v, 4); }
void bytes_put_u64(bytes_out *o, uint64_t v) { put_le(o, v, 8); }
void bytes_put_i64(bytes_out *o, int64_t v) { put_le(o, (uint64_t)v, 8); }

void bytes_put_real(bytes_out *o, real v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_le(o, u, 8);
}

void bytes_put_reals(bytes_out *o, const real *v, size_t n)
{
    if (host_little_endian()) {
        bytes_put(o, v, n * sizeof *v);
        return;
    }
    for (size_t k = 0; k < n; k++)
        bytes_put_real(o, v[k]);
}

void bytes_put_u32s(bytes_out *o, const uint32_t *v, size_t n)
{
    if (host_little_endian()) {
        bytes_put(o, v, n * sizeof *v);
        return;
    }
    for (size_t k = 0; k < n; k++)
        bytes_put_u32(o, v[k]);
}

void bytes_put_crc(bytes_out *o) { put_le(o, o->crc, 4); }

void bytes_in_init(bytes_in *in, FILE *f, uint64_t size) { *in = (bytes_in){f, size, (uint32_t)crc32(0L, Z_NULL, 0), 0}; }

int bytes_get(bytes_in *in, void *p, size_t n)
{
    if (n == 0)
        return !in->bad;
    if (in->bad || n > in->left || fread(p, 1, n, in->f) != n) {
        in->bad = 1;
        memset(p, 0, n);
        return 0;
    }
    in->left -= n;
    unsigned char *b = p;
    for (size_t done = 0; done < n;) {
        unsigned chunk = n - done > (1u << 30) ? 1u << 30 : (unsigned)(n - done);
        in->crc = (uint32_t)crc32(in->crc, b + done, chunk);
        done += chunk;
    }
    return 1;
}

static uint64_t get_le(bytes_in *in, int n)
{
    unsigned char b[8];
    if (!bytes_get(in, b, (size_t)n))
        return 0;
    uint64_t v = 0;
    for (int k = 0; k < n; k++)
        v |= (uint64_t)b[k] << (8 * k);
    return v;
}

uint32_t bytes_get_u32(bytes_in *in) { return (uint32_t)get_le(in, 4); }
uint64_t bytes_get_u64(bytes_in *in) { return get_le(in, 8); }
int64_t bytes_get_i64(bytes_in *in) { return (int64_t)get_le(in, 8); }

real bytes_get_real(bytes_in *in)
{
    uint64_t u = get_le(in, 8);
    real v;
    memcpy(&v, &u, 8);
    return v;
}

int bytes_get_reals(bytes_in *in, real *v, size_t n)
{
    if (host_little_endian())
        return n == 0 || bytes_get(in, v, n * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = bytes_get_real(in);
    return !in->bad;
}

int bytes_get_u32s(bytes_in *in, uint32_t *v, size_t n)
{
    if (host_little_endian())
        return n == 0 || bytes_get(in, v, n * sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = bytes_get_u32(in);
    return !in->bad;
}

int bytes_get_count(bytes_in *in, size_t size, size_t most, size_t *n)
{
    uint64_t c = bytes_get_u64(in);
    if (in->bad || c > most || (size && c > in->left / size)) {
        in->bad = 1;
        *n = 0;
        return 0;
    }
    *n = (size_t)c;
    return 1;
}

int bytes_check_crc(bytes_in *in)
{
    uint32_t want = in->crc;
    uint32_t got = bytes_get_u32(in);
    return !in->bad && got == want;
}

/* Where the next byte of `in` lies in its file. */
static off_t place(const bytes_in *in) { return ftello(in->f); }

void bytes_here(const bytes_in *in, bytes_place *p)
{
    p->in = *in;
    p->at = (int64_t)place(in);
}

void bytes_rewind(bytes_in *in, const bytes_place *p)
{
    *in = p->in;
    in->bad = in->bad || p->at < 0 || fseeko(in->f, (off_t)p->at, SEEK_SET) != 0;
}

int bytes_skip(bytes_in *in, uint64_t n, bytes_span *span)
{
    off_t at = in->bad ? -1 : place(in);
    if (at < 0 || n > in->left || fseeko(in->f, (off_t)n, SEEK_CUR) != 0) {
        in->bad = 1;
        *span = (bytes_span){0};
        return 0;
    }
    in->left -= n;
    *span = (bytes_span){(uint64_t)at, n, in->crc, in->left, 0, 0};
    in->crc = (uint32_t)crc32(0L, Z_NULL, 0);
    return 1;
}

void bytes_splice(bytes_in *in, const bytes_span *span)
{
    if (in->bad || !span->read) {
        in->bad = 1;
        return;
    }
    uint64_t since = span->left_after - in->left;
    uLong head = crc32_combine(span->crc_before, span->crc, (z_off_t)span->len);
    in->crc = (uint32_t)crc32_combine(head, in->crc, (z_off_t)since);
}

void bytes_span_part(const bytes_in *in, const bytes_span *span, uint64_t offset, uint64_t len, uint32_t crc,
                     bytes_in *part)
{
    bytes_in_init(part, in->f, len);
    part->crc = crc;
    part->bad = in->bad || offset > span->len || len > span->len - offset ||
                fseeko(in->f, (off_t)(span->at + offset), SEEK_SET) != 0;
}

void bytes_span_known(bytes_in *in, bytes_span *span, uint32_t crc)
{
    span->crc = crc;
    span->read = span->left_after >= in->left;
    off_t back = (off_t)(span->left_after - in->left);
    if (!span->read || fseeko(in->f, (off_t)(span->at + span->len) + back, SEEK_SET) != 0)
        in->bad = 1;
}

uint32_t bytes_crc_none(void) { return (uint32_t)crc32(0L, Z_NULL, 0); }

void bytes_slice(size_t n, const bytes_slicing *sl, size_t *lo, size_t *hi)
{
    size_t windows = (n + sl->window - 1) / sl->window;
    size_t from = windows * (size_t)sl->reader / (size_t)sl->readers;
    size_t to = windows * (size_t)(sl->reader + 1) / (size_t)sl->readers;
    *lo = from * sl->window < n ? from * sl->window : n;
    *hi = to * sl->window < n ? to * sl->window : n;
}

uint32_t bytes_slices_join(uint32_t crc0, const uint32_t *crc, const bytes_slicing *sl, size_t n, size_t size)
{
    uLong joined = crc0;
    for (int r = 0; r < sl->readers; r++) {
        size_t lo, hi;
        bytes_slicing of_r = {r, sl->readers, sl->window};
        bytes_slice(n, &of_r, &lo, &hi);
        joined = crc32_combine(joined, crc[r], (z_off_t)((hi - lo) * size));
    }
    return (uint32_t)joined;
}
