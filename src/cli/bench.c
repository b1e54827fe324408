/* grains bench: the standard dense benchmark (issue "The engine"; TinyDEM
 * Section 5): N spheres, radii uniform in [0.0045, 0.0055], Table 2 material,
 * eta = 0, settled under gravity in a closed cube of edge ~ N^(1/3) until
 * still (BENCH_STILL; at most --settle seconds), then timed from the
 * settled state. The polydisperse case (--ratio r) adds a
 * few spheres of r times the mean radius among the N small ones: as many as
 * hold a quarter of the small ones' volume (at least one). Each timing runs
 * in a fresh child process that loads the settled state from a binary file,
 * so that its peak RSS is the memory of that run alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/bench.h"
#include "cli/cli.h"
#include "io/atomic_file.h"
#include "util/clock.h"
#include "util/rng.h"

#define BENCH_R_MIN 0.0045
#define BENCH_R_MAX 0.0055

/* The large spheres' radius, and how many among N small ones. */
static double big_radius(double ratio) { return ratio * 0.5 * (BENCH_R_MIN + BENCH_R_MAX); }

static long big_count(long N, double ratio)
{
    return ratio > 1 ? lround(fmax(1, (double)N / (4 * ratio * ratio * ratio))) : 0;
}

/* Table 2 material, radii in [0.0045, 0.0055] (and the large ones'), eta = 0,
 * no spawning, then the user's --set overrides. */
