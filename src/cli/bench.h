/* grains bench: its measured points, and what is made of them. */
#ifndef GRAINS_CLI_BENCH_H
#define GRAINS_CLI_BENCH_H

#define MAX_LIST 8
#define MAX_SET 16

typedef struct {
    long n[MAX_LIST];
    int n_count;
    long threads[MAX_LIST];
    int t_count;
    double ratio[MAX_LIST]; /* large to small radius; 1: the dense box alone */
    int r_count;
    long steps;          /* 0: chosen from N */
    long repeat;         /* timings per point; the fastest is reported */
    double settle;       /* [s] the most simulated settling time: it ends when the grains are still */
    const char *save;    /* directory for the settled CSV and box size */
    const char *state;   /* child mode: time this state file */
    const char *set[MAX_SET]; /* KEY=VALUE overrides of the benchmark's parameters */
    int n_set;
    const char *csv;     /* the table as CSV */
    const char *plot;    /* a PNG of time per particle-step against N */
    const char *peers;   /* a CSV of other codes' points for the plot: code,N,threads,s_per_step */
} bench_opts;

/* The best of the runs of one (N, ratio, threads): fastest time, largest
 * memory. N counts every particle, the large ones included. */
typedef struct {
    long N, T, steps;
    double ratio, sec, rate, bytes, contacts;
} bench_point;

void bench_print_header(void);
void bench_print(const bench_point *p);

/* The scaling of each (threads, ratio) series of two sizes or more. */
void bench_print_scaling(const bench_point *pts, int n);

/* The points as CSV and the plot, where asked. Returns an exit status. */
int bench_outputs(const bench_opts *o, const bench_point *pts, int n);

#endif
