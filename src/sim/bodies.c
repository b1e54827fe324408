/* The bodies grains touch: meshes and their walls, and membranes; added, replaced, read and set. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "membrane/forces.h"
#include "sim/sim_internal.h"

/* Checks element e of a mesh being added against the run's radii and materials. */
static grains_status check_element(const grains_mesh_element *el, size_t e, int by_index, const grains_params *p,
                                   grains_error *err)
{
    if (by_index && (el->radius_index < 0 || el->radius_index >= p->n_mesh_radii))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "mesh element %zu uses radius index %d, but only %d mesh radii are given (R_mesh)", e,
                                el->radius_index, p->n_mesh_radii);
    if (el->material < GRAINS_MESH_MATERIAL_DEFAULT || el->material >= p->n_materials)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "mesh element %zu has material %d; materials are 0 to %d (-1 rigid)", e, el->material,
                                p->n_materials - 1);
    return GRAINS_OK;
}

/* Appends src's vertices and elements to the combined mesh as body `body`,
 * with their own radii or (by_index) params.R_mesh[radius_index]; on
 * failure the combined mesh is as it was. */
static grains_status append_mesh(grains_mesh *m, const grains_mesh *src, int body, int by_index,
                                 const grains_params *p, grains_error *err)
{
    size_t first_vertex = m->n_vertices, first_element = m->n_elements;
    grains_status s = GRAINS_OK;
    for (size_t k = 0; s == GRAINS_OK && k < src->n_vertices; k++)
        s = grains_mesh_add_vertex(m, src->vertices[k], err);
    for (size_t e = 0; s == GRAINS_OK && e < src->n_elements; e++) {
        const grains_mesh_element *el = &src->elements[e];
        uint32_t v[4];
        for (int k = 0; k < 4; k++)
            v[k] = el->v[k] + (uint32_t)first_vertex;
        if ((s = check_element(el, e, by_index, p, err)) == GRAINS_OK)
            s = grains_mesh_add_element(m, el->n, v, el->radius_index,
                                        by_index ? p->R_mesh[el->radius_index] : el->R, err);
        if (s == GRAINS_OK) { /* the run's mesh_material for an element that names none */
            grains_mesh_element *added = &m->elements[m->n_elements - 1];
            added->material = el->material == GRAINS_MESH_MATERIAL_DEFAULT ? p->mesh_material : el->material;
            added->body = body;
        }
    }
    if (s != GRAINS_OK) {
        m->n_vertices = first_vertex;
        m->n_elements = first_element;
    }
    return s;
}

static grains_status add_mesh(grains_sim *sim, const grains_mesh *mesh, const grains_motion *motion, int by_index,
                              grains_error *err)
{
    grains_motion fixed = grains_motion_fixed();
    if (!motion)
        motion = &fixed;
    if (motion->type != GRAINS_MOTION_FIXED && grains_integrator_variational(sim->p.integrator))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "a moving mesh needs an explicit integrator (euler, verlet or verlet_improved): the "
                                "variational integrators take walls as fixed");
    if (sim->wl.n >= GRAINS_MAX_MESHES)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "more than %d meshes", GRAINS_MAX_MESHES);
    real reach = 0;
    for (size_t k = 0; k < mesh->n_vertices; k++)
        reach = fmax(reach, v3_norm(v3_sub(mesh->vertices[k], motion->point)));
    grains_status s = sim_scale_mesh(sim, mesh, err);
    /* (a motion motion_check refuses is refused by walls_add below, with its reason) */
    if (s == GRAINS_OK && motion->type != GRAINS_MOTION_FIXED && motion_check(motion, err) == GRAINS_OK)
        s = sim_scale_motion(sim, motion, reach, err);
    if (s == GRAINS_OK)
        s = sim->mesh ? GRAINS_OK : grains_mesh_create(&sim->mesh, err);
    if (s != GRAINS_OK)
        return s;
    uint32_t first = (uint32_t)sim->mesh->n_vertices;
    if ((s = append_mesh(sim->mesh, mesh, (int)sim->wl.n, by_index, &sim->p, err)) != GRAINS_OK)
        return s;
    s = walls_add(&sim->wl, sim->mesh, first, (uint32_t)mesh->n_vertices, motion, grains_sim_time(sim), err);
    if (s != GRAINS_OK) { /* nothing added */
        sim->mesh->n_vertices = first;
        while (sim->mesh->n_elements && sim->mesh->elements[sim->mesh->n_elements - 1].body == (int)sim->wl.n)
            sim->mesh->n_elements--;
        return s;
    }
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