static grains_status bench_params(grains_params *p, const bench_opts *o, double ratio, int threads,
                                  grains_error *err)
{
    grains_scenario sc;
    grains_scenario_default(&sc);
    sc.params.R_min = BENCH_R_MIN;
    sc.params.R_max = ratio > 1 ? big_radius(ratio) : BENCH_R_MAX;
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

/* The large spheres on a coarse lattice from the bottom of the box, their
 * centres in big[]. */
static grains_status place_big(grains_sim *sim, long n_big, double R_big, double L, grains_vec3 *big,
                               grains_error *err)
{
    const double S = 2 * R_big + 0.2 * BENCH_R_MAX;
    long row = (long)(L / S);
    grains_status st = GRAINS_OK;
    for (long b = 0; st == GRAINS_OK && b < n_big; b++) {
        big[b] = (grains_vec3){((double)(b % row) + 0.5) * S, ((double)(b / row % row) + 0.5) * S,
                               ((double)(b / (row * row)) + 0.5) * S};
        if (big[b].z + R_big > L)
            return grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "bench: %ld large spheres do not fit", n_big);
        grains_particle p = {big[b], {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, R_big, 0, 0};
        st = grains_sim_add_particle(sim, &p, err);
    }
    return st;
}

/* Whether a small sphere's site lies clear of every large sphere. */
static int clear_of(grains_vec3 x, const grains_vec3 *big, long n_big, double reach)
{
    for (long b = 0; b < n_big; b++) {
        double dx = x.x - big[b].x, dy = x.y - big[b].y, dz = x.z - big[b].z;
        if (dx * dx + dy * dy + dz * dz < reach * reach)
            return 0;
    }
    return 1;
}

/* A jittered cubic lattice filling the box from the bottom (as
 * ../shared/bench/gen_init.py): spacing 2.2 R_max, L = s ceil(1.2 N^(1/3)),
 * N_eq counting the sites the large spheres take. */
static grains_status lattice(grains_sim *sim, long N, double ratio, double *L, grains_error *err)
{
    const double s = 2.2 * BENCH_R_MAX, R_big = big_radius(ratio);
    const long n_big = big_count(N, ratio);
    double taken = 4.18879 * pow(R_big + s, 3) / (s * s * s), N_eq = (double)N + (double)n_big * taken;
    long nxy = (long)ceil(1.2 * cbrt(N_eq) - 1e-9);
    if (n_big && nxy < (long)ceil((2 * R_big + s) / s))
        nxy = (long)ceil((2 * R_big + s) / s);
    double jitter = 0.45 * (s - 2 * BENCH_R_MAX);
    grains_rng rng;
    rng_seed(&rng, 12345);
    *L = s * (double)nxy;
    grains_vec3 *big = malloc((size_t)(n_big ? n_big : 1) * sizeof *big);
    grains_status st = big ? grains_sim_reserve(sim, (size_t)(N + n_big), err)
                           : grains_error_set(err, GRAINS_ERR_NOMEM, NULL, 0, "bench: out of memory");
    if (st == GRAINS_OK)
        st = place_big(sim, n_big, R_big, *L, big, err);
    long placed = 0, k = 0;
    for (; st == GRAINS_OK && placed < N && k < nxy * nxy * nxy; k++) {
        long i = k % nxy, j = (k / nxy) % nxy, l = k / (nxy * nxy);
        grains_vec3 site = {((double)i + 0.5) * s, ((double)j + 0.5) * s, ((double)l + 0.5) * s};
        if (!clear_of(site, big, n_big, R_big + s))
            continue;
        grains_particle p = {{site.x + jitter * (2 * rng_uniform(&rng) - 1), site.y + jitter * (2 * rng_uniform(&rng) - 1),
                              site.z + jitter * (2 * rng_uniform(&rng) - 1)},
                             {0.01 * (2 * rng_uniform(&rng) - 1), 0.01 * (2 * rng_uniform(&rng) - 1),
                              0.01 * (2 * rng_uniform(&rng) - 1)},
                             {0, 0, 0}, {1, 0, 0, 0}, BENCH_R_MIN + (BENCH_R_MAX - BENCH_R_MIN) * rng_uniform(&rng), 0, 0};
        st = grains_sim_add_particle(sim, &p, err);
        placed++;
    }
    free(big);
    if (st == GRAINS_OK && placed < N)
        st = grains_error_set(err, GRAINS_ERR_LIMIT, NULL, 0, "bench: room for %ld of %ld small spheres", placed, N);
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
    if (bench_params(&p, o, o->ratio[0], (int)o->threads[0], &err) != GRAINS_OK ||
        grains_sim_create(&sim, &p, &err) != GRAINS_OK || read_state(o->state, sim, &L, &err) != GRAINS_OK ||
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

/* Still: the grains' kinetic energy per grain below this fraction of the
 * work gravity does on a mean grain falling one diameter (10^4 grains after
 * 0.4 s: 3.5e-9 J of 5.1e-5 J, 7e-5 of it). */
#define BENCH_STILL 1e-4

/* Steps in chunks of 0.05 s until the grains are still, or `most` seconds
 * have passed; the time taken in *took, whether they are still in *still. */
static grains_status settle_until_still(grains_sim *sim, long N, double most, double *took, int *still,
                                        grains_error *err)
{
    const grains_params *p = grains_sim_params(sim);
    double r = 0.5 * (BENCH_R_MIN + BENCH_R_MAX), g = sqrt(p->g.x * p->g.x + p->g.y * p->g.y + p->g.z * p->g.z);
    double limit = BENCH_STILL * grains_params_mass(p, 0, r) * g * 2 * r;
    long chunk = (long)ceil(0.05 / p->dt), left = (long)ceil(most / p->dt), done = 0;
    grains_status s = GRAINS_OK;
    *still = 0;
    while (s == GRAINS_OK && left > 0 && !*still) {
        long k = chunk < left ? chunk : left;
        s = grains_sim_advance(sim, k, err);
        done += k, left -= k;
        grains_thermo th;
        grains_sim_thermo(sim, &th);
        *still = th.e_kin / (double)N < limit;
    }
    *took = (double)done * p->dt;
    return s;
}

static grains_status settle(long N, double ratio, const bench_opts *o, const char *state, grains_error *err)
{
    grains_params p;
    grains_sim *sim = NULL;
    double L;
    grains_status s = bench_params(&p, o, ratio, 0, err);
    if (s == GRAINS_OK)
        s = grains_sim_create(&sim, &p, err);
    double took = 0;
    int still = 0;
    if (s == GRAINS_OK && (s = lattice(sim, N, ratio, &L, err)) == GRAINS_OK && (s = cube(sim, L, err)) == GRAINS_OK)
        s = settle_until_still(sim, N, o->settle, &took, &still, err);
    if (s == GRAINS_OK)
        s = write_state(state, sim, L, err);
    if (s == GRAINS_OK) {
        grains_thermo th;
        grains_sim_thermo(sim, &th);
        fprintf(stderr, "  N = %ld (ratio %g) %s %.3g s: E_kin/N = %.3g J, E_rot/N = %.3g J, %.2f contacts a grain\n",
                N, ratio, still ? "still after" : o->settle > 0 ? "NOT still (raise --settle) after" : "unsettled:",
                took, th.e_kin / (double)N, th.e_rot / (double)N, (double)th.n_contacts / (double)N);
    }
    if (s == GRAINS_OK && o->save) {
        char path[GRAINS_PATH_MAX];
        snprintf(path, sizeof path, ratio > 1 ? "%s/settled%ld_r%g.csv" : "%s/settled%ld.csv", o->save, N, ratio);
        s = grains_output_dir(o->save, err);
        if (s == GRAINS_OK)
            s = grains_csv_write(path, sim, err);
        snprintf(path, sizeof path, ratio > 1 ? "%s/settled%ld_r%g.box" : "%s/settled%ld.box", o->save, N, ratio);
        atomic_file af;
        if (s == GRAINS_OK && (s = atomic_open(&af, path, err)) == GRAINS_OK) {
            fprintf(af.f, "%.17g\n", L);
            s = atomic_commit(&af, err);
        }
    }
    grains_sim_destroy(sim);
    return s;
}

static int run_child(const bench_opts *o, const char *state, double ratio, long threads, char *line, size_t size)
{
    char exe[4096], cmd[8192];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return 0;
    exe[len] = '\0';
    int used = snprintf(cmd, sizeof cmd, "'%s' bench --state '%s' --ratio %.17g --threads %ld --steps %ld", exe, state,
                        ratio, threads, o->steps);
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

static int time_point(const bench_opts *o, const char *state, double ratio, long threads, char *line, size_t size,
                      bench_point *p)
{
    double sec, rate, bytes, contacts;
    p->ratio = ratio;
    if (!run_child(o, state, ratio, threads, line, size) ||
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

/* A list of size ratios, each in [1, 256). */
static int parse_ratios(const char *s, double *out, int max)
{
    int n = 0;
    char *end;
    while (*s && n < max) {
        double v = strtod(s, &end);
        if (end == s || !(v >= 1 && v < 256) || (*end && *end != ','))
            return 0;
        out[n++] = v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* The option at argv[a] with its value v; 0 when it is not one. */
static int parse_opt(const char *name, const char *v, bench_opts *o)
{
    if (strcmp(name, "--n") == 0)
        return (o->n_count = parse_list(v, o->n, MAX_LIST)) > 0;
    if (strcmp(name, "--threads") == 0)
        return (o->t_count = parse_list(v, o->threads, MAX_LIST)) > 0;
    if (strcmp(name, "--ratio") == 0)
        return (o->r_count = parse_ratios(v, o->ratio, MAX_LIST)) > 0;
    if (strcmp(name, "--steps") == 0)
        return whole_long(v, &o->steps) && o->steps >= 0;
    if (strcmp(name, "--repeat") == 0)
        return whole_long(v, &o->repeat) && o->repeat >= 1 && o->repeat <= 100;
    if (strcmp(name, "--settle") == 0)
        return whole_double(v, &o->settle) && o->settle >= 0;
    const char **text = strcmp(name, "--save") == 0    ? &o->save
                        : strcmp(name, "--state") == 0 ? &o->state
                        : strcmp(name, "--csv") == 0   ? &o->csv
                        : strcmp(name, "--plot") == 0  ? &o->plot
                        : strcmp(name, "--peers") == 0 ? &o->peers
                                                       : NULL;
    if (text)
        *text = v;
    else if (strcmp(name, "--set") == 0 && o->n_set < MAX_SET)
        o->set[o->n_set++] = v;
    else
        return 0;
    return 1;
}

static int parse_opts(int argc, char **argv, bench_opts *o)
{
    *o = (bench_opts){.n = {1000, 10000, 100000}, .n_count = 3, .threads = {1, 2}, .t_count = 2, .ratio = {1},
                      .r_count = 1, .repeat = 3, .settle = 10};
    for (int a = 0; a < argc; a += 2)
        if (a + 1 >= argc || !parse_opt(argv[a], argv[a + 1], o))
            return 0;
    return 1;
}

/* Settles N small spheres (and the ratio's large ones) and times them with
 * each thread count, the repeats interleaved so that a busy spell of the
 * machine falls on all of them; the fastest run of each is kept. */
static int bench_case(const bench_opts *o, const char *dir, long N, double ratio, bench_point *pts)
{
    char state[96], line[256];
    grains_error err;
    snprintf(state, sizeof state, "%s/state%ld.bin", dir, N);
    if (settle(N, ratio, o, state, &err) != GRAINS_OK) {
        cli_report(&err);
        return EXIT_UNSTABLE;
    }
    for (int b = 0; b < o->t_count; b++)
        pts[b] = (bench_point){.sec = INFINITY};
    int status = 0;
    for (long r = 0; r < o->repeat && !status; r++)
        for (int b = 0; b < o->t_count && !status; b++)
            if (!time_point(o, state, ratio, o->threads[b], line, sizeof line, &pts[b])) {
                fprintf(stderr, "grains: benchmark run N = %ld, ratio %g, threads = %ld failed\n", N, ratio,
                        o->threads[b]);
                status = EXIT_UNSTABLE;
            }
    remove(state);
    return status;
}

int cli_bench(int argc, char **argv)
{
    bench_opts o;
    if (!parse_opts(argc, argv, &o)) {
        fprintf(stderr, "grains: usage: grains bench [--n 1e3,1e4,1e5] [--threads 1,2] [--ratio 1,10,50] [--steps S] "
                        "[--repeat R] [--settle SECONDS] [--save DIR] [--csv FILE] [--plot FILE.png] "
                        "[--peers FILE.csv] [--set KEY=VALUE]...\n");
        return EXIT_INPUT;
    }
    if (o.state)
        return time_state(&o);
    char dir[] = "/tmp/grains-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "grains: cannot create a temporary directory\n");
        return EXIT_INPUT;
    }
    bench_point all[MAX_LIST * MAX_LIST * MAX_LIST];
    int n_all = 0, status = 0;
    bench_print_header();
    for (int a = 0; a < o.n_count && !status; a++)
        for (int r = 0; r < o.r_count && !status; r++) {
            status = bench_case(&o, dir, o.n[a], o.ratio[r], all + n_all);
            for (int b = 0; b < o.t_count && !status; b++)
                bench_print(&all[n_all + b]);
            n_all += status ? 0 : o.t_count;
            fflush(stdout);
        }
    rmdir(dir);
    if (!status)
        bench_print_scaling(all, n_all);
    if (!status && (o.csv || o.plot))
        status = bench_outputs(&o, all, n_all);
    return status;
}
