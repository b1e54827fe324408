/* Helpers for building small scenes in tests. */
#ifndef GRAINS_TESTS_SUPPORT_H
#define GRAINS_TESTS_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grains/mesh.h"
#include "grains/sim.h"

/* Parameters of a closed scene: no spawning, no gravity, no output. */
static inline grains_params scene_params(void)
{
    grains_params p;
    grains_params_default(&p);
    p.N_max = 0;
    p.N_spawn = 0;
    p.g = (grains_vec3){0, 0, 0};
    p.threads = 1;
    p.R_mesh[0] = 0; /* flat walls by default */
    return p;
}

/* n steps that must all succeed: a failed step ends the test program
 * (a failed step moves nothing, and a "nothing moved" check would pass). */
static inline void advance(grains_sim *sim, long n)
{
    grains_error err;
    if (grains_sim_advance(sim, n, &err) != GRAINS_OK) {
        fprintf(stderr, "FAIL: a step failed: %s\n", err.message);
        exit(1);
    }
}

static inline grains_sim *scene(const grains_params *p)
{
    grains_sim *sim = NULL;
    grains_error err;
    if (grains_sim_create(&sim, p, &err) != GRAINS_OK) {
        fprintf(stderr, "scene: %s\n", err.message);
        exit(1);
    }
    return sim;
}

static inline void add(grains_sim *sim, grains_vec3 x, grains_vec3 v, grains_vec3 w, double R)
{
    grains_particle p = {x, v, w, {1, 0, 0, 0}, R, 0, 0};
    grains_error err;
    if (grains_sim_add_particle(sim, &p, &err) != GRAINS_OK) {
        fprintf(stderr, "add: %s\n", err.message);
        exit(1);
    }
}

/* A particle of a material, at rest unless v, without spin. */
static inline void add_of(grains_sim *sim, grains_vec3 x, grains_vec3 v, double R, int material)
{
    grains_particle p = {x, v, {0, 0, 0}, {1, 0, 0, 0}, R, material, 0};
    grains_error err;
    if (grains_sim_add_particle(sim, &p, &err) != GRAINS_OK) {
        fprintf(stderr, "add: %s\n", err.message);
        exit(1);
    }
}

static inline grains_particle get(const grains_sim *sim, size_t i)
{
    grains_particle p;
    grains_sim_get_particle(sim, i, &p);
    return p;
}

/* Bit for bit, field by field (a struct's padding is not compared). */
static inline int same_particle(grains_particle p, grains_particle q)
{
    return memcmp(&p.x, &q.x, sizeof p.x) == 0 && memcmp(&p.v, &q.v, sizeof p.v) == 0 &&
           memcmp(&p.w, &q.w, sizeof p.w) == 0 && memcmp(&p.q, &q.q, sizeof p.q) == 0 &&
           memcmp(&p.R, &q.R, sizeof p.R) == 0 && p.material == q.material && p.tag == q.tag;
}

/* The same particles, bit for bit, in the same number. */
static inline int same_particles(const grains_sim *a, const grains_sim *b)
{
    if (grains_sim_count(a) != grains_sim_count(b))
        return 0;
    for (size_t i = 0; i < grains_sim_count(a); i++)
        if (!same_particle(get(a, i), get(b, i)))
            return 0;
    return 1;
}

static inline void step(grains_sim *sim)
{
    grains_error err;
    if (grains_sim_step(sim, &err) != GRAINS_OK) {
        fprintf(stderr, "step: %s\n", err.message);
        exit(1);
    }
}

/* The square [-L, L]^2 at height z, one rectangle of radius 0 (exits on
 * failure, naming `what`). */
static inline grains_mesh *square_mesh(double L, double z, const char *what)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-L, -L, z}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){L, -L, z}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){L, L, z}, &err);
    grains_mesh_add_vertex(m, (grains_vec3){-L, L, z}, &err);
    uint32_t v[4] = {0, 1, 2, 3};
    if (grains_mesh_add_element(m, 4, v, 0, 0, &err) != GRAINS_OK) {
        fprintf(stderr, "%s: %s\n", what, err.message);
        exit(1);
    }
    return m;
}

/* A floor: the square at height z, the simulation's only mesh. */
static inline void floor_mesh(grains_sim *sim, double L, double z)
{
    grains_mesh *m = square_mesh(L, z, "floor");
    grains_error err;
    if (grains_sim_set_mesh(sim, m, &err) != GRAINS_OK) {
        fprintf(stderr, "floor: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(m);
}

/* A plate: the square at height z, one more mesh, moving as m. */
static inline void plate(grains_sim *sim, double L, double z, grains_motion m)
{
    grains_mesh *mesh = square_mesh(L, z, "plate");
    grains_error err;
    if (grains_sim_add_mesh(sim, mesh, &m, &err) != GRAINS_OK) {
        fprintf(stderr, "plate: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(mesh);
}

/* A dense gas of grains of radius R in a box of side L = 16 R: 392 grains
 * (solid fraction 0.40), 7 x 7 x 8 on a lattice jittered by up to 0.01 R
 * (rows along z touching), velocities random up to `speed` along each
 * axis, drawn from `seed`. */
static inline grains_sim *dense_gas(const grains_params *p, double R, uint64_t seed, double speed)
{
    grains_sim *sim = scene(p);
    uint64_t r = seed;
    const double s = 16 * R / 7;
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++)
            for (int c = 0; c < 8; c++) {
                double j[6];
                for (int k = 0; k < 6; k++) {
                    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
                    j[k] = (double)(r >> 11) / 9007199254740992.0 - 0.5;
                }
                add(sim, (grains_vec3){(0.5 + b) * s + 0.02 * j[0] * R, (0.5 + a) * s + 0.02 * j[1] * R,
                                       (1.0 + 2.0 * c + 0.02 * j[2]) * R},
                    (grains_vec3){2 * speed * j[3], 2 * speed * j[4], 2 * speed * j[5]}, (grains_vec3){0, 0, 0}, R);
            }
    return sim;
}

static inline double mass(const grains_params *p, double R) { return 4.0 / 3.0 * 3.14159265358979323846 * p->rho * R * R * R; }

#endif
