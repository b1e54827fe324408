/* grains: the command. With no arguments it runs the TinyDEM default
 * simulation (Table 2 and the hourglass) into ./output. */
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out)
{
    fputs("usage: grains                      run the default simulation (TinyDEM hourglass) into output/\n"
          "       grains run [FILE] [options] run a scenario\n"
          "       grains run --resume DIR [--set N_frames=N | --set t_end=T] [--threads N] [--quiet]\n"
          "                                   continue the run in DIR from its checkpoint, bit for bit\n"
          "       grains check FILE [options] validate a scenario and print dt, contact time, steps, memory\n"
          "       grains bench [--n LIST] [--threads LIST] [--steps S] [--repeat R] [--settle T] [--save DIR]\n"
          "                    [--ratio LIST] [--csv FILE] [--plot FILE.png] [--peers FILE] [--set K=V]...\n"
          "                                   the dense-box benchmark (particle-steps per second); --ratio\n"
          "                                   adds a few grains r times larger; --plot: time against N\n"
          "       grains validate [--quick]    the papers' test cases, short: expected, measured, pass/fail\n"
          "                                   (--quick: without the 70 s triaxial test)\n"
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

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_run(0, argv + 1);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("grains %s\n", GRAINS_VERSION);
        return 0;
    }
    if (strcmp(cmd, "run") == 0)
        return cli_run(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0)
        return cli_check(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return cli_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "validate") == 0)
        return cli_validate(argc - 2, argv + 2);
    fprintf(stderr, "grains: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_INPUT;
}
