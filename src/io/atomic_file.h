/* Writing a file in full or not at all: a temporary of an unpredictable
 * name in the same folder (created exclusively, so a planted symlink is
 * never followed), then renamed over the path. A path that exists and is
 * not a regular file (a FIFO, a device, a folder) is refused, never
 * replaced. The temporaries' names, NAME.grains-partial-XXXXXX, are this
 * program's alone: a resume removes those a killed run left (and nothing
 * else of the user's). */
#ifndef GRAINS_IO_ATOMIC_FILE_H
#define GRAINS_IO_ATOMIC_FILE_H

#include <stdio.h>

#include "grains/error.h"

/* What a temporary's name adds to its file's. */
#define ATOMIC_TMP_INFIX ".grains-partial-"

typedef struct {
    FILE *f;
    char path[4096], tmp[4128];
    int durable;   /* flush to the disk before the rename (checkpoints) */
} atomic_file;

grains_status atomic_open(atomic_file *af, const char *path, grains_error *err);
/* Closes and renames; on any earlier write error removes the temporary. */
grains_status atomic_commit(atomic_file *af, grains_error *err);
/* Closes and removes the temporary: the path keeps what it held. */
void atomic_abandon(atomic_file *af);
/* Whether a file's name is a temporary of this program's (NAME plus
 * ATOMIC_TMP_INFIX plus six letters or digits). */
int atomic_is_temporary(const char *name);

#endif
