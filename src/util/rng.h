/* Seeded random numbers for spawning: xoshiro256** seeded by splitmix64.
 * State lives in the simulation, never in a global. */
#ifndef GRAINS_UTIL_RNG_H
#define GRAINS_UTIL_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} grains_rng;

static inline uint64_t rng_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void rng_seed(grains_rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++)
        r->s[k] = rng_splitmix(&seed);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(grains_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, 1). */
static inline double rng_uniform(grains_rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
