/* Mesh files: one geometry written as OFF, ASCII STL and binary STL is one
 * mesh (the same triangles, vertices and element order), so the three give
 * bit-identical runs; STL vertices that coincide are shared. Bad files -
 * truncated, NaN vertices, zero-area triangles, bad motion tables - are
 * refused with the file, the line (or triangle) and the rule. */
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "grains/io.h"
#include "support.h"

/* A tent of four triangles over the square [-0.1, 0.1]^2, apex at z = 0.02;
 * coordinates are multiples of 1/128, exact in binary32. */
static const float tent_v[5][3] = {
    {-0.125f, -0.125f, 0}, {0.125f, -0.125f, 0}, {0.125f, 0.125f, 0}, {-0.125f, 0.125f, 0}, {0, 0, 0.015625f}};
static const int tent_f[4][3] = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void write_off(const char *path)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "OFF\n5 4 0\n");
    for (int k = 0; k < 5; k++)
        fprintf(f, "%.9g %.9g %.9g\n", tent_v[k][0], tent_v[k][1], tent_v[k][2]);
    for (int k = 0; k < 4; k++)
        fprintf(f, "3 %d %d %d\n", tent_f[k][0], tent_f[k][1], tent_f[k][2]);
    fclose(f);
}

static void write_ascii_stl(const char *path)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "solid tent\n");
    for (int k = 0; k < 4; k++) {
        fprintf(f, "  facet normal 0 0 1\n    outer loop\n");
        for (int a = 0; a < 3; a++) {
            const float *v = tent_v[tent_f[k][a]];
            fprintf(f, "      vertex %.9g %.9g %.9g\n", v[0], v[1], v[2]);
        }
        fprintf(f, "    endloop\n  endfacet\n");
    }
    fprintf(f, "endsolid tent\n");
    fclose(f);
}

static void put_le32(FILE *f, uint32_t u)
{
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
    fwrite(b, 1, 4, f);
}

static void put_float(FILE *f, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    put_le32(f, u);
}

/* Binary STL of the tent; `cut` bytes short of complete, or with vertex 0 NaN. */
static void write_binary_stl(const char *path, long cut, int nan)
{
    FILE *f = fopen(path, "wb");
    char header[80] = "solid tent, but binary";
    fwrite(header, 1, 80, f);
    put_le32(f, 4);
    for (int k = 0; k < 4; k++) {
        for (int a = 0; a < 3; a++)
            put_float(f, a == 2 ? 1.0f : 0.0f);
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                put_float(f, nan && k == 0 && a == 0 ? NAN : tent_v[tent_f[k][a]][c]);
        fputc(0, f), fputc(0, f);
    }
    fclose(f);
    if (cut)
        truncate(path, 84 + 4 * 50 - cut);
}

static grains_mesh *read_mesh(const char *path, grains_error *err)
{
    const real R[1] = {0};
    grains_mesh *m = NULL;
    return grains_mesh_read(path, R, 1, &m, err) == GRAINS_OK ? m : NULL;
}

/* Three spheres dropped on the tent for 3000 steps: the last states. */
static void drop_on(const grains_mesh *m, grains_particle out[3])
{
    grains_params p = scene_params();
    p.g = (grains_vec3){0, 0, -9.81};
    p.R_min = p.R_max = 0.01;
    grains_sim *sim = scene(&p);
    grains_error err;
    grains_sim_add_mesh(sim, m, NULL, &err);
    for (int k = 0; k < 3; k++)
        add(sim, (grains_vec3){-0.05 + 0.04 * k, 0.01 * k, 0.05}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0},
            0.01);
    grains_sim_advance(sim, 3000, &err);
    for (int k = 0; k < 3; k++)
        out[k] = get(sim, (size_t)k);
    grains_sim_destroy(sim);
}

