/* The rolling sub-models' traits (contact/rolling.h). */
#include "contact/rolling.h"

#define TRAITS(id, name, doc) [GRAINS_ROLLING_##id] = {ROLLING_##id##_ODD, ROLLING_##id##_IN_LANES},
static const rolling_traits traits[GRAINS_N_ROLLINGS] = {GRAINS_ROLLING_LIST(TRAITS)};

rolling_traits rolling_traits_of(grains_rolling_model model) { return traits[model]; }
