/* Ranks that hold their own particles and copies of their partners alone
 * (grains_ranks.local), under mpirun with 1, 2 and 3 ranks. The fact
 * checked: a gas of two sizes (ratio 2, so two levels of cells), periodic
 * along every axis or open between a floor and a servo lid (whose motion
 * follows the force of every rank's grains on it), stepped by ranks that
 * each hold a share of the particles, which move between ranks at the
 * rebuilds, gives every
 * particle the bits one process gives it, on 1 and 2 threads per rank
 * (each own particle's force is summed from the same inputs in the same
 * order whatever the split), and every rank the walls' force one process
 * gives them (summed over the blocks in its order); every particle is owned by one rank; rank 0's
 * gathered copy of them all, read by id and summed by thermo in the ids'
 * order, is one process's, and so are the frames (VTK and CSV) and thermo
 * it writes a window of ids at a time without gathering them; so is the state rank 0 gathers for a
 * checkpoint, bytes for bytes (particles, grid, lists, histories, the
 * diagnostics' particle, bonds); resumed from that checkpoint by ranks that each
 * read it whole, or its share alone where shared before it read it, the
 * ranks go on with one process's bits (stepping first, each keeping its
 * share with the lists as read, or rebuilding at once);
 * and a rank holds fewer than all of them. The
 * periodic gas once more with bonds (soft springs between grains two and
 * one lattice sites apart, some across the periodic faces, farther apart
 * than any pair the lists hold, some breaking): each bond's two owners
 * evaluate it from the same inputs, so its force and springs, and the
 * bonds rank 0 gathers, are one process's. */
#include <stdio.h>
#include <unistd.h>

#include "check.h"
#include "parallel/comm.h"
#include "grains/checkpoint.h"
#include "grains/io.h"
#include "sim/sim_internal.h"
#include "sim/state.h"
#include "support.h"

static const double R = 1e-3;
enum { ROUNDS = 3, STEPS = 300 };
enum { FREE, BONDED, VERLET }; /* (BONDED and VERLET combine) */

/* Bonds from each lattice site (i, j, k) to (i + 2, j, k) and (i, j + 1,
 * k), across the periodic faces: 9.2 R and 4.6 R apart, pulled together
 * by springs of 0.15 N/m (at most 1e-3 N at the start) that break at
 * 1.2e-3 N. */
static void bond_lattice(grains_sim *sim)
{
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            for (int k = 0; k < 10; k++) {
                size_t a = (size_t)(100 * i + 10 * j + k);
                if (grains_sim_add_bond(sim, a, (size_t)(100 * ((i + 2) % 10) + 10 * j + k), NULL) != GRAINS_OK ||
                    grains_sim_add_bond(sim, a, (size_t)(100 * i + 10 * ((j + 1) % 10) + k), NULL) != GRAINS_OK)
                    exit(1);
            }
}

enum { WHOLE, BY_ID, BY_RANGE };

/* A gas of 10 x 10 x 10 spheres of radius R and 2R on a lattice, with
 * random velocities of up to 1 m/s, the last tagged; open, on a floor under
 * a servo lid (their force summed from the blocks of every rank), with one
 * more leaving the box below the floor (a stray: sim/strays.h), or
 * periodic, then free or bonded (bond_lattice), stepped by the default
 * row or VERLET; added whole on every rank,
 * or shared among `deal` first and dealt among them: BY_ID, every rank
 * given every sphere (grains_sim_add_dealt); BY_RANGE, each its range of
 * ids alone (grains_sim_deal_range; the tagged sphere then is the last
 * rank's alone). */
