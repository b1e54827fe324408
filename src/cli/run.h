/* grains run and grains run --resume: a run's steps to its end among the
 * ranks, its outputs (src/run/) written as it goes (src/cli/run.c,
 * src/cli/resume.c, docs/checkpoints.md). */
#ifndef GRAINS_CLI_RUN_H
#define GRAINS_CLI_RUN_H

#include "cli/cli.h"

/* A run the command drives: its outputs, and the ranks it runs among. */
typedef struct {
    run_output out;
    const cli_ranks *rk; /* the ranks it runs among: rank 0 writes */
    int shared;          /* shared among them already (a resumed run: before its read) */
} run_job;

/* Steps to the end, writing frames and checkpoints; the exit status. */
int run_frames(grains_sim *sim, run_job *j);

/* Opens the outputs, runs, closes them and destroys sim: the exit status. */
int run_with(grains_sim *sim, run_job *j);

/* What the run says at its start, and at its end after `steps` steps in
 * `seconds` (src/cli/banner.c); nothing with --quiet. */
void banner_start(const run_output *o, const grains_sim *sim);
void banner_end(const run_job *j, const grains_sim *sim, long steps, double seconds);

/* grains run --resume DIR [--set N_frames=N] [--threads N] [--quiet] (src/cli/resume.c). */
int cli_resume(int argc, char **argv, const cli_ranks *rk);

#endif
