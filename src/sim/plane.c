/* 2D runs (dimension = 2): each particle stays in its plane normal to the
 * axis plane_normal. TinyDEM confines particles to a plane when nothing
 * pushes them out of it (Section 3.6); a mesh that is not normal to the
 * plane does. Here the forces along the normal and the torques about the
 * in-plane axes are set to zero before each update, and velocities start
 * in the plane (grains_sim_set_particle): then the position along the
 * normal never changes, not even by round-off, and a particle spins about
 * the normal only. A wall still sees the particle's full contact force. */
#include "sim/sim_internal.h"

/* Component a of v. */
static inline real *axis(vec3 *v, int a) { return a == 0 ? &v->x : a == 1 ? &v->y : &v->z; }

void sim_plane_motion(const grains_params *p, vec3 *v, vec3 *w)
{
    if (p->dimension != 2)
        return;
    int a = p->plane_normal;
    *axis(v, a) = 0;
    *axis(w, (a + 1) % 3) = 0;
    *axis(w, (a + 2) % 3) = 0;
}

void sim_plane_forces(grains_sim *sim)
{
    if (sim->p.dimension != 2)
        return;
    const long n = (long)sim->pt.n;
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++)
        sim_plane_motion(&sim->p, &sim->pt.f[i], &sim->pt.t[i]);
}
