/* Radii drawn from an insertion region's size distribution (size_draw.h). */
#include "insert/size_draw.h"

#include <math.h>

#define PI 3.14159265358979323846

/* Number weight of radius j: its share, of number or of mass (a grain of
 * radius R holds R^3 of mass, so a mass share w needs w / R^3 grains). */
static double number_weight(const grains_size_distribution *d, int j)
{
    double R = d->R[j];
    return d->by_mass ? d->fraction[j] / (R * R * R) : d->fraction[j];
}

double size_draw_share(const grains_size_distribution *d, int j)
{
    double total = 0;
    for (int k = 0; k < d->n; k++)
        total += number_weight(d, k);
    return number_weight(d, j) / total;
}

static real draw_discrete(const grains_size_distribution *d, grains_rng *rng)
{
    double total = 0;
    for (int k = 0; k < d->n; k++)
        total += number_weight(d, k);
    double u = rng_uniform(rng) * total, sum = 0;
    for (int k = 0; k < d->n; k++) {
        sum += number_weight(d, k);
        if (u < sum)
            return d->R[k];
    }
    for (int k = d->n - 1; k > 0; k--) /* u at the top end of round-off */
        if (d->fraction[k] > 0)
            return d->R[k];
    return d->R[0];
}

/* A standard normal number (Box-Muller; 1 - u keeps the logarithm finite). */
static double draw_normal(grains_rng *rng)
{
    double u = 1 - rng_uniform(rng), w = rng_uniform(rng);
    return sqrt(-2 * log(u)) * cos(2 * PI * w);
}

real size_draw(const grains_size_distribution *d, grains_rng *rng)
{
    switch (d->law) {
    case GRAINS_SIZES_DISCRETE: return draw_discrete(d, rng);
    case GRAINS_SIZES_LOGNORMAL:
        for (;;) { /* grains_params_check: at least 1e-3 of the draws land */
            real R = d->median * exp(d->sigma * draw_normal(rng));
            if (R >= d->R_lo && R <= d->R_hi)
                return R;
        }
    case GRAINS_SIZES_UNIFORM: break;
    }
    return d->R_lo + rng_uniform(rng) * (d->R_hi - d->R_lo);
}
