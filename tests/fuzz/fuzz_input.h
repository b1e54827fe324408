/* What the fuzz harnesses share: the readers take paths, so each input is
 * written to one temporary file of the process first. Built two ways:
 * with libFuzzer (clang -fsanitize=fuzzer, tests/fuzz/run.sh), and with
 * replay_main.c, which runs a corpus through the harness in the normal
 * test suite (release and sanitizer builds). */
#ifndef GRAINS_FUZZ_INPUT_H
#define GRAINS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_path[64], fuzz_out[64];

/* The process's files go with it (the runs left them, one per process, in /tmp). */
static inline void fuzz_file_remove(void)
{
    unlink(fuzz_path);
    unlink(fuzz_out);
}

/* Registers fuzz_file_remove once. */
static inline void fuzz_remove_at_exit(void)
{
    static int registered;
    if (!registered++)
        atexit(fuzz_file_remove);
}

/* A path for what a harness writes (the same path each time), removed at exit. */
static inline const char *fuzz_output(const char *suffix)
{
    if (!fuzz_out[0]) {
        snprintf(fuzz_out, sizeof fuzz_out, "/tmp/grains-fuzz-%ld-out%s", (long)getpid(), suffix);
        fuzz_remove_at_exit();
    }
    return fuzz_out;
}

/* The input as the file at the returned path (the same path each time). */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    char *path = fuzz_path;
    if (!path[0]) {
        snprintf(path, sizeof fuzz_path, "/tmp/grains-fuzz-%ld%s", (long)getpid(), suffix);
        fuzz_remove_at_exit();
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

/* The input as a NUL-terminated string (malloc'd). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
