/* A run as `grains run` makes it, in the library: the scenario's options,
 * the simulation built from it, and the run's outputs (frames, tables,
 * checkpoints with the run's record). The command (src/cli/) drives it
 * among ranks; grains/run.h steers one from a program (the Python
 * module). */
#ifndef GRAINS_RUN_RUN_H
#define GRAINS_RUN_RUN_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "grains/error.h"
#include "grains/io.h"
#include "grains/ranks.h"
#include "grains/scenario.h"
#include "grains/sim.h"

/* Options shared by run and check: [FILE] -o DIR --mesh OFF --particles CSV
 * --csv --threads N --quiet --set KEY=VALUE. The file is read first, then
 * the options in order; the scenario is finished and checked. */
typedef struct {
    int quiet;
} run_flags;

grains_status run_scenario_args(int argc, char **argv, grains_scenario *sc, run_flags *flags, grains_error *err);
/* The same, for options given in the folder `base`: the scenario file and
 * every path (inputs, the output folder) taken from there and kept
 * absolute, whatever the current folder is now or later. */
grains_status run_scenario_args_from(const char *base, int argc, char **argv, grains_scenario *sc,
                                     run_flags *flags, grains_error *err);

/* Builds a ready simulation from a finished scenario: mesh, particles,
 * checked (grains_sim_check_start). With `deal` (ranks that each hold
 * their own particles alone; NULL otherwise), the simulation is shared so
 * before its particles are added, dealt among the ranks
 * (grains_sim_add_dealt) and not checked yet: the caller checks them (run_check_start) when every rank holds them. */
grains_status run_load(const grains_scenario *sc, const grains_ranks *deal, grains_sim **out, grains_error *err);
/* Its setting alone, for a checkpoint to fill: meshes and membranes, no
 * particles, bonds or friction test's sphere; shared among `share` (NULL:
 * not), so that ranks holding their own alone read their share of it. */
grains_status run_load_setting(const grains_scenario *sc, const grains_ranks *share, grains_sim **out,
                               grains_error *err);

/* A row of the particles' file into the simulation `ctx` (dealt among
 * ranks that hold their own alone); an error names the row. */
grains_status run_add_row(void *ctx, size_t row, const grains_particle *p, grains_error *err);

/* The particles' file read by the ranks `r`, each its part, into `sim`
 * (src/run/deal.c); collective, its error every rank's. */
grains_status run_load_part(const char *path, const grains_ranks *r, grains_sim *sim, grains_error *err);


/* DIR/NAME, a table a run appends rows to: new with its header
 * (resume_len 0), or cut back to resume_len bytes (a resumed run) and
 * appended to; never through a symlink (src/run/tables.c). */
grains_status run_table_open(FILE **f, const char *dir, const char *name, const char *header, long resume_len,
                             grains_error *err);
/* Bytes written to a table so far (0 for none). */
long run_table_length(FILE *f);

/* A table's first `len` bytes and their CRC32 (zlib's), which a checkpoint
 * records: a resumed run goes on only from tables that hold those bytes. */
typedef struct {
    long len;
    uint32_t crc;
} run_table_sum;

/* *sum extended over what the table holds now (the bytes past sum->len,
 * read back from the file: each byte once over a run). */
grains_status run_table_sum_extend(FILE *f, const char *name, run_table_sum *sum, grains_error *err);

/* Whether DIR/NAME (a regular file, not a symlink) begins with the bytes
 * of `sum`; an error naming it otherwise. Changes nothing. */
grains_status run_table_verify(const char *dir, const char *name, run_table_sum sum, grains_error *err);

/* triaxial.csv of the scenario's `triaxial` group (nothing without one). */
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

/* Each sink can remove a grain: under gravity, with meshes that do not move, none lies wholly
 * above all that the grains start from or can rise to (src/run/sink_reach.c); an error at the
 * scenario's line of `sinks`. */
grains_status run_check_sinks(const grains_scenario *sc, const grains_sim *sim, grains_error *err);

/* grains_sim_check_start, its error at the particles' file when it gave them. */
grains_status run_check_start(const grains_scenario *sc, const grains_sim *sim, grains_error *err);

/* The tables a run appends a row to per frame. */
enum { TABLE_THERMO, TABLE_WALLS, TABLE_TRIAXIAL, TABLE_FRICTION, TABLE_SINKS, TABLE_PROBES, TABLE_BOX, RUN_TABLES };

/* A run's record in its checkpoint: how to build it again, and where its
 * outputs stood (src/run/record.c). */
