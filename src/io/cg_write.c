/* The coarse-grained fields as files (grains/fields.h): VTK ImageData of
 * the grid's cells, and CSV of its rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grains/fields.h"
#include "io/atomic_file.h"
#include "io/vtk_array.h"

/* Component c's suffix in a field of `comps` components ("" for one). */
static const char *component(int comps, int c)
{
    static const char *vec[] = {"_x", "_y", "_z"};
    static const char *ten[] = {"_xx", "_xy", "_xz", "_yx", "_yy", "_yz", "_zx", "_zy", "_zz"};
    return comps == 1 ? "" : comps == 3 ? vec[c] : ten[c];
}

/* Field f's values of every cell out of per-cell rows, into b. */
static void field_values(const double *rows, size_t cells, grains_cg_field f, double *b)
{
    int at = grains_cg_offset(f), comps = grains_cg_width(f);
    for (size_t cell = 0; cell < cells; cell++)
        memcpy(b + cell * (size_t)comps, rows + cell * GRAINS_CG_COMPONENTS + at, (size_t)comps * sizeof *b);
}

/* The image's header: its extent, origin, spacing and (axes of its own)
 * direction, the rows of the axis matrix as VTK's Direction's columns. */
static void image_open(vtk_out *o, const grains_cg *cg, const grains_cg_grid *g)
{
    double lo[3] = {g->lo.x, g->lo.y, g->lo.z}, hi[3] = {g->hi.x, g->hi.y, g->hi.z};
    const grains_vec3 *e = g->axis;
    vtk_file_open(o, "ImageData");
    fprintf(o->f, "<ImageData WholeExtent=\"0 %d 0 %d 0 %d\" Origin=\"%.17g %.17g %.17g\" Spacing=\"%.17g %.17g %.17g\" "
                  "Direction=\"%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\">\n",
            g->n[0], g->n[1], g->n[2], lo[0], lo[1], lo[2], (hi[0] - lo[0]) / g->n[0], (hi[1] - lo[1]) / g->n[1],
            (hi[2] - lo[2]) / g->n[2], e[0].x, e[1].x, e[2].x, e[0].y, e[1].y, e[2].y, e[0].z, e[1].z, e[2].z);
    fprintf(o->f, "<Piece Extent=\"0 %d 0 %d 0 %d\">\n<CellData Scalars=\"density\" Vectors=\"velocity\" "
                  "Tensors=\"%s\">\n", g->n[0], g->n[1], g->n[2],
            grains_cg_has_field(cg, GRAINS_CG_STRESS) ? "stress" : "stress_kinetic");
}

/* The fields' means and errors, every one finite (grains_cg_add_frame
 * takes no frame that would make one otherwise: checked again here, as
 * nothing that is not a number is ever written). */
static grains_status fields_finite(const grains_cg *cg, double *mean, double *sem, const char *path,
                                   grains_error *err)
{
    grains_cg_mean(cg, mean);
    grains_cg_sem(cg, sem);
    for (size_t c = 0; c < grains_cg_cells(cg) * GRAINS_CG_COMPONENTS; c++)
        if (!isfinite(mean[c]) || !isfinite(sem[c]))
            return grains_error_set(err, GRAINS_ERR_RANGE, path, 0, "the fields hold a value that is not finite: "
                                    "not written");
    return GRAINS_OK;
}

