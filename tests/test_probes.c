/* Probes (grains_params.probe, grains_sim_probe_rows). Each test states the
 * physical fact it checks:
 * - a grain in free flight through a plane is counted once, with its mass
 *   and momentum m v (along the normal: +; against it: -, so that a grain
 *   that comes back nets nothing); outside a plane's disc it is not;
 * - grains of two materials through a plane: each counted with its own
 *   material's mass (4/3 pi rho_k R^3);
 * - in a periodic box a grain crossing a plane inside the box is counted at
 *   each pass, and its wrap across the box's face is not a crossing;
 * - a stream falling through a plane into a sink: at every frame the grains
 *   that crossed (net) are those the sink removed plus those below the
 *   plane now (a box probe), exactly; their mass to round-off;
 * - the sums are the same bits on 1 and 3 threads and across a checkpoint;
 * - size classes split the rows by radius; probes that cannot be are refused. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "grains/checkpoint.h"
#include "support.h"

static grains_probe plane(grains_vec3 point, grains_vec3 normal, double radius)
{
    return (grains_probe){0, point, normal, radius, {0, 0, 0}, {0, 0, 0}, 0, {0}};
}

static grains_probe box(grains_vec3 lo, grains_vec3 hi)
{
    return (grains_probe){1, {0, 0, 0}, {0, 0, 0}, 0, lo, hi, 0, {0}};
}

/* Probe k's total over its rows. */
static grains_probe_row total(const grains_sim *sim, int k)
{
    grains_probe_row *rows, all = {0, 0, 0, 0, {0, 0, 0}};
    size_t n;
    grains_error err;
    if (grains_sim_probe_rows(sim, k, &rows, &n, &err) != GRAINS_OK) {
        fprintf(stderr, "probe rows: %s\n", err.message);
        exit(1);
    }
    for (size_t r = 0; r < n; r++) {
        all.number += rows[r].number, all.mass += rows[r].mass;
        all.momentum.x += rows[r].momentum.x, all.momentum.y += rows[r].momentum.y,
            all.momentum.z += rows[r].momentum.z;
    }
    free(rows);
    return all;
}

/* Free flight, no gravity: a grain at velocity v through the plane z = 0
 * (normal -z), one going back up, one beside the disc. */
/* Two grains of one radius, of material 0 (rho) and material 1 (3 rho),
 * through a plane: the probe's mass is m_0 + m_1 = 4 m_0, its momentum
 * theirs (mutation: every mass taken as material 0's gives 2 m_0). */
static void two_materials(test_ctx *t)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 0.005;
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = 3 * p.rho, .E = p.E, .nu = p.nu};
    p.n_probes = 1;
    p.probe[0] = plane((grains_vec3){0, 0, 0}, (grains_vec3){0, 0, -1}, 0);
    grains_sim *sim = scene(&p);
    const grains_vec3 v = {0, 0, -1};
    grains_error err;
    for (int k = 0; k < 2; k++) {
        grains_particle q = {{0.1 * k, 0, 0.02}, v, {0, 0, 0}, {1, 0, 0, 0}, 0.005, k, 0};
        if (grains_sim_add_particle(sim, &q, &err) != GRAINS_OK)
            exit(fprintf(stderr, "%s\n", err.message));
    }
    double m0 = grains_params_mass(grains_sim_params(sim), 0, 0.005), m1 = grains_params_mass(grains_sim_params(sim), 1, 0.005);
    advance(sim, (long)ceil(0.04 / grains_sim_params(sim)->dt));
    grains_probe_row r = total(sim, 0);
    CHECK(t, r.number == 2 && fabs(m1 / m0 - 3) < 1e-15 && fabs(r.mass - 4 * m0) <= 1e-15 * 4 * m0 &&
              fabs(r.momentum.z + 4 * m0) <= 1e-15 * 4 * m0,
          "grains of density rho and 3 rho through a plane: %ld grains, %.6g kg (4 m_0 = %.6g), %.6g kg m/s down",
          r.number, r.mass, 4 * m0, -r.momentum.z);
    grains_sim_destroy(sim);
}

