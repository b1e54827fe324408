/* The ranks of `grains` under mpirun (src/parallel/, when the build has
 * MPI): started only when a launcher started this process, so that a plain
 * run never touches MPI. Rank 0 speaks and writes; the others compute in
 * silence (their stdout and stderr go to /dev/null). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run.h"
#ifdef GRAINS_HAVE_MPI
#include "parallel/comm.h"
#endif

/* Whether an MPI launcher (Open MPI's mpirun, or a PMI/PMIx one) started us. */
static int launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}

int cli_ranks_start(int *argc, char ***argv, cli_ranks *rk)
{
    *rk = (cli_ranks){.share = {.rank = 0, .size = 1, .rebalance = 1}};
    if (!launched())
        return 0;
#ifdef GRAINS_HAVE_MPI
    grains_comm *c;
    grains_error err;
    if (comm_start(argc, argv, &c, &err) != GRAINS_OK)
        return cli_report(&err), EXIT_INPUT;
    rk->comm = c;
    rk->share = comm_ranks(c);
    comm_ride(c, run_signals_caught); /* with each step's largest speed: cli_ranks_caught */
    if (!(rk->counts = malloc((size_t)rk->share.size * sizeof *rk->counts)))
        return fputs("grains: out of memory for the ranks\n", stderr), EXIT_INPUT;
    if (rk->share.rank != 0) { /* silent, but for a failure of its own (comm_fail) */
        int say = dup(STDERR_FILENO);
        if (say >= 0)
            comm_say_to(c, say);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            return EXIT_INPUT;
    }
    return 0;
#else
    (void)argc;
    (void)argv;
    if (getenv("OMPI_COMM_WORLD_RANK") && atoi(getenv("OMPI_COMM_WORLD_RANK")) != 0)
        return EXIT_INPUT; /* one message, from rank 0 */
    fprintf(stderr, "grains: started by an MPI launcher, but built without MPI: install libopenmpi-dev "
                    "(make deps) and build again\n");
    return EXIT_INPUT;
#endif
}

void cli_ranks_stop(cli_ranks *rk)
{
#ifdef GRAINS_HAVE_MPI
    if (rk->comm)
        comm_stop(rk->comm);
#endif
    free(rk->counts);
    rk->comm = NULL;
    rk->counts = NULL;
}

void cli_ranks_abort(const cli_ranks *rk, int status)
{
#ifdef GRAINS_HAVE_MPI
    if (rk->share.size > 1)
        comm_abort(rk->comm, status);
#else
    (void)rk;
    (void)status;
#endif
}

int cli_ranks_caught(const cli_ranks *rk)
{
    int caught = run_signals_caught();
#ifdef GRAINS_HAVE_MPI
    if (rk->share.size > 1 && !comm_rider_max(rk->comm, &caught)) {
        /* no maximum carried it since the last check: a reduction of its
         * own, which it rides as well (log P rounds; it stops every rank
         * when it cannot) */
        uint64_t none = 0;
        rk->share.max(rk->share.ctx, &none, 1);
        comm_rider_max(rk->comm, &caught);
    }
#else
    (void)rk;
#endif
    return caught;
}

/* One rank's verdict as the ranks exchange it: failed, and why. */
typedef struct {
    int failed;
    char why[2048];
} rank_verdict;

int cli_ranks_failed(const cli_ranks *rk, const grains_error *err)
{
    if (!rk || rk->share.size < 2) {
        if (err)
            cli_report(err);
        return err != NULL;
    }
    rank_verdict own = {err != NULL, ""};
    if (err)
        grains_error_format(err, own.why, sizeof own.why);
    const grains_ranks *r = &rk->share;
    size_t cap = 0;
    /* it stops every rank when it cannot */
    rank_verdict *all = r->allgather(r->ctx, &own, sizeof own, rk->counts, NULL, &cap);
    int first = -1;
    for (int k = r->size - 1; k >= 0; k--)
        if (all[k].failed)
            first = k;
    if (r->rank == 0 && first == 0)
        fprintf(stderr, "grains: %s\n", all[0].why);
    else if (r->rank == 0 && first > 0)
        fprintf(stderr, "grains: rank %d: %s\n", first, all[first].why);
    free(all);
    return first >= 0;
}

int cli_ranks_fail(const cli_ranks *rk, const grains_error *err, int status)
{
#ifdef GRAINS_HAVE_MPI
    if (rk && rk->share.size > 1) {
        char why[2048];
        grains_error_format(err, why, sizeof why);
        comm_fail(rk->comm, status, why);
    }
#else
    (void)rk;
#endif
    cli_report(err);
    return status;
}

grains_ranks cli_share(const cli_ranks *rk, const grains_scenario *sc, int own)
{
    grains_ranks share = rk->share;
    share.rebalance = sc->rebalance;
    share.window = (size_t)sc->frame_window;
    share.local = own;
    return share;
}

int cli_deals(const cli_ranks *rk, const grains_scenario *sc)
{
    return rk && rk->share.size > 1 && !sc->rank_holds_all && !sc->bonds[0];
}

int cli_check_dealt(const cli_ranks *rk, const grains_scenario *sc, grains_sim *sim)
{
    grains_error err;
    int bad = run_check_start(sc, sim, &err) != GRAINS_OK; /* (the same on every rank) */
    return cli_ranks_failed(rk, bad ? &err : NULL);
}
