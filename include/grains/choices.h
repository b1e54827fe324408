/* One list per choice. Each list below is the only place that names the values of a choice:
 * the enum of grains/params.h (or motion.h, io.h), the names a scenario writes, `grains --help`,
 * `grains check`'s listing, `grains validate`'s rows and the contact sub-model registry
 * (contact/submodels.c) all come from it. A row is X(ID, "name", ..., "what it is"); its place in
 * the list is its enum value, so a new value goes at the end.
 *
 * To add a value: one row here, and its case in the one switch that dispatches it (named
 * above each list). */
#ifndef GRAINS_CHOICES_H
#define GRAINS_CHOICES_H

#include <stddef.h>

#include "grains/api.h"

GRAINS_API_BEGIN

/* Time integration (docs/model.md; dispatch: integrate/integrators.c). A row also says how the
 * contact springs follow it: INC (1) increments them before the force, as velocity Verlet
 * needs (improved-Verlet paper Eqs. 15-16, Section 4); HALF (1) takes every velocity and spring
 * in the plane of the half-step normal (the same paper, Section 4, Eqs. 23-26).
 * X(ID, name, INC, HALF, doc) */
#define GRAINS_INTEGRATOR_LIST(X)                                                                           \
    X(EULER, "euler", 0, 0, "TinyDEM's semi-implicit Euler with SPIRAL (Eqs. 41-48)")                       \
    X(VERLET, "verlet", 1, 0, "velocity Verlet (improved-Verlet paper Eqs. 8-20)")                          \
    X(VERLET_IMPROVED, "verlet_improved", 1, 1, "velocity Verlet, the half-step normal (Eqs. 23-26)")        \
    X(VARIATIONAL_LEFT, "variational_left", 1, 0,                                                           \
      "implicit variational, left rule: first order (variational paper Algorithm 1)")                      \
    X(VARIATIONAL_MIDPOINT, "variational_midpoint", 1, 0,                                                   \
      "implicit variational, midpoint rule: second order; frictionless, no bonds")

/* Normal force law with its own damping (docs/model.md; dispatch: contact/hertz_mindlin.c).
 * X(ID, name, doc) */
#define GRAINS_CONTACT_MODEL_LIST(X)                                                                        \
    X(HERTZ_MINDLIN, "hertz_mindlin", "TinyDEM's visco-elastic Hertz-Mindlin (Eqs. 5-25)")                  \
    X(LINEAR, "linear", "linear spring-dashpot (improved-Verlet paper Eqs. 1, 6, 27, 31)")                  \
    X(HERTZ_RESTITUTION, "hertz_restitution", "Hertz with the restitution-exact damping (Eq. 32)")

/* Normal damping law, the key `damping` (docs/model.md, "Contact sub-models"; dispatch:
 * contact/hertz_mindlin.c, pair_law). Left out, it is the contact model's own: tinydem for
 * hertz_mindlin, restitution for hertz_restitution, linear for linear.
 * X(ID, name, doc) */
#define GRAINS_DAMPING_LIST(X)                                                                              \
    X(TINYDEM, "tinydem", "TinyDEM Eqs. 18-25 (contact/normal_hertz.h)")                                    \
    X(RESTITUTION, "restitution",                                                                           \
      "improved-Verlet Eq. 32, eta_t = sqrt(k_t / k_n) eta_n (contact/hertz_mindlin.c)")                    \
    X(LINEAR, "linear", "improved-Verlet Eq. 31 (contact/normal_linear.h)")                                 \
    X(TSUJI, "tsuji", "Tsuji et al. 1992: eta = sqrt(2) alpha(e_n) sqrt(m* k), as LAMMPS (contact/damping_tsuji.h)")

/* Rolling resistance (dispatch: contact/hertz_mindlin_kernel.h). X(ID, name, doc) */
#define GRAINS_ROLLING_LIST(X)                                                                              \
    X(SPRING, "spring", "TinyDEM Eqs. 34, 36-39 (contact/friction_spring.h)")                               \
    X(TYPE_C, "type_c", "Ai et al. 2011 model C, elastic-plastic spring-dashpot (contact/rolling_type_c.h)")     \
    X(SDS, "sds", "Luding 2008 spring-dashpot-slider, k_roll and gamma_roll, as LAMMPS' (contact/rolling_sds.h)")

/* Attraction between surfaces (dispatch: contact/hertz_mindlin_kernel.h). X(ID, name, doc) */
#define GRAINS_COHESION_LIST(X)                                                                             \
    X(NONE, "none", "no attraction")                                                                        \
    X(VAN_DER_WAALS, "van_der_waals", "Hamaker 1937 as libgran, across the gap (contact/van_der_waals.h)")  \
    X(JKR, "jkr", "Johnson, Kendall and Roberts 1971 (contact/cohesion_jkr.h)")

/* When the static friction springs are incremented, the key `friction_order`; left out, it
 * follows `compat`. X(ID, name, doc) */
