/* The bonds file: a header `a,b` and one bond per line, two particle ids
 * (their order in the particles file, from 0). Lines starting with '#'
 * and blank lines are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "io/text.h"

/* "a,b" as two ids in [0, n_particles). */
static int parse_bond(const char *s, size_t n_particles, size_t *a, size_t *b)
{
    const char *comma = strchr(s, ',');
    long x, y;
    if (!comma || !parse_long(s, (size_t)(comma - s), &x) || !parse_long(comma + 1, strlen(comma + 1), &y))
        return 0;
    if (x < 0 || y < 0 || (size_t)x >= n_particles || (size_t)y >= n_particles || x == y)
        return 0;
    *a = (size_t)x, *b = (size_t)y;
    return 1;
}

grains_status grains_bonds_read(const char *path, grains_sim *sim, grains_error *err)
{
    size_t len;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    line_reader r;
    lines_init(&r, text, len);
    const char *line;
    int header = 0;
    size_t n = grains_sim_count(sim);
    grains_status s = GRAINS_OK;
    while (s == GRAINS_OK && (line = lines_next(&r))) {
        size_t a, b;
        if (r.fault)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line, "%s", r.fault);
        else if (!line[strspn(line, " \t")] || line[strspn(line, " \t")] == '#')
            continue;
        else if (!header)
            header = 1, s = strcmp(line, "a,b") == 0 ? GRAINS_OK
                                                     : grains_error_set(err, GRAINS_ERR_PARSE, path, r.line,
                                                                        "expected the header 'a,b'");
        else if (!parse_bond(line, n, &a, &b))
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, r.line,
                                 "expected two different particle ids 'a,b', each in [0, %zu)", n);
        else if ((s = grains_sim_add_bond(sim, a, b, err)) != GRAINS_OK && err) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            grains_error_set(err, s, path, r.line, "%s", why);
        }
    }
    free(text);
    if (s == GRAINS_OK && !header)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "empty bonds file: expected the header 'a,b'");
    return s;
}
