/* grains: the command. With no arguments it runs the TinyDEM default
 * simulation (Table 2 and the hourglass) into ./output. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static void usage(FILE *out)
{
    fputs("usage: grains                      run the default simulation (TinyDEM hourglass) into output/\n"
          "       grains [MESH [CSV [OUTPUT]]] as ./tinydem: mesh (OFF or STL), initial particles, output folder;\n"
          "                                   \"\" skips one; CSV and VTK frames\n"
          "       grains run [FILE] [options] run a scenario\n"
          "       grains run --resume DIR [--set N_frames=N | --set t_end=T] [--threads N] [--quiet]\n"
          "                                   continue the run in DIR from its checkpoint, bit for bit\n"
          "       grains check FILE [options] validate a scenario and print dt, contact time, steps, memory\n"
          "       grains bench [--n LIST] [--threads LIST] [--steps S] [--repeat R] [--settle T] [--save DIR]\n"
          "                    [--ratio LIST] [--csv FILE] [--plot FILE.png] [--peers FILE] [--set K=V]...\n"
          "                                   the dense-box benchmark (particle-steps per second), settled\n"
          "                                   until still (at most --settle T seconds, default 10); --ratio\n"
          "                                   adds a few grains r times larger; --plot: time against N\n"
          "       grains render DIR [-o OUT] [--color FIELD] [--view front|side|top|iso] [--width PX]\n"
          "                    [--range LO,HI] [--every K] [--frame K] [--fit particles|meshes]\n"
          "                    [--box X0,Y0,Z0,X1,Y1,Z1] [--clip PX,PY,PZ,NX,NY,NZ] [--slice FIELD]\n"
          "                    [--slice-cells N] [--slice-width W] [--slice-range LO,HI] [--log]\n"
          "                    [--no-mesh] [--no-movie]\n"
          "                                   a PNG per frame of the run in DIR (default OUT: DIR/render),\n"
          "                                   named by the run's frame numbers; --clip hides what lies beyond\n"
          "                                   the plane; --slice draws a coarse-grained field behind the grains;\n"
          "                                   thermo.png (--log: energies on log axes), and movie.mp4 when\n"
          "                                   ffmpeg is on the PATH\n"
          "       grains fields DIR [-o OUT] [--frames FIRST[:LAST]] [--width W] [--kernel gaussian|lucy] [--cell H]\n"
          "                    [--average AXES] [--box X0,Y0,Z0,X1,Y1,Z1] [--axes AX,AY,AZ,BX,BY,BZ]\n"
          "                    [--periodic AXES] [--rho RHO] [--no-contacts]\n"
          "                                   coarse-grained density, velocity, stress, ... of the run in DIR,\n"
          "                                   averaged over its frames, with their standard errors: OUT/fields.vti\n"
          "                                   and OUT/fields.csv (default OUT: DIR/fields; docs/analysis.md)\n"
          "       grains plot DIR [--profile [--y COLUMN,...]] [-o PNG]\n"
          "                                   DIR/probes.csv drawn (DIR/probes.png), or with --profile the profile\n"
          "                                   of grains fields (DIR/fields/profile.png) with its standard errors\n"
          "       grains validate [--quick]    the papers' test cases, short: expected, measured, pass/fail\n"
          "                                   (--quick: without the triaxial and friction tests)\n"
          "       grains --help | --version\n"
          "\n"
          "options of run and check:\n"
          "  -o DIR             output directory (default output)\n"
          "  --mesh FILE        OFF or STL mesh file; 'none' for no mesh (default: the built-in hourglass\n"
          "                     when no scenario file is given)\n"
          "  --particles CSV    initial particles in TinyDEM CSV format\n"
          "  --csv              also write TinyDEM CSV frames particlesNNNNNN.csv\n"
          "  --threads N        OpenMP threads (results are identical for any N)\n"
          "  --quiet            no progress line, no per-frame lines\n"
          "  --set KEY=VALUE    override a key (vectors and lists as comma-separated numbers)\n"
          "\n"
          "scenario keys (docs/scenario.md):\n", out);
    grains_scenario_list_keys(out);
    fputs("\nexit status: 0 done, 1 the run became unstable (validate: a case failed), 2 bad input or usage,\n"
          "130/143 stopped by SIGINT/SIGTERM after writing a checkpoint (grains run --resume DIR continues)\n", out);
}

/* Whether `word` is one of TinyDEM's positional arguments (`./tinydem
 * mesh.off input.csv output`, TinyDEM Section 6) rather than a command:
 * empty (TinyDEM's "skip this one"), or the name of a file or folder. */
