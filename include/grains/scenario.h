/* Scenario files (libconfig syntax) and command-line overrides. Every key of
 * grains_params plus the input and output settings; groups in the file are
 * for the reader's eye only, so `mu_s` means the same in any group. */
#ifndef GRAINS_SCENARIO_H
#define GRAINS_SCENARIO_H

#include <stdio.h>

#include "grains/api.h"
#include "grains/io.h"
#include "grains/membrane.h"
#include "grains/motion.h"
#include "grains/params.h"

GRAINS_API_BEGIN

#define GRAINS_PATH_MAX 1024
#define GRAINS_BUILTIN_HOURGLASS "builtin:hourglass"
#define GRAINS_SCENARIO_KEYS 96
#define GRAINS_SCENARIO_MESHES 16
#define GRAINS_SCENARIO_MEMBRANES 8
#define GRAINS_SCENARIO_FRAMES 10000000 /* frames a run writes at most (grains run keeps their names and times) */

/* One entry of `meshes = ( { file = ...; R_mesh = [...]; material = ...; motion = { ... }; } )`. */
typedef struct {
    char file[GRAINS_PATH_MAX];          /* OFF or STL (told apart by content), or builtin:hourglass */
    real R_mesh[GRAINS_MAX_MESH_RADII];  /* the radii its elements index; n_radii 0: the run's R_mesh */
    int n_radii;
    int material;                        /* GRAINS_MESH_MATERIAL_DEFAULT: the run's mesh_material */
    grains_motion motion;                /* a table motion's rows are read from `table` */
    char table[GRAINS_PATH_MAX];         /* table motion: CSV t,x,y,z,angle */
    int periodic;                        /* it repeats with the periodic box (grains_sim_set_mesh_periodic) */
    int line;                            /* where the entry begins in the scenario file */
} grains_scenario_mesh;

/* What a membrane is made from. */
typedef enum { GRAINS_SHAPE_FILE, GRAINS_SHAPE_CYLINDER, GRAINS_SHAPE_SHEET } grains_membrane_shape;

/* One entry of `membranes = ( { shape = "cylinder"; radius = ...; ... } )` (docs/scenario.md, "Membranes"). */
typedef struct {
    grains_membrane_shape shape;
    char file[GRAINS_PATH_MAX];          /* GRAINS_SHAPE_FILE: OFF or STL of triangles */
    real radius, height;                 /* [L] cylinder about z, from its origin up */
    real size[2];                        /* [L] sheet in the plane z = origin.z, from its origin along x and y */
    real spacing;                        /* [L] generated shapes: the triangles' side */
    grains_vec3 origin;                  /* [L] cylinder: centre of its bottom ring; sheet: its first
                                          * corner; file: added to every vertex */
    int pin_bottom, pin_top;             /* cylinder: the mesh (meshes[] index) its end rings move with, or -1 */
    int pin_edges;                       /* sheet: the mesh its rim moves with, or -1 */
    int pin_all;                         /* any shape: the mesh every vertex moves with, or -1 */
    grains_membrane_material material;
    int line;                            /* where the entry begins in the scenario file */
} grains_scenario_membrane;

/* `triaxial = { membrane = 0; bottom = 0; top = 1; }`: triaxial.csv, a row per
 * frame (docs/scenario.md, "Triaxial test"). */
typedef struct {
    int on;
    int membrane;                        /* the cylinder around the sample */
    int bottom, top;                     /* the platens (meshes[] indices) */
    int line;
} grains_scenario_triaxial;

/* `friction_test = { radius = ...; position = [...]; velocity = [...]; axis = [...]; }`:
 * a sphere dragged at a constant velocity across `axis`, free along it, not
 * rotating (grains_sim_guide); friction.csv, a row per frame (docs/scenario.md,
 * "Friction test"). */
typedef struct {
    int on;
    real radius;                         /* [L] the sphere */
    grains_vec3 position;                /* [L] where it starts */
    grains_vec3 velocity;                /* [L/T] held, across the axis */
    grains_vec3 axis;                    /* the direction it is free along (default z) */
    int material;
    int line;
} grains_scenario_friction;

/* One of `stages = ( { name = "settle"; until = "settled"; kinetic_energy = 1e-4; max_time = 1.0; },
 * ... )` (docs/scenario.md, "Stages"): what changes when it begins, and when it ends. */
#define GRAINS_MAX_STAGES 16
#define GRAINS_MAX_STAGE_MOTIONS 4
typedef struct {
    char name[32];
    int line;                            /* of its group in the scenario file */
    /* its end: one of */
    real duration;                       /* [T] > 0 after it begins; or 0 */
    real until_time;                     /* [T] the run's time; or -1 */
    int settled;                         /* until = "settled": E_kin + E_rot below kinetic_energy */
    real kinetic_energy;                 /* [ML^2/T^2] settled: the threshold (> 0) */
    real max_time;                       /* [T] settled: not settled this long after it began is an error */
    long check_every;                    /* settled: steps between looks (default 100) */
    /* what changes as it begins */
    int n_motions;
    int motion_mesh[GRAINS_MAX_STAGE_MOTIONS]; /* the run's mesh index (walls.csv's: `mesh` first when given) */
    grains_motion motion[GRAINS_MAX_STAGE_MOTIONS];
    uint32_t open, close;                /* insertion regions (bit k: spawns[k]) that open, close */
    uint32_t remove;                     /* meshes (bit k: the run's mesh k) removed */
    int set_g;
    grains_vec3 g;                       /* [L/T^2] gravity from now on, when set_g */
    real set[GRAINS_N_CHANGEABLE];      /* GRAINS_CHANGEABLE_PARAMS' new values; NAN: unchanged */
} grains_scenario_stage;

