/* Files: CSV and OFF survive a write/read round trip bit for bit, and every
 * malformed file is refused whole with its file, line and the rule broken. */
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "grains/io.h"
#include "grains/scenario.h"
#include "core/coeffs.h"
#include "io/text.h"
#include "support.h"

static char dir[] = "/tmp/grains-test-io-XXXXXX";

static const char *write_text(const char *name, const char *text)
{
    static char path[256]; /* test helper; one file at a time */
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Every double back bit for bit; with several materials, the material
 * column too. */
static void csv_round_trip(test_ctx *t, int materials)
{
    grains_params p = scene_params();
    p.n_materials = materials;
    for (int k = 1; k < materials; k++)
        p.material[k] = (grains_material){.rho = 2000, .E = 1e6, .nu = 0.25};
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0.1, -1.0 / 3.0, 2e-7}, (grains_vec3){1e-300, -0.5, 3.14159}, (grains_vec3){1, 2, 3}, 2.385e-3);
    add(sim, (grains_vec3){-5.5, 7, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, -1e4 / 3}, 1.0 / 7.0);
    grains_particle last = get(sim, 1);
    last.material = materials - 1;
    grains_sim_set_particle(sim, 1, &last);
    char path[256];
    snprintf(path, sizeof path, "%s/round.csv", dir);
    grains_error err;
    CHECK(t, grains_csv_write(path, sim, &err) == GRAINS_OK, "csv write");
    grains_particle *q = NULL;
    size_t n = 0;
    CHECK(t, grains_csv_read(path, &q, &n, &err) == GRAINS_OK && n == 2, "csv read back");
    for (size_t i = 0; q && i < n; i++) {
        grains_particle a = get(sim, i);
        CHECK(t, same_particle(a, q[i]), "particle %zu identical after round trip (%d materials)", i, materials);
    }
    free(q);
    grains_sim_destroy(sim);
}

static void off_round_trip(test_ctx *t)
{
    grains_params p;
    grains_params_default(&p);
    grains_mesh *a = NULL, *b = NULL;
    grains_error err;
    char path[256];
    snprintf(path, sizeof path, "%s/round.off", dir);
    CHECK(t, grains_off_parse(grains_hourglass_off, "hourglass", p.R_mesh, 3, &a, &err) == GRAINS_OK,
          "built-in hourglass parses");
    CHECK(t, a && a->n_vertices == 15 && a->n_elements == 19, "hourglass has 15 vertices and 19 elements");
    if (a)
        a->elements[3].material = 1, a->elements[4].material = GRAINS_RIGID; /* written as a fifth field */
    CHECK(t, grains_off_write(path, a, &err) == GRAINS_OK, "off write");
    CHECK(t, grains_off_read(path, p.R_mesh, 3, &b, &err) == GRAINS_OK, "off read back");
    int same = a && b && a->n_elements == b->n_elements && a->n_vertices == b->n_vertices &&
               memcmp(a->vertices, b->vertices, a->n_vertices * sizeof *a->vertices) == 0;
    for (size_t e = 0; same && e < a->n_elements; e++)
        same = memcmp(&a->elements[e], &b->elements[e], sizeof a->elements[e]) == 0;
    CHECK(t, same, "mesh identical after round trip (vertices, elements, radii, materials)");
    CHECK(t, a && a->elements[17].n == 1 && a->elements[17].R == 0.02, "point obstacle has R_mesh[1] = 0.02");
    CHECK(t, a && a->elements[18].n == 2 && a->elements[18].R == 0.01, "segment obstacle has R_mesh[2] = 0.01");
    grains_mesh_destroy(a);
    grains_mesh_destroy(b);
}

/* Reads `text` as kind ('c' CSV, 'o' OFF, 's' scenario) and expects failure
 * at `line` with `fragment` in the message. */
