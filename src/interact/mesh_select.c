/* Ghost-free contacts with meshes (membrane paper Table 1, Section 2.5). */
#include "interact/mesh_select.h"

/* The normals of p and q within 45 degrees of each other. */
static int alike(const mesh_candidate *p, const mesh_candidate *q)
{
    real c = v3_dot(p->dx, q->dx);
    return c > 0 && c * c > 0.5 * p->d2 * q->d2;
}

/* Whether candidate q supersedes candidate p (both touching, p != q). */
static int supersedes(const grains_mesh *m, const mesh_candidate *p, const mesh_candidate *q, int p_index,
                      int q_index)
{
    if (p->f.dim == 2)
        return 0;
    if (mesh_feature_on(m, q->e, p->f)) { /* Table 1: the feature is q's too */
        if (p->f.dim < q->f.dim)
            return 1; /* a face beats an edge or a vertex, an edge a vertex */
        return mesh_feature_same(p->f, q->f) && q_index < p_index; /* one point: the paper's random pick, made the lower */
    }
    /* Beyond Table 1: an edge or vertex of p that ends at a vertex of q, where
     * q's feature is larger and pushes the same way (within 45 degrees), is
     * a ghost of the same surface: on a floor of triangles, the diagonal of
     * the square next door seen from just past their common corner. A
     * concave corner (normals apart) keeps both. */
    return p->f.dim < q->f.dim && mesh_feature_touches(m, q->e, p->f) && alike(p, q);
}

/* The candidate that finally stands for p: follows `by` to a kept one. */
static int final_of(const mesh_candidate *c, int p)
{
    while (c[p].by >= 0) /* by points to a higher dimension or a lower index: no cycle */
        p = c[p].by;
    return p;
}

void mesh_select(const grains_mesh *m, mesh_candidate *c, int n)
{
    for (int p = 0; p < n; p++) {
        c[p].keep = c[p].touching;
        c[p].by = -1;
        c[p].donor = -1;
        for (int q = 0; c[p].touching && q < n && c[p].by < 0; q++)
            if (q != p && c[q].touching && supersedes(m, &c[p], &c[q], p, q))
                c[p].by = q;
        c[p].keep = c[p].touching && c[p].by < 0;
    }
    for (int p = 0; p < n; p++) { /* the lowest donor of each new kept contact */
        if (c[p].by < 0 || !c[p].had_history)
            continue;
        int to = final_of(c, p);
        if (!c[to].had_history && c[to].donor < 0)
            c[to].donor = p;
    }
}
