/* A scenario file's text, checked before libconfig reads it. Debian's
 * libconfig 1.5 wraps integer literals beyond 32 bits (E = 70000000000
 * becomes 1.28e9, N_steps = 5000000000 becomes 705032704), accepts a
 * comment or string left open at the end, stops at a NUL byte, lets
 * @include read any file (and exits the process on a folder), and takes
 * time quadratic in the number of settings. So the text is read here
 * first, bounded, and: a NUL byte, an open comment or string, too many
 * settings, or an @include outside the scenario's folder (or of anything
 * but a regular file) is an error at its line; an integer literal beyond
 * 32 bits gets libconfig's 64-bit suffix L, so that it reads right (in
 * an included file, it is an error asking for the L). */
#ifndef GRAINS_SCENARIO_SCENARIO_TEXT_H
#define GRAINS_SCENARIO_SCENARIO_TEXT_H

#include "grains/error.h"

#define SCENARIO_BYTES_LIMIT (16L << 20)
#define SCENARIO_SETTINGS_LIMIT 10000

/* The text of `path` (malloc'd, NUL-terminated) ready for
 * config_read_string, and the scenario's folder (resolved; PATH_MAX
 * bytes), where its @includes are looked up. */
grains_status scenario_text_read(const char *path, char **text, char *dir, grains_error *err);

#endif