static void refused(test_ctx *t, char kind, const char *text, int line, const char *fragment)
{
    const char *path = write_text(kind == 'c' ? "bad.csv" : kind == 'o' ? "bad.off" : "bad.cfg", text);
    grains_error err = {0};
    grains_status s;
    if (kind == 'c') {
        grains_particle *q = NULL;
        size_t n = 99;
        s = grains_csv_read(path, &q, &n, &err);
        CHECK(t, q == NULL || s == GRAINS_OK, "nothing returned from a refused CSV");
    } else if (kind == 'o') {
        grains_mesh *m = NULL;
        real R[2] = {0.1, 0.2};
        s = grains_off_read(path, R, 2, &m, &err);
        grains_mesh_destroy(m);
    } else {
        grains_scenario sc;
        grains_scenario_default(&sc);
        s = grains_scenario_read(&sc, path, &err);
        if (s == GRAINS_OK)
            s = grains_scenario_finish(&sc, &err);
    }
    CHECK(t, s != GRAINS_OK, "refused: %s", fragment);
    CHECK(t, err.line == line, "'%s' reported at line %d, expected %d (%s)", fragment, err.line, line, err.message);
    CHECK(t, strstr(err.message, fragment) != NULL, "message '%s' mentions '%s'", err.message, fragment);
    CHECK(t, strcmp(err.file, path) == 0, "message names the file (%s)", err.file);
}

static void bad_csv(test_ctx *t)
{
    const char *h = "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz\n";
    char buf[512];
    refused(t, 'c', "x,y,z,R\n1,2,3,4\n", 1, "header");
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0,0,0,0\n0,0,0,1e-3,0,0", h);
    refused(t, 'c', buf, 3, "truncated");
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0,0,0,nan\n", h);
    refused(t, 'c', buf, 2, "wz");
    snprintf(buf, sizeof buf, "%s0,0,inf,1e-3,0,0,0,1,0,0,0,0,0,0\n", h);
    refused(t, 'c', buf, 2, "z = 'inf'");
    snprintf(buf, sizeof buf, "%s0,0,0,-1e-3,0,0,0,1,0,0,0,0,0,0\n", h);
    refused(t, 'c', buf, 2, "radius must be > 0");
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0.5,0,0,0\n", h);
    refused(t, 'c', buf, 2, "unit quaternion");
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0,0,0,0,7\n", h);
    refused(t, 'c', buf, 2, "more than 14");
    snprintf(buf, sizeof buf, "%s0,0,zero,1e-3,0,0,0,1,0,0,0,0,0,0\n", h);
    refused(t, 'c', buf, 2, "expected a finite number");
    const char *hm = "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz,material\n";
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0,0,0,0,1.5\n", hm);
    refused(t, 'c', buf, 2, "material = 1.5");
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0,0,0,0,8\n", hm);
    refused(t, 'c', buf, 2, "from 0 to 7");
    snprintf(buf, sizeof buf, "%s0,0,0,1e-3,0,0,0,1,0,0,0,0,0,0\n", hm);
    refused(t, 'c', buf, 2, "expected 15");
}

/* grains_csv_each's visitor: each row's x must be its row, in order. */
typedef struct {
    size_t rows, out_of_order;
} row_count;

static grains_status count_row(void *ctx, size_t row, const grains_particle *p, grains_error *err)
{
    row_count *c = ctx;
    (void)err;
    c->out_of_order += row != c->rows || p->x.x != (double)row || p->v.y != -(double)row / 3;
    c->rows++;
    return GRAINS_OK;
}

/* A file of `rows` rows (x = row, vy = -row / 3) a few times larger than
 * the reader's chunk, so that lines cross its boundaries, with CRLF and
 * blank lines among them; `bad_row` (or SIZE_MAX) breaks that row. The
 * file's line of row r, header and blank lines counted, is r + 2 + r / 1000. */
