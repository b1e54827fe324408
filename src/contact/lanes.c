/* The lane loop (contact/lanes.h), compiled once for each case of the
 * Hertz law that a run can take (improved Verlet's half step or not,
 * springs incremented before the force or after): with the case a
 * constant, every branch left in the kernel is a select, and the loop
 * vectorises (gcc -fopt-info-vec reports it). The linear law is compiled
 * for the same cases, and for how the batch's pair finds its spring (given,
 * or by Eq. 27); its Eq. 1 calls pow, which does not vectorise: those lanes
 * run one at a time, in the general loop. Built with -fno-math-errno and
 * -fno-trapping-math (CMakeLists.txt): sqrt sets no errno, so it can be a
 * vector instruction, and both sides of a select may be computed. */
#include "contact/lanes.h"

__attribute__((always_inline)) static inline void lane_loop(const hm_params *hp, const hm_case cs, const hm_law *law,
                                                            real rho, contact_lanes *restrict L, int n,
                                                            const int wall, const int heavy)
{
    for (int l = 0; l < n; l++) {
        hm_pair pr = {v3(L->x_ij[0][l], L->x_ij[1][l], L->x_ij[2][l]),
                      L->R_i[l],
                      L->R_j[l],
                      v3(L->v_i[0][l], L->v_i[1][l], L->v_i[2][l]),
                      v3(L->v_j[0][l], L->v_j[1][l], L->v_j[2][l]),
                      v3(L->w_i[0][l], L->w_i[1][l], L->w_i[2][l]),
                      v3(L->w_j[0][l], L->w_j[1][l], L->w_j[2][l]),
                      wall,
                      law,
                      heavy ? L->rho_i[l] : rho,
                      heavy ? L->rho_j[l] : wall ? 0 : rho};
        hm_history h = {{L->h[0][l], L->h[1][l], L->h[2][l]}, {L->h[3][l], L->h[4][l], L->h[5][l]}, L->h[6][l]};
        hm_result r;
        hm_contact_in(hp, cs, &pr, &h, &r, 0);
        for (int k = 0; k < 3; k++) {
            L->h[k][l] = h.us[k];
            L->h[3 + k][l] = h.ur[k];
        }
        L->h[6][l] = h.ut;
        const vec3 out[3] = {r.f, r.t_i, r.t_j};
        real(*to[3])[LANES] = {L->f, L->t_i, L->t_j};
        for (int a = 0; a < 3; a++) {
            to[a][0][l] = out[a].x;
            to[a][1][l] = out[a].y;
            to[a][2][l] = out[a].z;
        }
        L->delta[l] = r.delta;
        L->R_eff[l] = r.R_eff;
    }
}

/* The lanes in the run's step case, the normal law and how the linear one
 * finds its spring constants. */
__attribute__((always_inline)) static inline void steps_of(const hm_params *hp, const hm_case run, const int normal,
                                                           const int kn, const hm_law *law, real rho,
                                                           contact_lanes *L, int n, const int wall, const int heavy)
{
    switch (2 * !!run.half_step + !!run.increment_first) {
    case 0: lane_loop(hp, (hm_case){normal, 0, 0, kn}, law, rho, L, n, wall, heavy); break;
    case 1: lane_loop(hp, (hm_case){normal, 0, 1, kn}, law, rho, L, n, wall, heavy); break;
    case 2: lane_loop(hp, (hm_case){normal, 1, 0, kn}, law, rho, L, n, wall, heavy); break;
    default: lane_loop(hp, (hm_case){normal, 1, 1, kn}, law, rho, L, n, wall, heavy); break;
    }
}

/* The lanes of pairs or walls, of one density or each side's (constants),
 * in the run's case. */
__attribute__((always_inline)) static inline void lanes_of(const hm_params *hp, const hm_law *law, real rho,
                                                           contact_lanes *L, int n, const int wall,
                                                           const int heavy)
{
    const hm_case run = hm_case_of(hp);
    const linear_coeffs lc = hm_linear_coeffs(law);
    const int kn = run.normal == HM_NORMAL_LINEAR ? linear_kn_kind(&lc) : -1;
    if (run.normal == HM_NORMAL_HERTZ)
        steps_of(hp, run, HM_NORMAL_HERTZ, -1, law, rho, L, n, wall, heavy);
    else if (kn == LINEAR_KN_GIVEN)
        steps_of(hp, run, HM_NORMAL_LINEAR, LINEAR_KN_GIVEN, law, rho, L, n, wall, heavy);
    else if (kn == LINEAR_KN_EQ27)
        steps_of(hp, run, HM_NORMAL_LINEAR, LINEAR_KN_EQ27, law, rho, L, n, wall, heavy);
    else
        lane_loop(hp, run, law, rho, L, n, wall, heavy);
}

void lanes_contacts(const hm_params *hp, const hm_law *law, real rho, contact_lanes *L, int n, int wall, int heavy)
{
    if (wall)
        lanes_of(hp, law, rho, L, n, 1, 0);
    else if (heavy)
        lanes_of(hp, law, rho, L, n, 0, 1);
    else
        lanes_of(hp, law, rho, L, n, 0, 0);
}
