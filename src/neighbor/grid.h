/* Hashed cell grids, one level per size class: only occupied cells exist,
 * so memory follows the number of particles, not the volume they spread over
 * (unlike TinyDEM's dense grid).
 *
 * Size classes (a hierarchical grid, Ogarko & Luding 2012). Radii are
 * sorted into classes by doubling from the smallest, [R_s, 2 R_s),
 * [2 R_s, 4 R_s), ...; each occupied class is a level with cells of its own,
 * of edge 2 R_top + pad (R_top its largest radius). Level 0 holds the
 * largest class. A particle is listed with the particles of its own level
 * in the 27 cells around it, and with those of every smaller level in the
 * cells of that level its reach covers: each pair is found once, from the
 * larger particle's side. Small particles thus search among cells of their
 * own size however large the largest particle is.
 *
 * Cells are grouped into blocks of B x B x B cells (B >= 2) of their level,
 * and blocks are coloured (bx mod 2, by mod 2, bz mod 2). A pair is found
 * from a particle of level l, and its partner lies within 2 R_top(l) + pad,
 * one cell of level l: what a block's pairs write (the block and one cell
 * around it) never meets another block of that level and colour. Each
 * (level, colour) is a phase whose blocks can be processed in parallel
 * without races. B grows with the level's number of particles (never with
 * the thread count, which must not change the order of the sums, nor with
 * its occupied cells, which a process holding part of the particles cannot
 * count), so that each phase touches a compact part of memory.
 *
 * Cells are numbered in that order (level, colour, block, place in the
 * block), and the build says where each particle should move so that the
 * particles of a cell, a block and a level are contiguous in memory, the
 * largest first: a partner of a smaller level is stored after, and every
 * list holds partners j > i only. The caller moves them; cell k then holds
 * particles [first[k], first[k+1]).
 *
 * Along a periodic axis each level spans the box with a whole, even number
 * of blocks (2B m cells of edge L / (2B m) >= h), and cell coordinates
 * wrap: the blocks at both faces are neighbours of different colour. */
#ifndef GRAINS_NEIGHBOR_GRID_H
#define GRAINS_NEIGHBOR_GRID_H

#include <stdint.h>

#include "geometry/periodic.h"
#include "grains/error.h"
#include "math/vec3.h"
#include "util/bytes.h"

#define GRID_NONE UINT32_MAX
#define GRID_COLOURS 8
#define GRID_MAX_LEVELS 8 /* size ratios up to 2^8 */
#define GRID_MAX_PHASES (GRID_COLOURS * GRID_MAX_LEVELS)
#define GRID_SPAN_CELLS (1 << 18) /* cells along an axis, every level */

typedef struct {
    real R_top;             /* [L] largest radius at this level */
    real h;                 /* [L] smallest cell edge: 2 R_top + pad */
    real edge[3];           /* [L] cell edge per axis: h, or larger along a periodic axis */
    int64_t cells[3];       /* along a periodic axis: cells per period */
    int block;              /* B, cells per block edge */
    uint32_t cell_start;    /* its first cell */
    uint32_t particle_start; /* its first particle (after the move) */
    size_t n_particles;     /* its particles (B follows them) */
    uint64_t cells_whole;   /* its occupied cells in the whole (a share's grid: summed over the
                             * shares), which chooses how the lists find the cells in reach */
} grid_level;

typedef struct {
    real pad;            /* [L] reach beyond touching the cells hold */
    vec3 origin;         /* lower corner of cell (0,0,0), every level */
    periodic_box box;
    int n_levels;
    grid_level level[GRID_MAX_LEVELS + 1]; /* one more: its starts are the ends */
    size_t n_particles;  /* particles binned */
    size_t n_cells, cap_cells;
    uint64_t *key;       /* per cell: level and packed coordinates */
    uint32_t *first;     /* per cell, and one more: first particle (after the move) */
    uint32_t *slot;      /* hash table: cell index + 1, 0 = empty */
    size_t n_slots;
    int n_phases;        /* 8 per level */
    uint32_t phase_start[GRID_MAX_PHASES + 1]; /* into block_start */
    uint32_t *block_start; /* per block: its first cell; one more at the end */
    size_t n_blocks, cap_blocks;
} grains_grid;

