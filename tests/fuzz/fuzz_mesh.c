/* Fuzzes the mesh readers (OFF and STL, told apart by content). */
#include "fuzz_input.h"
#include "grains/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const real R[2] = {0.001, 0.002};
    grains_mesh *mesh = NULL;
    grains_error err;
    if (grains_mesh_read(fuzz_file(data, size, ".mesh"), R, 2, &mesh, &err) == GRAINS_OK)
        grains_mesh_destroy(mesh);
    return 0;
}
