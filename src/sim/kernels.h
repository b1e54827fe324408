/* The hot loops, once per instruction set: the contacts in lanes (contact/lanes.c,
 * interact/force_lanes.c) and the integrators' particle loops (integrate/euler_spiral.c,
 * integrate/velocity_verlet.c), which a row names by its particle_loop.
 * A build for x86-64's baseline (GRAINS_NATIVE=OFF) compiles them three
 * times, for the baseline (SSE2), x86-64-v3 (AVX2) and x86-64-v4
 * (AVX-512), and a simulation takes the widest its CPU runs; any other
 * build has one set, its own. Each lane is the same IEEE operations at any
 * vector width, and no multiply and add is fused (ISO C11): every set
 * gives the same bits (tests/test_lanes.c). */
#ifndef GRAINS_SIM_KERNELS_H
#define GRAINS_SIM_KERNELS_H

#include "interact/interact.h"
#include "integrate/integrator.h"

typedef struct sim_kernels {
    const char *isa;                    /* "x86-64-v4", "x86-64-v3", "x86-64" or "this build's" */
    block_lanes_fn block_lane_contacts; /* sim_block_lane_contacts */
    particle_loop_fn loop[N_PARTICLE_LOOPS]; /* by particle_loop; LOOP_NONE's NULL */
} sim_kernels;

/* The set named `isa` if this build holds it and this CPU runs it, else
 * NULL; isa NULL: the one the environment's GRAINS_ISA names (the same
 * bits from each: for comparing them), else the widest this CPU runs. */
const sim_kernels *sim_kernels_choose(const char *isa);

/* The sets this build holds, widest first: n of them. */
const sim_kernels *sim_kernels_all(int *n);

/* The names of the sets this build holds and this CPU runs, widest first,
 * separated by ", " (for an error that refuses GRAINS_ISA). */
void sim_kernels_runnable(char *buf, size_t size);

#endif