/* A share of the particles (a process's, under MPI): how the quantities
 * that frame the grid are combined with every other share's, in place, the
 * same on every share. min and max are order-free, sum is over integers,
 * so every share builds the levels, origin and blocks that one process
 * holding all the particles would, whatever the split. Shares are
 * disjoint (what they sum are counts of particles). */
typedef struct {
    void (*min)(void *ctx, real *v, int n);
    void (*max)(void *ctx, real *v, int n);
    void (*sum)(void *ctx, uint64_t *v, int n);
    void *ctx;
} grid_share;

/* The particles to bin: n positions and radii by storage index, and
 * by_id[k], the index of the particle with the k-th smallest id (NULL:
 * ids follow storage); `share` NULL when these are all the particles.
 * Those with copy[i] set are copies of other shares' particles (a
 * rank's halo; copy NULL: none): binned and placed, but not counted, so that the shares'
 * counts stay disjoint and frame the grid as the whole's (min and max
 * are the same with the copies or without). */
typedef struct {
    const vec3 *x;
    const real *R;
    const uint32_t *by_id;
    size_t n;
    const grid_share *share;
    const uint8_t *copy;
    int threads; /* that the build may find the cells' keys and sort them on (0 or 1: one) */
} grid_particles;

/* Bins the particles into levels of cells of edge at least 2 R_top + pad
 * and fills where[i], the place particle i must move to (a permutation of
 * 0..n-1). Within a cell the particles are placed by id, so the order
 * after a build depends on the positions and ids alone, never on the
 * storage order before it: a simulation rebuilt from the same state by ids
 * (a checkpoint, another process's share) stores it the same way. `box` gives the periodic axes (positions
 * already wrapped into it); a LIMIT error when a period is shorter than 4
 * cells of a level. `ws` (may be NULL) is a workspace of `ws_bytes` the
 * build may overwrite for its sort; without enough of it the build
 * allocates its own for the duration. */
grains_status grid_build(grains_grid *g, const grid_particles *in, real pad, const periodic_box *box, uint32_t *where,
                         void *ws, size_t ws_bytes, grains_error *err);
/* Whether grid_build would frame these particles: the LIMIT errors it
 * gives before it changes anything (a spread beyond 2^18 cells, a period
 * too short), found without building (g itself unchanged). Collective
 * where the particles are a share (in->share). */
grains_status grid_check_frame(const grains_grid *g, const grid_particles *in, real pad, const periodic_box *box,
                               grains_error *err);
void grid_free(grains_grid *g);

/* The grid of some of its particles, as a build of them alone in the same
 * frame makes it: count[c] of cell c's particles kept, in their order (a
 * rank that read every particle keeping its share, decomp/rank_resume.c).
 * The cells and blocks left empty go; the levels keep their frame and
 * their counts of the whole (cells_whole, n_particles, which size the
 * blocks and the lists' search). 0: out of memory. */
int grid_keep(grains_grid *g, const uint32_t *count);

/* The whole's blocks as a checkpoint of ranks holding their own particles
 * alone writes its grid, which no rank holds whole (decomp/rank_stream.c): in
 * the grid's order, each block's key and numbers of cells and particles. */
typedef struct {
    const uint64_t *key;
    const uint32_t *cells;
    const uint32_t *particles;
    size_t n;
} grid_blocks;

/* grid_write_state of the grid of these blocks in the frame (levels,
 * origin, pad) of `frame`, as a build of their particles makes it, in two
 * parts: the caller writes the cells' keys and first particles between. */
void grid_write_state_head(const grains_grid *frame, const grid_blocks *bl, bytes_out *o);
void grid_write_state_tail(const grid_blocks *bl, bytes_out *o);

/* The grid as built (checkpoints), and back: a grid that could have been
 * built for at most n_max particles in `box`, or an error (no file name). */
void grid_write_state(const grains_grid *g, bytes_out *o);
grains_status grid_read_state(grains_grid *g, bytes_in *in, const periodic_box *box, size_t n_max, grains_error *err);