static const char *big_csv(size_t rows, size_t bad_row)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/big.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz\n", f);
    for (size_t r = 0; r < rows; r++) {
        if (r % 1000 == 999)
            fputs("\n", f);
        fprintf(f, "%zu,0.25,-1e-3,1e-3,0,%.17g,0,1,0,0,0,0,0,%s%s", r, -(double)r / 3, r == bad_row ? "x" : "0",
                r % 7 ? "\n" : "\r\n");
    }
    fclose(f);
    return path;
}

/* The particles' file read a chunk at a time (as grains run reads it):
 * every row once, in order, whatever chunk boundary its line crosses, and
 * an error past the first chunk at the file's own line. */
static void csv_streamed(test_ctx *t)
{
    const size_t rows = 40000; /* 2.2 MB: 2.1 chunks of the reader's 1 MiB */
    row_count c = {0, 0};
    grains_error err;
    grains_status s = grains_csv_each(big_csv(rows, SIZE_MAX), count_row, &c, &err);
    CHECK(t, s == GRAINS_OK && c.rows == rows && c.out_of_order == 0,
          "every one of %zu rows read once, in order, across chunks (%zu read, %zu out of order; %s)", rows, c.rows,
          c.out_of_order, s == GRAINS_OK ? "ok" : err.message);
    grains_particle *q = NULL;
    size_t n = 0, bad = 31234;
    s = grains_csv_read(big_csv(rows, bad), &q, &n, &err);
    CHECK(t, s == GRAINS_ERR_PARSE && q == NULL && err.line == (int)(bad + 2 + bad / 1000) && strstr(err.message, "wz"),
          "a bad row in the second chunk: refused at its line %zu (%d: %s)", bad + 2 + bad / 1000, err.line,
          err.message);
    c = (row_count){0, 0};
    CHECK(t, grains_csv_each(dir, count_row, &c, &err) == GRAINS_ERR_IO && strstr(err.message, "not a regular file"),
          "a folder is refused: %s", err.message);
}

/* Reads `path` in `parts` parts in turn, each from the counts of those
 * before it, its rows into c; how many parts refused it (the last
 * refusal's line in *line), the counts summed in *all. */
static int read_parts(const char *path, int parts, row_count *c, grains_csv_count *all, int *line)
{
    grains_csv_count part;
    grains_error err;
    int refused = 0;
    *all = (grains_csv_count){0, 0};
    for (int k = 0; k < parts; k++) {
        refused += grains_csv_part_count(path, k, parts, &part, &err) != GRAINS_OK;
        if (grains_csv_part_each(path, k, parts, all, count_row, c, &err) != GRAINS_OK)
            refused++, *line = err.line;
        all->lines += part.lines;
        all->rows += part.rows;
    }
    return refused;
}

/* The file read in parts, as ranks read it (each the lines that start in
 * its share of the bytes): for 1 to 7 parts, and 64 parts of two rows, the
 * parts' counts sum to the file's lines and rows, and the parts read in
 * turn give every row once, in order, numbered as in the whole file; a bad
 * row is refused by the one part that holds it, at its line in the file. */
static void csv_parts(test_ctx *t)
{
    const size_t rows = 40000, bad = 31234, lines = rows + 1 + rows / 1000;
    for (int parts = 1; parts <= 7; parts++) {
        row_count c = {0, 0};
        grains_csv_count all;
        int line = 0, refused = read_parts(big_csv(rows, SIZE_MAX), parts, &c, &all, &line);
        CHECK(t, refused == 0 && all.lines == lines && all.rows == rows && c.rows == rows && c.out_of_order == 0,
              "%d parts: %zu lines and %zu rows counted, %zu rows read (%zu out of order)", parts, all.lines, all.rows,
              c.rows, c.out_of_order);
        c = (row_count){0, 0};
        refused = read_parts(big_csv(rows, bad), parts, &c, &all, &line);
        CHECK(t, refused == 1 && line == (int)(bad + 2 + bad / 1000), "%d parts: the bad row refused by %d of them, at "
              "line %d", parts, refused, line);
    }
    row_count c = {0, 0};
    grains_csv_count all;
    int line = 0;
    const char *two = write_text("two.csv", "x,y,z,R,vx,vy,vz,q0,q1,q2,q3,wx,wy,wz\n"
                                            "0,0,0,1e-3,0,0,0,1,0,0,0,0,0,0\n1,0,0,1e-3,0,-0.333333333333333315,0,1,0,0,0,0,0,0\n");
    CHECK(t, read_parts(two, 64, &c, &all, &line) == 0 && all.rows == 2 && all.lines == 3 && c.rows == 2 &&
          c.out_of_order == 0, "64 parts of a file of 2 rows: %zu rows read", c.rows);
}

