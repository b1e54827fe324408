/* A run steered from a program (the Python module, docs/python.md): the
 * scenario read as `grains run` reads its file and options, the simulation
 * built from it, and the run's own outputs (frames with their .pvd series,
 * thermo.csv and the other tables, checkpoints that `grains run --resume`
 * and grains_run_resume continue), written when the program asks. The
 * program steps it, reads and changes the simulation between steps
 * (grains/sim.h), and gets the bits `grains run` gets for the same steps.
 * One process: no ranks. */
#ifndef GRAINS_RUN_H
#define GRAINS_RUN_H

#include <stddef.h>

#include "grains/api.h"
#include "grains/error.h"
#include "grains/scenario.h"
#include "grains/sim.h"

GRAINS_API_BEGIN

typedef struct grains_run grains_run;

/* A new run of the scenario file `scenario` (NULL: the default simulation)
 * with n named values, each as the scenario file would give it (keys[k] =
 * "mu_s", values[k] = "0.4"; "threads", "output_dir", "csv" = "true" among
 * them: docs/scenario.md), as `grains run FILE --set KEY=VALUE ...` makes
 * it; paths from the current folder. Its first spawned grains are placed at
 * once when it starts empty, as `grains run` does for its frame 0. Nothing
 * is written until a frame or checkpoint is asked for. An error names the
 * value, or the scenario's file and line. */
grains_status grains_run_open(grains_run **out, const char *scenario, int n, const char *const *keys,
                              const char *const *values, grains_error *err);

/* The run whose checkpoint is at `path` (written by
 * grains_run_write_checkpoint or by `grains run`): built again from the
 * scenario and values it began with, read in the folder it began in
 * (which is the current one again on return), refused when any of its
 * input files changed since; its outputs go on where they stood when the
 * checkpoint was written. n named values may change its length ("N_frames",
 * or "t_end" where the run gives it) and its "threads": the rest would not
 * be the same run. */
grains_status grains_run_resume(grains_run **out, const char *path, int n, const char *const *keys,
                                const char *const *values, grains_error *err);

void grains_run_close(grains_run *run);

grains_sim *grains_run_sim(grains_run *run);
const grains_scenario *grains_run_scenario(const grains_run *run);
/* Its output folder and scenario file ("" for the default simulation), absolute; the name of
 * its probe k (NULL past the last). */
const char *grains_run_output_dir(const grains_run *run);
const char *grains_run_source(const grains_run *run);
const char *grains_run_probe_name(const grains_run *run, int k);

/* `n` steps (n >= 0); the last one records the contacts for the next frame
 * when the scenario writes them. On an error (GRAINS_ERR_UNSTABLE: the
 * state is the last good one) the steps before it stand. */
grains_status grains_run_advance(grains_run *run, long n, grains_error *err);
/* Whether each advance's last step records its contacts even when the
 * scenario writes none: what grains_cg_add_sim reads (the same bits as
 * without; that step costs the vector kernel). */
void grains_run_record_contacts(grains_run *run, int on);

/* The run to its end as `grains run` runs it (the same loop: stages, frames
 * every N_steps steps up to N_frames, checkpoints every checkpoint_every
 * steps, outputs opened at its first frame); a resumed run from where it
 * stood. Its next frame, the frames written so far k, comes at step
 * k N_steps, or at once where the run is past that step (advanced by
 * grains_run_advance). With catch_signals, SIGINT and SIGTERM (the caller's handlers
 * again on return) stop it at the end of a step with a checkpoint there:
 * GRAINS_ERR_STOPPED, its message naming the signal and the checkpoint. An
 * unstable step (GRAINS_ERR_UNSTABLE) leaves the last good state, which the
 * simulation still holds, in output_dir/particles_last_good.*. */
grains_status grains_run_to_end(grains_run *run, int catch_signals, grains_error *err);

/* A frame at this step, as `grains run` writes its frames: the particles'
 * files (numbered from 0 by the frames written), the series, a row of
 * thermo.csv and of the run's other tables. The first one opens the
 * outputs (the folder made, the tables begun). */
grains_status grains_run_write_frame(grains_run *run, grains_error *err);
size_t grains_run_frames(const grains_run *run);

/* The simulation and where the outputs stand, in `path` (NULL:
 * output_dir/checkpoint.grains), written whole or not at all. */
grains_status grains_run_write_checkpoint(grains_run *run, const char *path, grains_error *err);

GRAINS_API_END

#endif
