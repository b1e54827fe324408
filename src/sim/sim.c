/* Simulation lifetime, particle access and thermo figures. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "membrane/forces.h"
#include "decomp/decomp.h"
#include "sim/sim_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define PI 3.14159265358979323846

static int thread_count(int requested)
{
    if (requested > 0)
        return requested;
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* The periodic box of the parameters (an empty mask without one). */
static periodic_box box_of(const grains_params *p)
{
    periodic_box b = {p->periodic, {p->box_min.x, p->box_min.y, p->box_min.z}, {0, 0, 0}, {0, 0, 0}};
    const real hi[3] = {p->box_max.x, p->box_max.y, p->box_max.z};
    for (int k = 0; k < 3; k++)
        if (b.mask >> k & 1) {
            b.L[k] = hi[k] - b.lo[k];
            b.inv_L[k] = 1 / b.L[k];
        }
    return b;
}

grains_status grains_sim_create(grains_sim **out, const grains_params *params, grains_error *err)
{
    *out = NULL;
    grains_status s = grains_params_check(params, err);
    if (s != GRAINS_OK)
        return s;
    grains_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory creating a simulation");
    sim->p = *params;
    grains_params_derive(&sim->p);
    hm_params_init(&sim->hp, &sim->p);
    sim->integrator = integrator_of(sim->p.integrator);
    for (int k = 0; k < sim->p.n_materials; k++) {
        real rho = sim->hp.rho[k];
        sim->motion[k] = (material_motion){3 / (4 * PI * rho), 9 * sim->p.eta / (2 * rho)}; /* Eq. 3 */
    }
    sim->mixed = sim->p.n_materials > 1;
    for (int k = 0; k < sim->p.n_pairs; k++)
        sim->mixed |= sim->p.pair[k].no_contact;
    sim->box = box_of(&sim->p);
    sim->nthreads = thread_count(sim->p.threads);
#ifndef _OPENMP
    sim->nthreads = 1;
#endif
    sim->need_rebuild = 1;
    rng_seed(&sim->rng, sim->p.seed);
    sim_spawn_init(sim);
    sim->spawned_ahead = -1;
    sim->diag = force_diag_empty();
    sim->diag_thread = calloc((size_t)sim->nthreads, sizeof *sim->diag_thread);
    sim->v2_thread = calloc((size_t)sim->nthreads, sizeof *sim->v2_thread);
    sim->queue_thread = calloc((size_t)sim->nthreads, sizeof *sim->queue_thread);
    if (!sim->diag_thread || !sim->v2_thread || !sim->queue_thread) {
        free(sim->diag_thread);
        free(sim->v2_thread);
        free(sim->queue_thread);
        free(sim);
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory creating a simulation");
    }
    int sliding, rolling, twisting; /* a mode that acts in no pair keeps no spring */
    hm_spring_modes(&sim->hp, &sliding, &rolling, &twisting);
    store_init(&sim->cs, store_layout_of(sliding, rolling, twisting));
    if ((s = sim_scale_regions(sim, err)) != GRAINS_OK) {
        grains_sim_destroy(sim);
        return s;
    }
    *out = sim;
    return GRAINS_OK;
}

void grains_sim_destroy(grains_sim *sim)
{
    if (!sim)
        return;
    particles_free(&sim->pt);
    contact_record_free(&sim->rec);
    grains_mesh_destroy(sim->mesh);
    walls_clear(&sim->wl);
    sim_membranes_free(&sim->mb);
    free(sim->patch_logs);
    free(sim->patch_records);
    grid_free(&sim->grid);
    neighbors_free(&sim->nb);
    store_free(&sim->cs);
    sim_ranks_free(&sim->ranks);
    sim_bonds_free(&sim->bonds);
    sim_last_good_free(&sim->last_good);
    implicit_solver_free(&sim->vi);
    sim_implicit_terms_free(&sim->terms);
    free(sim->pending);
    for (int t = 0; t < sim->nthreads; t++)
        store_queue_free(&sim->queue_thread[t]);
    for (int t = 0; sim->cand_thread && t < sim->nthreads; t++)
        free(sim->cand_thread[t]);
    free(sim->cand_thread);
    free(sim->queue_thread);
    free(sim->diag_thread);
    free(sim->v2_thread);
    free(sim);
}

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
    if (sim->mb.n)
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
        s = append_mesh(sim->mesh, surface, -(int)sim->mb.n, 0, &sim->p, err);
    grains_mesh_destroy(surface);
    if (s != GRAINS_OK) {
        membrane_free(&sim->mb.list[--sim->mb.n]);
        sim->mb.n_vertices = sim->mb.first[sim->mb.n];
        return s;
    }
    for (size_t e = first_element; e < sim->mesh->n_elements; e++)
        sim->mesh->elements[e].material = material->material;
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

