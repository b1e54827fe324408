/* The registry of contact sub-models: one row per sub-model, naming what the
 * scenario may choose for each part of a contact (normal spring, damping,
 * sliding, rolling, twisting, cohesion), the springs it keeps in a contact's
 * history, and where its equations come from. The kernel composes the
 * chosen rows (contact/hertz_mindlin_kernel.h); each sub-model's equations
 * are in its own header, contact/<kind>_<name>.h. */
#ifndef GRAINS_CONTACT_SUBMODELS_H
#define GRAINS_CONTACT_SUBMODELS_H

#include "grains/params.h"

typedef enum {
    SUBMODEL_NORMAL,
    SUBMODEL_DAMPING,
    SUBMODEL_SLIDING,
    SUBMODEL_ROLLING,
    SUBMODEL_TWISTING,
    SUBMODEL_COHESION,
    SUBMODEL_KINDS
} submodel_kind;

typedef struct {
    submodel_kind kind;
    int id;               /* the value of the params field that selects it */
    const char *name;     /* as the scenario names it */
    int history;          /* reals of spring history per contact */
    unsigned coeffs;      /* its own coefficients: bit k for core/coeffs.h's k (their scenario keys) */
    const char *source;   /* equations and file */
} submodel;

/* The row of `kind` named `name`, or NULL. */
const submodel *submodel_find(submodel_kind kind, const char *name);

/* The row of `kind` with value `id`, or NULL. */
const submodel *submodel_of(submodel_kind kind, int id);

/* The k-th row of `kind` (NULL past the last): for listing the choices. */
const submodel *submodel_nth(submodel_kind kind, int k);

/* Which row of each kind the run uses. */
void submodels_chosen(const grains_params *p, const submodel *chosen[SUBMODEL_KINDS]);

/* Reals of history one contact needs: the sum over the chosen rows of the
 * modes that act (a friction mode whose coefficient is 0 in every pair
 * keeps no spring). */
int submodels_history(const grains_params *p);

/* The row whose own coefficient k is (core/coeffs.h), or NULL. */
const submodel *submodel_owning(int k);

/* The kind's name, as in "rolling". */
const char *submodel_kind_name(submodel_kind kind);

#endif
