/* Checkpoints: a simulation's whole state in one file, so that a run
 * resumed from it takes the same steps, bit for bit, as the run that was
 * never stopped (any thread count). The file (docs/checkpoints.md):
 *
 *   "GRAINSCK", format version (u32), 0x01020304 (u32: the byte order,
 *   always little-endian), sizeof(real) (u32), the writing program's
 *   version (u32 length, bytes), the application's bytes (u64 length,
 *   bytes), the simulation's state, CRC-32 of everything before it (u32).
 *
 * A file from another format or program version, a truncated or changed
 * one (its CRC), or one whose counts or indices do not fit the simulation
 * it is read into, is refused with the reason and the file named. */
#ifndef GRAINS_CHECKPOINT_H
#define GRAINS_CHECKPOINT_H

#include <stddef.h>

#include "grains/api.h"
#include "grains/error.h"
#include "grains/sim.h"

GRAINS_API_BEGIN

/* The format: each change of what a checkpoint holds takes the next number,
 * so that a build reads only what it knows (9: the sums of a box's samples
 * since box.csv's last row; 8: a box's height and its stress sample; 7: a sheared box's offset; 6: a
 * servo's travel across its axis; 5: the lost grains kept apart, the strays, and the parameters a run
 * may change; 4 held neither). */
#define GRAINS_CHECKPOINT_FORMAT 9

/* Writes `path` in full or not at all: a temporary of an unpredictable
 * name beside it, flushed to the disk, then renamed over it. `app` holds
 * `app_bytes` of the caller's own (may be NULL when 0). Shared among ranks
 * (grains_sim_share), every rank calls it between steps (collective) and
 * rank 0 writes the file, the same as one process's: ranks that hold
 * every particle make rank 0's copy whole first (grains_sim_gather), ranks
 * that hold their own alone send theirs a window at a time as rank 0
 * writes, so that no rank holds every particle; an error on rank 0 alone
 * (path and app are read there). */
grains_status grains_checkpoint_write(const char *path, grains_sim *sim, const void *app, size_t app_bytes,
                                      grains_error *err);

/* The caller's bytes of the checkpoint at `path` (malloc'd into *app),
 * after checking the whole file's header and CRC. */
grains_status grains_checkpoint_read_app(const char *path, void **app, size_t *app_bytes, grains_error *err);

/* The caller's bytes as grains_checkpoint_read_app gives them, after
 * checking the header alone: the CRC, which covers them, is checked when
 * the state is read (grains_checkpoint_read_sim), so that a caller that
 * reads both passes through the file once. Until then they may be
 * damaged: a caller that stops before reading the state (an error of its
 * own, or nothing left to run) checks them with
 * grains_checkpoint_read_app. */
grains_status grains_checkpoint_peek_app(const char *path, void **app, size_t *app_bytes, grains_error *err);

/* The state of the checkpoint at `path` into `sim`, built from the same
 * scenario as the run that wrote it (meshes, membranes, materials,
 * integrator, dt; its particles are replaced), the whole file's CRC
 * checked as it is read (a file whose state does not read is reported by
 * its CRC where that does not match: damaged or truncated). Ranks that
 * hold their own particles alone and share before the read (the command
 * line) each read their share, and check a slice of the file. On failure
 * `sim` is left half restored: destroy it. */
grains_status grains_checkpoint_read_sim(const char *path, grains_sim *sim, grains_error *err);

GRAINS_API_END

#endif
