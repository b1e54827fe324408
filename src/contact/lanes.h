/* Contacts in lanes: a batch of particle-particle contacts, or of contacts
 * of particles with walls, laid out as
 * structure of arrays, evaluated by one loop that the compiler turns into
 * vector instructions (AVX2 on x86-64 with -march=native: four contacts per
 * instruction; two with SSE2; one elsewhere). The loop body is the scalar
 * kernel, hm_contact_in, compiled for one case of the run's sub-models at a
 * time, so the lanes compute the same operations in the same order as the
 * scalar path: no fused multiply-add (ISO C11 leaves contraction off), IEEE
 * square roots and divisions, and each contact on its own. The two paths
 * give the same bits (tests/test_lanes.c); the force sums stay the caller's,
 * in list order. */
#ifndef GRAINS_CONTACT_LANES_H
#define GRAINS_CONTACT_LANES_H

#include "contact/hertz_mindlin.h"

/* Contacts per batch: enough to fill the vector loop, few enough that the
 * batch (about 9 KB) stays in the first-level cache. */
#define LANES 32
#define LANE_SPRINGS 7 /* hm_history's reals: sliding 0-2, rolling 3-5, twisting 6 */

typedef struct {
    /* in: one side-by-side state per lane (hm_pair; of a wall, R_j is the
     * element's radius and v_j, w_j its motion at the contact) */
    real x_ij[3][LANES];
    real R_i[LANES], R_j[LANES];
    real v_i[3][LANES], v_j[3][LANES], w_i[3][LANES], w_j[3][LANES];
    /* in, where the run has grains that stay put (lanes_contacts' heavy): each
     * side's density, +inf for such a grain (Eq. 20 with m = inf) */
    real rho_i[LANES], rho_j[LANES];
    /* in and out: the springs, advanced by one step */
    real h[LANE_SPRINGS][LANES];
    /* out: force on i, torques on i and j, overlap and R* (hm_result) */
    real f[3][LANES], t_i[3][LANES], t_j[3][LANES];
    real delta[LANES], R_eff[LANES];
} contact_lanes;

/* Lane l's state, and its springs from the history h. */
static inline void lanes_put(contact_lanes *L, int l, vec3 x_ij, real R_i, real R_j, vec3 v_i, vec3 v_j, vec3 w_i,
                             vec3 w_j, const real *h)
{
    const vec3 *in[5] = {&x_ij, &v_i, &v_j, &w_i, &w_j};
    real(*to[5])[LANES] = {L->x_ij, L->v_i, L->v_j, L->w_i, L->w_j};
    for (int a = 0; a < 5; a++) {
        to[a][0][l] = in[a]->x;
        to[a][1][l] = in[a]->y;
        to[a][2][l] = in[a]->z;
    }
    L->R_i[l] = R_i;
    L->R_j[l] = R_j;
    for (int k = 0; k < LANE_SPRINGS; k++)
        L->h[k][l] = h[k];
}

/* Lane l of a 3-vector's arrays. */
static inline vec3 lane_vec(const real (*a)[LANES], int l) { return v3(a[0][l], a[1][l], a[2][l]); }

/* Evaluates lanes [0, n) of particles of one material, of density rho, with
 * the law `law` (hm_contact without the extended sub-models: no JKR, no
 * rolling type C): pairs of particles, or with `wall` particles and walls;
 * pairs with `heavy` take each side's density from rho_i and rho_j instead,
 * +inf for a grain that stays put (grains_material.fixed). */
void lanes_contacts(const hm_params *hp, const hm_law *law, real rho, contact_lanes *L, int n, int wall, int heavy);

#endif
