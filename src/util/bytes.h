/* Binary streams for checkpoints: every value little-endian whatever the
 * machine, with a running CRC-32 (zlib's) that the writer appends and the
 * reader checks. A reader never reads past the stream's known size, and a
 * count it reads is refused when the rest of the stream cannot hold that
 * many items: a damaged file cannot make it allocate more than its size. */
#ifndef GRAINS_UTIL_BYTES_H
#define GRAINS_UTIL_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "grains/real.h"

typedef struct bytes_out {
    FILE *f;
    uint32_t crc;
    int failed;          /* a write failed */
} bytes_out;

void bytes_out_init(bytes_out *o, FILE *f);
void bytes_put(bytes_out *o, const void *p, size_t n);
void bytes_put_u32(bytes_out *o, uint32_t v);
void bytes_put_u64(bytes_out *o, uint64_t v);
void bytes_put_i64(bytes_out *o, int64_t v);
void bytes_put_real(bytes_out *o, real v);
void bytes_put_reals(bytes_out *o, const real *v, size_t n);
void bytes_put_u32s(bytes_out *o, const uint32_t *v, size_t n);
/* The CRC of everything written so far. */
void bytes_put_crc(bytes_out *o);

typedef struct bytes_in {
    FILE *f;
    uint64_t left;       /* bytes not yet read */
    uint32_t crc;
    int bad;             /* read past the end, or a count too large */
} bytes_in;

void bytes_in_init(bytes_in *in, FILE *f, uint64_t size);
/* Each returns 0 (and sets bad) when the stream ends first. */
int bytes_get(bytes_in *in, void *p, size_t n);
uint32_t bytes_get_u32(bytes_in *in);
uint64_t bytes_get_u64(bytes_in *in);
int64_t bytes_get_i64(bytes_in *in);
real bytes_get_real(bytes_in *in);
int bytes_get_reals(bytes_in *in, real *v, size_t n);
int bytes_get_u32s(bytes_in *in, uint32_t *v, size_t n);
/* A count, accepted when the rest of the stream holds that many items of
 * at least `size` bytes each (and below `most`). */
int bytes_get_count(bytes_in *in, size_t size, size_t most, size_t *n);
/* Whether the stored CRC matches what was read before it. */
int bytes_check_crc(bytes_in *in);

/* A place in a stream to read it again from (the stream as it stood). */
typedef struct {
    bytes_in in;
    int64_t at;
} bytes_place;

void bytes_here(const bytes_in *in, bytes_place *place);
/* Back to the place (bad when the file cannot seek). */
void bytes_rewind(bytes_in *in, const bytes_place *place);

/* A part of a stream passed over, to be read later, out of order, and
 * folded back into the stream's CRC (a reader that picks what it needs
 * from a part once later parts told it what). */
typedef struct {
    uint64_t at, len;    /* its place in the file, its bytes */
    uint32_t crc_before; /* the stream's CRC where it begins */
    uint64_t left_after; /* the stream's bytes left where it ends */
    uint32_t crc;        /* its own, once read (bytes_span_known) */
    int read;            /* read through, to its end */
} bytes_span;

/* Passes over the next n bytes (bad when fewer are left, or the file
 * cannot seek); the CRC goes on from zero after them. */
int bytes_skip(bytes_in *in, uint64_t n, bytes_span *span);
/* Folds a span's CRC into in's: spans folded from the last passed over to
 * the first, each after it was read (in is bad where it was not). */
void bytes_splice(bytes_in *in, const bytes_span *span);

/* A span read in slices, each by one of several readers (ranks), so that
 * each passes through its slice of the file alone: */
/* the span's bytes [offset, offset + len) as a stream of their own, at
 * their start, its CRC going on from `crc` (bad when they are not all in
 * the span, or the file cannot seek); */
void bytes_span_part(const bytes_in *in, const bytes_span *span, uint64_t offset, uint64_t len, uint32_t crc,
                     bytes_in *part);
/* the span read through, its CRC the slices' joined (bytes_slices_join):
 * the file back where `in` stands; */
void bytes_span_known(bytes_in *in, bytes_span *span, uint32_t crc);
/* the CRC of no bytes; */
uint32_t bytes_crc_none(void);

/* Records read in slices: reader `reader` of `readers` passes through
 * whole windows of `window` records, the readers' in order, one after
 * another. */
typedef struct {
    int reader, readers;
    size_t window;
} bytes_slicing;

/* The records [*lo, *hi) of n that the reader passes through. */
void bytes_slice(size_t n, const bytes_slicing *sl, size_t *lo, size_t *hi);
/* The CRC of n records of `size` bytes after bytes whose CRC is crc0,
 * from every reader's CRC of its slice (crc[r] for reader r). */
uint32_t bytes_slices_join(uint32_t crc0, const uint32_t *crc, const bytes_slicing *sl, size_t n, size_t size);

#endif
