/* The MPI layer (src/parallel/), run under mpirun with 1, 2 and 3 ranks.
 * The fact checked: a rank holding only its share of the particles (a
 * slab of a cloud of two sizes, stored in reverse order, alone or with
 * copies of others' particles, as a halo) frames its grid
 * by reductions over the ranks as one process holding them all frames it,
 * and stores its particles in that process's order, for any rank count:
 * the ground on which results are the same bits for any number of ranks. */
#include <stdio.h>

#include "check.h"
#include "cloud.h"
#include "parallel/comm.h"

static void share_case(test_ctx *t, grains_comm *comm, double ratio, int periodic, int halo)
{
    const real pad = 0.3e-3;
    int rank = comm_rank(comm), size = comm_size(comm);
    cloud c = make_cloud(3000, 12, ratio, periodic, 11u);
    uint32_t *where = malloc(c.n * sizeof *where), *ids = malloc(4 * c.n * sizeof *ids);
    uint32_t *by_id = ids + c.n, *mine = by_id + c.n, *at = mine + c.n;
    vec3 *x = malloc(c.n * sizeof *x);
    real *R = malloc(c.n * sizeof *R);
    grains_grid whole = {0}, g = {0};
    grains_error err;
    grid_particles all = {c.x, c.R, NULL, c.n, NULL, 0};
    grains_status s = grid_build(&whole, &all, pad, &c.box, where, NULL, 0, &err);
    size_t copies = 0, n = halo ? take_held(&c, rank, size, x, R, ids, by_id, &copies)
                                : take_share(&c, rank, size, x, R, ids, by_id);
    grid_share share = comm_grid_share(comm);
    grid_particles part = {x, R, by_id, n, &share, copies};
    s = s == GRAINS_OK ? grid_build(&g, &part, pad, &c.box, mine, NULL, 0, &err) : s;
    CHECK(t, s == GRAINS_OK, "rank %d of %d: grids built", rank, size);
    const char *held_as = halo ? "with copies of others'" : "alone";
    if (s == GRAINS_OK) {
        CHECK(t, same_frame(&g, &whole), "rank %d of %d, ratio %g, %s, %s: the share's grid has the whole's levels, "
              "origin and blocks", rank, size, ratio, periodic ? "periodic" : "open", held_as);
        for (size_t m = 0; m < n; m++)
            at[mine[m]] = where[ids[m]];
        int ordered = 1;
        for (size_t m = 1; m < n; m++)
            ordered = ordered && at[m - 1] < at[m];
        CHECK(t, ordered, "rank %d of %d, ratio %g, %s, %s: its %zu particles stored in the whole's order", rank,
              size, ratio, periodic ? "periodic" : "open", held_as, n);
    }
    grid_free(&whole), grid_free(&g);
    free(where), free(ids), free(x), free(R);
    free_cloud(&c);
}

int main(int argc, char **argv)
{
    test_ctx t = {0, 0};
    grains_comm *comm;
    grains_error err;
    if (comm_start(&argc, &argv, &comm, &err) != GRAINS_OK) {
        fprintf(stderr, "test_comm: %s\n", err.message);
        return 1;
    }
    for (int periodic = 0; periodic < 2; periodic++)
        for (int halo = 0; halo < 2; halo++) {
            share_case(&t, comm, 1.2, periodic, halo);
            share_case(&t, comm, 10, periodic, halo);
        }
    char name[32];
    snprintf(name, sizeof name, "test_comm rank %d/%d", comm_rank(comm), comm_size(comm));
    int failed = test_report(&t, name);
    comm_stop(comm);
    return failed;
}
