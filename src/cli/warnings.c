/* What grains check and grains run warn about before a run, with the
 * figures (the run goes on: each may be intended): contacts resolved in
 * fewer than ~10 steps at the impact speed, grains overlapping each other or
 * a wall at the start, grains or the spawn box outside the meshes, radii
 * outside [R_min, R_max], a Young's modulus implausible for the other units,
 * a sub-model's coefficient given to a run that does not choose the sub-model. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "contact/submodels.h"
#include "core/coeffs.h"

#define PI 3.14159265358979323846

#define STEPS_PER_CONTACT 10

double cli_hertz_time(double E_eff, double R_eff, double m_eff, double v)
{
    double delta_max = pow(15 * m_eff * v * v / (16 * E_eff * sqrt(R_eff)), 0.4);
    return 2.9432 * delta_max / v;
}

__attribute__((format(printf, 1, 2))) static void warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("grains: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* The largest E* of a material-0 grain on any mesh element (Eq. 15; a
 * rigid element: E / (1 - nu^2)). */
static double stiffest_wall(const grains_params *p, const grains_mesh *m)
{
    double most = 0;
    for (size_t e = 0; m && e < m->n_elements; e++) {
        int k = m->elements[e].material == GRAINS_MESH_MATERIAL_DEFAULT ? p->mesh_material : m->elements[e].material;
        grains_material w = k >= 0 ? grains_params_material(p, k) : (grains_material){0};
        double wall = k >= 0 ? (1 - w.nu * w.nu) / w.E : 0;
        most = fmax(most, 1 / ((1 - p->nu * p->nu) / p->E + wall));
    }
    return most;
}

/* Contact time at the speeds the grains can reach, and how hard they
 * press into each other there (Hertz: delta_max / 2R), against the units. */
static void warn_stiffness(const grains_params *p, const grains_sim *sim, const cli_impact *im)
{
    double m = 4 * PI / 3 * p->rho * p->R_min * p->R_min * p->R_min, E_pw;
    double c = sqrt(p->E / p->rho);
    if (!(c >= 1 && c <= 1e5))
        warn("E = %g and rho = %g give a sound speed sqrt(E/rho) = %g, outside 1 to 1e5 m/s of real grains: "
             "are E and rho in the same units as the lengths (%g)?", p->E, p->rho, c, p->R_min);
    if (!(im->walls > 0) || p->contact_model == GRAINS_CONTACT_LINEAR)
        return;
    /* the contacts that can happen: grain on grain with two of them, grain on a mesh of mesh_material */
    int pairs = grains_sim_count(sim) + (size_t)(grains_params_n_spawns(p) ? p->N_max : 0) >= 2;
    E_pw = stiffest_wall(p, grains_sim_mesh(sim));
    double t_pp = pairs && im->grains > 0 ? cli_hertz_time(p->E / (2 * (1 - p->nu * p->nu)), p->R_min / 2, m / 2,
                                                           im->grains) : INFINITY;
    double t_pw = grains_sim_mesh(sim) ? cli_hertz_time(E_pw, p->R_min, m, im->walls) : INFINITY, t = fmin(t_pp, t_pw);
    char why[160];
    if (t / p->dt < STEPS_PER_CONTACT)
        warn("a contact of R_min grains at the speed they can reach (%s) lasts %.3g steps, fewer than about 10 "
             "that resolve it: set dt <= %g s", cli_impact_why(im, why, sizeof why), t / p->dt,
             t / STEPS_PER_CONTACT);
    double v = im->walls, delta = pow(15 * m * v * v / (16 * (E_pw > 0 ? E_pw : p->E) * sqrt(p->R_min)), 0.4);
    if (delta / (2 * p->R_min) > 0.1)
        warn("at %g m/s an R_min grain presses %.3g of its diameter into a wall (E = %g Pa): too soft for these "
             "speeds or units? (max_overlap = %g stops the run)", v, delta / (2 * p->R_min), p->E, p->max_overlap);
}

/* A bond between two R_min grains (reduced mass m/2) rings at omega =
 * sqrt(k / m*) for its stiffest spring k (normal or sliding, bond_kn and
 * bond_kt); an explicit step resolves it with omega dt below about 0.3 (20
 * steps a period) and is unstable past omega dt = 2, the run stopping with
 * a blow-up far from its cause. */
static void warn_bonds(const grains_scenario *sc, const grains_params *p)
{
    if (!(p->bond_kn > 0) || (!sc->bonds[0] && !(p->bond_tolerance > 0)))
        return;
    double m = 4 * PI / 3 * p->rho * p->R_min * p->R_min * p->R_min, k = fmax(p->bond_kn, p->bond_kt);
    double omega = sqrt(k / (m / 2));
    if (omega * p->dt > 0.3)
        warn("a bond of stiffness %g between two R_min grains rings with a period of %.3g steps (omega dt = %.3g; "
             "past 2 the run blows up): set dt <= %g, 20 steps a period, or a softer bond_kn", k,
             2 * PI / (omega * p->dt), omega * p->dt, 0.3 / omega);
}