static void bad_off(test_ctx *t)
{
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n", 6, "out of range");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 5\n", 6, "radius index 5 has no radius");
    refused(t, 'o', "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", 6, "file ends after 1 of 2 faces");
    refused(t, 'o', "OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n", 5, "file ends after 3 of 4 vertices");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n", 4, "vertex 1");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n5 0 1 2 0 1\n", 6, "vertex count of 1 to 4");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2\n", 6, "degenerate");
    refused(t, 'o', "PLY\n", 1, "header 'OFF'");
    refused(t, 'o', "OFF\n3 1\n", 2, "three counts");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n1 0\n", 7, "unexpected content");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 0 9\n", 6, "material '9'");
    refused(t, 'o', "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 0 1 1\n", 6, "found 6 values");
}

/* materials and pairs from a file: fields left out are material 0's (as
 * finally set, here by --set after the file) or the run's pair values. */
static void materials_scenario(test_ctx *t)
{
    const char *path = write_text("materials.cfg", "materials = ( { rho = 7800.0; E = 2e11; k_roll = 400.0; },\n"
                                                   "  { nu = 0.2; k_roll = 100.0; },\n"
                                                   "  { fixed = true; fixed_velocity = [0.5, 0.0, -1e-3]; } );\n"
                                                   "pairs = ( { between = [2, 1]; e_n = 0.25; mu_s = 0.6; },\n"
                                                   "  { between = [2, 2]; contact = false; } );\n"
                                                   "spawn_material = 2;\nmesh_material = 1;\n");
    grains_scenario sc;
    grains_scenario_default(&sc);
    grains_error err = {0};
    grains_status s = grains_scenario_read(&sc, path, &err);
    if (s == GRAINS_OK)
        s = grains_scenario_set(&sc, "E=3e6", &err);
    if (s == GRAINS_OK)
        s = grains_scenario_finish(&sc, &err);
    CHECK(t, s == GRAINS_OK, "materials scenario reads: %s", err.message);
    const grains_params *p = &sc.params;
    CHECK(t, p->material[3].fixed && p->material[3].fixed_velocity.x == 0.5 &&
                 p->material[3].fixed_velocity.y == 0 && p->material[3].fixed_velocity.z == -1e-3 &&
                 !p->material[1].fixed && p->material[1].fixed_velocity.x == 0,
          "material 3 stays put, moving at its fixed_velocity; material 1 does not");
    CHECK(t, p->n_materials == 4 && p->material[1].rho == 7800 && p->material[1].E == 2e11 && p->material[1].nu == 0.3,
          "material 1: given rho and E, material 0's nu");
    CHECK(t, p->material[2].rho == 1000 && p->material[2].E == 3e6 && p->material[2].nu == 0.2,
          "material 2: given nu, material 0's rho and E as set last");
    grains_pair_values v = grains_params_pair(p, 1, 2), w = grains_params_pair(p, 0, 1);
    CHECK(t, v.e_n == 0.25 && v.mu_s == 0.6 && fabs(v.mu_t - 0.4) < 1e-15 && v.mu_r == p->mu_r && v.mu_s_dyn == 0.6,
          "pair 1-2: given e_n and mu_s, mu_t = 2/3 mu_s, the run's mu_r, dynamic = static");
    CHECK(t, w.e_n == p->e_n && w.mu_s == p->mu_s && w.mu_t == p->mu_t, "pair 0-1: the run's values");
    CHECK(t, grains_params_pair(p, 2, 2).no_contact && !v.no_contact && !w.no_contact,
          "pair 2-2 passes through itself, the others touch");
    CHECK(t, p->spawn_material == 2 && p->mesh_material == 1, "spawn and mesh materials");
    CHECK(t, v.coeff[coeff_find("k_roll")] == 200 && grains_params_pair(p, 1, 1).coeff[coeff_find("k_roll")] == 400,
          "materials' k_roll: pair 1-2 their geometric mean, 1-1 material 1's own");
}