/* Integer cell coordinates of x at a level (x may lie outside the binned region). */
void grid_coords(const grains_grid *g, int level, vec3 x, int64_t c[3]);

/* The cells of a level that a ball of radius `reach` around x may touch:
 * lo[k] .. hi[k] along each axis (along a periodic axis, at most one period). */
void grid_reach(const grains_grid *g, int level, vec3 x, real reach, int64_t lo[3], int64_t hi[3]);

/* The cells within `reach` of x at a level, as boxes [lo[r], hi[r]] (r below
 * the count returned, at most GRID_IMAGE_BOXES): grid_reach's one, or in a
 * sheared box (`box`, the run's: its offset may have moved since the
 * build) one per image along z that the reach enters, each spanning x
 * about x less that image's offset along x. */
#define GRID_IMAGE_BOXES 2
int grid_reach_images(const grains_grid *g, const periodic_box *box, int level, vec3 x, real reach,
                      int64_t lo[][3], int64_t hi[][3]);

/* Cell index at coordinates c of a level (wrapped along periodic axes), or
 * GRID_NONE when no particle is there. */
uint32_t grid_find(const grains_grid *g, int level, const int64_t c[3]);

/* The coordinates of a cell (unwrapped: as binned). */
void grid_cell_coords(const grains_grid *g, uint32_t cell, int64_t c[3]);

/* Block b's level (returned) and block coordinates bc (its cells'
 * coordinates over B): with the level, its identity in any grid of the
 * same frame, whichever particles were binned. */
int grid_block_coords(const grains_grid *g, uint32_t b, int64_t bc[3]);

/* A block's key: its level, colour and block coordinates packed so that
 * keys order blocks as the grid does (level, colour, then z, y, x), the
 * same in any grid of the same frame, whichever particles it binned. Of
 * block b, or of the block of a level at coordinates bc (wrapped along
 * periodic axes); GRID_NO_KEY where no block of the frame can be (below
 * the origin along an open axis, or beyond the coordinates a key holds).
 * grid_key_coords: a key's level (returned) and block coordinates. */
#define GRID_NO_KEY UINT64_MAX
uint64_t grid_block_key(const grains_grid *g, uint32_t b);
uint64_t grid_key_at(const grains_grid *g, int level, const int64_t bc[3]);
int grid_key_coords(uint64_t key, int64_t bc[3]);

/* floor(a / b), b > 0: block coordinates of cell coordinates. */
static inline int64_t grid_floor_div(int64_t a, int64_t b) { return a < 0 ? -((b - a - 1) / b) : a / b; }

/* The block of a level at block coordinates bc (wrapped along periodic
 * axes), or GRID_NONE when no particle is there. */
uint32_t grid_find_block(const grains_grid *g, int level, const int64_t bc[3]);

/* The blocks of a level [lo, hi] (block coordinates per axis; along a
 * periodic axis at most one period, to be wrapped) that may hold a partner
 * of a particle at x of radius at most R, in a pair either lists (within
 * R + R_j + pad, and a relative 1e-9 for the test's round-off): the ranks
 * owning them must hold it. */
void grid_pair_blocks(const grains_grid *g, int level, vec3 x, real R, int64_t lo[3], int64_t hi[3]);

/* Whether cell coordinates c of a level lie in [lo, hi] per axis (along a
 * periodic axis the range, at most one period, may wrap). */
static inline int grid_coords_in(const grains_grid *g, int level, const int64_t c[3], const int64_t lo[3],
                                 const int64_t hi[3])
{
    for (int k = 0; k < 3; k++) {
        if (g->box.mask >> k & 1) {
            int64_t n = g->level[level].cells[k], off = ((c[k] - lo[k]) % n + n) % n;
            if (off > hi[k] - lo[k])
                return 0;
        } else if (c[k] < lo[k] || c[k] > hi[k]) {
            return 0;
        }
    }
    return 1;
}

/* The level of the particle stored at i. */
static inline int grid_level_of(const grains_grid *g, uint32_t i)
{
    int l = 0;
    while (l + 1 < g->n_levels && i >= g->level[l + 1].particle_start)
        l++;
    return l;
}

#endif
