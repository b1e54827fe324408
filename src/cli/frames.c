/* A run's output folder as the commands that read it see it: its files,
 * and its particle frames particles000000.vtp, particles000001.vtp, ... */
#include <stdio.h>
#include <sys/stat.h>

#include "cli/cli.h"

int cli_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

size_t cli_count_frames(const char *dir)
{
    char path[4200];
    size_t n = 0;
    while (snprintf(path, sizeof path, "%s/particles%06zu.vtp", dir, n), cli_file_exists(path))
        n++;
    return n;
}
