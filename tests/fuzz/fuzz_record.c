/* Fuzzes a run's record in its checkpoint (src/run/record.c): the bytes a
 * resume decodes before the file's CRC is checked (grains_checkpoint_peek_app).
 * A record that decodes encodes again to bytes that decode to the same. */
#include <string.h>

#include "fuzz_input.h"
#include "run/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_record r, again;
    grains_error err;
    if (run_record_decode(&r, data, size, "fuzz", &err) != GRAINS_OK)
        return 0;
    void *bytes = NULL;
    size_t n = 0;
    if (run_record_encode(&r, &bytes, &n, &err) != GRAINS_OK)
        abort();
    if (run_record_decode(&again, bytes, n, "again", &err) != GRAINS_OK || again.argc != r.argc ||
        again.n_frames != r.n_frames || strcmp(again.cwd, r.cwd) != 0)
        abort();
    for (int a = 0; a < r.argc; a++)
        if (strcmp(again.argv[a], r.argv[a]) != 0)
            abort();
    free(bytes);
    run_record_free(&r);
    run_record_free(&again);
    return 0;
}
