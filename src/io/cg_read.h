/* A run's frame read back for the coarse-grained fields (grains/fields.h):
 * the grains of a particlesNNNNNN.vtp (position, velocity, radius, mass)
 * and the contacts of its contactsNNNNNN.vtp (each line's two ends, the
 * force on its first end). The files are untrusted: arrays missing, of the
 * wrong width or length, negative radii or masses, and contacts naming
 * points or grains that are not there are refused with the file's name. */
#ifndef GRAINS_IO_CG_READ_H
#define GRAINS_IO_CG_READ_H

#include "grains/fields.h"
#include "io/vtk_read.h"

/* The frame and the arrays it points into. */
typedef struct {
    grains_cg_frame frame;
    grains_vec3 *x, *v;
    double *mass, *volume;
    int *coordination;
    grains_cg_contact *contacts;
} cg_frame_in;

/* The grains of `particles` (named `name` in errors) and, unless NULL, the
 * contacts of `contacts` (named `contacts_name`). `rho` > 0 gives the
 * masses of frames written without a mass array (rho 4 pi R^3 / 3); 0
 * refuses them. Coordination: the particles' own array (written when the
 * run recorded contacts), else counted from the contacts, else none. On
 * failure *f holds nothing. */
grains_status cg_frame_from_polydata(const vtk_polydata *particles, const char *name, const vtk_polydata *contacts,
                                     const char *contacts_name, double rho, cg_frame_in *f, grains_error *err);
/* The same from the files (contacts_path NULL: none). */
grains_status cg_frame_read(const char *particles_path, const char *contacts_path, double rho, cg_frame_in *f,
                            grains_error *err);
void cg_frame_free(cg_frame_in *f);

#endif
