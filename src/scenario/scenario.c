/* Scenario keys: one table drives the file reader, --set and the key list. */
#include "grains/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/coeffs.h"
#include "grains/ranks.h"
#include "scenario/config_value.h"
#include "scenario/scenario_friction.h"
#include "scenario/scenario_materials.h"
#include "scenario/scenario_membranes.h"
#include "scenario/scenario_meshes.h"
#include "scenario/scenario_spawns.h"
#include "scenario/scenario_stages.h"
#include "scenario/scenario_text.h"
#include "io/text.h"

/* K_MATERIALS and K_PAIRS are lists of groups, read by io/scenario_materials.c,
 * K_MESHES by io/scenario_meshes.c, K_MEMBRANES and K_TRIAXIAL by
 * io/scenario_membranes.c, K_FRICTION by io/scenario_friction.c, K_SPAWNS and
 * K_TAG_RULES and K_SINKS by io/scenario_spawns.c, K_STAGES by scenario_stages.c; given in a
 * scenario file only. */
typedef enum {
    K_REAL, K_VEC3, K_LIST, K_LONG, K_SEED, K_INT, K_CHOICE, K_STRING, K_BOOL,
    K_MATERIALS, K_PAIRS, K_MESHES, K_MEMBRANES, K_TRIAXIAL, K_FRICTION, K_SPAWNS, K_TAG_RULES, K_SINKS, K_PROBES, K_STAGES
} key_kind;

typedef struct {
    const char *name;
    key_kind kind;
    size_t offset; /* into grains_scenario */
    const char *unit;
    const char *doc;
    const grains_choice_list *choices; /* K_CHOICE: the names of the enum's values 0, 1, ... */
} key_info;

/* indexed by the axis mask: bit 0 x, bit 1 y, bit 2 z */
static const char *const periodic_names[] = {"none", "x", "y", "xy", "z", "xz", "yz", "xyz", NULL};
static const grains_choice_list periodic_axes = {periodic_names, NULL, 8};
static const char *const axis_list[] = {"x", "y", "z", NULL};
static const grains_choice_list axis_names = {axis_list, NULL, 3};

#define P(field) offsetof(grains_scenario, params.field)
#define S(field) offsetof(grains_scenario, field)
/* a sub-model's own coefficient (core/coeffs.h) */
#define COEFF_KEY(id, name, unit, dflt, least, doc) {name, K_REAL, P(coeff[COEFF_##id]), unit, doc, NULL},

