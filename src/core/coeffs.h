/* The coefficients the contact sub-models own (each sub-model's header lists
 * its own: contact/rolling_sds.h's ROLLING_SDS_COEFFS, contact/cohesion_jkr.h's): a scenario key each,
 * with its unit, default and least value, kept in grains_params' coeff[] at
 * its place in GRAINS_SUBMODEL_COEFFS. A new sub-model's coefficients are one
 * line here; the scenario's keys, the defaults and the checks follow. */
#ifndef GRAINS_CORE_COEFFS_H
#define GRAINS_CORE_COEFFS_H

#include "contact/cohesion_jkr.h"
#include "contact/normal_linear.h"
#include "contact/rolling_sds.h"
#include "contact/rolling_type_c.h"
#include "contact/van_der_waals.h"
#include "grains/params.h"

/* X(ID, name, unit, default, least, doc) */
#define GRAINS_SUBMODEL_COEFFS(X)                                                                               \
    ROLLING_SDS_COEFFS(X) ROLLING_TYPE_C_COEFFS(X) COHESION_JKR_COEFFS(X) NORMAL_LINEAR_COEFFS(X)              \
    COHESION_VAN_DER_WAALS_COEFFS(X)

#define COEFF_ENUM(id, name, unit, dflt, least, doc) COEFF_##id,
enum { GRAINS_SUBMODEL_COEFFS(COEFF_ENUM) N_COEFFS };
_Static_assert(N_COEFFS <= GRAINS_MAX_COEFFS, "grow GRAINS_MAX_COEFFS");
_Static_assert(GRAINS_MAX_COEFFS <= 32, "a pair's coeff_given holds a bit for each");

/* The bits of the coefficients a sub-model's list names (its owner's row: contact/submodels.c). */
#define COEFF_BIT(id, name, unit, dflt, least, doc) | (1u << COEFF_##id)
#define COEFFS_MASK(LIST) (0u LIST(COEFF_BIT))

/* A bit for each coefficient: all of them. */
#define COEFFS_ALL (N_COEFFS < 32 ? (1u << (N_COEFFS % 32)) - 1 : ~0u)

/* Every coefficient at its default. */
void coeffs_default(grains_params *p);
/* Each of c[] whose bit is set in `which` finite and at least its least
 * value; an error naming the key after `where` ("", "pairs[2]."). */
grains_status coeffs_check(const real *c, unsigned which, const char *where, grains_error *err);
/* The largest value of coefficient k in any pair of materials (a particle
 * with a rigid wall takes its material's own): whether a law acts at all
 * (core/params.c, beside the pairs' mixing). */
real coeffs_most(const grains_params *p, int k);
/* The place of the coefficient `name`; -1 for none. The name of the
 * coefficient at place k (its scenario key). */
int coeff_find(const char *name);
const char *coeff_name(int k);

#endif