grains_status grains_sim_add_mesh(grains_sim *sim, const grains_mesh *mesh, const grains_motion *motion,
                                  grains_error *err)
{
    return add_mesh(sim, mesh, motion, 0, err);
}

grains_status grains_sim_set_mesh(grains_sim *sim, const grains_mesh *mesh, grains_error *err)
{
    if (sim_membranes_count(&sim->mb))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "the meshes cannot be replaced in a run with membranes (their patches are among "
                                "the meshes' elements, and vertices may be pinned to the meshes)");
    /* Histories of the old meshes' contacts end with them, at the rebuild. */
    grains_mesh *old = sim->mesh;
    walls old_walls = sim->wl;
    sim->mesh = NULL;
    memset(&sim->wl, 0, sizeof sim->wl);
    grains_status s = mesh ? add_mesh(sim, mesh, NULL, 1, err) : GRAINS_OK;
    if (s != GRAINS_OK) {
        grains_mesh_destroy(sim->mesh);
        walls_clear(&sim->wl);
        sim->mesh = old;
        sim->wl = old_walls;
        return s;
    }
    grains_mesh_destroy(old);
    walls_clear(&old_walls);
    sim->drop_mesh_histories = 1;
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

size_t grains_sim_mesh_count(const grains_sim *sim) { return sim->wl.n; }

void grains_sim_get_wall(const grains_sim *sim, size_t k, grains_wall *out)
{
    if (k >= sim->wl.n) { /* (no such mesh: nothing read beyond the bodies) */
        memset(out, 0, sizeof *out);
        return;
    }
    const wall_body *b = &sim->wl.body[k];
    out->shift = b->now.shift;
    out->angle = b->now.angle;
    out->velocity = b->now.velocity;
    out->omega = b->now.omega;
    out->force = b->force;
    out->torque = b->torque;
    out->moving = b->moving;
    out->t_pose = b->t_moved;
    out->travel = b->servo_s;
    out->stiffness = b->stiffness;
    out->damping = b->damping;
}

static int wall_finite(const grains_wall *w)
{
    const double r[] = {w->angle, w->omega, w->t_pose, w->travel, w->stiffness, w->damping};
    for (size_t k = 0; k < sizeof r / sizeof r[0]; k++)
        if (!isfinite(r[k]))
            return 0;
    return v3_isfinite(w->shift) && v3_isfinite(w->velocity) && v3_isfinite(w->force) && v3_isfinite(w->torque);
}

grains_status grains_sim_set_wall(grains_sim *sim, size_t k, const grains_wall *in, grains_error *err)
{
    if (k >= sim->wl.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "wall %zu: there are %zu meshes", k, sim->wl.n);
    if (!wall_finite(in))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "wall %zu: every value must be finite", k);
    wall_body *b = &sim->wl.body[k];
    if (!b->moving && !b->changed && (v3_dot(in->shift, in->shift) != 0 || in->angle != 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "wall %zu is fixed: its pose is its file's (shift 0, angle 0)", k);
    b->now = (motion_state){in->shift, in->angle, in->velocity, in->omega};
    b->t_moved = in->t_pose;
    b->servo_s = in->travel;
    if (b->motion.type == GRAINS_MOTION_SERVO) /* (its shift across the axis: what the travel leaves of it) */
        b->servo_side = v3_sub(v3_sub(in->shift, b->changed ? b->from.shift : v3(0, 0, 0)),
                               v3_scale(in->travel, b->motion.axis));
    b->force = in->force;
    b->torque = in->torque;
    b->stiffness = in->stiffness;
    b->damping = in->damping;
    walls_place(&sim->wl, sim->mesh, k);
    sim->need_rebuild = 1; /* element boxes and the lists' poses */
    return GRAINS_OK;
}

void sim_meshes_mark_off(grains_sim *sim)
{
    for (size_t e = 0; sim->mesh && e < sim->mesh->n_elements; e++) {
        grains_mesh_element *el = &sim->mesh->elements[e];
        el->off = el->body >= 0 && (size_t)el->body < sim->wl.n && sim->wl.body[el->body].removed;
    }
}

grains_status grains_sim_remove_mesh(grains_sim *sim, size_t k, grains_error *err)
{
    if (k >= sim->wl.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "mesh %zu: there are %zu meshes", k, sim->wl.n);
    if (sim_membranes_pin_on(&sim->mb, (int)k)) /* (it would hang from nothing) */
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "mesh %zu holds a membrane's pinned vertices: it "
                                "cannot be removed", k);
    wall_body *b = &sim->wl.body[k];
    grains_motion stop = grains_motion_fixed();
    grains_status s = b->removed ? GRAINS_OK : walls_set_motion(&sim->wl, sim->mesh, k, &stop, grains_sim_time(sim), err);
    if (s != GRAINS_OK)
        return s;
    b->removed = 1;
    b->force = b->torque = v3(0, 0, 0);
    sim_meshes_mark_off(sim);
    sim->need_rebuild = 1; /* its contacts end with the lists */
    return GRAINS_OK;
}

