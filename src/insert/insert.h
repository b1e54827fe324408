/* Insertion and growth: the regions' attempts each step (insert/spawn.c), what they reach
 * (spawn_reach.c), and growing radii (grow.c). */
#ifndef GRAINS_INSERT_INSERT_H
#define GRAINS_INSERT_INSERT_H

#include <stdint.h>

#include "grains/params.h"
#include "grains/sim.h"

/* An insertion region's progress (insert/spawn.c). */
typedef struct {
    real R_next;                /* [L] the radius drawn for its next particle, kept until one fits */
    long added;                 /* particles it added */
    long idle_steps;            /* steps in a row in which no attempt fit */
    int stop;                   /* grains_spawn_stop */
    long stop_step;             /* the step it stopped in */
} spawn_state;

/* Spawn attempts of one step (Section 3.1); returns how many were added. */
grains_status sim_spawn(grains_sim *sim, size_t *added, grains_error *err);

/* Each region's first radius (at creation). */
void sim_spawn_init(grains_sim *sim);
/* Whether an insertion region still attempts. */
int sim_spawn_active(const grains_sim *sim);
/* Marks (mark[i] = 1, per storage slot) the particles binned at the last
 * rebuild that the active regions' attempts may read until the next. */
void sim_spawn_mark_reach(const grains_sim *sim, uint8_t *mark);

/* Growing radii (insert/grow.c): the scale of the radii at time t, and every
 * radius grown from t_old to t_new (the growth counted in the skin budget). */
real sim_grow_scale(const grains_params *p, real t);
void sim_grow(grains_sim *sim, real t_old, real t_new);

#endif
