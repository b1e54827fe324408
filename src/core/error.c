/* Error records: one formatted message per failure, with its input location. */
#include "grains/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_text[] = {
#define GRAINS_STATUS_TEXT(code, text) text,
    GRAINS_STATUS_LIST(GRAINS_STATUS_TEXT)
#undef GRAINS_STATUS_TEXT
};

const char *grains_status_string(grains_status status)
{
    if ((unsigned)status >= (unsigned)GRAINS_STATUS_COUNT)
        return "unknown status";
    return status_text[status];
}

grains_status grains_error_set(grains_error *err, grains_status status,
                               const char *file, int line, const char *fmt, ...)
{
    if (!err)
        return status;
    err->status = status;
    err->line = line;
    err->particle = -1;
    err->time = 0.0;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return status;
}

void grains_error_format(const grains_error *err, char *buf, size_t size)
{
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->message);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->message);
    else
        snprintf(buf, size, "%s", err->message);
}
