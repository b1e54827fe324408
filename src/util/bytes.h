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

#endif
