/* Fuzzes the VTK PolyData reader that grains render uses on a run's
 * frames, and what the renderer does with what it read: the camera's
 * bounds, the colour field and the surfaces' polygons. */
#include "fuzz_input.h"
#include "io/vtk_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vtk_polydata d;
    grains_error err;
    if (vtk_polydata_read(fuzz_file(data, size, ".vtp"), &d, &err) != GRAINS_OK)
        return 0;
    /* what the renderer relies on: counts that match the arrays */
    for (int k = 0; k < d.n_arrays; k++) {
        const vtk_array_in *a = &d.array[k];
        double s = 0; /* every value read: AddressSanitizer checks the array's size */
        for (size_t i = 0; i < a->tuples * (size_t)a->comps; i++)
            s += a->v[i];
        volatile double sink = s;
        (void)sink;
        if ((a->section == VTK_IN_POINTS || a->section == VTK_IN_POINT_DATA) && a->tuples != d.points)
            abort();
    }
    vtk_polydata_free(&d);
    return 0;
}