typedef struct {
    char cwd[GRAINS_PATH_MAX];  /* where it was started: its paths are relative to it */
    int argc;
    char **argv;                /* its options after `run`, as given */
    uint32_t inputs_crc;        /* of the scenario file and every file it reads */
    size_t n_frames;            /* frames written */
    double *times;              /* their times, for the .pvd series */
    run_table_sum table[RUN_TABLES]; /* each table's bytes written (0: none) and their CRC */
    double triaxial_h0;
    size_t friction_id;
    long mesh_from;             /* the first frame of the mesh series (meshNNNNNN.vtp; those before
                                 * show mesh.vtp), or -1: the meshes never moved, mesh.vtp alone */
    int stage;                  /* the stage it is in (n_stages: after the last; src/run/stages.c) */
    double stage_began;         /* [T] when that stage began */
    long stage_step;            /* and at which step */
} run_record;

/* A run's outputs (src/run/outputs.c). */
typedef struct {
    const grains_scenario *sc;
    char **files;      /* frame file names for the .pvd */
    char **mesh_files; /* mesh frames, when a mesh moves */
    char **membrane_files; /* membrane frames, with membranes */
    char **contact_files; /* contact frames, with contacts = true */
    double *times;
    size_t n_frames;
    size_t cap;        /* room in those arrays */
    FILE *thermo;
    FILE *walls;       /* walls.csv, with meshes */
    FILE *sinks;       /* sinks.csv, with sinks or remove_lost */
    FILE *probes;      /* probes.csv, with probes */
    FILE *box;         /* box.csv, with a box that moves (shear_rate, box_pressure) */
    int tags[GRAINS_MAX_SPAWNS + GRAINS_MAX_TAG_RULES]; /* the run's declared tags, sorted (thermo's
                                                         * removed counts by tag: two or more) */
    int n_tags;
    run_table_sum sums[RUN_TABLES]; /* each table's bytes and CRC at the last checkpoint */
    triaxial_log triaxial;
    friction_log friction;
    int meshes_move;
    int quiet;
    run_record *record; /* the run's command, written with each checkpoint */
    int rank;          /* this process's among the ranks sharing the run: rank 0 writes */
    double output_seconds; /* [s] spent writing frames and checkpoints (gathers included) */
} run_output;

/* A run's stages (src/run/stages.c). At its start: stage 0's changes (a
 * new run), or those of every stage up to the record's (a resumed one, before
 * its checkpoint's state is read). Before each step: whether the stage
 * ended, and the next one's changes (*began then); an error for a settled
 * stage past its max_time. Every rank alike. */
grains_status run_stages_start(const grains_scenario *sc, run_record *r, grains_sim *sim, int resumed,
                               grains_error *err);
grains_status run_stages_step(const grains_scenario *sc, run_record *r, grains_sim *sim, int *began,
                              grains_error *err);

/* The run loop (src/run/loop.c), the one `grains run` and a program's run
 * step through. The caller's part (NULL: none): its stop question after each
 * step and frame (a signal's number, or 0; among ranks, agreed by them),
 * what it shows after each step, and a stage that begins. */
typedef struct {
    int (*caught)(void *ctx);
    void (*stepped)(void *ctx, const grains_sim *sim);
    void (*stage_began)(void *ctx, int stage, double t);
    void *ctx;
} run_driver;

/* Why the loop stopped. */
typedef enum {
    RUN_ENDED,           /* its last frame written */
    RUN_INTERRUPTED,     /* the stop question's signal at a step's end: a checkpoint there (err: its
                          * failure, or GRAINS_OK) */
    RUN_STOPPED_IN_STEP, /* the simulation's stop question within a step (GRAINS_ERR_STOPPED): no step's
                          * state, the last checkpoint stays */
    RUN_STEP_FAILED,     /* the step's error (err): the state is the last good one */
    RUN_STAGE_FAILED,    /* a settled stage past its max_time, or a stage's change refused (err) */
    RUN_OUTPUT_FAILED,   /* a frame or checkpoint not written (err) */
    RUN_START_FAILED     /* an empty run's first spawns (err) */
} run_stop;

/* One step: the stage's end and the next one's start, the contacts
 * recorded when `contacts`, the step; GRAINS_OK, or the error with *stop
 * saying whose. */
grains_status run_step(run_output *o, grains_sim *sim, const run_driver *d, int contacts, run_stop *stop,
                       grains_error *err);
/* Frames from o->n_frames to N_frames, the steps between them,
 * checkpoints every checkpoint_every steps; why it stopped, the signal in
 * *signal. */
run_stop run_loop(run_output *o, grains_sim *sim, const run_driver *d, int *signal, grains_error *err);
/* SIGINT and SIGTERM noted instead of ending the process
 * (src/run/signals.c), from run_signals_catch (the handlers before it kept in
 * *saved, unless NULL) to run_signals_restore. */
