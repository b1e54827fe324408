/* Hashed cell grid: only occupied cells exist, so memory follows the number
 * of particles, not the volume they spread over (unlike TinyDEM's dense grid).
 *
 * Cells are grouped into blocks of B x B x B cells (B >= 2), and blocks are
 * coloured (bx mod 2, by mod 2, bz mod 2). Two blocks of one colour are a
 * whole block (>= 2 cells) apart, so what a block's pairs write (the block
 * and one cell around it) never meets another block of that colour: the 8
 * colours can each be processed in parallel, block by block, without races.
 * B grows with the number of cells (never with the thread count, which must
 * not change the order of the sums), so that each colour phase touches a
 * compact part of memory: ((B+2) / 2B)^3 of it rather than all of it.
 *
 * Cells are numbered in that order (colour, block, place in the block), and
 * the build says where each particle should move so that the particles of
 * a cell, and of a block, are contiguous in memory. The caller moves them;
 * cell k then holds particles [first[k], first[k+1]).
 *
 * Along a periodic axis the grid spans the box with a whole, even number of
 * blocks (2B m cells of edge L / (2B m) >= h), and cell coordinates wrap:
 * the blocks at both faces are neighbours of different colour. */
#ifndef GRAINS_NEIGHBOR_GRID_H
#define GRAINS_NEIGHBOR_GRID_H

#include <stdint.h>

#include "geometry/periodic.h"
#include "grains/error.h"
#include "math/vec3.h"
#include "util/bytes.h"

#define GRID_NONE UINT32_MAX
#define GRID_COLOURS 8

typedef struct {
    real h;              /* [L] smallest cell edge asked for */
    real edge[3];        /* [L] cell edge per axis: h, or larger along a periodic axis */
    vec3 origin;         /* lower corner of cell (0,0,0) */
    periodic_box box;
    int64_t cells[3];    /* along a periodic axis: cells per period */
    size_t n_particles;  /* particles binned */
    size_t n_cells, cap_cells;
    size_t n_cells_last; /* cells of the previous build: first guess of the next */
    uint64_t *key;       /* per cell: packed coordinates */
    uint32_t *first;     /* per cell, and one more: first particle (after the move) */
    uint32_t *slot;      /* hash table: cell index + 1, 0 = empty */
    size_t n_slots;
    int block;           /* B, cells per block edge */
    uint32_t colour_start[GRID_COLOURS + 1]; /* into block_start */
    uint32_t *block_start; /* per block: its first cell; one more at the end */
    size_t n_blocks, cap_blocks;
} grains_grid;

/* Bins `n` positions into cells of edge at least `h` and fills where[i],
 * the place particle i must move to (a permutation of 0..n-1). `box` gives
 * the periodic axes (positions already wrapped into it); a LIMIT error when
 * a period is shorter than 4 h. `ws` (may be NULL) is a workspace of
 * `ws_bytes` the build may overwrite for its sort; without enough of it the
 * build allocates its own for the duration. */
grains_status grid_build(grains_grid *g, const vec3 *x, size_t n, real h, const periodic_box *box, uint32_t *where,
                         void *ws, size_t ws_bytes, grains_error *err);
void grid_free(grains_grid *g);

/* The grid as built (checkpoints), and back: a grid that could have been
 * built for at most n_max particles in `box`, or an error (no file name). */
void grid_write_state(const grains_grid *g, bytes_out *o);
grains_status grid_read_state(grains_grid *g, bytes_in *in, const periodic_box *box, size_t n_max, grains_error *err);

/* Integer cell coordinates of x (may lie outside the binned region). */
void grid_coords(const grains_grid *g, vec3 x, int64_t c[3]);

/* Cell index at coordinates c (wrapped along periodic axes), or GRID_NONE
 * when no particle is there. */
uint32_t grid_find(const grains_grid *g, const int64_t c[3]);

#endif