size_t grains_sim_membrane_count(const grains_sim *sim) { return sim->mb.n; }

size_t grains_sim_membrane_vertices(const grains_sim *sim, size_t k) { return sim->mb.list[k].n_vertices; }

void grains_sim_get_membrane_vertex(const grains_sim *sim, size_t k, size_t i, grains_membrane_vertex *out)
{
    size_t at = sim->mb.first[k] + i;
    *out = (grains_membrane_vertex){sim->mb.x[at], sim->mb.v[at], 1 / sim->mb.inv_mass[at]};
}

size_t grains_sim_membrane_triangles(const grains_sim *sim, size_t k) { return sim->mb.list[k].n_triangles; }

/* Twice the area of triangle t of membrane k at positions x. */
static real twice_area(const membrane *m, const vec3 *x, size_t t)
{
    const uint32_t *v = m->triangles[t].v;
    return v3_norm(v3_cross(v3_sub(x[v[1]], x[v[0]]), v3_sub(x[v[2]], x[v[0]])));
}

void grains_sim_get_membrane_triangle(const grains_sim *sim, size_t k, size_t t, uint32_t v[3], double *stretch)
{
    const membrane *m = &sim->mb.list[k];
    memcpy(v, m->triangles[t].v, 3 * sizeof *v);
    *stretch = twice_area(m, sim->mb.x + sim->mb.first[k], t) / twice_area(m, m->x0, t);
}

void grains_sim_membrane_load(const grains_sim *sim, size_t k, grains_vec3 point, grains_vec3 axis,
                              grains_membrane_load *out)
{
    const membrane *m = &sim->mb.list[k];
    const vec3 *x = sim->mb.x + sim->mb.first[k];
    vec3 a = v3_scale(1 / v3_norm(axis), axis);
    *out = (grains_membrane_load){membrane_area(m, x), 0, 0, sim_membranes_pressure(&sim->mb, k, grains_sim_time(sim))};
    for (size_t i = 0; i < m->n_vertices; i++) {
        vec3 r = v3_sub(x[i], point);
        out->mean_radius += v3_norm(v3_axpy(r, -v3_dot(r, a), a)) / (double)m->n_vertices;
    }
    out->radial_push = sim_patch_logs_radial(sim, k, point, a);
}

/* Vertex i of membrane k exists; else a RANGE error. */
static grains_status membrane_vertex_exists(const grains_sim *sim, size_t k, size_t i, grains_error *err)
{
    if (k < sim->mb.n && i < sim->mb.list[k].n_vertices)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "membrane %zu vertex %zu: no such vertex (%zu membranes)",
                            k, i, sim->mb.n);
}

grains_status grains_sim_pin_membrane_vertex(grains_sim *sim, size_t k, size_t i, size_t mesh, grains_error *err)
{
    if (membrane_vertex_exists(sim, k, i, err) != GRAINS_OK)
        return GRAINS_ERR_RANGE;
    if (mesh >= sim->wl.n)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "membrane %zu vertex %zu: pinned to mesh %zu, but there are %zu meshes", k, i, mesh,
                                sim->wl.n);
    sim_membranes_pin(&sim->mb, sim->mb.first[k] + i, &sim->wl, (int)mesh);
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
    sim->mb.x[sim->mb.first[k] + i] = in->x;
    sim->mb.v[sim->mb.first[k] + i] = in->v;
    return GRAINS_OK;
}

void grains_sim_get_wall(const grains_sim *sim, size_t k, grains_wall *out)
{
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
    if (!b->moving && (v3_dot(in->shift, in->shift) != 0 || in->angle != 0))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "wall %zu is fixed: its pose is its file's (shift 0, angle 0)", k);
    b->now = (motion_state){in->shift, in->angle, in->velocity, in->omega};
    b->t_moved = in->t_pose;
    b->servo_s = in->travel;
    b->force = in->force;
    b->torque = in->torque;
    b->stiffness = in->stiffness;
    b->damping = in->damping;
    walls_place(&sim->wl, sim->mesh, k);
    sim->need_rebuild = 1; /* element boxes and the lists' poses */
    return GRAINS_OK;
}

const grains_mesh *grains_sim_mesh(const grains_sim *sim) { return sim->mesh; }

grains_status sim_check_particle(const grains_sim *sim, const grains_particle *p, grains_error *err)
{
    if (!v3_isfinite(p->x) || !v3_isfinite(p->v) || !v3_isfinite(p->w))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "particle position and velocities must be finite");
    if (!isfinite(p->R) || p->R <= 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "particle radius R = %g must be > 0", p->R);
    real qn = sqrt(p->q.q0 * p->q.q0 + p->q.q1 * p->q.q1 + p->q.q2 * p->q.q2 + p->q.q3 * p->q.q3);
    if (!isfinite(qn) || fabs(qn - 1) > 1e-6)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0,
                                "orientation quaternion must have unit norm, |q| = %.9g", qn);
    if (p->material < 0 || p->material >= sim->p.n_materials)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "particle material %d: materials are 0 to %d",
                                p->material, sim->p.n_materials - 1);
    return sim_scale_particle(sim, p, err);
}

