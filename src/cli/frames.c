/* A run's output folder as the commands that read it see it: its files,
 * its particle frames particles000000.vtp, particles000001.vtp, ..., and
 * the places the post-processors write. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A folder that exists and can be written in, or, where it does not
 * exist, whose nearest existing ancestor can (`what` says why not). */
static int writable_folder(const char *dir, const char **what)
{
    char at[4200];
    snprintf(at, sizeof at, "%s", dir);
    struct stat st;
    while (stat(at, &st) != 0) {
        char *slash = strrchr(at, '/');
        while (slash && slash > at && slash[1] == '\0') /* (a trailing slash) */
            *slash = '\0', slash = strrchr(at, '/');
        if (!slash) {
            snprintf(at, sizeof at, ".");
            break;
        }
        slash[slash == at] = '\0';
    }
    if (stat(at, &st) != 0 || !S_ISDIR(st.st_mode)) {
        *what = strcmp(at, dir) == 0 ? "exists and is not a folder" : "cannot be made: a file stands in its path";
        return 0;
    }
    *what = strcmp(at, dir) == 0 ? "is not writable" : "cannot be made: its parent folder is not writable";
    return access(at, W_OK | X_OK) == 0;
}

int cli_output_usable(const char *cmd, const char *out, int in_run, int is_file)
{
    struct stat st;
    if (in_run && lstat(out, &st) == 0 && S_ISLNK(st.st_mode)) {
        fprintf(stderr, "grains %s: %s is a symbolic link: the run folder's outputs are written there alone "
                "(-o names another place)\n", cmd, out);
        return EXIT_INPUT;
    }
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = is_file ? strrchr(dir, '/') : NULL;
    if (is_file && !slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash)
        slash[slash == dir] = '\0'; /* (a file in / keeps its "/") */
    const char *what = "";
    if (is_file && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) { /* (a file's folder is not made) */
        fprintf(stderr, "grains %s: %s: the folder %s does not exist\n", cmd, out, dir);
        return EXIT_INPUT;
    }
    if (!writable_folder(dir, &what)) {
        fprintf(stderr, "grains %s: %s: the folder %s %s\n", cmd, out, dir, what);
        return EXIT_INPUT;
    }
    return 0;
}
