/* Temporary-then-rename file writing. */
#include "io/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The permissions a plain fopen would give: 0666 less the umask. */
static mode_t default_mode(void)
{
    mode_t mask = umask(022);
    umask(mask);
    return 0666 & ~mask;
}

grains_status atomic_open(atomic_file *af, const char *path, grains_error *err)
{
    af->f = NULL;
    af->durable = 0;
    if (strlen(path) >= sizeof af->path)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "path too long");
    snprintf(af->path, sizeof af->path, "%s", path);
    snprintf(af->tmp, sizeof af->tmp, "%s" ATOMIC_TMP_INFIX "XXXXXX", path);
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) /* (a link is replaced, not followed) */
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "exists and is not a regular file (%s): not replaced",
                                S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO"
                                : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
    int fd = mkstemp(af->tmp);
    if (fd < 0)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    if (fchmod(fd, default_mode()) != 0 || !(af->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(af->tmp);
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write: %s", strerror(e));
    }
    return GRAINS_OK;
}

int atomic_is_temporary(const char *name)
{
    size_t n = strlen(name), infix = strlen(ATOMIC_TMP_INFIX);
    if (n < infix + 7 || strncmp(name + n - 6 - infix, ATOMIC_TMP_INFIX, infix) != 0)
        return 0;
    for (size_t k = n - 6; k < n; k++)
        if (!((name[k] >= '0' && name[k] <= '9') || (name[k] >= 'a' && name[k] <= 'z') ||
              (name[k] >= 'A' && name[k] <= 'Z')))
            return 0;
    return 1;
}

void atomic_abandon(atomic_file *af)
{
    if (af->f)
        fclose(af->f);
    af->f = NULL;
    unlink(af->tmp);
}

grains_status atomic_commit(atomic_file *af, grains_error *err)
{
    int failed = ferror(af->f) || fflush(af->f) != 0 || (af->durable && fsync(fileno(af->f)) != 0);
    if (fclose(af->f) != 0)
        failed = 1;
    af->f = NULL;
    if (failed) {
        unlink(af->tmp);
        return grains_error_set(err, GRAINS_ERR_IO, af->path, 0, "write failed (disk full?)");
    }
    if (rename(af->tmp, af->path) != 0) {
        int e = errno;
        unlink(af->tmp);
        return grains_error_set(err, GRAINS_ERR_IO, af->path, 0, "cannot write: %s", strerror(e));
    }
    return GRAINS_OK;
}
