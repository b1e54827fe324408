/* The tables a run appends to (thermo.csv, walls.csv, ...): opened fresh
 * with their header, or, when a run resumes, cut back to their length at
 * its checkpoint so that no row appears twice. Never through a symlink:
 * one planted in the output folder would redirect the writes. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

grains_status cli_table_open(FILE **f, const char *dir, const char *name, const char *header, long resume_len,
                             grains_error *err)
{
    char path[2 * GRAINS_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *f = NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | (resume_len ? 0 : O_TRUNC), 0666);
    if (fd < 0)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    struct stat st;
    if (resume_len && (fstat(fd, &st) != 0 || st.st_size < resume_len)) {
        close(fd);
        return grains_error_set(err, GRAINS_ERR_IO, path, 0,
                                "holds fewer bytes than the %ld it had at the checkpoint: changed since?", resume_len);
    }
    if ((resume_len && ftruncate(fd, resume_len) != 0) || lseek(fd, 0, SEEK_END) < 0 || !(*f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write: %s", strerror(e));
    }
    if (!resume_len)
        fputs(header, *f);
    return GRAINS_OK;
}

long cli_table_length(FILE *f)
{
    if (!f || fflush(f) != 0)
        return 0;
    return ftell(f);
}
