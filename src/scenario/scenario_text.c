/* A scenario file's text, checked and prepared for libconfig (scenario/scenario_text.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "scenario/scenario_text.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/text.h"

#define INCLUDE_DEPTH 8

/* One file's scan: where it is, and the folder includes must stay in. */
typedef struct {
    const char *path;
    const char *dir;
    const char *s;
    size_t n, i;
    int line;
    int main;            /* the scenario itself (its literals get an L), not an include */
    int depth;
    long settings;
    size_t *marks;       /* main: where an L goes */
    size_t n_marks, cap_marks;
} scan;

static grains_status scan_text(scan *sc, grains_error *err);

/* A whole file, at most SCENARIO_BYTES_LIMIT bytes, NUL-terminated. */
static grains_status slurp(const char *path, char **text, size_t *n, grains_error *err)
{
    FILE *f = input_open(path);
    struct stat st;
    if (!f)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s",
                                errno == EINVAL ? "not a regular file" : strerror(errno));
    grains_status s = GRAINS_OK;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
        s = grains_error_set(err, GRAINS_ERR_IO, path, 0, "not a regular file");
    else if (st.st_size > SCENARIO_BYTES_LIMIT)
        s = grains_error_set(err, GRAINS_ERR_LIMIT, path, 0, "%lld bytes: a scenario may have at most %ld",
                             (long long)st.st_size, SCENARIO_BYTES_LIMIT);
    else if (!(*text = malloc((size_t)st.st_size + 1)))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK) {
        *n = fread(*text, 1, (size_t)st.st_size, f);
        (*text)[*n] = '\0';
        if (ferror(f))
            s = grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read");
        else if (*n >= 3 && memcmp(*text, UTF8_BOM, 3) == 0)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, 1,
                                 "a UTF-8 byte-order mark before the first line: save the file without one");
        if (s != GRAINS_OK) {
            free(*text);
            *text = NULL;
        }
    }
    fclose(f);
    return s;
}

static grains_status fail(const scan *sc, grains_error *err, const char *why)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, sc->path, sc->line, "%s", why);
}

/* Past a comment: # or // to the end of the line, or a closed one. */
static grains_status skip_comment(scan *sc, grains_error *err)
{
    const char *s = sc->s;
    if (s[sc->i] == '/' && s[sc->i + 1] == '*') {
        int opened = sc->line;
        for (sc->i += 2; sc->i + 1 < sc->n && !(s[sc->i] == '*' && s[sc->i + 1] == '/'); sc->i++)
            sc->line += s[sc->i] == '\n';
        if (sc->i + 1 >= sc->n) {
            sc->line = opened;
            return fail(sc, err, "a comment /* opened here is never closed");
        }
        sc->i += 2;
        return GRAINS_OK;
    }
    while (sc->i < sc->n && s[sc->i] != '\n')
        sc->i++;
    return GRAINS_OK;
}

/* Past a string "..." with its escapes; its text in buf (truncated to cap). */
static grains_status skip_string(scan *sc, char *buf, size_t cap, grains_error *err)
{
    int opened = sc->line;
    size_t k = 0;
    for (sc->i++; sc->i < sc->n && sc->s[sc->i] != '"'; sc->i++) {
        if (sc->s[sc->i] == '\\' && sc->i + 1 < sc->n)
            sc->i++;
        sc->line += sc->s[sc->i] == '\n';
        if (buf && k + 1 < cap)
            buf[k++] = sc->s[sc->i];
    }
    if (buf)
        buf[k] = '\0';
    if (sc->i >= sc->n) {
        sc->line = opened;
        return fail(sc, err, "a string opened here is never closed");
    }
    sc->i++;
    return GRAINS_OK;
}

/* `name` of an @include: a regular file below the scenario's folder, checked in turn. */
static grains_status check_include(scan *sc, const char *name, grains_error *err)
{
    char joined[2 * PATH_MAX], resolved[PATH_MAX];
    size_t d = strlen(sc->dir);
    snprintf(joined, sizeof joined, "%s/%s", sc->dir, name);
    struct stat st;
    if (name[0] == '/' || !realpath(joined, resolved) || strncmp(resolved, sc->dir, d) != 0 || resolved[d] != '/')
        return grains_error_set(err, GRAINS_ERR_PARSE, sc->path, sc->line,
                                "@include \"%s\": only an existing file in the scenario's folder or below it may "
                                "be included", name);
    if (stat(resolved, &st) != 0 || !S_ISREG(st.st_mode))
        return grains_error_set(err, GRAINS_ERR_PARSE, sc->path, sc->line, "@include \"%s\": not a regular file",
                                name);
    if (sc->depth + 1 > INCLUDE_DEPTH)
        return grains_error_set(err, GRAINS_ERR_PARSE, sc->path, sc->line, "@include \"%s\": more than %d levels deep",
                                name, INCLUDE_DEPTH);
    scan inner = {.path = resolved, .dir = sc->dir, .depth = sc->depth + 1, .line = 1};
    char *text = NULL;
    grains_status s = slurp(resolved, &text, &inner.n, err);
    inner.s = text;
    if (s == GRAINS_OK)
        s = scan_text(&inner, err);
    sc->settings += inner.settings;
    free(text);
    return s;
}