static void bad_scenario(test_ctx *t)
{
    refused(t, 's', "material: { mu_s = -0.3; };\n", 1, "mu_s = -0.3: sliding friction coefficient must be >= 0");
    refused(t, 's', "# comment\nmaterial: {\n  nu = 0.7;\n};\n", 3, "Poisson");
    refused(t, 's', "geometry: { R_min = 0.01;\n R_max = 0.005; };\n", 2, "R_max");
    refused(t, 's', "mu_z = 0.3;\n", 1, "unknown key 'mu_z'");
    refused(t, 's', "simulation: { N_max = 1.5; };\n", 1, "expected an integer");
    refused(t, 's', "kinetic: { g = [0.0, 9.81]; };\n", 1, "three finite numbers");
    refused(t, 's', "material: { E = 1e6 ;\n rho = ; };\n", 2, "syntax error");
    refused(t, 's', "e_n = 0.5;\nmaterial: { e_n = 0.6; };\n", 2, "given twice");
    refused(t, 's', "dt = 0.0;\n", 1, "dt = 0");
    refused(t, 's', "geometry: { R_mesh = [0.1, -0.2]; };\n", 1, "R_mesh[1]");
    refused(t, 's', "a: { b: { c = 1; }; };\n", 1, "groups nest one level");
    refused(t, 's', "materials = ( { rho = 7800.0; Young = 1e9; } );\n", 1, "unknown field 'Young'");
    refused(t, 's', "materials = ( { rho = 7800.0; Young = 1e9; } );\n", 1,
            "nu, k_roll, gamma_roll, rolling_damping, work_of_adhesion, k_n, V0, overlap_tol, hamaker, vdw_delta0, "
            "vdw_cutoff)");
    refused(t, 's', "materials = ( { k_roll = -1.0; } );\n", 1, "materials[1].k_roll = -1");
    refused(t, 's', "materials = ( { fixed = 1; } );\n", 1, "materials[1].fixed: expected true or false");
    refused(t, 's', "materials = ( { fixed = true;\n fixed_velocity = [1.0, 2.0]; } );\n", 2,
            "materials[1].fixed_velocity: expected three finite numbers");
    refused(t, 's', "materials = (\n { rho = -1.0; } );\n", 1, "materials[1].rho = -1");
    refused(t, 's', "materials = [1.0, 2.0];\n", 1, "list of groups");
    refused(t, 's', "materials = ( { rho = 7800.0; } );\n\npairs = ( { between = [0, 2]; } );\n", 3,
            "pairs[0].between = [0, 2]");
    refused(t, 's', "pairs = ( { e_n = 0.5; } );\n", 1, "names the two materials");
    refused(t, 's', "pairs = ( { between = [0, 0]; mu_s = \"a\"; } );\n", 1, "pairs[0].mu_s: expected a finite number");
    refused(t, 's', "spawn_material = 1;\n", 1, "spawn_material = 1");
    refused(t, 's', "bond_tolerance = 0.01;\n", 1, "bond_kn = 0");
    refused(t, 's', "bond_kn = 1e3;\nbond_damping = -1.0;\n", 2, "bond_damping = -1");
    refused(t, 's', "pairs = ( { between = [0, 0];\n contact = 0; } );\n", 2, "pairs[0].contact: expected true or false");
    refused(t, 's', "pairs = ( { between = [0, 0]; touch = false; } );\n", 1, "(known: between, contact, e_n");
}

