/* The one table of contact sub-models (contact/submodels.h). */
#include "contact/submodels.h"

#include "contact/hertz_mindlin.h"

#include <stddef.h>
#include <string.h>

/* The damping, rolling and cohesion rows come from their lists (grains/choices.h); the normal
 * law comes with contact_model ("hertz_mindlin" and "hertz_restitution" are Hertz's), and the
 * damping is contact_model's own unless the key `damping` names one. */
/* Each rolling and cohesion law's own coefficients are the list ROLLING_<ID>_COEFFS or
 * COHESION_<ID>_COEFFS of its header (core/coeffs.h joins them); the damping laws have none (the
 * pair's e_n is the restitution's). */
#define COHESION_NONE_COEFFS(X)
#define DAMPING_ROW(id, name, doc) {SUBMODEL_DAMPING, GRAINS_DAMPING_##id, name, 0, 0, doc},
#define ROLLING_ROW(id, name, doc) \
    {SUBMODEL_ROLLING, GRAINS_ROLLING_##id, name, 3, COEFFS_MASK(ROLLING_##id##_COEFFS), doc},
#define COHESION_ROW(id, name, doc) \
    {SUBMODEL_COHESION, GRAINS_COHESION_##id, name, 0, COEFFS_MASK(COHESION_##id##_COEFFS), doc},
static const submodel rows[] = {
    {SUBMODEL_NORMAL, 0, "hertz", 0, 0, "TinyDEM Eqs. 12-17: k_n = 4/3 E* a (contact/normal_hertz.h)"},
    {SUBMODEL_NORMAL, 1, "linear", 0, COEFFS_MASK(NORMAL_LINEAR_COEFFS),
     "improved-Verlet Eqs. 1, 6, 27: k_n fixed per pair (contact/normal_linear.h)"},
    GRAINS_DAMPING_LIST(DAMPING_ROW)
    {SUBMODEL_SLIDING, 0, "coulomb", 3, 0,
     "TinyDEM Eqs. 10-11, 50-54; Luding's dynamic friction (contact/friction_spring.h)"},
    GRAINS_ROLLING_LIST(ROLLING_ROW)
    {SUBMODEL_TWISTING, 0, "spring", 1, 0, "TinyDEM Eqs. 35, 38, 40 (contact/friction_spring.h)"},
    GRAINS_COHESION_LIST(COHESION_ROW)
};
#define ROWS_COEFFS_OF_ROLLING(id, name, doc) | COEFFS_MASK(ROLLING_##id##_COEFFS)
#define ROWS_COEFFS_OF_COHESION(id, name, doc) | COEFFS_MASK(COHESION_##id##_COEFFS)
_Static_assert((0u GRAINS_ROLLING_LIST(ROWS_COEFFS_OF_ROLLING) GRAINS_COHESION_LIST(ROWS_COEFFS_OF_COHESION) |
                COEFFS_MASK(NORMAL_LINEAR_COEFFS)) == COEFFS_ALL, "a coefficient of core/coeffs.h that no row owns");
#define N_ROWS (sizeof rows / sizeof rows[0])

const submodel *submodel_find(submodel_kind kind, const char *name)
{
    for (size_t r = 0; r < N_ROWS; r++)
        if (rows[r].kind == kind && strcmp(rows[r].name, name) == 0)
            return &rows[r];
    return NULL;
}

const submodel *submodel_of(submodel_kind kind, int id)
{
    for (size_t r = 0; r < N_ROWS; r++)
        if (rows[r].kind == kind && rows[r].id == id)
            return &rows[r];
    return NULL;
}

const submodel *submodel_nth(submodel_kind kind, int k)
{
    for (size_t r = 0; r < N_ROWS; r++)
        if (rows[r].kind == kind && k-- == 0)
            return &rows[r];
    return NULL;
}

void submodels_chosen(const grains_params *p, const submodel *chosen[SUBMODEL_KINDS])
{
    int linear = p->contact_model == GRAINS_CONTACT_LINEAR;
    chosen[SUBMODEL_NORMAL] = submodel_of(SUBMODEL_NORMAL, linear);
    chosen[SUBMODEL_DAMPING] = submodel_of(SUBMODEL_DAMPING, grains_damping_of(p->damping, p->contact_model));
    chosen[SUBMODEL_SLIDING] = submodel_of(SUBMODEL_SLIDING, 0);
    chosen[SUBMODEL_ROLLING] = submodel_of(SUBMODEL_ROLLING, p->rolling_model);
    chosen[SUBMODEL_TWISTING] = submodel_of(SUBMODEL_TWISTING, 0);
    int cohesion = p->cohesion == GRAINS_COHESION_NONE && coeffs_most(p, COEFF_VDW_A) > 0 ? GRAINS_COHESION_VAN_DER_WAALS
                                                                                           : p->cohesion;
    chosen[SUBMODEL_COHESION] = submodel_of(SUBMODEL_COHESION, cohesion);
}

int submodels_history(const grains_params *p)
{
    const submodel *chosen[SUBMODEL_KINDS];
    submodels_chosen(p, chosen);
    grains_params d = *p;
    grains_params_derive(&d);
    hm_params hp;
    hm_params_init(&hp, &d);
    int acts[SUBMODEL_KINDS] = {1, 1, 0, 0, 0, 1};
    hm_spring_modes(&hp, &acts[SUBMODEL_SLIDING], &acts[SUBMODEL_ROLLING], &acts[SUBMODEL_TWISTING]);
    int n = 0;
    for (int k = 0; k < SUBMODEL_KINDS; k++)
        n += chosen[k] && acts[k] ? chosen[k]->history : 0;
    return n;
}

const submodel *submodel_owning(int k)
{
    for (size_t r = 0; r < N_ROWS; r++)
        if (rows[r].coeffs >> k & 1)
            return &rows[r];
    return NULL;
}

const char *submodel_kind_name(submodel_kind kind)
{
    static const char *const names[SUBMODEL_KINDS] = {"normal", "damping", "sliding", "rolling", "twisting",
                                                      "cohesion"};
    return names[kind];
}
