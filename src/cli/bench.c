/* grains bench: the standard dense benchmark (issue "The engine"; TinyDEM
 * Section 5): N spheres, radii uniform in [0.0045, 0.0055], Table 2 material,
 * eta = 0, settled under gravity in a closed cube of edge ~ N^(1/3), then
 * timed from the settled state. Each timing runs in a fresh child process
 * that loads the settled state from a binary file, so that its peak RSS is
 * the memory of that run alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/rng.h"

#define MAX_LIST 8
#define MAX_SET 16

typedef struct {
    long n[MAX_LIST];
    int n_count;
    long threads[MAX_LIST];
    int t_count;
    long steps;          /* 0: chosen from N */
    long repeat;         /* timings per point; the fastest is reported */
    double settle;       /* [s] simulated settling time */
    const char *save;    /* directory for the settled CSV and box size */
    const char *state;   /* child mode: time this state file */
    const char *set[MAX_SET]; /* KEY=VALUE overrides of the benchmark's parameters */
    int n_set;
} bench_opts;

/* Table 2 material, radii in [0.0045, 0.0055], eta = 0, no spawning, then
 * the user's --set overrides. */
static grains_status bench_params(grains_params *p, const bench_opts *o, int threads, grains_error *err)
{
    grains_scenario sc;
    grains_scenario_default(&sc);
    sc.params.R_min = 0.0045;
    sc.params.R_max = 0.0055;
    sc.params.R_mesh[0] = 0;
    sc.params.n_mesh_radii = 1;
    sc.params.N_max = 0;
    sc.params.N_spawn = 0;
    sc.params.eta = 0;
    grains_status s = GRAINS_OK;
    for (int k = 0; s == GRAINS_OK && k < o->n_set; k++)
        s = grains_scenario_set(&sc, o->set[k], err);
    if (s == GRAINS_OK)
        s = grains_scenario_finish(&sc, err);
    *p = sc.params;
    p->threads = threads;
    return s;
}

/* The closed cube [0, L]^3 as six rectangles of radius 0. */
static grains_status cube(grains_sim *sim, double L, grains_error *err)
{
    static const int face[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {3, 2, 6, 7}, {0, 3, 7, 4}, {1, 2, 6, 5}};
    grains_mesh *m;
    grains_status s = grains_mesh_create(&m, err);
    for (int k = 0; s == GRAINS_OK && k < 8; k++)
        s = grains_mesh_add_vertex(m, (grains_vec3){(k == 1 || k == 2 || k == 5 || k == 6) ? L : 0,
                                                    (k == 2 || k == 3 || k == 6 || k == 7) ? L : 0, k >= 4 ? L : 0},
                                   err);
    for (int f = 0; s == GRAINS_OK && f < 6; f++) {
        uint32_t v[4] = {(uint32_t)face[f][0], (uint32_t)face[f][1], (uint32_t)face[f][2], (uint32_t)face[f][3]};
        s = grains_mesh_add_element(m, 4, v, 0, 0, err);
    }
    if (s == GRAINS_OK)
        s = grains_sim_set_mesh(sim, m, err);
    grains_mesh_destroy(m);
    return s;
}

/* A jittered cubic lattice filling the box from the bottom (as
 * ../shared/bench/gen_init.py): spacing 2.2 R_max, L = s ceil(1.2 N^(1/3)). */
static grains_status lattice(grains_sim *sim, long N, double *L, grains_error *err)
{
    const double R_min = 0.0045, R_max = 0.0055, s = 2.2 * R_max;
    long nxy = (long)ceil(1.2 * cbrt((double)N) - 1e-9);
    double jitter = 0.45 * (s - 2 * R_max);
    grains_rng rng;
    rng_seed(&rng, 12345);
    *L = s * (double)nxy;
    grains_status st = grains_sim_reserve(sim, (size_t)N, err);
    for (long k = 0; st == GRAINS_OK && k < N; k++) {
        long i = k % nxy, j = (k / nxy) % nxy, l = k / (nxy * nxy);
        grains_particle p = {{((double)i + 0.5) * s + jitter * (2 * rng_uniform(&rng) - 1),
                              ((double)j + 0.5) * s + jitter * (2 * rng_uniform(&rng) - 1),
                              ((double)l + 0.5) * s + jitter * (2 * rng_uniform(&rng) - 1)},
                             {0.01 * (2 * rng_uniform(&rng) - 1), 0.01 * (2 * rng_uniform(&rng) - 1),
                              0.01 * (2 * rng_uniform(&rng) - 1)},
                             {0, 0, 0}, {1, 0, 0, 0}, R_min + (R_max - R_min) * rng_uniform(&rng), 0};
        st = grains_sim_add_particle(sim, &p, err);
    }
    return st;
}

static grains_status write_state(const char *path, const grains_sim *sim, double L, grains_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot write");
    size_t n = grains_sim_count(sim);
    fwrite(&n, sizeof n, 1, f);
    fwrite(&L, sizeof L, 1, f);
    for (size_t i = 0; i < n; i++) {
        grains_particle p;
        grains_sim_get_particle(sim, i, &p);
        fwrite(&p, sizeof p, 1, f);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "write failed");
    return GRAINS_OK;
}

