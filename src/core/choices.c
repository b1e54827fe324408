/* The names and descriptions of every choice, from its one list (grains/choices.h). */
#include "grains/choices.h"

#include <stdio.h>
#include <string.h>

#define NAME(id, name, doc) name,
#define DOC(id, name, doc) doc,
/* The integrators' and the fields' rows carry two more columns. */
#define NAME5(id, name, inc, half, doc) name,
#define DOC5(id, name, inc, half, doc) doc,

#define CHOICE_LIST(var, LIST)                                                                             \
    static const char *const var##_names[] = {LIST(NAME) 0};                                               \
    static const char *const var##_docs[] = {LIST(DOC) 0};                                                 \
    const grains_choice_list var = {var##_names, var##_docs, 0 LIST(GRAINS_COUNT3)};

static const char *const integrator_names[] = {GRAINS_INTEGRATOR_LIST(NAME5) 0};
static const char *const integrator_docs[] = {GRAINS_INTEGRATOR_LIST(DOC5) 0};
const grains_choice_list grains_integrators = {integrator_names, integrator_docs,
                                               0 GRAINS_INTEGRATOR_LIST(GRAINS_COUNT5)};

CHOICE_LIST(grains_contact_models, GRAINS_CONTACT_MODEL_LIST)
CHOICE_LIST(grains_dampings, GRAINS_DAMPING_LIST)
CHOICE_LIST(grains_rollings, GRAINS_ROLLING_LIST)
CHOICE_LIST(grains_cohesions, GRAINS_COHESION_LIST)
CHOICE_LIST(grains_friction_orders, GRAINS_FRICTION_ORDER_LIST)
CHOICE_LIST(grains_compats, GRAINS_COMPAT_LIST)
CHOICE_LIST(grains_kernels, GRAINS_KERNEL_LIST)
CHOICE_LIST(grains_motions, GRAINS_MOTION_LIST)
CHOICE_LIST(grains_spawn_regions, GRAINS_SPAWN_REGION_LIST)
CHOICE_LIST(grains_size_laws, GRAINS_SIZE_LAW_LIST)
CHOICE_LIST(grains_vtk_formats, GRAINS_VTK_FORMAT_LIST)

static const char *const field_names[] = {GRAINS_BULK_FIELD_LIST(NAME5) 0};
static const char *const field_docs[] = {GRAINS_BULK_FIELD_LIST(DOC5) 0};
const grains_choice_list grains_fields = {field_names, field_docs, 0 GRAINS_BULK_FIELD_LIST(GRAINS_COUNT5)};

const char *grains_choice_name(const grains_choice_list *list, int v)
{
    return v >= 0 && v < list->n ? list->names[v] : "?";
}

int grains_choice_find(const grains_choice_list *list, const char *name)
{
    for (int v = 0; v < list->n; v++)
        if (strcmp(name, list->names[v]) == 0)
            return v;
    return -1;
}

const char *grains_choice_expected(const grains_choice_list *list, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int v = 0; v < list->n && used < size; v++)
        used += (size_t)snprintf(buf + used, size - used, "%s\"%s\"", v == 0 ? "one of " : ", ", list->names[v]);
    return buf;
}
