/* The implicit solver's force field over the simulation (integrate/implicit.h):
 * the pair loops' forces, products and energy (interact/implicit_field.c),
 * with the core's own part, the step's check of the verdict and the lists
 * rebuilt as the iterates move. */
#include "sim/sim_internal.h"

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
    if (sim->need_rebuild || sim->displacement > sim->p.skin / 2)
        s = sim_rebuild(sim, err);
    return s == GRAINS_OK ? implicit_terms_reserve(sim, err) : s;
}

grains_status sim_implicit_field(grains_sim *sim, implicit_field *f, grains_error *err)
{
    *f = (implicit_field){sim,
                          sim->nthreads,
                          grains_sim_time(sim),
                          sim->step,
                          implicit_pairs_forces,
                          implicit_pairs_product,
                          check,
                          implicit_pairs_energy,
                          refresh};
    return implicit_terms_reserve(sim, err);
}