static const key_info keys[] = {
    {"R_min", K_REAL, P(R_min), "L", "minimum particle radius (> 0); sets dt by Eq. 49", NULL},
    {"R_max", K_REAL, P(R_max), "L", "maximum particle radius (>= R_min)", NULL},
    {"R_mesh", K_LIST, P(R_mesh), "L", "mesh radii, indexed by the OFF radius index (>= 0 each)", NULL},
    {"s_min", K_VEC3, P(s_min), "L", "spawn box lower corner", NULL},
    {"s_max", K_VEC3, P(s_max), "L", "spawn box upper corner (>= s_min)", NULL},
    {"spawn_region", K_CHOICE, P(spawn_cylinder), "-",
     "where spawns go: between s_min and s_max, or in the cylinder along z inscribed in that box",
     &grains_spawn_regions},
    {"rho", K_REAL, P(rho), "M/L^3", "mass density (> 0)", NULL},
    {"E", K_REAL, P(E), "M/LT^2", "Young's modulus (> 0)", NULL},
    {"nu", K_REAL, P(nu), "-", "Poisson's ratio, in (-1, 0.5]", NULL},
    {"e_n", K_REAL, P(e_n), "-", "coefficient of normal restitution, in [0, 1]", NULL},
    {"mu_s", K_REAL, P(mu_s), "-", "sliding friction coefficient (>= 0)", NULL},
    {"mu_r", K_REAL, P(mu_r), "-", "rolling friction coefficient (>= 0)", NULL},
    {"mu_t", K_REAL, P(mu_t), "-", "twisting friction coefficient (>= 0); default 2 mu_s / 3", NULL},
    {"mu_s_dyn", K_REAL, P(mu_s_dyn), "-", "dynamic sliding friction, in [0, mu_s]; default mu_s (Luding 2008)", NULL},
    {"mu_r_dyn", K_REAL, P(mu_r_dyn), "-", "dynamic rolling friction, in [0, mu_r]; default mu_r", NULL},
    {"mu_t_dyn", K_REAL, P(mu_t_dyn), "-", "dynamic twisting friction, in [0, mu_t]; default mu_t", NULL},
    {"eta", K_REAL, P(eta), "M/LT", "fluid viscosity for Stokes drag (>= 0)", NULL},
    {"materials", K_MATERIALS, P(material), "-",
     "materials 1, 2, ...: ( { rho = ...; E = ...; nu = ...; }, ... ); material 0 is rho, E, nu", NULL},
    {"pairs", K_PAIRS, P(pair), "-",
     "per pair of materials: ( { between = [a, b]; e_n = ...; mu_s = ...; ... }, ... ); else e_n, mu_s, ...", NULL},
    {"spawn_material", K_INT, P(spawn_material), "-", "material of spawned particles", NULL},
    {"mesh_material", K_INT, P(mesh_material), "-",
     "material of mesh faces that name none; -1 = rigid (TinyDEM's walls)", NULL},
    {"v0", K_VEC3, P(v0), "L/T", "velocity of spawned particles", NULL},
    {"w0", K_VEC3, P(w0), "1/T", "angular velocity of spawned particles", NULL},
    {"g", K_VEC3, P(g), "L/T^2", "gravitational acceleration", NULL},
    {"dt", K_REAL, P(dt), "T", "timestep (> 0); default Eq. 49", NULL},
    {"N_max", K_LONG, P(N_max), "-", "spawning stops when this many particles exist in all (>= 0)", NULL},
    {"N_frames", K_LONG, P(N_frames), "-", "number of output frames after the initial one (>= 0)", NULL},
    {"N_steps", K_LONG, P(N_steps), "-", "timesteps per frame (>= 0)", NULL},
    {"t_end", K_REAL, S(t_end), "T",
     "simulated duration (> 0), instead of N_frames: N_frames = round(t_end / (N_steps dt)), at least 1", NULL},
    {"frame_interval", K_REAL, S(frame_interval), "T",
     "time between frames (> 0), instead of N_steps: N_steps = round(frame_interval / dt), at least 1", NULL},
    {"dimension", K_INT, P(dimension), "-",
     "3, or 2: every particle stays in its plane normal to plane_normal (no velocity along it, spin only "
     "about it), whatever the mesh does", NULL},
    {"plane_normal", K_CHOICE, P(plane_normal), "-", "dimension = 2: the planes' normal; default y", &axis_names},
    {"N_spawn", K_LONG, P(N_spawn), "-", "spawn attempts per timestep, 0 to 1e7", NULL},
    {"spawns", K_SPAWNS, P(spawn), "-",
     "insertion regions, each with its own material, tag, rate and sizes: ( { region = \"box\"; min = [...]; max = "
     "[...]; material = 0; tag = 0; count = ...; rate = ...; full_after = ...; v0 = [...]; sizes = \"uniform\", "
     "\"discrete\" or \"lognormal\"; R_min = ...; R_max = ...; radii = [...]; fractions = [...]; fractions_of = "
     "\"number\" or \"mass\"; median = ...; sigma = ...; }, ... ); a field left out is the run's own",
     NULL},
    {"tag_regions", K_TAG_RULES, P(tag_rule), "-",
     "boxes that set the tag of every particle whose centre is in them, after each step: ( { min = [...]; max = "
     "[...]; tag = 1; }, ... )",
     NULL},
    {"sinks", K_SINKS, P(sink), "-",
     "outlets: every particle whose centre is in one at the end of a step is removed then (sinks.csv logs it, "
     "thermo.csv counts it): ( { min = [...]; max = [...]; region = \"box\" or \"cylinder\"; }, ... )", NULL},
    {"probes", K_PROBES, P(probe), "-",
     "planes that count the grains crossing them and boxes that count the grains they hold, by tag and size "
     "(probes.csv, a row per probe, tag and size class per frame): ( { name = \"outlet\"; point = [...]; normal = "
     "[...]; radius = ...; sizes = [...]; }, { name = \"bin\"; min = [...]; max = [...]; }, ... )", NULL},
    {"remove_lost", K_BOOL, P(remove_lost), "-",
     "remove a particle lost out of the box of the meshes (thermo.csv's lost) as a sink would", NULL},
    {"seed", K_SEED, P(seed), "-", "seed of the spawn random numbers (>= 0)", NULL},
    {"compat", K_CHOICE, P(compat), "-",
     "which conventions: the physically correct choices, or every TinyDEM convention (friction order, Eq. 46 as "
     "printed; runs follow TinyDEM to round-off)", &grains_compats},
    {"friction_order", K_CHOICE, P(friction_order), "-",
     "when the friction springs are incremented (euler only); default increment_first, tinydem with "
     "compat = \"tinydem\"", &grains_friction_orders},
    {"integrator", K_CHOICE, P(integrator), "-",
     "time integration; the implicit variational ones are frictionless, without bonds", &grains_integrators},
    {"newton_tol", K_REAL, P(newton_tol), "-",
     "variational integrator: Newton stops when no particle moves more than this x R_min, in (0, 1); default 1e-10",
     NULL},
    {"newton_max_iter", K_INT, P(newton_max_iter), "-",
     "variational integrator: Newton iterations per step at most, in [1, 1000]; default 20", NULL},
    {"contact_model", K_CHOICE, P(contact_model), "-",
     "normal force law with its own damping; default hertz_mindlin (TinyDEM)", &grains_contact_models},
    {"damping", K_CHOICE, P(damping), "-",
     "normal damping law; default the contact model's own (tinydem, restitution or linear); tsuji: Hertz only",
     &grains_dampings},
    {"kernel", K_CHOICE, P(kernel), "-",
     "how contacts are evaluated, the same results to the bit; default vector", &grains_kernels},
    {"rolling_model", K_CHOICE, P(rolling_model), "-",
     "rolling resistance; default spring (TinyDEM Eqs. 34-39)", &grains_rollings},
    GRAINS_SUBMODEL_COEFFS(COEFF_KEY)
    {"cohesion", K_CHOICE, P(cohesion), "-",
     "attraction between surfaces; default none (van_der_waals with hamaker > 0); jkr with work_of_adhesion",
     &grains_cohesions},
    {"bond_kn", K_REAL, P(bond_kn), "M/T^2", "bonds: normal stiffness (>= 0); 0 = no bonds", NULL},
    {"bond_kt", K_REAL, P(bond_kt), "M/T^2", "bonds: sliding stiffness (>= 0); default 2(1-nu)/(2-nu) bond_kn", NULL},
    {"bond_kr", K_REAL, P(bond_kr), "M/T^2", "bonds: rolling stiffness (>= 0); default bond_kn", NULL},
    {"bond_ko", K_REAL, P(bond_ko), "M/T^2", "bonds: twisting stiffness (>= 0); default bond_kt", NULL},
    {"bond_damping", K_REAL, P(bond_damping), "-", "bonds: each dashpot's fraction of critical damping (>= 0)",
     NULL},
    {"bond_max_force", K_REAL, P(bond_max_force), "ML/T^2",
     "bonds break when tension or shear exceeds this (>= 0); 0 = never", NULL},
    {"bond_max_torque", K_REAL, P(bond_max_torque), "ML^2/T^2",
     "bonds break when the rolling or twisting torque exceeds this (>= 0); 0 = never", NULL},
    {"bond_tolerance", K_REAL, P(bond_tolerance), "-",
     "bond particles whose |gap| < this x smaller diameter at the start, in [0, 0.1]; 0 = none", NULL},
    {"bonds", K_STRING, S(bonds), "-", "bonds file: header a,b then two particle ids per line, or \"\"", NULL},
    {"periodic", K_CHOICE, P(periodic), "-", "periodic axes", &periodic_axes},
    {"box_min", K_VEC3, P(box_min), "L", "lower corner of the periodic box", NULL},
    {"box_max", K_VEC3, P(box_max), "L", "upper corner of the periodic box (> box_min along periodic axes)", NULL},
    {"shear_rate", K_REAL, P(shear_rate), "1/T",
     "a sheared periodic box (periodic = \"xz\" or \"xyz\"): the images above and below move along x at "
     "+-shear_rate x the box's height; 0 = none", NULL},
    {"box_pressure", K_REAL, P(box_pressure), "M/LT^2",
     "a box periodic along z whose height follows a servo holding the grains' normal stress sigma_zz at this "
     "(box.csv); 0 = the height as given", NULL},
    {"box_pressure_time", K_REAL, P(box_pressure_time), "T",
     "box_pressure's servo: its time constant (>= 0); 0 = 200 dt", NULL},
    {"skin", K_REAL, P(skin), "L", "Verlet skin (>= 0); default 0.6 min(R_max, 2 R_min)", NULL},
    {"max_overlap", K_REAL, P(max_overlap), "-", "stop as unstable when delta/(2R*) exceeds this (> 0)", NULL},
    {"grow_from", K_REAL, P(grow_from), "-",
     "densify: radii start at this fraction of their size, in [0.01, 1], and grow linearly to it; 1 = none", NULL},
    {"grow_time", K_REAL, P(grow_time), "T", "densify: the radii reach their size at this time (> 0 with grow_from)",
     NULL},
    {"threads", K_INT, P(threads), "-", "OpenMP threads, 0 = OMP_NUM_THREADS or all cores", NULL},
    {"mesh", K_STRING, S(mesh), "-",
     "one fixed mesh: OFF or STL file, \"builtin:hourglass\", or \"\" for none; default the hourglass, or none with "
     "meshes",
     NULL},
    {"meshes", K_MESHES, S(meshes), "-",
     "meshes that may move: ( { file = ...; R_mesh = [...]; material = ...; motion = { type = ...; ... }; }, ... )",
     NULL},
    {"membranes", K_MEMBRANES, S(membranes), "-",
     "membranes: ( { shape = \"cylinder\" or \"sheet\", or file = ...; spacing = ...; E = ...; pressure = ...; "
     "pin_bottom = ...; ... }, ... )",
     NULL},
    {"triaxial", K_TRIAXIAL, S(triaxial), "-",
     "triaxial.csv per frame: { membrane = 0; bottom = 0; top = 1; } (the cylinder and the platens)", NULL},
    {"stages", K_STAGES, S(stages), "-",
     "stages of the run, each ending after a duration, at a time or when settled, and changing motions, meshes, "
     "insertion regions, gravity and friction, restitution or drag as it begins: ( { name = \"...\"; duration "
     "= T; until_time = T; until = \"settled\"; kinetic_energy = E; max_time = T; check_every = N; motions = ( { "
     "mesh = k; type = ...; } ); remove_meshes = [...]; open = [...]; close = [...]; g = [...]; set = { mu_s = "
     "...; e_n = ...; }; }, ... )", NULL},
    {"friction_test", K_FRICTION, S(friction), "-",
     "a sphere dragged at a constant velocity, free along one axis, not rotating; friction.csv per frame: { radius = "
     "...; position = [...]; velocity = [...]; axis = [0, 0, 1]; material = 0; }",
     NULL},
    {"particles", K_STRING, S(particles), "-", "TinyDEM CSV file of initial particles, or \"\"", NULL},
    {"output_dir", K_STRING, S(output_dir), "-", "directory for frames and thermo table", NULL},
    {"vtk", K_BOOL, S(write_vtk), "-", "write VTK frames (.vtp + particles.pvd)", NULL},
    {"vtk_format", K_CHOICE, S(vtk_format), "-",
     "how VTK frames hold their arrays; default compressed (zlib, exact doubles)", &grains_vtk_formats},
    {"csv", K_BOOL, S(write_csv), "-", "write TinyDEM CSV frames particlesNNNNNN.csv", NULL},
    {"contacts", K_BOOL, S(write_contacts), "-",
     "write contactsNNNNNN.vtp (a line per contact with its forces and overlap) and each particle's coordination, "
     "contact force and stress in its frames, all from each frame's last step (explicit integrators)", NULL},
    {"rebalance", K_REAL, S(rebalance), "-",
     "under mpirun: at a rebuild the blocks keep their ranks' planes unless the most work a rank would get over "
     "the mean passes this (>= 1); 1 = cut anew at every rebuild",
     NULL},
    {"thermo_imbalance", K_BOOL, S(thermo_imbalance), "-",
     "add thermo.csv's column imbalance: the last cut's most work a rank got over the mean (1 in one process; "
     "the one column that depends on the number of ranks)",
     NULL},
    {"rank_holds_all", K_BOOL, S(rank_holds_all), "-",
     "under mpirun: every rank reads and holds every particle, not its own and their partners alone (more "
     "memory per rank, the same bytes written)",
     NULL},
    {"frame_window", K_LONG, S(frame_window), "-",
     "under mpirun: the particles rank 0 is sent at a time to write a frame (1 .. 16777216; its memory for them, "
     "120 bytes each; the same bytes written for any)",
     NULL},
    {"checkpoint_every", K_LONG, S(checkpoint_every), "-",
     "steps between checkpoints (output_dir/checkpoint.grains, for grains run --resume), >= 0; 0 = none; "
     "default every frame (N_steps)", NULL},
};
#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

