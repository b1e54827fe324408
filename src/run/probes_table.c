/* probes.csv: at each frame, per probe, its total and then a row per tag
 * and size class (grains_sim_probe_rows): for a plane, what crossed it
 * since the run began (net along its normal); for a box, what it holds. */
#include <stdlib.h>

#include "run/run.h"

grains_status run_probes_open(run_output *o, long resume_len, grains_error *err)
{
    return run_table_open(&o->probes, o->sc->output_dir, "probes.csv",
                          "time,probe,tag,size_class,number,mass,momentum_x,momentum_y,momentum_z\n", resume_len, err);
}

static void row(FILE *f, double t, const char *probe, const char *tag, const char *size, const grains_probe_row *r)
{
    fprintf(f, "%.9g,%s,%s,%s,%ld,%.12g,%.12g,%.12g,%.12g\n", t, probe, tag, size, r->number, r->mass, r->momentum.x,
            r->momentum.y, r->momentum.z);
}

/* Probe k's rows: their total (summed in the rows' order), then each. */
static grains_status probe_rows(run_output *o, const grains_sim *sim, int k, grains_error *err)
{
    grains_probe_row *rows, all = {0, 0, 0, 0, {0, 0, 0}};
    size_t n;
    grains_status s = grains_sim_probe_rows(sim, k, &rows, &n, err);
    if (s != GRAINS_OK)
        return s;
    for (size_t r = 0; r < n; r++) {
        all.number += rows[r].number, all.mass += rows[r].mass;
        all.momentum.x += rows[r].momentum.x, all.momentum.y += rows[r].momentum.y, all.momentum.z += rows[r].momentum.z;
    }
    double t = grains_sim_time(sim);
    const char *name = o->sc->probe_name[k];
    row(o->probes, t, name, "all", "all", &all);
    for (size_t r = 0; r < n; r++) {
        char tag[16], size[16];
        snprintf(tag, sizeof tag, "%d", rows[r].tag);
        snprintf(size, sizeof size, "%d", rows[r].size_class);
        row(o->probes, t, name, tag, size, &rows[r]);
    }
    free(rows);
    return GRAINS_OK;
}

grains_status run_probes_write(run_output *o, const grains_sim *sim, grains_error *err)
{
    grains_status s = GRAINS_OK;
    for (int k = 0; s == GRAINS_OK && k < o->sc->params.n_probes; k++)
        s = probe_rows(o, sim, k, err);
    if (s == GRAINS_OK && fflush(o->probes) != 0)
        s = grains_error_set(err, GRAINS_ERR_IO, o->sc->output_dir, 0, "cannot write probes.csv");
    return s;
}
