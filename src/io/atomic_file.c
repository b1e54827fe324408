/* Temporary-then-rename file writing. */
#include "io/atomic_file.h"

#include <errno.h>
#include <string.h>

grains_status atomic_open(atomic_file *af, const char *path, grains_error *err)
{
    if (strlen(path) >= sizeof af->path)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "path too long");
    snprintf(af->path, sizeof af->path, "%s", path);
    snprintf(af->tmp, sizeof af->tmp, "%s.tmp", path);
    af->f = fopen(af->tmp, "w");
    if (!af->f)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    return GRAINS_OK;
}

grains_status atomic_commit(atomic_file *af, grains_error *err)
{
    int failed = ferror(af->f);
    if (fclose(af->f) != 0)
        failed = 1;
    af->f = NULL;
    if (failed) {
        remove(af->tmp);
        return grains_error_set(err, GRAINS_ERR_IO, af->path, 0, "write failed (disk full?)");
    }
    if (rename(af->tmp, af->path) != 0) {
        remove(af->tmp);
        return grains_error_set(err, GRAINS_ERR_IO, af->path, 0, "cannot write: %s", strerror(errno));
    }
    return GRAINS_OK;
}
