/* Checkpoints (grains/checkpoint.h). The physical fact: a run's future is
 * a function of its state, so a run saved at any step and resumed in a
 * fresh simulation (with another thread count) must take the same steps,
 * bit for bit, as the run that went on. Checked for every integrator, with
 * meshes moving (a vibrating floor, a turning paddle, a servo), spawning
 * (the random numbers), bonds, and a membrane; saved between rebuilds,
 * where the lists and histories in hand differ from fresh ones. And a
 * damaged checkpoint is refused: truncated at any length, any byte
 * changed, another program version, another scenario. */
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "membrane/sheet.h"
#include "support.h"

typedef enum { SCENE_WALLS, SCENE_BONDS, SCENE_MEMBRANE, SCENE_FLOOR } scene_kind;

static const grains_membrane_material rubber = {.E = 1.25e6, .d = 3e-4, .rho = 1000};

static void must(grains_status s, const grains_error *err, const char *what)
{
    if (s != GRAINS_OK) {
        fprintf(stderr, "%s: %s\n", what, err->message);
        exit(1);
    }
}

static void walls(grains_sim *sim, int fixed)
{
    if (fixed) { /* the variational integrators take walls as fixed */
        plate(sim, 0.02, 0, grains_motion_fixed());
        return;
    }
    grains_motion shake = grains_motion_fixed();
    shake.type = GRAINS_MOTION_VIBRATE;
    shake.amplitude = 2e-4;
    shake.frequency = 40;
    plate(sim, 0.02, 0, shake);
    grains_motion turn = grains_motion_fixed();
    turn.type = GRAINS_MOTION_ROTATE;
    turn.axis = (grains_vec3){1, 0, 0};
    turn.point = (grains_vec3){0, 0, 0.004};
    turn.omega = 3;
    plate(sim, 0.004, 0.004, turn);
    grains_motion servo = grains_motion_fixed();
    servo.type = GRAINS_MOTION_SERVO;
    servo.axis = (grains_vec3){0, 0, -1};
    servo.force = 0.05;
    servo.max_speed = 0.05;
    plate(sim, 0.02, 0.02, servo);
}

static void membrane(grains_sim *sim)
{
    grains_mesh *mesh;
    grains_error err;
    must(membrane_sheet_mesh(&mesh, 8, 8, 0.0025, &err), &err, "sheet");
    for (size_t v = 0; v < mesh->n_vertices; v++) {
        mesh->vertices[v].x -= 0.01;
        mesh->vertices[v].y -= 0.01;
        mesh->vertices[v].z = -0.001;
    }
    must(grains_sim_add_membrane(sim, mesh, &rubber, &err), &err, "membrane");
    grains_mesh_destroy(mesh);
}

/* 5 x 5 x 4 grains of radius 1 mm with a little disorder, falling; more
 * spawned above them. The same scene for the same arguments. */
static grains_sim *build(scene_kind kind, grains_integrator in, int threads)
{
    grains_params p;
    grains_params_default(&p);
    p.R_min = 0.0008;
    p.R_max = 0.001;
    p.R_mesh[0] = 0;
    p.integrator = in;
    p.threads = threads;
    p.N_max = kind == SCENE_WALLS ? 160 : 0;
    if (kind == SCENE_FLOOR) /* a pile in a box: several grains a cell */
        p.g = (grains_vec3){0, 0, -9.81};
    p.N_spawn = 7;
    p.s_min = (grains_vec3){-0.006, -0.006, 0.012};
    p.s_max = (grains_vec3){0.006, 0.006, 0.016};
    p.mu_r = 0.1;
    if (grains_integrator_variational(in)) /* they need a potential: no friction */
        p.mu_s = p.mu_r = p.mu_t = 0;
    if (kind == SCENE_BONDS) {
        p.bond_kn = 2e4;
        p.bond_tolerance = 0.05;
        p.bond_max_force = 0.02;
    }
    grains_params_derive(&p);
    grains_sim *sim = scene(&p);
    if (kind == SCENE_MEMBRANE)
        membrane(sim);
    else
        walls(sim, grains_integrator_variational(in) || kind == SCENE_FLOOR);
    uint64_t r = 12345;
    for (int k = 0; k < 100; k++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double jitter = kind == SCENE_BONDS ? 0 : (double)(r >> 11) / 9007199254740992.0 * 1e-4;
        grains_vec3 x = {0.002 * (k % 5 - 2) + jitter, 0.002 * (k / 5 % 5 - 2) - jitter, 0.0011 + 0.002 * (k / 25)};
        add(sim, x, (grains_vec3){jitter * 50, 0, -0.1}, (grains_vec3){0, jitter * 1e3, 0}, 0.001);
    }
    return sim;
}

