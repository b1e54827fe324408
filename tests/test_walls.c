/* Meshes that move (docs/scenario.md, "Meshes that move"). Each test states
 * the physical fact it checks:
 * - a plate moving at U hits a sphere at rest and gives it U (1 + e), the
 *   same to round-off as the sphere hitting the plate at rest at -U
 *   (Galilean invariance);
 * - a sphere dropped on a belt moving at V ends rolling at 2V/7;
 * - a rotating paddle gives a sphere at rest (1 + e) omega r;
 * - a plate vibrating below 1 g carries a sphere; above 1 g it takes off;
 * - a closed box moving at constant velocity gives the same relative motion
 *   as a box at rest;
 * - the force on the walls is minus the sum of their contact forces
 *   (momentum balance of the particles), and the torque on a floor is the
 *   moment of the weight resting on it;
 * - a servo lid holds its target force;
 * - a servo's state is state: a sphere pressed by a servo lid, copied into
 *   a fresh simulation with its contacts, the walls' state and the step
 *   count, continues bit for bit; without the walls' state the lid starts
 *   again from its file's pose;
 * - a floor started mid-run as a belt is shifted by V (t - t1) and gives a
 *   sphere on it 2V/7; stopped, it stays; a checkpoint keeps its motion;
 * - a sphere whose floor is removed falls freely, touching nothing;
 * - all of it gives the same bits on any number of threads. */
#include <string.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "support.h"

#define PI 3.14159265358979323846

static const char *const names[] = {"euler", "verlet", "verlet_improved"};

/* A mesh of n rectangles, corners 4k .. 4k+3 in order. */
static grains_mesh *rectangles(const grains_vec3 *corner, int n)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    for (int r = 0; r < n; r++) {
        for (int k = 0; k < 4; k++)
            grains_mesh_add_vertex(m, corner[4 * r + k], &err);
        uint32_t v[4] = {4 * (uint32_t)r, 4 * (uint32_t)r + 1, 4 * (uint32_t)r + 2, 4 * (uint32_t)r + 3};
        if (grains_mesh_add_element(m, 4, v, 0, 0, &err) != GRAINS_OK) {
            fprintf(stderr, "rectangles: %s\n", err.message);
            exit(1);
        }
    }
    return m;
}

