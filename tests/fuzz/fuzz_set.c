/* Fuzzes --set: one KEY=VALUE per line of the input, applied in order,
 * then the checks that finish a scenario. */
#include "fuzz_input.h"
#include "grains/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grains_scenario sc;
    grains_error err;
    grains_scenario_default(&sc);
    char *text = fuzz_string(data, size), *line = text;
    int ok = 1;
    while (ok && line) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ok = grains_scenario_set(&sc, line, &err) == GRAINS_OK;
        line = next;
    }
    if (ok)
        grains_scenario_finish(&sc, &err);
    free(text);
    return 0;
}
