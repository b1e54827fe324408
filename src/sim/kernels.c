/* The hot loops' sets (sim/kernels.h). With GRAINS_KERNEL_COPIES (CMakeLists.txt)
 * the wider sets are the same sources compiled again for x86-64-v3 and
 * x86-64-v4, their functions renamed with those suffixes. */
#include "sim/kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GRAINS_KERNEL_COPIES
#define DECLARE_SET(sfx)                                                                                           \
    void sim_block_lane_contacts##sfx(const block_walk *w, uint32_t b);                                            \
    void integrate_euler_spiral##sfx(const integrate_view *v, real *max_v2);                                       \
    void integrate_verlet_drift##sfx(const integrate_view *v, real *max_v2);                                       \
    void integrate_verlet_kick##sfx(const integrate_view *v, real *max_v2);
DECLARE_SET(_v4)
DECLARE_SET(_v3)

#define SET(name, sfx)                                                                                             \
    {name, sim_block_lane_contacts##sfx,                                                                           \
     {NULL, integrate_euler_spiral##sfx, integrate_verlet_drift##sfx, integrate_verlet_kick##sfx}}

static const sim_kernels SETS[] = {SET("x86-64-v4", _v4), SET("x86-64-v3", _v3), SET("x86-64", )};

/* Whether this CPU runs set k (the last, the baseline, runs on any). */
static int runs(int k)
{
    __builtin_cpu_init();
    return k == 0 ? __builtin_cpu_supports("x86-64-v4") : k == 1 ? __builtin_cpu_supports("x86-64-v3") : 1;
}
#else
static const sim_kernels SETS[] = {
    {"this build's", sim_block_lane_contacts, {NULL, integrate_euler_spiral, integrate_verlet_drift, integrate_verlet_kick}}};

static int runs(int k)
{
    (void)k;
    return 1;
}
#endif

enum { N_SETS = (int)(sizeof SETS / sizeof *SETS) };

const sim_kernels *sim_kernels_choose(const char *isa)
{
    if (!isa) {
        const char *wanted = getenv("GRAINS_ISA");
        isa = wanted && *wanted ? wanted : NULL;
    }
    for (int k = 0; k < N_SETS; k++)
        if ((!isa || strcmp(isa, SETS[k].isa) == 0) && runs(k))
            return &SETS[k];
    return NULL;
}

const char *grains_kernels_isa(void)
{
    const sim_kernels *k = sim_kernels_choose(NULL);
    return k ? k->isa : "none (GRAINS_ISA names no set this build and CPU run)";
}

const sim_kernels *sim_kernels_all(int *n)
{
    *n = N_SETS;
    return SETS;
}

void sim_kernels_runnable(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < N_SETS && used < size; k++)
        if (runs(k))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", SETS[k].isa);
}
