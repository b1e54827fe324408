/* Reading text input line by line with exact number parsing. */
#ifndef GRAINS_IO_TEXT_H
#define GRAINS_IO_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "grains/error.h"
#include "grains/real.h"

/* Lines of an in-memory text; `line` counts from 1. */
typedef struct {
    const char *p, *end;
    int line;
    char buf[4096];
    const char *fault;  /* the last line is unusable: why ("longer than ...", "a NUL byte"), or NULL */
} line_reader;

void lines_init(line_reader *r, const char *text, size_t len);
/* Next line without its newline (and '\r'), or NULL at the end. */
const char *lines_next(line_reader *r);

/* Lines of a file read a chunk at a time (LINE_CHUNK bytes), so that a
 * file of any size is read in that much memory: lines_next's lines, count
 * and faults. */
#define LINE_CHUNK (1 << 20)
typedef struct {
    FILE *f;
    char *buf;     /* the chunk; lines reads its complete lines */
    size_t have;   /* bytes in buf */
    long long base; /* the file's offset of buf[0] */
    long long at;  /* the file's offset of the last line's first byte */
    long long size; /* the file's bytes when opened */
    line_reader lines;
    int eof;
    int failed;    /* errno of a failed read, or 0 */
} line_stream;

/* The bytes some editors put before a text's first line (EF BB BF). */
#define UTF8_BOM "\xEF\xBB\xBF"

/* Opens `path` to read if it is a regular file; else NULL and errno
 * (EINVAL for a device, a FIFO or a folder). The open itself does not wait:
 * a FIFO without a writer would block a plain fopen() for ever. Every
 * reader of user input opens with it. */
FILE *input_open(const char *path);

/* Opens a regular file (else NULL and errno: EINVAL for a device, a FIFO
 * or a folder) to read its lines from byte `from`; lines_stream_free
 * closes it. */
line_stream *lines_stream_open(const char *path, long long from);
/* lines_next's next line, or NULL at the end (or a failed read: failed). */
const char *lines_stream_next(line_stream *s);
void lines_stream_free(line_stream *s);

/* A finite number filling all of [s, s+len) (surrounding blanks allowed). */
int parse_real(const char *s, size_t len, real *out);
/* A decimal integer filling all of [s, s+len). */
int parse_long(const char *s, size_t len, long *out);
/* n comma-separated finite numbers filling all of the string s (a command
 * line's --box X0,Y0,Z0,X1,Y1,Z1). */
int parse_reals(const char *s, double *out, int n);

/* Whole file into a NUL-terminated buffer; NULL and errno on failure:
 * EINVAL for anything but a regular file (a device such as /dev/zero
 * never ends), EFBIG for a file larger than half this machine's memory. */
char *read_file(const char *path, size_t *len);

/* Why read_file failed on `path`, from its errno (with the sizes when the
 * file is too large), in buf. */
const char *read_file_why(int e, const char *path, char *buf, size_t size);

/* read_file for a reader: on failure NULL, with "cannot read: why" in err
 * (GRAINS_ERR_IO, naming the file). */
char *read_input(const char *path, size_t *len, grains_error *err);

/* The memory this process may use, in bytes: the machine's physical
 * memory, or less where a limit says so (ulimit -v or -d, a cgroup's
 * memory.max); 0 when unknown. */
size_t machine_bytes(void);

#endif
