/* Insertion and growth: the regions' attempts each step (insert/spawn.c), what they reach
 * (spawn_reach.c), and growing radii (grow.c). */
#ifndef GRAINS_INSERT_INSERT_H
#define GRAINS_INSERT_INSERT_H

#include <stdint.h>

#include "geometry/periodic.h"
#include "grains/params.h"
#include "grains/sim.h"
#include "neighbor/grid.h"
#include "particles/particles.h"
#include "util/bytes.h"
#include "util/rng.h"

/* An insertion region's progress (insert/spawn.c). */
typedef struct {
    real R_next;                /* [L] the radius drawn for its next particle, kept until one fits */
    long added;                 /* particles it added */
    long idle_steps;            /* steps in a row in which no attempt fit */
    int stop;                   /* grains_spawn_stop */
    long stop_step;             /* the step it stopped in */
} spawn_state;

/* The regions' progress (all GRAINS_MAX_SPAWNS) written for a checkpoint
 * and read back; whether the first n are valid (a radius within [R_min,
 * R_max], counts not negative, a stop of grains_spawn_stop); a region
 * opened or closed at `step` (one that has added its count stays stopped)
 * (insert/spawn_state.c). */
void spawn_states_write(const spawn_state *spawn, bytes_out *o);
void spawn_states_read(spawn_state *spawn, bytes_in *in);
int spawn_states_valid(const spawn_state *spawn, int n, real R_min, real R_max);
void spawn_state_open(spawn_state *st, int open, long step);

/* What insertion sees of a simulation (the core makes it: sim_insert_of):
 * the regions' progress, the run's parameters, what an attempt may touch
 * (the particles binned in grid at the last rebuild and those added
 * since, the meshes), the run's random numbers, and the core's door for a
 * particle added (grains_sim_add_particle) and the caller's stop question. */
typedef struct {
    spawn_state *spawn;          /* per region */
    const grains_params *p;      /* the regions, N_max, the growth of radii */
    const grains_particles *pt;
    const grains_grid *grid;
    const periodic_box *box;
    const grains_mesh *mesh;     /* or NULL */
    grains_rng *rng;
    size_t count;                /* the whole's particles (every rank's), counted on as they are added */
    real t;                      /* the time now */
    long step;
    grains_status (*add)(void *core, const grains_particle *p, grains_error *err);
    void *core;
    grains_stop_asked stop_asked; /* or NULL */
    void *stop_ctx;
} insert_view;

/* Spawn attempts of one step (Section 3.1), *added of them fit; STOPPED
 * when the stop question said yes part-way. */
grains_status sim_spawn(insert_view *v, size_t *added, grains_error *err);
/* Whether the grain in slot i, added after the last rebuild (listed
 * nowhere), comes within `reach` of touching another grain or a mesh
 * element, the elements having moved by at most `moved` since the lists
 * were built: found among the binned grains through the cells that reach
 * R + reach + R_top + pad around it, so that a grain binned farther lies
 * more than pad - D beyond it (D: any grain's motion since the rebuild). */
int sim_spawn_near(const insert_view *v, size_t i, real reach, real moved);

/* Each region's first radius (at creation). */
void sim_spawn_init(spawn_state *spawn, const grains_params *p, grains_rng *rng);
/* Whether an insertion region still attempts. */
int sim_spawn_active(const insert_view *v);
/* Marks (mark[i] = 1, per storage slot) the particles binned at the last
 * rebuild that the active regions' attempts may read until the next. */
void sim_spawn_mark_reach(const insert_view *v, uint8_t *mark);
/* Region k's places on an n_side^3 lattice that its smallest radius (now)
 * fits, meshes aside (grains_sim_spawn_places), and its report. */
size_t sim_spawn_places(const insert_view *v, int k, int n_side, double *R_tried);
grains_spawn_report sim_spawn_report(const insert_view *v, int k);

/* Growing radii (insert/grow.c): the scale of the radii at time t, and every
 * radius grown from t_old to t_new: what a pair's gap closed by, counted in
 * the skin budget. */
real sim_grow_scale(const grains_params *p, real t);
real sim_grow(grains_particles *pt, const grains_params *p, real t_old, real t_new);

#endif
