/* A membrane (membrane paper, Götz & Pöschel 2022, Section 2): a
 * triangulated surface whose vertices carry mass (Section 2.2), whose
 * edges are damped springs (Section 2.3, Eqs. 6-7), whose pairs of
 * adjacent triangles resist bending (Section 2.4, Eqs. 8-16, after Bridson
 * et al. 2003, the paper's [19]), and whose triangles may carry a
 * confining pressure (Eq. 18). This file holds the topology and the rest
 * state; membrane/forces.c the forces. */
#ifndef GRAINS_MEMBRANE_MEMBRANE_H
#define GRAINS_MEMBRANE_MEMBRANE_H

#include <stddef.h>
#include <stdint.h>

#include "grains/error.h"
#include "grains/membrane.h"
#include "grains/mesh.h"
#include "math/vec3.h"

/* The material of one membrane (grains/membrane.h). */
typedef grains_membrane_material membrane_material;

/* An edge: a spring between vertices i < j with rest length rho0 (Eq. 6). */
typedef struct {
    uint32_t i, j;
    real rest;       /* [L] */
} membrane_edge;

/* A hinge: the triangles (x3, x4, x1) and (x4, x3, x2) on the common edge
 * x3 -> x4, both oriented outwards (Eqs. 8-9: N1 = (x1 - x3) x (x1 - x4),
 * N2 = (x2 - x4) x (x2 - x3)). */
typedef struct {
    uint32_t v1, v2, v3, v4;
    real sin_half_rest;  /* sin(theta0 / 2), theta0 the rest angle, signed (membrane/forces.c) */
} membrane_hinge;

/* A triangle, counter-clockwise seen from outside: (v1 - v0) x (v2 - v0)
 * points outwards, and a pressure pushes the other way (Eq. 18). */
typedef struct {
    uint32_t v[3];
} membrane_triangle;

typedef struct {
    size_t n_vertices;
    vec3 *x0;                    /* rest positions */
    real *mass;                  /* [M] per vertex */
    membrane_edge *edges;
    size_t n_edges;
    membrane_hinge *hinges;
    size_t n_hinges;
    membrane_triangle *triangles;
    size_t n_triangles;
    membrane_material mat;
} membrane;

/* The membrane of a mesh of triangles (its vertices at rest where the mesh
 * has them). Refused, with the rule and the vertices named: an element
 * that is not a triangle; an edge shared by more than two triangles; two
 * triangles on one edge that run it the same way (the surface is not
 * oriented); a vertex whose triangles form more than one fan (two sheets
 * touching at a point: no hinge joins them); a material value out of range
 * (E, d, rho > 0; gamma, k_el, k_diss >= 0; all finite). `where` names the
 * source in messages. On failure *out is empty. */
grains_status membrane_build(membrane *out, const grains_mesh *mesh, const membrane_material *mat,
                             const char *where, grains_error *err);

void membrane_free(membrane *m);

#endif