_Static_assert(sizeof keys / sizeof keys[0] <= GRAINS_SCENARIO_KEYS, "grow GRAINS_SCENARIO_KEYS");

static int key_index(const char *name)
{
    for (int k = 0; k < N_KEYS; k++)
        if (strcmp(keys[k].name, name) == 0)
            return k;
    return -1;
}

int grains_scenario_line(const grains_scenario *sc, const char *name)
{
    int k = key_index(name);
    return k < 0 ? 0 : sc->origin[k];
}

int grains_scenario_param(const grains_params *p, const char *name, double *values, int n)
{
    int k = name && (values || n <= 0) ? key_index(name) : -1;
    size_t at = offsetof(grains_scenario, params);
    if (k < 0 || keys[k].offset < at || keys[k].offset >= at + sizeof *p)
        return 0; /* (none, or the scenario's own: t_end, the folders, ...) */
    const char *field = (const char *)p + (keys[k].offset - at);
    double v[3];
    int count = 1;
    switch (keys[k].kind) {
    case K_REAL: v[0] = *(const real *)field; break;
    case K_VEC3: {
        const grains_vec3 *x = (const grains_vec3 *)field;
        v[0] = x->x, v[1] = x->y, v[2] = x->z, count = 3;
        break;
    }
    case K_LONG: v[0] = (double)*(const long *)field; break;
    case K_INT:
    case K_BOOL: v[0] = *(const int *)field; break;
    default: return 0; /* (lists, choices, groups: not one number or vector) */
    }
    for (int j = 0; j < count && j < n; j++)
        values[j] = v[j];
    return count;
}

