/* The topology and rest state of a membrane (membrane/membrane.h). */
#include "membrane/membrane.h"
#include "membrane/forces.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One side of a triangle: the edge a -> b of triangle t, whose third vertex is c. */
typedef struct {
    uint32_t lo, hi;   /* the edge, lo < hi */
    uint32_t a, b, c;
    uint32_t t;
} half_edge;

static int by_edge(const void *pa, const void *pb)
{
    const half_edge *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return a->t < b->t ? -1 : a->t > b->t;
}

/* A servo on the felt stress (GRAINS_PRESSURE_FELT) needs a stress to hold and an axis to measure about. */
static grains_status check_servo(const membrane_material *m, const char *where, grains_error *err)
{
    vec3 a = m->axis, o = m->axis_point;
    if (!(m->pressure > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                "membrane: pressure = %g: pressure_control = \"felt\" needs a pressure > 0",
                                m->pressure);
    if (!(m->control_time >= 0) || !isfinite(m->control_time))
        return grains_error_set(err, GRAINS_ERR_RANGE, where, 0, "membrane: control_time = %g must be >= 0",
                                m->control_time);
    if (!v3_isfinite(o) || !v3_isfinite(a) || !(v3_dot(a, a) > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                "membrane: pressure_control = \"felt\" needs a finite axis of length > 0 and a finite "
                                "point on it");
    return GRAINS_OK;
}

static grains_status check_material(const membrane_material *m, const char *where, grains_error *err)
{
    if (!(m->E > 0) || !(m->d > 0) || !(m->rho > 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                "membrane: E = %g, d = %g and rho = %g must be > 0", m->E, m->d, m->rho);
    const real rest[] = {m->gamma, m->k_el, m->k_diss, m->vertex_radius, m->pressure_after, m->pressure_ramp};
    const char *names[] = {"gamma", "k_el", "k_diss", "vertex_radius", "pressure_after", "pressure_ramp"};
    for (int k = 0; k < 6; k++)
        if (!(rest[k] >= 0) || !isfinite(rest[k]))
            return grains_error_set(err, GRAINS_ERR_RANGE, where, 0, "membrane: %s = %g must be >= 0", names[k],
                                    rest[k]);
    if (!isfinite(m->E) || !isfinite(m->d) || !isfinite(m->rho) || !isfinite(m->pressure))
        return grains_error_set(err, GRAINS_ERR_RANGE, where, 0, "membrane: E, d, rho and pressure must be finite");
    if (m->pressure_control != GRAINS_PRESSURE_APPLIED && m->pressure_control != GRAINS_PRESSURE_FELT)
        return grains_error_set(err, GRAINS_ERR_RANGE, where, 0, "membrane: pressure_control %d is not one of %d, %d",
                                (int)m->pressure_control, GRAINS_PRESSURE_APPLIED, GRAINS_PRESSURE_FELT);
    return m->pressure_control == GRAINS_PRESSURE_FELT ? check_servo(m, where, err) : GRAINS_OK;
}

/* The triangles, and each one's mass in thirds to its vertices. */
static grains_status copy_triangles(membrane *m, const grains_mesh *mesh, const char *where, grains_error *err)
{
    m->n_triangles = mesh->n_elements;
    m->triangles = malloc((m->n_triangles ? m->n_triangles : 1) * sizeof *m->triangles);
    if (!m->triangles)
        return grains_error_set(err, GRAINS_ERR_NOMEM, where, 0, "out of memory for a membrane");
    for (size_t t = 0; t < mesh->n_elements; t++) {
        const grains_mesh_element *el = &mesh->elements[t];
        if (el->n != 3)
            return grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                    "membrane: element %zu has %d vertices; a membrane is made of triangles", t,
                                    el->n);
        memcpy(m->triangles[t].v, el->v, sizeof m->triangles[t].v);
        vec3 a = m->x0[el->v[0]], b = m->x0[el->v[1]], c = m->x0[el->v[2]];
        real third = m->mat.rho * m->mat.d * v3_norm(v3_cross(v3_sub(b, a), v3_sub(c, a))) / 6;
        for (int k = 0; k < 3; k++)
            m->mass[el->v[k]] += third;
    }
    return GRAINS_OK;
}

/* The triangles' sides sorted by edge: an edge's sides are adjacent. */
static half_edge *sides_of(const membrane *m)
{
    half_edge *h = malloc((3 * m->n_triangles + 1) * sizeof *h);
    if (!h)
        return NULL;
    for (uint32_t t = 0; t < m->n_triangles; t++)
        for (int k = 0; k < 3; k++) {
            uint32_t a = m->triangles[t].v[k], b = m->triangles[t].v[(k + 1) % 3], c = m->triangles[t].v[(k + 2) % 3];
            h[3 * t + k] = (half_edge){a < b ? a : b, a < b ? b : a, a, b, c, t};
        }
    qsort(h, 3 * m->n_triangles, sizeof *h, by_edge);
    return h;
}

/* A hinge from the two sides of one edge: x3 -> x4 as the first side runs it. */
static membrane_hinge hinge_of(const half_edge *s, const half_edge *o)
{
    return (membrane_hinge){s->c, o->c, s->a, s->b, 0};
}

/* Edges and hinges from the sorted sides. */
static grains_status edges_and_hinges(membrane *m, const half_edge *h, const char *where, grains_error *err)
{
    size_t n = 3 * m->n_triangles;
    m->edges = malloc((n + 1) * sizeof *m->edges);
    m->hinges = malloc((n / 2 + 1) * sizeof *m->hinges);
    if (!m->edges || !m->hinges)
        return grains_error_set(err, GRAINS_ERR_NOMEM, where, 0, "out of memory for a membrane");
    for (size_t k = 0; k < n;) {
        size_t end = k + 1;
        while (end < n && h[end].lo == h[k].lo && h[end].hi == h[k].hi)
            end++;
        if (end - k > 2)
            return grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                    "membrane: the edge of vertices %u and %u is shared by %zu triangles; a "
                                    "membrane's edge has at most two (no hinge can join more)",
                                    h[k].lo, h[k].hi, end - k);
        if (end - k == 2 && h[k].a == h[k + 1].a)
            return grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                    "membrane: triangles %u and %u run the edge %u -> %u the same way; orient the "
                                    "surface consistently (counter-clockwise seen from outside)",
                                    h[k].t, h[k + 1].t, h[k].a, h[k].b);
        m->edges[m->n_edges++] = (membrane_edge){h[k].lo, h[k].hi, v3_norm(v3_sub(m->x0[h[k].lo], m->x0[h[k].hi]))};
        if (end - k == 2)
            m->hinges[m->n_hinges++] = hinge_of(&h[k], &h[k + 1]);
        k = end;
    }
    return GRAINS_OK;
}

