/* A run's frame for the fields, from its VTK files (io/cg_read.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/cg_read.h"

#define CG_PI 3.14159265358979323846

void cg_frame_free(cg_frame_in *f)
{
    free(f->x), free(f->v), free(f->mass), free(f->volume), free(f->coordination), free(f->contacts);
    memset(f, 0, sizeof *f);
}

/* The array `name` of `comps` values in `section` into *out, or why not. */
static grains_status need(const vtk_polydata *d, vtk_section section, const char *name, int comps,
                          const char *file, const vtk_array_in **out, grains_error *err)
{
    const vtk_array_in *a = vtk_polydata_array(d, section, name);
    *out = a;
    if (!a)
        return grains_error_set(err, GRAINS_ERR_PARSE, file, 0, "no %s array \"%s\": not a frame grains wrote",
                                section == VTK_IN_CELL_DATA ? "cell" : section == VTK_IN_LINES ? "line" : "point",
                                name);
    if (a->comps != comps)
        return grains_error_set(err, GRAINS_ERR_PARSE, file, 0, "\"%s\" has %d components, not %d", name, a->comps,
                                comps);
    return GRAINS_OK;
}

/* v as an index below n, or 0. */
static int index_below(double v, size_t n, size_t *out)
{
    if (!(v >= 0 && v < (double)n && v == floor(v)))
        return 0;
    *out = (size_t)v;
    return 1;
}

static grains_vec3 vec_at(const vtk_array_in *a, size_t k)
{
    return (grains_vec3){a->v[3 * k], a->v[3 * k + 1], a->v[3 * k + 2]};
}

/* The grains: centres, velocities, radii into volumes, masses. */
static grains_status take_grains(const vtk_polydata *d, const char *name, double rho, cg_frame_in *f,
                                 grains_error *err)
{
    const vtk_array_in *x, *v, *r, *m = NULL;
    grains_status s = need(d, VTK_IN_POINTS, "position", 3, name, &x, err);
    if (s == GRAINS_OK)
        s = need(d, VTK_IN_POINT_DATA, "velocity", 3, name, &v, err);
    if (s == GRAINS_OK)
        s = need(d, VTK_IN_POINT_DATA, "radius", 1, name, &r, err);
    if (s == GRAINS_OK && vtk_polydata_array(d, VTK_IN_POINT_DATA, "mass"))
        s = need(d, VTK_IN_POINT_DATA, "mass", 1, name, &m, err);
    else if (s == GRAINS_OK && rho <= 0)
        s = grains_error_set(err, GRAINS_ERR_PARSE, name, 0, "no point array \"mass\" (frames of an older grains): "
                             "give the grains' density (grains fields --rho)");
    if (s != GRAINS_OK)
        return s;
    size_t n = d->points;
    for (size_t k = 0; k < n; k++) {
        double R = r->v[k], mass = m ? m->v[k] : rho * (4.0 / 3.0 * CG_PI * R * R * R);
        if (!(R >= 0) || !(mass >= 0))
            return grains_error_set(err, GRAINS_ERR_RANGE, name, 0, "grain %zu has radius %g and mass %g: not "
                                    "non-negative", k, R, mass);
        f->x[k] = vec_at(x, k), f->v[k] = vec_at(v, k);
        f->volume[k] = 4.0 / 3.0 * CG_PI * R * R * R, f->mass[k] = mass;
    }
    return GRAINS_OK;
}

/* Line k's two points, from the Lines' connectivity and offsets. */
static int line_ends(const vtk_array_in *conn, const vtk_array_in *offs, size_t points, size_t k, size_t *a,
                     size_t *b)
{
    size_t start = 0, end;
    if ((k > 0 && !index_below(offs->v[k - 1], conn->tuples + 1, &start)) ||
        !index_below(offs->v[k], conn->tuples + 1, &end) || end != start + 2)
        return 0;
    return index_below(conn->v[start], points, a) && index_below(conn->v[start + 1], points, b);
}

/* The contacts: branch from the line's first end to its second, the force
 * on the first (normal and tangential parts). */
static grains_status take_contacts(const vtk_polydata *c, const char *name, cg_frame_in *f, grains_error *err)
{
    const vtk_array_in *fn, *ft, *conn, *offs;
    grains_status s = need(c, VTK_IN_CELL_DATA, "force_normal", 3, name, &fn, err);
    if (s == GRAINS_OK)
        s = need(c, VTK_IN_CELL_DATA, "force_tangential", 3, name, &ft, err);
    if (s == GRAINS_OK)
        s = need(c, VTK_IN_LINES, "connectivity", 1, name, &conn, err);
    if (s == GRAINS_OK)
        s = need(c, VTK_IN_LINES, "offsets", 1, name, &offs, err);
    if (s != GRAINS_OK)
        return s;
    const vtk_array_in *pos = vtk_polydata_array(c, VTK_IN_POINTS, "position");
    if (c->lines && (!pos || pos->comps != 3))
        return grains_error_set(err, GRAINS_ERR_PARSE, name, 0, "contacts without their points");
    for (size_t k = 0; k < c->lines; k++) {
        size_t a, b;
        if (!line_ends(conn, offs, c->points, k, &a, &b))
            return grains_error_set(err, GRAINS_ERR_PARSE, name, 0, "contact %zu is not a line between two of the "
                                    "file's points", k);
        grains_vec3 fa = vec_at(fn, k), fb = vec_at(ft, k);
        f->contacts[k] = (grains_cg_contact){vec_at(pos, a), vec_at(pos, b), {fa.x + fb.x, fa.y + fb.y, fa.z + fb.z}};
    }
    return GRAINS_OK;
}