/* Whether a and b are the same, bit for bit: every particle by id, every
 * mesh's pose and force, every bond, every membrane vertex. */
static int same_state(const grains_sim *a, const grains_sim *b)
{
    if (grains_sim_count(a) != grains_sim_count(b) || grains_sim_steps(a) != grains_sim_steps(b))
        return 0;
    for (size_t i = 0; i < grains_sim_count(a); i++)
        if (!same_particle(get(a, i), get(b, i)))
            return 0;
    for (size_t k = 0; k < grains_sim_mesh_count(a); k++) {
        grains_wall wa, wb;
        grains_sim_get_wall(a, k, &wa);
        grains_sim_get_wall(b, k, &wb);
        if (memcmp(&wa.shift, &wb.shift, sizeof wa.shift) || memcmp(&wa.force, &wb.force, sizeof wa.force) ||
            memcmp(&wa.torque, &wb.torque, sizeof wa.torque))
            return 0;
    }
    for (size_t k = 0; k < grains_sim_bond_count(a); k++) {
        grains_bond ba, bb;
        grains_sim_get_bond(a, k, &ba);
        grains_sim_get_bond(b, k, &bb);
        if (ba.broken != bb.broken || memcmp(&ba.force, &bb.force, sizeof ba.force))
            return 0;
    }
    for (size_t k = 0; k < grains_sim_membrane_count(a); k++)
        for (size_t i = 0;; i++) {
            grains_membrane_vertex va, vb;
            if (i >= grains_sim_membrane_vertices(a, k))
                break;
            grains_sim_get_membrane_vertex(a, k, i, &va);
            grains_sim_get_membrane_vertex(b, k, i, &vb);
            if (memcmp(&va.x, &vb.x, sizeof va.x) || memcmp(&va.v, &vb.v, sizeof va.v))
                return 0;
        }
    return 1;
}

/* Saved after `at` steps on one thread, resumed on two: the same state as
 * the run that went on, `then` steps later. */
