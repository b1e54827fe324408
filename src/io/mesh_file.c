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
    int bom = len >= 3 && memcmp(text, UTF8_BOM, 3) == 0; /* (a binary STL's header may begin so too) */
    if (bom && (looks_like_off(text + 3, len - 3) || (len >= 8 && memcmp(text + 3, "solid", 5) == 0)))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 1,
                             "a UTF-8 byte-order mark before the first line: save the file without one");
    else if (!looks_like_off(text, len))
        s = grains_stl_parse(text, len, path, R_mesh, n_radii, out, err);
    else if (memchr(text, '\0', len))
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "binary data in an OFF file");
    else
        s = grains_off_parse(text, path, R_mesh, n_radii, out, err);
    free(text);
    if (s == GRAINS_OK && (*out)->n_elements == 0) { /* nothing a grain could touch: surely not what was meant */
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "no elements (%zu vertices and not one face, segment or "
                             "point): a mesh file needs at least one", (*out)->n_vertices);
        grains_mesh_destroy(*out);
        *out = NULL;
    }
    return s;
}