grains_status grains_sim_add_particle(grains_sim *sim, const grains_particle *p, grains_error *err)
{
    grains_status s = sim_check_particle(sim, p, err);
    if (s != GRAINS_OK)
        return s;
    size_t id = grains_sim_count(sim); /* a new particle's id is its number, stored last */
    s = particles_reserve(&sim->pt, sim->pt.n + 1, err);
    if (s == GRAINS_OK && sim->ranks.holds_share)
        s = particles_reserve_id(&sim->pt, id, err);
    if (s != GRAINS_OK)
        return s;
    size_t i = sim->pt.n++;
    sim->ranks.n_ids += sim->ranks.holds_share; /* every rank adds it alike; its next rebuild gives it one owner */
    sim->pt.id[i] = (uint32_t)id;
    sim->pt.slot[id] = (uint32_t)i;
    grains_sim_set_particle(sim, id, p);
    sim->pt.R[i] *= sim_grow_scale(&sim->p, grains_sim_time(sim)); /* growing: at the scale of now */
    sim->pt.f[i] = sim->pt.t[i] = v3(0, 0, 0);
    sim->need_rebuild = 1;
    return GRAINS_OK;
}

grains_status grains_sim_reserve(grains_sim *sim, size_t n, grains_error *err)
{
    return particles_reserve(&sim->pt, n, err);
}

size_t grains_sim_count(const grains_sim *sim) { return sim->ranks.holds_share ? sim->ranks.n_ids : sim->pt.n; }

int grains_sim_threads(const grains_sim *sim) { return sim->nthreads; }

void grains_sim_get_particle(const grains_sim *sim, size_t id, grains_particle *out)
{
    const grains_particles *pt = sim_particles_read(sim);
    size_t i = pt->slot[id];
    if (i >= pt->n) { /* a rank holding a share: neither its own nor a copy, nor gathered */
        real nan = (real)NAN;
        *out = (grains_particle){{nan, nan, nan}, {nan, nan, nan}, {nan, nan, nan}, {nan, nan, nan, nan}, nan, -1, 0};
        return;
    }
    out->x = pt->x[i];
    out->v = pt->v[i];
    out->w = pt->w[i];
    out->q = pt->q[i];
    out->R = pt->R[i];
    out->material = pt->mat[i];
    out->tag = pt->tag[i];
}

void grains_sim_set_particle(grains_sim *sim, size_t id, const grains_particle *p)
{
    size_t i = sim->pt.slot[id];
    if (i >= sim->pt.n) /* a rank holding a share sets those it holds */
        return;
    sim->pt.x[i] = p->x;
    sim->pt.v[i] = p->v;
    sim->pt.w[i] = p->w;
    sim_plane_motion(&sim->p, &sim->pt.v[i], &sim->pt.w[i]); /* 2D: in its plane */
    sim->pt.q[i] = p->q;
    sim->pt.R[i] = p->R;
    if (p->material >= 0 && p->material < sim->p.n_materials) /* else the material it had */
        sim->pt.mat[i] = (uint8_t)p->material;
    sim->pt.tag[i] = p->tag;
    sim->tagged |= p->tag != 0;
    sim->need_rebuild = 1;
}

const grains_params *grains_sim_params(const grains_sim *sim) { return &sim->p; }

int grains_sim_has_tags(const grains_sim *sim)
{
    int tags = sim->tagged || sim->p.n_tag_rules > 0;
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++)
        tags |= grains_params_spawn(&sim->p, k).tag != 0;
    return tags;
}

void grains_sim_ask_stop(grains_sim *sim, grains_stop_asked asked, void *ctx)
{
    sim->stop_asked = asked;
    sim->stop_ctx = ctx;
}

double grains_sim_time(const grains_sim *sim) { return (double)sim->step * sim->p.dt; }
long grains_sim_steps(const grains_sim *sim) { return sim->step; }

grains_status grains_sim_set_steps(grains_sim *sim, long steps, grains_error *err)
{
    if (steps < 0)
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "steps = %ld must be >= 0", steps);
    sim->step = steps;
    walls_set_clock(&sim->wl, sim->mesh, grains_sim_time(sim));
    sim->need_rebuild = 1; /* element boxes and the lists' poses */
    return GRAINS_OK;
}

/* The box out of which a particle is lost: that of every mesh vertex and
 * (while spawning) the spawn box, grown by R_max and the largest element
 * radius; it reaches without end against gravity (grains resting on a
 * floor are above its box, not lost), and periodic axes are aside. No
 * mesh: none is lost. */
