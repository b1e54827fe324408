/* A simulation: particles, meshes that may move, and the timestep that
 * moves them (TinyDEM Sections 2-3). */
#ifndef GRAINS_SIM_H
#define GRAINS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "grains/api.h"
#include "grains/choices.h"
#include "grains/error.h"
#include "grains/membrane.h"
#include "grains/mesh.h"
#include "grains/motion.h"
#include "grains/params.h"

GRAINS_API_BEGIN

typedef struct grains_sim grains_sim;

/* The state of one particle. */
typedef struct {
    grains_vec3 x;    /* [L] position */
    grains_vec3 v;    /* [L/T] velocity */
    grains_vec3 w;    /* [1/T] angular velocity */
    grains_quat q;    /* orientation, unit quaternion */
    real R;           /* [L] radius */
    int material;     /* 0 .. n_materials - 1 (0 when left out of an initialiser) */
    int tag;          /* the user's label: its insertion region's, a tag rule's, or the input's */
} grains_particle;

/* Why an insertion region adds no more particles. */
typedef enum {
    GRAINS_SPAWN_ACTIVE = 0,        /* it still tries */
    GRAINS_SPAWN_COUNT_REACHED = 1, /* it added its count */
    GRAINS_SPAWN_FULL = 2,          /* no attempt fit for full_after steps in a row */
    GRAINS_SPAWN_N_MAX = 3,         /* the run holds N_max particles */
    GRAINS_SPAWN_CLOSED = 4         /* closed (grains_sim_spawn_open: a stage) */
} grains_spawn_stop;

typedef struct {
    long added;             /* particles the region added */
    long idle_steps;        /* steps in a row, up to the last, in which no attempt fit */
    grains_spawn_stop stop;
    long stop_step;         /* the step it stopped in (COUNT_REACHED, FULL) */
} grains_spawn_report;

/* Figures for the thermo table, from the last completed step. */
typedef struct {
    long step;
    double time;          /* [T] */
    size_t n_particles;
    size_t n_contacts;    /* particle-particle and particle-mesh */
    double e_kin;         /* [ML^2/T^2] translational kinetic energy */
    double e_rot;         /* [ML^2/T^2] rotational kinetic energy */
    double max_overlap;   /* max over contacts of delta / (2 R*) */
    size_t n_bonds;       /* bonds holding */
    size_t n_broken;      /* bonds broken so far */
    /* variational integrators: the last step's Newton iterations, the most
     * any step took so far, the last step's conjugate-gradient iterations (all
     * Newton iterations together), and its last update / R_min (converged:
     * <= newton_tol) */
    int newton, newton_most;
    long cg;
    double newton_update;
    double e_membrane;    /* [ML^2/T^2] membranes: their vertices' kinetic energy and their edge
                           * springs' elastic energy */
    size_t n_lost;        /* with meshes: particles outside the box of all meshes and the spawn
                           * box (grown by R_max and the element radius; endless against
                           * gravity; periodic axes aside), e.g. fallen out of a leaking hopper
                           * or off a floor */
    double e_lost;        /* [ML^2/T^2] the n_lost particles' share of e_kin + e_rot (a stage's
                           * until = "settled" looks at the rest: a lost grain falls for ever) */
} grains_thermo;

/* The instruction set of the hot loops a simulation takes on this CPU: "x86-64-v4" (AVX-512),
 * "x86-64-v3" (AVX2) or "x86-64" in a build for x86-64's baseline, which holds all three;
 * "this build's" in any other (docs/benchmarks.md, "A build for every machine"). */
const char *grains_kernels_isa(void);

/* Checks `params` and creates an empty simulation with dt, skin derived. */
grains_status grains_sim_create(grains_sim **out, const grains_params *params, grains_error *err);
void grains_sim_destroy(grains_sim *sim);

#define GRAINS_MAX_MESHES 64

/* Adds a copy of `mesh` (the caller keeps its own) that moves by `motion`
 * (NULL: fixed); its index is the number of meshes added before it. Each
 * element keeps its own radius R (the readers set it from the R_mesh they
 * are given); an element of GRAINS_MESH_MATERIAL_DEFAULT gets
 * params.mesh_material. Moving meshes need an explicit integrator. */
grains_status grains_sim_add_mesh(grains_sim *sim, const grains_mesh *mesh, const grains_motion *motion,
                                  grains_error *err);