/* Whether element el, along axis a of period L, is one the nearest image
 * of a grain to its centre serves: it spans the period (every image of a
 * grain over it), or it is short enough that a grain in reach of it is
 * nearer it than its other images (its extent and twice the reach within
 * the period). */
static int repeats_well(const grains_mesh_element *el, int a, real L, real reach)
{
    const real lo[3] = {el->lo.x, el->lo.y, el->lo.z}, hi[3] = {el->hi.x, el->hi.y, el->hi.z};
    real extent = hi[a] - lo[a] - 2 * el->R; /* (the box is grown by the element's radius) */
    return extent >= L * (1 - 1e-9) || extent + 2 * reach < L; /* (a period long to round-off: spans it) */
}

grains_status grains_sim_set_mesh_periodic(grains_sim *sim, size_t k, int on, grains_error *err)
{
    if (k >= sim->wl.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "mesh %zu: there are %zu meshes", k, sim->wl.n);
    int mask = on ? sim->box.mask : 0;
    if (on && !mask)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "mesh %zu: periodic, and the run has no periodic box "
                                "(periodic = \"x\", ...)", k);
    const real L[3] = {sim->box.L[0], sim->box.L[1], sim->box.L[2]};
    real reach = sim->p.R_max + sim->p.skin;
    for (size_t e = 0; sim->mesh && e < sim->mesh->n_elements; e++) {
        const grains_mesh_element *el = &sim->mesh->elements[e];
        for (int a = 0; el->body == (int)k && a < 3; a++)
            if ((mask >> a & 1) && !repeats_well(el, a, L[a], reach + el->R))
                return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                        "mesh %zu: element %zu spans %g along %c, neither the period %g nor less "
                                        "than it by twice the reach of a grain (%g): a grain near it could be nearer "
                                        "another image; make it span the period, or shorter", k, e,
                                        (double)((&el->hi.x)[a] - (&el->lo.x)[a] - 2 * el->R), "xyz"[a],
                                        (double)L[a], (double)(reach + el->R));
    }
    for (size_t e = 0; sim->mesh && e < sim->mesh->n_elements; e++)
        if (sim->mesh->elements[e].body == (int)k)
            sim->mesh->elements[e].periodic = mask;
    if (sim->mesh)
        sim->mesh->period = (grains_vec3){L[0], L[1], L[2]};
    sim->need_rebuild = 1; /* (the lists see the images) */
    return GRAINS_OK;
}

grains_status grains_sim_set_motion(grains_sim *sim, size_t k, const grains_motion *motion, grains_error *err)
{
    if (k >= sim->wl.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "mesh %zu: there are %zu meshes", k, sim->wl.n);
    if (!motion)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "mesh %zu: no motion given", k);
    if (motion->type != GRAINS_MOTION_FIXED && grains_integrator_variational(sim->p.integrator))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "a moving mesh needs an explicit integrator (euler, verlet or verlet_improved): the "
                                "variational integrators take walls as fixed");
    grains_status s = motion_check(motion, err);
    if (s == GRAINS_OK && motion->type != GRAINS_MOTION_FIXED)
        s = sim_scale_motion(sim, motion, walls_reach(&sim->wl, k, motion->point), err);
    if (s == GRAINS_OK)
        s = walls_set_motion(&sim->wl, sim->mesh, k, motion, grains_sim_time(sim), err);
    if (s == GRAINS_OK)
        sim->need_rebuild = 1; /* element boxes and the lists' poses */
    return s;
}

const grains_mesh *grains_sim_mesh(const grains_sim *sim) { return sim->mesh; }


/* What grains touch of a membrane: its triangles (patches), or for the
 * MSS_particle model its vertices as spheres of vertex_radius. */
static grains_status membrane_surface(const grains_mesh *mesh, real vertex_radius, grains_mesh **out,
                                      grains_error *err)
{
    grains_status s = grains_mesh_create(out, err);
    for (size_t i = 0; s == GRAINS_OK && i < mesh->n_vertices; i++)
        s = grains_mesh_add_vertex(*out, mesh->vertices[i], err);
    for (size_t e = 0; s == GRAINS_OK && e < mesh->n_elements && !(vertex_radius > 0); e++)
        s = grains_mesh_add_element(*out, 3, mesh->elements[e].v, 0, mesh->elements[e].R, err);
    for (uint32_t i = 0; s == GRAINS_OK && vertex_radius > 0 && i < mesh->n_vertices; i++)
        s = grains_mesh_add_element(*out, 1, &i, 0, vertex_radius, err);
    return s;
}