static grains_sim *gas_dealt(int periodic, int threads, int bonded, const grains_ranks *deal, int how)
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
    if (bonded & VERLET)
        p.integrator = GRAINS_INTEGRATOR_VERLET;
    if (bonded & BONDED)
        p.bond_kn = 0.15, p.bond_kt = 0.1, p.bond_max_force = 1.2e-3;
    grains_sim *sim = scene(&p);
    size_t n = 1000, lo = 0, hi = n;
    if (how != WHOLE) {
        lo = n * (size_t)deal->rank / (size_t)deal->size, hi = n * (size_t)(deal->rank + 1) / (size_t)deal->size;
        if (grains_sim_share(sim, deal, NULL) != GRAINS_OK ||
            (how == BY_RANGE && grains_sim_deal_range(sim, lo, hi - lo, n, NULL) != GRAINS_OK))
            exit(1);
    }
    unsigned s = 4242;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            for (int k = 0; k < 10; k++) {
                double v[3];
                for (int a = 0; a < 3; a++) {
                    s = s * 1103515245u + 12345u;
                    v[a] = ((s >> 8) / 16777216.0 - 0.5) * 2;
                }
                size_t id = (size_t)(100 * i + 10 * j + k);
                grains_particle q = {{(i + 0.5) * L / 10, (j + 0.5) * L / 10, (k + 0.5) * L / 10},
                                     {v[0], v[1], v[2]}, {0, 0, 0}, {1, 0, 0, 0}, (i + j + k) % 2 ? 2 * R : R, 0,
                                     id == n - 1 ? 3 : 0};
                if (how == BY_RANGE && (id < lo || id >= hi))
                    continue;
                if ((how == WHOLE ? grains_sim_add_particle : grains_sim_add_dealt)(sim, &q, NULL) != GRAINS_OK)
                    exit(1);
            }
    if (bonded & BONDED)
        bond_lattice(sim);
    if (periodic)
        return sim;
    grains_particle stray = {{L / 2, L / 2, -L}, {0.2, 0, -1}, {0, 0, 0}, {1, 0, 0, 0}, R, 0, 0};
    if ((how == WHOLE ? grains_sim_add_particle : grains_sim_add_dealt)(sim, &stray, NULL) != GRAINS_OK)
        exit(1);
    plate(sim, L, 0, grains_motion_fixed());
    grains_motion servo = grains_motion_fixed();
    servo.type = GRAINS_MOTION_SERVO;
    servo.axis = (grains_vec3){0, 0, -1};
    servo.force = 0.05;
    servo.max_speed = 0.05;
    plate(sim, L, L, servo);
    return sim;
}

static grains_sim *gas(int periodic, int threads, int bonded)
{
    return gas_dealt(periodic, threads, bonded, NULL, WHOLE);
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

/* The walls' force on this rank against one process's, bit for bit (with
 * a servo every rank sums it each step); 1 when one differs. */
static int walls_differ(const grains_sim *shared, const grains_sim *alone)
{
    for (size_t k = 0; k < alone->wl.n; k++)
        if (memcmp(&shared->wl.body[k].force, &alone->wl.body[k].force, sizeof(vec3)))
            return 1;
    return shared->wl.n != alone->wl.n;
}

/* Rank 0's gathered copy against one process: every particle by id, and
 * the thermo's sums (taken in the ids' order); how many differ. */
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

/* A file's bytes (NULL: unread), *n of them. */
static char *file_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(1 << 22) : NULL;
    *n = buf ? fread(buf, 1, 1 << 22, f) : 0;
    if (f)
        fclose(f);
    return buf;
}

static int files_differ(const char *a, const char *b)
{
    size_t na, nb;
    char *x = file_bytes(a, &na), *y = file_bytes(b, &nb);
    int differ = !x || !y || na != nb || na == 0 || memcmp(x, y, na) != 0;
    free(x);
    free(y);
    remove(a);
    remove(b);
    return differ;
}

/* A frame's files written by rank 0 from windows of the particles
 * (ranks.window: 5 ids here), each rank sending those of its own, against
 * one process's, bytes for bytes: VTK in its three formats (windows of 5
 * values of 8 bytes leave bytes short of a base64 group to the next), and
 * CSV; the thermo's sums, which
 * rank 0 adds a window at a time in the ids' order, bit for bit, and the
 * bonds' counts, each bond counted by one rank; and rank 0 never held
 * every particle. How many of these fail (collective). */
static size_t frame_differs(grains_sim *shared, const grains_sim *alone, int rank, int bonded)
{
    char path[2][64], csv[2][64];
    for (int k = 0; k < 2; k++) {
        snprintf(path[k], sizeof path[k], "/tmp/grains-ranks-local-%d-%d.vtp", (int)getpid(), k);
        snprintf(csv[k], sizeof csv[k], "/tmp/grains-ranks-local-%d-%d.csv", (int)getpid(), k);
    }
    grains_error err;
    grains_sim_gather_thermo(shared);
    size_t bad = 0;
    for (int format = GRAINS_VTK_COMPRESSED; format <= GRAINS_VTK_ASCII; format++) {
        bad += grains_vtk_write_frame(rank == 0 ? path[0] : NULL, shared, format, &err) != GRAINS_OK;
        if (rank == 0)
            bad += grains_vtk_write_particles(path[1], alone, format, &err) != GRAINS_OK ||
                   files_differ(path[0], path[1]);
    }
    bad += grains_csv_write_frame(rank == 0 ? csv[0] : NULL, shared, &err) != GRAINS_OK;
    bad += shared->ranks.writer_whole;
    if (rank != 0)
        return bad;
    bad += grains_csv_write(csv[1], alone, &err) != GRAINS_OK || files_differ(csv[0], csv[1]);
    grains_thermo a, b;
    grains_sim_thermo(shared, &a);
    grains_sim_thermo(alone, &b);
    bad += memcmp(&a.e_kin, &b.e_kin, sizeof a.e_kin) || memcmp(&a.e_rot, &b.e_rot, sizeof a.e_rot) ||
           a.n_particles != b.n_particles || a.n_lost != b.n_lost || a.n_bonds != b.n_bonds ||
           a.n_broken != b.n_broken || (bonded && !(b.n_bonds > 0));
    return bad;
}

