/* How fast the grains can meet each other and the meshes before a run
 * (grains check's contact time, the warnings' steps per contact): the
 * fastest grain given or spawned, sped up by a fall under g from the
 * highest grain or spawn box to the lowest mesh point, and the fastest
 * point of a moving mesh on top of that for a contact with a wall. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static double dot(grains_vec3 a, grains_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/* The direction up, against g (any when there is no gravity). */
static grains_vec3 up_of(const grains_params *p)
{
    double g = sqrt(dot(p->g, p->g));
    return g > 0 ? (grains_vec3){-p->g.x / g, -p->g.y / g, -p->g.z / g} : (grains_vec3){0, 0, 1};
}

static void survey_add(cli_grain_survey *s, const grains_params *p, grains_vec3 up, const grains_particle *q)
{
    s->v_max = fmax(s->v_max, sqrt(dot(q->v, q->v)));
    s->top = fmax(s->top, dot(q->x, up));
    if (q->R < p->R_min * (1 - 1e-12) || q->R > p->R_max * (1 + 1e-12))
        s->outside++, s->worst = fabs(q->R - p->R_min) > fabs(s->worst - p->R_min) ? q->R : s->worst;
}

cli_grain_survey cli_survey(const grains_params *p, grains_sim *sim)
{
    cli_grain_survey s = {0, -INFINITY, 0, p->R_min};
    grains_vec3 up = up_of(p);
    size_t n = grains_sim_count(sim), W = grains_sim_frame_window(sim);
    grains_particle *win = calloc((W < n ? W : n) + 1, sizeof *win);
    const unsigned fields = GRAINS_FIELD_X | GRAINS_FIELD_V | GRAINS_FIELD_R;
    for (size_t first = 0; first < n; first += W) {
        size_t count = n - first < W ? n - first : W;
        grains_sim_particle_window(sim, fields, first, count, win); /* (every rank alike) */
        for (size_t k = 0; k < count && win; k++)
            survey_add(&s, p, up, &win[k]);
    }
    free(win);
    return s;
}

/* The height a grain can fall: from the highest grain or spawn box's top
 * to the lowest mesh point, along -g; 0 without gravity or a mesh. */
static double fall_height(const grains_params *p, const grains_sim *sim, const cli_grain_survey *gs)
{
    const grains_mesh *m = grains_sim_mesh(sim);
    if (!(dot(p->g, p->g) > 0) || !m || !m->n_vertices)
        return 0;
    grains_vec3 up = up_of(p);
    double top = gs->top, bottom = INFINITY;
    for (int k = 0; k < grains_params_n_spawns(p); k++)
        for (int c = 0; c < 8; c++) {
            grains_spawn_region r = grains_params_spawn(p, k);
            grains_vec3 x = {c & 1 ? r.hi.x : r.lo.x, c & 2 ? r.hi.y : r.lo.y, c & 4 ? r.hi.z : r.lo.z};
            top = fmax(top, dot(x, up));
        }
    for (size_t v = 0; v < m->n_vertices; v++)
        bottom = fmin(bottom, dot(m->vertices[v], up));
    return fmax(0, top - bottom);
}

/* The largest |shear_rate|, the scenario's or a stage's. */
static double fastest_shear(const grains_scenario *sc, const grains_params *p)
{
    double rate = fabs(p->shear_rate);
    int key = 0;
    while (key + 1 < GRAINS_N_CHANGEABLE && strcmp(grains_changeable_name(key), "shear_rate") != 0)
        key++;
    for (int k = 0; k < sc->n_stages; k++) {
        double set = sc->stages[k].set[key];
        rate = set == set ? fmax(rate, fabs(set)) : rate; /* (NAN: unchanged) */
    }
    return rate;
}

cli_impact cli_impact_speed(const grains_scenario *sc, const grains_params *p, const grains_sim *sim,
                            const cli_grain_survey *gs)
{
    cli_impact im = {0};
    im.v0 = gs->v_max;
    for (int k = 0; k < grains_params_n_spawns(p); k++) {
        grains_vec3 v0 = grains_params_spawn(p, k).v0;
        im.v0 = fmax(im.v0, sqrt(dot(v0, v0)));
    }
    im.fall = fall_height(p, sim, gs);
    for (size_t k = 0; k < grains_sim_mesh_count(sim); k++)
        im.mesh = fmax(im.mesh, grains_sim_mesh_speed(sim, k));
    im.shear = fastest_shear(sc, p) * (p->box_max.z - p->box_min.z); /* (a grain at rest meets its image's) */
    im.grains = sqrt(im.v0 * im.v0 + 2 * sqrt(dot(p->g, p->g)) * im.fall) + im.shear; /* energy: v^2 = v0^2 + 2 g h */
    im.walls = im.grains + im.mesh;
    return im;
}

const char *cli_impact_why(const cli_impact *im, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%.4g m/s", im->grains);
    const char *sep = " from ";
    if (im->v0 > 0 && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%s|v0| %.4g m/s", sep, im->v0), sep = " and ";
    if (im->fall > 0 && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%sa fall of %.4g m", sep, im->fall), sep = " and ";
    if (im->shear > 0 && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%sthe sheared images' %.4g m/s", sep, im->shear);
    if (im->mesh > 0 && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "; %.4g m/s on a mesh moving at up to %.4g m/s", im->walls, im->mesh);
    return buf;
}
