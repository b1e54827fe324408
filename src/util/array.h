/* Growing arrays: one place for the policy. Callers choose the headroom
 * (need / slack more), since lists rebuilt often want little and append-only
 * arrays want to double. On failure nothing changes and 0 is returned. */
#ifndef GRAINS_UTIL_ARRAY_H
#define GRAINS_UTIL_ARRAY_H

#include <stdlib.h>

/* *p to exactly `cap` elements of `size` bytes. */
static inline int array_resize(void **p, size_t cap, size_t size)
{
    void *q = realloc(*p, (cap ? cap : 1) * (size ? size : 1)); /* never 0 bytes: realloc would free *p */
    if (!q)
        return 0;
    *p = q;
    return 1;
}

/* The capacity to grow to for `need` elements: need + need / slack + 16. */
static inline size_t array_grown(size_t need, size_t slack) { return need + need / slack + 16; }

/* At least `need` elements in *p (capacity *cap), growing with headroom. */
static inline int array_reserve(void **p, size_t *cap, size_t need, size_t size, size_t slack)
{
    if (need <= *cap)
        return 1;
    size_t ncap = array_grown(need, slack);
    if (!array_resize(p, ncap, size))
        return 0;
    *cap = ncap;
    return 1;
}

#endif