/* Adds a membrane made of the triangles of `mesh` (the caller keeps its
 * own), at rest where the mesh has its vertices (docs/model.md,
 * "Membranes"): its vertices carry mass and move with the run's integrator
 * under gravity, edge springs, hinges and pressure. Its index is the number
 * of membranes added before it. Refused: a triangulation a membrane cannot
 * have (the rule and the vertices named), a bad material, a variational
 * integrator. Its triangles are patches that touch grains as mesh elements
 * do (material->material's contact law), at the velocity and with the
 * reaction split by the barycentric weights of the contact point (membrane
 * paper Section 2.5); grains_sim_mesh lists them, of body -1 - k. */
grains_status grains_sim_add_membrane(grains_sim *sim, const grains_mesh *mesh,
                                      const grains_membrane_material *material, grains_error *err);
size_t grains_sim_membrane_count(const grains_sim *sim);

/* One vertex of a membrane. */
typedef struct {
    grains_vec3 x;    /* [L] position */
    grains_vec3 v;    /* [L/T] velocity */
    double mass;      /* [M] */
} grains_membrane_vertex;

/* The vertices of membrane k (< grains_sim_membrane_count), and vertex i
 * of it (its index in the mesh it was made from). set: position and velocity (finite; mass is the
 * membrane's), e.g. to start a vibration or continue a run. */
size_t grains_sim_membrane_vertices(const grains_sim *sim, size_t k);
void grains_sim_get_membrane_vertex(const grains_sim *sim, size_t k, size_t i, grains_membrane_vertex *out);
grains_status grains_sim_set_membrane_vertex(grains_sim *sim, size_t k, size_t i, const grains_membrane_vertex *in,
                                             grains_error *err);

/* Triangle t of membrane k (< grains_sim_membrane_triangles): its
 * vertices, and its area now over its area at rest (1: unstretched). */
size_t grains_sim_membrane_triangles(const grains_sim *sim, size_t k);
void grains_sim_get_membrane_triangle(const grains_sim *sim, size_t k, size_t t, uint32_t v[3], double *stretch);

/* What membrane k carries now, about the axis through `point` along
 * `axis` (any length > 0): its area, its vertices' mean distance from the
 * axis, the grains' push on it outwards from the axis (the sum over its
 * vertices of the last step's contact forces from grains, each along its
 * vertex's outward radial direction) and the pressure it applies (Eq. 18,
 * with its ramp, and its servo's addition under GRAINS_PRESSURE_FELT). A
 * cylinder's confining stress as the grains feel it is radial_push / area
 * (membrane paper Section 3.1). */
typedef struct {
    double area;          /* [L^2] */
    double mean_radius;   /* [L] */
    double radial_push;   /* [ML/T^2] */
    double pressure;      /* [M/LT^2] */
} grains_membrane_load;
void grains_sim_membrane_load(const grains_sim *sim, size_t k, grains_vec3 point, grains_vec3 axis,
                              grains_membrane_load *out);

/* Pins vertex i of membrane k to mesh `mesh` where the vertex is now: it
 * then moves with the mesh, and the membrane's pull on it counts in the
 * mesh's force and torque (grains_sim_get_wall). A RANGE error for a
 * membrane, vertex or mesh that does not exist. */
grains_status grains_sim_pin_membrane_vertex(grains_sim *sim, size_t k, size_t i, size_t mesh, grains_error *err);

/* Replaces every mesh by one fixed copy of `mesh` (NULL: none); the
 * contacts with the old meshes end. Radii are taken from each element's
 * radius_index, which must exist in params.R_mesh. Refused in a run with
 * membranes. */
grains_status grains_sim_set_mesh(grains_sim *sim, const grains_mesh *mesh, grains_error *err);

/* Every mesh's elements together, vertices where they are now (each
 * element's `body` says which mesh it belongs to); borrowed, may be NULL. */
const grains_mesh *grains_sim_mesh(const grains_sim *sim);
size_t grains_sim_mesh_count(const grains_sim *sim);

