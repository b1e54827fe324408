/* Ranks that hold their own particles and copies of their partners alone
 * (grains_ranks.local), under mpirun with 1, 2 and 3 ranks. The fact
 * checked: a gas of two sizes (ratio 2, so two levels of cells), periodic
 * along every axis or open, stepped by ranks that each hold a share of the
 * particles, which move between ranks at the rebuilds, gives every
 * particle the bits one process gives it, on 1 and 2 threads per rank
 * (each own particle's force is summed from the same inputs in the same
 * order whatever the split); every particle is owned by one rank; rank 0's
 * gathered copy of them all, read by id and summed by thermo in storage
 * order, is one process's; and a rank holds fewer than all of them. */
#include <stdio.h>

#include "check.h"
#include "parallel/comm.h"
#include "sim/sim_internal.h"
#include "support.h"

static const double R = 1e-3;
enum { ROUNDS = 3, STEPS = 300 };

/* A gas of 10 x 10 x 10 spheres of radius R and 2R on a lattice, with
 * random velocities of up to 1 m/s. */
static grains_sim *gas(int periodic, int threads)
{
    const double L = 46 * R;
    grains_params p = scene_params();
    p.R_min = R, p.R_max = 2 * R;
    p.periodic = periodic ? 7 : 0;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){L, L, L};
    p.mu_s = 0.3, p.mu_r = 0.1, p.mu_t = 0.1;
    p.skin = 0.3 * R;
    p.threads = threads;
    grains_sim *sim = scene(&p);
    unsigned s = 4242;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            for (int k = 0; k < 10; k++) {
                double v[3];
                for (int a = 0; a < 3; a++) {
                    s = s * 1103515245u + 12345u;
                    v[a] = ((s >> 8) / 16777216.0 - 0.5) * 2;
                }
                add(sim, (grains_vec3){(i + 0.5) * L / 10, (j + 0.5) * L / 10, (k + 0.5) * L / 10},
                    (grains_vec3){v[0], v[1], v[2]}, (grains_vec3){0, 0, 0}, (i + j + k) % 2 ? 2 * R : R);
            }
    return sim;
}

/* This rank's own particles against one process's, bit for bit; each
 * particle counted in owners[id]. */
static size_t differ(const grains_sim *shared, const grains_sim *alone, uint64_t *owners)
{
    const grains_particles *pt = &shared->pt;
    size_t bad = 0;
    for (size_t i = 0; i < pt->n; i++) {
        if (sim_shared(shared) && !shared->ranks.mine[i])
            continue;
        grains_particle mine = {pt->x[i], pt->v[i], pt->w[i], pt->q[i], pt->R[i], pt->mat[i], pt->tag[i]};
        bad += !same_particle(mine, get(alone, pt->id[i]));
        owners[pt->id[i]]++;
    }
    return bad;
}

/* Rank 0's gathered copy against one process: every particle by id, and
 * the thermo's sums (taken in storage order, so the order must be the
 * same); how many differ. */
static size_t written_differ(const grains_sim *shared, const grains_sim *alone)
{
    size_t bad = grains_sim_count(shared) != grains_sim_count(alone);
    for (size_t id = 0; !bad && id < grains_sim_count(alone); id++)
        bad += !same_particle(get(shared, id), get(alone, id));
    grains_thermo a, b;
    grains_sim_thermo(shared, &a);
    grains_sim_thermo(alone, &b);
    bad += memcmp(&a.e_kin, &b.e_kin, sizeof a.e_kin) || memcmp(&a.e_rot, &b.e_rot, sizeof a.e_rot) ||
           a.n_particles != b.n_particles || a.n_contacts != b.n_contacts;
    return bad;
}

static void gas_case(test_ctx *t, grains_comm *comm, int periodic, int threads, double rebalance)
{
    int rank = comm_rank(comm), size = comm_size(comm);
    grains_ranks ranks = comm_ranks(comm);
    ranks.local = 1;
    ranks.rebalance = rebalance;
    grains_sim *alone = gas(periodic, 1), *shared = gas(periodic, threads);
    grains_error err;
    grains_status s = grains_sim_share(shared, &ranks, &err);
    size_t n = grains_sim_count(alone), bad = 0, most_held = 0, checks = 0;
    uint64_t *owners = calloc(n, sizeof *owners), unowned = 0;
    size_t written_bad = 0;
    for (int round = 0; round < ROUNDS && s == GRAINS_OK; round++) {
        if ((s = grains_sim_advance(shared, STEPS, &err)) != GRAINS_OK)
            break;
        grains_sim_advance(alone, STEPS, NULL);
        memset(owners, 0, n * sizeof *owners);
        bad += differ(shared, alone, owners);
        ranks.sum(ranks.ctx, owners, n);
        for (size_t id = 0; id < n; id++)
            unowned += owners[id] != 1;
        most_held = shared->pt.n > most_held ? shared->pt.n : most_held;
        grains_sim_gather_particles(shared);
        if (rank == 0)
            written_bad += written_differ(shared, alone);
        checks++;
    }
    char what[96];
    snprintf(what, sizeof what, "rank %d of %d, %s, %d thread%s, rebalance %g", rank, size,
             periodic ? "periodic" : "open", threads, threads > 1 ? "s" : "", rebalance);
    CHECK(t, s == GRAINS_OK, "%s: %d steps (%s)", what, ROUNDS * STEPS, s == GRAINS_OK ? "ok" : err.message);
    CHECK(t, checks == ROUNDS && bad == 0, "%s: every own particle has one process's bits after each %d steps "
          "(%zu differ)", what, STEPS, bad);
    CHECK(t, checks == ROUNDS && unowned == 0, "%s: every particle is owned by one rank", what);
    CHECK(t, checks == ROUNDS && written_bad == 0, "%s: gathered to rank 0, every particle by id and the thermo "
          "figures are one process's (%zu differ)", what, written_bad);
    CHECK(t, size == 1 || (most_held > 0 && most_held < n), "%s: a rank holds %zu of the %zu particles at most",
          what, most_held, n);
    printf("  %-44s held at most %zu of %zu; %ld rebuilds\n", what, most_held, n, (long)shared->n_rebuilds);
    free(owners);
    grains_sim_destroy(alone), grains_sim_destroy(shared);
}

int main(int argc, char **argv)
{
    test_ctx t = {0, 0};
    grains_comm *comm;
    grains_error err;
    if (comm_start(&argc, &argv, &comm, &err) != GRAINS_OK) {
        fprintf(stderr, "test_ranks_local: %s\n", err.message);
        return 1;
    }
    gas_case(&t, comm, 1, 1, 1);
    gas_case(&t, comm, 0, 2, 1.5);
    char name[40];
    snprintf(name, sizeof name, "test_ranks_local rank %d/%d", comm_rank(comm), comm_size(comm));
    int failed = test_report(&t, name);
    comm_stop(comm);
    return failed;
}
