/* Wall-clock seconds, for the times a run reports (never for its results). */
#ifndef GRAINS_UTIL_CLOCK_H
#define GRAINS_UTIL_CLOCK_H

#include <time.h>

/* [s] since an arbitrary start, monotonic. */
static inline double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
