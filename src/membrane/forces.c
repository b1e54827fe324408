/* The forces within a membrane (membrane/forces.h).
 *
 * Two signs differ from the paper as printed, neither a convention:
 * - Eq. 6 puts the spring along +rho_ij, pushing i away from j when the
 *   edge is stretched; a stretched edge would then grow without bound. The
 *   spring here pulls (F_i = -rho^ [k (rho - rho0) + c rho^ . rho']), its
 *   dashpot as printed.
 * - Eq. 16 drops the minus sign of Bridson et al.'s u_4; without it the
 *   four forces of a hinge do not sum to zero (tests/test_membrane.c
 *   measures the net force), and a bent sheet would push itself along.
 * Eq. 10's normals are unit normals, and theta is signed (Bridson), so
 * that Eq. 11 restores from either side. */
#include "membrane/forces.h"

#include <math.h>

/* One edge's spring and dashpot (Eqs. 6-7, the spring's sign corrected). */
static void edge_force(const membrane *m, const membrane_edge *e, real k, const vec3 *x, const vec3 *v, vec3 *f)
{
    vec3 d = v3_sub(x[e->i], x[e->j]);
    real len = v3_norm(d);
    if (!(len > 0))
        return; /* coinciding vertices have no direction */
    vec3 n = v3_scale(1 / len, d);
    real m_i = m->mass[e->i], m_j = m->mass[e->j];
    real c = 2 * m->mat.gamma * sqrt(k * m_i * m_j / (m_i + m_j));
    real s = k * (len - e->rest) + c * v3_dot(n, v3_sub(v[e->i], v[e->j]));
    f[e->i] = v3_sub(f[e->i], v3_scale(s, n));
    f[e->j] = v3_add(f[e->j], v3_scale(s, n));
}

hinge_state membrane_hinge_state(const membrane_hinge *h, const vec3 *x)
{
    hinge_state s = {0};
    vec3 x1 = x[h->v1], x2 = x[h->v2], x3 = x[h->v3], x4 = x[h->v4];
    vec3 N1 = v3_cross(v3_sub(x1, x3), v3_sub(x1, x4)); /* Eq. 8 */
    vec3 N2 = v3_cross(v3_sub(x2, x4), v3_sub(x2, x3)); /* Eq. 9 */
    vec3 E = v3_sub(x4, x3);
    real a1 = v3_dot(N1, N1), a2 = v3_dot(N2, N2), L = v3_norm(E);
    if (!(a1 > 0 && a2 > 0 && L > 0))
        return s;
    real n1 = sqrt(a1), n2 = sqrt(a2);
    vec3 m1 = v3_scale(1 / n1, N1), m2 = v3_scale(1 / n2, N2);
    real theta = atan2(v3_dot(v3_cross(m1, m2), E) / L, v3_dot(m1, m2)); /* Eq. 10, signed */
    vec3 g1 = v3_scale(1 / a1, N1), g2 = v3_scale(1 / a2, N2);
    s.u[0] = v3_scale(L, g1);                                                          /* Eq. 13 */
    s.u[1] = v3_scale(L, g2);                                                          /* Eq. 14 */
    s.u[2] = v3_add(v3_scale(v3_dot(v3_sub(x1, x4), E) / L, g1), v3_scale(v3_dot(v3_sub(x2, x4), E) / L, g2)); /* Eq. 15 */
    s.u[3] = v3_scale(-1, v3_add(v3_scale(v3_dot(v3_sub(x1, x3), E) / L, g1),
                                 v3_scale(v3_dot(v3_sub(x2, x3), E) / L, g2))); /* Eq. 16 with Bridson's sign */
    s.sin_half = sin(theta / 2);
    s.edge = L;
    s.n_sum = n1 + n2;
    s.ok = 1;
    return s;
}

/* One hinge: Eq. 11 (elastic) and Eq. 12 (dissipative, with theta' =
 * -sum u_i . v_i). */
static void hinge_force(const membrane *m, const membrane_hinge *h, const vec3 *x, const vec3 *v, vec3 *f)
{
    hinge_state s = membrane_hinge_state(h, x);
    if (!s.ok)
        return;
    const uint32_t at[4] = {h->v1, h->v2, h->v3, h->v4};
    real rate = 0; /* -theta' */
    for (int k = 0; k < 4; k++)
        rate += v3_dot(s.u[k], v[at[k]]);
    real el = m->mat.k_el * s.edge * s.edge / s.n_sum * (s.sin_half - h->sin_half_rest);
    real scale = el - m->mat.k_diss * s.edge * rate;
    for (int k = 0; k < 4; k++)
        f[at[k]] = v3_axpy(f[at[k]], scale, s.u[k]);
}

/* A confining pressure on one triangle, A sigma_c along the inward normal
 * (Eq. 18), a third to each vertex. */
static void pressure_force(real pressure, const membrane_triangle *t, const vec3 *x, vec3 *f)
{
    vec3 a = x[t->v[0]], N = v3_cross(v3_sub(x[t->v[1]], a), v3_sub(x[t->v[2]], a)); /* |N| = 2 A, outwards */
    vec3 share = v3_scale(-pressure / 6, N);
    for (int k = 0; k < 3; k++)
        f[t->v[k]] = v3_add(f[t->v[k]], share);
}

void membrane_set_rest_angles(membrane *m)
{
    for (size_t k = 0; k < m->n_hinges; k++)
        m->hinges[k].sin_half_rest = membrane_hinge_state(&m->hinges[k], m->x0).sin_half;
}

real membrane_pressure_at(const membrane_material *mat, real t)
{
    real since = t - mat->pressure_after;
    if (since < 0)
        return 0;
    return mat->pressure_ramp > 0 && since < mat->pressure_ramp ? mat->pressure * (since / mat->pressure_ramp)
                                                                 : mat->pressure;
}

void membrane_forces(const membrane *m, const vec3 *x, const vec3 *v, real pressure, vec3 *f)
{
    real k = membrane_spring_constant(&m->mat);
    for (size_t e = 0; e < m->n_edges; e++)
        edge_force(m, &m->edges[e], k, x, v, f);
    if (m->mat.k_el > 0 || m->mat.k_diss > 0)
        for (size_t h = 0; h < m->n_hinges; h++)
            hinge_force(m, &m->hinges[h], x, v, f);
    if (pressure != 0)
        for (size_t t = 0; t < m->n_triangles; t++)
            pressure_force(pressure, &m->triangles[t], x, f);
}

double membrane_area(const membrane *m, const vec3 *x)
{
    double twice = 0;
    for (size_t t = 0; t < m->n_triangles; t++) {
        const uint32_t *v = m->triangles[t].v;
        twice += v3_norm(v3_cross(v3_sub(x[v[1]], x[v[0]]), v3_sub(x[v[2]], x[v[0]])));
    }
    return twice / 2;
}

double membrane_stretch_energy(const membrane *m, const vec3 *x)
{
    real k = membrane_spring_constant(&m->mat);
    double U = 0;
    for (size_t e = 0; e < m->n_edges; e++) {
        real stretch = v3_norm(v3_sub(x[m->edges[e].i], x[m->edges[e].j])) - m->edges[e].rest;
        U += 0.5 * k * stretch * stretch;
    }
    return U;
}
