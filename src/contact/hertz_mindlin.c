/* Hertz-Mindlin contact of TinyDEM (R. Vetter, 2025), term for term:
 * normal and shear forces Eqs. 5-25, relative velocities Eqs. 26-30 and 36-38,
 * torques Eqs. 31-33, rolling/twisting resistance Eqs. 34-35, Coulomb limits
 * Eqs. 11, 39-40, springs Eqs. 50-54.
 *
 * Two places depart from the printed paper on purpose:
 * - Eq. 26 is printed with n x (r_i w_i - r_j w_j); the velocity of the
 *   contact point needs n x (r_i w_i + r_j w_j) (both surface points move
 *   with their own spin), which is also what TinyDEM's source computes.
 * - The order of force and spring increment is selectable: the paper's
 *   (force from the old spring, then Eq. 52) is the default. */
#include "contact/hertz_mindlin.h"

#include "contact/damping_tsuji.h"

#include <math.h>
#include <string.h>

#define PI HM_PI


real hm_beta(real e_n)
{
    if (e_n <= 0)
        return 1;
    if (e_n >= 1)
        return 0;
    real r = PI / log(e_n);
    return 1 / sqrt(1 + r * r); /* Eq. 21 */
}

/* E* and G* of two materials, Eqs. 15-16; of one material with itself in
 * the closed form of Eqs. 22-23 (so that one material gives the same bits as
 * always). b == NULL is a rigid wall: E_j = G_j = inf. */
static real effective_E(const grains_material *a, const grains_material *b)
{
    if (!b)
        return a->E / (1 - a->nu * a->nu);
    if (a->E == b->E && a->nu == b->nu)
        return a->E / (2 * (1 - a->nu * a->nu));                 /* Eq. 22 */
    return 1 / ((1 - a->nu * a->nu) / a->E + (1 - b->nu * b->nu) / b->E); /* Eq. 15 */
}

static real effective_G(const grains_material *a, const grains_material *b)
{
    real G_a = a->E / (2 * (1 + a->nu));                         /* Eq. 16 */
    if (!b)
        return G_a / (2 - a->nu);
    if (a->E == b->E && a->nu == b->nu)
        return a->E / (4 * (2 - a->nu) * (1 + a->nu));           /* Eq. 23 */
    real G_b = b->E / (2 * (1 + b->nu));
    return 1 / ((2 - a->nu) / G_a + (2 - b->nu) / G_b);          /* Eq. 16 */
}

/* The dashpots of a pair by its damping law (grains/choices.h, GRAINS_DAMPING_LIST): beta
 * scales Eq. 18's sqrt(5 m* k_n) (the linear law's Eq. 31 reads it too), cs_over_cn gives the
 * tangential one. */
static void pair_damping(hm_law *l, real e_n, grains_damping damping, int one_nu, real nu, real G_eff)
{
    l->beta = hm_beta(e_n); /* Eq. 21 */
    switch (damping) {
    case GRAINS_DAMPING_RESTITUTION:
        /* Eq. 32's eta_n, -2 sqrt(5/6) ln(e) / sqrt(pi^2 + ln^2 e) (R* delta)^(1/4)
         * sqrt(3/2 (4/3 E*) m*), is Eq. 18's beta sqrt(5 m* k_n) term for term;
         * the tangential dashpot is scaled by sqrt(k_t / k_n) (Section 5.1). */
        l->cs_over_cn = sqrt(l->ks / l->kn);
        break;
    case GRAINS_DAMPING_TSUJI: /* sqrt(2) alpha sqrt(m* k), normal and tangential (contact/damping_tsuji.h) */
        l->beta = tsuji_beta(e_n);
        l->cs_over_cn = sqrt(l->ks / l->kn);
        break;
    case GRAINS_DAMPING_TINYDEM:
    case GRAINS_DAMPING_LINEAR: /* normal_linear.h scales its own by sqrt(k_t / k_n) */
    default: /* Eq. 19 over Eq. 18: sqrt(k_s / (30 k_n)) = sqrt(G* / (5 E*)), Eq. 25 for one nu */
        l->cs_over_cn = one_nu ? sqrt((1 - nu) / (10 * (2 - nu))) : sqrt(G_eff / (5 * l->E_eff));
        break;
    }
}

/* The constants of material a against b (NULL: rigid wall) with the pair's
 * restitution and friction v. */