/* The triangle across edge {v, u} from triangle t, or UINT32_MAX at the rim. */
static uint32_t across(const half_edge *h, size_t n, uint32_t v, uint32_t u, uint32_t t)
{
    half_edge key = {v < u ? v : u, v < u ? u : v, 0, 0, 0, 0};
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first side of the edge */
        size_t mid = (lo + hi) / 2;
        if (h[mid].lo < key.lo || (h[mid].lo == key.lo && h[mid].hi < key.hi))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < n && h[k].lo == key.lo && h[k].hi == key.hi; k++)
        if (h[k].t != t)
            return h[k].t;
    return UINT32_MAX;
}

/* Whether the triangles at vertex v (t_of[first .. end)) form one fan:
 * walking across the edges at v from the first reaches them all. */
static int one_fan(const membrane *m, const half_edge *h, uint32_t v, const uint32_t *t_of, size_t first,
                   size_t end, uint32_t *stack, unsigned char *seen)
{
    size_t n_at = end - first, reached = 0, top = 0;
    memset(seen, 0, n_at);
    stack[top++] = t_of[first];
    seen[0] = 1;
    while (top) {
        uint32_t t = stack[--top];
        reached++;
        for (int k = 0; k < 3; k++) {
            uint32_t u = m->triangles[t].v[k];
            if (u == v)
                continue;
            uint32_t o = across(h, 3 * m->n_triangles, v, u, t);
            for (size_t q = 0; o != UINT32_MAX && q < n_at; q++)
                if (t_of[first + q] == o && !seen[q]) {
                    seen[q] = 1;
                    stack[top++] = o;
                }
        }
    }
    return reached == n_at;
}

