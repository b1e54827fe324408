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

/* Prints "grains: file:line: message" to stderr. */
void cli_report(const grains_error *err);

/* Options shared by run and check: [FILE] -o DIR --mesh OFF --particles CSV
 * --csv --threads N --quiet --set KEY=VALUE. The file is read first, then
 * the options in order; the scenario is finished and checked. */
typedef struct {
    int quiet;
} cli_flags;

grains_status cli_scenario(int argc, char **argv, grains_scenario *sc, cli_flags *flags, grains_error *err);

/* Builds a ready simulation from a finished scenario: mesh, particles,
 * checked (grains_sim_check_start). With `deal` (ranks that each hold
 * their own particles alone; NULL otherwise), the simulation is shared so
 * before its particles are added, dealt among the ranks
 * (grains_sim_add_dealt) and not checked yet: cli_check_dealt does that. */
grains_status cli_load(const grains_scenario *sc, const grains_ranks *deal, grains_sim **out, grains_error *err);
/* Its setting alone, for a checkpoint to fill: meshes and membranes, no
 * particles, bonds or friction test's sphere; shared among `share` (NULL:
 * not), so that ranks holding their own alone read their share of it. */
grains_status cli_load_setting(const grains_scenario *sc, const grains_ranks *share, grains_sim **out,
                               grains_error *err);

/* A row of the particles' file into the simulation `ctx` (dealt among
 * ranks that hold their own alone); an error names the row. */
grains_status cli_add_row(void *ctx, size_t row, const grains_particle *p, grains_error *err);

/* The particles' file read by the ranks `r`, each its part, into `sim`
 * (src/cli/deal.c); collective, its error every rank's. */
grains_status cli_load_part(const char *path, const grains_ranks *r, grains_sim *sim, grains_error *err);

/* The ranks a run shares a simulation among (grains_sim_share) as the
 * scenario asks; each holds its own particles alone when `own`. */
grains_ranks cli_share(const cli_ranks *rk, const grains_scenario *sc, int own);

/* Whether a run under these ranks deals the particles it starts with
 * among them: ranks that each hold their own alone (not rank_holds_all),
 * and no bonds file (bonds join particles every rank holds). */
int cli_deals(const cli_ranks *rk, const grains_scenario *sc);

/* After cli_load dealt the particles: grains_sim_check_start, collective
 * (no rank gathers every particle); every rank returns the verdict
 * (cli_ranks_failed: rank 0 speaks). */
int cli_check_dealt(const cli_ranks *rk, const grains_scenario *sc, grains_sim *sim);

/* DIR/NAME, a table a run appends rows to: new with its header
 * (resume_len 0), or cut back to resume_len bytes (a resumed run) and
 * appended to; never through a symlink (src/cli/tables.c). */
grains_status cli_table_open(FILE **f, const char *dir, const char *name, const char *header, long resume_len,
                             grains_error *err);
/* Bytes written to a table so far (0 for none). */
long cli_table_length(FILE *f);

/* A table's first `len` bytes and their CRC32 (zlib's), which a checkpoint
 * records: a resumed run goes on only from tables that hold those bytes. */
typedef struct {
    long len;
    uint32_t crc;
} cli_table_sum;

/* *sum extended over what the table holds now (the bytes past sum->len,
 * read back from the file: each byte once over a run). */
grains_status cli_table_sum_extend(FILE *f, const char *name, cli_table_sum *sum, grains_error *err);

/* Whether DIR/NAME (a regular file, not a symlink) begins with the bytes
 * of `sum`; an error naming it otherwise. Changes nothing. */
grains_status cli_table_verify(const char *dir, const char *name, cli_table_sum sum, grains_error *err);

/* Warnings with figures before a run (src/cli/warnings.c), on stderr.
 * On ranks that hold their own particles alone, collective: every rank
 * calls it, and rank 0 alone has the figures (the others print nothing). */
void cli_warnings(const grains_scenario *sc, grains_sim *sim);
/* Hertz contact time of a head-on elastic impact at speed v:
 * t_c = 2.9432 delta_max / v, delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5). */
double cli_hertz_time(double E_eff, double R_eff, double m_eff, double v);

/* triaxial.csv of the scenario's `triaxial` group (nothing without one). */
#define PI_CLI 3.14159265358979323846
typedef struct {
    FILE *f;
    double gap0;  /* [L] the platens' gap where their files put them */
    double h0;    /* [L] the gap at which loading began (until then: the latest gap) */
} triaxial_log;
grains_status triaxial_open(triaxial_log *t, const grains_scenario *sc, const grains_sim *sim, long resume_len,
                            grains_error *err);
grains_status triaxial_row(triaxial_log *t, const grains_scenario *sc, const grains_sim *sim, grains_error *err);
void triaxial_close(triaxial_log *t);

/* friction.csv of the scenario's `friction_test` group (nothing without one). */
typedef struct {
    FILE *f;
    size_t id;  /* the sphere: the last particle when the run starts (spawned ones come after) */
} friction_log;
grains_status friction_open(friction_log *l, const grains_scenario *sc, const grains_sim *sim, long resume_len,
                            grains_error *err);
grains_status friction_row(friction_log *l, const grains_scenario *sc, const grains_sim *sim, grains_error *err);
void friction_close(friction_log *l);

/* Progress line on stderr: simulated time, N, ETA. Silent unless enabled. */
typedef struct {
    int enabled;
    double start, last;
} progress;

void progress_init(progress *pg, int enabled);
void progress_update(progress *pg, double t, double t_end, size_t n);
void progress_done(progress *pg);
double wall_seconds(void);

#endif