static grains_status read_state(const char *path, grains_sim *sim, double *L, grains_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return grains_error_set(err, GRAINS_ERR_IO, path, 0, "cannot read");
    size_t n = 0;
    grains_status s = GRAINS_OK;
    if (fread(&n, sizeof n, 1, f) != 1 || fread(L, sizeof *L, 1, f) != 1 || n > 100000000)
        s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "not a bench state file");
    if (s == GRAINS_OK)
        s = grains_sim_reserve(sim, n, err);
    for (size_t i = 0; s == GRAINS_OK && i < n; i++) {
        grains_particle p;
        if (fread(&p, sizeof p, 1, f) != 1)
            s = grains_error_set(err, GRAINS_ERR_PARSE, path, 0, "truncated bench state file");
        else
            s = grains_sim_add_particle(sim, &p, err);
    }
    fclose(f);
    return s;
}

/* Child: time `steps` steps of the state in `path` with `threads` threads. */
static int time_state(const bench_opts *o)
{
    grains_params p;
    grains_error err;
    grains_sim *sim = NULL;
    double L;
    if (bench_params(&p, o, (int)o->threads[0], &err) != GRAINS_OK || grains_sim_create(&sim, &p, &err) != GRAINS_OK || read_state(o->state, sim, &L, &err) != GRAINS_OK ||
        cube(sim, L, &err) != GRAINS_OK || grains_sim_advance(sim, 20, &err) != GRAINS_OK) {
        cli_report(&err);
        grains_sim_destroy(sim);
        return EXIT_INPUT;
    }
    size_t n = grains_sim_count(sim);
    long steps = o->steps ? o->steps : (long)fmax(100, fmin(5000, 2e7 / (double)n));
    double t0 = wall_seconds();
    grains_status s = grains_sim_advance(sim, steps, &err);
    double sec = (wall_seconds() - t0) / (double)steps;
    if (s != GRAINS_OK) {
        cli_report(&err);
        grains_sim_destroy(sim);
        return EXIT_UNSTABLE;
    }
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("RESULT %zu %ld %ld %.6e %.6e %.1f %.3f\n", n, o->threads[0], steps, sec, (double)n / sec,
           (double)ru.ru_maxrss * 1024.0 / (double)n, (double)th.n_contacts / (double)n);
    grains_sim_destroy(sim);
    return 0;
}

static grains_status settle(long N, const bench_opts *o, const char *state, grains_error *err)
{
    grains_params p;
    grains_sim *sim = NULL;
    double L;
    grains_status s = bench_params(&p, o, 0, err);
    if (s == GRAINS_OK)
        s = grains_sim_create(&sim, &p, err);
    if (s == GRAINS_OK && (s = lattice(sim, N, &L, err)) == GRAINS_OK && (s = cube(sim, L, err)) == GRAINS_OK)
        s = grains_sim_advance(sim, (long)ceil(o->settle / grains_sim_params(sim)->dt), err);
    if (s == GRAINS_OK)
        s = write_state(state, sim, L, err);
    if (s == GRAINS_OK && o->save) {
        char path[GRAINS_PATH_MAX];
        grains_thermo th;
        grains_sim_thermo(sim, &th);
        fprintf(stderr, "  N = %ld settled for %g s: E_kin/N = %.3g J, E_rot/N = %.3g J\n", N, o->settle,
                th.e_kin / (double)N, th.e_rot / (double)N);
        snprintf(path, sizeof path, "%s/settled%ld.csv", o->save, N);
        s = grains_output_dir(o->save, err);
        if (s == GRAINS_OK)
            s = grains_csv_write(path, sim, err);
        snprintf(path, sizeof path, "%s/settled%ld.box", o->save, N);
        FILE *f = s == GRAINS_OK ? fopen(path, "w") : NULL;
        if (f)
            fprintf(f, "%.17g\n", L), fclose(f);
    }
    grains_sim_destroy(sim);
    return s;
}

static int run_child(const bench_opts *o, const char *state, long threads, char *line, size_t size)
{
    char exe[4096], cmd[8192];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return 0;
    exe[len] = '\0';
    int used = snprintf(cmd, sizeof cmd, "'%s' bench --state '%s' --threads %ld --steps %ld", exe, state, threads,
                        o->steps);
    for (int k = 0; k < o->n_set && used > 0 && (size_t)used < sizeof cmd; k++) {
        if (strchr(o->set[k], '\''))
            return 0;
        used += snprintf(cmd + used, sizeof cmd - (size_t)used, " --set '%s'", o->set[k]);
    }
    FILE *p = popen(cmd, "r");
    int found = 0;
    while (p && fgets(line, (int)size, p))
        if (strncmp(line, "RESULT ", 7) == 0) {
            found = 1;
            break;
        }
    return (p && pclose(p) == 0) && found;
}

/* The best of the runs of one (N, threads): fastest time, largest memory. */
typedef struct {
    long N, T, steps;
    double sec, rate, bytes, contacts;
} bench_point;