/* Edits (insert, delete, replace, swap two neighbours) from a to b, capped at 3. */
static int edits(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63 || (n > m ? n - m : m - n) > 2)
        return 3;
    int d[64][64];
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            if (!i || !j) {
                d[i][j] = (int)(i + j);
                continue;
            }
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m] < 3 ? d[n][m] : 3;
}

/* " (did you mean 'mu_s'?)" for the key nearest a misspelt name, or the hint to the list. */
/* Whether an unknown key asks for grains of another shape. */
static int asks_for_shape(const char *name)
{
    static const char *words[] = {"shape", "ellips", "clump", "polyhed", "superquad", "cylind", "aspect", "multisphere"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (strstr(name, words[k]))
            return 1;
    return 0;
}

static const char *suggest(const char *name, char *buf, size_t size)
{
    if (asks_for_shape(name)) {
        snprintf(buf, size, "grains are spheres: there is no shape to choose (docs/model.md)");
        return buf;
    }
    int best = 3, at = -1;
    for (int k = 0; k < N_KEYS; k++) {
        int d = edits(name, keys[k].name);
        if (d < best)
            best = d, at = k;
    }
    if (at < 0)
        snprintf(buf, size, "grains --help lists the keys");
    else
        snprintf(buf, size, "did you mean '%s'?", keys[at].name);
    return buf;
}

/* grains_scenario's size in version 3 where pointers and reals are 8
 * bytes (core/params.c keeps grains_params'). */
_Static_assert(sizeof(void *) != 8 || sizeof(real) != 8 || sizeof(grains_scenario) == 93488,
               "grains_scenario's layout changed: raise GRAINS_PARAMS_VERSION (grains/params.h)");

void grains_scenario_default_version(grains_scenario *sc, int version)
{
    if (version != GRAINS_PARAMS_VERSION) { /* a program's struct of another layout: touch no more */
        sc->params.version = version;
        return;
    }
    memset(sc, 0, sizeof *sc);
    grains_params_default(&sc->params);
    snprintf(sc->mesh, sizeof sc->mesh, "%s", GRAINS_BUILTIN_HOURGLASS);
    snprintf(sc->output_dir, sizeof sc->output_dir, "output");
    sc->write_vtk = 1;
    sc->checkpoint_every = -1;
    sc->frame_window = GRAINS_FRAME_WINDOW;
    sc->rebalance = 1;
}

/* ---- values from text (--set) ---- */

static int split_reals(const char *s, real *out, int max)
{
    int n = 0;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (n == max || !parse_real(s, len, &out[n]))
            return -1;
        n++;
        if (!comma)
            return n;
        s = comma + 1;
    }
}

static grains_status bad_value(const char *where, int line, const key_info *k, const char *expected,
                               grains_error *err)
{
    return grains_error_set(err, GRAINS_ERR_PARSE, where, line, "%s: expected %s", k->name, expected);
}

/* An enum key by the name of its value. */
static int set_choice(grains_scenario *sc, const key_info *k, const char *v)
{
    int c = grains_choice_find(k->choices, v);
    if (c >= 0)
        *(int *)((char *)sc + k->offset) = c;
    return c >= 0;
}

static int set_string(grains_scenario *sc, const key_info *k, const char *v)
{
    if (strlen(v) >= GRAINS_PATH_MAX)
        return 0;
    snprintf((char *)sc + k->offset, GRAINS_PATH_MAX, "%s", v);
    return 1;
}