static grains_status directive(scan *sc, grains_error *err)
{
    if (strncmp(sc->s + sc->i, "@include", 8) != 0) {
        sc->i++;
        return GRAINS_OK;
    }
    sc->i += 8;
    while (sc->i < sc->n && (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t'))
        sc->i++;
    if (sc->s[sc->i] != '"')
        return fail(sc, err, "@include needs a file name in quotes");
    char name[PATH_MAX];
    grains_status s = skip_string(sc, name, sizeof name, err);
    return s == GRAINS_OK ? check_include(sc, name, err) : s;
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* An integer literal's magnitude, saturated past 2^63. */
static uint64_t magnitude(const char *s, size_t from, size_t to, int hex)
{
    uint64_t v = 0, base = hex ? 16 : 10;
    for (size_t k = from; k < to; k++) {
        char c = s[k];
        uint64_t d = c <= '9' ? (uint64_t)(c - '0') : (uint64_t)((c | 0x20) - 'a' + 10);
        if (v > (UINT64_MAX - d) / base)
            return UINT64_MAX;
        v = v * base + d;
    }
    return v;
}

/* A number at i: a literal integer beyond 32 bits without its L is marked
 * (the scenario) or refused (an include). */
static grains_status number(scan *sc, grains_error *err)
{
    const char *s = sc->s;
    size_t start = sc->i, k = start;
    int negative = s[k] == '-';
    if (s[k] == '-' || s[k] == '+')
        k++;
    int hex = s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X');
    size_t digits = hex ? k + 2 : k, end = digits;
    while (end < sc->n && ((s[end] >= '0' && s[end] <= '9') || (hex && s[end] && strchr("abcdefABCDEF", s[end]))))
        end++;
    sc->i = end;
    if (end < sc->n && (s[end] == '.' || s[end] == 'e' || s[end] == 'E' || s[end] == 'L')) {
        while (sc->i < sc->n && (is_name_char(s[sc->i]) || s[sc->i] == '+' || s[sc->i] == '-'))
            sc->i++; /* a real, or a 64-bit integer already */
        return GRAINS_OK;
    }
    uint64_t v = magnitude(s, digits, end, hex);
    if (v <= (negative ? 2147483648u : 2147483647u))
        return GRAINS_OK;
    if (v > (uint64_t)INT64_MAX)
        return grains_error_set(err, GRAINS_ERR_RANGE, sc->path, sc->line, "%.*s: beyond 64-bit integers",
                                (int)(end - start), s + start);
    if (!sc->main)
        return grains_error_set(err, GRAINS_ERR_RANGE, sc->path, sc->line,
                                "%.*s: libconfig reads integers beyond 32 bits wrongly; write %.*sL (or a real)",
                                (int)(end - start), s + start, (int)(end - start), s + start);
    if (sc->n_marks == sc->cap_marks) {
        size_t cap = sc->cap_marks ? 2 * sc->cap_marks : 16;
        size_t *m = realloc(sc->marks, cap * sizeof *m);
        if (!m)
            return grains_error_set(err, GRAINS_ERR_NOMEM, sc->path, 0, "out of memory");
        sc->marks = m;
        sc->cap_marks = cap;
    }
    sc->marks[sc->n_marks++] = end;
    return GRAINS_OK;
}

static grains_status scan_text(scan *sc, grains_error *err)
{
    const char *s = sc->s;
    grains_status st = GRAINS_OK;
    while (st == GRAINS_OK && sc->i < sc->n) {
        char c = s[sc->i];
        int starts_number = (c >= '0' && c <= '9') || ((c == '-' || c == '+') && s[sc->i + 1] >= '0' && s[sc->i + 1] <= '9');
        if (c == '\0')
            st = fail(sc, err, "a NUL byte: not a text file");
        else if (c == '\n')
            sc->line++, sc->i++;
        else if (c == '#' || (c == '/' && (s[sc->i + 1] == '/' || s[sc->i + 1] == '*')))
            st = skip_comment(sc, err);
        else if (c == '"')
            st = skip_string(sc, NULL, 0, err);
        else if (c == '@')
            st = directive(sc, err);
        else if (starts_number && (sc->i == 0 || !is_name_char(s[sc->i - 1])))
            st = number(sc, err);
        else if ((c == '=' || c == ':') && ++sc->settings > SCENARIO_SETTINGS_LIMIT)
            st = fail(sc, err, "more settings than the 10000 a scenario may have (it has about 100 keys)");
        else
            sc->i++;
    }
    return st;
}

/* The text with an L after each marked literal. */
static char *with_marks(const scan *sc)
{
    char *out = malloc(sc->n + sc->n_marks + 1);
    if (!out)
        return NULL;
    size_t from = 0, w = 0;
    for (size_t m = 0; m < sc->n_marks; m++) {
        memcpy(out + w, sc->s + from, sc->marks[m] - from);
        w += sc->marks[m] - from;
        out[w++] = 'L';
        from = sc->marks[m];
    }
    memcpy(out + w, sc->s + from, sc->n - from);
    out[w + sc->n - from] = '\0';
    return out;
}

grains_status scenario_text_read(const char *path, char **text, char *dir, grains_error *err)
{
    char resolved[PATH_MAX];
    *text = NULL;
    if (!realpath(path, resolved))
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read: %s", strerror(errno));
    snprintf(dir, PATH_MAX, "%s", resolved);
    *strrchr(dir, '/') = '\0';
    if (!dir[0])
        snprintf(dir, PATH_MAX, "/");
    char *raw = NULL;
    scan sc = {.path = path, .dir = dir, .main = 1, .line = 1};
    grains_status s = slurp(path, &raw, &sc.n, err);
    sc.s = raw;
    if (s == GRAINS_OK)
        s = scan_text(&sc, err);
    if (s == GRAINS_OK && !(*text = with_marks(&sc)))
        s = grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    free(raw);
    free(sc.marks);
    return s;
}