typedef struct {
    struct sigaction interrupt, terminate;
} run_signals;
void run_signals_catch(run_signals *saved);
void run_signals_restore(const run_signals *saved);
/* The signal caught since run_signals_catch, or 0. */
int run_signals_caught(void);
/* The same, as the question a library's long loops ask (grains_sim_ask_stop,
 * grains_cg_ask_stop). */
int run_signals_asked(void *ctx);

/* After a step failed with `why`: an unstable step's last good state (the
 * state is still that) as the frame "_last_good", unless a stop question
 * stopped the run; GRAINS_OK or the write's error. */
grains_status run_keep_last_good(run_output *o, grains_sim *sim, const grains_error *why, grains_error *err);

/* Steps between checkpoints (0: none): the scenario's, or every frame's. */
long run_checkpoint_every(const grains_scenario *sc, const grains_params *p);

/* Whether a mesh of the run moves now (src/run/outputs.c). */
int run_meshes_move(const grains_sim *sim);

/* Opens the outputs of a new run (record->n_frames == 0) or of one resumed
 * from `record`: the tables cut back to their length at the checkpoint
 * once every one of them is known to hold the bytes the checkpoint
 * recorded (else an error, and no file changed), the frame series as they
 * were. */
grains_status run_open_outputs(run_output *o, const grains_sim *sim, grains_error *err);
void run_close_outputs(run_output *o);

/* probes.csv (src/run/probes_table.c): opened as the other tables (with
 * probes), and at each frame a row per probe, tag and size class, after
 * each probe's total ("all"). */
grains_status run_probes_open(run_output *o, long resume_len, grains_error *err);
grains_status run_probes_write(run_output *o, const grains_sim *sim, grains_error *err);

/* box.csv (src/run/box_table.c): opened with a box that moves (shear_rate
 * or box_pressure, at the start or set by a stage), a row per frame. */
grains_status run_box_open(run_output *o, long resume_len, grains_error *err);
grains_status run_box_write(run_output *o, grains_sim *sim, grains_error *err);

/* A frame: the particles' files labelled `label` (frame n_frames as
 * %06zu when NULL), the series' .pvd files, a row of every table. Every
 * rank calls it: rank 0 writes what the others send. */
grains_status run_write_frame(run_output *o, grains_sim *sim, const char *label, grains_error *err);

/* The simulation and where the outputs stand, in `path` (NULL:
 * output_dir/checkpoint.grains). Every rank calls it. */
grains_status run_write_checkpoint(run_output *o, grains_sim *sim, const char *path, grains_error *err);

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

/* What --resume may change: the frames (only more of them), the threads
 * (the results are the same for any), the progress lines. */
typedef struct {
    const char *dir;
    const char *extra[8];  /* options added after the run's own */
    int n_extra;
    int quiet;
} run_resume_options;

/* A program's run (grains_run_open, grains_run_resume: the scenario's file
 * or NULL, n keys and their values) as a command line's words after `grains
 * run` (after `--resume DIR` with `resume`), which a run's record keeps: a
 * NULL-ended list (*argc words) to free with run_words_free (src/run/named.c). */
grains_status run_named_words(const char *scenario, int n, const char *const *keys, const char *const *values,
                              int resume, char ***out, int *argc, grains_error *err);
void run_words_free(char **words);

/* The words of `grains run --resume DIR ...` (DIR, --set N_frames=N or
 * t_end=T, --threads N, --quiet); an error names a word it refuses. */
grains_status run_resume_parse(int argc, char **argv, run_resume_options *ro, grains_error *err);

/* The run's recorded options, then the resume's (malloc'd; the strings are
 * theirs); NULL when out of memory. */
char **run_resume_args(const run_record *r, const run_resume_options *ro, int quiet, int *argc);

/* The scenario again, its paths from the folder the run began in (the
 * current folder is not changed), writing to `out` (NULL: where it says); refused when an input changed
 * since (checked where `checks`: rank 0 alone reads the inputs through,
 * the particles' file too, which the checkpoint replaces). */
grains_status run_rebuild_scenario(const run_record *r, char **argv, int argc, const char *out, int checks,
                                   grains_scenario *sc, run_flags *fl, grains_error *err);

/* An error met before the state is read, or a run with no state left to
 * read, may come of a damaged record (grains_checkpoint_peek_app): the
 * whole file's CRC, checked now, names the damage where there is any. */
grains_status run_checked_record(const char *path, grains_status s, grains_error *err);

/* The temporaries (NAME.grains-partial-XXXXXX) a killed run left in its output folder. */
void run_remove_stale_temporaries(const char *dir);

#endif
