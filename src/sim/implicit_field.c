/* The implicit solver's force field over the simulation (integrate/implicit.h):
 * the pair loops' forces, products and energy (interact/implicit_field.c)
 * through their view, made afresh at each call (a refresh may rebuild the
 * lists), with the core's own part, the step's check of the verdict and
 * the lists rebuilt as the iterates move. */
#include "sim/sim_internal.h"

static implicit_pairs pairs_of(grains_sim *sim)
{
    return (implicit_pairs){sim_forces_of(sim), sim_view(sim, 0, sim->pt.n), &sim->terms, sim->thread,
                            sim->cand_thread, sim->nthreads};
}

static real forces(void *self, const implicit_eval *e)
{
    implicit_pairs ip = pairs_of(self);
    return implicit_pairs_forces(&ip, e);
}

static void product(void *self, const real *mass_diag, const vec3 *u, vec3 *y)
{
    implicit_pairs ip = pairs_of(self);
    implicit_pairs_product(&ip, mass_diag, u, y);
}

static double energy(void *self)
{
    implicit_pairs ip = pairs_of(self);
    return implicit_pairs_energy(&ip);
}

static grains_status check(void *self, grains_error *err)
{
    grains_sim *sim = self;
    force_diag total = sim->diag = sim_reduce_diag(sim);
    sim->max_overlap = total.max_num / total.max_den;
    return sim_stable(sim, &total) ? GRAINS_OK : sim_report_unstable(sim, &total, err);
}

/* The lists again once the iterates moved half the skin, and room for
 * every listed pair's terms. */
static grains_status refresh(void *self, real moved, grains_error *err)
{
    grains_sim *sim = self;
    sim->displacement += moved;
    grains_status s = GRAINS_OK;
    if (sim->need_rebuild || sim->displacement > sim->p.skin / 2 || sim_newcomers_near(sim, 0))
        s = sim_rebuild(sim, err);
    return s == GRAINS_OK ? implicit_terms_reserve(&sim->terms, sim->nb.n, err) : s;
}

grains_status sim_implicit_field(grains_sim *sim, implicit_field *f, grains_error *err)
{
    *f = (implicit_field){sim, sim->nthreads, grains_sim_time(sim), sim->step, forces, product, check, energy,
                          refresh};
    return implicit_terms_reserve(&sim->terms, sim->nb.n, err);
}
