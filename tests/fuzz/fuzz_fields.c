/* Fuzzes the reading of a run's frame for grains fields (io/cg_read.h): the
 * input as a particles file and as its own contacts file, and what was read
 * spread onto a small grid of the fields. */
#include "fuzz_input.h"
#include "io/cg_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vtk_polydata d;
    grains_error err;
    if (vtk_polydata_read(fuzz_file(data, size, ".vtp"), &d, &err) != GRAINS_OK)
        return 0;
    static const grains_cg_grid grid = {{-1, -1, -1}, {1, 1, 1}, {4, 4, 4}, {0, 0, 0}, GRAINS_CG_GAUSSIAN, 0.5,
                                        {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {0, 0, 0}};
    for (int with_contacts = 0; with_contacts < 2; with_contacts++) {
        cg_frame_in f;
        grains_cg *cg;
        if (cg_frame_from_polydata(&d, "p", with_contacts ? &d : NULL, "c", 1000, &f, &err) != GRAINS_OK)
            continue;
        if (f.frame.n_contacts != (with_contacts ? d.lines : 0))
            abort();
        if (grains_cg_create(&cg, &grid, &err) == GRAINS_OK) {
            grains_cg_add_frame(cg, &f.frame, &err);
            grains_cg_destroy(cg);
        }
        cg_frame_free(&f);
    }
    vtk_polydata_free(&d);
    return 0;
}
