"""Writes the C source of the module grains._grains (cffi's API mode) from
the library's public headers: python3 build_ffi.py OUT.c. CMake compiles it
against libgrains.so (CMakeLists.txt, GRAINS_PYTHON), and pip against the
installed library (setup.py, make()); the compiler checks every declaration
below against the headers, so a layout cannot drift."""
import sys

import cffi

DECLARATIONS = """
typedef double real;
typedef struct { real x, y, z; } grains_vec3;
typedef struct { real q0, q1, q2, q3; } grains_quat;

typedef enum { GRAINS_OK, GRAINS_ERR_NOMEM, GRAINS_ERR_IO, GRAINS_ERR_PARSE, GRAINS_ERR_RANGE, GRAINS_ERR_ARG,
               GRAINS_ERR_LIMIT, GRAINS_ERR_UNSTABLE, GRAINS_ERR_STOPPED, GRAINS_ERR_NOT_MET, ... } grains_status;
typedef struct { grains_status status; char file[...]; int line; long particle; double time; char message[...]; } grains_error;
void grains_error_format(const grains_error *err, char *buf, size_t size);

typedef struct grains_sim grains_sim;
typedef struct grains_run grains_run;

typedef struct {
    grains_vec3 x, v, w;
    grains_quat q;
    real R;
    int material, tag;
    ...;
} grains_particle;

typedef struct {
    long step; double time; size_t n_particles, n_contacts; double e_kin, e_rot, max_overlap;
    size_t n_bonds, n_broken; int newton, newton_most; long cg; double newton_update, e_membrane; size_t n_lost; double e_lost;
    ...;
} grains_thermo;

typedef struct {
    grains_vec3 shift; double angle; grains_vec3 velocity; double omega; grains_vec3 force, torque;
    int moving; double t_pose, travel, stiffness, damping;
    ...;
} grains_wall;

typedef enum { GRAINS_MOTION_FIXED, GRAINS_MOTION_LINEAR, GRAINS_MOTION_ROTATE, GRAINS_MOTION_VIBRATE,
               GRAINS_MOTION_TABLE, GRAINS_MOTION_SERVO, ... } grains_motion_type;
typedef struct { real t; grains_vec3 x; real angle; ...; } grains_motion_sample;
typedef struct {
    grains_motion_type type;
    grains_vec3 velocity, axis, point;
    real omega, amplitude, frequency, phase;
    const grains_motion_sample *table;
    size_t n_table;
    real force, max_speed, gain, travel, load_after, load_speed;
    ...;
} grains_motion;

typedef enum { GRAINS_BULK_ID, GRAINS_BULK_UID, GRAINS_BULK_POSITION, GRAINS_BULK_VELOCITY, GRAINS_BULK_ANGULAR_VELOCITY,
               GRAINS_BULK_RADIUS, GRAINS_BULK_TAG, GRAINS_BULK_MATERIAL, ... } grains_bulk_field;

typedef struct { long step; double time; int sink; size_t id; int tag; grains_vec3 x, v; uint64_t uid; ...; } grains_removal;
size_t grains_sim_removals(const grains_sim *sim, const grains_removal **log);
size_t grains_sim_removed(const grains_sim *sim, int sink, int tag, int any_tag);

grains_status grains_run_open(grains_run **out, const char *scenario, int n, const char *const *keys,
                              const char *const *values, grains_error *err);
grains_status grains_run_resume(grains_run **out, const char *path, int n, const char *const *keys,
                                const char *const *values, grains_error *err);
void grains_run_close(grains_run *run);
grains_sim *grains_run_sim(grains_run *run);
grains_status grains_run_advance(grains_run *run, long n, grains_error *err);
grains_status grains_run_to_end(grains_run *run, int catch_signals, grains_error *err);
grains_status grains_run_write_frame(grains_run *run, grains_error *err);
size_t grains_run_frames(const grains_run *run);
grains_status grains_run_write_checkpoint(grains_run *run, const char *path, grains_error *err);
const char *grains_run_output_dir(const grains_run *run);
const char *grains_run_probe_name(const grains_run *run, int k);

typedef ... grains_params;
const grains_params *grains_sim_params(const grains_sim *sim);
int grains_scenario_param(const grains_params *p, const char *name, double *values, int n);
const char *grains_changeable_name(int k);
grains_status grains_sim_set_named_params(grains_sim *sim, int n, const char *const *names, const double *values,
                                          grains_error *err);

size_t grains_sim_count(const grains_sim *sim);
int grains_sim_threads(const grains_sim *sim);
double grains_sim_time(const grains_sim *sim);
long grains_sim_steps(const grains_sim *sim);
void grains_sim_thermo(const grains_sim *sim, grains_thermo *out);
typedef struct { double L_z, shift, shear_velocity, height_rate; long sampled_step; double solid_fraction;
                 double stress[9]; long samples; double mean_solid_fraction, mean_stress[9]; } grains_box_state;
void grains_sim_box(const grains_sim *sim, grains_box_state *out);
void grains_sim_clear_box_means(grains_sim *sim);
grains_status grains_sim_get_reals(const grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                   double *out, grains_error *err);
grains_status grains_sim_get_ints(const grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                  int64_t *out, grains_error *err);
grains_status grains_sim_set_reals(grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                   const double *in, grains_error *err);
grains_status grains_sim_set_ints(grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                  const int64_t *in, grains_error *err);
grains_status grains_sim_remove(grains_sim *sim, size_t n, const size_t *ids, grains_error *err);
grains_status grains_sim_add_particles(grains_sim *sim, size_t n, const grains_particle *ps, grains_error *err);
size_t grains_sim_mesh_count(const grains_sim *sim);
void grains_sim_get_wall(const grains_sim *sim, size_t k, grains_wall *out);
grains_status grains_sim_set_wall(grains_sim *sim, size_t k, const grains_wall *in, grains_error *err);
grains_status grains_sim_set_motion(grains_sim *sim, size_t k, const grains_motion *motion, grains_error *err);
grains_status grains_sim_remove_mesh(grains_sim *sim, size_t k, grains_error *err);
grains_status grains_sim_set_gravity(grains_sim *sim, grains_vec3 g, grains_error *err);
grains_status grains_sim_spawn_open(grains_sim *sim, int k, int open, grains_error *err);
void grains_run_record_contacts(grains_run *run, int on);
typedef struct { int tag, size_class; long number; double mass; grains_vec3 momentum; ...; } grains_probe_row;
grains_status grains_sim_probe_rows(const grains_sim *sim, int k, grains_probe_row **rows, size_t *n, grains_error *err);
void free(void *p);

typedef enum { GRAINS_CG_GAUSSIAN, GRAINS_CG_LUCY, ... } grains_cg_kernel;
typedef struct {
    grains_vec3 lo, hi;
    int n[3];
    int averaged[3];
    grains_cg_kernel kernel;
    double width;
    grains_vec3 axis[3];
    int periodic[3];
    ...;
} grains_cg_grid;
typedef struct grains_cg grains_cg;
#define GRAINS_CG_N_FIELDS ...
#define GRAINS_CG_COMPONENTS ...
typedef enum { GRAINS_CG_DENSITY, GRAINS_CG_COORDINATION, GRAINS_CG_STRESS_CONTACT, GRAINS_CG_STRESS, ... } grains_cg_field;
int grains_cg_offset(grains_cg_field f);
int grains_cg_width(grains_cg_field f);
const char *grains_cg_name(grains_cg_field f);
grains_status grains_cg_create(grains_cg **out, const grains_cg_grid *grid, grains_error *err);
void grains_cg_destroy(grains_cg *cg);
grains_status grains_cg_add_sim(grains_cg *cg, const grains_sim *sim, grains_error *err);
grains_status grains_cg_add_sim_grains(grains_cg *cg, const grains_sim *sim, grains_error *err);
int grains_cg_has_field(const grains_cg *cg, grains_cg_field f);
size_t grains_cg_cells(const grains_cg *cg);
size_t grains_cg_frames(const grains_cg *cg);
void grains_cg_mean(const grains_cg *cg, double *out);
void grains_cg_sem(const grains_cg *cg, double *out);
grains_vec3 grains_cg_centre(const grains_cg *cg, int i, int j, int k);
grains_status grains_py_cg_write(const grains_cg *cg, const char *path, int vti, grains_error *err);

typedef struct grains_frame grains_frame;
typedef enum { GRAINS_FRAME_POINTS = 1, GRAINS_FRAME_POINT_DATA, GRAINS_FRAME_CELL_DATA, GRAINS_FRAME_VERTS,
               GRAINS_FRAME_LINES, GRAINS_FRAME_STRIPS, GRAINS_FRAME_POLYS } grains_frame_part;
typedef struct { const char *name; grains_frame_part part; int components, integer; size_t tuples;
                 const double *values; ...; } grains_frame_array;
grains_status grains_frame_read(const char *path, grains_frame **out, grains_error *err);
int grains_frame_array_count(const grains_frame *f);
grains_frame_array grains_frame_get(const grains_frame *f, int k);
void grains_frame_free(grains_frame *f);
"""

SOURCE = """
#include <stdlib.h>

#include "grains/fields.h"
#include "grains/io.h"
#include "grains/run.h"
#include "grains/sim.h"

/* The fields' files: VTK ImageData (compressed) or CSV. */
static grains_status grains_py_cg_write(const grains_cg *cg, const char *path, int vti, grains_error *err)
{
    return vti ? grains_cg_write_vti(cg, path, GRAINS_VTK_COMPRESSED, err) : grains_cg_write_csv(cg, path, err);
}
"""


def make(**build):
    """The module's FFI; `build`: set_source's compiler and linker arguments
    (include_dirs, library_dirs, libraries, runtime_library_dirs)."""
    ffi = cffi.FFI()
    ffi.cdef(DECLARATIONS)
    ffi.set_source("grains._grains", SOURCE, **build)
    return ffi


def main():
    make().emit_c_code(sys.argv[1])


if __name__ == "__main__":
    main()
