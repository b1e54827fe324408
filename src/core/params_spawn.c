/* Insertion regions and tag rules of the run parameters: the region the
 * run's own spawn keys describe, and the range checks of listed ones. */
#include "params_spawn.h"

#include <math.h>

static int finite3(grains_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

int grains_params_n_spawns(const grains_params *p)
{
    if (p->n_spawns > 0)
        return p->n_spawns;
    return p->N_max > 0 && p->N_spawn > 0;
}

grains_spawn_region grains_params_spawn(const grains_params *p, int k)
{
    if (p->n_spawns > 0)
        return p->spawn[k];
    grains_spawn_region r = {p->s_min, p->s_max, p->spawn_cylinder, p->spawn_material, 0, 0, p->N_spawn, 0,
                             p->v0, p->w0, {GRAINS_SIZES_UNIFORM, p->R_min, p->R_max, 0, 0, 0, {0}, {0}, 0}};
    return r;
}

#define REQUIRE(cond, ...) \
    do { if (!(cond)) return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, __VA_ARGS__); } while (0)

/* Standard normal distribution function. */
static double normal_cdf(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

/* The radii a region draws lie in [R_min, R_max] (the neighbour grid's size
 * classes and Eq. 49's timestep are built for them). */
static grains_status check_sizes(const grains_params *p, const grains_size_distribution *d, int k,
                                 grains_error *err)
{
    REQUIRE(d->law >= GRAINS_SIZES_UNIFORM && d->law <= GRAINS_SIZES_LOGNORMAL, "spawns[%d].sizes: unknown law", k);
    REQUIRE(isfinite(d->R_lo) && isfinite(d->R_hi) && d->R_lo >= p->R_min && d->R_hi <= p->R_max && d->R_lo <= d->R_hi,
            "spawns[%d]: R_min = %g, R_max = %g must satisfy R_min <= R_max within the run's [R_min, R_max] = "
            "[%g, %g]", k, d->R_lo, d->R_hi, p->R_min, p->R_max);
    if (d->law == GRAINS_SIZES_DISCRETE) {
        REQUIRE(d->n >= 1 && d->n <= GRAINS_MAX_SIZES, "spawns[%d].radii: 1 to %d radii, got %d", k,
                GRAINS_MAX_SIZES, d->n);
        real sum = 0;
        for (int j = 0; j < d->n; j++) {
            REQUIRE(isfinite(d->R[j]) && d->R[j] >= p->R_min && d->R[j] <= p->R_max,
                    "spawns[%d].radii[%d] = %g: must lie within the run's [R_min, R_max] = [%g, %g]", k, j, d->R[j],
                    p->R_min, p->R_max);
            REQUIRE(isfinite(d->fraction[j]) && d->fraction[j] >= 0, "spawns[%d].fractions[%d] = %g: must be >= 0",
                    k, j, d->fraction[j]);
            sum += d->fraction[j];
        }
        REQUIRE(sum > 0, "spawns[%d].fractions: at least one must be > 0", k);
    }
    if (d->law == GRAINS_SIZES_LOGNORMAL) {
        REQUIRE(isfinite(d->median) && d->median > 0, "spawns[%d].median = %g: must be > 0", k, d->median);
        REQUIRE(isfinite(d->sigma) && d->sigma > 0 && d->sigma <= 5, "spawns[%d].sigma = %g: must be in (0, 5]", k,
                d->sigma);
        /* radii outside [R_lo, R_hi] are drawn again: most draws must land */
        double in = normal_cdf(log(d->R_hi / d->median) / d->sigma) - normal_cdf(log(d->R_lo / d->median) / d->sigma);
        REQUIRE(in >= 1e-3,
                "spawns[%d]: a lognormal of median %g and sigma %g puts %.2g of its radii within [%g, %g]; at least "
                "1e-3 must fall there", k, d->median, d->sigma, in, d->R_lo, d->R_hi);
    }
    return GRAINS_OK;
}

static grains_status check_region(const grains_params *p, const grains_spawn_region *r, int k, grains_error *err)
{
    REQUIRE(finite3(r->lo) && finite3(r->hi) && r->hi.x >= r->lo.x && r->hi.y >= r->lo.y && r->hi.z >= r->lo.z,
            "spawns[%d]: min = [%g, %g, %g] and max = [%g, %g, %g] must be finite, max >= min", k, r->lo.x, r->lo.y,
            r->lo.z, r->hi.x, r->hi.y, r->hi.z);
    REQUIRE(r->cylinder == 0 || r->cylinder == 1, "spawns[%d].region: unknown value", k);
    REQUIRE(r->material >= 0 && r->material < p->n_materials, "spawns[%d].material = %d: must name a material, 0 to %d",
            k, r->material, p->n_materials - 1);
    REQUIRE(r->count >= 0, "spawns[%d].count = %ld: must be >= 0", k, r->count);
    REQUIRE(r->rate >= 0 && r->rate <= GRAINS_MAX_SPAWN_RATE,
            "spawns[%d].rate = %ld: attempts per step must be 0 to %ld", k, r->rate, GRAINS_MAX_SPAWN_RATE);
    REQUIRE(r->full_after >= 0, "spawns[%d].full_after = %ld: must be >= 0", k, r->full_after);
    REQUIRE(finite3(r->v0) && finite3(r->w0), "spawns[%d]: v0 and w0 must be finite", k);
    if (p->dimension == 2) {
        const real *v = &r->v0.x, *w = &r->w0.x;
        int a = p->plane_normal;
        REQUIRE(v[a] == 0 && w[(a + 1) % 3] == 0 && w[(a + 2) % 3] == 0,
                "dimension = 2: spawns[%d] must move in the plane and spin about plane_normal = \"%c\" only", k,
                "xyz"[a]);
    }
    return check_sizes(p, &r->sizes, k, err);
}

/* Sink k removes something: a box of some volume, finite,
 * on a periodic axis overlapping the periodic box. */
static grains_status check_sink(const grains_params *p, const grains_sink *k_sink, int k, grains_error *err)
{
    const real *lo = &k_sink->lo.x, *hi = &k_sink->hi.x;
    REQUIRE(finite3(k_sink->lo) && finite3(k_sink->hi) && hi[0] > lo[0] && hi[1] > lo[1] && hi[2] > lo[2],
            "sinks[%d]: min and max must be finite, max > min on every axis (an empty sink removes nothing)", k);
    real volume = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    REQUIRE(isnormal(volume) && isfinite(volume), "sinks[%d]: a box of volume %g: no volume a double holds (an "
            "empty sink removes nothing)", k, volume);
    for (int a = 0; a < 3; a++) {
        const real *plo = &p->box_min.x, *phi = &p->box_max.x;
        REQUIRE(!(p->periodic & (1 << a)) || (hi[a] > plo[a] && lo[a] < phi[a]),
                "sinks[%d]: on the periodic axis %c it lies outside the periodic box [%g, %g]: it can remove "
                "nothing", k, "xyz"[a], plo[a], phi[a]);
    }
    return GRAINS_OK;
}

/* Probe k counts something: a plane of a unit normal (to 1e-6) and a
 * radius >= 0, or a box of some volume; finite. */
static grains_status check_probe(const grains_probe *q, int k, grains_error *err)
{
    real n2 = q->normal.x * q->normal.x + q->normal.y * q->normal.y + q->normal.z * q->normal.z;
    if (q->box)
        REQUIRE(finite3(q->lo) && finite3(q->hi) && q->hi.x > q->lo.x && q->hi.y > q->lo.y && q->hi.z > q->lo.z,
                "probes[%d]: a box's min and max must be finite, max > min on every axis", k);
    else
        REQUIRE(finite3(q->point) && finite3(q->normal) && fabs(n2 - 1) <= 1e-6 && q->radius >= 0 &&
                    isfinite(q->radius),
                "probes[%d]: a plane needs a finite point, a unit normal and a radius >= 0 (0: the whole plane)", k);
    REQUIRE(q->n_sizes >= 0 && q->n_sizes <= GRAINS_MAX_PROBE_SIZES, "probes[%d]: at most %d sizes", k,
            GRAINS_MAX_PROBE_SIZES);
    for (int c = 0; c < q->n_sizes; c++)
        REQUIRE(q->size[c] > 0 && isfinite(q->size[c]) && (c == 0 || q->size[c] > q->size[c - 1]),
                "probes[%d]: sizes are radii > 0 in ascending order (the bounds of the size classes)", k);
    return GRAINS_OK;
}

static grains_status check_probes(const grains_params *p, grains_error *err)
{
    REQUIRE(p->n_probes >= 0 && p->n_probes <= GRAINS_MAX_PROBES, "probes: at most %d, got %d", GRAINS_MAX_PROBES,
            p->n_probes);
    for (int k = 0; k < p->n_probes; k++) {
        grains_status s = check_probe(&p->probe[k], k, err);
        if (s != GRAINS_OK)
            return s;
    }
    return GRAINS_OK;
}

grains_status params_check_spawns(const grains_params *p, grains_error *err)
{
    REQUIRE(p->n_spawns >= 0 && p->n_spawns <= GRAINS_MAX_SPAWNS, "spawns: at most %d regions, got %d",
            GRAINS_MAX_SPAWNS, p->n_spawns);
    for (int k = 0; k < p->n_spawns; k++) {
        grains_status s = check_region(p, &p->spawn[k], k, err);
        if (s != GRAINS_OK)
            return s;
    }
    REQUIRE(p->n_tag_rules >= 0 && p->n_tag_rules <= GRAINS_MAX_TAG_RULES, "tag_regions: at most %d, got %d",
            GRAINS_MAX_TAG_RULES, p->n_tag_rules);
    for (int k = 0; k < p->n_tag_rules; k++) {
        const grains_tag_rule *t = &p->tag_rule[k];
        REQUIRE(finite3(t->lo) && finite3(t->hi) && t->hi.x >= t->lo.x && t->hi.y >= t->lo.y && t->hi.z >= t->lo.z,
                "tag_regions[%d]: min and max must be finite, max >= min", k);
    }
    REQUIRE(p->n_sinks >= 0 && p->n_sinks <= GRAINS_MAX_SINKS, "sinks: at most %d, got %d", GRAINS_MAX_SINKS,
            p->n_sinks);
    for (int k = 0; k < p->n_sinks; k++) {
        grains_status s = check_sink(p, &p->sink[k], k, err);
        if (s != GRAINS_OK)
            return s;
    }
    REQUIRE(p->remove_lost == 0 || p->remove_lost == 1, "remove_lost must be true or false");
    return check_probes(p, err);
}