static int set_from_text(grains_scenario *sc, const key_info *k, const char *v)
{
    char *dst = (char *)sc + k->offset;
    real r[GRAINS_MAX_MESH_RADII];
    long l;
    char *end;
    switch (k->kind) {
    case K_REAL: return parse_real(v, strlen(v), (real *)dst);
    case K_VEC3:
        if (split_reals(v, r, 3) != 3)
            return 0;
        *(grains_vec3 *)dst = (grains_vec3){r[0], r[1], r[2]};
        return 1;
    case K_LIST: {
        int n = split_reals(v, r, GRAINS_MAX_MESH_RADII);
        if (n < 1)
            return 0;
        memcpy(dst, r, (size_t)n * sizeof *r);
        sc->params.n_mesh_radii = n;
        return 1;
    }
    case K_LONG: return parse_long(v, strlen(v), (long *)dst);
    case K_INT:
        if (!parse_long(v, strlen(v), &l) || l < -1000000 || l > 1000000)
            return 0;
        *(int *)dst = (int)l;
        return 1;
    case K_SEED:
        errno = 0;
        while (*v == ' ' || *v == '\t')
            v++;
        if (!(*v >= '0' && *v <= '9')) /* strtoull would take " -1" as 2^64 - 1 */
            return 0;
        *(uint64_t *)dst = strtoull(v, &end, 10);
        return *end == '\0' && errno == 0;
    case K_CHOICE: return set_choice(sc, k, v);
    case K_STRING: return set_string(sc, k, v);
    case K_BOOL:
        if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0)
            *(int *)dst = 1;
        else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0)
            *(int *)dst = 0;
        else
            return 0;
        return 1;
    case K_MATERIALS:
    case K_PAIRS:
    case K_MESHES:
    case K_MEMBRANES:
    case K_TRIAXIAL:
    case K_FRICTION:
    case K_SPAWNS:
    case K_TAG_RULES:
    case K_SINKS:
    case K_PROBES:
    case K_STAGES: return 0; /* scenario files only */
    }
    return 0;
}

/* What a key's value must be; `buf` holds a choice list. */
static const char *expected(const key_info *k, char *buf, size_t size)
{
    if (k->kind == K_CHOICE)
        return grains_choice_expected(k->choices, buf, size);
    switch (k->kind) {
    case K_REAL: return "a finite number";
    case K_VEC3: return "three finite numbers";
    case K_LIST: return "1 to 64 finite numbers";
    case K_LONG: return "an integer of at most 9e15 in magnitude";
    case K_SEED: return "a non-negative integer of at most 9e15";
    case K_INT: return "an integer from -1000000 to 1000000";
    case K_CHOICE: break;
    case K_STRING: return "a string (at most 1023 characters)";
    case K_BOOL: return "true or false";
    case K_MATERIALS: return "a list of groups { rho = ...; E = ...; nu = ...; }, given in a scenario file";
    case K_PAIRS: return "a list of groups { between = [a, b]; e_n = ...; mu_s = ...; }, given in a scenario file";
    case K_MESHES: return "a list of groups { file = ...; motion = { ... }; }, given in a scenario file";
    case K_MEMBRANES: return "a list of groups { shape = ...; spacing = ...; ... }, given in a scenario file";
    case K_TRIAXIAL: return "a group { membrane = 0; bottom = 0; top = 1; }, given in a scenario file";
    case K_FRICTION: return "a group { radius = ...; position = [...]; velocity = [...]; }, given in a scenario file";
    case K_SPAWNS: return "a list of groups { min = [...]; max = [...]; rate = ...; sizes = ...; }, given in a scenario file";
    case K_TAG_RULES: return "a list of groups { min = [...]; max = [...]; tag = ...; }, given in a scenario file";
    case K_SINKS: return "a list of groups { min = [...]; max = [...]; region = ...; }, given in a scenario file";
    case K_PROBES: return "a list of groups { name = ...; point = [...]; normal = [...]; } or { name = ...; min = "
                          "[...]; max = [...]; }, given in a scenario file";
    case K_STAGES: return "a list of groups { name = ...; duration = ...; ... }, given in a scenario file";
    }
    return "a value";
}

grains_status grains_scenario_set(grains_scenario *sc, const char *assignment, grains_error *err)
{
    if (grains_params_version_check(&sc->params, err) != GRAINS_OK)
        return GRAINS_ERR_ARG;
    const char *eq = strchr(assignment, '=');
    char name[64];
    size_t len = eq ? (size_t)(eq - assignment) : 0;
    if (!eq || len == 0 || len >= sizeof name)
        return grains_error_set(err, GRAINS_ERR_ARG, "--set", 0, "'%s': expected KEY=VALUE", assignment);
    memcpy(name, assignment, len);
    name[len] = '\0';
    int k = key_index(name);
    char hint[96];
    if (k < 0)
        return grains_error_set(err, GRAINS_ERR_ARG, "--set", 0, "unknown key '%s' (%s)", name,
                                suggest(name, hint, sizeof hint));
    /* a string written as in a scenario file, "...", means the same as without the quotes */
    char value[GRAINS_PATH_MAX + 2];
    size_t n = strlen(eq + 1);
    if (n >= sizeof value)
        return grains_error_set(err, GRAINS_ERR_PARSE, "--set", 0, "%s: value longer than %zu characters", name,
                                sizeof value - 1);
    memcpy(value, eq + 1, n + 1);
    if ((keys[k].kind == K_STRING || keys[k].kind == K_CHOICE) && n >= 2 && value[0] == '"' && value[n - 1] == '"') {
        memmove(value, value + 1, n - 2);
        value[n - 2] = '\0';
    }
    char choices[256];
    if (!set_from_text(sc, &keys[k], value))
        return grains_error_set(err, GRAINS_ERR_PARSE, "--set", 0, "%s = '%s': expected %s", name, eq + 1,
                                expected(&keys[k], choices, sizeof choices));
    sc->origin[k] = -1;
    return GRAINS_OK;
}

/* ---- values from libconfig ---- */

static int integer_of(const config_setting_t *s, long *out)
{
    real r;
    if (!config_number(s, &r) || r != floor(r) || fabs(r) > 9e15)
        return 0;
    *out = (long)r;
    return 1;
}

