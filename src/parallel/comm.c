/* The ranks over MPI_COMM_WORLD. Reductions are order-free (min and max of
 * reals, sums of integers), so their results do not depend on how MPI
 * combines the ranks, and every rank receives the same bits. */
#include "parallel/comm.h"

#include <mpi.h>
#include <stdlib.h>

struct grains_comm {
    MPI_Comm world;
    int rank, size;
};

grains_status comm_start(int *argc, char ***argv, grains_comm **out, grains_error *err)
{
    int started = 0;
    MPI_Initialized(&started);
    if (!started && MPI_Init(argc, argv) != MPI_SUCCESS)
        return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "MPI did not start");
    grains_comm *c = malloc(sizeof *c);
    if (!c)
        return grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "out of memory for the ranks");
    c->world = MPI_COMM_WORLD;
    MPI_Comm_rank(c->world, &c->rank);
    MPI_Comm_size(c->world, &c->size);
    *out = c;
    return GRAINS_OK;
}

void comm_stop(grains_comm *c)
{
    free(c);
    MPI_Finalize();
}

int comm_rank(const grains_comm *c) { return c->rank; }
int comm_size(const grains_comm *c) { return c->size; }

static MPI_Datatype real_type(void) { return sizeof(real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT; }

static void all_min(void *ctx, real *v, int n)
{
    grains_comm *c = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, real_type(), MPI_MIN, c->world);
}

static void all_max(void *ctx, real *v, int n)
{
    grains_comm *c = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, real_type(), MPI_MAX, c->world);
}

static void all_sum(void *ctx, uint64_t *v, int n)
{
    grains_comm *c = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, c->world);
}

grid_share comm_grid_share(grains_comm *c)
{
    grid_share s = {all_min, all_max, all_sum, c};
    return s;
}