/* Where mesh k is and what the particles do to it. */
typedef struct {
    grains_vec3 shift;     /* [L] translation from its file's position */
    double angle;          /* [rad] turn about its motion's axis */
    grains_vec3 velocity;  /* [L/T] of its reference point (the motion's point) */
    double omega;          /* [1/T] about its motion's axis */
    grains_vec3 force;     /* [ML/T^2] of the particles on the mesh, last step (a variational
                            * integrator: at the end of its step) */
    grains_vec3 torque;    /* [ML^2/T^2] about the reference point, last step */
    int moving;            /* its motion is not "fixed" */
    double t_pose;         /* [T] when it was put at this pose */
    /* a servo's own state (0 for the other motions) */
    double travel;         /* [L] moved along its axis */
    double stiffness;      /* [M/T^2] its contacts' summed normal stiffness, last step */
    double damping;        /* [M/T] their summed normal dashpots, last step */
} grains_wall;

/* Mesh k repeats with the periodic box (on) along its periodic axes, or
 * not (the default): a grain meets each element's image nearest the
 * element's centre, so that a plate one period long covers the box however
 * it is shifted (a shear's lid). An element must span the period or be
 * shorter than it by twice a grain's reach (RANGE error otherwise); an ARG
 * error without a periodic box. The torque on the mesh is about its point
 * with the grains where they are in the box. As adding a mesh, a setting
 * of the run's making: a resume makes it again (the scenario's `periodic`). */
grains_status grains_sim_set_mesh_periodic(grains_sim *sim, size_t k, int on, grains_error *err);

/* [L/T] The fastest any point of mesh k moves under its motion now: a
 * bound from the motion's numbers (a turn's spin times its reach, a
 * vibration's peak, a table's fastest row, a servo's max_speed); 0 for a
 * fixed or removed mesh, or no mesh k. */
double grains_sim_mesh_speed(const grains_sim *sim, size_t k);

/* Mesh k's state; k beyond grains_sim_mesh_count: all zero. */
void grains_sim_get_wall(const grains_sim *sim, size_t k, grains_wall *out);

/* Puts mesh k's state back, as grains_sim_get_wall of a run at the same
 * step gave it: the pose and rates, the last step's force and torque, a
 * servo's travel, stiffness and damping (`moving` is the motion's and is
 * not read). A prescribed motion is put at its pose for the time at the
 * next step anyway; a servo continues from this state. A RANGE error when
 * k is out of range, a value is not finite, or a fixed mesh is given a
 * pose other than its file's. */
grains_status grains_sim_set_wall(grains_sim *sim, size_t k, const grains_wall *in, grains_error *err);

/* Removes the n particles `ids` between steps: the others keep their
 * order, and their ids close up (an id above removed ones goes down by
 * their number: ids stay 0 .. grains_sim_count - 1); the contacts and
 * bonds of the removed particles end, the others' springs go on. An id
 * that does not exist, one named twice or the guided particle is an ARG
 * error, and nothing changes. Shared among ranks: collective, the same
 * ids on every rank, with the ranks holding their own particles alone
 * (grains_ranks.local; an ARG error otherwise). */
grains_status grains_sim_remove(grains_sim *sim, size_t n, const size_t *ids, grains_error *err);

/* Particle id's persistent id: its number in the order the run made its
 * particles (0, 1, 2 ...), kept for its life, while its id closes up when
 * particles before it are removed; every output has both (the frames'
 * "uid", sinks.csv's). The same on every rank; checkpoints keep it. */
uint64_t grains_sim_uid(const grains_sim *sim, size_t id);

/* A particle an outlet removed (grains_params.sink, remove_lost). */
typedef struct {
    long step;          /* the step at whose end it was removed */
    double time;        /* [T] then */
    int sink;           /* its sink, or -1: lost out of the meshes' box (remove_lost) */
    size_t id;          /* its id then (the ids above it closed up after) */
    int tag;
    grains_vec3 x, v;   /* [L], [L/T] its centre and velocity then */
    uint64_t uid;       /* its persistent id (grains_sim_uid) */
} grains_removal;

/* The removals since grains_sim_clear_removals, oldest first (borrowed:
 * valid until the next step). */
size_t grains_sim_removals(const grains_sim *sim, const grains_removal **log);
void grains_sim_clear_removals(grains_sim *sim);
/* Particles removed so far by sink k (-1: as lost) with tag `tag`; with
 * any_tag, with any. Checkpoints keep the counts. */
size_t grains_sim_removed(const grains_sim *sim, int sink, int tag, int any_tag);

