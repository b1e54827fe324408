/* Fuzzes the reader of the tables grains plot draws (io/csv_table.h):
 * every cell it keeps is read, every column it names found again. */
#include <string.h>

#include "fuzz_input.h"
#include "io/csv_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    csv_table t;
    grains_error err;
    if (csv_table_read(fuzz_file(data, size, ".csv"), &t, &err) != GRAINS_OK)
        return 0;
    if (t.cols < 2 || t.cols > CSV_TABLE_COLS || t.rows == 0)
        abort();
    size_t text = 0;
    for (size_t k = 0; k < t.rows * (size_t)t.cols; k++) /* (AddressSanitizer checks the sizes) */
        text += strlen(t.text[k]) + (t.v[k] == t.v[k]);
    volatile size_t sink = text;
    (void)sink;
    for (int c = 0; c < t.cols; c++)
        if (csv_table_column(&t, t.name[c]) > c)
            abort();
    csv_table_free(&t);
    return 0;
}