static void resume_case(test_ctx *t, scene_kind kind, grains_integrator in, long at, long then, const char *path)
{
    grains_error err;
    grains_sim *a = build(kind, in, 1);
    advance(a, at);
    must(grains_checkpoint_write(path, a, "app", 3, &err), &err, "write");
    advance(a, then);
    grains_sim *b = build(kind, in, 2);
    grains_status s = grains_checkpoint_read_sim(path, b, &err);
    CHECK(t, s == GRAINS_OK, "scene %d, integrator %d: read: %s", kind, in, err.message);
    if (s == GRAINS_OK) {
        advance(b, then);
        CHECK(t, same_state(a, b), "scene %d, integrator %d, saved at step %ld: resumed run differs %ld steps later",
              kind, in, at, then);
        CHECK(t, grains_sim_count(a) > 100 || kind != SCENE_WALLS, "spawning happened (%zu grains)",
              grains_sim_count(a));
    }
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

/* The state handed over by ids alone (particles, contacts, the clock), as
 * one process hands particles to another: the copy stores them in id
 * order, the original in the spatial order of its last rebuild. Both
 * rebuild at the next step (setting the contacts asks for it), and since a
 * rebuild orders the particles by their cells and ids alone, never by the
 * order before it, they sum every force in the same order and go on bit for
 * bit. */
static void copied_by_ids(test_ctx *t, long at, long then)
{
    grains_error err;
    grains_sim *a = build(SCENE_FLOOR, GRAINS_INTEGRATOR_EULER, 1);
    advance(a, at);
    grains_sim *b = build(SCENE_FLOOR, GRAINS_INTEGRATOR_EULER, 2);
    for (size_t i = 0; i < grains_sim_count(a); i++) {
        grains_particle p = get(a, i);
        grains_sim_set_particle(b, i, &p);
    }
    size_t n = grains_sim_contact_count(a), got = 0;
    grains_contact *c = malloc((n ? n : 1) * sizeof *c);
    must(c ? grains_sim_get_contacts(a, c, n, &got, &err) : GRAINS_ERR_NOMEM, &err, "contacts");
    must(grains_sim_set_contacts(a, c, got, &err), &err, "contacts");
    must(grains_sim_set_contacts(b, c, got, &err), &err, "contacts");
    must(grains_sim_set_steps(b, grains_sim_steps(a), &err), &err, "clock");
    advance(a, then);
    advance(b, then);
    CHECK(t, got > 25, "a pile with contacts handed over (%zu)", got);
    CHECK(t, same_state(a, b), "copied by ids after %ld steps: differs %ld steps later", at, then);
    free(c);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
}

static void resume_everywhere(test_ctx *t, const char *path)
{
    grains_integrator all[] = {GRAINS_INTEGRATOR_EULER, GRAINS_INTEGRATOR_VERLET, GRAINS_INTEGRATOR_VERLET_IMPROVED,
                               GRAINS_INTEGRATOR_VARIATIONAL_LEFT, GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
        resume_case(t, SCENE_WALLS, all[k], 0, 150, path);
        resume_case(t, SCENE_WALLS, all[k], 211, 300, path);
        if (!grains_integrator_variational(all[k])) /* bonds' springs have no potential */
            resume_case(t, SCENE_BONDS, all[k], 97, 200, path);
    }
    resume_case(t, SCENE_MEMBRANE, GRAINS_INTEGRATOR_EULER, 133, 200, path);
    resume_case(t, SCENE_MEMBRANE, GRAINS_INTEGRATOR_VERLET, 133, 200, path);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void copy_prefix(const char *from, const char *to, long n, long flip)
{
    FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
    for (long k = 0; k < n; k++) {
        int c = fgetc(f);
        fputc(k == flip ? c ^ 0x10 : c, g);
    }
    fclose(f);
    fclose(g);
}

/* What read_app and then read_sim make of the file at `bad`. */
static grains_status read_both(const char *bad, grains_error *err)
{
    void *app;
    size_t n;
    grains_status s = grains_checkpoint_read_app(bad, &app, &n, err);
    free(app);
    if (s != GRAINS_OK)
        return s;
    grains_sim *sim = build(SCENE_WALLS, GRAINS_INTEGRATOR_EULER, 1);
    s = grains_checkpoint_read_sim(bad, sim, err);
    grains_sim_destroy(sim);
    return s;
}

static void damaged(test_ctx *t, const char *path, const char *bad)
{
    grains_error err;
    grains_sim *a = build(SCENE_WALLS, GRAINS_INTEGRATOR_EULER, 1);
    advance(a, 120);
    must(grains_checkpoint_write(path, a, "app", 3, &err), &err, "write");
    long size = file_size(path);
    void *app;
    size_t n;
    CHECK(t, grains_checkpoint_read_app(path, &app, &n, &err) == GRAINS_OK && n == 3 && !memcmp(app, "app", 3),
          "the caller's bytes come back");
    free(app);
    int refused = 0, tries = 0;
    for (long cut = 0; cut < size; cut += 1 + cut / 3, tries++) { /* every truncation refused */
        copy_prefix(path, bad, cut, -1);
        refused += read_both(bad, &err) == GRAINS_ERR_PARSE;
    }
    CHECK(t, refused == tries, "truncated checkpoints refused: %d of %d", refused, tries);
    refused = tries = 0;
    for (long at = 0; at < size; at += 1 + at / 2, tries++) { /* any byte changed: refused */
        copy_prefix(path, bad, size, at);
        refused += read_both(bad, &err) != GRAINS_OK;
    }
    CHECK(t, refused == tries, "changed checkpoints refused: %d of %d", refused, tries);
    copy_prefix(path, bad, size, 26); /* a byte of the program's version */
    CHECK(t, read_both(bad, &err) == GRAINS_ERR_PARSE && strstr(err.message, "written by grains"),
          "another version named: %s", err.message);
    grains_sim *other = build(SCENE_MEMBRANE, GRAINS_INTEGRATOR_EULER, 1);
    CHECK(t, grains_checkpoint_read_sim(path, other, &err) == GRAINS_ERR_ARG && strstr(err.message, "another scenario"),
          "another scenario refused: %s", err.message);
    grains_sim_destroy(other);
    grains_sim_destroy(a);
}

int main(void)
{
    test_ctx t = {0, 0};
    char path[64], bad[64];
    snprintf(path, sizeof path, "test_checkpoint_%ld.grains", (long)getpid());
    snprintf(bad, sizeof bad, "test_checkpoint_%ld.bad", (long)getpid());
    resume_everywhere(&t, path);
    copied_by_ids(&t, 1500, 500);
    damaged(&t, path, bad);
    remove(path);
    remove(bad);
    return test_report(&t, "test_checkpoint");
}