/* Mesh k is removed from the next step on: no grain meets it, its
 * contacts end, it is no more in the mesh frames nor in the box out of
 * which grains are lost; its index stays (walls.csv gives it no force). A
 * mesh holding a membrane's pinned vertices is refused. Checkpoints keep it. */
grains_status grains_sim_remove_mesh(grains_sim *sim, size_t k, grains_error *err);

/* The parameters a run may change (grains_changeable_name's list: "mu_s", "e_n", ...), n of them
 * by name, checked together as grains_sim_set_params checks them; a dynamic friction equal to its
 * static one follows it when the static one changes and it is not given. */
grains_status grains_sim_set_named_params(grains_sim *sim, int n, const char *const *names, const double *values,
                                          grains_error *err);

/* The parameters from the next step on: only mu_s, mu_r, mu_t, their
 * dynamic values, e_n, eta and g may differ from the run's (the rest is
 * its own: an ARG error), checked and derived as grains_sim_create does;
 * a friction that acts in no pair may not start acting, nor one that acts
 * stop (the contacts keep its springs or not). Checkpoints keep them, and
 * gravity, as they stand. */
grains_status grains_sim_set_params(grains_sim *sim, const grains_params *p, grains_error *err);

/* Gravity from the next step on (finite; in a 2D run, in the plane). */
grains_status grains_sim_set_gravity(grains_sim *sim, grains_vec3 g, grains_error *err);

/* Insertion region k opens (adds grains again, its count and full_after
 * counted on) or closes (GRAINS_SPAWN_CLOSED) from the next step on. A
 * region that reached its count stays so. Checkpoints keep it. */
grains_status grains_sim_spawn_open(grains_sim *sim, int k, int open, grains_error *err);

/* Mesh k moves by `motion` from now on, starting where it is: its pose at
 * a later time t is its pose now changed by what the motion does between
 * now and t (times are the run's: a table's rows, a vibration's phase), a
 * servo travels from here, and GRAINS_MOTION_FIXED stops it where it is.
 * A mesh turned from its file's pose keeps its axis and point. The motion
 * is checked as grains_sim_add_mesh checks one; checkpoints keep it. On an
 * error nothing changes. Ranks: every rank alike, between steps. */
grains_status grains_sim_set_motion(grains_sim *sim, size_t k, const grains_motion *motion, grains_error *err);

/* Adds a particle; checks that all values are finite, R > 0, |q| = 1 and
 * that its material exists. */
grains_status grains_sim_add_particle(grains_sim *sim, const grains_particle *p, grains_error *err);
/* Adds n particles, ids in their order: every one checked first, as
 * grains_sim_add_particle checks it, and none added when one is refused
 * (the error names it). */
grains_status grains_sim_add_particles(grains_sim *sim, size_t n, const grains_particle *ps, grains_error *err);

/* Whether the run can start: the particles (and the spawn box, while it
 * spawns) lie within the 2^18 cells the neighbour grid spans along each
 * axis, and no cell holds more particles than spheres of R_min fit in it
 * without overlapping beyond max_overlap (particles given twice). A RANGE
 * error naming a particle otherwise (src/sim/check_start.c). Shared
 * among ranks that hold their own particles alone, it is collective and
 * every rank returns the same, one process's: each cell block is checked
 * by one rank, which is sent its particles, and no rank holds them all. */
grains_status grains_sim_check_start(const grains_sim *sim, grains_error *err);

/* Overlaps at the start, for warnings: particle pairs (the deepest as
 * delta / (2 R*)), and particles on a mesh element with its radius (the
 * deepest as delta / (2 R)); the walls are tried only up to 5e7 pairs of a
 * particle and an element. Where depths tie, the smaller ids (pair_a <
 * pair_b) and element. Collective on ranks that hold their own alone, as
 * grains_sim_check_start, and the same on every rank. */
typedef struct {
    size_t pairs;
    long pair_a, pair_b;   /* ids of the deepest pair, or -1 */
    double pair_depth;
    size_t walls;          /* particles overlapping some element */
    long wall_particle;    /* the deepest, or -1 */
    size_t wall_element;
    double wall_depth;
    int walls_checked;
} grains_start_overlaps;
grains_status grains_sim_start_overlaps(const grains_sim *sim, grains_start_overlaps *out, grains_error *err);