static int time_point(const bench_opts *o, const char *state, long threads, char *line, size_t size, bench_point *p)
{
    double sec, rate, bytes, contacts;
    if (!run_child(o, state, threads, line, size) ||
        sscanf(line, "RESULT %ld %ld %ld %lf %lf %lf %lf", &p->N, &p->T, &p->steps, &sec, &rate, &bytes, &contacts) != 7)
        return 0;
    if (sec < p->sec)
        p->sec = sec, p->rate = rate;
    p->bytes = fmax(p->bytes, bytes);
    p->contacts = contacts;
    return 1;
}

static int parse_list(const char *s, long *out, int max)
{
    int n = 0;
    char *end;
    while (*s && n < max) {
        double v = strtod(s, &end);
        if (end == s || v < 1 || v > 1e9)
            return 0;
        out[n++] = (long)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return 0;
    }
    return n;
}

/* A whole-string integer or number; 0 when the text is not one. */
static int whole_long(const char *v, long *out)
{
    char *end;
    *out = strtol(v, &end, 10);
    return *v && *end == '\0';
}

static int whole_double(const char *v, double *out)
{
    char *end;
    *out = strtod(v, &end);
    return *v && *end == '\0' && isfinite(*out);
}

static int parse_opts(int argc, char **argv, bench_opts *o)
{
    *o = (bench_opts){{1000, 10000, 100000}, 3, {1, 2}, 2, 0, 3, 0.4, NULL, NULL, {NULL}, 0};
    for (int a = 0; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!v)
            return 0;
        if (strcmp(argv[a], "--n") == 0)
            o->n_count = parse_list(v, o->n, MAX_LIST);
        else if (strcmp(argv[a], "--threads") == 0)
            o->t_count = parse_list(v, o->threads, MAX_LIST);
        else if (strcmp(argv[a], "--steps") == 0 && !whole_long(v, &o->steps))
            return 0;
        else if (strcmp(argv[a], "--repeat") == 0 && !whole_long(v, &o->repeat))
            return 0;
        else if (strcmp(argv[a], "--settle") == 0 && !whole_double(v, &o->settle))
            return 0;
        else if (strcmp(argv[a], "--steps") == 0 || strcmp(argv[a], "--repeat") == 0 ||
                 strcmp(argv[a], "--settle") == 0)
            ; /* parsed above */
        else if (strcmp(argv[a], "--save") == 0)
            o->save = v;
        else if (strcmp(argv[a], "--state") == 0)
            o->state = v;
        else if (strcmp(argv[a], "--set") == 0 && o->n_set < MAX_SET)
            o->set[o->n_set++] = v;
        else
            return 0;
        a++;
        if (o->n_count == 0 || o->t_count == 0 || o->steps < 0 || o->repeat < 1 || o->repeat > 100 ||
            !(o->settle >= 0))
            return 0;
    }
    return 1;
}

int cli_bench(int argc, char **argv)
{
    bench_opts o;
    if (!parse_opts(argc, argv, &o)) {
        fprintf(stderr, "grains: usage: grains bench [--n 1000,10000,100000] [--threads 1,2] [--steps S] "
                        "[--repeat R] [--settle SECONDS] [--save DIR] [--set KEY=VALUE]...\n");
        return EXIT_INPUT;
    }
    if (o.state)
        return time_state(&o);
    char dir[] = "/tmp/grains-bench-XXXXXX", state[64], line[256];
    if (!mkdtemp(dir)) {
        fprintf(stderr, "grains: cannot create a temporary directory\n");
        return EXIT_INPUT;
    }
    printf("%9s %8s %8s %12s %16s %15s %17s\n", "N", "threads", "steps", "s/step", "particle-steps/s",
           "bytes/particle", "contacts/particle");
    int status = 0;
    for (int a = 0; a < o.n_count && !status; a++) {
        grains_error err;
        snprintf(state, sizeof state, "%s/state%ld.bin", dir, o.n[a]);
        if (settle(o.n[a], &o, state, &err) != GRAINS_OK) {
            cli_report(&err);
            status = EXIT_UNSTABLE;
        }
        bench_point pts[MAX_LIST];
        for (int b = 0; b < o.t_count; b++)
            pts[b] = (bench_point){0, 0, 0, INFINITY, 0, 0, 0};
        /* Repeats interleave the thread counts, so that a busy spell of the
         * machine falls on all of them; the fastest run of each is kept. */
        for (long r = 0; r < o.repeat && !status; r++)
            for (int b = 0; b < o.t_count && !status; b++)
                if (!time_point(&o, state, o.threads[b], line, sizeof line, &pts[b])) {
                    fprintf(stderr, "grains: benchmark run N = %ld, threads = %ld failed\n", o.n[a], o.threads[b]);
                    status = EXIT_UNSTABLE;
                }
        for (int b = 0; b < o.t_count && !status; b++)
            printf("%9ld %8ld %8ld %12.4e %16.4e %15.0f %17.2f\n", pts[b].N, pts[b].T, pts[b].steps, pts[b].sec,
                   pts[b].rate, pts[b].bytes, pts[b].contacts);
        fflush(stdout);
        remove(state);
    }
    rmdir(dir);
    return status;
}
