/* grains run and grains run --resume: the outputs of a run, and what its
 * checkpoints keep beside the simulation's state (src/cli/run.c,
 * src/cli/resume.c, docs/checkpoints.md). */
#ifndef GRAINS_CLI_RUN_H
#define GRAINS_CLI_RUN_H

#include <stdint.h>

#include "cli/cli.h"

/* The tables a run appends a row to per frame. */
enum { TABLE_THERMO, TABLE_WALLS, TABLE_TRIAXIAL, TABLE_FRICTION, RUN_TABLES };

/* A run's record in its checkpoint: how to build it again, and where its
 * outputs stood. */
typedef struct {
    char cwd[GRAINS_PATH_MAX];  /* where it was started: its paths are relative to it */
    int argc;
    char **argv;                /* its options after `run`, as given */
    uint32_t inputs_crc;        /* of the scenario file and every file it reads */
    size_t n_frames;            /* frames written */
    double *times;              /* their times, for the .pvd series */
    cli_table_sum table[RUN_TABLES]; /* each table's bytes written (0: none) and their CRC */
    double triaxial_h0;
    size_t friction_id;
} run_record;

typedef struct {
    const grains_scenario *sc;
    char **files;      /* frame file names for the .pvd */
    char **mesh_files; /* mesh frames, when a mesh moves */
    char **membrane_files; /* membrane frames, with membranes */
    char **contact_files; /* contact frames, with contacts = true */
    double *times;
    size_t n_frames;
    FILE *thermo;
    FILE *walls;       /* walls.csv, with meshes */
    cli_table_sum sums[RUN_TABLES]; /* each table's bytes and CRC at the last checkpoint */
    triaxial_log triaxial;
    friction_log friction;
    int meshes_move;
    int quiet;
    run_record *record; /* the run's command, written with each checkpoint */
    const cli_ranks *rk; /* the ranks it runs among: rank 0 writes */
    int shared;        /* shared among them already (a resumed run: before its read) */
    double output_seconds; /* [s] spent writing frames and checkpoints (gathers included) */
} run_output;

/* Opens the outputs of a new run (record->n_frames == 0) or of one resumed
 * from `record`: the tables cut back to their length at the checkpoint
 * once every one of them is known to hold the bytes the checkpoint
 * recorded (else an error, and no file changed), the frame series as they
 * were. */
grains_status run_open_outputs(run_output *o, const grains_sim *sim, grains_error *err);
void run_close_outputs(run_output *o);

/* Steps to the end, writing frames and checkpoints; the exit status. */
int run_frames(grains_sim *sim, run_output *o);

/* Opens the outputs, runs, closes them and destroys sim: the exit status. */
int run_with(grains_sim *sim, run_output *o);

/* What the run says at its start, and at its end after `steps` steps in
 * `seconds` (src/cli/banner.c); nothing with --quiet. */
void banner_start(const run_output *o, const grains_sim *sim);
void banner_end(const run_output *o, const grains_sim *sim, long steps, double seconds);

/* grains run --resume DIR [--set N_frames=N] [--threads N] [--quiet] (src/cli/resume.c). */
int cli_resume(int argc, char **argv, const cli_ranks *rk);

/* Whether the command line fits a record (as many arguments, as long, as
 * run_record_decode reads back); checked before a run writes anything. */
grains_status run_record_check(int argc, char **argv, grains_error *err);

/* The record as bytes (malloc'd) for the checkpoint, and back (checked). */
grains_status run_record_encode(const run_record *r, void **bytes, size_t *n, grains_error *err);
grains_status run_record_decode(run_record *r, const void *bytes, size_t n, const char *path, grains_error *err);
void run_record_free(run_record *r);

/* CRC-32 of the scenario file and of every file it names (meshes, motion
 * tables, membranes, particles, bonds). */
grains_status run_inputs_crc(const grains_scenario *sc, uint32_t *crc, grains_error *err);

/* SIGINT and SIGTERM noted instead of ending the process (src/cli/signals.c). */
void signals_catch(void);
/* The signal caught since signals_catch, or 0. */
int signals_caught(void);

#endif
