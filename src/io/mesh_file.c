/* A mesh file of either format, told apart by content: OFF starts with
 * the word "OFF" (after blanks and '#' comments), anything else is STL. */
#include <stdlib.h>
#include <string.h>

#include "grains/io.h"
#include "io/text.h"

static int looks_like_off(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (p < end && *p == '#') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        return end - p >= 3 && memcmp(p, "OFF", 3) == 0;
    }
}

grains_status grains_mesh_read(const char *path, const real *R_mesh, int n_radii, grains_mesh **out, grains_error *err)
{
    *out = NULL;
    size_t len;
    char *text = read_input(path, &len, err);
    if (!text)
        return GRAINS_ERR_IO;
    grains_status s;
    if (!looks_like_off(text, len))
        s = grains_stl_parse(text, len, path, R_mesh, n_radii, out, err);
    else if (memchr(text, '\0', len))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "binary data in an OFF file");
    else
        s = grains_off_parse(text, path, R_mesh, n_radii, out, err);
    free(text);
    return s;
}