static int set_from_config(grains_scenario *sc, const key_info *k, const config_setting_t *s)
{
    char *dst = (char *)sc + k->offset;
    real r[GRAINS_MAX_MESH_RADII];
    long l;
    int n;
    switch (k->kind) {
    case K_REAL: return config_number(s, (real *)dst);
    case K_VEC3:
        if (config_numbers(s, r, 3) != 3)
            return 0;
        *(grains_vec3 *)dst = (grains_vec3){r[0], r[1], r[2]};
        return 1;
    case K_LIST:
        if ((n = config_numbers(s, r, GRAINS_MAX_MESH_RADII)) < 1)
            return 0;
        memcpy(dst, r, (size_t)n * sizeof *r);
        sc->params.n_mesh_radii = n;
        return 1;
    case K_LONG: return integer_of(s, (long *)dst);
    case K_INT:
        if (!integer_of(s, &l) || l < -1000000 || l > 1000000)
            return 0;
        *(int *)dst = (int)l;
        return 1;
    case K_SEED:
        if (!integer_of(s, &l) || l < 0)
            return 0;
        *(uint64_t *)dst = (uint64_t)l;
        return 1;
    case K_CHOICE:
        return config_setting_type(s) == CONFIG_TYPE_STRING && set_choice(sc, k, config_setting_get_string(s));
    case K_STRING:
        return config_setting_type(s) == CONFIG_TYPE_STRING && set_string(sc, k, config_setting_get_string(s));
    case K_BOOL:
        if (config_setting_type(s) != CONFIG_TYPE_BOOL)
            return 0;
        *(int *)dst = config_setting_get_bool(s);
        return 1;
    case K_MATERIALS:
    case K_PAIRS:
    case K_MESHES:
    case K_MEMBRANES:
    case K_TRIAXIAL:
    case K_FRICTION:
    case K_SPAWNS:
    case K_TAG_RULES:
    case K_SINKS:
    case K_PROBES:
    case K_STAGES: break; /* read_setting reads them */
    }
    return 0;
}

static grains_status read_setting(grains_scenario *sc, const config_setting_t *s, const char *path, int *seen,
                                  grains_error *err)
{
    const char *name = config_setting_name(s);
    int line = (int)config_setting_source_line(s);
    int k = name ? key_index(name) : -1;
    char hint[96];
    if (k < 0)
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line, "unknown key '%s' (%s)", name ? name : "?",
                                suggest(name ? name : "", hint, sizeof hint));
    if (seen[k])
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line, "%s is given twice (first on line %d)", name,
                                seen[k]);
    char choices[256];
    grains_status st = GRAINS_OK;
    if (keys[k].kind == K_MATERIALS)
        st = scenario_read_materials(&sc->params, s, path, err);
    else if (keys[k].kind == K_PAIRS)
        st = scenario_read_pairs(&sc->params, s, path, err);
    else if (keys[k].kind == K_MESHES)
        st = scenario_read_meshes(sc, s, path, err);
    else if (keys[k].kind == K_MEMBRANES)
        st = scenario_read_membranes(sc, s, path, err);
    else if (keys[k].kind == K_TRIAXIAL)
        st = scenario_read_triaxial(sc, s, path, err);
    else if (keys[k].kind == K_FRICTION)
        st = scenario_read_friction(sc, s, path, err);
    else if (keys[k].kind == K_SPAWNS)
        st = scenario_read_spawns(&sc->params, s, path, err);
    else if (keys[k].kind == K_TAG_RULES)
        st = scenario_read_tag_rules(&sc->params, s, path, err);
    else if (keys[k].kind == K_SINKS)
        st = scenario_read_sinks(&sc->params, s, path, err);
    else if (keys[k].kind == K_PROBES)
        st = scenario_read_probes(sc, s, path, err);
    else if (keys[k].kind == K_STAGES)
        st = scenario_read_stages(sc, s, path, err);
    else if (!set_from_config(sc, &keys[k], s))
        return bad_value(path, line, &keys[k], expected(&keys[k], choices, sizeof choices), err);
    if (st != GRAINS_OK)
        return st;
    seen[k] = line;
    sc->origin[k] = line;
    return GRAINS_OK;
}

/* A group whose value is a key's (triaxial = { ... }), not a grouping of keys. */
static int group_is_key(const config_setting_t *s)
{
    const char *name = config_setting_name(s);
    int k = name ? key_index(name) : -1;
    return k >= 0 && (keys[k].kind == K_TRIAXIAL || keys[k].kind == K_FRICTION);
}

static grains_status read_root(grains_scenario *sc, const config_t *cfg, const char *path, grains_error *err)
{
    int seen[GRAINS_SCENARIO_KEYS] = {0};
    config_setting_t *root = config_root_setting(cfg);
    for (int a = 0; a < config_setting_length(root); a++) {
        config_setting_t *s = config_setting_get_elem(root, (unsigned)a);
        grains_status st = GRAINS_OK;
        if (config_setting_type(s) != CONFIG_TYPE_GROUP || group_is_key(s)) {
            st = read_setting(sc, s, path, seen, err);
        } else {
            for (int b = 0; st == GRAINS_OK && b < config_setting_length(s); b++) {
                config_setting_t *c = config_setting_get_elem(s, (unsigned)b);
                if (config_setting_type(c) == CONFIG_TYPE_GROUP && !group_is_key(c))
                    st = grains_error_set(err, GRAINS_ERR_PARSE, path, (int)config_setting_source_line(c),
                                          "group '%s' inside a group: groups nest one level only",
                                          config_setting_name(c));
                else
                    st = read_setting(sc, c, path, seen, err);
            }
        }
        if (st != GRAINS_OK)
            return st;
    }
    return GRAINS_OK;
}

/* A relative path the scenario at `source` gave, made relative to the
 * scenario's folder (as a user reads it) rather than to the working
 * directory; absolute paths, "" and builtin: names stay. */
static grains_status from_scenario(char *path, const char *source, grains_error *err)
{
    const char *slash = strrchr(source, '/');
    if (!path[0] || path[0] == '/' || !slash || strncmp(path, "builtin:", 8) == 0)
        return GRAINS_OK;
    char joined[2 * GRAINS_PATH_MAX];
    snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - source), source, path);
    if (strlen(joined) >= GRAINS_PATH_MAX)
        return grains_error_set(err, GRAINS_ERR_RANGE, source, 0, "%s: the path from the scenario's folder is too long",
                                path);
    memcpy(path, joined, strlen(joined) + 1);
    return GRAINS_OK;
}

