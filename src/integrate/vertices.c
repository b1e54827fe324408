/* The membranes' vertices: point masses that move by the run's own scheme,
 * translation only, without drag (integrate/integrator.h). */
#include "integrate/integrator.h"

static vec3 acceleration(const vertex_view *v, size_t i)
{
    return v3_add(v3_scale(v->inv_mass[i], v->f[i]), v->g);
}

/* Semi-implicit Euler (TinyDEM Eqs. 41, 43-44): the new velocity moves. */
void integrate_vertices_euler(const vertex_view *v)
{
    for (size_t i = 0; i < v->n; i++) {
        v->v[i] = v3_axpy(v->v[i], v->dt, acceleration(v, i));
        v->x[i] = v3_axpy(v->x[i], v->dt, v->v[i]);
    }
}

/* Velocity Verlet's half kick with a(t) and drift (improved-Verlet Eqs. 8-9). */
void integrate_vertices_drift(const vertex_view *v)
{
    for (size_t i = 0; i < v->n; i++) {
        v->v[i] = v3_axpy(v->v[i], v->dt / 2, acceleration(v, i));
        v->x[i] = v3_axpy(v->x[i], v->dt, v->v[i]);
    }
}

/* And its second half kick with a(t + dt) (Eq. 20). */
void integrate_vertices_kick(const vertex_view *v)
{
    for (size_t i = 0; i < v->n; i++)
        v->v[i] = v3_axpy(v->v[i], v->dt / 2, acceleration(v, i));
}