/* Room for `n` particles in total, so that adding them does not regrow. */
grains_status grains_sim_reserve(grains_sim *sim, size_t n, grains_error *err);

/* Particles are named by id: 0, 1, ... in the order they were added or
 * spawned. Their storage order is the engine's business. */
size_t grains_sim_count(const grains_sim *sim);
/* The rebuilds of the lists that found more than 64 grains lost far out
 * of the meshes' box (docs/architecture.md, "The rebuild"): past 64 none
 * is kept apart, and the fastest of them bounds every grain's motion, so
 * that the lists are rebuilt far more often (a run slower, its results the
 * same); remove_lost takes such grains out.
 * Counted since the simulation was made or read. */
size_t grains_sim_strays_overflowed(const grains_sim *sim);
/* The rebuilds of the lists since the start of the run (kept across a
 * checkpoint): when a grain may have moved half the skin, a caller changed
 * the particles or meshes, or a grain that entered came within reach of
 * something (docs/internals.md, "Neighbours"). */
size_t grains_sim_rebuilds(const grains_sim *sim);

/* The number of threads the run uses (the `threads` parameter, or for 0 the
 * OpenMP default). */
int grains_sim_threads(const grains_sim *sim);
/* Shared among ranks that hold their own particles alone (grains_ranks.local),
 * after the first step a rank reads those it holds, and rank 0 every one
 * once gathered (grains_sim_gather_particles); any other reads as not a
 * number, material -1. A set changes a particle where it is held. */
void grains_sim_get_particle(const grains_sim *sim, size_t id, grains_particle *out);
/* (A material that does not exist is ignored: the particle keeps its own.) */
void grains_sim_set_particle(grains_sim *sim, size_t id, const grains_particle *p);

/* A particle's fields in bulk (grains/choices.h, GRAINS_BULK_FIELD_LIST). */
#define GRAINS_ENUM_BULK_FIELD(id, name, width, is_real, doc) GRAINS_BULK_##id,
typedef enum { GRAINS_BULK_FIELD_LIST(GRAINS_ENUM_BULK_FIELD) } grains_bulk_field;
/* The values of `field` (width w of its row) of the particles with ids [first, first + count),
 * in id order: out[w * k + c] is component c of particle first + k. _reals for the REAL rows
 * (doubles), _ints for the others (64-bit). Where a particle is not held (grains_sim_get_particle),
 * its reals are not a number, its material -1 and its tag 0. ARG error, nothing written, for a field of the other kind or ids beyond
 * grains_sim_count. */
grains_status grains_sim_get_reals(const grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                   double *out, grains_error *err);
grains_status grains_sim_get_ints(const grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                  int64_t *out, grains_error *err);
/* The values of `field` set for the particles with ids [first, first + count), laid out as the
 * gets give them. Every value is checked first (finite; a radius > 0 and what the run can
 * represent; a material of the run; a tag of 32 bits); on an error nothing changes. The id is
 * read only. */
grains_status grains_sim_set_reals(grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                   const double *in, grains_error *err);
grains_status grains_sim_set_ints(grains_sim *sim, grains_bulk_field field, size_t first, size_t count,
                                  const int64_t *in, grains_error *err);
const grains_params *grains_sim_params(const grains_sim *sim);
/* Adds now the particles the next step would spawn (against the meshes
 * where they are now), and that step spawns none: a first frame then shows
 * them. The same particles as the step's own spawning when the run holds
 * none and its meshes do not move in that step. */
grains_status grains_sim_spawn_ahead(grains_sim *sim, grains_error *err);

/* Of n_side^3 centres on a lattice filling insertion region k (< the
 * params' grains_params_n_spawns; its cells' centres), how many a grain of
 * the region's smallest radius could take clear of the meshes where they
 * are now (and inside its cylinder); 0: no grain fits the region, and it
 * will add none while the meshes stay. *R_tried: that radius. */
size_t grains_sim_spawn_places(const grains_sim *sim, int k, int n_side, double *R_tried);

/* Insertion region k's progress (k below grains_params_n_spawns). */
grains_spawn_report grains_sim_spawn_report(const grains_sim *sim, int k);
/* Whether any particle ever had a tag other than 0, or tag rules or regions
 * give them: the outputs then carry the tags. */