/* t_end and frame_interval fix the simulated time, not the steps: with E
 * (and so Eq. 49's dt) changed a hundredfold, the frames stay frame_interval
 * apart to within half a step, and the run ends at t_end to within half a
 * frame. */
static void durations_in_time(test_ctx *t)
{
    const char *path = write_text("times.cfg", "t_end = 0.5;\nframe_interval = 0.01;\n");
    const char *E[] = {"E=1e6", "E=1e7", "E=1e8"};
    for (int k = 0; k < 3; k++) {
        grains_scenario sc;
        grains_scenario_default(&sc);
        grains_error err = {0};
        grains_status s = grains_scenario_read(&sc, path, &err);
        if (s == GRAINS_OK)
            s = grains_scenario_set(&sc, E[k], &err);
        if (s == GRAINS_OK)
            s = grains_scenario_finish(&sc, &err);
        CHECK(t, s == GRAINS_OK, "t_end and frame_interval read (%s): %s", E[k], err.message);
        const grains_params *p = &sc.params;
        double dt = grains_params_default_dt(p), frame = (double)p->N_steps * dt;
        double end = (double)p->N_frames * frame;
        printf("  %s: dt = %.4g s, %ld frames of %ld steps, ends at %.6g s\n", E[k], dt, p->N_frames, p->N_steps, end);
        CHECK(t, fabs(frame - 0.01) <= dt / 2, "%s: frames %.6g s apart, 0.01 s to half a step", E[k], frame);
        CHECK(t, fabs(end - 0.5) <= frame / 2, "%s: the run ends at %.6g s, 0.5 s to half a frame", E[k], end);
    }
    refused(t, 's', "t_end = 0.5;\nN_frames = 3;\n", 1, "N_frames is given too");
    refused(t, 's', "N_steps = 10;\n\nframe_interval = 0.1;\n", 3, "N_steps is given too");
    refused(t, 's', "frame_interval = -0.1;\n", 1, "frame_interval = -0.1: must be > 0");
    refused(t, 's', "N_steps = 0;\nt_end = 1.0;\n", 2, "N_steps = 0");
    refused(t, 's', "dt = 1e-9;\nt_end = 1e9;\n", 2, "more than a run can count");
}

static void missing_file(test_ctx *t)
{
    grains_error err;
    grains_particle *q = NULL;
    size_t n;
    grains_mesh *m = NULL;
    CHECK(t, grains_csv_read("/nonexistent/in.csv", &q, &n, &err) == GRAINS_ERR_IO && strstr(err.message, "cannot read"),
          "missing CSV: %s", err.message);
    CHECK(t, grains_off_read("/nonexistent/m.off", NULL, 0, &m, &err) == GRAINS_ERR_IO, "missing OFF: %s", err.message);
    grains_scenario sc;
    grains_scenario_default(&sc);
    CHECK(t, grains_scenario_read(&sc, "/nonexistent/s.cfg", &err) == GRAINS_ERR_IO, "missing scenario: %s",
          err.message);
    CHECK(t, grains_output_dir("/proc/grains-cannot-exist", &err) == GRAINS_ERR_IO, "unwritable output: %s",
          err.message);
}

