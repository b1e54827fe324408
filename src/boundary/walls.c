/* Meshes as rigid bodies: motion, displacement bound, force and torque. */
#include "boundary/walls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

static grains_status copy_table(wall_body *b, grains_error *err)
{
    if (b->motion.type != GRAINS_MOTION_TABLE) {
        b->motion.table = NULL;
        b->motion.n_table = 0;
        return GRAINS_OK;
    }
    b->table = malloc(b->motion.n_table * sizeof *b->table);
    if (!b->table)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a motion table of %zu rows",
                                b->motion.n_table);
    memcpy(b->table, b->motion.table, b->motion.n_table * sizeof *b->table);
    b->motion.table = b->table;
    return GRAINS_OK;
}

static void place(const walls *w, const wall_body *b, grains_mesh *combined);

grains_status walls_add(walls *w, grains_mesh *combined, uint32_t first, uint32_t n, const grains_motion *m, real t,
                        grains_error *err)
{
    grains_status s = motion_check(m, err);
    if (s != GRAINS_OK)
        return s;
    if (!array_reserve((void **)&w->body, &w->cap, w->n + 1, sizeof *w->body, 1) ||
        !array_reserve((void **)&w->x_ref, &w->x_ref_cap, combined->n_vertices, sizeof *w->x_ref, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory adding a mesh");
    wall_body *b = &w->body[w->n];
    memset(b, 0, sizeof *b);
    b->motion = *m;
    b->motion.axis = v3_scale(1 / v3_norm(m->axis), m->axis);
    if ((s = copy_table(b, err)) != GRAINS_OK)
        return s;
    b->first_vertex = first;
    b->n_vertices = n;
    b->moving = m->type != GRAINS_MOTION_FIXED;
    for (uint32_t k = first; k < first + n; k++) {
        w->x_ref[k] = combined->vertices[k];
        b->reach = fmax(b->reach, v3_norm(v3_sub(combined->vertices[k], b->motion.point)));
    }
    /* a servo starts where its file puts it, now; the others at their pose at t */
    b->t_moved = t;
    if (b->moving && m->type != GRAINS_MOTION_SERVO) {
        b->now = motion_at(&b->motion, t, t);
        place(w, b, combined);
    }
    w->any_moving |= b->moving;
    w->n++;
    return GRAINS_OK;
}

/* The servo's speed along its axis. The load is the particles' push
 * against the direction of travel. By default each step closes half of the
 * force still missing, as a Newton step on the contacts' response: a step
 * ds changes the load by (K + C / dt) ds, with K and C the sums of the
 * stiffness and damping of the servo's contacts (as YADE's stress
 * controllers use the walls' stiffness). Their particles are backed by
 * softer contacts in series, so the true response is smaller and the step
 * undershoots: no overshoot from the servo itself. With a gain set, the
 * speed is gain x (force missing). Never faster than max_speed; without
 * contacts, max_speed towards the particles. */
static real servo_speed(const wall_body *b, real dt)
{
    const grains_motion *m = &b->motion;
    real missing = m->force + v3_dot(b->force, m->axis);
    real response = b->stiffness * dt + b->damping;
    real u = m->gain > 0 ? m->gain * missing : response > 0 ? 0.5 * missing / response : m->max_speed;
    return fmax(-m->max_speed, fmin(m->max_speed, u));
}

static grains_status move_servo(wall_body *b, real t_pose, grains_error *err)
{
    real dt = t_pose - b->t_moved;
    const grains_motion *m = &b->motion;
    int loading = m->load_after > 0 && t_pose > m->load_after; /* after consolidation */
    real u = dt > 0 ? (loading ? m->load_speed : servo_speed(b, dt)) : 0;
    b->servo_s += u * dt;
    b->now.shift = v3_scale(b->servo_s, b->motion.axis);
    b->now.velocity = v3_scale(u, b->motion.axis);
    if (b->motion.travel > 0 && fabs(b->servo_s) > b->motion.travel)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "servo ran out of travel at t = %.9g: it moved %g along its axis, travel = %g; the "
                                "particles cannot push back with force = %g within that distance",
                                t_pose, b->servo_s, b->motion.travel, b->motion.force);
    return GRAINS_OK;
}

/* The vertices of body b at its pose `now`. */
static void place(const walls *w, const wall_body *b, grains_mesh *combined)
{
    for (uint32_t k = b->first_vertex; k < b->first_vertex + b->n_vertices; k++)
        combined->vertices[k] = walls_point_now(b, w->x_ref[k]);
}

void walls_place(const walls *w, grains_mesh *combined, size_t k)
{
    place(w, &w->body[k], combined);
}

void walls_set_clock(walls *w, grains_mesh *combined, real t)
{
    for (size_t k = 0; k < w->n; k++) {
        wall_body *b = &w->body[k];
        if (b->moving && b->motion.type != GRAINS_MOTION_SERVO) {
            b->now = motion_at(&b->motion, t, t);
            place(w, b, combined);
        }
        b->t_moved = t;
    }
}

grains_status walls_move(walls *w, grains_mesh *combined, real t_pose, real t_rate, grains_error *err)
{
    for (size_t k = 0; k < w->n; k++) {
        wall_body *b = &w->body[k];
        if (!b->moving)
            continue;
        if (b->motion.type == GRAINS_MOTION_SERVO) {
            grains_status s = move_servo(b, t_pose, err);
            if (s != GRAINS_OK)
                return s;
        } else {
            b->now = motion_at(&b->motion, t_pose, t_rate);
        }
        b->t_moved = t_pose;
        place(w, b, combined);
    }
    return GRAINS_OK;
}

/* A rigid motion moves each point of an element by a convex combination of
 * its vertices' displacements: the bound over vertices holds for the whole
 * element. A turn by a about the axis moves a point at distance r by
 * 2 r |sin(a/2)|. */
real walls_displacement(const walls *w)
{
    real most = 0;
    for (size_t k = 0; w->any_moving && k < w->n; k++) {
        const wall_body *b = &w->body[k];
        if (!b->moving)
            continue;
        real turned = 2 * b->reach * fabs(sin((b->now.angle - b->listed.angle) / 2));
        most = fmax(most, v3_norm(v3_sub(b->now.shift, b->listed.shift)) + turned);
    }
    return most;
}

void walls_listed(walls *w, grains_mesh *combined)
{
    if (!w->any_moving)
        return;
    for (size_t k = 0; k < w->n; k++)
        w->body[k].listed = w->body[k].now;
    grains_mesh_update_bounds(combined);
}

grains_status walls_reserve_blocks(walls *w, size_t n_blocks, grains_error *err)
{
    if (!w->n)
        return GRAINS_OK;
    if (!array_reserve((void **)&w->block_sum, &w->block_cap, WALL_SUMS * w->n * (n_blocks ? n_blocks : 1),
                       sizeof *w->block_sum, 1))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the forces on %zu meshes", w->n);
    return GRAINS_OK;
}

void walls_gather(walls *w, size_t n_blocks) { walls_gather_from(w, w->block_sum, n_blocks); }

void walls_gather_from(walls *w, const vec3 *block_sum, size_t n_blocks)
{
    for (size_t k = 0; k < w->n; k++) {
        vec3 sum[WALL_SUMS] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        for (size_t b = 0; b < n_blocks; b++)
            for (int a = 0; a < WALL_SUMS; a++)
                sum[a] = v3_add(sum[a], block_sum[WALL_SUMS * (b * w->n + k) + a]);
        wall_body *body = &w->body[k];
        vec3 centre = v3_add(body->motion.point, body->now.shift);
        /* Newton's third law: the mesh gets minus what its contacts gave the particles */
        body->force = v3_neg(sum[0]);
        body->torque = v3_neg(v3_sub(sum[1], v3_cross(centre, sum[0])));
        body->stiffness = sum[2].x;
        body->damping = sum[2].y;
    }
}

void walls_clear(walls *w)
{
    for (size_t k = 0; k < w->n; k++)
        free(w->body[k].table);
    free(w->body);
    free(w->x_ref);
    free(w->block_sum);
    memset(w, 0, sizeof *w);
}

static void put_pose(bytes_out *o, const motion_state *m)
{
    bytes_put_reals(o, (const real *)&m->shift, 3);
    bytes_put_real(o, m->angle);
    bytes_put_reals(o, (const real *)&m->velocity, 3);
    bytes_put_real(o, m->omega);
}

static void get_pose(bytes_in *in, motion_state *m)
{
    bytes_get_reals(in, (real *)&m->shift, 3);
    m->angle = bytes_get_real(in);
    bytes_get_reals(in, (real *)&m->velocity, 3);
    m->omega = bytes_get_real(in);
}

/* The reals of a body's state, in the order written. */
#define BODY_REALS 28

void walls_write_state(const walls *w, bytes_out *o)
{
    bytes_put_u64(o, w->n);
    for (size_t k = 0; k < w->n; k++) {
        const wall_body *b = &w->body[k];
        put_pose(o, &b->now);
        put_pose(o, &b->listed);
        bytes_put_real(o, b->t_moved);
        bytes_put_real(o, b->servo_s);
        bytes_put_reals(o, (const real *)&b->force, 3);
        bytes_put_reals(o, (const real *)&b->torque, 3);
        bytes_put_real(o, b->stiffness);
        bytes_put_real(o, b->damping);
    }
}

static int pose_finite(const motion_state *m)
{
    return v3_isfinite(m->shift) && isfinite(m->angle) && v3_isfinite(m->velocity) && isfinite(m->omega);
}

static int body_finite(const wall_body *b)
{
    return pose_finite(&b->now) && pose_finite(&b->listed) && isfinite(b->t_moved) && isfinite(b->servo_s) &&
           v3_isfinite(b->force) && v3_isfinite(b->torque) &&
           isfinite(b->stiffness) && isfinite(b->damping);
}

grains_status walls_read_state(walls *w, bytes_in *in, grains_error *err)
{
    size_t n;
    if (!bytes_get_count(in, BODY_REALS * sizeof(real), w->n, &n) || n != w->n)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: not the run's %zu meshes", w->n);
    for (size_t k = 0; k < n; k++) {
        wall_body *b = &w->body[k];
        get_pose(in, &b->now);
        get_pose(in, &b->listed);
        b->t_moved = bytes_get_real(in);
        b->servo_s = bytes_get_real(in);
        bytes_get_reals(in, (real *)&b->force, 3);
        bytes_get_reals(in, (real *)&b->torque, 3);
        b->stiffness = bytes_get_real(in);
        b->damping = bytes_get_real(in);
        if (!in->bad && !body_finite(b))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: mesh %zu's state is not finite", k);
    }
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the meshes' state") : GRAINS_OK;
}