int grains_sim_has_tags(const grains_sim *sim);

/* A guided particle: its velocity across `axis` is held at `velocity`, it
 * moves along the unit `axis` as its forces push it, and it does not
 * rotate (the sled of the membrane paper's friction test, Section 3.2).
 * Whatever holds it supplies the force across the axis that cancels the
 * contacts', gravity's and drag's there, and the torque that cancels
 * theirs. One particle at a time; a later call replaces the guide. */
typedef struct {
    size_t id;              /* the particle */
    grains_vec3 velocity;   /* [L/T] held; across the axis (velocity . axis = 0) */
    grains_vec3 axis;       /* the one direction it is free along (normalised here) */
} grains_guide;

/* Guides particle g->id from now on: its velocity becomes g->velocity plus
 * its own along the axis, its spin 0. A RANGE error for an id out of
 * range, a non-finite or zero axis, a velocity not across the axis or an
 * implicit integrator (the guide acts between an explicit step's forces
 * and its update). */
grains_status grains_sim_guide(grains_sim *sim, const grains_guide *g, grains_error *err);

/* The contact force on the guided particle at the last step, before the
 * guide held it (every contact, bond and membrane patch; no gravity); 0
 * without a guide. */
grains_vec3 grains_sim_guide_force(const grains_sim *sim);
/* The time is the steps taken times dt. */
double grains_sim_time(const grains_sim *sim);
long grains_sim_steps(const grains_sim *sim);

/* Sets the steps taken (>= 0; a RANGE error otherwise), to continue a run
 * elsewhere: the meshes with prescribed motions are put at their poses for
 * that time, servos stay where they are (as of that time); then
 * grains_sim_set_wall may put back the state a run had. */
grains_status grains_sim_set_steps(grains_sim *sim, long steps, grains_error *err);

/* One timestep: spawn, contacts, forces, integration. On instability
 * (non-finite force, overlap beyond params.max_overlap) returns
 * GRAINS_ERR_UNSTABLE before moving anything, so the state stays the last
 * good one; err names the particle and time. A velocity or spin that is
 * not finite after the update is the same error (see grains_sim_stopped). */
grains_status grains_sim_step(grains_sim *sim, grains_error *err);

/* A question the loops that can run long inside a step (an insertion
 * region's attempts: `rate` of them, each against every grain added since
 * the last rebuild) ask every 1024 turns: when it answers non-zero, the
 * step stops there with GRAINS_ERR_STOPPED. The simulation is then part-way
 * through that step, not in any state of the run: every later step is
 * refused; free it, or go on from a checkpoint. NULL: never asked (the
 * default). A signal handler's flag is the usual answer (run/signals.c). */
typedef int (*grains_stop_asked)(void *ctx);
void grains_sim_ask_stop(grains_sim *sim, grains_stop_asked asked, void *ctx);

/* Whether a step stopped part-way and the simulation takes no step more:
 * asked to (grains_sim_ask_stop), or a step whose update left a velocity
 * or spin that is not finite where the state before it was not kept (a
 * finite force that overflowed: that step returns GRAINS_ERR_UNSTABLE,
 * and where the state was kept, it is put back and this stays 0). */
int grains_sim_stopped(const grains_sim *sim);

/* `n` timesteps. */
grains_status grains_sim_advance(grains_sim *sim, long n, grains_error *err);

void grains_sim_thermo(const grains_sim *sim, grains_thermo *out);

/* Relaxation to a static packing: the variational integrator's quasi-static
 * limit, inertia dropped (docs/model.md). Each pseudo-step h solves
 * M (q - q_k) / h^2 = F(q) by Newton and conjugate gradients, a step that
 * lowers V(q) + |q - q_k|^2_M / (2 h^2): the potential V of the contacts'
 * normal springs, gravity and van der Waals falls at every step. h grows
 * while Newton converges quickly and no particle moves more than a quarter of
 * the skin. Stops when every particle's net force is below force_tol times
 * its weight (without gravity: times the largest contact force). Friction and
 * dashpots play no part; velocities and spins end at 0; time does not advance.
 * A RANGE error with bonds (their springs have no potential) or membranes. */
