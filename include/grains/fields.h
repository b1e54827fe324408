/* Coarse-grained continuum fields of the grains (Goldhirsch 2010; Weinhart
 * et al. 2012): on a regular grid of cells, or averaged along chosen axes
 * (a profile), each grain's mass, momentum and volume spread by a kernel of
 * width w about its centre, each contact's force along its branch vector (the
 * line integral that makes the contact stress balance the forces), and the
 * fields averaged over frames with the standard error of their mean.
 *
 * The kernel is normalized on the grid's nodes (the cells' centres): each
 * grain puts exactly its mass into the nodes within reach of it (those
 * beyond the grid's faces are lost), so the fields sum to the grains' totals
 * to round-off, e.g. the contact stress over the grid's volume to the sum of
 * the branch vectors times the forces. Stresses are tension positive, as
 * grains_sim_contact_stress's. Cost: linear in the grains and contacts, each
 * touching the nodes within its kernel's reach ((2 ceil(reach / cell) + 1)
 * per axis not averaged). */
#ifndef GRAINS_FIELDS_H
#define GRAINS_FIELDS_H

#include <stddef.h>

#include "grains/api.h"
#include "grains/io.h"
#include "grains/sim.h"

GRAINS_API_BEGIN

typedef enum {
    GRAINS_CG_GAUSSIAN, /* exp(-r^2 / 2w^2) - exp(-9/2): 0 from its cut at 3w on */
    GRAINS_CG_LUCY      /* (1 + 3r/c)(1 - r/c)^3 for r < c = 2w (Lucy 1977; Weinhart et al. 2016's w = c/2) */
} grains_cg_kernel;

/* The grid: n[a] cells between lo and hi along axis a; an axis averaged
 * (averaged[a] = 1) has one cell spanning [lo, hi], and the kernel ignores
 * it: the grains (and the points of the branches) whose coordinate along it
 * lies in [lo, hi] count, whatever it is, over that span (averaged along x
 * and y, a profile in z: across a chute, or a band of a drum); along an
 * axis marked periodic[a] (averaged only) [lo, hi] is a periodic box's
 * span and every point counts, as if wrapped into it. The width must reach
 * the nodes: w at least half a cell along every axis not averaged. The
 * grid's axes are x, y and z, or the orthonormal axis[0..2] (given in x, y,
 * z) when axis[0] is not zero: then lo and hi, and every vector and tensor
 * of the fields, are in those axes' coordinates (a profile across a drum's
 * flowing layer, along its surface's normal: the velocity along the
 * slope). */
typedef struct {
    grains_vec3 lo, hi;      /* [L] */
    int n[3];
    int averaged[3];
    grains_cg_kernel kernel;
    double width;            /* [L] w */
    grains_vec3 axis[3];     /* the grid's axes; all zero: x, y, z */
    int periodic[3];         /* an averaged axis whose span is a periodic box's */
} grains_cg_grid;

/* A contact as the fields read it: the force f on a, and its branch from a's
 * centre x_a to b's centre x_b (a wall's: the contact's point on it). */
typedef struct {
    grains_vec3 x_a, x_b, f;
} grains_cg_contact;

/* One frame: n grains (centres, velocities, masses, volumes, their
 * contacts' counts or NULL) and its contacts. */
typedef struct {
    size_t n;
    const grains_vec3 *x, *v;
    const double *mass, *volume;
    const int *coordination;
    size_t n_contacts;
    const grains_cg_contact *contacts;
} grains_cg_frame;

/* The fields of a cell, in this order (components: a vector's x, y, z; a
 * tensor's row-major xx, xy, xz, yx, ...): X(id, name, components, doc). */
#define GRAINS_CG_FIELD_LIST(X)                                                                            \
    X(DENSITY, "density", 1, "[M/L^3] mass density")                                                     \
    X(MOMENTUM, "momentum", 3, "[M/L^2T] momentum density")                                              \
    X(VELOCITY, "velocity", 3, "[L/T] momentum over density (0 where no mass)")                          \
    X(NUMBER, "number_density", 1, "[1/L^3] grains per volume")                                         \
    X(COORDINATION, "coordination", 1, "contacts per grain (0 where no grain; needs coordination)")     \
    X(SOLID_FRACTION, "solid_fraction", 1, "[-] grains' volume per volume")                             \
    X(STRESS_KINETIC, "stress_kinetic", 9, "[M/LT^2] -sum m v' (x) v', v' the velocity less the field's")  \
    X(STRESS_CONTACT, "stress_contact", 9, "[M/LT^2] sum (x_b - x_a) (x) f along each branch")             \
    X(STRESS, "stress", 9, "[M/LT^2] the kinetic and the contact stress (tension positive)")

