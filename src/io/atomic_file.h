/* Writing a file in full or not at all: a temporary of an unpredictable
 * name in the same folder (created exclusively, so a planted symlink is
 * never followed), then renamed over the path. */
#ifndef GRAINS_IO_ATOMIC_FILE_H
#define GRAINS_IO_ATOMIC_FILE_H

#include <stdio.h>

#include "grains/error.h"

typedef struct {
    FILE *f;
    char path[4096], tmp[4112];
    int durable;   /* flush to the disk before the rename (checkpoints) */
} atomic_file;

grains_status atomic_open(atomic_file *af, const char *path, grains_error *err);
/* Closes and renames; on any earlier write error removes the temporary. */
grains_status atomic_commit(atomic_file *af, grains_error *err);
/* Closes and removes the temporary: the path keeps what it held. */
void atomic_abandon(atomic_file *af);

#endif