static hm_law pair_law(const grains_material *a, const grains_material *b, const grains_pair_values *v,
                       grains_damping damping)
{
    hm_law l;
    real E_eff = effective_E(a, b), G_eff = effective_G(a, b);
    int one_nu = !b || a->nu == b->nu;
    real nu = a->nu;
    l.kn = 4.0 / 3.0 * E_eff;                                     /* Eq. 12 without a */
    l.ks = 8 * G_eff;                                             /* Eq. 13 without a */
    l.E_eff = E_eff;
    pair_damping(&l, v->e_n, damping, one_nu, nu, G_eff);
    l.mu_s = v->mu_s, l.mu_r = v->mu_r, l.mu_t = v->mu_t;
    l.mu_s_dyn = v->mu_s_dyn, l.mu_r_dyn = v->mu_r_dyn, l.mu_t_dyn = v->mu_t_dyn;
    l.kt_over_kn = one_nu ? 2 * (1 - nu) / (2 - nu) : 4 * G_eff / E_eff; /* Eq. 6 */
    l.no_contact = v->no_contact;
    for (int k = 0; k < N_COEFFS; k++)
        l.coeff[k] = v->coeff[k];
    return l;
}

/* Whether the contact springs are incremented before the force, and in the half-step plane:
 * the integrator's row says (grains/choices.h, GRAINS_INTEGRATOR_LIST). */
#define INCREMENTS_FIRST(id, name, inc, half, doc) case GRAINS_INTEGRATOR_##id: return inc;
#define HALF_STEP(id, name, inc, half, doc) case GRAINS_INTEGRATOR_##id: return half;
static int integrator_increments_first(grains_integrator i)
{
    switch (i) { GRAINS_INTEGRATOR_LIST(INCREMENTS_FIRST) default: return 0; }
}

static int integrator_half_step(grains_integrator i)
{
    switch (i) { GRAINS_INTEGRATOR_LIST(HALF_STEP) default: return 0; }
}

/* Each law's van der Waals cut-off resolved (contact/van_der_waals.h), and
 * how far any pair pulls beyond touching. */
static void resolve_attraction(hm_params *hp)
{
    hp->attraction_reach = 0;
    for (int a = 0; a < hp->n_materials; a++)
        for (int b = 0; b <= hp->n_materials; b++) {
            hm_law *l[2] = {&hp->pw[a][b], b > 0 ? &hp->pp[a][b - 1] : NULL};
            for (int k = 0; k < 2 && l[k]; k++) {
                real *c = l[k]->coeff;
                c[COEFF_VDW_CUTOFF] = vdw_cutoff_of(c[COEFF_VDW_DELTA0], c[COEFF_VDW_CUTOFF]);
                hp->attraction_reach = fmax(hp->attraction_reach, hm_pair_attraction_reach(l[k]));
            }
        }
    hp->attracts = hp->attraction_reach > 0;
}

/* A fixed material a's grains touch free grains alone: not each other,
 * nor grains of another fixed material, nor walls, meshes and membranes
 * (two bodies that stay put, whose contact would move nothing). */
static void fixed_contacts(hm_params *hp, const grains_material *mat, int a)
{
    if (!mat[a].fixed)
        return;
    for (int b = 0; b <= hp->n_materials; b++)
        hp->pw[a][b].no_contact = 1;
    for (int b = 0; b < hp->n_materials; b++)
        if (mat[b].fixed)
            hp->pp[a][b].no_contact = hp->pp[b][a].no_contact = hp->pw[a][b + 1].no_contact = 1;
}