/* Rank 0's gathered bonds against one process's, bit for bit; how many
 * differ (a count that differs: all). Broken ones counted in *broken. */
static size_t bonds_differ(const grains_sim *shared, const grains_sim *alone, size_t *broken)
{
    size_t n = grains_sim_bond_count(alone), bad = 0;
    if (grains_sim_bond_count(shared) != n)
        return n + 1;
    for (size_t k = 0; k < n; k++) {
        grains_bond a, b;
        grains_sim_get_bond(shared, k, &a);
        grains_sim_get_bond(alone, k, &b);
        *broken += b.broken != 0;
        bad += a.a != b.a || a.b != b.b || a.broken != b.broken || memcmp(&a.force, &b.force, sizeof a.force) ||
               memcmp(&a.torque, &b.torque, sizeof a.torque) || memcmp(a.us, b.us, sizeof a.us) ||
               memcmp(a.ur, b.ur, sizeof a.ur) || memcmp(&a.ut, &b.ut, sizeof a.ut);
    }
    return bad;
}

/* The state a checkpoint holds (sim/state.h) as bytes, or NULL: of a
 * shared simulation, what rank 0 writes (every rank calls it). */
static char *state_bytes(grains_sim *sim, size_t *n)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, n);
    if (!f)
        return NULL;
    bytes_out o;
    bytes_out_init(&o, f);
    grains_error err;
    grains_status s = sim_write_state(sim, &o, &err);
    if (fclose(f) != 0 || s != GRAINS_OK || o.failed) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The state rank 0 writes as the ranks send it, against one process's: 1
 * when the bytes differ (the particles, grid, lists and histories as one
 * process holds them, though no rank holds them all). */
static int state_differs(grains_sim *shared, grains_sim *alone)
{
    size_t n_a = 0, n_b = 0;
    char *a = state_bytes(shared, &n_a);
    if (shared->ranks.peers.rank != 0) {
        free(a);
        return 0;
    }
    char *b = state_bytes(alone, &n_b);
    int differs = !a || !b || n_a != n_b || memcmp(a, b, n_a) != 0;
    free(a);
    free(b);
    return differs;
}

/* Steps one at a time (at most STEPS) until a bond breaks, then compares
 * rank 0's gathered state with one process's, whose bonds' index holds the
 * broken bond until the rebuild that follows (at the next step): 1 when
 * they differ or none broke (*at: the step it broke at). */
static int state_differs_at_break(grains_sim *shared, grains_sim *alone, long *at)
{
    grains_thermo th;
    grains_sim_thermo(alone, &th);
    size_t before = th.n_broken;
    for (int k = 0; k < STEPS; k++) {
        if (grains_sim_step(shared, NULL) != GRAINS_OK || grains_sim_step(alone, NULL) != GRAINS_OK)
            return 1;
        grains_sim_thermo(alone, &th);
        if (th.n_broken > before) {
            *at = alone->step;
            return state_differs(shared, alone);
        }
    }
    return 1;
}

/* A checkpoint of the ranks (rank 0 writes it), read by every rank into a
 * fresh simulation, shared after the read (it then holds every particle)
 * or before it (`share_first`: each rank reads its share); *read_held
 * particles as read, *shared_held once shared; NULL on failure. */
static grains_sim *resumed(grains_sim *shared, const grains_ranks *ranks, int periodic, int threads, int bonded,
                           int share_first, size_t *read_held, size_t *shared_held)
{
    char path[64];
    snprintf(path, sizeof path, "test_ranks_local_%d.grains", ranks->size);
    grains_error err;
    uint64_t failed = grains_checkpoint_write(path, shared, NULL, 0, &err) != GRAINS_OK;
    ranks->sum(ranks->ctx, &failed, 1); /* and a barrier: the file is written */
    grains_sim *sim = gas(periodic, threads, bonded);
    if (failed || (share_first && grains_sim_share(sim, ranks, &err) != GRAINS_OK) ||
        grains_checkpoint_read_sim(path, sim, &err) != GRAINS_OK) {
        grains_sim_destroy(sim);
        sim = NULL;
    }
    *read_held = sim ? sim->pt.n : 0;
    if (sim && !share_first && grains_sim_share(sim, ranks, &err) != GRAINS_OK) {
        grains_sim_destroy(sim);
        sim = NULL;
    }
    *shared_held = sim ? sim->pt.n : 0;
    uint64_t read = 0;
    ranks->sum(ranks->ctx, &read, 1); /* every rank read it */
    if (ranks->rank == 0)
        remove(path);
    return sim;
}

/* Dealt particles before the first step: how many facts fail of these:
 * this rank holds its share alone (the ids that are its own modulo the
 * ranks, or its range) and the ranks every particle once; rank 0's
 * gathered copy and thermo are one process's (the ids' order) and pass
 * the start check; the state a checkpoint holds is one process's, bytes for
 * bytes; and bonds are refused on every rank (of several), and so is a
 * particle beyond a rank's range (the others would not count its id). */
