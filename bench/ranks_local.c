/* Ranks holding every particle against ranks holding their own alone
 * (grains_ranks.local): a periodic box of N spheres (radii uniform in
 * [0.9, 1.1] R, on a lattice of spacing 2.1 R, random velocities of up to
 * 0.1 m/s: they collide and pack), stepped S steps after W steps of warm-up,
 * on the ranks mpirun gives and T threads each. Prints, per rank: the
 * particles it holds, the bytes it has allocated (malloc's count, without
 * what the heap keeps after a free), its resident memory after the steps (bytes per particle of the whole), its
 * peak, the steps' wall time and its share in exchanges; rank 0 the
 * particle-steps per second, then the time a checkpoint takes to write and
 * its size (its memory: the peak RSS of grains run, docs/benchmarks.md).
 * Usage: mpirun -np P bench_ranks_local N S LOCAL [T] [W] */
#include <math.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "grains/checkpoint.h"
#include "grains/ranks.h"
#include "grains/sim.h"
#include "parallel/comm.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* This process's resident memory now, in kB (/proc/self/statm), 0 when unknown. */
static long resident_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * 4;
}

static grains_sim *box(size_t n_side, int threads)
{
    const double R = 1e-3, a = 2.1 * R, L = (double)n_side * a;
    grains_params p;
    grains_params_default(&p);
    p.N_max = 0, p.N_spawn = 0, p.threads = threads;
    p.g = (grains_vec3){0, 0, 0};
    p.R_min = 0.9 * R, p.R_max = 1.1 * R;
    p.periodic = 7;
    p.box_min = (grains_vec3){0, 0, 0};
    p.box_max = (grains_vec3){L, L, L};
    grains_sim *sim;
    grains_error err;
    if (grains_sim_create(&sim, &p, &err) != GRAINS_OK || grains_sim_reserve(sim, n_side * n_side * n_side, &err)) {
        fprintf(stderr, "bench_ranks_local: %s\n", err.message);
        exit(1);
    }
    unsigned s = 2026;
    for (size_t i = 0; i < n_side * n_side * n_side; i++) {
        double u[4];
        for (int k = 0; k < 4; k++) {
            s = s * 1103515245u + 12345u;
            u[k] = (s >> 8) / 16777216.0;
        }
        double x = (double)(i % n_side), y = (double)(i / n_side % n_side), z = (double)(i / n_side / n_side);
        grains_particle q = {{(x + 0.5) * a, (y + 0.5) * a, (z + 0.5) * a},
                             {0.2 * (u[0] - 0.5), 0.2 * (u[1] - 0.5), 0.2 * (u[2] - 0.5)},
                             {0, 0, 0},
                             {1, 0, 0, 0},
                             R * (0.9 + 0.2 * u[3]),
                             0,
                             0};
        if (grains_sim_add_particle(sim, &q, &err) != GRAINS_OK) {
            fprintf(stderr, "bench_ranks_local: %s\n", err.message);
            exit(1);
        }
    }
    return sim;
}

int main(int argc, char **argv)
{
    grains_comm *comm;
    grains_error err;
    if (comm_start(&argc, &argv, &comm, &err) != GRAINS_OK || argc < 4) {
        fprintf(stderr, "usage: mpirun -np P bench_ranks_local N STEPS LOCAL [THREADS] [WARM]\n");
        return 1;
    }
    size_t n_side = (size_t)(cbrt(atof(argv[1])) + 0.5);
    long steps = atol(argv[2]), warm = argc > 5 ? atol(argv[5]) : 20;
    int threads = argc > 4 ? atoi(argv[4]) : 1;
    grains_sim *sim = box(n_side, threads);
    grains_ranks ranks = comm_ranks(comm);
    ranks.local = atoi(argv[3]);
    if (grains_sim_share(sim, &ranks, &err) != GRAINS_OK || grains_sim_advance(sim, warm, &err) != GRAINS_OK) {
        fprintf(stderr, "bench_ranks_local: %s\n", err.message);
        return 1;
    }
    double t0 = now();
    if (grains_sim_advance(sim, steps, &err) != GRAINS_OK) {
        fprintf(stderr, "bench_ranks_local: %s\n", err.message);
        return 1;
    }
    double seconds = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    size_t n = grains_sim_count(sim);
    grains_ranks_stats st = grains_sim_ranks_stats(sim);
    long rss = resident_kb();
    struct mallinfo2 mi = mallinfo2(); /* what is allocated, freed memory the heap keeps not counted */
    double in_use = (double)(mi.uordblks + mi.hblkhd);
    printf("rank %d/%d %s, %d thread(s): N %zu, %.0f held, %.0f bytes allocated per particle of N, %.3f s for %ld steps, resident %ld kB after them (%.0f bytes per "
           "particle of N; peak %ld kB, with the set-up where every rank holds every one), %.1f%% of the steps' time "
           "in exchanges, %ld cuts\n",
           comm_rank(comm), comm_size(comm), ranks.local ? "local" : "every particle", threads, n, st.held, in_use / (double)n, seconds,
           steps, rss,
           1024.0 * (double)rss / (double)n, ru.ru_maxrss, 100 * st.seconds / seconds, st.cuts);
    if (comm_rank(comm) == 0)
        printf("  %.3g particle-steps per second\n", (double)n * (double)steps / seconds);
    t0 = now(); /* a checkpoint: rank 0 writes what every rank sends, a window at a time */
    if (grains_checkpoint_write("bench_ranks_local.grains", sim, NULL, 0, &err) != GRAINS_OK) {
        fprintf(stderr, "bench_ranks_local: %s\n", err.message);
        return 1;
    }
    double written = now() - t0;
    struct stat file;
    if (comm_rank(comm) == 0 && stat("bench_ranks_local.grains", &file) == 0) {
        printf("  a checkpoint written in %.3f s, %.0f bytes per particle\n", written,
               (double)file.st_size / (double)n);
        remove("bench_ranks_local.grains");
    }
    grains_sim_destroy(sim);
    comm_stop(comm);
    return 0;
}