/* Every vertex's triangles form one fan (open at a rim, or closed). */
static grains_status check_fans(const membrane *m, const half_edge *h, const char *where, grains_error *err)
{
    size_t nv = m->n_vertices, nt = m->n_triangles;
    size_t *start = calloc(nv + 1, sizeof *start);
    uint32_t *t_of = malloc((3 * nt + 1) * sizeof *t_of), *stack = malloc((3 * nt + 1) * sizeof *stack);
    unsigned char *seen = malloc(3 * nt + 1);
    grains_status s = GRAINS_OK;
    if (!start || !t_of || !stack || !seen)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, where, 0, "out of memory for a membrane");
    for (size_t t = 0; s == GRAINS_OK && t < nt; t++)
        for (int k = 0; k < 3; k++)
            start[m->triangles[t].v[k] + 1]++;
    for (size_t v = 0; s == GRAINS_OK && v < nv; v++)
        start[v + 1] += start[v];
    for (size_t t = 0; s == GRAINS_OK && t < nt; t++)
        for (int k = 0; k < 3; k++)
            t_of[start[m->triangles[t].v[k]]++] = (uint32_t)t;
    for (size_t v = nv; s == GRAINS_OK && v > 0; v--)
        start[v] = start[v - 1];
    if (s == GRAINS_OK)
        start[0] = 0;
    for (uint32_t v = 0; s == GRAINS_OK && v < nv; v++)
        if (start[v + 1] > start[v] && !one_fan(m, h, v, t_of, start[v], start[v + 1], stack, seen))
            s = grains_error_set(err, GRAINS_ERR_RANGE, where, 0,
                                 "membrane: the triangles at vertex %u form more than one fan (sheets touching at a "
                                 "point); no hinge joins them",
                                 v);
    free(start);
    free(t_of);
    free(stack);
    free(seen);
    return s;
}

grains_status membrane_build(membrane *out, const grains_mesh *mesh, const membrane_material *mat,
                             const char *where, grains_error *err)
{
    memset(out, 0, sizeof *out);
    grains_status s = check_material(mat, where, err);
    if (s != GRAINS_OK)
        return s;
    out->mat = *mat;
    out->n_vertices = mesh->n_vertices;
    out->x0 = malloc((mesh->n_vertices + 1) * sizeof *out->x0);
    out->mass = calloc(mesh->n_vertices + 1, sizeof *out->mass);
    if (!out->x0 || !out->mass)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, where, 0, "out of memory for a membrane");
    else
        memcpy(out->x0, mesh->vertices, mesh->n_vertices * sizeof *out->x0);
    if (s == GRAINS_OK)
        s = copy_triangles(out, mesh, where, err);
    half_edge *h = s == GRAINS_OK ? sides_of(out) : NULL;
    if (s == GRAINS_OK && !h)
        s = grains_error_set(err, GRAINS_ERR_NOMEM, where, 0, "out of memory for a membrane");
    if (s == GRAINS_OK)
        s = edges_and_hinges(out, h, where, err);
    if (s == GRAINS_OK)
        s = check_fans(out, h, where, err);
    free(h);
    if (s != GRAINS_OK) {
        membrane_free(out);
        return s;
    }
    membrane_set_rest_angles(out);
    return GRAINS_OK;
}

void membrane_free(membrane *m)
{
    free(m->x0);
    free(m->mass);
    free(m->edges);
    free(m->hinges);
    free(m->triangles);
    memset(m, 0, sizeof *m);
}