static size_t dealt_start_differs(grains_sim *shared, grains_sim *alone, const grains_ranks *ranks, int how)
{
    size_t n = grains_sim_count(alone), P = (size_t)ranks->size, r = (size_t)ranks->rank;
    size_t share = how == BY_ID ? n / P + (r < n % P) : n * (r + 1) / P - n * r / P;
    uint64_t held = shared->pt.n;
    ranks->sum(ranks->ctx, &held, 1);
    size_t bad = shared->pt.n != share || held != n || grains_sim_count(shared) != n;
    grains_error err;
    bad += grains_sim_check_start(shared, &err) != GRAINS_OK; /* (collective) */
    grains_sim_gather_particles(shared);
    if (ranks->rank == 0)
        bad += written_differ(shared, alone);
    bad += (size_t)state_differs(shared, alone);
    grains_particle extra = get(alone, 0);
    bad += how == BY_RANGE && P > 1 && grains_sim_add_dealt(shared, &extra, &err) != GRAINS_ERR_ARG;
    return bad + (P > 1 && grains_sim_add_bond(shared, 0, 1, &err) != GRAINS_ERR_ARG); /* (1: one process) */
}

static void gas_case(test_ctx *t, grains_comm *comm, int periodic, int bonded, int threads, double rebalance,
                     int how)
{
    int dealt = how != WHOLE;
    int rank = comm_rank(comm), size = comm_size(comm);
    grains_ranks ranks = comm_ranks(comm);
    ranks.local = 1;
    ranks.rebalance = rebalance;
    ranks.window = 5;
    grains_sim *alone = gas(periodic, 1, bonded), *shared = gas_dealt(periodic, threads, bonded, &ranks, how);
    grains_error err;
    grains_status s = grains_sim_share(shared, &ranks, &err);
    size_t start_bad = dealt && s == GRAINS_OK ? dealt_start_differs(shared, alone, &ranks, how) : 0;
    int stray_bound_bad = 0;
    if (s == GRAINS_OK && !periodic) { /* (a step more for both: the stray's bound at its first step) */
        s = grains_sim_step(shared, &err);
        step(alone);
        stray_bound_bad = shared->strays.n != 1 || alone->strays.n != 1 || shared->strays.moved != alone->strays.moved;
    }
    size_t n = grains_sim_count(alone), bad = 0, most_held = 0, checks = 0, resume_held = 0, read_held = 0, shared_held = 0;
    int resume_rebuilt = 0;
    uint64_t *owners = calloc(n, sizeof *owners), unowned = 0;
    size_t written_bad = 0, frames_bad = 0, states_bad = 0, walls_bad = 0, lid_pushed = 0, bonds_bad = 0, broken = 0;
    for (int round = 0; round < ROUNDS && s == GRAINS_OK; round++) {
        if (round == ROUNDS - 1) { /* the last round from a checkpoint of the ranks */
            /* open: shared first, a checkpoint with a rebuild due, read whole and rebuilt at once, as one
             * process (every rank names every history alike); periodic: each rank keeps its share with
             * the lists as read, as it reads (bonded: shared first) or as it is shared after */
            if (!periodic)
                shared->need_rebuild = alone->need_rebuild = 1;
            grains_sim *again = resumed(shared, &ranks, periodic, threads, bonded, bonded || !periodic, &read_held,
                                      &shared_held);
            grains_sim_destroy(shared);
            if (!(shared = again))
                break;
            size_t rebuilds = shared->n_rebuilds, rebuilds_alone = alone->n_rebuilds;
            if (periodic && (s = grains_sim_step(shared, &err)) == GRAINS_OK) {
                grains_sim_step(alone, NULL);
                resume_held = shared->pt.n;
                resume_rebuilt = (shared->n_rebuilds != rebuilds) != (alone->n_rebuilds != rebuilds_alone);
            }
        }
        if ((s = grains_sim_advance(shared, STEPS, &err)) != GRAINS_OK)
            break;
        advance(alone, STEPS);
        memset(owners, 0, n * sizeof *owners);
        bad += differ(shared, alone, owners);
        walls_bad += walls_differ(shared, alone);
        lid_pushed += alone->wl.n == 2 && alone->wl.body[1].force.z != 0;
        ranks.sum(ranks.ctx, owners, n);
        for (size_t id = 0; id < n; id++)
            unowned += owners[id] != 1;
        most_held = shared->pt.n > most_held ? shared->pt.n : most_held;
        frames_bad += frame_differs(shared, alone, rank, bonded);
        grains_sim_gather_particles(shared);
        if (rank == 0) {
            written_bad += written_differ(shared, alone);
            broken = 0; /* (the last round's) */
            bonds_bad += bonds_differ(shared, alone, &broken);
        }
        states_bad += state_differs(shared, alone);
        checks++;
    }
    long broke_at = -1;
    int break_state_bad = bonded && s == GRAINS_OK && shared && state_differs_at_break(shared, alone, &broke_at);
    char what[96];
    snprintf(what, sizeof what, "rank %d of %d, %s%s%s, %d thread%s, rebalance %g", rank, size,
             periodic ? "periodic" : "open", bonded ? " bonded" : "",
             how == BY_ID ? " dealt by id" : how == BY_RANGE ? " dealt by range" : "", threads,
             threads > 1 ? "s" : "", rebalance);
    CHECK(t, s == GRAINS_OK, "%s: %d steps (%s)", what, ROUNDS * STEPS, s == GRAINS_OK ? "ok" : err.message);
    if (dealt)
        CHECK(t, start_bad == 0, "%s: dealt, before the first step each rank holds its share alone, rank 0's "
              "gathered copy, thermo and checkpoint state are one process's and pass the start check, and bonds "
              "are refused (%zu facts fail)", what, start_bad);
    CHECK(t, checks == ROUNDS && bad == 0, "%s: every own particle has one process's bits after each %d steps "
          "(%zu differ)", what, STEPS, bad);
    CHECK(t, checks == ROUNDS && walls_bad == 0 && (periodic || lid_pushed == ROUNDS),
          "%s: the walls' force is one process's, bit for bit, on every rank (%zu rounds differ; the lid pushed "
          "back in %zu of %d)", what, walls_bad, lid_pushed, ROUNDS);
    CHECK(t, checks == ROUNDS && unowned == 0, "%s: every particle is owned by one rank", what);
    CHECK(t, checks == ROUNDS && written_bad == 0, "%s: gathered to rank 0, every particle by id and the thermo "
          "figures are one process's (%zu differ)", what, written_bad);
    CHECK(t, checks == ROUNDS && frames_bad == 0, "%s: written by rank 0 from windows of 5 particles, without "
          "gathering them all, the frames (VTK in 3 formats, CSV) and the thermo's sums are one process's, bytes for bytes "
          "(%zu facts fail)", what, frames_bad);
    CHECK(t, checks == ROUNDS && states_bad == 0, "%s: written by rank 0 as the ranks send it, windows of 5 "
          "particles at a time, the state a checkpoint holds (particles, grid, lists, histories, bonds) is one "
          "process's, bytes for bytes, and resumed from it the ranks go on with one process's bits (%zu rounds "
          "differ)", what, states_bad);
    CHECK(t, size == 1 || (most_held > 0 && most_held < n), "%s: a rank holds %zu of the %zu particles at most",
          what, most_held, n);
    if (periodic && !bonded)
        CHECK(t, size == 1 || (read_held == n && shared_held > 0 && shared_held < n && resume_held > 0 &&
                               resume_held < n && !resume_rebuilt),
              "%s: resumed from a checkpoint every rank read whole (%zu), each keeps %zu of the %zu particles as "
              "it is shared, before any step (%zu after it), rebuilding only where one process does%s", what,
              read_held, shared_held, n, resume_held, resume_rebuilt ? " (it differs)" : "");
    if (!periodic)
        CHECK(t, stray_bound_bad == 0, "%s: the grain leaving the box is a stray on every rank after the first "
              "step, its bound one process's (the gas loses more than %d grains later: none is a stray then)", what,
              STRAYS_MAX);
    if (!periodic)
        CHECK(t, size == 1 || read_held == n, "%s: shared before it read a checkpoint whose rebuild is due, "
              "each rank read it whole (%zu of %zu particles) and rebuilt at once", what, read_held, n);
    if (periodic && bonded)
        CHECK(t, size == 1 || (read_held > 0 && read_held < n && resume_held < n && !resume_rebuilt),
              "%s: shared before it read the checkpoint, each rank read %zu of the %zu particles (%zu after its "
              "first step, its halo's copies with them), rebuilding only where one process does%s", what,
              read_held, n, resume_held, resume_rebuilt ? " (it differs)" : "");
    if (bonded && rank == 0) /* some bonds broke in the last round, and not all */
        CHECK(t, checks == ROUNDS && bonds_bad == 0 && broken > 0 && broken < grains_sim_bond_count(alone),
              "%s: gathered to rank 0, every bond (its springs, force, torque, whether it broke) is one process's, "
              "bit for bit (%zu differ; %zu of %zu broken by the last round)", what, bonds_bad,
              broken, grains_sim_bond_count(alone));
    if (bonded)
        CHECK(t, broke_at >= 0 && !break_state_bad, "%s: gathered to rank 0 at the step a bond broke (%ld), the "
              "state a checkpoint holds is one process's, whose bonds' index still holds it", what, broke_at);
    printf("  %-44s held at most %zu of %zu; %ld rebuilds", what, most_held, n, (long)shared->n_rebuilds);
    printf(bonded && rank == 0 ? "; %zu of %zu bonds broken\n" : "\n", broken, grains_sim_bond_count(alone));
    free(owners);
    grains_sim_destroy(alone), grains_sim_destroy(shared);
}

