/* Line reader and strict number parsing. */
#include "io/text.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The smaller of `bytes` and a limit (0 or RLIM_INFINITY: none). */
static size_t at_most(size_t bytes, unsigned long long limit)
{
    return limit > 0 && limit != (unsigned long long)RLIM_INFINITY && (bytes == 0 || limit < bytes) ? (size_t)limit
                                                                                                      : bytes;
}

/* The cgroup's memory.max (cgroup v2: a container's limit), or 0. */
static unsigned long long cgroup_limit(void)
{
    FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
    unsigned long long limit = 0;
    if (f) {
        if (fscanf(f, "%llu", &limit) != 1) /* ("max": none) */
            limit = 0;
        fclose(f);
    }
    return limit;
}

size_t machine_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    size_t bytes = pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
    struct rlimit as, data;
    if (getrlimit(RLIMIT_AS, &as) == 0)
        bytes = at_most(bytes, (unsigned long long)as.rlim_cur);
    if (getrlimit(RLIMIT_DATA, &data) == 0)
        bytes = at_most(bytes, (unsigned long long)data.rlim_cur);
    return at_most(bytes, cgroup_limit());
}

void lines_init(line_reader *r, const char *text, size_t len)
{
    r->p = text;
    r->end = text + len;
    r->line = 0;
    r->fault = NULL;
}

const char *lines_next(line_reader *r)
{
    if (r->p >= r->end)
        return NULL;
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    size_t len = nl ? (size_t)(nl - r->p) : (size_t)(r->end - r->p);
    if (r->line == INT_MAX) { /* the count would overflow: stop here */
        r->fault = "more lines than 2147483647";
        return r->buf;
    }
    r->line++;
    r->fault = len >= sizeof r->buf ? "a line longer than 4095 characters"
               : memchr(r->p, '\0', len) ? "a NUL byte: not a text file"
               : r->line == 1 && len >= 3 && memcmp(r->p, UTF8_BOM, 3) == 0
                   ? "a UTF-8 byte-order mark before the first line: save the file without one"
                   : NULL;
    if (len >= sizeof r->buf)
        len = sizeof r->buf - 1;
    memcpy(r->buf, r->p, len);
    if (len && r->buf[len - 1] == '\r')
        len--;
    r->buf[len] = '\0';
    r->p = nl ? nl + 1 : r->end;
    return r->buf;
}

FILE *input_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    int e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    int flags = e ? 0 : fcntl(fd, F_GETFL);
    if (!e && (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0))
        e = errno;
    FILE *f = e ? NULL : fdopen(fd, "rb");
    if (!f) {
        e = e ? e : errno;
        close(fd);
        errno = e;
    }
    return f;
}

line_stream *lines_stream_open(const char *path, long long from)
{
    FILE *f = input_open(path);
    if (!f)
        return NULL;
    struct stat st;
    line_stream *s = NULL;
    int e = fstat(fileno(f), &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (!e && from > 0 && fseeko(f, (off_t)from, SEEK_SET) != 0)
        e = errno ? errno : EIO;
    if (!e && (!(s = calloc(1, sizeof *s)) || !(s->buf = malloc(LINE_CHUNK))))
        e = ENOMEM;
    if (e) {
        if (s)
            free(s);
        fclose(f);
        errno = e;
        return NULL;
    }
    s->f = f;
    s->base = s->at = from > 0 ? from : 0;
    s->size = (long long)st.st_size;
    lines_init(&s->lines, s->buf, 0);
    return s;
}

/* The bytes after the lines read to the chunk's start, more read after
 * them, and the lines up to the last newline (all of it at the end, or of
 * a full chunk with none: a line too long, which lines_next reports). */
static void refill(line_stream *s)
{
    size_t done = (size_t)(s->lines.p - s->buf), rest = s->have - done;
    int line = s->lines.line;
    memmove(s->buf, s->buf + done, rest);
    s->base += (long long)done;
    s->have = rest;
    const char *nl = NULL;
    while (!s->eof && !nl && s->have < LINE_CHUNK) {
        size_t got = fread(s->buf + s->have, 1, LINE_CHUNK - s->have, s->f);
        if (got == 0) {
            s->eof = 1;
            s->failed = ferror(s->f) ? (errno ? errno : EIO) : 0;
        }
        s->have += got;
        for (size_t k = s->have; k > rest && !nl; k--) /* the last newline */
            if (s->buf[k - 1] == '\n')
                nl = s->buf + k - 1;
    }
    size_t upto = s->eof || !nl ? s->have : (size_t)(nl - s->buf) + 1;
    lines_init(&s->lines, s->buf, upto);
    s->lines.line = line;
}

const char *lines_stream_next(line_stream *s)
{
    for (;;) {
        s->at = s->base + (s->lines.p - s->buf);
        const char *line = lines_next(&s->lines);
        if (line || s->failed || (s->eof && s->lines.p >= s->buf + s->have))
            return s->failed ? NULL : line;
        refill(s);
    }
}

void lines_stream_free(line_stream *s)
{
    if (!s)
        return;
    fclose(s->f);
    free(s->buf);
    free(s);
}

static void trim(const char **s, size_t *len)
{
    while (*len && isspace((unsigned char)**s))
        (*s)++, (*len)--;
    while (*len && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

int parse_real(const char *s, size_t len, real *out)
{
    char buf[128];
    trim(&s, &len);
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end != '\0' || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

int parse_long(const char *s, size_t len, long *out)
{
    char buf[64];
    trim(&s, &len);
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return 0;
    *out = v;
    return 1;
}

const char *read_file_why(int e, const char *path, char *buf, size_t size)
{
    struct stat st;
    if (e == EFBIG && stat(path, &st) == 0)
        snprintf(buf, size, "%.3g GB, more than half the %.3g GB this process may use (memory, or ulimit's)",
                 (double)st.st_size / 1e9, (double)machine_bytes() / 1e9);
    else
        snprintf(buf, size, "%s", e == EINVAL ? "not a regular file" : e == EFBIG ? "too large" : strerror(e));
    return buf;
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = input_open(path);
    if (!f)
        return NULL;
    struct stat st;
    size_t limit = machine_bytes() / 2;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || (limit && (size_t)st.st_size > limit)) {
        int e = fstat(fileno(f), &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : EFBIG;
        fclose(f);
        errno = e;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n < cap - 1)
            break;
        char *nb = !limit || cap < limit ? realloc(buf, cap * 2) : NULL;
        if (!nb) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int failed = !buf || ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        if (!errno)
            errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *read_input(const char *path, size_t *len, grains_error *err)
{
    char *text = read_file(path, len), why[128];
    if (!text)
        grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s", read_file_why(errno, path, why, sizeof why));
    return text;
}

int parse_reals(const char *s, double *out, int n)
{
    for (int k = 0; k < n; k++) {
        size_t len = strcspn(s, ",");
        real v;
        if (!parse_real(s, len, &v) || (s[len] == ',') != (k + 1 < n))
            return 0;
        out[k] = (double)v;
        s += len + 1;
    }
    return 1;
}
