/* Writing a file in full or not at all: write PATH.tmp, then rename. */
#ifndef GRAINS_IO_ATOMIC_FILE_H
#define GRAINS_IO_ATOMIC_FILE_H

#include <stdio.h>

#include "grains/error.h"

typedef struct {
    FILE *f;
    char path[4096], tmp[4112];
} atomic_file;

grains_status atomic_open(atomic_file *af, const char *path, grains_error *err);
/* Closes and renames; on any earlier write error removes the temporary. */
grains_status atomic_commit(atomic_file *af, grains_error *err);

#endif
