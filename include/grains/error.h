/* Status codes and the error record every library call can fill in.
 * The library never prints or exits; the caller decides (style.md section 5). */
#ifndef GRAINS_ERROR_H
#define GRAINS_ERROR_H

#include <stddef.h>

#include "grains/api.h"

GRAINS_API_BEGIN

/* One list, so codes and their messages cannot drift apart. */
#define GRAINS_STATUS_LIST(X)                                   \
    X(GRAINS_OK, "success")                                     \
    X(GRAINS_ERR_NOMEM, "out of memory")                        \
    X(GRAINS_ERR_IO, "input/output error")                      \
    X(GRAINS_ERR_PARSE, "malformed input")                      \
    X(GRAINS_ERR_RANGE, "value out of range")                   \
    X(GRAINS_ERR_ARG, "invalid argument")                       \
    X(GRAINS_ERR_LIMIT, "size limit exceeded")                  \
    X(GRAINS_ERR_UNSTABLE, "simulation became unstable")       \
    X(GRAINS_ERR_STOPPED, "stopped on request")                 \
    X(GRAINS_ERR_NOT_MET, "condition not met in time")

typedef enum {
#define GRAINS_STATUS_ENUM(code, text) code,
    GRAINS_STATUS_LIST(GRAINS_STATUS_ENUM)
#undef GRAINS_STATUS_ENUM
    GRAINS_STATUS_COUNT
} grains_status;

/* Where and why something failed. `file` and `line` name user input
 * (line 0 when the error has no line); `particle` names a particle for
 * instability errors (-1 otherwise). */
typedef struct {
    grains_status status;
    char file[1024];
    int line;
    long particle;
    double time;
    char message[512];
} grains_error;

const char *grains_status_string(grains_status status);

/* Fills `err` (may be NULL) and returns `status`. `file` may be NULL. */
grains_status grains_error_set(grains_error *err, grains_status status,
                               const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* "file:line: message" (or "file: message", or "message"). */
void grains_error_format(const grains_error *err, char *buf, size_t size);

GRAINS_API_END

#endif