/* Every input path the file gave, from the scenario's folder. */
static grains_status resolve_paths(grains_scenario *sc, const char *source, grains_error *err)
{
    grains_status s = GRAINS_OK;
    if (sc->origin[key_index("mesh")] > 0)
        s = from_scenario(sc->mesh, source, err);
    if (s == GRAINS_OK && sc->origin[key_index("particles")] > 0)
        s = from_scenario(sc->particles, source, err);
    if (s == GRAINS_OK && sc->origin[key_index("bonds")] > 0)
        s = from_scenario(sc->bonds, source, err);
    for (int k = 0; s == GRAINS_OK && sc->origin[key_index("meshes")] > 0 && k < sc->n_meshes; k++) {
        s = from_scenario(sc->meshes[k].file, source, err);
        if (s == GRAINS_OK && sc->meshes[k].table[0])
            s = from_scenario(sc->meshes[k].table, source, err);
    }
    for (int k = 0; s == GRAINS_OK && sc->origin[key_index("membranes")] > 0 && k < sc->n_membranes; k++)
        if (sc->membranes[k].shape == GRAINS_SHAPE_FILE)
            s = from_scenario(sc->membranes[k].file, source, err);
    return s;
}

/* The name a line of `text` sets ("  N_steps = 2;" -> N_steps), or "". */
static void name_on_line(const char *text, int line, char *name, size_t size)
{
    for (int l = 1; l < line && text; l++)
        text = (text = strchr(text, '\n')) ? text + 1 : NULL;
    size_t n = 0;
    if (text) {
        text += strspn(text, " \t");
        n = strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-*");
    }
    n = n < size ? n : size - 1;
    memcpy(name, text ? text : "", n);
    name[n] = '\0';
}

/* libconfig's error, with the setting a duplicate names (libconfig says only "duplicate setting name"). */
static grains_status parse_error(const config_t *cfg, const char *text, const char *path, grains_error *err)
{
    const char *file = config_error_file(cfg), *why = config_error_text(cfg) ? config_error_text(cfg) : "cannot parse";
    int line = config_error_line(cfg);
    char name[64] = "";
    if (!file && strcmp(why, "duplicate setting name") == 0)
        name_on_line(text, line, name, sizeof name);
    if (name[0])
        return grains_error_set(err, GRAINS_ERR_PARSE, path, line, "%s is set twice in one group", name);
    return grains_error_set(err, GRAINS_ERR_PARSE, file ? file : path, line, "%s", why);
}

grains_status grains_scenario_read(grains_scenario *sc, const char *path, grains_error *err)
{
    char *text, dir[PATH_MAX];
    if (grains_params_version_check(&sc->params, err) != GRAINS_OK)
        return GRAINS_ERR_ARG;
    if (strlen(path) >= sizeof sc->source) /* (kept whole: the inputs' CRC and a resume read it again) */
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "a scenario's path of %zu characters: at most %zu",
                                strlen(path), sizeof sc->source - 1);
    grains_status s = scenario_text_read(path, &text, dir, err); /* checked first: io/scenario_text.h */
    if (s != GRAINS_OK)
        return s;
    config_t cfg;
    config_init(&cfg);
    config_set_include_dir(&cfg, dir);
    if (config_read_string(&cfg, text) != CONFIG_TRUE)
        s = parse_error(&cfg, text, path, err);
    else
        s = read_root(sc, &cfg, path, err);
    if (s == GRAINS_OK)
        s = resolve_paths(sc, path, err);
    config_destroy(&cfg);
    free(text);
    if (s == GRAINS_OK)
        snprintf(sc->source, sizeof sc->source, "%s", path);
    return s;
}

/* The key a grains_params_check message starts with ("mu_s = ...", "R_mesh[2] ..."). */
static int key_of_message(const char *msg)
{
    char name[64];
    size_t n = strcspn(msg, " =[:");
    if (n == 0 || n >= sizeof name)
        return -1;
    memcpy(name, msg, n);
    name[n] = '\0';
    return key_index(name);
}

/* `mesh` defaults to the hourglass, and to none when `meshes` lists the
 * meshes; both at once is ambiguous. */
static grains_status finish_meshes(grains_scenario *sc, grains_error *err)
{
    int mesh = key_index("mesh"), meshes = key_index("meshes");
    if (!sc->origin[meshes])
        return GRAINS_OK;
    if (sc->origin[mesh])
        return grains_error_set(err, GRAINS_ERR_PARSE, sc->origin[mesh] > 0 ? sc->source : "--set",
                                sc->origin[mesh] > 0 ? sc->origin[mesh] : 0,
                                "mesh = \"%s\" and meshes (line %d) are both given: list every mesh in meshes",
                                sc->mesh, sc->origin[meshes]);
    sc->mesh[0] = '\0';
    return GRAINS_OK;
}

/* A key other than `not` that the message names as a word and the file or
 * --set gave, or `not`. */
static int other_key_set(const grains_scenario *sc, const char *msg, int not)
{
    for (int k = 0; k < N_KEYS; k++) {
        if (k == not || !sc->origin[k])
            continue;
        size_t n = strlen(keys[k].name);
        for (const char *at = strstr(msg, keys[k].name); at; at = strstr(at + 1, keys[k].name))
            if ((at == msg || (!isalnum((unsigned char)at[-1]) && at[-1] != '_')) && !isalnum((unsigned char)at[n]) &&
                at[n] != '_')
                return k;
    }
    return not;
}

/* A duration given in time instead of steps: how many of `unit` it holds,
 * rounded, at least 1, or an error naming `key`. */