void hm_params_init(hm_params *hp, const grains_params *p)
{
    grains_material mat[GRAINS_MAX_MATERIALS];
    hp->n_materials = p->n_materials;
    for (int a = 0; a < p->n_materials; a++) {
        mat[a] = grains_params_material(p, a);
        hp->rho[a] = mat[a].fixed ? INFINITY : mat[a].rho; /* grains that stay put: infinitely heavy */
    }
    grains_damping damping = grains_damping_of(p->damping, p->contact_model);
    for (int a = 0; a < p->n_materials; a++) {
        /* a rigid wall takes the particle material's own restitution and friction */
        grains_pair_values own = grains_params_pair(p, a, a);
        hp->pw[a][0] = pair_law(&mat[a], NULL, &own, damping);
        hp->pw[a][0].no_contact = 0; /* a pair's `contact = false` is no rigid wall's */
        for (int b = 0; b < p->n_materials; b++) {
            grains_pair_values v = grains_params_pair(p, a, b);
            hp->pp[a][b] = pair_law(&mat[a], &mat[b], &v, damping);
            hp->pw[a][b + 1] = hp->pp[a][b];
        }
        fixed_contacts(hp, mat, a);
    }
    hp->dt = p->dt;
    hp->increment_first = p->friction_order == GRAINS_FRICTION_INCREMENT_THEN_FORCE ||
                          integrator_increments_first(p->integrator);
    hp->half_step = integrator_half_step(p->integrator);
    hp->normal = p->contact_model == GRAINS_CONTACT_LINEAR ? HM_NORMAL_LINEAR
                 : p->cohesion == GRAINS_COHESION_JKR    ? HM_NORMAL_JKR
                                                         : HM_NORMAL_HERTZ;
    hp->holds = hp->normal == HM_NORMAL_JKR;
    hp->rolling_model = p->rolling_model;
    hp->rolling_traits = rolling_traits_of(p->rolling_model);
    resolve_attraction(hp);
}

real hm_linear_kn_hertz(real m_eff, real E_eff, real R_eff, real V0)
{
    return 1.2024 * pow(sqrt(m_eff) * E_eff * E_eff * R_eff * V0, 0.4); /* Eq. 1 */
}


/* Whether two laws are the same, bit for bit (their padding aside). */
static int same_law(const hm_law *a, const hm_law *b)
{
    const real *ra[] = {&a->kn, &a->ks, &a->beta, &a->cs_over_cn, &a->mu_s, &a->mu_r, &a->mu_t, &a->mu_s_dyn,
                        &a->mu_r_dyn, &a->mu_t_dyn, &a->E_eff, &a->kt_over_kn};
    const real *rb[] = {&b->kn, &b->ks, &b->beta, &b->cs_over_cn, &b->mu_s, &b->mu_r, &b->mu_t, &b->mu_s_dyn,
                        &b->mu_r_dyn, &b->mu_t_dyn, &b->E_eff, &b->kt_over_kn};
    for (size_t k = 0; k < sizeof ra / sizeof ra[0]; k++)
        if (memcmp(ra[k], rb[k], sizeof(real)) != 0)
            return 0;
    return a->no_contact == b->no_contact && memcmp(a->coeff, b->coeff, sizeof a->coeff) == 0;
}

int hm_fixed_copies(const hm_params *hp)
{
    if (hp->n_materials < 2 || hp->pp[0][0].no_contact)
        return 0;
    for (int k = 1; k < hp->n_materials; k++)
        if (!isinf(hp->rho[k]) || !same_law(&hp->pp[0][k], &hp->pp[0][0]) ||
            !same_law(&hp->pp[k][0], &hp->pp[0][0]))
            return 0;
    return 1;
}

int hm_lanes_compose(const hm_params *hp)
{
    return hp->normal != HM_NORMAL_JKR && !hp->attracts && hp->rolling_traits.in_lanes;
}

real hm_max_hold_gap(const hm_params *hp, real R_max)
{
    if (hp->normal != HM_NORMAL_JKR)
        return 0;
    real gap = 0; /* R* <= R_max (a wall), E* >= the least */
    for (int a = 0; a < hp->n_materials; a++)
        for (int b = 0; b <= hp->n_materials; b++)
            gap = fmax(gap, jkr_snap_gap(hp->pw[a][b].coeff[COEFF_JKR_W], R_max, hp->pw[a][b].E_eff));
    return gap;
}

static void note_modes(const hm_law *l, int *sliding, int *rolling, int *twisting)
{
    if (l->no_contact)
        return;
    *sliding |= l->mu_s > 0;
    *rolling |= l->mu_r > 0;
    *twisting |= l->mu_t > 0;
}

void hm_spring_modes(const hm_params *hp, int *sliding, int *rolling, int *twisting)
{
    *sliding = *rolling = *twisting = 0;
    for (int a = 0; a < hp->n_materials; a++) {
        for (int b = 0; b < hp->n_materials; b++)
            note_modes(&hp->pp[a][b], sliding, rolling, twisting);
        for (int b = 0; b <= hp->n_materials; b++)
            note_modes(&hp->pw[a][b], sliding, rolling, twisting);
    }
}