static void warn_overlaps(const grains_sim *sim) /* (collective on ranks) */
{
    grains_start_overlaps o;
    grains_error err;
    if (grains_sim_start_overlaps(sim, &o, &err) != GRAINS_OK)
        return;
    if (o.pairs)
        warn("%zu pair%s of grains overlap%s at the start, the deepest (particles %ld and %ld) by %.3g of 2R*: they "
             "fly apart at the first step", o.pairs, o.pairs == 1 ? "" : "s", o.pairs == 1 ? "s" : "", o.pair_a,
             o.pair_b, o.pair_depth);
    if (o.walls) {
        const grains_mesh *m = grains_sim_mesh(sim);
        warn("%zu grain%s overlap%s a mesh at the start, the deepest (particle %ld, on element %zu of radius %g) by "
             "%.3g of its diameter: mind the elements' radius R_mesh", o.walls, o.walls == 1 ? "" : "s",
             o.walls == 1 ? "s" : "", o.wall_particle, o.wall_element, m->elements[o.wall_element].R, o.wall_depth);
    }
}

/* Grains and the spawn box against the box of the meshes (grains_thermo's
 * n_lost), and radii against [R_min, R_max]. */
static void warn_placement(const grains_params *p, grains_sim *sim, const cli_grain_survey *gs)
{
    grains_thermo th;
    grains_sim_gather_thermo(sim); /* (collective on ranks) */
    grains_sim_thermo(sim, &th);
    if (th.n_lost)
        warn("%zu of %zu grains lie outside the box of the meshes at the start (they count as lost in thermo.csv)",
             th.n_lost, th.n_particles);
    const grains_mesh *m = grains_sim_mesh(sim);
    if (m && m->n_vertices) {
        grains_vec3 lo = m->vertices[0], hi = lo;
        for (size_t v = 1; v < m->n_vertices; v++) {
            grains_vec3 x = m->vertices[v];
            lo = (grains_vec3){fmin(lo.x, x.x), fmin(lo.y, x.y), fmin(lo.z, x.z)};
            hi = (grains_vec3){fmax(hi.x, x.x), fmax(hi.y, x.y), fmax(hi.z, x.z)};
        }
        for (int k = 0; k < grains_params_n_spawns(p); k++) {
            grains_spawn_region r = grains_params_spawn(p, k);
            if (r.hi.x < lo.x || r.lo.x > hi.x || r.hi.y < lo.y || r.lo.y > hi.y)
                warn("spawn region %d (x %g to %g, y %g to %g) lies beside the meshes (x %g to %g, y %g to %g): "
                     "spawned grains fall past them", k, r.lo.x, r.hi.x, r.lo.y, r.hi.y, lo.x, hi.x, lo.y, hi.y);
        }
    }
    size_t outside = gs->outside;
    double worst = gs->worst;
    if (outside)
        warn("%zu grains have radii outside [R_min, R_max] = [%g, %g] (e.g. %g): dt, the skin and the cell size "
             "follow R_min and R_max", outside, p->R_min, p->R_max, worst);
}

/* Where the scenario set `key`: "FILE:LINE: ", "--set KEY: ", or "" (its default). */
static const char *set_at(const grains_scenario *sc, const char *key, char *buf, size_t size)
{
    int line = grains_scenario_line(sc, key);
    if (line > 0)
        snprintf(buf, size, "%s:%d: ", sc->source, line);
    else
        snprintf(buf, size, line < 0 ? "--set %s: " : "", key);
    return buf;
}

/* Whether coefficient k is given: by the scenario's key, a material or a pair. */
static int coeff_given(const grains_scenario *sc, const grains_params *p, const char *name, int k)
{
    int given = grains_scenario_line(sc, name) != 0;
    for (int m = 1; m < p->n_materials; m++)
        given |= (int)(p->material_coeff_given[m] >> k & 1);
    for (int q = 0; q < p->n_pairs; q++)
        given |= (int)(p->pair[q].coeff_given >> k & 1);
    return given;
}

/* A sub-model's coefficient given (k_roll, work_of_adhesion, ...) where the run chooses another
 * sub-model of its kind: it changes nothing, and the user may have meant the sub-model too. */
static void warn_idle_coeffs(const grains_scenario *sc, const grains_params *p)
{
    const submodel *chosen[SUBMODEL_KINDS];
    submodels_chosen(p, chosen);
    for (int k = 0; k < N_COEFFS; k++) {
        const submodel *owner = submodel_owning(k);
        const char *name = coeff_name(k);
        if (!owner || chosen[owner->kind] == owner || !coeff_given(sc, p, name, k))
            continue;
        char at[GRAINS_PATH_MAX + 32];
        int keyed = grains_scenario_line(sc, name) != 0;
        warn("%s%s%s is a coefficient of the %s model \"%s\", and this run's %s model is \"%s\": it changes "
             "nothing", set_at(sc, name, at, sizeof at), keyed ? "" : "a material's or a pair's ", name,
             submodel_kind_name(owner->kind), owner->name, submodel_kind_name(owner->kind),
             chosen[owner->kind] ? chosen[owner->kind]->name : "?");
    }
}

