/* How a mesh moves: a rigid motion given by a translation ("shift") of the
 * mesh from where its file puts it and a rotation by an angle about an axis
 * through a point that moves with the shift. Prescribed motions are
 * functions of time; a servo moves along its axis so that the particles'
 * force on the mesh reaches a target (docs/scenario.md, "Meshes that move"). */
#ifndef GRAINS_MOTION_H
#define GRAINS_MOTION_H

#include <stddef.h>

#include "grains/api.h"
#include "grains/choices.h"
#include "grains/real.h"

GRAINS_API_BEGIN

#define GRAINS_ENUM_MOTION(id, name, doc) GRAINS_MOTION_##id,
typedef enum { GRAINS_MOTION_LIST(GRAINS_ENUM_MOTION) } grains_motion_type;
#define GRAINS_N_MOTIONS (0 GRAINS_MOTION_LIST(GRAINS_COUNT3))

/* One row of a table motion: at time t the mesh is shifted by x and turned
 * by angle about the axis. */
typedef struct {
    real t;          /* [T] strictly increasing from row to row */
    grains_vec3 x;   /* [L] */
    real angle;      /* [rad] */
} grains_motion_sample;

typedef struct {
    grains_motion_type type;
    grains_vec3 velocity;     /* [L/T] linear; the translation added to a rotation; a servo's
                               * own across its axis (a shear at the held force) */
    grains_vec3 axis;         /* rotate, table: rotation axis; vibrate: direction of the
                               * displacement; servo: direction of travel (any length > 0) */
    grains_vec3 point;        /* [L] a point of the rotation axis at t = 0; torques on the mesh
                               * are reported about it (as it moves with the shift) */
    real omega;               /* [1/T] rotate: angular speed about axis (right-handed) */
    real amplitude;           /* [L] vibrate */
    real frequency;           /* [1/T] vibrate */
    real phase;               /* [rad] vibrate */
    const grains_motion_sample *table; /* table: rows, copied by grains_sim_add_mesh */
    size_t n_table;
    real force;               /* [ML/T^2] servo: target force of the particles on the mesh,
                               * against its direction of travel (> 0) */
    real max_speed;           /* [L/T] servo: fastest travel (> 0) */
    real gain;                /* [L/(T F)] servo: speed per unit of force short of the target;
                               * 0 = max_speed / force (full speed when unloaded) */
    real travel;              /* [L] servo: the run stops with an error past this distance
                               * from the start; 0 = no limit */
    real load_after;          /* [T] servo: from this time on it stops seeking the force and
                               * moves at load_speed along its axis (strain-controlled loading,
                               * as a triaxial test's platens after consolidation); 0 = never */
    real load_speed;          /* [L/T] servo: the speed along its axis after load_after (>= 0) */
} grains_motion;

/* A mesh that does not move. */
static inline grains_motion grains_motion_fixed(void)
{
    grains_motion m = {0};
    m.type = GRAINS_MOTION_FIXED;
    m.axis.z = 1;
    return m;
}

GRAINS_API_END

#endif