#define GRAINS_CG_ENUM(id, name, comps, doc) GRAINS_CG_##id,
typedef enum { GRAINS_CG_FIELD_LIST(GRAINS_CG_ENUM) GRAINS_CG_N_FIELDS } grains_cg_field;
#define GRAINS_CG_COUNT(id, name, comps, doc) +comps
enum { GRAINS_CG_COMPONENTS = 0 GRAINS_CG_FIELD_LIST(GRAINS_CG_COUNT) }; /* every field's, in a cell: 37 */
#undef GRAINS_CG_ENUM
#undef GRAINS_CG_COUNT

/* The first component of field f in a cell's GRAINS_CG_COMPONENTS, and its
 * number of components; its name. */
int grains_cg_offset(grains_cg_field f);
int grains_cg_width(grains_cg_field f);
const char *grains_cg_name(grains_cg_field f);

/* Fields averaged over frames. */
typedef struct grains_cg grains_cg;

/* A RANGE error names a grid that cannot be (no volume, or cells of a
 * volume beyond the range of doubles, a count below 1 or above 2^10 along
 * an axis, an averaged axis with more than one cell, a width that is not
 * finite or does not reach the nodes, or reaches beyond 512 cells along an
 * axis or 2^22 nodes about a grain, axes that are not orthonormal to 1e-9,
 * periodic along an axis not averaged). */
grains_status grains_cg_create(grains_cg **out, const grains_cg_grid *grid, grains_error *err);
void grains_cg_destroy(grains_cg *cg);
/* One more frame's fields into the averages (its values checked finite:
 * a RANGE error names the first that is not, or the fields their products
 * would overflow, and nothing is added). A frame with contacts (its
 * coordination or contacts given) after frames without, or the other way
 * about, is refused (ARG): the contact fields come from every frame or none. */
grains_status grains_cg_add_frame(grains_cg *cg, const grains_cg_frame *frame, grains_error *err);
/* A question grains_cg_add_frame asks every 65,536 nodes of the kernel
 * visited or cells filled, a few ms (grains_sim_ask_stop's kind), within
 * a grain's or a branch's too: when it answers non-zero, the frame
 * is left out with GRAINS_ERR_STOPPED and the averages keep the frames
 * before it. NULL: never asked (the default). */
void grains_cg_ask_stop(grains_cg *cg, grains_stop_asked asked, void *ctx);
/* The last recorded step's grains and contacts (grains_sim_record_contacts:
 * without it, an ARG error), walls included. */
grains_status grains_cg_add_sim(grains_cg *cg, const grains_sim *sim, grains_error *err);
/* The simulation's grains alone, as they are now: density, momentum,
 * velocity, number, solid fraction and kinetic stress need no contacts. */
grains_status grains_cg_add_sim_grains(grains_cg *cg, const grains_sim *sim, grains_error *err);
size_t grains_cg_cells(const grains_cg *cg);
size_t grains_cg_frames(const grains_cg *cg);
/* Whether field f is one the frames give: the contact fields
 * (coordination, stress_contact, stress) are not when they came without
 * contacts; every field before the first frame. */
int grains_cg_has_field(const grains_cg *cg, grains_cg_field f);
/* Per cell (x fastest, then y, then z), GRAINS_CG_COMPONENTS values: the
 * mean over the frames, and the standard error of that mean (the frames'
 * standard deviation over the root of their number; 0 with one frame). */
void grains_cg_mean(const grains_cg *cg, double *out);
void grains_cg_sem(const grains_cg *cg, double *out);
/* Cell (i, j, k)'s centre, in the grid's axes. */
grains_vec3 grains_cg_centre(const grains_cg *cg, int i, int j, int k);
/* The grid the fields were made on (its axes x, y, z when given none). */
grains_cg_grid grains_cg_grid_of(const grains_cg *cg);

/* The fields' mean and standard error as VTK ImageData (one cell of the
 * image per cell of the grid: ParaView's cell data, `name` and `name_sem`
 * per field; a grid with axes of its own writes them as the image's
 * Direction), and as CSV, a row per cell: its centre's coordinates along
 * the axes not averaged, then each component's mean and standard error.
 * Either file is written whole or not at all. */
grains_status grains_cg_write_vti(const grains_cg *cg, const char *path, grains_vtk_format format,
                                  grains_error *err);
grains_status grains_cg_write_csv(const grains_cg *cg, const char *path, grains_error *err);

GRAINS_API_END

#endif