/* The insertion regions' counts against N_max, which stops them all. */
static void warn_counts(const grains_scenario *sc, const grains_params *p, const grains_sim *sim)
{
    long sum = 0, most = 0;
    int most_k = 0, n = grains_params_n_spawns(p);
    for (int k = 0; k < n; k++) {
        long count = grains_params_spawn(p, k).count;
        sum += count;
        if (count > most)
            most = count, most_k = k;
    }
    long room = p->N_max - (long)grains_sim_count(sim);
    if (!n || sum <= room)
        return;
    char at[GRAINS_PATH_MAX + 32], n_at[GRAINS_PATH_MAX + 32];
    warn("%sthe insertion regions' counts add up to %ld (region %d: %ld) but %sN_max = %ld%s stops them at %ld "
         "grains in all: raise N_max to %ld", set_at(sc, "spawns", at, sizeof at), sum, most_k, most,
         set_at(sc, "N_max", n_at, sizeof n_at), p->N_max, grains_scenario_line(sc, "N_max") ? "" : " (its default)",
         room > 0 ? room : 0, sum + (long)grains_sim_count(sim));
}

/* Stages the run's end cuts short or never reaches: each's earliest end
 * (a duration after the earliest it can begin, its until_time, a settled
 * stage at once) against the end of the run, N_frames x N_steps steps. */
static void warn_stages(const grains_scenario *sc, const grains_params *p, const grains_sim *sim)
{
    double t = grains_sim_time(sim), end = t + (double)p->N_frames * (double)p->N_steps * p->dt;
    char at[GRAINS_PATH_MAX + 32];
    for (int k = 0; k < sc->n_stages; k++) {
        const grains_scenario_stage *st = &sc->stages[k];
        if (t >= end * (1 - 1e-12)) {
            warn("%sstage %d (\"%s\") begins at t = %g s at the earliest, when the run ends (t_end = %g s): it "
                 "never runs", set_at(sc, "stages", at, sizeof at), k, st->name, t, end);
            return;
        }
        t = st->duration > 0 ? t + st->duration : st->until_time >= 0 ? fmax(t, st->until_time) : t;
        if (t > end * (1 + 1e-12)) {
            warn("%sstage %d (\"%s\") ends at t = %g s at the earliest, past the run's end (t_end = %g s): the "
                 "run stops in it%s; raise t_end (or N_frames)", set_at(sc, "stages", at, sizeof at), k, st->name, t,
                 end, k + 1 < sc->n_stages ? " and the stages after it never run" : "");
            return;
        }
    }
}

/* Insertion regions no grain fits (radii in other units than the box, a
 * region inside a wall): sampled on a lattice of 8^3 centres; and regions
 * smaller than a grain (a grain at a time, each keeping the next out). */
static void warn_spawn_room(const grains_scenario *sc, const grains_params *p, const grains_sim *sim)
{
    const int side = 8;
    for (int k = 0; k < grains_params_n_spawns(p); k++) {
        grains_spawn_region r = grains_params_spawn(p, k);
        double R, places = (double)grains_sim_spawn_places(sim, k, side, &R);
        double most = fmax(r.hi.x - r.lo.x, fmax(r.hi.y - r.lo.y, r.hi.z - r.lo.z));
        char at[GRAINS_PATH_MAX + 32];
        if (r.rate > 0 && places > 0 && 2 * R > most)
            warn("%sinsertion region %d (x %g to %g, y %g to %g, z %g to %g) is smaller than its smallest grain "
                 "(diameter %g): each grain keeps the next out until it has fallen away. Are the radii in the units "
                 "of the box?", set_at(sc, p->n_spawns ? "spawns" : "R_min", at, sizeof at), k, r.lo.x, r.hi.x,
                 r.lo.y, r.hi.y, r.lo.z, r.hi.z, 2 * R);
        if (r.rate <= 0 || places > 0)
            continue;
        warn("%sinsertion region %d (x %g to %g, y %g to %g, z %g to %g) has no room for a grain of its smallest "
             "radius %g clear of the meshes (%d places tried): it will add none. Are the radii in the units of the "
             "box?", set_at(sc, p->n_spawns ? "spawns" : "R_min", at, sizeof at), k, r.lo.x, r.hi.x, r.lo.y, r.hi.y,
             r.lo.z, r.hi.z, R, side * side * side);
    }
}

void cli_warnings(const grains_scenario *sc, grains_sim *sim)
{
    const grains_params *p = grains_sim_params(sim);
    cli_grain_survey gs = cli_survey(p, sim);
    cli_impact im = cli_impact_speed(sc, p, sim, &gs);
    warn_stiffness(p, sim, &im);
    warn_bonds(sc, p);
    warn_overlaps(sim);
    warn_placement(p, sim, &gs);
    warn_counts(sc, p, sim);
    warn_stages(sc, p, sim);
    warn_spawn_room(sc, p, sim);
    warn_idle_coeffs(sc, p);
}