typedef struct {
    int converged;         /* the forces balance to force_tol */
    long steps;            /* pseudo-steps taken */
    long newton;           /* Newton iterations, all steps */
    double imbalance;      /* largest |net force| / weight (or / largest contact force) at the end */
    double energy_start;   /* [ML^2/T^2] V of the springs and gravity, at the start */
    double energy_end;     /* and at the end */
} grains_relax_result;

grains_status grains_sim_relax(grains_sim *sim, double force_tol, long max_steps, grains_relax_result *out,
                               grains_error *err);

/* Bonded pairs (libgran; params.bond_*): a bond joins particles a and b
 * with four springs and dashpots (docs/model.md) in place of their contact,
 * until a limit breaks it. Pairs are added here, or formed at the first
 * step from params.bond_tolerance. A pair added twice is one bond. */
grains_status grains_sim_add_bond(grains_sim *sim, size_t a, size_t b, grains_error *err);

typedef struct {
    size_t a, b;          /* particle ids, a < b */
    int broken;
    double force;         /* [ML/T^2] |force| on a at the last step (0 once broken) */
    double torque;        /* [ML^2/T^2] |rolling + twisting torque| at the last step */
    double us[3], ur[3], ut; /* [L] the sliding, rolling and twisting springs, as a sees them */
} grains_bond;

/* Bonds ordered by (a, b), broken ones included; k < grains_sim_bond_count.
 * Ranks holding their own particles alone (grains_ranks.local) hold the
 * bonds of their own: rank 0 answers for the whole after
 * grains_sim_gather_particles (until the next step), the others for
 * theirs. */
size_t grains_sim_bond_count(const grains_sim *sim);
void grains_sim_get_bond(const grains_sim *sim, size_t k, grains_bond *out);
/* The intact bonds' particle pairs (a < b), in (a, b) order, into a
 * malloc'd *pairs (2 ids a bond, the caller frees it; NULL with none); how
 * many, or SIZE_MAX out of memory. Ranks holding their own particles alone:
 * collective, rank 0 gets them all and the others none (a frame's writer). */
size_t grains_sim_bond_pairs(const grains_sim *sim, size_t **pairs);

/* Puts back the state of bond k (its springs, whether it broke, its last
 * force and torque), as a checkpoint or another process saw it; `in` must
 * name the same pair, with finite values. */
grains_status grains_sim_set_bond(grains_sim *sim, size_t k, const grains_bond *in, grains_error *err);

/* One contact's springs, named by stable ids: particles a < b, or (wall = 1)
 * particle a and element b of grains_sim_mesh. The springs are as a sees
 * them (TinyDEM Eq. 50; rolling type C: the relative rotation, rad). What
 * checkpoints and other processes need to continue a contact. */
typedef struct {
    uint32_t a, b;
    int wall;
    double us[3], ur[3], ut; /* [L] sliding, rolling (type C: [-]), twisting */
} grains_contact;

/* How many contacts have springs now. */
size_t grains_sim_contact_count(const grains_sim *sim);

/* Every contact's springs, sorted by (wall, a, b): the same list for any
 * thread count. `out` has room for n; *got says how many were written (an
 * error if n < grains_sim_contact_count). */
grains_status grains_sim_get_contacts(const grains_sim *sim, grains_contact *out, size_t n, size_t *got,
                                      grains_error *err);

/* Replaces every contact's springs by these (any order; a pair may be
 * named either way round, its springs as its `a` sees them). Checked: ids
 * and elements exist, a pair is two particles, springs finite, no contact
 * twice. They attach to the lists at the next step; a pair not within the
 * lists' reach then (apart by more than the skin) is dropped. */
grains_status grains_sim_set_contacts(grains_sim *sim, const grains_contact *in, size_t n, grains_error *err);

/* One contact as a recorded step's force loop evaluated it. */
typedef struct {
    size_t a, b;          /* particle ids; b is a mesh element's index when wall = 1 */
    int wall;
    grains_vec3 x_a, x_b; /* [L] a's centre and b's, or the element's closest point, at the force evaluation */
    grains_vec3 f_n, f_t; /* [ML/T^2] the force on a, along the normal (x_a - x_b) and across it; b gets the
                           * opposite */
    real delta;           /* [L] overlap (Eq. 7); < 0 for a JKR contact holding across a gap */
} grains_contact_force;

/* A probe's counts (grains_params.probe) for one tag and size class (0 ..
 * the probe's n_sizes, by its size bounds): a plane's over the grains
 * that crossed it since the run began (net: along its normal +, against
 * it -), a box's over the grains it holds now. */