grains_status grains_cg_write_vti(const grains_cg *cg, const char *path, grains_vtk_format format,
                                  grains_error *err)
{
    size_t cells = grains_cg_cells(cg), all = cells * GRAINS_CG_COMPONENTS;
    double *mean = malloc(all * sizeof *mean), *sem = malloc(all * sizeof *sem), *b = malloc(cells * 9 * sizeof *b);
    atomic_file af;
    grains_status s = mean && sem && b ? fields_finite(cg, mean, sem, path, err)
                                       : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK && (s = atomic_open(&af, path, err)) == GRAINS_OK) {
        grains_cg_grid g = grains_cg_grid_of(cg);
        vtk_out o = {af.f, format, 0};
        image_open(&o, cg, &g);
        for (int f = 0; f < GRAINS_CG_N_FIELDS; f++) {
            char name[64];
            if (!grains_cg_has_field(cg, (grains_cg_field)f))
                continue;
            field_values(mean, cells, (grains_cg_field)f, b);
            vtk_doubles(&o, grains_cg_name((grains_cg_field)f), grains_cg_width((grains_cg_field)f), b, cells, 10);
            field_values(sem, cells, (grains_cg_field)f, b);
            snprintf(name, sizeof name, "%s_sem", grains_cg_name((grains_cg_field)f));
            vtk_doubles(&o, name, grains_cg_width((grains_cg_field)f), b, cells, 10);
        }
        fputs("</CellData>\n</Piece>\n</ImageData>\n", o.f);
        vtk_file_close(&o);
        s = vtk_finish(&o, &af, path, err);
    }
    free(mean), free(sem), free(b);
    return s;
}

/* The CSV's header: the kept axes, then each component and its error. */
static void csv_header(FILE *f, const grains_cg *cg, const grains_cg_grid *g)
{
    const char *axis = "xyz";
    int first = 1;
    for (int a = 0; a < 3; a++)
        if (!g->averaged[a])
            fprintf(f, "%s%c", first ? "" : ",", axis[a]), first = 0;
    for (int k = 0; k < GRAINS_CG_N_FIELDS; k++)
        for (int c = 0; grains_cg_has_field(cg, (grains_cg_field)k) && c < grains_cg_width((grains_cg_field)k); c++) {
            const char *name = grains_cg_name((grains_cg_field)k), *suffix = component(grains_cg_width(k), c);
            fprintf(f, "%s%s%s,%s%s_sem", first ? "" : ",", name, suffix, name, suffix);
            first = 0;
        }
    fputc('\n', f);
}

/* One cell's row: its centre along the kept axes, its components. */
static void csv_row(FILE *f, const grains_cg *cg, const grains_cg_grid *g, grains_vec3 centre, const double *mean,
                    const double *sem)
{
    const double at[3] = {centre.x, centre.y, centre.z};
    int first = 1;
    for (int a = 0; a < 3; a++)
        if (!g->averaged[a])
            fprintf(f, "%s%.10g", first ? "" : ",", at[a]), first = 0;
    for (int k = 0; k < GRAINS_CG_N_FIELDS; k++)
        for (int c = grains_cg_offset(k); grains_cg_has_field(cg, k) && c < grains_cg_offset(k) + grains_cg_width(k); c++)
            fprintf(f, "%s%.10g,%.10g", first ? "" : ",", mean[c], sem[c]), first = 0;
    fputc('\n', f);
}

grains_status grains_cg_write_csv(const grains_cg *cg, const char *path, grains_error *err)
{
    size_t cells = grains_cg_cells(cg), all = cells * GRAINS_CG_COMPONENTS;
    double *mean = malloc(all * sizeof *mean), *sem = malloc(all * sizeof *sem);
    atomic_file af;
    grains_status s = mean && sem ? fields_finite(cg, mean, sem, path, err)
                                  : grains_error_set(err, GRAINS_ERR_NOMEM, path, 0, "out of memory");
    if (s == GRAINS_OK && (s = atomic_open(&af, path, err)) == GRAINS_OK) {
        grains_cg_grid g = grains_cg_grid_of(cg);
        csv_header(af.f, cg, &g);
        size_t cell = 0;
        for (int k = 0; k < g.n[2]; k++)
            for (int j = 0; j < g.n[1]; j++)
                for (int i = 0; i < g.n[0]; i++, cell++)
                    csv_row(af.f, cg, &g, grains_cg_centre(cg, i, j, k), mean + cell * GRAINS_CG_COMPONENTS,
                            sem + cell * GRAINS_CG_COMPONENTS);
        s = atomic_commit(&af, err);
    }
    free(mean), free(sem);
    return s;
}
