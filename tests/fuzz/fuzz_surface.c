/* Fuzzes the numbers a scenario hands the simulation, past its reader:
 * generated membranes (a cylinder's radius, height and spacing; a sheet's
 * counts), a floor's motion (type and every number of it) and two grains'
 * radii, velocities and spins. Whatever the numbers, each is refused with
 * an error or runs, and a run's state stays finite after every step that
 * succeeds (sim/scales.c, sim/verdict.c): a non-finite one aborts, which
 * libFuzzer reports as a crash. The input is read as doubles, then bytes. */
#include <math.h>

#include "fuzz_input.h"
#include "grains/sim.h"
#include "membrane/sheet.h"

/* The input's k-th double, 0 past its end. */
static double number(const uint8_t *data, size_t size, size_t k)
{
    double v = 0;
    if ((k + 1) * sizeof v <= size)
        memcpy(&v, data + k * sizeof v, sizeof v);
    return v;
}

/* Membranes the generators would make with between 10^5 and their limit
 * of 10^7 vertices are passed over: building them is linear work (1.4 s
 * for 5.7 million under ASan's 10x), of no interest and past the fuzzer's
 * time per input; those beyond the limit are refused before any is made. */
static int large(double R, double H, double s)
{
    double n = (2 * 3.14159 * R / s + 3) * (H / (0.866 * s) + 2);
    return n > 1e5 && n <= 1.1e7;
}

static void membranes(const uint8_t *data, size_t size)
{
    grains_mesh *m = NULL;
    size_t n_ring;
    grains_error err;
    double R = number(data, size, 0), H = number(data, size, 1), s = number(data, size, 2);
    if (!large(R, H, s) && membrane_cylinder_mesh(&m, &n_ring, R, H, s, &err) == GRAINS_OK)
        grains_mesh_destroy(m);
    double nx = number(data, size, 3), ny = number(data, size, 4);
    int ix = isfinite(nx) && fabs(nx) < 300 ? (int)nx : 2, iy = isfinite(ny) && fabs(ny) < 300 ? (int)ny : 2;
    if (membrane_sheet_mesh(&m, ix, iy, number(data, size, 5), &err) == GRAINS_OK)
        grains_mesh_destroy(m);
}

/* A floor moving by the input's motion. */
static int moving_floor(grains_sim *sim, const uint8_t *data, size_t size)
{
    static const grains_motion_type types[] = {GRAINS_MOTION_FIXED, GRAINS_MOTION_LINEAR, GRAINS_MOTION_ROTATE,
                                                GRAINS_MOTION_VIBRATE, GRAINS_MOTION_SERVO};
    grains_motion mo = grains_motion_fixed();
    mo.type = types[(size > 0 ? data[size - 1] : 0) % 5];
    mo.velocity = (grains_vec3){number(data, size, 6), number(data, size, 7), number(data, size, 8)};
    mo.axis = (grains_vec3){number(data, size, 9), number(data, size, 10), 1};
    mo.omega = number(data, size, 11);
    mo.amplitude = fabs(number(data, size, 12));
    mo.frequency = fabs(number(data, size, 13));
    mo.force = fabs(number(data, size, 14));
    mo.max_speed = fabs(number(data, size, 15));
    grains_mesh *m;
    grains_error err;
    if (grains_mesh_create(&m, &err) != GRAINS_OK)
        return 0;
    grains_mesh_add_vertex(m, (grains_vec3){-0.1, -0.1, 0}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){0.1, -0.1, 0}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){0.1, 0.1, 0}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-0.1, 0.1, 0}, &err);
    uint32_t v[4] = {0, 1, 2, 3};
    grains_mesh_add_element(m, 4, v, 0, 0, &err);
    int ok = grains_sim_add_mesh(sim, m, &mo, &err) == GRAINS_OK;
    grains_mesh_destroy(m);
    return ok;
}

/* Grain k of the input: radius, velocity, spin. */
static void grain(grains_sim *sim, const uint8_t *data, size_t size, size_t k, double x)
{
    size_t at = 16 + 7 * k;
    grains_particle p = {{x, 0, 0.01}, {number(data, size, at + 1), number(data, size, at + 2),
                         number(data, size, at + 3)}, {number(data, size, at + 4), number(data, size, at + 5),
                         number(data, size, at + 6)}, {1, 0, 0, 0}, fabs(number(data, size, at)), 0, 0};
    grains_error err;
    grains_sim_add_particle(sim, &p, &err);
}

static int finite_state(const grains_sim *sim)
{
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_particle p;
        grains_sim_get_particle(sim, i, &p);
        double all[] = {p.x.x, p.x.y, p.x.z, p.v.x, p.v.y, p.v.z, p.w.x, p.w.y, p.w.z};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
            if (!isfinite(all[k]))
                return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    membranes(data, size);
    grains_params p;
    grains_params_default(&p);
    p.N_max = 0;
    p.threads = 1;
    p.g = (grains_vec3){0, 0, -9.81};
    grains_sim *sim;
    grains_error err;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK)
        return 0;
    if (moving_floor(sim, data, size)) {
        grain(sim, data, size, 0, 0);
        grain(sim, data, size, 1, 0.02);
        for (int s = 0; s < 20 && grains_sim_step(sim, &err) == GRAINS_OK; s++)
            if (!finite_state(sim))
                abort();
    }
    grains_sim_destroy(sim);
    return 0;
}
