/* Files grains reads and writes. Every reader checks what it reads and names
 * file, line and rule on failure; every writer writes a temporary file and
 * renames it, so a failed write never leaves a partial file behind. */
#ifndef GRAINS_IO_H
#define GRAINS_IO_H

#include <stdio.h>

#include "grains/api.h"
#include "grains/mesh.h"
#include "grains/motion.h"
#include "grains/params.h"
#include "grains/sim.h"

GRAINS_API_BEGIN

/* TinyDEM's particle CSV: header x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz and
 * one particle per line. Reads all or nothing; *out is malloc'ed. */
grains_status grains_csv_read(const char *path, grains_particle **out, size_t *n, grains_error *err);
/* The same file a chunk at a time, so that a file of any size is read in
 * little memory: each particle in turn to `take` with its row (from 0,
 * blank lines not counted), until the first bad row or error of take's. */
typedef grains_status (*grains_csv_take)(void *ctx, size_t row, const grains_particle *p, grains_error *err);
grains_status grains_csv_each(const char *path, grains_csv_take take, void *ctx, grains_error *err);
/* The same file read by `parts` readers at once (ranks), each its part:
 * the lines whose first byte lies in the k-th share of the file's bytes.
 * First each counts its part's lines and rows (grains_csv_part_count);
 * then, given the counts of the parts before its own summed, reads its
 * rows, each to `take` with its row in the whole file, an error naming
 * the file's line (grains_csv_part_each). Every part checks the header. */
typedef struct {
    size_t lines, rows;
} grains_csv_count;
grains_status grains_csv_part_count(const char *path, int k, int parts, grains_csv_count *out, grains_error *err);
grains_status grains_csv_part_each(const char *path, int k, int parts, const grains_csv_count *before,
                                   grains_csv_take take, void *ctx, grains_error *err);
grains_status grains_csv_write(const char *path, const grains_sim *sim, grains_error *err);
/* The same file of a frame, of a simulation shared among ranks or not:
 * collective, as grains_vtk_write_frame (rank 0 with the path, the others
 * with NULL), rank 0 sent the particles a window at a time. */
grains_status grains_csv_write_frame(const char *path, grains_sim *sim, grains_error *err);

/* Bonds between the particles of `sim`: a header `a,b`, then one pair of
 * ids per line ('#' comments and blank lines skipped). Checks each id. */
grains_status grains_bonds_read(const char *path, grains_sim *sim, grains_error *err);

/* OFF mesh; an optional integer after a face's vertex list indexes
 * R_mesh[0 .. n_radii-1] (default 0). `name` labels errors when reading text. */
grains_status grains_off_read(const char *path, const real *R_mesh, int n_radii, grains_mesh **out,
                              grains_error *err);
grains_status grains_off_parse(const char *text, const char *name, const real *R_mesh, int n_radii,
                               grains_mesh **out, grains_error *err);

/* STL, ASCII or binary (told apart by size and content), from memory.
 * Vertices with equal coordinates are merged; triangles get radius index 0. */
grains_status grains_stl_parse(const char *data, size_t len, const char *name, const real *R_mesh, int n_radii,
                               grains_mesh **out, grains_error *err);

/* OFF or STL, told apart by content (OFF begins with "OFF"). */
grains_status grains_mesh_read(const char *path, const real *R_mesh, int n_radii, grains_mesh **out,
                               grains_error *err);

/* A table motion's rows: header t,x,y,z,angle, times increasing; *out is
 * malloc'ed. */
grains_status grains_motion_table_read(const char *path, grains_motion_sample **out, size_t *n, grains_error *err);

/* Writes the mesh as OFF with each element's radius index. */
grains_status grains_off_write(const char *path, const grains_mesh *mesh, grains_error *err);

/* The TinyDEM hourglass (paper Fig. 5A), built into the program. */
extern const char grains_hourglass_off[];

/* How a VTK file holds its arrays: zlib-compressed binary (base64, the
 * default), binary (base64), or ASCII text. */