static void free_flight(test_ctx *t)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 0.005;
    p.n_probes = 2;
    p.probe[0] = plane((grains_vec3){0, 0, 0}, (grains_vec3){0, 0, -1}, 0.1);
    p.probe[1] = plane((grains_vec3){0, 0, 0}, (grains_vec3){0, 0, -1}, 0);
    grains_sim *sim = scene(&p);
    const grains_vec3 v = {0.3, 0.2, -1};
    add(sim, (grains_vec3){0, 0, 0.02}, v, (grains_vec3){0, 0, 0}, 0.005);
    add(sim, (grains_vec3){0.5, 0, 0.02}, v, (grains_vec3){0, 0, 0}, 0.005); /* beyond the disc of 0.1 */
    double m = grains_params_mass(grains_sim_params(sim), 0, 0.005);
    advance(sim, (long)ceil(0.04 / grains_sim_params(sim)->dt));
    grains_probe_row disc = total(sim, 0), whole = total(sim, 1);
    CHECK(t, disc.number == 1 && disc.mass == m && disc.momentum.x == m * v.x && disc.momentum.y == m * v.y &&
              disc.momentum.z == m * v.z,
          "a grain through the disc: 1 grain, its mass and m v (%ld, %g kg, %g kg m/s down)", disc.number, disc.mass,
          disc.momentum.z);
    CHECK(t, whole.number == 2, "the whole plane counts the grain beside the disc too (%ld)", whole.number);
    grains_particle q;
    grains_sim_get_particle(sim, 0, &q);
    q.v = (grains_vec3){-v.x, -v.y, -v.z};
    grains_sim_set_particle(sim, 0, &q);
    advance(sim, (long)ceil(0.04 / grains_sim_params(sim)->dt));
    disc = total(sim, 0);
    CHECK(t, disc.number == 0 && fabs(disc.mass) == 0 && disc.momentum.z == 2 * m * v.z,
          "sent back up through it: the crossings net 0 grains and 0 kg; the momentum carried down twice m v_z "
          "(%ld, %g, %g)", disc.number, disc.mass, disc.momentum.z);
    grains_sim_destroy(sim);
}

/* A grain at 1 m/s along x in a box periodic along x, 0.1 m long, from x =
 * 0.01 for 0.35 s: it passes x = 0.05 at 0.04, 0.14, 0.24 and 0.34 s. */
static void periodic_passes(test_ctx *t)
{
    grains_params p = scene_params();
    p.R_min = p.R_max = 0.002;
    p.periodic = 1;
    p.box_min = (grains_vec3){0, -0.1, -0.1};
    p.box_max = (grains_vec3){0.1, 0.1, 0.1};
    p.n_probes = 1;
    p.probe[0] = plane((grains_vec3){0.05, 0, 0}, (grains_vec3){1, 0, 0}, 0);
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0.01, 0, 0}, (grains_vec3){1, 0, 0}, (grains_vec3){0, 0, 0}, 0.002);
    advance(sim, (long)(0.35 / grains_sim_params(sim)->dt));
    grains_probe_row r = total(sim, 0);
    CHECK(t, r.number == 4, "a grain passing a plane in a periodic box 3.5 times its length: 4 crossings, the wraps "
          "not counted (%ld)", r.number);
    grains_sim_destroy(sim);
}

/* Grains of one radius spawned over a floor with a box sink at its middle;
 * probe 0 the plane z = 0.05 facing down, probe 1 the box below it, probe 2
 * a box around the whole of it, by size classes. */
static grains_sim *stream(int threads, long steps, const char *save_at_half, test_ctx *t)
{
    grains_params p = scene_params();
    p.threads = threads;
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = p.R_max = 0.004;
    p.N_max = 300;
    p.N_spawn = 5;
    p.s_min = (grains_vec3){-0.05, -0.05, 0.2};
    p.s_max = (grains_vec3){0.05, 0.05, 0.3};
    p.n_sinks = 1;
    p.sink[0] = (grains_sink){{-0.02, -0.1, -0.1}, {0.02, 0.1, 0.02}, 0};
    p.n_probes = 3;
    p.probe[0] = plane((grains_vec3){0, 0, 0.05}, (grains_vec3){0, 0, -1}, 0);
    p.probe[1] = box((grains_vec3){-100, -100, -100}, (grains_vec3){100, 100, 0.05}); /* (grains off the floor fall on) */
    p.probe[2] = box((grains_vec3){-1, -1, -1}, (grains_vec3){1, 1, 1});
    p.probe[2].n_sizes = 1, p.probe[2].size[0] = 0.004; /* class 0 below 4 mm: none; class 1 all */
    grains_sim *sim = scene(&p);
    grains_mesh *m = square_mesh(0.2, 0, "floor");
    grains_error err;
    if (grains_sim_set_mesh(sim, m, &err) != GRAINS_OK)
        exit(1);
    grains_mesh_destroy(m);
    double mg = mass(&p, 0.004);
    long worst = 0;
    double worst_mass = 0;
    for (long done = 0; done < steps; done += steps / 8) { /* every eighth: crossed = removed + below */
        advance(sim, steps / 8);
        grains_probe_row crossed = total(sim, 0), below = total(sim, 1);
        long held = (long)grains_sim_removed(sim, 0, 0, 1) + below.number;
        worst = labs(crossed.number - held) > worst ? labs(crossed.number - held) : worst;
        worst_mass = fmax(worst_mass, fabs(crossed.mass - (double)held * mg) / ((double)held * mg + 1e-300));
        if (save_at_half && done + steps / 8 == steps / 2 && grains_checkpoint_write(save_at_half, sim, NULL, 0, &err) != GRAINS_OK)
            exit(1);
    }
    if (t)
        CHECK(t, worst == 0 && worst_mass < 1e-12 && grains_sim_removed(sim, 0, 0, 1) > 20,
              "a stream through a plane into a sink: at 8 times the grains that crossed are those removed (%zu at "
              "the end) plus those below, exactly; their mass to %.2g", grains_sim_removed(sim, 0, 0, 1), worst_mass);
    return sim;
}

