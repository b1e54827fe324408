/* A simulation shared among ranks (grains_sim_share): the peers and the tables sized by
 * their number; a whole state read before (a checkpoint every rank read whole) is cut at once,
 * each rank keeping its share (decomp/rank_resume.c), so that no step has to ask. */
#include <stdlib.h>

#include "decomp/decomp.h"

grains_status sim_ranks_share(const rank_sim *sim, const grains_ranks *ranks, grains_error *err)
{
    if (!ranks || ranks->size < 1 || ranks->rank < 0 || ranks->rank >= ranks->size ||
        (ranks->size > 1 &&
         (!ranks->allgather || !ranks->alltoall || !ranks->sum || !ranks->max || !ranks->neighbours)) ||
        !(ranks->rebalance == 0 || ranks->rebalance >= 1))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "ranks: a rank in [0, size), the five collectives and a rebalance of 0 or >= 1");
    if (ranks->size > 1 && !ranks->local && (sim->p->n_sinks || sim->p->remove_lost))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "sinks and remove_lost among ranks that each hold every particle (rank_holds_all) "
                                "are not supported: leave rank_holds_all off");
    if (ranks->size > 1 && sim->p->n_probes)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "probes among ranks are not supported yet: run a "
                                "scenario with probes in one process (any number of threads)");
    if (ranks->size > 1 && sim->box->sheared) /* (one a stage shears later: refused at its step) */
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a sheared periodic box (shear_rate) among ranks is not "
                                "supported yet: run it in one process (any number of threads)");
    if (ranks->size > 1 && sim->p->box_pressure > 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "a box held at a pressure (box_pressure) among ranks "
                                "is not supported yet: run it in one process (any number of threads)");
    sim_ranks *r = sim->ranks;
    size_t *counts = realloc(r->counts, (size_t)ranks->size * sizeof *counts);
    if (counts)
        r->counts = counts;
    size_t P = (size_t)ranks->size;
    size_t *to = counts ? realloc(r->halo_to_start, (P + 1) * sizeof *to) : NULL;
    if (to)
        r->halo_to_start = to;
    size_t *from = to ? realloc(r->halo_from_start, (P + 1) * sizeof *from) : NULL;
    if (from)
        r->halo_from_start = from;
    size_t *sends = from ? realloc(r->send_counts, P * sizeof *sends) : NULL;
    if (sends)
        r->send_counts = sends;
    uint64_t *work = sends ? realloc(r->work, P * sizeof *work) : NULL;
    if (work)
        r->work = work;
    cut_plane *planes = work ? realloc(r->planes, (size_t)ranks->size * sizeof *planes) : NULL;
    if (!planes)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for %d ranks", ranks->size);
    r->planes = planes;
    r->peers = *ranks;
    r->valid = 0;
    return sim_ranks_resume_local(sim, err); /* a whole state read before: each rank its share now, not at a step */
}