/* Particles removed between steps (grains_sim_remove, as the outlets
 * remove them) by ranks holding their own alone: the periodic bonded gas
 * stepped by Verlet, whose next half kick reads the force sums (they
 * travel with their particles through the removal's rebuild), 100 steps,
 * then 1 id in 7 and the last removed on every rank alike: the ids close
 * up and the removed ones' bonds end as in one process, and the ranks keep
 * one process's bits (each own particle and the checkpoint's state right
 * after the removal; 200 steps later, those, rank 0's gathered copy, the
 * thermo and every bond). An id that does not exist, or one named twice,
 * is refused on every rank, and nothing changes. */
static void remove_case(test_ctx *t, grains_comm *comm)
{
    int rank = comm_rank(comm);
    grains_ranks ranks = comm_ranks(comm);
    ranks.local = 1;
    ranks.window = 5;
    grains_sim *alone = gas(1, 1, BONDED | VERLET), *shared = gas(1, 2, BONDED | VERLET);
    grains_error err, no_such, twice;
    grains_status s = grains_sim_share(shared, &ranks, &err);
    if (s == GRAINS_OK)
        s = grains_sim_advance(shared, 100, &err);
    advance(alone, 100);
    size_t n = grains_sim_count(alone), ids[160], m = 0, bonds_before = grains_sim_bond_count(alone);
    for (size_t id = 3; id < n; id += 7)
        ids[m++] = id;
    ids[m++] = n - 1;
    size_t beyond[2] = {5, n}, eight_twice[3] = {8, 1, 8};
    int refused = s == GRAINS_OK && grains_sim_remove(shared, 2, beyond, &no_such) == GRAINS_ERR_ARG &&
                  strstr(no_such.message, "does not exist") && grains_sim_remove(shared, 3, eight_twice, &twice) ==
                  GRAINS_ERR_ARG && strstr(twice.message, "named twice") && grains_sim_count(shared) == n;
    if (s == GRAINS_OK)
        s = grains_sim_remove(shared, m, ids, &err);
    if (grains_sim_remove(alone, m, ids, NULL) != GRAINS_OK)
        exit(1);
    uint64_t *owners = calloc(n, sizeof *owners);
    size_t bad = s == GRAINS_OK ? differ(shared, alone, owners) : 1;
    int state_bad = s == GRAINS_OK ? state_differs(shared, alone) : 1;
    if (s == GRAINS_OK)
        s = grains_sim_advance(shared, 200, &err);
    advance(alone, 200);
    memset(owners, 0, n * sizeof *owners);
    bad += s == GRAINS_OK ? differ(shared, alone, owners) : 1;
    ranks.sum(ranks.ctx, owners, n);
    size_t unowned = 0, written_bad = 0, bonds_bad = 0, broken = 0;
    for (size_t id = 0; id < n; id++)
        unowned += owners[id] != (id < n - m);
    if (s == GRAINS_OK)
        grains_sim_gather_particles(shared);
    if (s == GRAINS_OK && rank == 0) {
        written_bad = written_differ(shared, alone);
        bonds_bad = bonds_differ(shared, alone, &broken);
    }
    state_bad += s == GRAINS_OK ? state_differs(shared, alone) : 1;
    char what[64];
    snprintf(what, sizeof what, "rank %d of %d, removals, Verlet", rank, comm_size(comm));
    CHECK(t, refused, "%s: particle %zu, which does not exist, and particle 8 named twice are refused on every "
          "rank, nothing removed", what, n);
    CHECK(t, s == GRAINS_OK && grains_sim_count(shared) == n - m && grains_sim_count(alone) == n - m,
          "%s: %zu of %zu particles removed after 100 steps (%s)", what, m, n, s == GRAINS_OK ? "ok" : err.message);
    CHECK(t, bad == 0 && unowned == 0 && state_bad == 0,
          "%s: each own particle and the checkpoint's state right after the removal, and 200 steps later, are one "
          "process's, bit for bit, each id owned by one rank (%zu particles, %d states differ, %zu ids unowned)", what,
          bad, state_bad, unowned);
    if (rank == 0)
        CHECK(t, written_bad == 0 && bonds_bad == 0 && grains_sim_bond_count(alone) < bonds_before,
              "%s: gathered to rank 0, every particle, the thermo and every bond are one process's, the removed "
              "ones' %zu bonds ended (%zu differ)", what, bonds_before - grains_sim_bond_count(alone),
              written_bad + bonds_bad);
    printf("  %-44s %zu of %zu removed; %zu of %zu bonds ended\n", what, m, n, bonds_before - grains_sim_bond_count(alone),
           bonds_before);
    free(owners);
    grains_sim_destroy(alone), grains_sim_destroy(shared);
}

