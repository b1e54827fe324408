/* The meshes of a simulation as rigid bodies ("walls"): their motion, the
 * displacement since the lists were built, and the force and torque of the
 * particles on each. Every mesh's vertices and elements live in one combined
 * grains_mesh (elements know their body), so the lists and the force loop
 * see one set of elements. */
#ifndef GRAINS_BOUNDARY_WALLS_H
#define GRAINS_BOUNDARY_WALLS_H

#include <stdint.h>

#include "boundary/motion.h"
#include "grains/mesh.h"
#include "util/bytes.h"

typedef struct {
    grains_motion motion;        /* axis of unit length; table points into `table` */
    grains_motion_sample *table; /* owned copy of the rows */
    uint32_t first_vertex, n_vertices;
    real reach;                  /* [L] largest |vertex - point|: bounds what a turn moves */
    int moving;                  /* any motion but FIXED */
    motion_state now;            /* pose at the last move, rates for this step */
    motion_state listed;         /* pose when the lists were built */
    real t_moved;                /* [T] time of the pose `now` */
    real servo_s;                /* [L] servo: travel along the axis so far */
    vec3 servo_side;             /* [L] servo: its velocity across the axis times the time so far */
    vec3 force, torque;          /* of the particles on the mesh at the last step; the torque
                                  * about point + shift */
    real stiffness, damping;     /* servo: sums of its contacts' d|f_n|/d delta and dashpots */
    /* given a new motion mid-run (walls_set_motion): it moves from its pose `from` at t_from by
     * what its motion does after t_from (a servo: travels from there) */
    int changed;
    motion_state from;
    real t_from;
    int removed;                 /* grains_sim_remove_mesh: its elements are off */
} wall_body;

/* Per cell block and body: force and moment (about the origin) on the
 * particles, and (servo walls) the contacts' stiffness and damping. */
#define WALL_SUMS 3

typedef struct {
    wall_body *body;
    size_t n, cap;
    grains_vec3 *x_ref;          /* each vertex of the combined mesh where its file put it */
    size_t x_ref_cap;
    vec3 *block_sum;             /* per cell block and body: WALL_SUMS vectors, summed in the
                                  * block's order */
    size_t block_cap;
    int any_moving;
} walls;

/* Adds the body made of the vertices [first, first + n) of the combined
 * mesh, which already holds them where its file puts them; checks and
 * copies the motion and places the body at its pose at time t. On failure
 * nothing is added. */
grains_status walls_add(walls *w, grains_mesh *combined, uint32_t first, uint32_t n, const grains_motion *m, real t,
                        grains_error *err);

/* The largest distance of body k's vertices, where its file puts them, from `point`. */
real walls_reach(const walls *w, size_t k, vec3 point);

/* Body k moves by `m` from time t on, from where it is: its pose at a
 * later t' is its pose now changed by what m does between t and t' (the
 * shift's and angle's differences; a servo travels from here; "fixed"
 * stops it where it is). A turned body (angle != 0) takes only a motion
 * about the same axis and point. On an error nothing changes. */
grains_status walls_set_motion(walls *w, grains_mesh *combined, size_t k, const grains_motion *m, real t,
                               grains_error *err);

/* Moves every body to its pose at t_pose with rates at t_rate (servos
 * advance from their last pose by the force of the last step) and writes
 * the vertices of the combined mesh. A servo past its travel is an error. */
grains_status walls_move(walls *w, grains_mesh *combined, real t_pose, real t_rate, grains_error *err);

/* The vertices of body k at its pose `now` (set from outside: a run
 * continued elsewhere). */
void walls_place(const walls *w, grains_mesh *combined, size_t k);

/* The clock was set to t (a run continued elsewhere): prescribed motions
 * are put at their pose at t, servos stay where they are, as of t. */
void walls_set_clock(walls *w, grains_mesh *combined, real t);

/* A bound on how far any point of any mesh has moved since walls_listed. */
real walls_displacement(const walls *w);

/* The lists are built now: poses noted, element bounding boxes refreshed. */
void walls_listed(walls *w, grains_mesh *combined);

/* Velocity of body b's material point at p. */
static inline vec3 walls_point_velocity(const wall_body *b, vec3 p)
{
    vec3 centre = v3_add(b->motion.point, b->now.shift);
    return v3_add(b->now.velocity, v3_cross(v3_scale(b->now.omega, b->motion.axis), v3_sub(p, centre)));
}

/* Where body b's material point that its file puts at x_ref is now. */
static inline vec3 walls_point_now(const wall_body *b, vec3 x_ref)
{
    vec3 centre = v3_add(b->motion.point, b->now.shift), r = v3_sub(x_ref, b->motion.point);
    return v3_add(centre, b->now.angle != 0 ? motion_turn(b->motion.axis, b->now.angle, r) : r);
}

/* And where its file puts the material point that is at x now. */
static inline vec3 walls_point_ref(const wall_body *b, vec3 x)
{
    vec3 r = v3_sub(x, v3_add(b->motion.point, b->now.shift));
    return v3_add(b->motion.point, b->now.angle != 0 ? motion_turn(b->motion.axis, -b->now.angle, r) : r);
}

/* Room for the per-block sums of n_blocks cell blocks. */
grains_status walls_reserve_blocks(walls *w, size_t n_blocks, grains_error *err);

/* The bodies' force and torque from the block sums, blocks in order (the
 * same bits for any thread count). */
void walls_gather(walls *w, size_t n_blocks);

/* The same from n blocks' sums laid out as block_sum's, elsewhere (ranks
 * holding their own particles alone gather the blocks that gave anything,
 * in the whole's order). */
void walls_gather_from(walls *w, const vec3 *block_sum, size_t n_blocks);

void walls_clear(walls *w);

/* Each body's state (pose now and at the lists, servo travel, last force,
 * torque, stiffness and damping) for checkpoints, and back into the same
 * bodies; an error (no file name) for another count or a value not finite. */
void walls_write_state(const walls *w, bytes_out *o);
grains_status walls_read_state(walls *w, bytes_in *in, grains_error *err);

#endif
