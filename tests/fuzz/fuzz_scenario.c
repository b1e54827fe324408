/* Fuzzes the scenario reader (libconfig behind io/scenario_text.c) and
 * the checks that finish a scenario. */
#include "fuzz_input.h"
#include "grains/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    grains_scenario sc;
    grains_error err;
    grains_scenario_default(&sc);
    if (grains_scenario_read(&sc, fuzz_file(data, size, ".cfg"), &err) == GRAINS_OK)
        grains_scenario_finish(&sc, &err);
    return 0;
}