enum { SOUND, CROWDED, FAR };

/* Spheres of radius R' = 2^-10 on a 10 x 10 x 10 lattice, 1.75 R' apart
 * along x (each of the 900 pairs of x-neighbours overlaps by 0.25 R', all
 * to the bit: they tie) and 2.5 R' along y and z, the lowest 100 pressed
 * 0.125 R' into a floor of 2 triangles (they tie too), the ranges of ids
 * dealt among `deal` (NULL: alone). The flaw: CROWDED, every even id at
 * one place; FAR, the last 10^4 m away. */
static grains_sim *start_scene(const grains_ranks *deal, int flaw)
{
    const double r = 1.0 / 1024;
    grains_params p = scene_params();
    p.R_min = p.R_max = r;
    p.skin = 0.25 * r;
    grains_sim *sim = scene(&p);
    size_t n = 1000, lo = 0, hi = n;
    if (deal) {
        lo = n * (size_t)deal->rank / (size_t)deal->size, hi = n * (size_t)(deal->rank + 1) / (size_t)deal->size;
        if (grains_sim_share(sim, deal, NULL) != GRAINS_OK || grains_sim_deal_range(sim, lo, hi - lo, n, NULL) != GRAINS_OK)
            exit(1);
    }
    for (size_t id = lo; id < hi; id++) {
        size_t i = id / 100, j = id / 10 % 10, k = id % 10;
        grains_particle q = {{(1.75 * (double)i + 1) * r, (2.5 * (double)j + 1) * r, (2.5 * (double)k + 0.875) * r},
                             {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, r, 0, 0};
        if (flaw == CROWDED && id % 2 == 0)
            q.x = (grains_vec3){8 * r, 8 * r, 8 * r};
        if (flaw == FAR && id == n - 1)
            q.x.x = 1e4;
        if ((deal ? grains_sim_add_dealt : grains_sim_add_particle)(sim, &q, NULL) != GRAINS_OK)
            exit(1);
    }
    plate(sim, 32 * r, 0, grains_motion_fixed());
    return sim;
}

/* The start's checks and overlap warnings of dealt ranks, which no rank
 * gathers every particle for (each cell block is checked by one home
 * rank), against one process's: the same figures, the same ids where
 * pairs and grains tie (the smaller ids), the same refusals. */
static void start_checks_case(test_ctx *t, grains_comm *comm)
{
    grains_ranks ranks = comm_ranks(comm);
    ranks.local = 1;
    grains_start_overlaps o[2];
    grains_error err[2];
    grains_sim *alone = start_scene(NULL, SOUND), *shared = start_scene(&ranks, SOUND);
    grains_status s0 = grains_sim_check_start(alone, &err[0]), s1 = grains_sim_check_start(shared, &err[1]);
    grains_sim_start_overlaps(alone, &o[0], &err[0]);
    grains_sim_start_overlaps(shared, &o[1], &err[1]);
    int rank = comm_rank(comm), whole = shared->ranks.writer_whole;
    CHECK(t, s0 == GRAINS_OK && s1 == GRAINS_OK && o[0].pairs == 900 && o[0].pair_depth == 0.25 &&
          o[0].pair_a == 0 && o[0].pair_b == 100 && o[0].walls == 100 && o[0].wall_depth == 0.0625 &&
          o[0].wall_particle == 0 && o[0].wall_element == 0 && memcmp(&o[0], &o[1], sizeof o[0]) == 0 && !whole,
          "rank %d of %d: dealt, the start's check passes and its overlaps are one process's: %zu pairs "
          "(900), the deepest %ld and %ld (0 and 100 of 900 that tie) by %g (0.25); %zu grains on the floor (100), "
          "the deepest %ld on element %zu (0 on 0) by %g (0.0625); rank 0 never held every particle",
          rank, comm_size(comm), o[1].pairs, o[1].pair_a, o[1].pair_b, o[1].pair_depth, o[1].walls,
          o[1].wall_particle, o[1].wall_element, o[1].wall_depth);
    grains_sim_destroy(alone), grains_sim_destroy(shared);
    for (int flaw = CROWDED; flaw <= FAR; flaw++) {
        alone = start_scene(NULL, flaw), shared = start_scene(&ranks, flaw);
        s0 = grains_sim_check_start(alone, &err[0]), s1 = grains_sim_check_start(shared, &err[1]);
        CHECK(t, s0 == GRAINS_ERR_RANGE && s1 == s0 && strcmp(err[0].message, err[1].message) == 0,
              "rank %d: dealt, %s refused with one process's message: '%s'", rank,
              flaw == CROWDED ? "500 grains in one cell" : "a grain 10^4 m away", s1 != GRAINS_OK ? err[1].message : "");
        grains_sim_destroy(alone), grains_sim_destroy(shared);
    }
}

/* Whether the n values at p (little-endian 32-bit) name each of 0 .. n-1
 * once: the slots that end a checkpoint's particles. */
static int slots_at(const unsigned char *p, size_t n, unsigned char *seen)
{
    memset(seen, 0, n);
    for (size_t k = 0; k < n; k++) {
        uint32_t v = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 | (uint32_t)p[4 * k + 2] << 16 |
                     (uint32_t)p[4 * k + 3] << 24;
        if (v >= n || seen[v]++)
            return 0;
    }
    return 1;
}

/* A copy (to) of the checkpoint of n particles at `from` whose first stored
 * particle's radius is negative, its CRC made good again: the radii lie
 * 61 bytes a particle before the slots (then materials, tags, forces and
 * torques); whether it was made. */
static int damage_radius(const char *from, const char *to, size_t n)
{
    static unsigned char buf[1 << 20], seen[1 << 12];
    FILE *f = fopen(from, "rb");
    size_t size = f ? fread(buf, 1, sizeof buf, f) : 0, at = 61 * n;
    if (f)
        fclose(f);
    while (at + 4 * n + 4 <= size && !slots_at(buf + at, n, seen))
        at++;
    if (at + 4 * n + 4 > size || n > sizeof seen)
        return 0;
    double radius;
    memcpy(&radius, buf + at - 61 * n, sizeof radius);
    radius = -radius;
    memcpy(buf + at - 61 * n, &radius, sizeof radius);
    if (!(f = fopen(to, "wb")))
        return 0;
    bytes_out o;
    bytes_out_init(&o, f);
    bytes_put(&o, buf, size - 4);
    bytes_put_crc(&o);
    return fclose(f) == 0 && !o.failed;
}

/* A checkpoint of one process (the periodic gas after 30 steps, its lists
 * holding) with a negative radius and a good CRC, read by ranks that share
 * before they read it (each reads its share, every value checked on every
 * rank): every rank refuses it with one process's message, and none waits
 * for another. */
static void damaged_case(test_ctx *t, grains_comm *comm)
{
    int rank = comm_rank(comm);
    grains_ranks ranks = comm_ranks(comm);
    ranks.local = 1;
    char good[64], bad[64]; /* named by the rank count: mpi_local_2 and _3 run at once under ctest -j2 */
    snprintf(good, sizeof good, "test_ranks_local_good_%d.grains", ranks.size);
    snprintf(bad, sizeof bad, "test_ranks_local_bad_%d.grains", ranks.size);
    grains_sim *alone = gas(1, 1, 0);
    uint64_t made = 0, holds = 0;
    grains_error err[2];
    if (rank == 0 && grains_sim_advance(alone, 30, NULL) == GRAINS_OK &&
        grains_checkpoint_write(good, alone, NULL, 0, NULL) == GRAINS_OK) {
        made = (uint64_t)damage_radius(good, bad, grains_sim_count(alone));
        holds = !alone->need_rebuild;
    }
    ranks.sum(ranks.ctx, &made, 1); /* and a barrier: the file is written */
    ranks.sum(ranks.ctx, &holds, 1);
    grains_sim *shared = gas(1, 1, 0), *one = gas(1, 1, 0);
    grains_status s1 = GRAINS_OK, s0 = grains_checkpoint_read_sim(bad, one, &err[0]);
    if (grains_sim_share(shared, &ranks, &err[1]) == GRAINS_OK)
        s1 = grains_checkpoint_read_sim(bad, shared, &err[1]);
    uint64_t read = 0;
    ranks.sum(ranks.ctx, &read, 1); /* every rank read it */
    if (rank == 0)
        remove(good), remove(bad);
    CHECK(t, made == 1 && holds == 1 && s0 == GRAINS_ERR_PARSE && s1 == s0 &&
                 strstr(err[1].message, "radius") && strcmp(err[0].message, err[1].message) == 0,
          "rank %d: a checkpoint with a negative radius and a good CRC (made %d, lists holding %d), read by ranks "
          "sharing first, is refused with one process's message: '%s'", rank, (int)made, (int)holds,
          s1 != GRAINS_OK ? err[1].message : "");
    grains_sim_destroy(alone), grains_sim_destroy(shared), grains_sim_destroy(one);
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
    gas_case(&t, comm, 1, FREE, 1, 1, BY_RANGE);
    gas_case(&t, comm, 0, FREE, 2, 1.5, BY_ID);
    gas_case(&t, comm, 1, BONDED, 2, 1, WHOLE);
    remove_case(&t, comm);
    start_checks_case(&t, comm);
    damaged_case(&t, comm);
    char name[40];
    snprintf(name, sizeof name, "test_ranks_local rank %d/%d", comm_rank(comm), comm_size(comm));
    int failed = test_report(&t, name);
    comm_stop(comm);
    return failed;
}