grains_status grains_sim_add_membrane(grains_sim *sim, const grains_mesh *mesh,
                                      const grains_membrane_material *material, grains_error *err)
{
    if (sim->integrator->advance)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "a membrane needs an explicit integrator (euler, verlet or verlet_improved): the "
                                "variational ones solve for the particles alone");
    if (material->material < 0 || material->material >= sim->p.n_materials)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "membrane material %d: materials are 0 to %d",
                                material->material, sim->p.n_materials - 1);
    grains_status s = sim->mesh ? GRAINS_OK : grains_mesh_create(&sim->mesh, err);
    if (s != GRAINS_OK)
        return s;
    size_t first_vertex = sim->mesh->n_vertices, first_element = sim->mesh->n_elements;
    if ((s = sim_membranes_add(&sim->mb, mesh, material, first_vertex, err)) != GRAINS_OK)
        return s;
    /* its triangles (or vertex spheres) are among the meshes' elements, of body -1 - k */
    grains_mesh *surface = NULL;
    if ((s = membrane_surface(mesh, material->vertex_radius, &surface, err)) == GRAINS_OK)
        s = append_mesh(sim->mesh, surface, -(int)sim_membranes_count(&sim->mb), 0, &sim->p, err);
    grains_mesh_destroy(surface);
    if (s != GRAINS_OK) {
        sim_membranes_drop_last(&sim->mb);
        return s;
    }
    for (size_t e = first_element; e < sim->mesh->n_elements; e++)
        sim->mesh->elements[e].material = material->material;
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

size_t grains_sim_membrane_count(const grains_sim *sim) { return sim_membranes_count(&sim->mb); }

size_t grains_sim_membrane_vertices(const grains_sim *sim, size_t k) { return sim_membranes_vertices_of(&sim->mb, k); }

void grains_sim_get_membrane_vertex(const grains_sim *sim, size_t k, size_t i, grains_membrane_vertex *out)
{
    *out = sim_membranes_get_vertex(&sim->mb, k, i);
}

size_t grains_sim_membrane_triangles(const grains_sim *sim, size_t k) { return sim_membranes_triangles_of(&sim->mb, k); }

void grains_sim_get_membrane_triangle(const grains_sim *sim, size_t k, size_t t, uint32_t v[3], double *stretch)
{
    *stretch = sim_membranes_triangle(&sim->mb, k, t, v);
}

void grains_sim_membrane_load(const grains_sim *sim, size_t k, grains_vec3 point, grains_vec3 axis,
                              grains_membrane_load *out)
{
    const membrane_view v = sim_membranes_of((grains_sim *)sim);
    sim_membrane_load_at(&v, k, point, axis, grains_sim_time(sim), out);
}

/* Vertex i of membrane k exists; else a RANGE error. */
static grains_status membrane_vertex_exists(const grains_sim *sim, size_t k, size_t i, grains_error *err)
{
    if (sim_membranes_has_vertex(&sim->mb, k, i))
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "membrane %zu vertex %zu: no such vertex (%zu membranes)",
                            k, i, sim_membranes_count(&sim->mb));
}

grains_status grains_sim_pin_membrane_vertex(grains_sim *sim, size_t k, size_t i, size_t mesh, grains_error *err)
{
    if (membrane_vertex_exists(sim, k, i, err) != GRAINS_OK)
        return GRAINS_ERR_RANGE;
    if (mesh >= sim->wl.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane %zu vertex %zu: pinned to mesh %zu, but there are %zu meshes", k, i, mesh,
                                sim->wl.n);
    sim_membranes_pin_vertex(&sim->mb, k, i, &sim->wl, (int)mesh);
    return GRAINS_OK;
}

grains_status grains_sim_set_membrane_vertex(grains_sim *sim, size_t k, size_t i, const grains_membrane_vertex *in,
                                             grains_error *err)
{
    if (membrane_vertex_exists(sim, k, i, err) != GRAINS_OK)
        return GRAINS_ERR_RANGE;
    if (!v3_isfinite(in->x) || !v3_isfinite(in->v))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane %zu vertex %zu: position and velocity must be finite", k, i);
    sim_membranes_set_vertex(&sim->mb, k, i, in->x, in->v);
    return GRAINS_OK;
}