static void add_mesh(grains_sim *sim, grains_mesh *m, const grains_motion *motion)
{
    grains_error err;
    if (grains_sim_add_mesh(sim, m, motion, &err) != GRAINS_OK) {
        fprintf(stderr, "add_mesh: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(m);
}

/* Steps until the particles have touched something and are free again. */
static void until_parted(grains_sim *sim)
{
    grains_thermo th;
    int touched = 0;
    for (long k = 0; k < 1000000; k++) {
        advance(sim, 1);
        grains_sim_thermo(sim, &th);
        touched |= th.n_contacts > 0;
        if (touched && th.n_contacts == 0)
            return;
    }
}

static grains_params impact_params(int integrator)
{
    grains_params p = scene_params();
    p.integrator = (grains_integrator)integrator;
    p.R_min = p.R_max = 0.01;
    p.E = 1e7;
    p.e_n = 0.5;
    p.dt = grains_params_default_dt(&p) / 10; /* about 100 steps per contact */
    return p;
}

/* The plate x = x0 (square, side 0.2) moving at u along x. */
static grains_mesh *plate_x(double x0)
{
    const grains_vec3 c[4] = {{x0, -0.1, -0.1}, {x0, 0.1, -0.1}, {x0, 0.1, 0.1}, {x0, -0.1, 0.1}};
    return rectangles(c, 1);
}

static double moving_plate(int integrator, double U, double v_sphere)
{
    grains_params p = impact_params(integrator);
    grains_sim *sim = scene(&p);
    grains_motion m = grains_motion_fixed();
    if (U != 0) {
        m.type = GRAINS_MOTION_LINEAR;
        m.velocity = (grains_vec3){U, 0, 0};
    }
    add_mesh(sim, plate_x(0), &m);
    add(sim, (grains_vec3){0.0101, 0, 0}, (grains_vec3){v_sphere, 0, 0}, (grains_vec3){0, 0, 0}, 0.01);
    until_parted(sim);
    double v = get(sim, 0).v.x;
    grains_sim_destroy(sim);
    return v;
}

static void plate_hits_sphere(test_ctx *t)
{
    const double U = 0.5, e = 0.5;
    for (int k = 0; k < 3; k++) {
        double moving = moving_plate(k, U, 0), still = moving_plate(k, 0, -U);
        printf("  %s: plate at %g m/s gives %.9f m/s, U(1+e) = %g; sphere at -U off a plate at rest: %.9f\n",
               names[k], U, moving, U * (1 + e), still);
        /* Hertz-Mindlin's damping (Eq. 21) meets e_n to 2e-3 (docs/model.md) */
        CHECK_REL(t, moving, U * (1 + e), 3e-3, "plate hits sphere");
        CHECK_ABS(t, moving - U, still, 1e-12, "Galilean: in the plate's frame the same bounce");
    }
}

/* A sphere set down on a belt (z = 0) moving at V along x. */
static void belt(test_ctx *t)
{
    const double V = 0.1, R = 0.01;
    for (int k = 0; k < 3; k++) {
        grains_params p = impact_params(k);
        p.g = (grains_vec3){0, 0, -9.81};
        p.mu_s = 0.5, p.mu_r = 0, p.mu_t = 0;
        grains_sim *sim = scene(&p);
        grains_motion m = grains_motion_fixed();
        m.type = GRAINS_MOTION_LINEAR;
        m.velocity = (grains_vec3){V, 0, 0};
        const grains_vec3 c[4] = {{-1, -0.1, 0}, {1, -0.1, 0}, {1, 0.1, 0}, {-1, 0.1, 0}};
        add_mesh(sim, rectangles(c, 1), &m);
        add(sim, (grains_vec3){0, 0, R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
        advance(sim, (long)(0.2 / grains_sim_params(sim)->dt)); /* slipping ends after 2V / (7 mu g) = 6 ms */
        grains_particle s = get(sim, 0);
        printf("  %s: belt at %g m/s: sphere at %.6f m/s (2V/7 = %.6f), spin %.4f rad/s (v/R = %.4f)\n", names[k], V,
               s.v.x, 2 * V / 7, s.w.y, s.v.x / R);
        /* the contact spring rings at the resting overlap: 1e-3 */
        CHECK_REL(t, s.v.x, 2 * V / 7, 1e-3, "sphere on a belt ends at 2V/7");
        CHECK_REL(t, s.w.y, (s.v.x - V) / R, 1e-3 * 7 / 5, "rolling without slip on the belt");
        grains_sim_destroy(sim);
    }
}

/* A paddle in the plane y = 0 from the axis to r = 0.2, turning about z at
 * omega: by a rotate motion, or (table) by a table of two rows, (0, 0) and
 * (1 s, omega rad), whose interpolation is the same function of time. */
static grains_particle paddle_run(int integrator, double omega, int table)
{
    grains_params p = impact_params(integrator);
    p.mu_s = 0;
    grains_sim *sim = scene(&p);
    grains_motion m = grains_motion_fixed();
    const grains_motion_sample rows[2] = {{0, {0, 0, 0}, 0}, {1, {0, 0, 0}, omega}};
    m.type = table ? GRAINS_MOTION_TABLE : GRAINS_MOTION_ROTATE;
    m.axis = (grains_vec3){0, 0, 1};
    m.omega = table ? 0 : omega;
    m.table = rows, m.n_table = table ? 2 : 0;
    const grains_vec3 c[4] = {{0, 0, -0.05}, {0.2, 0, -0.05}, {0.2, 0, 0.05}, {0, 0, 0.05}};
    add_mesh(sim, rectangles(c, 1), &m);
    add(sim, (grains_vec3){0.1, 0.0101, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.01);
    until_parted(sim);
    grains_particle s = get(sim, 0);
    grains_sim_destroy(sim);
    return s;
}

static void paddle(test_ctx *t)
{
    const double omega = 2, r = 0.1, e = 0.5;
    for (int k = 0; k < 3; k++) {
        grains_particle s = paddle_run(k, omega, 0), s_table = paddle_run(k, omega, 1);
        double speed = sqrt(s.v.x * s.v.x + s.v.y * s.v.y);
        printf("  %s: paddle at %g rad/s hits at r = %g: %.6f m/s, (1+e) omega r = %g\n", names[k], omega, r, speed,
               (1 + e) * omega * r);
        /* the paddle turns 1e-3 rad during the contact: the normal moves by that */
        CHECK_REL(t, speed, (1 + e) * omega * r, 5e-3, "rotating paddle gives (1+e) omega r");
        CHECK(t, same_particle(s, s_table), "%s: a table of the same rotation gives the same bits", names[k]);
    }
}

/* A sphere on a plate vibrating along z at 10 Hz with peak acceleration
 * gamma g, starting at its top (phase pi/2, at rest): the fraction of steps
 * after the first period in which the sphere is off the plate. */
static double vibrating(int integrator, double gamma)
{
    const double f = 10, A = gamma * 9.81 / (4 * PI * PI * f * f), R = 0.005;
    grains_params p = impact_params(integrator);
    p.R_min = p.R_max = R;
    p.E = 1e9;
    p.g = (grains_vec3){0, 0, -9.81};
    grains_sim *sim = scene(&p);
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_VIBRATE;
    m.axis = (grains_vec3){0, 0, 1};
    m.amplitude = A, m.frequency = f, m.phase = PI / 2;
    const grains_vec3 c[4] = {{-0.1, -0.1, 0}, {0.1, -0.1, 0}, {0.1, 0.1, 0}, {-0.1, 0.1, 0}};
    add_mesh(sim, rectangles(c, 1), &m);
    add(sim, (grains_vec3){0, 0, A + R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    long period = (long)(1 / (f * grains_sim_params(sim)->dt)), off = 0;
    advance(sim, period);
    grains_thermo th;
    for (long k = 0; k < 2 * period; k++) {
        advance(sim, 1);
        grains_sim_thermo(sim, &th);
        off += th.n_contacts == 0;
    }
    grains_sim_destroy(sim);
    return (double)off / (double)(2 * period);
}

static void vibration(test_ctx *t)
{
    for (int k = 0; k < 3; k++) {
        double below = vibrating(k, 0.5), above = vibrating(k, 2);
        printf("  %s: vibrating plate: off the plate %.3f of the time at 0.5 g, %.3f at 2 g\n", names[k], below, above);
        CHECK(t, below == 0, "%s: below 1 g the plate carries the sphere (off %.3g of the time)", names[k], below);
        CHECK(t, above > 0.3, "%s: above 1 g the sphere takes off (off %.3g of the time)", names[k], above);
    }
}

/* The walls of a closed cube [0, L]^3. */
static grains_mesh *cube(double L)
{
    const grains_vec3 c[24] = {
        {0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0},   {0, 0, L}, {L, 0, L}, {L, L, L}, {0, L, L},
        {0, 0, 0}, {L, 0, 0}, {L, 0, L}, {0, 0, L},   {0, L, 0}, {L, L, 0}, {L, L, L}, {0, L, L},
        {0, 0, 0}, {0, L, 0}, {0, L, L}, {0, 0, L},   {L, 0, 0}, {L, L, 0}, {L, L, L}, {L, 0, L}};
    return rectangles(c, 6);
}

static const grains_vec3 box_x[4] = {{0.02, 0.02, 0.03}, {0.05, 0.03, 0.02}, {0.07, 0.07, 0.05}, {0.03, 0.06, 0.07}};
static const grains_vec3 box_v[4] = {{0.4, 0.1, -0.2}, {-0.3, 0.2, 0.1}, {0.1, -0.4, 0.3}, {0.2, 0.3, -0.5}};

/* Four spheres in a cube of side 0.1 that moves at V. */
static grains_sim *box_run(int integrator, grains_vec3 V, long steps)
{
    grains_params p = impact_params(integrator);
    p.g = (grains_vec3){0, 0, -9.81};
    p.mu_s = 0.4, p.mu_r = 0.1;
    grains_sim *sim = scene(&p);
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_LINEAR;
    m.velocity = V;
    add_mesh(sim, cube(0.1), &m);
    for (int k = 0; k < 4; k++)
        add(sim, box_x[k], (grains_vec3){box_v[k].x + V.x, box_v[k].y + V.y, box_v[k].z + V.z},
            (grains_vec3){0, 0, 0}, 0.01);
    advance(sim, steps);
    return sim;
}

static void moving_box(test_ctx *t)
{
    const grains_vec3 V = {0.3, -0.2, 0.1}, none = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        const long steps = 10000; /* every sphere hits walls and others a few times */
        grains_sim *a = box_run(k, V, steps), *b = box_run(k, none, steps);
        double T = grains_sim_time(a), dx = 0, dv = 0, dw = 0;
        grains_thermo th;
        grains_sim_thermo(a, &th);
        for (size_t i = 0; i < 4; i++) {
            grains_particle pa = get(a, i), pb = get(b, i);
            dx = nan_max(dx, fabs(pa.x.x - V.x * T - pb.x.x) + fabs(pa.x.y - V.y * T - pb.x.y) +
                              fabs(pa.x.z - V.z * T - pb.x.z));
            dv = nan_max(dv, fabs(pa.v.x - V.x - pb.v.x) + fabs(pa.v.y - V.y - pb.v.y) + fabs(pa.v.z - V.z - pb.v.z));
            dw = nan_max(dw, fabs(pa.w.x - pb.w.x) + fabs(pa.w.y - pb.w.y) + fabs(pa.w.z - pb.w.z));
        }
        printf("  %s: box moving at (0.3, -0.2, 0.1) m/s vs at rest, %ld steps (t = %.3f s): |dx| %.3g m, |dv| %.3g "
               "m/s, |dw| %.3g rad/s\n", names[k], steps, T, dx, dv, dw);
        /* round-off of positions 0.1 m apart (1e-17 m) grown over a dozen impacts: 1e-13 m measured */
        CHECK(t, dx < 1e-11 && dv < 1e-9 && dw < 1e-7, "%s: relative motion in a moving box is that in a box at rest",
              names[k]);
        grains_sim_destroy(a);
        grains_sim_destroy(b);
    }
}

/* Momentum of the particles, and their weight. */
static grains_vec3 momentum(const grains_sim *sim, double *mass)
{
    grains_vec3 P = {0, 0, 0};
    *mass = 0;
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_particle s = get(sim, i);
        double m = 4 * PI / 3 * grains_sim_params(sim)->rho * s.R * s.R * s.R;
        *mass += m;
        P.x += m * s.v.x, P.y += m * s.v.y, P.z += m * s.v.z;
    }
    return P;
}

/* With semi-implicit Euler and no drag, sum m (v' - v) / dt = sum f + M g
 * exactly up to round-off, and the pair forces cancel: the contact forces
 * of the walls on the particles are the change of momentum less gravity. */
static void wall_force_balance(test_ctx *t)
{
    grains_params p = impact_params(0);
    p.g = (grains_vec3){0, 0, -9.81};
    p.e_n = 0.1;
    grains_sim *sim = scene(&p);
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_LINEAR;
    m.velocity = (grains_vec3){0.05, 0, 0};
    add_mesh(sim, cube(0.1), &m);
    for (int k = 0; k < 4; k++)
        add(sim, box_x[k], box_v[k], (grains_vec3){0, 0, 0}, 0.01);
    double worst = 0, M = 0, dt = grains_sim_params(sim)->dt;
    for (int step = 0; step < 2000; step++) {
        grains_vec3 P0 = momentum(sim, &M);
        advance(sim, 1);
        grains_vec3 P1 = momentum(sim, &M);
        grains_wall w;
        grains_sim_get_wall(sim, 0, &w);
        double ex = (P1.x - P0.x) / dt - M * p.g.x + w.force.x, ey = (P1.y - P0.y) / dt - M * p.g.y + w.force.y,
               ez = (P1.z - P0.z) / dt - M * p.g.z + w.force.z;
        worst = nan_max(worst, (fabs(ex) + fabs(ey) + fabs(ez)) / (M * 9.81));
    }
    printf("  force on the walls vs the particles' momentum balance, 2000 steps: worst %.3g of the weight\n", worst);
    CHECK(t, worst < 1e-8, "the walls' force is minus the sum of their contact forces (%.3g of the weight)", worst);
    grains_sim_destroy(sim);

    /* a sphere at rest at x = a on a floor: force mg up on it, torque a m g about y on the floor */
    p.mu_s = 0.3;
    sim = scene(&p);
    const grains_vec3 c[4] = {{-0.2, -0.2, 0}, {0.2, -0.2, 0}, {0.2, 0.2, 0}, {-0.2, 0.2, 0}};
    add_mesh(sim, rectangles(c, 1), NULL);
    add(sim, (grains_vec3){0.1, 0, 0.01}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 0.01);
    advance(sim, 20000);
    grains_wall w;
    grains_sim_get_wall(sim, 0, &w);
    double mg = 4 * PI / 3 * p.rho * 1e-6 * 9.81;
    printf("  sphere at rest on a floor: force %.9g N (mg = %.9g), torque %.9g N m (a m g = %.9g)\n", w.force.z, -mg,
           w.torque.y, 0.1 * mg);
    CHECK_REL(t, w.force.z, -mg, 1e-6, "a resting sphere presses its weight on the floor");
    CHECK_REL(t, w.torque.y, 0.1 * mg, 1e-6, "and its moment about the floor's origin");
    grains_sim_destroy(sim);
}

/* 27 spheres in a box of side 0.06 under a servo lid pressing down with 10 N. */
static void servo_lid(test_ctx *t)
{
    grains_params p = impact_params(1);
    p.R_min = p.R_max = 0.01;
    p.g = (grains_vec3){0, 0, -9.81};
    p.e_n = 0.2;
    grains_sim *sim = scene(&p);
    const double L = 0.06, H = 0.2;
    const grains_vec3 c[20] = {{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0},   {0, 0, 0}, {L, 0, 0}, {L, 0, H}, {0, 0, H},
                               {0, L, 0}, {L, L, 0}, {L, L, H}, {0, L, H},   {0, 0, 0}, {0, L, 0}, {0, L, H}, {0, 0, H},
                               {L, 0, 0}, {L, L, 0}, {L, L, H}, {L, 0, H}};
    add_mesh(sim, rectangles(c, 5), NULL);
    const grains_vec3 lid[4] = {{0, 0, 0.065}, {L, 0, 0.065}, {L, L, 0.065}, {0, L, 0.065}};
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_SERVO;
    m.axis = (grains_vec3){0, 0, -1};
    m.force = 10;
    m.max_speed = 0.2;
    add_mesh(sim, rectangles(lid, 1), &m);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int k = 0; k < 3; k++)
                add(sim, (grains_vec3){0.01 + 0.02 * a, 0.01 + 0.02 * b, 0.0101 + 0.0201 * k}, (grains_vec3){0, 0, 0},
                    (grains_vec3){0, 0, 0}, 0.0099);
    long steps = (long)(0.5 / grains_sim_params(sim)->dt);
    advance(sim, steps);
    double sum = 0;
    grains_wall w;
    for (int k = 0; k < 1000; k++) {
        advance(sim, 1);
        grains_sim_get_wall(sim, 1, &w);
        sum += w.force.z;
    }
    printf("  servo lid, target 10 N: %.6f N on average over 1000 steps after 0.5 s, lid moved %.6f m\n", sum / 1000,
           w.shift.z);
    CHECK_REL(t, sum / 1000, 10, 1e-2, "a servo lid holds its target force");
    grains_sim_destroy(sim);
}

/* 125 spheres between a vibrating floor of triangles, four fixed sides and
 * a servo lid, on `threads` threads: the final state. */
static grains_sim *shaken(int threads, long steps)
{
    grains_params p = impact_params(1);
    p.threads = threads;
    p.R_min = p.R_max = 0.005;
    p.dt = grains_params_default_dt(&p);
    p.g = (grains_vec3){0, 0, -9.81};
    p.mu_s = 0.4, p.mu_r = 0.05;
    grains_sim *sim = scene(&p);
    grains_mesh *floor;
    grains_error err;
    grains_mesh_create(&floor, &err);
    for (int b = 0; b <= 4; b++)
        for (int a = 0; a <= 4; a++)
            grains_mesh_add_vertex(floor, (grains_vec3){0.015 * a, 0.015 * b, 0}, &err);
    for (uint32_t b = 0; b < 4; b++)
        for (uint32_t a = 0; a < 4; a++) {
            uint32_t v0 = b * 5 + a, t1[3] = {v0, v0 + 1, v0 + 6}, t2[3] = {v0, v0 + 6, v0 + 5};
            grains_mesh_add_element(floor, 3, t1, 0, 0, &err);
            grains_mesh_add_element(floor, 3, t2, 0, 0, &err);
        }
    grains_motion shake = grains_motion_fixed();
    shake.type = GRAINS_MOTION_VIBRATE;
    shake.axis = (grains_vec3){0.1, 0, 1};
    shake.amplitude = 0.0004, shake.frequency = 20; /* 0.6 g */
    add_mesh(sim, floor, &shake);
    const double L = 0.06, H = 0.2;
    const grains_vec3 c[16] = {{0, 0, 0}, {L, 0, 0}, {L, 0, H}, {0, 0, H},   {0, L, 0}, {L, L, 0}, {L, L, H}, {0, L, H},
                               {0, 0, 0}, {0, L, 0}, {0, L, H}, {0, 0, H},   {L, 0, 0}, {L, L, 0}, {L, L, H}, {L, 0, H}};
    add_mesh(sim, rectangles(c, 4), NULL);
    const grains_vec3 lid[4] = {{0, 0, 0.06}, {L, 0, 0.06}, {L, L, 0.06}, {0, L, 0.06}};
    grains_motion servo = grains_motion_fixed();
    servo.type = GRAINS_MOTION_SERVO;
    servo.axis = (grains_vec3){0, 0, -1};
    servo.force = 2, servo.max_speed = 0.1;
    add_mesh(sim, rectangles(lid, 1), &servo);
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            for (int k = 0; k < 5; k++)
                add(sim, (grains_vec3){0.007 + 0.0115 * a, 0.007 + 0.0115 * b, 0.008 + 0.0115 * k},
                    (grains_vec3){0.01 * (a - 2), 0.01 * (b - 2), 0}, (grains_vec3){0, 0, 0}, 0.005);
    advance(sim, steps);
    return sim;
}

static int same_wall(const grains_wall *a, const grains_wall *b)
{
    const grains_vec3 va[4] = {a->shift, a->velocity, a->force, a->torque}, vb[4] = {b->shift, b->velocity, b->force,
                                                                                    b->torque};
    return memcmp(va, vb, sizeof va) == 0 && memcmp(&a->angle, &b->angle, sizeof a->angle) == 0 &&
           memcmp(&a->omega, &b->omega, sizeof a->omega) == 0;
}

/* A sphere on a floor under a servo lid (2 N down): floor and lid are
 * meshes 0 and 1. */
static grains_sim *pressed_sphere(void)
{
    grains_params p = impact_params(0);
    p.g = (grains_vec3){0, 0, -9.81};
    p.mu_s = 0.5, p.mu_r = 0.1;
    grains_sim *sim = scene(&p);
    const grains_vec3 floor[4] = {{-0.1, -0.1, 0}, {0.1, -0.1, 0}, {0.1, 0.1, 0}, {-0.1, 0.1, 0}};
    const grains_vec3 lid[4] = {{-0.1, -0.1, 0.0205}, {0.1, -0.1, 0.0205}, {0.1, 0.1, 0.0205}, {-0.1, 0.1, 0.0205}};
    add_mesh(sim, rectangles(floor, 1), NULL);
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_SERVO;
    m.axis = (grains_vec3){0, 0, -1};
    m.force = 2, m.max_speed = 0.1;
    add_mesh(sim, rectangles(lid, 1), &m);
    return sim;
}

static int same_servo(const grains_wall *a, const grains_wall *b)
{
    const double ra[4] = {a->t_pose, a->travel, a->stiffness, a->damping};
    const double rb[4] = {b->t_pose, b->travel, b->stiffness, b->damping};
    return same_wall(a, b) && memcmp(ra, rb, sizeof ra) == 0;
}

/* A copy of `from` at its step: the sphere, its contacts' springs and, with
 * `walls`, the meshes' state. */
static grains_sim *continued(const grains_sim *from, int walls)
{
    grains_sim *sim = pressed_sphere();
    grains_error err;
    grains_particle q = get(from, 0);
    size_t n = grains_sim_contact_count(from), got;
    grains_contact c[4];
    int ok = grains_sim_add_particle(sim, &q, &err) == GRAINS_OK && n <= 4 &&
             grains_sim_get_contacts(from, c, n, &got, &err) == GRAINS_OK &&
             grains_sim_set_contacts(sim, c, got, &err) == GRAINS_OK &&
             grains_sim_set_steps(sim, grains_sim_steps(from), &err) == GRAINS_OK;
    for (size_t k = 0; ok && walls && k < 2; k++) {
        grains_wall w;
        grains_sim_get_wall(from, k, &w);
        ok = grains_sim_set_wall(sim, k, &w, &err) == GRAINS_OK;
    }
    if (!ok) {
        fprintf(stderr, "continued: %s\n", n > 4 ? "more than 4 contacts" : err.message);
        exit(1);
    }
    return sim;
}

static void servo_state_put_back(test_ctx *t)
{
    grains_sim *a = pressed_sphere();
    add(a, (grains_vec3){0, 0, 0.0101}, (grains_vec3){0.02, 0, 0}, (grains_vec3){0, 0, 0}, 0.01);
    const long half = 3000;
    advance(a, half);
    grains_wall lid;
    grains_sim_get_wall(a, 1, &lid);
    CHECK(t, lid.force.z > 0 && lid.travel > 0 && lid.stiffness > 0,
          "the lid presses on the sphere before the copy (%g N, travel %g m)", lid.force.z, lid.travel);
    grains_sim *b = continued(a, 1), *bare = continued(a, 0);
    const long soon = 50; /* the bare lid closes at most max_speed x soon dt = 0.05 mm */
    advance(a, soon);
    advance(bare, soon);
    grains_wall wa, wb, wbare;
    grains_sim_get_wall(a, 1, &wa), grains_sim_get_wall(bare, 1, &wbare);
    double off = wa.shift.z - wbare.shift.z;
    advance(a, half - soon);
    advance(b, half);
    grains_sim_get_wall(a, 1, &wa), grains_sim_get_wall(b, 1, &wb);
    printf("  servo state put back: the copy continues %s over %ld steps; without it the lid is %.3g m short "
           "after %ld steps (travel before the copy %.3g m)\n",
           same_particle(get(a, 0), get(b, 0)) && same_servo(&wa, &wb) ? "bit for bit" : "DIFFERENTLY", half, fabs(off),
           soon, lid.travel);
    CHECK(t, same_particle(get(a, 0), get(b, 0)), "the sphere continues bit for bit");
    CHECK(t, same_servo(&wa, &wb), "the lid continues bit for bit (pose, force, servo state)");
    CHECK(t, fabs(off) > lid.travel / 2, "without its state the lid starts again from its file's pose");
    grains_wall bad = wa;
    bad.travel = NAN;
    grains_error err;
    CHECK(t, grains_sim_set_wall(b, 1, &bad, &err) == GRAINS_ERR_RANGE, "a NaN in a wall's state is refused");
    bad = wa;
    CHECK(t, grains_sim_set_wall(b, 0, &bad, &err) == GRAINS_ERR_RANGE, "a fixed mesh cannot be moved");
    CHECK(t, grains_sim_set_wall(b, 2, &wa, &err) == GRAINS_ERR_RANGE, "no mesh 2");
    CHECK(t, grains_sim_set_steps(b, -1, &err) == GRAINS_ERR_RANGE, "negative steps are refused");
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(bare);
}

/* The same bits for any thread count: particles, and the force and torque
 * on every mesh (summed per cell block, blocks in order). */
static void threads_agree(test_ctx *t)
{
    const long steps = 5000;
    grains_sim *a = shaken(1, steps), *b = shaken(2, steps), *c = shaken(3, steps);
    int same = 1;
    for (size_t i = 0; i < grains_sim_count(a); i++) {
        same &= same_particle(get(a, i), get(b, i)) && same_particle(get(a, i), get(c, i));
    }
    for (size_t k = 0; k < 3; k++) {
        grains_wall wa, wb, wc;
        grains_sim_get_wall(a, k, &wa), grains_sim_get_wall(b, k, &wb), grains_sim_get_wall(c, k, &wc);
        same &= same_wall(&wa, &wb) && same_wall(&wa, &wc);
    }
    grains_wall lid;
    grains_sim_get_wall(a, 2, &lid);
    grains_thermo th;
    grains_sim_thermo(a, &th);
    printf("  shaken box on 1, 2, 3 threads: %s (%zu contacts; lid at %.4f m with %.4f N)\n",
           same ? "bit-identical" : "DIFFERENT", th.n_contacts, lid.shift.z, lid.force.z);
    CHECK(t, same, "moving meshes give the same bits on 1, 2 and 3 threads");
    CHECK(t, th.n_contacts > 150 && lid.force.z > 0, "a dense shaken pack (%zu contacts) under the lid (%g N)",
          th.n_contacts, lid.force.z);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(c);
}

/* A floor at rest under a sphere resting on it (R = 0.01), started at t1 as
 * a belt at V along x by grains_sim_set_motion, then stopped: the floor's
 * shift is V (t - t1) while it moves and stays when it stops; the sphere
 * ends rolling at 2V/7 on the belt, as one dropped on a belt moving from
 * the start (a motion given mid-run is a motion). */
static grains_sim *floor_started(int threads, double V, long settle, long belt_steps)
{
    const double R = 0.01;
    grains_params p = impact_params(1);
    p.g = (grains_vec3){0, 0, -9.81};
    p.mu_s = 0.5, p.mu_r = 0, p.mu_t = 0;
    p.threads = threads;
    grains_sim *sim = scene(&p);
    const grains_vec3 c[4] = {{-1, -0.1, 0}, {1, -0.1, 0}, {1, 0.1, 0}, {-1, 0.1, 0}};
    add_mesh(sim, rectangles(c, 1), NULL);
    add(sim, (grains_vec3){0, 0, R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    advance(sim, settle);
    grains_motion m = grains_motion_fixed();
    m.type = GRAINS_MOTION_LINEAR;
    m.velocity = (grains_vec3){V, 0, 0};
    grains_error err;
    if (grains_sim_set_motion(sim, 0, &m, &err) != GRAINS_OK) {
        fprintf(stderr, "set_motion: %s\n", err.message);
        exit(1);
    }
    advance(sim, belt_steps);
    return sim;
}

static void motion_given_mid_run(test_ctx *t)
{
    const double V = 0.1;
    grains_sim *sim = floor_started(1, V, 2000, 0);
    double t1 = grains_sim_time(sim);
    advance(sim, (long)(0.2 / grains_sim_params(sim)->dt)); /* slipping ends after 2V / (7 mu g) = 6 ms */
    grains_wall w;
    grains_sim_get_wall(sim, 0, &w);
    double T = grains_sim_time(sim) - t1;
    grains_particle s = get(sim, 0);
    printf("  belt started at t = %.4f s: shift %.9f m after %.4f s (V t = %.9f), sphere at %.6f m/s (2V/7 = %.6f)\n",
           t1, w.shift.x, T, V * T, s.v.x, 2 * V / 7);
    CHECK_ABS(t, w.shift.x, V * T, 1e-12, "a floor started at t1 is shifted by V (t - t1)");
    CHECK(t, w.moving && w.velocity.x == V, "and moves at V");
    CHECK_REL(t, s.v.x, 2 * V / 7, 1e-3, "a sphere on a floor started as a belt ends at 2V/7");
    grains_motion stop = grains_motion_fixed();
    grains_error err;
    CHECK(t, grains_sim_set_motion(sim, 0, &stop, &err) == GRAINS_OK, "stopped: %s", err.message);
    advance(sim, 100);
    grains_wall after;
    grains_sim_get_wall(sim, 0, &after);
    CHECK(t, !after.moving && after.shift.x == w.shift.x && after.velocity.x == 0,
          "a stopped floor stays where it stopped (%.9f m)", after.shift.x);
    grains_motion bad = grains_motion_fixed();
    bad.type = GRAINS_MOTION_LINEAR;
    bad.velocity = (grains_vec3){NAN, 0, 0};
    CHECK(t, grains_sim_set_motion(sim, 0, &bad, &err) != GRAINS_OK && grains_sim_set_motion(sim, 3, &stop, &err) ==
          GRAINS_ERR_RANGE, "a motion that is not finite and a mesh that does not exist are refused");
    grains_sim_destroy(sim);
}

/* A motion given mid-run is in the checkpoint: saved after it, the run
 * read into a simulation built with the floor at rest goes on bit for bit
 * (on two threads). */
static void motion_given_resumed(test_ctx *t)
{
    const char *path = "test_walls_motion.grains";
    grains_sim *a = floor_started(1, 0.1, 500, 300);
    grains_error err;
    grains_status s = grains_checkpoint_write(path, a, NULL, 0, &err);
    grains_sim *b = floor_started(2, 0, 0, 0); /* (its motion linear at 0: the checkpoint's replaces it) */
    s = s == GRAINS_OK ? grains_checkpoint_read_sim(path, b, &err) : s;
    CHECK(t, s == GRAINS_OK, "the checkpoint reads back: %s", s == GRAINS_OK ? "" : err.message);
    advance(a, 700);
    advance(b, 700);
    grains_wall wa, wb;
    grains_sim_get_wall(a, 0, &wa);
    grains_sim_get_wall(b, 0, &wb);
    grains_particle pa = get(a, 0), pb = get(b, 0);
    CHECK(t, same_wall(&wa, &wb) && memcmp(&pa.x, &pb.x, sizeof pa.x) == 0 && memcmp(&pa.w, &pb.w, sizeof pa.w) == 0,
          "resumed after a motion given mid-run: the floor and sphere go on bit for bit");
    remove(path);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* A sphere resting on a floor (mesh 0) that is removed: it falls freely
 * (v = g t) with no contact left, the floor's force is 0, and a checkpoint
 * taken after keeps the floor removed (resumed on 2 threads: the same bits). */
static grains_sim *floor_removed(int threads, long rest, long after)
{
    grains_sim *sim = floor_started(threads, 0, rest, 0); /* (its motion linear at 0) */
    grains_error err;
    if (grains_sim_remove_mesh(sim, 0, &err) != GRAINS_OK) {
        fprintf(stderr, "remove_mesh: %s\n", err.message);
        exit(1);
    }
    advance(sim, after);
    return sim;
}

static void mesh_removed(test_ctx *t)
{
    grains_sim *sim = floor_removed(1, 3000, 0);
    double dt = grains_sim_params(sim)->dt, v0 = get(sim, 0).v.z;
    long n = (long)(0.05 / dt);
    advance(sim, n);
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    grains_wall w;
    grains_sim_get_wall(sim, 0, &w);
    double v = get(sim, 0).v.z, T = (double)n * dt;
    printf("  floor removed: the sphere falls at %.6f m/s after %.3f s (g t = %.6f), %zu contacts\n", -v, T, 9.81 * T,
           th.n_contacts);
    /* (the first step's half kick still has the floor's last push: within g dt) */
    CHECK_ABS(t, v - v0, -9.81 * T, 9.81 * dt, "a sphere whose floor is removed falls freely: dv = -g t");
    CHECK(t, th.n_contacts == 0 && w.force.z == 0, "no contact is left, and the floor feels no force");
    grains_error err;
    CHECK(t, grains_sim_remove_mesh(sim, 1, &err) == GRAINS_ERR_RANGE, "a mesh that does not exist: %s", err.message);
    grains_sim_destroy(sim);
    const char *path = "test_walls_removed.grains";
    grains_sim *a = floor_removed(1, 3000, 10);
    grains_status s = grains_checkpoint_write(path, a, NULL, 0, &err);
    grains_sim *b = floor_started(2, 0, 0, 0);
    s = s == GRAINS_OK ? grains_checkpoint_read_sim(path, b, &err) : s;
    CHECK(t, s == GRAINS_OK, "read back: %s", s == GRAINS_OK ? "" : err.message);
    advance(a, 500);
    advance(b, 500);
    grains_particle pa = get(a, 0), pb = get(b, 0);
    CHECK(t, memcmp(&pa.x, &pb.x, sizeof pa.x) == 0 && pa.v.z < -9.81 * 500 * grains_sim_params(a)->dt,
          "resumed: the floor stays removed (the sphere falls on at %.4f m/s), the same bits", -pa.v.z);
    remove(path);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

int main(void)
{
    test_ctx t = {0, 0};
    plate_hits_sphere(&t);
    belt(&t);
    paddle(&t);
    vibration(&t);
    moving_box(&t);
    wall_force_balance(&t);
    servo_lid(&t);
    servo_state_put_back(&t);
    threads_agree(&t);
    motion_given_mid_run(&t);
    motion_given_resumed(&t);
    mesh_removed(&t);
    return test_report(&t, "test_walls");
}
