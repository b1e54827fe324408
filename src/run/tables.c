/* The tables a run appends to (thermo.csv, walls.csv, ...): opened fresh
 * with their header, or, when a run resumes, cut back to their length at
 * its checkpoint so that no row appears twice. Never through a symlink:
 * one planted in the output folder would redirect the writes. A
 * checkpoint records each table's length and the CRC of its bytes, and a
 * resumed run checks every table against them before it cuts any. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "run/run.h"

grains_status run_table_open(FILE **f, const char *dir, const char *name, const char *header, long resume_len,
                             grains_error *err)
{
    char path[2 * GRAINS_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *f = NULL;
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* (before open: a FIFO would block it, O_TRUNC a device) */
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "exists and is not a regular file: not written");
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | (resume_len ? 0 : O_TRUNC), 0666); /* (read back for its CRC) */
    if (fd < 0)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
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

long run_table_length(FILE *f)
{
    if (!f || fflush(f) != 0)
        return 0;
    return ftell(f);
}

grains_status run_table_sum_extend(FILE *f, const char *name, run_table_sum *sum, grains_error *err)
{
    long len = run_table_length(f);
    unsigned char buf[65536];
    while (sum->len < len) {
        size_t want = (size_t)(len - sum->len) < sizeof buf ? (size_t)(len - sum->len) : sizeof buf;
        ssize_t got = pread(fileno(f), buf, want, (off_t)sum->len);
        if (got <= 0)
            return grains_error_set(err, GRAINS_ERR_IO, name, 0, "cannot read back: %s",
                                    got < 0 ? strerror(errno) : "cut short while the run writes it");
        sum->crc = (uint32_t)crc32(sum->crc, buf, (unsigned)got);
        sum->len += got;
    }
    return GRAINS_OK;
}

grains_status run_table_verify(const char *dir, const char *name, run_table_sum sum, grains_error *err)
{
    char path[2 * GRAINS_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (fd < 0)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s (the checkpoint has %ld bytes of it)",
                                strerror(errno), sum.len);
    grains_status s = GRAINS_OK;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        s = grains_error_set(err, GRAINS_ERR_IO, path, 0, "not a regular file");
    else if (st.st_size < sum.len)
        s = grains_error_set(err, GRAINS_ERR_IO, path, 0,
                             "holds %lld bytes, fewer than the %ld it had at the checkpoint: changed since?",
                             (long long)st.st_size, sum.len);
    uLong crc = crc32(0, NULL, 0);
    unsigned char buf[65536];
    for (long at = 0; s == GRAINS_OK && at < sum.len;) {
        size_t want = (size_t)(sum.len - at) < sizeof buf ? (size_t)(sum.len - at) : sizeof buf;
        ssize_t got = pread(fd, buf, want, (off_t)at);
        if (got <= 0)
            s = grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s",
                                 got < 0 ? strerror(errno) : "cut short");
        else
            crc = crc32(crc, buf, (unsigned)got), at += got;
    }
    if (s == GRAINS_OK && (uint32_t)crc != sum.crc)
        s = grains_error_set(err, GRAINS_ERR_IO, path, 0,
                             "its first %ld bytes are not those the checkpoint recorded: another run's, or changed "
                             "since (nothing was changed)", sum.len);
    close(fd);
    return s;
}