#define GRAINS_ENUM_VTK_FORMAT(id, name, doc) GRAINS_VTK_##id,
typedef enum { GRAINS_VTK_FORMAT_LIST(GRAINS_ENUM_VTK_FORMAT) } grains_vtk_format;
#define GRAINS_N_VTK_FORMATS (0 GRAINS_VTK_FORMAT_LIST(GRAINS_COUNT3))

/* VTK XML PolyData: particles as points with radius, velocity, angular
 * velocity, orientation and id; the mesh as vertices, lines and polygons
 * with a per-element radius. */
grains_status grains_vtk_write_particles(const char *path, const grains_sim *sim, grains_vtk_format format,
                                         grains_error *err);
/* The particles' file of a frame, as grains_vtk_write_particles, of a
 * simulation shared among ranks or not: collective, every rank calls it
 * alike, rank 0 with the path and the others with NULL; when the ranks
 * hold their own particles alone, rank 0 is sent them a window of ids at a
 * time (grains_sim_particle_window) and never holds them all. The bytes
 * are those of grains_vtk_write_particles on one process. */
grains_status grains_vtk_write_frame(const char *path, grains_sim *sim, grains_vtk_format format, grains_error *err);
grains_status grains_vtk_write_mesh(const char *path, const grains_mesh *mesh, grains_vtk_format format,
                                    grains_error *err);

/* The simulation's membranes as surfaces: their vertices (velocity, the
 * membrane's number) and triangles (stretch: area now / area at rest; the
 * pressure on them, Eq. 18). */
grains_status grains_vtk_write_membranes(const char *path, const grains_sim *sim, grains_vtk_format format,
                                         grains_error *err);

/* The contacts the last step recorded (grains_sim_record_contacts), one
 * line per contact from particle a's centre to b's (or to the closest
 * point of the mesh element): cell arrays force_normal, force_tangential
 * (on a), normal_force (|f_n|, > 0 pushing apart), overlap, kind (0
 * particle-particle, 1 particle-mesh), a and b (ids; b an element for
 * kind 1), uid_a and uid_b (the grains' persistent ids, grains_sim_uid;
 * uid_b -1 on a mesh). No contacts recorded: an empty file. */
grains_status grains_vtk_write_contacts(const char *path, const grains_sim *sim, grains_vtk_format format,
                                        grains_error *err);

/* A ParaView collection of `n` frames named by `files` at `times`. */
grains_status grains_pvd_write(const char *path, const char *const *files, const double *times, size_t n,
                               grains_error *err);

/* A VTK PolyData file grains wrote (a frame's particles, meshes,
 * membranes or contacts), read back and checked as untrusted input:
 * ASCII, binary or zlib-compressed, this machine's byte order. Every
 * array is given as doubles (integers below 2^53 exactly), in the file's
 * order, with the part of the file it lies in. */
typedef struct grains_frame grains_frame;
typedef enum {
    GRAINS_FRAME_POINTS = 1, /* the points' coordinates ("position") */
    GRAINS_FRAME_POINT_DATA,
    GRAINS_FRAME_CELL_DATA,
    GRAINS_FRAME_VERTS, /* the cells' connectivity and offsets */
    GRAINS_FRAME_LINES,
    GRAINS_FRAME_STRIPS,
    GRAINS_FRAME_POLYS
} grains_frame_part;
typedef struct {
    const char *name;
    grains_frame_part part;
    int components, integer; /* integer: stored as an integer type */
    size_t tuples;
    const double *values; /* tuples * components, borrowed from the frame */
} grains_frame_array;
grains_status grains_frame_read(const char *path, grains_frame **out, grains_error *err);
size_t grains_frame_points(const grains_frame *f);
int grains_frame_array_count(const grains_frame *f);
/* Array k (0 .. count-1); k out of range: all zero. */
grains_frame_array grains_frame_get(const grains_frame *f, int k);
void grains_frame_free(grains_frame *f);

/* Creates `dir` and its parents if needed and checks that it is writable. */
grains_status grains_output_dir(const char *dir, grains_error *err);

GRAINS_API_END

#endif
