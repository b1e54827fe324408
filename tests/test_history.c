/* Contact histories persist for the whole life of a contact (TinyDEM Eq. 50:
 * the springs integrate from first touch): rebuilding the neighbour lists and
 * re-sorting the particles in memory, which renames contact keys and may
 * swap which particle of a pair owns the contact (reversing its sliding
 * spring), must not change the motion beyond round-off. */
#include "check.h"
#include "support.h"

/* A wall in the plane y = 0. */
static void wall_y0(grains_sim *sim)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-1, 0, -1}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){1, 0, -1}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){1, 0, 1}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-1, 0, 1}, &err);
    uint32_t v[4] = {0, 1, 2, 3};
    grains_mesh_add_element(m, 4, v, 0, 0, &err);
    grains_sim_set_mesh(sim, m, &err);
    grains_mesh_destroy(m);
}

/* A sphere resting 2 mm off-centre on another, which rests on a wall (gravity
 * along -y), both sliding along x at 1 m/s: a frictional contact that lasts
 * while the pair crosses cell blocks. Whenever one sphere has crossed a block
 * boundary and the other not yet, re-sorting puts them in the other order,
 * so the contact changes owner and its sliding spring must be reversed.
 * (A third sphere resting far behind pins the grid, whose origin follows
 * the particles' lower corner.) `flip` exchanges which particle is added first. */
static grains_sim *collide(double skin, int flip, grains_friction_order order)
{
    grains_params p = scene_params();
    p.mu_s = 0.4, p.mu_r = 0.6, p.mu_t = 0.3, p.e_n = 0.37, p.friction_order = order;
    p.g = (grains_vec3){0, -9.81, 0};
    p.R_max = 4e-3;
    p.skin = skin;
    grains_sim *sim = scene(&p);
    wall_y0(sim);
    const double R1 = 4e-3, R2 = 3e-3, d = R1 + R2 - 2e-6;
    grains_vec3 xa = {0, R1 - 1e-6, 0}, xb = {2e-3, R1 + sqrt(d * d - 4e-6), 1e-4};
    grains_vec3 v = {1.0, 0, 0.05};
    grains_vec3 wa = {0, 5, 0}, wb = {3, 0, -4};
    if (flip) {
        add(sim, xb, v, wb, R2);
        add(sim, xa, v, wa, R1);
    } else {
        add(sim, xa, v, wa, R1);
        add(sim, xb, v, wb, R2);
    }
    add(sim, (grains_vec3){-0.05, 4e-3 - 1e-6, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, 4e-3);
    advance(sim, 500); /* storage order flips at steps 197 and 327 */
    return sim;
}

static double difference(const grains_particle *a, const grains_particle *b)
{
    return fabs(a->x.x - b->x.x) + fabs(a->x.y - b->x.y) + fabs(a->x.z - b->x.z) +
           1e-3 * (fabs(a->w.x - b->w.x) + fabs(a->w.y - b->w.y) + fabs(a->w.z - b->w.z));
}

static void persists(test_ctx *t, grains_friction_order order)
{
    /* skin 1 m: one list for the whole run; skin 1e-12 m: a rebuild and
     * re-sort before nearly every step. */
    grains_sim *once = collide(1, 0, order), *often = collide(1e-12, 0, order);
    grains_sim *flipped = collide(1e-12, 1, order);
    for (int k = 0; k < 2; k++) {
        grains_particle a = get(once, (size_t)k), b = get(often, (size_t)k), c = get(flipped, (size_t)(1 - k));
        /* A lost or mis-signed spring changes the outcome at O(1e-6) m. */
        CHECK(t, difference(&a, &b) < 1e-14, "rebuilt every step, particle %d differs by %.3g", k, difference(&a, &b));
        CHECK(t, difference(&a, &c) < 1e-14, "added in the other order, particle %d differs by %.3g", k,
              difference(&a, &c));
    }
    grains_sim_destroy(once);
    grains_sim_destroy(often);
    grains_sim_destroy(flipped);
}

/* The scene does what it is for: the pair is still touching at the end,
 * after travelling across many cells. */
static void scene_checks(test_ctx *t)
{
    grains_sim *a = collide(1e-12, 0, GRAINS_FRICTION_FORCE_THEN_INCREMENT);
    grains_particle p0 = get(a, 0), p1 = get(a, 1);
    double dx = p0.x.x - p1.x.x, dy = p0.x.y - p1.x.y, dz = p0.x.z - p1.x.z;
    CHECK(t, sqrt(dx * dx + dy * dy + dz * dz) < p0.R + p1.R, "the stacked pair still touches");
    CHECK(t, grains_sim_count(a) == 3, "three spheres");
    CHECK(t, p0.x.x > 0.025, "the pair travelled %.3g m (blocks are 1.6 cm)", p0.x.x);
    grains_sim_destroy(a);
}

int main(void)
{
    test_ctx t = {0, 0};
    persists(&t, GRAINS_FRICTION_FORCE_THEN_INCREMENT);
    persists(&t, GRAINS_FRICTION_INCREMENT_THEN_FORCE);
    scene_checks(&t);
    return test_report(&t, "test_history");
}
