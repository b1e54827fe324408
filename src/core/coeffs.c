/* The sub-models' own coefficients: defaults and checks (core/coeffs.h). */
#include "core/coeffs.h"

#include <math.h>
#include <string.h>

typedef struct {
    const char *name;
    real dflt, least;
} coeff_row;

#define COEFF_ROW(id, name, unit, dflt, least, doc) [COEFF_##id] = {name, dflt, least},
static const coeff_row rows[N_COEFFS] = {GRAINS_SUBMODEL_COEFFS(COEFF_ROW)};

void coeffs_default(grains_params *p)
{
    for (int k = 0; k < GRAINS_MAX_COEFFS; k++)
        p->coeff[k] = k < N_COEFFS ? rows[k].dflt : 0;
}

grains_status coeffs_check(const real *c, unsigned which, const char *where, grains_error *err)
{
    if (which & ~COEFFS_ALL)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "%scoeff_given = %#x: bits for coefficients 0 to %d "
                                "alone", where, which, N_COEFFS - 1);
    for (int k = 0; k < N_COEFFS; k++)
        if ((which >> k & 1) && (!isfinite(c[k]) || c[k] < rows[k].least))
            return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "%s%s = %g: must be finite and >= %g", where,
                                    rows[k].name, c[k], rows[k].least);
    return GRAINS_OK;
}

const char *coeff_name(int k) { return rows[k].name; }

int coeff_find(const char *name)
{
    for (int k = 0; k < N_COEFFS; k++)
        if (strcmp(rows[k].name, name) == 0)
            return k;
    return -1;
}
