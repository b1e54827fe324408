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

/* Body b's pose at t_pose with the rates at t_rate: its motion's, from
 * where it was when the motion was given (walls_set_motion). */
static motion_state pose_at(const wall_body *b, real t_pose, real t_rate)
{
    motion_state m = motion_at(&b->motion, t_pose, t_rate);
    if (!b->changed)
        return m;
    motion_state at_change = motion_at(&b->motion, b->t_from, b->t_from);
    m.shift = v3_add(b->from.shift, v3_sub(m.shift, at_change.shift));
    m.angle = b->from.angle + (m.angle - at_change.angle);
    return m;
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
    b->now.shift = v3_add(b->changed ? b->from.shift : v3(0, 0, 0), v3_scale(b->servo_s, b->motion.axis));
    b->now.velocity = v3_scale(u, b->motion.axis);
    if (v3_dot(m->velocity, m->velocity) > 0 || v3_dot(b->servo_side, b->servo_side) > 0) {
        /* across the axis too: a shear (or a side shift set_wall gave); none: the bits, -0 too, as before */
        b->servo_side = v3_add(b->servo_side, v3_scale(dt > 0 ? dt : 0, m->velocity));
        b->now.shift = v3_add(b->now.shift, b->servo_side);
        b->now.velocity = v3_add(b->now.velocity, m->velocity);
    }
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
            b->now = pose_at(b, t, t);
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
            b->now = pose_at(b, t_pose, t_rate);
        }
        b->t_moved = t_pose;
        place(w, b, combined);
    }
    return GRAINS_OK;
}

real walls_reach(const walls *w, size_t k, vec3 point)
{
    const wall_body *b = &w->body[k];
    real reach = 0;
    for (uint32_t v = b->first_vertex; v < b->first_vertex + b->n_vertices; v++)
        reach = fmax(reach, v3_norm(v3_sub(w->x_ref[v], point)));
    return reach;
}

static int same_line(vec3 axis_a, vec3 point_a, vec3 axis_b, vec3 point_b)
{
    return v3_norm(v3_sub(axis_a, axis_b)) == 0 && v3_norm(v3_sub(point_a, point_b)) == 0;
}

grains_status walls_set_motion(walls *w, grains_mesh *combined, size_t k, const grains_motion *m, real t,
                               grains_error *err)
{
    grains_status s = motion_check(m, err);
    if (s != GRAINS_OK)
        return s;
    wall_body *b = &w->body[k], nb = *b;
    nb.motion = *m;
    nb.table = NULL;
    nb.motion.axis = v3_scale(1 / v3_norm(m->axis), m->axis);
    if (b->now.angle != 0 && !same_line(nb.motion.axis, m->point, b->motion.axis, b->motion.point))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "mesh %zu is turned %.9g rad about its motion's axis: a new motion keeps that axis "
                                "and point", k, b->now.angle);
    if ((s = copy_table(&nb, err)) != GRAINS_OK)
        return s;
    free(b->table);
    nb.changed = 1;
    nb.t_from = t;
    nb.from = (motion_state){b->now.shift, b->now.angle, v3(0, 0, 0), 0};
    nb.now = nb.from;
    nb.servo_s = 0;
    nb.servo_side = v3(0, 0, 0);
    nb.moving = m->type != GRAINS_MOTION_FIXED;
    nb.reach = walls_reach(w, k, nb.motion.point);
    if (nb.moving && m->type != GRAINS_MOTION_SERVO)
        nb.now = pose_at(&nb, t, t);
    nb.t_moved = t;
    *b = nb;
    w->any_moving |= b->moving;
    place(w, b, combined);
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

/* The reals of a body's state, in the order written (a changed motion's come after). */
#define BODY_REALS 31

/* A motion given mid-run (walls_set_motion): the scenario cannot build it again. */
static void put_motion(bytes_out *o, const grains_motion *m)
{
    bytes_put_u32(o, (uint32_t)m->type);
    bytes_put_reals(o, (const real *)&m->velocity, 3);
    bytes_put_reals(o, (const real *)&m->axis, 3);
    bytes_put_reals(o, (const real *)&m->point, 3);
    const real r[] = {m->omega, m->amplitude, m->frequency, m->phase, m->force, m->max_speed, m->gain, m->travel,
                      m->load_after, m->load_speed};
    bytes_put_reals(o, r, sizeof r / sizeof *r);
    bytes_put_u64(o, m->n_table);
    for (size_t k = 0; k < m->n_table; k++) {
        bytes_put_real(o, m->table[k].t);
        bytes_put_reals(o, (const real *)&m->table[k].x, 3);
        bytes_put_real(o, m->table[k].angle);
    }
}

