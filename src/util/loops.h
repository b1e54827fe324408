/* Loop hints for the vectoriser. */
#ifndef GRAINS_UTIL_LOOPS_H
#define GRAINS_UTIL_LOOPS_H

/* The loop's iterations touch different elements (gcc cannot always prove
 * it through the particle arrays; clang takes no such hint). */
#if defined(__GNUC__) && !defined(__clang__)
#define LOOP_INDEPENDENT _Pragma("GCC ivdep")
#else
#define LOOP_INDEPENDENT
#endif

#endif
