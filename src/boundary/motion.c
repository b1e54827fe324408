/* Prescribed rigid motions: linear, rotation (with a translation), sine
 * vibration, and tables interpolated linearly. */
#include "boundary/motion.h"

#include <math.h>

#define PI 3.14159265358979323846

vec3 motion_turn(vec3 axis, real angle, vec3 r)
{
    real c = cos(angle), s = sin(angle);
    vec3 along = v3_scale(v3_dot(axis, r) * (1 - c), axis);
    return v3_add(v3_add(v3_scale(c, r), v3_scale(s, v3_cross(axis, r))), along);
}

/* The table row k with t_k <= t < t_k+1 (clamped to the ends). */
static size_t table_row(const grains_motion *m, real t)
{
    size_t lo = 0, hi = m->n_table - 1;
    if (t <= m->table[0].t)
        return 0;
    if (t >= m->table[hi].t)
        return hi;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->table[mid].t <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Shift and angle at t; their rates on the segment that holds t_rate. */
static void table_at(const grains_motion *m, real t_pose, real t_rate, motion_state *s)
{
    const grains_motion_sample *tb = m->table;
    size_t k = table_row(m, t_pose), last = m->n_table - 1;
    if (k == last || t_pose <= tb[0].t) {
        s->shift = tb[k].x;
        s->angle = tb[k].angle;
    } else {
        real u = (t_pose - tb[k].t) / (tb[k + 1].t - tb[k].t);
        s->shift = v3_add(tb[k].x, v3_scale(u, v3_sub(tb[k + 1].x, tb[k].x)));
        s->angle = tb[k].angle + u * (tb[k + 1].angle - tb[k].angle);
    }
    k = table_row(m, t_rate);
    if (k == last || t_rate < tb[0].t) { /* at rest before the first row and after the last */
        s->velocity = v3(0, 0, 0);
        s->omega = 0;
        return;
    }
    real inv = 1 / (tb[k + 1].t - tb[k].t);
    s->velocity = v3_scale(inv, v3_sub(tb[k + 1].x, tb[k].x));
    s->omega = inv * (tb[k + 1].angle - tb[k].angle);
}

motion_state motion_at(const grains_motion *m, real t_pose, real t_rate)
{
    motion_state s = {{0, 0, 0}, 0, {0, 0, 0}, 0};
    switch (m->type) {
    case GRAINS_MOTION_FIXED:
    case GRAINS_MOTION_SERVO: break;
    case GRAINS_MOTION_ROTATE: /* with the linear motion's translation */
        s.angle = m->omega * t_pose;
        s.omega = m->omega;
        s.shift = v3_scale(t_pose, m->velocity);
        s.velocity = m->velocity;
        break;
    case GRAINS_MOTION_LINEAR:
        s.shift = v3_scale(t_pose, m->velocity);
        s.velocity = m->velocity;
        break;
    case GRAINS_MOTION_VIBRATE: {
        real w = 2 * PI * m->frequency;
        s.shift = v3_scale(m->amplitude * sin(w * t_pose + m->phase), m->axis);
        s.velocity = v3_scale(m->amplitude * w * cos(w * t_rate + m->phase), m->axis);
        break;
    }
    case GRAINS_MOTION_TABLE: table_at(m, t_pose, t_rate, &s); break;
    }
    return s;
}

#define REQUIRE(cond, ...) \
    do { if (!(cond)) return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, __VA_ARGS__); } while (0)

static int finite3(vec3 v) { return v3_isfinite(v); }

static grains_status check_table(const grains_motion *m, grains_error *err)
{
    REQUIRE(m->table && m->n_table >= 1, "table: a table motion needs at least one row");
    for (size_t k = 0; k < m->n_table; k++) {
        const grains_motion_sample *r = &m->table[k];
        REQUIRE(isfinite(r->t) && finite3(r->x) && isfinite(r->angle), "table: row %zu is not finite", k + 1);
        REQUIRE(k == 0 || r->t > m->table[k - 1].t, "table: time %g on row %zu does not increase (row %zu has %g)",
                r->t, k + 1, k, m->table[k - 1].t);
    }
    return GRAINS_OK;
}

grains_status motion_check(const grains_motion *m, grains_error *err)
{
    REQUIRE(m->type >= GRAINS_MOTION_FIXED && m->type <= GRAINS_MOTION_SERVO, "type: unknown motion");
    REQUIRE(finite3(m->velocity), "velocity: must be finite");
    REQUIRE(finite3(m->point), "point: must be finite");
    REQUIRE(finite3(m->axis) && v3_dot(m->axis, m->axis) > 0, "axis = (%g, %g, %g): must be finite and non-zero",
            m->axis.x, m->axis.y, m->axis.z);
    REQUIRE(isfinite(m->omega), "omega = %g: must be finite", m->omega);
    switch (m->type) {
    case GRAINS_MOTION_VIBRATE:
        REQUIRE(isfinite(m->amplitude) && m->amplitude >= 0, "amplitude = %g: must be >= 0", m->amplitude);
        REQUIRE(isfinite(m->frequency) && m->frequency > 0, "frequency = %g: must be > 0", m->frequency);
        REQUIRE(isfinite(m->phase), "phase = %g: must be finite", m->phase);
        break;
    case GRAINS_MOTION_TABLE: return check_table(m, err);
    case GRAINS_MOTION_SERVO:
        REQUIRE(isfinite(m->force) && m->force > 0, "force = %g: a servo's target force must be > 0", m->force);
        REQUIRE(isfinite(m->max_speed) && m->max_speed > 0, "max_speed = %g: must be > 0", m->max_speed);
        REQUIRE(isfinite(m->gain) && m->gain >= 0, "gain = %g: must be >= 0 (0: max_speed / force)", m->gain);
        REQUIRE(isfinite(m->travel) && m->travel >= 0, "travel = %g: must be >= 0 (0: no limit)", m->travel);
        REQUIRE(isfinite(m->load_after) && m->load_after >= 0, "load_after = %g: must be >= 0 (0: never)",
                m->load_after);
        REQUIRE(isfinite(m->load_speed) && m->load_speed >= 0, "load_speed = %g: must be >= 0", m->load_speed);
        REQUIRE(fabs(v3_dot(m->velocity, m->axis)) <= 1e-12 * v3_norm(m->velocity) * v3_norm(m->axis),
                "velocity = (%g, %g, %g): a servo's velocity moves it across its axis (a shear at the held "
                "force), and must be normal to the axis", m->velocity.x, m->velocity.y, m->velocity.z);
        break;
    default: break;
    }
    return GRAINS_OK;
}
