/* The thermo figures: energies, counts and lost grains, summed in the ids' order. */
#include <math.h>

#include "sim/sim_internal.h"

#define PI 3.14159265358979323846

/* Whether vertex v of the combined mesh is a removed mesh's. */
static int removed_vertex(const grains_sim *sim, size_t v)
{
    for (size_t k = 0; k < sim->wl.n; k++) {
        const wall_body *b = &sim->wl.body[k];
        if (b->removed && v >= b->first_vertex && v < (size_t)b->first_vertex + b->n_vertices)
            return 1;
    }
    return 0;
}

/* The box out of which a particle is lost: that of every mesh vertex and
 * (while spawning) the spawn box, grown by R_max and the largest element
 * radius; it reaches without end against gravity (grains resting on a
 * floor are above its box, not lost), and periodic axes are aside. No
 * mesh: none is lost. */
void sim_lost_box(const grains_sim *sim, thermo_sums *s)
{
    const grains_mesh *m = sim->mesh;
    s->boxed = m && m->n_vertices;
    if (!s->boxed)
        return;
    vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    for (int k = 0; k < grains_params_n_spawns(&sim->p); k++) {
        grains_spawn_region r = grains_params_spawn(&sim->p, k);
        lo = v3(fmin(lo.x, r.lo.x), fmin(lo.y, r.lo.y), fmin(lo.z, r.lo.z));
        hi = v3(fmax(hi.x, r.hi.x), fmax(hi.y, r.hi.y), fmax(hi.z, r.hi.z));
    }
    int any_removed = 0; /* (a rebuild asks too: a vertex's bodies looked at only where one is removed) */
    for (size_t k = 0; k < sim->wl.n; k++)
        any_removed |= sim->wl.body[k].removed;
    for (size_t v = 0; v < m->n_vertices; v++) {
        if (any_removed && removed_vertex(sim, v))
            continue;
        vec3 p = m->vertices[v];
        lo = v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
    }
    s->boxed = lo.x <= hi.x; /* (every mesh removed, no spawn box: none is lost) */
    real pad = sim->p.R_max;
    for (size_t e = 0; e < m->n_elements; e++)
        pad = m->elements[e].off ? pad : fmax(pad, sim->p.R_max + m->elements[e].R);
    s->lo = lo;
    s->hi = hi;
    s->pad = pad;
}

int sim_lost(const grains_sim *sim, const thermo_sums *s, vec3 x)
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
    sim_lost_box(sim, s);
}

/* A grain's energies, none for one that stays put (its material's fixed:
 * its motion is imposed, not the flow's). */
void sim_thermo_add(const grains_sim *sim, thermo_sums *s, const grains_particle *p)
{
    real R = p->R;
    real m = sim->motion[p->material].fixed ? 0 : 4 * PI / 3 * sim->hp.rho[p->material] * R * R * R;
    real e_kin = 0.5 * m * v3_dot(p->v, p->v), e_rot = 0.5 * (0.4 * m * R * R) * v3_dot(p->w, p->w);
    s->e_kin += e_kin;
    s->e_rot += e_rot;
    if (sim_lost(sim, s, p->x)) {
        s->lost++;
        s->e_lost += e_kin + e_rot;
    }
}

/* Serial sums in the ids' order, so that the figures are the same for any
 * thread count, and any rank count (whose windows of ids give rank 0 the
 * same particles in the same order: decomp/rank_window.c). */
void grains_sim_thermo(const grains_sim *sim, grains_thermo *out)
{
    int whole;
    thermo_sums sums = rank_thermo(&sim->rank_view, &whole);
    if (!whole) {
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
    if (!whole) {
        sums.broken = sim_bonds_broken(sim_bonds_read(sim));
        sums.bonds = sim_bonds_count(sim_bonds_read(sim)) - sums.broken;
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
    out->e_lost = sums.e_lost;
}