static int tinydem_argument(const char *word)
{
    if (word[0] == '\0')
        return 1;
    size_t n = strlen(word);
    static const char *ends[] = {".off", ".OFF", ".stl", ".STL", ".csv", ".CSV"};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++)
        if (n > 4 && strcmp(word + n - 4, ends[k]) == 0)
            return 1;
    return strchr(word, '/') != NULL || access(word, F_OK) == 0;
}

/* grains MESH CSV OUTPUT as ./tinydem runs: each argument optional, ""
 * skips one; the frames as TinyDEM CSV (and VTK). Options of run may
 * follow. */
static int tinydem_run(int argc, char **argv, const cli_ranks *rk)
{
    int n_pos = 0;
    while (n_pos < argc && argv[n_pos][0] != '-')
        n_pos++;
    if (n_pos > 3) {
        fprintf(stderr, "grains: as TinyDEM, grains takes at most three arguments, mesh.off input.csv output "
                        "(\"\" skips one), then options of grains run; '%s' is a fourth\n", argv[3]);
        return EXIT_INPUT;
    }
    static const char *flags[] = {"--mesh", "--particles", "-o"};
    char **args = calloc(2 * (size_t)argc + 1, sizeof *args);
    if (!args)
        return EXIT_INPUT;
    int n = 0;
    for (int k = 0; k < argc; k++) {
        if (k < n_pos && !argv[k][0])
            continue;
        if (k < n_pos)
            args[n++] = (char *)flags[k];
        args[n++] = argv[k];
    }
    args[n++] = "--csv";
    int status = cli_run(n, args, rk);
    free(args);
    return status;
}

static const char *const commands[] = {"run", "check", "bench", "render", "fields", "plot", "validate"};

static int is_command(const char *word)
{
    for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
        if (strcmp(word, commands[k]) == 0)
            return 1;
    return 0;
}

/* Options before any command (`grains --threads 1`): those of the default
 * run, as `grains` alone is the default run; options before a command word
 * are put after it for the user to retype. */
static int options_first(int argc, char **argv, const cli_ranks *rk)
{
    for (int k = 2; k < argc; k++)
        if (is_command(argv[k])) {
            fprintf(stderr, "grains: options come after the command: grains %s ... %s (grains --help lists them)\n",
                    argv[k], argv[1]);
            return EXIT_INPUT;
        }
    return cli_run(argc - 1, argv + 1, rk);
}

/* The command named by argv[1]. */
static int command(int argc, char **argv, const cli_ranks *rk)
{
    if (argc < 2)
        return cli_run(0, argv + 1, rk);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("grains %s (hot loops: %s)\n", GRAINS_VERSION, grains_kernels_isa());
        return 0;
    }
    if (strcmp(cmd, "run") == 0)
        return cli_run(argc - 2, argv + 2, rk);
    if (strcmp(cmd, "check") == 0)
        return cli_check(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return cli_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "render") == 0)
        return cli_render(argc - 2, argv + 2);
    if (strcmp(cmd, "fields") == 0)
        return cli_fields(argc - 2, argv + 2);
    if (strcmp(cmd, "plot") == 0)
        return cli_plot(argc - 2, argv + 2);
    if (strcmp(cmd, "validate") == 0)
        return cli_validate(argc - 2, argv + 2);
    if (tinydem_argument(cmd))
        return tinydem_run(argc - 1, argv + 1, rk);
    if (cmd[0] == '-')
        return options_first(argc, argv, rk);
    fprintf(stderr, "grains: unknown command '%s': the commands are run, check, bench, render, fields, plot and validate, or a "
                    "mesh file as TinyDEM's first argument (grains --help lists every command and option)\n", cmd);
    return EXIT_INPUT;
}

int main(int argc, char **argv)
{
    cli_ranks rk;
    int status = cli_ranks_start(&argc, &argv, &rk);
    if (status == 0)
        status = command(argc, argv, &rk);
    cli_ranks_stop(&rk);
    return status;
}
