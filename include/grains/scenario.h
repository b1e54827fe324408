/* Scenario files (libconfig syntax) and command-line overrides. Every key of
 * grains_params plus the input and output settings; groups in the file are
 * for the reader's eye only, so `mu_s` means the same in any group. */
#ifndef GRAINS_SCENARIO_H
#define GRAINS_SCENARIO_H

#include <stdio.h>

#include "grains/motion.h"
#include "grains/params.h"

#define GRAINS_PATH_MAX 1024
#define GRAINS_BUILTIN_HOURGLASS "builtin:hourglass"
#define GRAINS_SCENARIO_KEYS 96
#define GRAINS_SCENARIO_MESHES 16

/* One entry of `meshes = ( { file = ...; R_mesh = [...]; material = ...; motion = { ... }; } )`. */
typedef struct {
    char file[GRAINS_PATH_MAX];          /* OFF or STL (told apart by content), or builtin:hourglass */
    real R_mesh[GRAINS_MAX_MESH_RADII];  /* the radii its elements index; n_radii 0: the run's R_mesh */
    int n_radii;
    int material;                        /* GRAINS_MESH_MATERIAL_DEFAULT: the run's mesh_material */
    grains_motion motion;                /* a table motion's rows are read from `table` */
    char table[GRAINS_PATH_MAX];         /* table motion: CSV t,x,y,z,angle */
    int line;                            /* where the entry begins in the scenario file */
} grains_scenario_mesh;

typedef struct {
    grains_params params;
    grains_scenario_mesh meshes[GRAINS_SCENARIO_MESHES];
    int n_meshes;
    char source[GRAINS_PATH_MAX];        /* scenario file, "" when none */
    char mesh[GRAINS_PATH_MAX];          /* one fixed mesh: OFF or STL file, GRAINS_BUILTIN_HOURGLASS,
                                          * or "" for none ("" by default when `meshes` is given) */
    char particles[GRAINS_PATH_MAX];     /* CSV file or "" */
    char bonds[GRAINS_PATH_MAX];         /* bonds file (ids a,b per line) or "" */
    char output_dir[GRAINS_PATH_MAX];
    int write_vtk, write_csv;
    int origin[GRAINS_SCENARIO_KEYS];    /* per key: 0 default, > 0 file line, -1 --set */
} grains_scenario;

/* The paper's default run: Table 2, the built-in hourglass, output/. */
void grains_scenario_default(grains_scenario *sc);

/* Reads a file over the current values; unknown keys, wrong types and
 * out-of-range values are errors with file and line. */
grains_status grains_scenario_read(grains_scenario *sc, const char *path, grains_error *err);

/* Applies one "KEY=VALUE" (vectors and lists as comma-separated numbers). */
grains_status grains_scenario_set(grains_scenario *sc, const char *assignment, grains_error *err);

/* Final derivations (mu_t = 2 mu_s / 3 unless given) and range checks,
 * reported at the line that set the offending key. */
grains_status grains_scenario_finish(grains_scenario *sc, grains_error *err);

/* One line per key: name, unit, default, meaning (for --help and docs). */
void grains_scenario_list_keys(FILE *out);

#endif
