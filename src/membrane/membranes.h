/* A simulation's membranes (membrane/membrane.h): their vertices as point
 * masses, one array each for all membranes together. */
#ifndef GRAINS_MEMBRANE_MEMBRANES_H
#define GRAINS_MEMBRANE_MEMBRANES_H

#include "boundary/walls.h"
#include "grains/sim.h"
#include "integrate/integrator.h"
#include "membrane/membrane.h"

typedef struct {
    membrane *list;
    size_t n, cap;
    size_t *first;        /* each membrane's first vertex in the arrays below */
    size_t *mesh_first;   /* and in the combined mesh, where its triangles are patches (body -1 - k) */
    vec3 *x, *v, *f;      /* per vertex: position, velocity, force without gravity */
    real *inv_mass;
    int *pin;             /* the mesh a vertex is pinned to, or -1 */
    vec3 *pin_ref;        /* a pinned vertex's place on its mesh, where the mesh's file puts it */
    vec3 *x_listed;       /* where each vertex was when the lists were built */
    real *held;           /* [M/LT^2] per membrane: what its servo adds to the pressure
                           * (GRAINS_PRESSURE_FELT; else 0) */
    size_t n_vertices, cap_vertices;
    size_t n_pinned;
} sim_membranes;

/* Adds the membrane of `mesh`'s triangles, whose patches are the combined
 * mesh's vertices from mesh_first on; on failure nothing is added. */
grains_status sim_membranes_add(sim_membranes *ms, const grains_mesh *mesh, const membrane_material *mat,
                                size_t mesh_first, grains_error *err);

/* The vertices where they are now into the combined mesh (the patches). */
void sim_membranes_place(const sim_membranes *ms, grains_mesh *combined);

/* The lists are built now; and how far a vertex has moved since. */
void sim_membranes_listed(sim_membranes *ms);
real sim_membranes_displacement(const sim_membranes *ms);

/* Membrane k's vertex (of all membranes' vertices) at combined-mesh vertex v. */
static inline uint32_t sim_membranes_vertex(const sim_membranes *ms, int k, uint32_t v)
{
    return (uint32_t)(ms->first[k] + (v - ms->mesh_first[k]));
}
/* What the core asks of the membranes (it reads none of their members):
 * how many, their vertices in all, whether any vertex is pinned. */
static inline size_t sim_membranes_count(const sim_membranes *ms) { return ms->n; }
static inline size_t sim_membranes_vertex_count(const sim_membranes *ms) { return ms->n_vertices; }
static inline int sim_membranes_any_pinned(const sim_membranes *ms) { return ms->n_pinned > 0; }

/* The membranes one at a time (membrane/membrane_records.c): whether a
 * vertex is pinned to mesh `mesh`; the last one added let go (its patches
 * failed to join the meshes); whether membrane k has vertex i; membrane
 * k's vertices and triangles; vertex i of membrane k read, set, pinned to
 * a mesh; triangle t's vertices in v and its stretch (area now over area
 * at rest); every vertex's position and velocity kept in xv (2 x the
 * vertex count) and put back. */
int sim_membranes_pin_on(const sim_membranes *ms, int mesh);
void sim_membranes_drop_last(sim_membranes *ms);
int sim_membranes_has_vertex(const sim_membranes *ms, size_t k, size_t i);
size_t sim_membranes_vertices_of(const sim_membranes *ms, size_t k);
size_t sim_membranes_triangles_of(const sim_membranes *ms, size_t k);
grains_membrane_vertex sim_membranes_get_vertex(const sim_membranes *ms, size_t k, size_t i);
void sim_membranes_set_vertex(sim_membranes *ms, size_t k, size_t i, vec3 x, vec3 v);
void sim_membranes_pin_vertex(sim_membranes *ms, size_t k, size_t i, const walls *wl, int mesh);
double sim_membranes_triangle(const sim_membranes *ms, size_t k, size_t t, uint32_t v[3]);
void sim_membranes_save(const sim_membranes *ms, vec3 *xv);
/* The fastest vertex's speed. */
real sim_membranes_fastest(const sim_membranes *ms);
/* The vertices moved by an integrator's vertex loop fn (integrate/vertices.c) under gravity g. */
void sim_membranes_move(sim_membranes *ms, void (*fn)(const vertex_view *), vec3 g, real dt);
void sim_membranes_restore(sim_membranes *ms, const vec3 *xv);

void sim_membranes_free(sim_membranes *ms);

/* The vertices' positions, velocities, forces and places at the lists, and
 * the servos' additions (checkpoints), and back into the same membranes; an
 * error (no file name) for another count or a value not finite. */
void sim_membranes_write_state(const sim_membranes *ms, bytes_out *o);
grains_status sim_membranes_read_state(sim_membranes *ms, bytes_in *in, grains_error *err);

/* The pressure membrane k applies at time t: its own (membrane_pressure_at)
 * and what its servo adds, never below 0 for a servo. */
real sim_membranes_pressure(const sim_membranes *ms, size_t k, real t);

/* Every vertex's force from its membrane (springs, hinges, pressure at time
 * t) in f, membrane by membrane; the lowest vertex whose force is not
 * finite, or -1. */
long sim_membranes_forces(sim_membranes *ms, real t);

/* Pins vertex `at` (of all membranes' vertices) to body `wall` where it is now. */
void sim_membranes_pin(sim_membranes *ms, size_t at, const walls *wl, int wall);

/* Pinned vertices where their meshes are now, at their material points'
 * velocities. */
void sim_membranes_follow(sim_membranes *ms, const walls *wl);

/* Newton's third law for pinned vertices: each mesh holding some gets the
 * membranes' force on them (and its moment about the mesh's centre). */
void sim_membranes_pull_walls(const sim_membranes *ms, walls *wl);

/* The memory they hold. */
size_t sim_membranes_bytes(const sim_membranes *ms);

/* The vertices' kinetic energy and the edge springs' elastic energy. */
double sim_membranes_energy(const sim_membranes *ms);

#endif