static void lost_box(const grains_sim *sim, thermo_sums *s)
{
    const grains_mesh *m = sim->mesh;
    s->boxed = m && m->n_vertices;
    if (!s->boxed)
        return;
    vec3 lo = m->vertices[0], hi = m->vertices[0];
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++) {
        grains_spawn_region r = grains_params_spawn(&sim->p, k);
        lo = v3(fmin(lo.x, r.lo.x), fmin(lo.y, r.lo.y), fmin(lo.z, r.lo.z));
        hi = v3(fmax(hi.x, r.hi.x), fmax(hi.y, r.hi.y), fmax(hi.z, r.hi.z));
    }
    for (size_t v = 0; v < m->n_vertices; v++) {
        vec3 p = m->vertices[v];
        lo = v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
    }
    real pad = sim->p.R_max;
    for (size_t e = 0; e < m->n_elements; e++)
        pad = fmax(pad, sim->p.R_max + m->elements[e].R);
    s->lo = lo;
    s->hi = hi;
    s->pad = pad;
}

static int lost(const grains_sim *sim, const thermo_sums *s, vec3 x)
{
    for (int k = 0; k < 3 && s->boxed; k++) {
        real c = (&x.x)[k], g = (&sim->p.g.x)[k];
        if (!(sim->box.mask >> k & 1) &&
            ((c < (&s->lo.x)[k] - s->pad && !(g > 0)) || (c > (&s->hi.x)[k] + s->pad && !(g < 0))))
            return 1;
    }
    return 0;
}

void sim_thermo_start(const grains_sim *sim, thermo_sums *s)
{
    *s = (thermo_sums){0};
    lost_box(sim, s);
}

void sim_thermo_add(const grains_sim *sim, thermo_sums *s, const grains_particle *p)
{
    real R = p->R;
    real m = 4 * PI / 3 * sim->hp.rho[p->material] * R * R * R;
    s->e_kin += 0.5 * m * v3_dot(p->v, p->v);
    s->e_rot += 0.5 * (0.4 * m * R * R) * v3_dot(p->w, p->w);
    s->lost += (size_t)lost(sim, s, p->x);
}

/* Serial sums in the ids' order, so that the figures are the same for any
 * thread count, and any rank count (whose windows of ids give rank 0 the
 * same particles in the same order: decomp/rank_window.c). */
void grains_sim_thermo(const grains_sim *sim, grains_thermo *out)
{
    thermo_sums sums = sim->ranks.thermo;
    if (!sim->ranks.thermo_whole) {
        sim_thermo_start(sim, &sums);
        grains_particle p;
        for (size_t id = 0, n = grains_sim_count(sim); id < n; id++) {
            grains_sim_get_particle(sim, id, &p);
            sim_thermo_add(sim, &sums, &p);
        }
    }
    out->step = sim->step;
    out->time = grains_sim_time(sim);
    out->n_particles = grains_sim_count(sim);
    out->n_contacts = sim->diag.n_contacts;
    if (!sim->ranks.thermo_whole) {
        const sim_bonds *bs = sim_bonds_read(sim);
        for (size_t k = 0; k < bs->n; k++)
            bs->list[k].broken ? sums.broken++ : sums.bonds++;
    }
    out->n_bonds = sums.bonds;
    out->n_broken = sums.broken;
    out->e_kin = sums.e_kin;
    out->e_rot = sums.e_rot;
    out->max_overlap = sim->max_overlap;
    out->newton = sim->vi.newton_last;
    out->newton_most = sim->vi.newton_most;
    out->cg = sim->vi.cg_last;
    out->newton_update = sim->vi.update_last;
    out->e_membrane = sim_membranes_energy(&sim->mb);
    out->n_lost = sums.lost;
}

size_t grains_sim_bytes(const grains_sim *sim)
{
    const grains_grid *g = &sim->grid;
    const grains_neighbors *nb = &sim->nb;
    size_t particles = sim->pt.cap * (5 * sizeof(vec3) + sizeof(quat) + sizeof(real) + sizeof(uint32_t) + sizeof(uint8_t));
    size_t grid = g->cap_cells * (sizeof(uint64_t) + sizeof(uint32_t)) + g->cap_blocks * sizeof(uint32_t) +
                  g->n_slots * sizeof(uint32_t);
    size_t lists = nb->cap_start * sizeof(uint32_t) + nb->cap * sizeof(uint32_t) + nb->scratch_cap * sizeof(uint32_t);
    size_t implicit = sim->vi.cap * (10 * sizeof(vec3) + sizeof(real)) + sim->terms.cap * sizeof(implicit_term);
    return sizeof *sim + particles + grid + lists + sim->cs.cap * (size_t)sim->cs.layout.width * sizeof(real) +
           sim->cs.cap_blocks * sizeof(store_block) + implicit + sim_membranes_bytes(&sim->mb);
}
