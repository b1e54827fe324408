/* The grains command: subcommands and the pieces they share. Only this
 * layer prints and chooses exit statuses: 0 done, 1 the run became
 * unstable, 2 bad input or usage. */
#ifndef GRAINS_CLI_H
#define GRAINS_CLI_H

#include <stdio.h>

#include "grains/error.h"
#include "grains/io.h"
#include "grains/ranks.h"
#include "grains/scenario.h"
#include "grains/sim.h"
#include "run/run.h"

enum { EXIT_UNSTABLE = 1, EXIT_INPUT = 2 };

/* The ranks this process runs among (src/cli/ranks.c): alone (size 1)
 * unless an MPI launcher started it. */
typedef struct {
    grains_ranks share;  /* for grains_sim_share */
    void *comm;          /* the MPI layer's, or NULL */
    size_t *counts;      /* per rank, for cli_ranks_failed */
} cli_ranks;

/* Starts MPI when a launcher started the process: 0, or an exit status
 * (a message said why). Ranks other than 0 print nothing from then on. */
int cli_ranks_start(int *argc, char ***argv, cli_ranks *rk);
void cli_ranks_stop(cli_ranks *rk);
/* Stops every rank now (a failure on one rank: rank 0's output). */
void cli_ranks_abort(const cli_ranks *rk, int status);
/* Whether any rank failed (`err` this rank's failure, or NULL): every
 * rank calls it at the same point, so that a failure on one rank alone
 * (memory) stops all of them there. Rank 0 prints one message: its own
 * when it failed too (the ranks read the same input), else the first
 * failed rank's, naming it. Alone: reports err. */
int cli_ranks_failed(const cli_ranks *rk, const grains_error *err);
/* A failure of this rank alone while the others may wait for it in an
 * exchange (a step's memory): it says why, naming itself, on the
 * terminal, and every rank stops with `status`. Alone: reports err and
 * returns status. */
int cli_ranks_fail(const cli_ranks *rk, const grains_error *err, int status);
/* The largest signal any rank caught (all ranks call it, after the same
 * step): from the step's own maximum when one carried it, else by a
 * reduction. */
int cli_ranks_caught(const cli_ranks *rk);

int cli_run(int argc, char **argv, const cli_ranks *rk);
int cli_check(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_render(int argc, char **argv);
int cli_fields(int argc, char **argv);
int cli_plot(int argc, char **argv);

/* A run's output folder (src/cli/frames.c): whether a regular file is at
 * path; how many particle frames (particlesNNNNNN.vtp from 0 on) it holds. */
int cli_file_exists(const char *path);
size_t cli_count_frames(const char *dir);
/* Before anything is read: whether command `cmd` can write `out` (a folder,
 * or where `is_file` a file's path): 0, or EXIT_INPUT with a message. Its
 * folder must be writable, or be creatable in one that is; where `in_run`
 * (a default inside the run folder: DIR/fields, DIR/render) `out` must not
 * be a symbolic link, which would send the outputs elsewhere. */
int cli_output_usable(const char *cmd, const char *out, int in_run, int is_file);

/* Prints "grains: file:line: message" to stderr. */
void cli_report(const grains_error *err);

/* The ranks a run shares a simulation among (grains_sim_share) as the
 * scenario asks; each holds its own particles alone when `own`. */
grains_ranks cli_share(const cli_ranks *rk, const grains_scenario *sc, int own);

/* Whether a run under these ranks deals the particles it starts with
 * among them: ranks that each hold their own alone (not rank_holds_all),
 * and no bonds file (bonds join particles every rank holds). */
int cli_deals(const cli_ranks *rk, const grains_scenario *sc);

/* After run_load dealt the particles: grains_sim_check_start, collective
 * (no rank gathers every particle); every rank returns the verdict
 * (cli_ranks_failed: rank 0 speaks). */
int cli_check_dealt(const cli_ranks *rk, const grains_scenario *sc, grains_sim *sim);

/* Warnings with figures before a run (src/cli/warnings.c), on stderr.
 * On ranks that hold their own particles alone, collective: every rank
 * calls it, and rank 0 alone has the figures (the others print nothing). */
void cli_warnings(const grains_scenario *sc, grains_sim *sim);
/* What the warnings read of the grains (src/cli/impact.c): the fastest,
 * the highest along -g, and the radii outside [R_min, R_max] (the first
 * of the farthest). Collective on ranks, as cli_warnings. */
typedef struct {
    double v_max, top;
    size_t outside;
    double worst;
} cli_grain_survey;
cli_grain_survey cli_survey(const grains_params *p, grains_sim *sim);
/* The speeds contacts can come at [L/T]: `grains`, grain on grain
 * (sqrt(v0^2 + 2 g fall), v0 the fastest grain given or spawned, fall
 * from the highest grain or spawn box to the lowest mesh point, and a
 * sheared box's `shear`, the speed of its images at the largest shear rate
 * of the scenario's and its stages'); `walls`, grain on mesh (that plus
 * `mesh`, the fastest point of a moving mesh). */
typedef struct {
    double grains, walls, v0, fall, mesh, shear;
} cli_impact;
cli_impact cli_impact_speed(const grains_scenario *sc, const grains_params *p, const grains_sim *sim,
                            const cli_grain_survey *gs);
/* Where the speeds come from, in words with units, into buf. */
const char *cli_impact_why(const cli_impact *im, char *buf, size_t size);
/* Hertz contact time of a head-on elastic impact at speed v:
 * t_c = 2.9432 delta_max / v, delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5). */
double cli_hertz_time(double E_eff, double R_eff, double m_eff, double v);

/* Progress line on stderr: simulated time, N, ETA. Silent unless enabled. */
typedef struct {
    int enabled;
    double start, last;
} progress;

void progress_init(progress *pg, int enabled);
void progress_update(progress *pg, double t, double t_end, size_t n);
void progress_done(progress *pg);

#endif