static void formats_agree(test_ctx *t, const char *dir)
{
    char off[512], ascii[512], binary[512];
    snprintf(off, sizeof off, "%s/tent.off", dir);
    snprintf(ascii, sizeof ascii, "%s/tent_ascii.stl", dir);
    snprintf(binary, sizeof binary, "%s/tent_binary.stl", dir);
    write_off(off);
    write_ascii_stl(ascii);
    write_binary_stl(binary, 0, 0);
    grains_error err;
    grains_mesh *m[3] = {read_mesh(off, &err), read_mesh(ascii, &err), read_mesh(binary, &err)};
    CHECK(t, m[0] && m[1] && m[2], "all three files read: %s", err.message);
    if (!m[0] || !m[1] || !m[2])
        return;
    CHECK(t, m[1]->n_vertices == 5 && m[2]->n_vertices == 5, "STL's 12 corners are 5 shared vertices (%zu, %zu)",
          m[1]->n_vertices, m[2]->n_vertices);
    grains_particle run[3][3];
    for (int k = 0; k < 3; k++)
        drop_on(m[k], run[k]);
    int same = 1;
    for (int i = 0; i < 3; i++)
        same &= same_particle(run[0][i], run[1][i]) && same_particle(run[0][i], run[2][i]);
    CHECK(t, same, "OFF, ASCII STL and binary STL give bit-identical runs");
    CHECK(t, run[0][0].x.z < 0.05 - 0.01, "the spheres fell onto the tent (z = %g)", run[0][0].x.z);
    for (int k = 0; k < 3; k++)
        grains_mesh_destroy(m[k]);
}

/* The file is refused, and the message names `want`. */
static void refused(test_ctx *t, const char *path, const char *want, const char *what)
{
    grains_error err;
    memset(&err, 0, sizeof err);
    grains_mesh *m = read_mesh(path, &err);
    char msg[2048];
    grains_error_format(&err, msg, sizeof msg);
    CHECK(t, !m && strstr(msg, want), "%s: refused with '%s' (got '%s')", what, want, m ? "accepted" : msg);
    grains_mesh_destroy(m);
}

static void bad_files(test_ctx *t, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cut.stl", dir);
    write_binary_stl(path, 20, 0);
    refused(t, path, "binary STL: its header says 4 triangles, which take 284 bytes, but the file has 264",
            "binary STL 20 bytes short");
    snprintf(path, sizeof path, "%s/nan.stl", dir);
    write_binary_stl(path, 0, 1);
    refused(t, path, "triangle 1: vertex 1 is not finite", "binary STL with a NaN vertex");
    snprintf(path, sizeof path, "%s/cut_ascii.stl", dir);
    write_text(path, "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n");
    refused(t, path, "cut_ascii.stl:5: expected 'vertex', the file ends (truncated?)", "ASCII STL cut in a facet");
    snprintf(path, sizeof path, "%s/noend.stl", dir);
    write_text(path, "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
                     "endfacet\n");
    refused(t, path, "expected 'facet' or 'endsolid', the file ends", "ASCII STL without endsolid");
    snprintf(path, sizeof path, "%s/flat.stl", dir);
    write_text(path, "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 2 0 0\nendloop\n"
                     "endfacet\nendsolid a\n");
    refused(t, path, "flat.stl:2: triangle 1: degenerate element", "zero-area triangle");
    snprintf(path, sizeof path, "%s/word.stl", dir);
    write_text(path, "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 nan\n");
    refused(t, path, "word.stl:4: expected a finite number, found 'nan'", "ASCII STL with a NaN vertex");
}

/* Motion tables: header, increasing times, five numbers a row. */
static void tables(test_ctx *t, const char *dir)
{
    char path[512];
    grains_motion_sample *rows = NULL;
    size_t n = 0;
    grains_error err;
    snprintf(path, sizeof path, "%s/table.csv", dir);
    write_text(path, "t,x,y,z,angle\n0,0,0,0,0\n# half a turn in 1 s\n1,0.1,0,0,3.14159\n");
    CHECK(t, grains_motion_table_read(path, &rows, &n, &err) == GRAINS_OK && n == 2 && rows[1].x.x == 0.1,
          "a good table reads (%zu rows)", n);
    free(rows);
    const char *bad[][2] = {{"t,x,y,z\n0,0,0,0\n", "expected the header t,x,y,z,angle"},
                            {"t,x,y,z,angle\n0,0,0,0,0\n0,1,0,0,0\n", "table.csv:3: time 0 does not increase"},
                            {"t,x,y,z,angle\n0,0,0,0\n", "table.csv:2: expected five finite numbers"},
                            {"t,x,y,z,angle\n", "no rows after the header"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_text(path, bad[k][0]);
        memset(&err, 0, sizeof err);
        grains_status s = grains_motion_table_read(path, &rows, &n, &err);
        char msg[2048];
        grains_error_format(&err, msg, sizeof msg);
        CHECK(t, s != GRAINS_OK && strstr(msg, bad[k][1]) && !rows, "bad table %zu: want '%s', got '%s'", k,
              bad[k][1], msg);
    }
}

int main(void)
{
    test_ctx t = {0, 0};
    char dir[] = "/tmp/grains_stl_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    formats_agree(&t, dir);
    bad_files(&t, dir);
    tables(&t, dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return test_report(&t, "test_stl");
}
