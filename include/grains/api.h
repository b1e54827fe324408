/* What the shared library exports: the functions the headers of
 * include/grains/ declare between GRAINS_API_BEGIN and GRAINS_API_END, and
 * nothing else (it is built with -fvisibility=hidden; the engine's own
 * functions stay inside it). */
#ifndef GRAINS_API_H
#define GRAINS_API_H

#if defined(__GNUC__)
#define GRAINS_API_BEGIN _Pragma("GCC visibility push(default)")
#define GRAINS_API_END _Pragma("GCC visibility pop")
#else
#define GRAINS_API_BEGIN
#define GRAINS_API_END
#endif

#endif
