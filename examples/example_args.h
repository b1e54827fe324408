/* Command-line numbers for the example programs. */
#ifndef GRAINS_EXAMPLES_ARGS_H
#define GRAINS_EXAMPLES_ARGS_H

#include <stdio.h>
#include <stdlib.h>

/* argv[k] as a number in [lo, hi], or exit with a message naming `program`. */
static inline double example_arg(const char *program, char **argv, int k, double lo, double hi)
{
    char *end;
    double v = strtod(argv[k], &end);
    if (end == argv[k] || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "%s: argument %d = '%s': expected a number in [%g, %g]\n", program, k, argv[k], lo, hi);
        exit(2);
    }
    return v;
}

#endif