/* Every probe's rows the same bits. */
static int same_rows(const grains_sim *a, const grains_sim *b)
{
    for (int k = 0; k < grains_sim_params(a)->n_probes; k++) {
        grains_probe_row *ra, *rb;
        size_t na, nb;
        grains_error err;
        grains_sim_probe_rows(a, k, &ra, &na, &err);
        grains_sim_probe_rows(b, k, &rb, &nb, &err);
        int same = na == nb && memcmp(ra, rb, na * sizeof *ra) == 0;
        free(ra), free(rb);
        if (!same)
            return 0;
    }
    return 1;
}

static void threads_and_resume(test_ctx *t)
{
    const char *path = "test_probes.grains";
    const long steps = 16000;
    grains_sim *one = stream(1, steps, path, t), *three = stream(3, steps, NULL, NULL);
    CHECK(t, same_rows(one, three) && same_particles(one, three), "1 and 3 threads: every probe's rows the same bits");
    grains_params p = *grains_sim_params(one);
    grains_sim *resumed = scene(&p);
    grains_mesh *m = square_mesh(0.2, 0, "floor");
    grains_error err;
    grains_sim_set_mesh(resumed, m, &err);
    grains_mesh_destroy(m);
    CHECK(t, grains_checkpoint_read_sim(path, resumed, &err) == GRAINS_OK, "read back: %s", err.message);
    advance(resumed, steps / 2);
    CHECK(t, same_rows(one, resumed), "resumed half way: every probe's rows the same bits");
    grains_probe_row *rows;
    size_t n;
    grains_sim_probe_rows(one, 2, &rows, &n, &err);
    int classes = n > 0;
    for (size_t r = 0; r < n; r++)
        classes = classes && rows[r].size_class == 1 && rows[r].tag == 0;
    CHECK(t, classes, "grains of radius 4 mm with a bound at 4 mm: all in size class 1 (%zu rows)", n);
    free(rows);
    remove(path);
    grains_sim_destroy(one), grains_sim_destroy(three), grains_sim_destroy(resumed);
}

static void refused(test_ctx *t)
{
    grains_error err;
    const grains_probe bad[] = {
        plane((grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 2}, 0),     /* not a unit normal */
        plane((grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 1}, -1),    /* a negative radius */
        box((grains_vec3){0, 0, 0}, (grains_vec3){1, 0, 1}),          /* no volume */
        plane((grains_vec3){0, NAN, 0}, (grains_vec3){0, 0, 1}, 0),   /* NaN */
    };
    int all = 1;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        grains_params p = scene_params();
        p.n_probes = 1, p.probe[0] = bad[k];
        grains_params_derive(&p);
        all = all && grains_params_check(&p, &err) == GRAINS_ERR_RANGE;
    }
    grains_params p = scene_params();
    p.n_probes = 1, p.probe[0] = box((grains_vec3){0, 0, 0}, (grains_vec3){1, 1, 1});
    p.probe[0].n_sizes = 2, p.probe[0].size[0] = 0.003, p.probe[0].size[1] = 0.002;
    grains_params_derive(&p);
    all = all && grains_params_check(&p, &err) == GRAINS_ERR_RANGE;
    p = scene_params();
    grains_sim *sim = scene(&p);
    grains_probe_row *rows;
    size_t n;
    all = all && grains_sim_probe_rows(sim, 0, &rows, &n, &err) == GRAINS_ERR_ARG && !rows && !n;
    CHECK(t, all, "a plane without a unit normal, with a negative radius or a NaN, a box of no volume, sizes out of "
          "order, and the rows of a probe the run lacks are refused");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    free_flight(&t);
    two_materials(&t);
    periodic_passes(&t);
    threads_and_resume(&t);
    refused(&t);
    return test_report(&t, "test_probes");
}