/* A motion as put_motion wrote it, its table rows into *rows (malloc'd). */
static grains_status get_motion(bytes_in *in, grains_motion *m, grains_motion_sample **rows, grains_error *err)
{
    *m = (grains_motion){0};
    uint32_t type = bytes_get_u32(in);
    m->type = type < GRAINS_N_MOTIONS ? (grains_motion_type)type : GRAINS_MOTION_FIXED;
    bytes_get_reals(in, (real *)&m->velocity, 3);
    bytes_get_reals(in, (real *)&m->axis, 3);
    bytes_get_reals(in, (real *)&m->point, 3);
    real r[10];
    bytes_get_reals(in, r, 10);
    m->omega = r[0], m->amplitude = r[1], m->frequency = r[2], m->phase = r[3], m->force = r[4];
    m->max_speed = r[5], m->gain = r[6], m->travel = r[7], m->load_after = r[8], m->load_speed = r[9];
    size_t n;
    if (type >= GRAINS_N_MOTIONS || !bytes_get_count(in, 5 * sizeof(real), SIZE_MAX, &n))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: a mesh's motion");
    if (n && !(*rows = malloc(n * sizeof **rows)))
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for a motion table of %zu rows", n);
    for (size_t k = 0; k < n; k++) {
        (*rows)[k].t = bytes_get_real(in);
        bytes_get_reals(in, (real *)&(*rows)[k].x, 3);
        (*rows)[k].angle = bytes_get_real(in);
    }
    m->table = *rows;
    m->n_table = n;
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in a mesh's motion") : GRAINS_OK;
}

void walls_write_state(const walls *w, bytes_out *o)
{
    bytes_put_u64(o, w->n);
    for (size_t k = 0; k < w->n; k++) {
        const wall_body *b = &w->body[k];
        put_pose(o, &b->now);
        put_pose(o, &b->listed);
        bytes_put_real(o, b->t_moved);
        bytes_put_real(o, b->servo_s);
        bytes_put_reals(o, (const real *)&b->servo_side, 3);
        bytes_put_reals(o, (const real *)&b->force, 3);
        bytes_put_reals(o, (const real *)&b->torque, 3);
        bytes_put_real(o, b->stiffness);
        bytes_put_real(o, b->damping);
        bytes_put_u32(o, (uint32_t)b->removed);
        bytes_put_u32(o, (uint32_t)b->changed);
        if (b->changed) {
            put_motion(o, &b->motion);
            put_pose(o, &b->from);
            bytes_put_real(o, b->t_from);
        }
    }
}

static int pose_finite(const motion_state *m)
{
    return v3_isfinite(m->shift) && isfinite(m->angle) && v3_isfinite(m->velocity) && isfinite(m->omega);
}

static int body_finite(const wall_body *b)
{
    return pose_finite(&b->now) && pose_finite(&b->listed) && isfinite(b->t_moved) && isfinite(b->servo_s) &&
           v3_isfinite(b->servo_side) &&
           v3_isfinite(b->force) && v3_isfinite(b->torque) &&
           isfinite(b->stiffness) && isfinite(b->damping);
}

/* Body k's motion given mid-run, as walls_write_state wrote it: checked
 * as walls_set_motion checks one. */
static grains_status read_changed(walls *w, size_t k, bytes_in *in, grains_error *err)
{
    wall_body *b = &w->body[k];
    grains_motion m;
    grains_motion_sample *rows = NULL;
    grains_status s = get_motion(in, &m, &rows, err);
    motion_state from;
    get_pose(in, &from);
    real t_from = bytes_get_real(in);
    if (s == GRAINS_OK && (in->bad || !pose_finite(&from) || !isfinite(t_from) || motion_check(&m, NULL) != GRAINS_OK))
        s = grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: mesh %zu's motion", k);
    if (s == GRAINS_OK) {
        free(b->table);
        b->motion = m;
        b->motion.axis = v3_scale(1 / v3_norm(m.axis), m.axis);
        b->table = rows;
        rows = NULL;
        b->changed = 1;
        b->from = from;
        b->t_from = t_from;
        b->moving = m.type != GRAINS_MOTION_FIXED;
        w->any_moving |= b->moving;
        b->reach = walls_reach(w, k, b->motion.point);
    }
    free(rows);
    return s;
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
        bytes_get_reals(in, (real *)&b->servo_side, 3);
        bytes_get_reals(in, (real *)&b->force, 3);
        bytes_get_reals(in, (real *)&b->torque, 3);
        b->stiffness = bytes_get_real(in);
        b->damping = bytes_get_real(in);
        if (!in->bad && !body_finite(b))
            return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: mesh %zu's state is not finite", k);
        b->removed = bytes_get_u32(in) != 0;
        grains_status s = bytes_get_u32(in) ? read_changed(w, k, in, err) : GRAINS_OK;
        if (s != GRAINS_OK)
            return s;
    }
    return in->bad ? grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in the meshes' state") : GRAINS_OK;
}