typedef struct {
    int tag, size_class;
    long number;
    double mass;            /* [M] */
    grains_vec3 momentum;   /* [ML/T] */
} grains_probe_row;

/* Probe k's rows, sorted by (tag, size class), in *rows (the caller frees
 * it), *n of them (none for a plane nothing crossed). In one process. */
grains_status grains_sim_probe_rows(const grains_sim *sim, int k, grains_probe_row **rows, size_t *n,
                                    grains_error *err);

/* While on, each step records its contacts as the force loop evaluates
 * them (explicit integrators; the same bits as without). Costs the step
 * the vector kernel: turn it on for the step before a frame. */
void grains_sim_record_contacts(grains_sim *sim, int on);

/* The contacts the last step recorded (0 if it recorded none), in an order
 * that does not depend on the thread count; `out` has room for n. */
size_t grains_sim_recorded_count(const grains_sim *sim);
grains_status grains_sim_get_contact_forces(const grains_sim *sim, grains_contact_force *out, size_t n, size_t *got,
                                            grains_error *err);

/* What the recorded step's contacts summed on particle `id`: force and
 * torque (its contacts only: no gravity, drag or bonds). 0 if the last step
 * recorded nothing. */
int grains_sim_contact_sums(const grains_sim *sim, size_t id, grains_vec3 *f, grains_vec3 *t);

/* Per particle id, from the recorded contacts: how many it has (mesh
 * contacts included), and Love's stress (1/V_i) sum_c r_c (x) f_c, the
 * branch vector r_c from its centre to the contact point (R - delta/2
 * along the normal) and f_c the force on it, V_i = 4/3 pi R_i^3; row-major
 * 3 x 3, tension positive. All zero when the last step recorded nothing. */
void grains_sim_contact_stress(const grains_sim *sim, int *coordination, double (*stress)[9]);

/* A periodic box that moves: a sheared one's (shear_rate) or one whose
 * height holds a pressure (box_pressure). Every GRAINS_BOX_SAMPLE_EVERY
 * steps such a run records its step's contacts and samples the grains'
 * stress over the box's volume V = L_x L_y L_z (docs/model.md, "A box
 * held at a pressure"): sigma = -(1/V) [sum_c l_c (x) f_c + sum_i m_i
 * v'_i (x) v'_i], l_c the branch from partner to grain through the image
 * they touch across, f_c the force on the grain, v'_i the velocity about
 * the flow: the shear profile shear_rate (z - box_min.z) along x and the
 * grains' mean velocity (that of their momentum) about it (grains that stay
 * put carry no momentum of it: their motion is imposed); tension positive, as
 * grains_sim_contact_stress's, so that the pressure on the z faces is
 * -stress[8] and a shear's friction mu = -stress[2] / stress[8]. */
#define GRAINS_BOX_SAMPLE_EVERY 10
typedef struct {
    double L_z;             /* [L] the box's height now */
    double shift;           /* [L] a sheared box's offset of the image above, in [0, L_x) */
    double shear_velocity;  /* [L/T] the image above's velocity along x: shear_rate x L_z */
    double height_rate;     /* [1/T] (dL_z/dt) / L_z the servo sets now (0 without box_pressure) */
    long sampled_step;      /* the step of the sample below; -1: none yet (the box does not move) */
    double solid_fraction;  /* [-] the grains' volume over V at that step */
    double stress[9];       /* [M/LT^2] row-major xx, xy, xz, yx, ...: at that step */
    long samples;           /* the samples taken since grains_sim_clear_box_means (or the start) */
    double mean_solid_fraction, mean_stress[9]; /* their means; with none, the last sample's */
} grains_box_state;

/* The box's state now, its last sample and the mean of the samples since
 * grains_sim_clear_box_means (a frame's, in box.csv: one sample is a
 * single step's stress, which in a dense flow wanders by several times
 * the error of a frame's mean). Checkpoints keep the sums. */
void grains_sim_box(const grains_sim *sim, grains_box_state *out);
void grains_sim_clear_box_means(grains_sim *sim);

/* Bytes held by the simulation's arrays (for memory figures). */
size_t grains_sim_bytes(const grains_sim *sim);

GRAINS_API_END

#endif