static grains_status count_of(const char *key, double value, double unit, const char *unit_name, long *out,
                              grains_error *err)
{
    double n = value / unit;
    if (!(value > 0) || !isfinite(value))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "%s = %g: must be > 0", key, value);
    if (!(n <= 1e15))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "%s = %g: that is %g %s, more than a run can count",
                                key, value, n, unit_name);
    *out = n < 1 ? 1 : (long)llround(n);
    return GRAINS_OK;
}

/* t_end and frame_interval set N_frames and N_steps from the timestep
 * (given, or Eq. 49's): a change of E or R_min then keeps the simulated
 * duration and the frames' spacing. Each excludes the count it sets. */
static grains_status finish_times(grains_scenario *sc, grains_error *err)
{
    grains_params *p = &sc->params;
    int t_end = sc->origin[key_index("t_end")], interval = sc->origin[key_index("frame_interval")];
    if (t_end && sc->origin[key_index("N_frames")])
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "t_end = %g: N_frames is given too; give one of them (t_end sets N_frames)", sc->t_end);
    if (interval && sc->origin[key_index("N_steps")])
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "frame_interval = %g: N_steps is given too; give one of them (frame_interval sets "
                                "N_steps)", sc->frame_interval);
    double dt = p->dt > 0 ? p->dt : grains_params_default_dt(p);
    if (!(dt > 0) || !isfinite(dt)) /* the parameters of Eq. 49 are wrong: grains_params_check says which */
        return GRAINS_OK;
    grains_status s = GRAINS_OK;
    if (interval)
        s = count_of("frame_interval", sc->frame_interval, dt, "timesteps", &p->N_steps, err);
    if (s == GRAINS_OK && t_end && p->N_steps == 0)
        s = grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "t_end = %g: N_steps = 0 makes no frame take time",
                             sc->t_end);
    if (s == GRAINS_OK && t_end)
        s = count_of("t_end", sc->t_end, (double)p->N_steps * dt, "frames", &p->N_frames, err);
    return s;
}

grains_status grains_scenario_finish(grains_scenario *sc, grains_error *err)
{
    if (grains_params_version_check(&sc->params, err) != GRAINS_OK)
        return GRAINS_ERR_ARG;
    int dt = key_index("dt"), mu_t = key_index("mu_t");
    grains_status ms = finish_meshes(sc, err);
    if (ms == GRAINS_OK)
        ms = scenario_finish_membranes(sc, err);
    if (ms == GRAINS_OK)
        ms = scenario_finish_friction(sc, err);
    if (ms != GRAINS_OK)
        return ms;
    if (!sc->origin[mu_t]) { /* Section 2.2: 2 mu_s / 3 (without its overflow at 1e308) */
        real mu_s = sc->params.mu_s;
        sc->params.mu_t = isfinite(2 * mu_s) ? 2 * mu_s / 3 : mu_s / 3 * 2;
    }
    scenario_materials_finish(&sc->params);
    scenario_spawns_finish(&sc->params);
    grains_error local;
    grains_error *e = err ? err : &local;
    grains_status s = GRAINS_OK;
    if (sc->origin[dt] && !(sc->params.dt > 0))
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0, "dt = %g: timestep must be > 0", sc->params.dt);
    if (s == GRAINS_OK && !sc->output_dir[0])
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0,
                             "output_dir = \"\": the output folder needs a name (-o DIR)");
    if (s == GRAINS_OK && sc->origin[key_index("checkpoint_every")] && sc->checkpoint_every < 0)
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0, "checkpoint_every = %ld: must be >= 0 (0 = none)",
                             sc->checkpoint_every);
    if (s == GRAINS_OK && !(sc->frame_window >= 1 && sc->frame_window <= 16777216))
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0,
                             "frame_window = %ld: the particles rank 0 is sent at a time must be 1 .. 16777216",
                             sc->frame_window);
    if (s == GRAINS_OK && !(sc->rebalance >= 1 && sc->rebalance < INFINITY))
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0,
                             "rebalance = %g: the imbalance past which the blocks are cut anew must be >= 1",
                             sc->rebalance);
    if (s == GRAINS_OK && sc->write_contacts && grains_integrator_variational(sc->params.integrator))
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0,
                             "contacts = true records the force loop of an explicit step: it needs integrator = "
                             "euler, verlet or verlet_improved");
    if (s == GRAINS_OK)
        s = finish_times(sc, e);
    if (s == GRAINS_OK && sc->params.N_frames > GRAINS_SCENARIO_FRAMES) /* the run keeps each frame's name and time */
        s = grains_error_set(e, GRAINS_ERR_RANGE, NULL, 0,
                             "N_frames = %ld: a run writes at most %ld frames (fewer, longer ones: N_steps or "
                             "frame_interval)", sc->params.N_frames, (long)GRAINS_SCENARIO_FRAMES);
    if (s == GRAINS_OK)
        s = grains_params_check(&sc->params, e);
    if (s == GRAINS_OK)
        return scenario_finish_stages(sc, e); /* (its errors name their stage's line) */
    int k = key_of_message(e->message);
    if (k >= 0 && !sc->origin[k]) /* a default in conflict with a key that was set: blame that one */
        k = other_key_set(sc, e->message, k);
    if (k >= 0 && sc->origin[k] > 0) {
        snprintf(e->file, sizeof e->file, "%s", sc->source);
        e->line = sc->origin[k];
    } else if (k >= 0 && sc->origin[k] < 0) {
        snprintf(e->file, sizeof e->file, "--set");
    }
    return s;
}

void grains_scenario_list_keys(FILE *out)
{
    for (int k = 0; k < N_KEYS; k++) {
        fprintf(out, "  %-15s [%s] %s", keys[k].name, keys[k].unit, keys[k].doc);
        for (int c = 0; keys[k].choices && c < keys[k].choices->n; c++)
            fprintf(out, "%s\"%s\"", c == 0 ? ": " : ", ", keys[k].choices->names[c]);
        fprintf(out, "\n");
    }
}