typedef struct {
    grains_params params;
    grains_scenario_mesh meshes[GRAINS_SCENARIO_MESHES];
    int n_meshes;
    grains_scenario_membrane membranes[GRAINS_SCENARIO_MEMBRANES];
    int n_membranes;
    grains_scenario_triaxial triaxial;
    grains_scenario_friction friction;
    grains_scenario_stage stages[GRAINS_MAX_STAGES];
    int n_stages;
    char probe_name[GRAINS_MAX_PROBES][32]; /* params.probe[k]'s, in probes.csv */
    char source[GRAINS_PATH_MAX];        /* scenario file, "" when none */
    char mesh[GRAINS_PATH_MAX];          /* one fixed mesh: OFF or STL file, GRAINS_BUILTIN_HOURGLASS,
                                          * or "" for none ("" by default when `meshes` is given) */
    char particles[GRAINS_PATH_MAX];     /* CSV file or "" */
    char bonds[GRAINS_PATH_MAX];         /* bonds file (ids a,b per line) or "" */
    char output_dir[GRAINS_PATH_MAX];
    int write_vtk, write_csv;
    int write_contacts;                  /* contactsNNNNNN.vtp and the particles' contact arrays */
    grains_vtk_format vtk_format;        /* how the VTK frames hold their arrays */
    long checkpoint_every;               /* steps between checkpoints; 0 none; -1 (default) every frame */
    double rebalance;                    /* under MPI: the blocks are cut anew when the kept cut's imbalance
                                          * passes this (>= 1; 1, the default, at every rebuild) */
    int thermo_imbalance;                /* thermo.csv's column `imbalance` (the last cut's) */
    int rank_holds_all;                  /* under MPI: every rank holds every particle (grains_ranks.local 0) */
    long frame_window;                   /* under MPI: the particles rank 0 is sent at a time to write a frame
                                          * (grains_ranks.window) */
    double t_end;                        /* [T] simulated duration: sets N_frames; 0 = not given */
    double frame_interval;               /* [T] time between frames: sets N_steps; 0 = not given */
    int origin[GRAINS_SCENARIO_KEYS];    /* per key: 0 default, > 0 file line, -1 --set */
} grains_scenario;

/* The paper's default run: Table 2, the built-in hourglass, output/, for a program built with
 * the layout `version` (GRAINS_PARAMS_VERSION, grains/params.h: it covers grains_scenario too).
 * Of another version only params.version is written, and grains_scenario_read, _set and
 * _finish refuse the struct, saying to rebuild. */
void grains_scenario_default_version(grains_scenario *sc, int version);
#define grains_scenario_default(sc) grains_scenario_default_version((sc), GRAINS_PARAMS_VERSION)

/* Reads a file over the current values; unknown keys, wrong types and
 * out-of-range values are errors with file and line. */
grains_status grains_scenario_read(grains_scenario *sc, const char *path, grains_error *err);

/* Applies one "KEY=VALUE" (vectors and lists as comma-separated numbers). */
grains_status grains_scenario_set(grains_scenario *sc, const char *assignment, grains_error *err);

/* Final derivations (mu_t = 2 mu_s / 3 unless given) and range checks,
 * reported at the line that set the offending key. */
grains_status grains_scenario_finish(grains_scenario *sc, grains_error *err);

/* Where key `name` was set: its line in the scenario file (> 0), -1 by
 * --set, 0 not at all (its default) or no such key. */
int grains_scenario_line(const grains_scenario *sc, const char *name);

/* The run's parameters as of stage k: the scenario's with the `set` and `g` of stages 0 .. k
 * (mu_t following 2 mu_s / 3 where neither the scenario nor a stage gave it), for
 * grains_sim_set_params. Whether a stage sets any parameter. */
void grains_scenario_stage_params(const grains_scenario *sc, int k, grains_params *out);
int grains_scenario_stage_sets(const grains_scenario_stage *st);

/* One line per key: name, unit, default, meaning (for --help and docs). */
void grains_scenario_list_keys(FILE *out);

/* The value of the parameter a scenario names `name` ("dt", "mu_s", "g", "N_max", ...) as `p`
 * holds it (grains_sim_params: as the run stands), in values[0 .. n): how many it has, 1 for a
 * number, 3 for a vector; 0 for a name that is no number or vector of the parameters (or no
 * `values` to write n > 0 into). */
int grains_scenario_param(const grains_params *p, const char *name, double *values, int n);

GRAINS_API_END

#endif
