/* What grains bench makes of its points: the table, the scaling exponent of
 * each series, the CSV and a PNG plot (matplotlib, through python3: the
 * plotting library Debian has; the examples' plots use it too). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "io/atomic_file.h"

void bench_print_header(void)
{
    printf("%9s %6s %8s %8s %12s %16s %15s %17s\n", "N", "ratio", "threads", "steps", "s/step", "particle-steps/s",
           "bytes/particle", "contacts/particle");
}

void bench_print(const bench_point *p)
{
    printf("%9ld %6g %8ld %8ld %12.4e %16.4e %15.0f %17.2f\n", p->N, p->ratio, p->T, p->steps, p->sec, p->rate,
           p->bytes, p->contacts);
}

/* Least-squares slope of log(s/step) against log N over one series. */
static int exponent(const bench_point *pts, int n, long T, double ratio, double *slope, long *lo, long *hi)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    *lo = LONG_MAX, *hi = 0;
    for (int k = 0; k < n; k++)
        if (pts[k].T == T && pts[k].ratio == ratio) {
            double x = log((double)pts[k].N), y = log(pts[k].sec);
            sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
            *lo = pts[k].N < *lo ? pts[k].N : *lo;
            *hi = pts[k].N > *hi ? pts[k].N : *hi;
        }
    if (m < 2 || *lo == *hi)
        return 0;
    *slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    return 1;
}

/* One line per series of at least two sizes: time per step ~ N^slope. */
void bench_print_scaling(const bench_point *pts, int n)
{
    for (int k = 0; k < n; k++) {
        int first = 1;
        for (int j = 0; j < k; j++)
            first = first && !(pts[j].T == pts[k].T && pts[j].ratio == pts[k].ratio);
        double slope;
        long lo, hi;
        if (first && exponent(pts, n, pts[k].T, pts[k].ratio, &slope, &lo, &hi))
            printf("scaling, %ld thread(s), ratio %g: time per step ~ N^%.3f over N = %ld .. %ld\n", pts[k].T,
                   pts[k].ratio, slope, lo, hi);
    }
}

static int write_csv(const char *path, const bench_point *pts, int n)
{
    atomic_file af; /* (whole or not at all; never into a FIFO or through a link) */
    grains_error err;
    if (atomic_open(&af, path, &err) != GRAINS_OK)
        return 0;
    fprintf(af.f, "N,ratio,threads,steps,s_per_step,particle_steps_per_s,bytes_per_particle,contacts_per_particle\n");
    for (int k = 0; k < n; k++)
        fprintf(af.f, "%ld,%.17g,%ld,%ld,%.6e,%.6e,%.1f,%.4f\n", pts[k].N, pts[k].ratio, pts[k].T, pts[k].steps,
                pts[k].sec, pts[k].rate, pts[k].bytes, pts[k].contacts);
    return atomic_commit(&af, &err) == GRAINS_OK;
}

static const char plot_script[] =
    "import csv, sys\n"
    "try:\n"
    "    import matplotlib\n"
    "    matplotlib.use('Agg')\n"
    "    import matplotlib.pyplot as plt\n"
    "except ImportError:\n"
    "    sys.exit(3)\n"
    "def series(path, key):\n"
    "    out = {}\n"
    "    for r in csv.DictReader(open(path)):\n"
    "        n = int(float(r['N']))\n"
    "        out.setdefault(key(r), []).append((n, float(r['s_per_step']) / n))\n"
    "    return sorted((k, sorted(v)) for k, v in out.items())\n"
    "fig, ax = plt.subplots(figsize=(7, 5))\n"
    "for (t, ratio), pts in series(sys.argv[1], lambda r: (int(r['threads']), float(r['ratio']))):\n"
    "    label = 'grains, %d thread%s' % (t, 's' if t > 1 else '')\n"
    "    label += '' if ratio == 1 else ', size ratio %g' % ratio\n"
    "    ax.loglog([p[0] for p in pts], [p[1] for p in pts], 'o-', label=label)\n"
    "if len(sys.argv) > 3:\n"
    "    for (code, t), pts in series(sys.argv[3], lambda r: (r['code'], int(r['threads']))):\n"
    "        ax.loglog([p[0] for p in pts], [p[1] for p in pts], 's--', label='%s, %d thread%s' % (code, t, 's' if t > 1 else ''))\n"
    "ax.set_xlabel('N (particles)')\n"
    "ax.set_ylabel('wall time per particle-step [s]')\n"
    "ax.set_title('grains bench: dense box (and a few large grains where ratio > 1)')\n"
    "ax.grid(True, which='both', alpha=0.3)\n"
    "ax.legend(fontsize=8)\n"
    "fig.tight_layout()\n"
    "fig.savefig(sys.argv[2], dpi=120)\n";

/* The script's exit status when `python` has no matplotlib. */
#define NO_MATPLOTLIB 3

/* The plot through `python`, the script on its standard input: its exit
 * status, or -1 when it could not be run. */
static int plot_with(const char *python, const char *csv, const char *png, const char *peers)
{
    char cmd[3 * 4096 + 64];
    snprintf(cmd, sizeof cmd, "%s - '%s' '%s'%s%s%s", python, csv, png, peers ? " '" : "", peers ? peers : "",
             peers ? "'" : "");
    FILE *p = popen(cmd, "w");
    if (!p)
        return -1;
    fputs(plot_script, p);
    int rc = pclose(p);
    return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The plot through python3, or where that one lacks matplotlib (a
 * virtual environment's, pyenv's), through Debian's /usr/bin/python3. */
static int plot(const char *csv, const char *png, const char *peers)
{
    if (strchr(csv, '\'') || strchr(png, '\'') || (peers && strchr(peers, '\''))) {
        fprintf(stderr, "grains: bench --plot: file names with a ' are not supported\n");
        return 0;
    }
    int rc = plot_with("python3", csv, png, peers);
    if (rc == NO_MATPLOTLIB && access("/usr/bin/python3", X_OK) == 0)
        rc = plot_with("/usr/bin/python3", csv, png, peers);
    if (rc == NO_MATPLOTLIB)
        fprintf(stderr, "grains: the plot needs matplotlib (Debian: apt install python3-matplotlib)\n");
    else if (rc != 0)
        fprintf(stderr, "grains: bench --plot: python3 failed (status %d)\n", rc);
    return rc == 0;
}

int bench_outputs(const bench_opts *o, const bench_point *pts, int n)
{
    char tmp[] = "/tmp/grains-bench-XXXXXX";
    const char *csv = o->csv;
    if (!csv) { /* the plot alone: the points in a temporary file */
        int fd = mkstemp(tmp);
        if (fd < 0) {
            fprintf(stderr, "grains: cannot create a temporary file\n");
            return EXIT_INPUT;
        }
        close(fd);
        csv = tmp;
    }
    int ok = write_csv(csv, pts, n);
    if (!ok)
        fprintf(stderr, "grains: %s: cannot write\n", csv);
    if (ok && o->plot)
        ok = plot(csv, o->plot, o->peers);
    if (ok && o->plot)
        printf("plot: %s\n", o->plot);
    if (!o->csv)
        remove(tmp);
    return ok ? 0 : EXIT_INPUT;
}
