/* Comparators for qsort. */
#ifndef GRAINS_UTIL_ORDER_H
#define GRAINS_UTIL_ORDER_H

#include <stdint.h>

/* Unsigned 64-bit integers, growing (keys that pack what sorts first in
 * their high bits, e.g. id << 32 | index). */
static inline int order_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Unsigned 32-bit integers, growing. */
static inline int order_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

#endif
