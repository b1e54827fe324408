/* The API's calls on a simulation shared among ranks (grains/ranks.h),
 * passed on to the decomposition with its view of the simulation
 * (decomp/rank_sim.h). */
#include "decomp/hooks.h"
#include "sim/sim_internal.h"

int grains_sim_ranks_hold_own(const grains_sim *sim) { return sim_ranks_hold_own(&sim->rank_view); }

grains_status grains_sim_share(grains_sim *sim, const grains_ranks *ranks, grains_error *err)
{
    return sim_ranks_share(&sim->rank_view, ranks, err);
}

grains_status grains_sim_gather(grains_sim *sim, grains_error *err) { return sim_ranks_gather_writer(&sim->rank_view, err); }

void grains_sim_gather_particles(grains_sim *sim) { sim_ranks_gather_particles(&sim->rank_view); }

void grains_sim_gather_thermo(grains_sim *sim) { sim_ranks_gather_thermo(&sim->rank_view); }

void grains_sim_particle_window(grains_sim *sim, unsigned fields, size_t first, size_t count, grains_particle *out)
{
    sim_ranks_particle_window(&sim->rank_view, fields, first, count, out);
}

size_t grains_sim_frame_window(const grains_sim *sim) { return sim_ranks_frame_window(&sim->rank_view); }

grains_ranks_stats grains_sim_ranks_stats(const grains_sim *sim) { return sim_ranks_stats(&sim->rank_view); }
