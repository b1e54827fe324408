/* Whether each of a scenario's sinks can ever remove a grain: under gravity,
 * with meshes that do not move and no membrane, no grain rises above the
 * highest point it starts from, or could reach with its speed (v^2 / 2g),
 * among the meshes, the insertion regions and the particles given; a sink
 * wholly above that is refused, at the scenario's line of `sinks`. */
#include <math.h>

#include "run/run.h"

/* Height against gravity of x (g of length gn). */
static double height(grains_vec3 g, double gn, grains_vec3 x) { return -(g.x * x.x + g.y * x.y + g.z * x.z) / gn; }

/* How far a grain at speed v rises against gravity. */
static double rise(grains_vec3 g, double gn, grains_vec3 v)
{
    double up = height(g, gn, v);
    return up > 0 ? up * up / (2 * gn) : 0;
}

/* The lowest (lowest = 1) or highest height of a box's corners. */
static double box_height(grains_vec3 g, double gn, grains_vec3 lo, grains_vec3 hi, int lowest)
{
    double best = lowest ? INFINITY : -INFINITY;
    for (int c = 0; c < 8; c++) {
        grains_vec3 x = {c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z};
        best = lowest ? fmin(best, height(g, gn, x)) : fmax(best, height(g, gn, x));
    }
    return best;
}

/* Whether a mesh moves (it may throw grains up) or the run has membranes. */
static int may_lift(const grains_sim *sim)
{
    return run_meshes_move(sim) || grains_sim_membrane_count(sim) > 0;
}

/* The highest any grain can reach against gravity. */
static double top(const grains_params *p, const grains_sim *sim, grains_vec3 g, double gn)
{
    double most = -INFINITY;
    const grains_mesh *m = grains_sim_mesh(sim);
    for (size_t v = 0; m && v < m->n_vertices; v++)
        most = fmax(most, height(g, gn, m->vertices[v]));
    double pad = p->R_max; /* (a grain touching the highest element) */
    for (size_t e = 0; m && e < m->n_elements; e++)
        pad = fmax(pad, p->R_max + m->elements[e].R);
    most += pad;
    for (int k = 0; k < grains_params_n_spawns(p); k++) {
        grains_spawn_region r = grains_params_spawn(p, k);
        most = fmax(most, box_height(g, gn, r.lo, r.hi, 0) + r.sizes.R_hi + rise(g, gn, r.v0));
    }
    grains_particle q;
    for (size_t i = 0; i < grains_sim_count(sim); i++) {
        grains_sim_get_particle(sim, i, &q);
        most = fmax(most, height(g, gn, q.x) + q.R + rise(g, gn, q.v));
    }
    return most;
}

grains_status run_check_sinks(const grains_scenario *sc, const grains_sim *sim, grains_error *err)
{
    const grains_params *p = &sc->params;
    grains_vec3 g = p->g;
    double gn = sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
    if (!p->n_sinks || !(gn > 0) || may_lift(sim))
        return GRAINS_OK;
    double highest = top(p, sim, g, gn);
    if (highest == -INFINITY) /* (nothing yet: a program adds the grains) */
        return GRAINS_OK;
    for (int k = 0; k < p->n_sinks; k++) {
        double low = box_height(g, gn, p->sink[k].lo, p->sink[k].hi, 1);
        if (low > highest)
            return grains_error_set(err, GRAINS_ERR_RANGE, sc->source[0] ? sc->source : NULL,
                                    grains_scenario_line(sc, "sinks"),
                                    "sinks[%d] lies wholly above, against gravity, all that the grains start from "
                                    "or can rise to (its lowest point %g above the origin, theirs at most %g): no "
                                    "grain can reach it", k, low, highest);
    }
    return GRAINS_OK;
}