#define GRAINS_FRICTION_ORDER_LIST(X)                                                                       \
    X(FORCE_THEN_INCREMENT, "tinydem", "TinyDEM: the force from the old spring, then Eq. 52")               \
    X(INCREMENT_THEN_FORCE, "increment_first", "Eq. 52 first, then the force from the new spring")

/* Which conventions a run follows (docs/model.md, "grains and TinyDEM"). X(ID, name, doc) */
#define GRAINS_COMPAT_LIST(X)                                                                               \
    X(NONE, "none", "the physically correct choices")                                                       \
    X(TINYDEM, "tinydem", "every TinyDEM convention; runs follow TinyDEM to round-off")

/* How the particle-particle contacts are evaluated (the same bits either way). X(ID, name, doc) */
#define GRAINS_KERNEL_LIST(X)                                                                               \
    X(VECTOR, "vector", "contacts in batches, with the CPU's vector units (contact/lanes.h)")               \
    X(SCALAR, "scalar", "one contact at a time")

/* How a mesh moves (boundary/motion.c). X(ID, name, doc) */
#define GRAINS_MOTION_LIST(X)                                                                               \
    X(FIXED, "fixed", "does not move")                                                                      \
    X(LINEAR, "linear", "shift = velocity t")                                                               \
    X(ROTATE, "rotate", "angle = omega t about an axis through a point; plus shift = velocity t")           \
    X(VIBRATE, "vibrate", "shift = amplitude sin(2 pi frequency t + phase) along an axis")                  \
    X(TABLE, "table", "shift and angle interpolated linearly from a table of samples")                      \
    X(SERVO, "servo", "shift along an axis, its speed from the force on the mesh")

/* Where an insertion region puts its centres (insert/spawn.c). X(ID, name, doc) */
#define GRAINS_SPAWN_REGION_LIST(X)                                                                         \
    X(BOX, "box", "the box between min and max")                                                            \
    X(CYLINDER, "cylinder", "the cylinder along z inscribed in that box")

/* How an insertion region draws radii (insert/size_draw.c). X(ID, name, doc) */
#define GRAINS_SIZE_LAW_LIST(X)                                                                             \
    X(UNIFORM, "uniform", "uniform in [R_min, R_max] (TinyDEM Section 3.1)")                                \
    X(DISCRETE, "discrete", "radii with fractions of number or of mass")                                    \
    X(LOGNORMAL, "lognormal", "ln R normal (mean ln median, deviation sigma), within [R_min, R_max]")

/* How the VTK frames hold their arrays (io/vtk_array.c). X(ID, name, doc) */
#define GRAINS_VTK_FORMAT_LIST(X)                                                                           \
    X(COMPRESSED, "compressed", "zlib-compressed binary, base64 inline: the exact doubles")                 \
    X(BINARY, "binary", "base64, uncompressed")                                                             \
    X(ASCII, "ascii", "text, 10 significant digits")

/* A particle's fields, read and written in bulk, by id (grains/sim.h: grains_sim_get_reals,
 * _get_ints, _set_reals, _set_ints; dispatch: sim/access.c). WIDTH: values per particle; REAL:
 * 1 for doubles, 0 for 64-bit integers. X(ID, name, WIDTH, REAL, doc) */
#define GRAINS_BULK_FIELD_LIST(X)                                                                                \
    X(ID, "id", 1, 0, "the particle's id: its number, 0 to grains_sim_count - 1 (read only)")             \
    X(UID, "uid", 1, 0, "its persistent id: its number in the order made, kept when others go (read only)") \
    X(POSITION, "position", 3, 1, "[L] the centre, x y z")                                                 \
    X(VELOCITY, "velocity", 3, 1, "[L/T] x y z")                                                           \
    X(ANGULAR_VELOCITY, "angular_velocity", 3, 1, "[1/T] x y z")                                           \
    X(RADIUS, "radius", 1, 1, "[L] > 0")                                                                   \
    X(TAG, "tag", 1, 0, "the particle's tag (tag rules, tables and frames)")                               \
    X(MATERIAL, "material", 1, 0, "0 to n_materials - 1")

/* +1 for each row, to count a list: enum { N = 0 LIST(GRAINS_COUNT3) }. */
#define GRAINS_COUNT3(id, name, doc) +1
#define GRAINS_COUNT5(id, name, inc, half, doc) +1

/* The names and descriptions of one list's values, in enum order, each array ending in NULL. */
typedef struct {
    const char *const *names;
    const char *const *docs;
    int n;
} grains_choice_list;

extern const grains_choice_list grains_integrators, grains_contact_models, grains_dampings, grains_rollings,
    grains_cohesions, grains_friction_orders, grains_compats, grains_kernels, grains_motions,
    grains_spawn_regions, grains_size_laws, grains_vtk_formats, grains_fields;

/* The name of value v of a list, or "?" beyond it. */
const char *grains_choice_name(const grains_choice_list *list, int v);

/* The value named `name`, or -1. */
int grains_choice_find(const grains_choice_list *list, const char *name);

/* "one of \"a\", \"b\", ..." in buf (cut at size), for an error message. */
const char *grains_choice_expected(const grains_choice_list *list, char *buf, size_t size);

GRAINS_API_END

#endif