static void overrides(test_ctx *t)
{
    grains_scenario sc;
    grains_error err;
    grains_scenario_default(&sc);
    CHECK(t, grains_scenario_set(&sc, "mu_s=0.6", &err) == GRAINS_OK, "--set mu_s");
    CHECK(t, grains_scenario_set(&sc, "g=0,-9.81,0", &err) == GRAINS_OK, "--set g");
    CHECK(t, grains_scenario_set(&sc, "R_mesh=0.001,0.002", &err) == GRAINS_OK, "--set R_mesh");
    CHECK(t, grains_scenario_set(&sc, "seed=42", &err) == GRAINS_OK, "--set seed");
    /* strings and choices may carry the quotes of the file syntax */
    CHECK(t, grains_scenario_set(&sc, "output_dir=\"out dir\"", &err) == GRAINS_OK && strcmp(sc.output_dir, "out dir") == 0,
          "--set output_dir=\"...\" drops the quotes: '%s'", sc.output_dir);
    CHECK(t, grains_scenario_set(&sc, "periodic=\"xz\"", &err) == GRAINS_OK && sc.params.periodic == 5,
          "--set periodic=\"xz\" is axes x and z: %d", sc.params.periodic);
    CHECK(t, grains_scenario_set(&sc, "periodic=none", &err) == GRAINS_OK && sc.params.periodic == 0, "--set periodic=none");
    CHECK(t, grains_scenario_finish(&sc, &err) == GRAINS_OK, "finish");
    CHECK(t, sc.params.mu_t == 2 * 0.6 / 3, "mu_t follows 2 mu_s / 3 when not given: %g", sc.params.mu_t);
    CHECK(t, sc.params.g.y == -9.81 && sc.params.n_mesh_radii == 2 && sc.params.seed == 42, "vector, list, seed set");
    CHECK(t, grains_scenario_set(&sc, "mu_s=abc", &err) == GRAINS_ERR_PARSE, "--set refuses a non-number");
    CHECK(t, grains_scenario_set(&sc, "nosuchkey=1", &err) == GRAINS_ERR_ARG, "--set refuses unknown keys");
    grains_scenario_set(&sc, "e_n=1.5", &err);
    CHECK(t, grains_scenario_finish(&sc, &err) == GRAINS_ERR_RANGE && strcmp(err.file, "--set") == 0,
          "--set range error names --set: %s: %s", err.file, err.message);
}

/* A simulation of three particles and a bonds file `text`: the status,
 * the bonds read, and the error's line and message. */
static grains_status read_bonds(const char *text, size_t *n_bonds, grains_error *err)
{
    grains_params p;
    grains_params_default(&p);
    p.bond_kn = 1e3;
    grains_sim *sim = NULL;
    grains_status s = grains_sim_create(&sim, &p, err);
    for (int k = 0; s == GRAINS_OK && k < 3; k++) {
        grains_particle q = {{0.01 * k, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}, 0.005, 0, 0};
        s = grains_sim_add_particle(sim, &q, err);
    }
    if (s == GRAINS_OK)
        s = grains_bonds_read(write_text("bonds.csv", text), sim, err);
    *n_bonds = grains_sim_bond_count(sim);
    grains_sim_destroy(sim);
    return s;
}

/* Bonds files: ids checked against the particles, one line per bond, a
 * pair given twice (either way round) refused at its second line; errors
 * name the line. */
static void bonds_file(test_ctx *t)
{
    grains_error err = {0};
    size_t n = 0;
    CHECK(t, read_bonds("a,b\n# pairs\n0,1\n\n2,1\n", &n, &err) == GRAINS_OK && n == 2,
          "two bonds read (%zu): %s", n, err.message);
    grains_status twice = read_bonds("a,b\n# pairs\n0,1\n\n2,1\n1,0\n", &n, &err);
    CHECK(t, twice == GRAINS_ERR_PARSE && err.line == 6 && strstr(err.message, "listed again (first at line 3)"),
          "a pair listed twice refused at its second line: %s", err.message);
    const char *bad[4] = {"0,1\n", "a,b\n0,3\n", "a,b\n1,1\n", "a,b\n0,1,2\n"};
    const int line[4] = {1, 2, 2, 2};
    const char *what[4] = {"header 'a,b'", "each in [0, 3)", "two different", "each in [0, 3)"};
    for (int k = 0; k < 4; k++) {
        grains_status s = read_bonds(bad[k], &n, &err);
        CHECK(t, s == GRAINS_ERR_PARSE && err.line == line[k] && strstr(err.message, what[k]),
              "bonds file %d refused at line %d: %s", k, line[k], err.message);
    }
    CHECK(t, read_bonds("", &n, &err) == GRAINS_ERR_PARSE && strstr(err.message, "empty"), "empty bonds file: %s",
          err.message);
}

