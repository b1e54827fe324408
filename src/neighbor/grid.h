/* Hashed cell grid: only occupied cells exist, so memory follows the number
 * of particles, not the volume they spread over (unlike TinyDEM's dense grid).
 * Cells are also coloured (cx mod 3, cy mod 3, cz mod 3): two cells of one
 * colour are at least two cells apart, so their neighbourhoods are disjoint. */
#ifndef GRAINS_NEIGHBOR_GRID_H
#define GRAINS_NEIGHBOR_GRID_H

#include <stdint.h>

#include "grains/error.h"
#include "math/vec3.h"

#define GRID_NONE UINT32_MAX
#define GRID_COLOURS 27

typedef struct {
    real h;              /* [L] cell edge */
    vec3 origin;         /* lower corner of cell (0,0,0) */
    size_t n_particles;  /* particles binned */
    size_t n_cells, cap_cells;
    size_t n_cells_last; /* cells of the previous build: first guess of the next */
    uint64_t *key;       /* per cell: packed coordinates */
    uint32_t *head;      /* per cell: first particle, chained through `next` */
    uint32_t *next;      /* per particle */
    size_t cap_particles;
    uint32_t *slot;      /* hash table: cell index + 1, 0 = empty */
    size_t n_slots;
    uint32_t colour_start[GRID_COLOURS + 1];
    uint32_t *by_colour; /* cell indices ordered by colour, then creation */
} grains_grid;

/* Bins `n` positions into cells of edge `h`. */
grains_status grid_build(grains_grid *g, const vec3 *x, size_t n, real h, grains_error *err);
void grid_free(grains_grid *g);

/* Integer cell coordinates of x (may lie outside the binned region). */
void grid_coords(const grains_grid *g, vec3 x, int64_t c[3]);

/* Cell index at coordinates c, or GRID_NONE when no particle is there. */
uint32_t grid_find(const grains_grid *g, const int64_t c[3]);

#endif