/* Each grain's contacts, where the frame's contacts are read: the
 * particles' array, else counted from the contacts' grains a and b (b a
 * grain where kind is 0). Without contacts, none: a frame gives its
 * contact fields whole or not at all. */
static grains_status take_coordination(const vtk_polydata *d, const char *name, const vtk_polydata *c,
                                       const char *contacts_name, cg_frame_in *f, grains_error *err)
{
    const vtk_array_in *own = vtk_polydata_array(d, VTK_IN_POINT_DATA, "coordination");
    const vtk_array_in *a = c ? vtk_polydata_array(c, VTK_IN_CELL_DATA, "a") : NULL;
    const vtk_array_in *b = c ? vtk_polydata_array(c, VTK_IN_CELL_DATA, "b") : NULL;
    const vtk_array_in *kind = c ? vtk_polydata_array(c, VTK_IN_CELL_DATA, "kind") : NULL;
    size_t n = d->points, i;
    if (c && own && own->comps == 1) {
        for (size_t k = 0; k < n; k++)
            if (!index_below(own->v[k], (size_t)INT32_MAX, &i))
                return grains_error_set(err, GRAINS_ERR_RANGE, name, 0, "grain %zu's coordination is not a count", k);
            else
                f->coordination[k] = (int)i;
        return GRAINS_OK;
    }
    if (!a || !b || !kind || a->comps != 1 || b->comps != 1 || kind->comps != 1) {
        free(f->coordination);
        f->coordination = NULL;
        return GRAINS_OK;
    }
    memset(f->coordination, 0, (n + 1) * sizeof *f->coordination);
    for (size_t k = 0; k < c->lines; k++) {
        if (!index_below(a->v[k], n, &i))
            return grains_error_set(err, GRAINS_ERR_RANGE, contacts_name, 0, "contact %zu names grain %g of %zu", k,
                                    a->v[k], n);
        f->coordination[i]++;
        if (kind->v[k] == 0 && !index_below(b->v[k], n, &i))
            return grains_error_set(err, GRAINS_ERR_RANGE, contacts_name, 0, "contact %zu names grain %g of %zu", k,
                                    b->v[k], n);
        if (kind->v[k] == 0)
            f->coordination[i]++;
    }
    return GRAINS_OK;
}

grains_status cg_frame_from_polydata(const vtk_polydata *particles, const char *name, const vtk_polydata *contacts,
                                     const char *contacts_name, double rho, cg_frame_in *f, grains_error *err)
{
    size_t n = particles->points, nc = contacts ? contacts->lines : 0;
    *f = (cg_frame_in){0};
    f->x = malloc((n + 1) * sizeof *f->x), f->v = malloc((n + 1) * sizeof *f->v);
    f->mass = malloc((n + 1) * sizeof *f->mass), f->volume = malloc((n + 1) * sizeof *f->volume);
    f->coordination = malloc((n + 1) * sizeof *f->coordination), f->contacts = malloc((nc + 1) * sizeof *f->contacts);
    grains_status s = f->x && f->v && f->mass && f->volume && f->coordination && f->contacts
                          ? take_grains(particles, name, rho, f, err)
                          : grains_error_set(err, GRAINS_ERR_NOMEM, name, 0, "out of memory for %zu grains", n);
    if (s == GRAINS_OK && contacts)
        s = take_contacts(contacts, contacts_name, f, err);
    if (s == GRAINS_OK)
        s = take_coordination(particles, name, contacts, contacts_name, f, err);
    if (s != GRAINS_OK) {
        cg_frame_free(f);
        return s;
    }
    f->frame = (grains_cg_frame){n, f->x, f->v, f->mass, f->volume, f->coordination, nc, f->contacts};
    return GRAINS_OK;
}

grains_status cg_frame_read(const char *particles_path, const char *contacts_path, double rho, cg_frame_in *f,
                            grains_error *err)
{
    vtk_polydata d, c;
    *f = (cg_frame_in){0};
    grains_status s = vtk_polydata_read(particles_path, &d, err);
    if (s != GRAINS_OK)
        return s;
    if (contacts_path && (s = vtk_polydata_read(contacts_path, &c, err)) != GRAINS_OK) {
        vtk_polydata_free(&d);
        return s;
    }
    s = cg_frame_from_polydata(&d, particles_path, contacts_path ? &c : NULL, contacts_path, rho, f, err);
    vtk_polydata_free(&d);
    if (contacts_path)
        vtk_polydata_free(&c);
    return s;
}