/* The memory a file's size is held against is what this process may use:
 * under a limit (ulimit -d, as a container's) smaller than the machine's,
 * the limit (a 3 GB frame under a 4 GB limit was held against the
 * machine's 25 GB; mutation: the limit not read fails). */
static void memory_limit(test_ctx *t)
{
    size_t machine = machine_bytes();
    struct rlimit was;
    if (machine < ((size_t)1 << 31) || getrlimit(RLIMIT_DATA, &was) != 0) {
        CHECK(t, machine > 0, "this machine's memory is known (%zu bytes)", machine);
        return;
    }
    struct rlimit half = {machine / 2, was.rlim_max};
    if (was.rlim_max != RLIM_INFINITY && was.rlim_max < half.rlim_cur)
        half.rlim_cur = was.rlim_max;
    int set = setrlimit(RLIMIT_DATA, &half) == 0;
    size_t limited = machine_bytes();
    setrlimit(RLIMIT_DATA, &was);
    CHECK(t, set && limited == (size_t)half.rlim_cur && machine_bytes() == machine,
          "under a data limit of %zu bytes the memory a process may use is the limit (%zu), else the machine's %zu",
          (size_t)half.rlim_cur, limited, machine);
}

/* A program built against another layout of grains_params (its header's
 * GRAINS_PARAMS_VERSION not the library's): the defaults write its version
 * and nothing more (its struct may be shorter), and every call that takes
 * the struct refuses it, saying to rebuild (mutation: the check left out of
 * grains_params_check fails the refusals). */
static void other_version(test_ctx *t)
{
    static grains_scenario sc, canary;
    memset(&sc, 0xA5, sizeof sc);
    memset(&canary, 0xA5, sizeof canary);
    grains_scenario_default_version(&sc, GRAINS_PARAMS_VERSION + 1);
    CHECK(t, sc.params.version == GRAINS_PARAMS_VERSION + 1 &&
                 memcmp((char *)&sc + sizeof(int), (char *)&canary + sizeof(int), sizeof sc - sizeof(int)) == 0,
          "the defaults of another version write the version alone");
    grains_params_derive(&sc.params);
    CHECK(t, memcmp((char *)&sc + sizeof(int), (char *)&canary + sizeof(int), sizeof sc - sizeof(int)) == 0,
          "derive leaves parameters of another version untouched");
    grains_error err;
    grains_sim *sim = NULL;
    CHECK(t, grains_sim_create(&sim, &sc.params, &err) == GRAINS_ERR_ARG && !sim && strstr(err.message, "rebuild"),
          "a simulation from parameters of another version refused: %s", err.message);
    CHECK(t, grains_scenario_set(&sc, "mu_s = 0.3", &err) == GRAINS_ERR_ARG && strstr(err.message, "version"),
          "a value set in a scenario of another version refused: %s", err.message);
    CHECK(t, grains_scenario_finish(&sc, &err) == GRAINS_ERR_ARG, "a scenario of another version not finished");
    grains_scenario_default(&sc);
    CHECK(t, sc.params.version == GRAINS_PARAMS_VERSION && grains_scenario_finish(&sc, &err) == GRAINS_OK,
          "this header's version is the library's: %s", err.message);
}

int main(void)
{
    test_ctx t = {0, 0};
    memory_limit(&t);
    if (!mkdtemp(dir))
        return 1;
    csv_round_trip(&t, 1);
    csv_round_trip(&t, 3);
    materials_scenario(&t);
    off_round_trip(&t);
    bad_csv(&t);
    csv_streamed(&t);
    csv_parts(&t);
    bad_off(&t);
    bad_scenario(&t);
    durations_in_time(&t);
    missing_file(&t);
    overrides(&t);
    bonds_file(&t);
    other_version(&t);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return test_report(&t, "test_io");
}
