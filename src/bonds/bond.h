/* A bonded contact (libgran's bond; the variational-integrator paper's
 * bonded pair, Section 3.3): the four springs of the frictional contact,
 * normal, sliding, rolling and twisting, each with a dashpot, but without
 * Coulomb's limits, and the normal spring pulls as well as pushes. The
 * normal spring's length is the overlap delta = R_i + R_j - |x_ij| (libgran;
 * the paper's V = k_n delta^2 / 2 "even when particles are separated"); the
 * other three start at zero when the bond forms and grow with the relative
 * motion (TinyDEM Eqs. 26-28, 36-38, 50-52), kept in the tangent plane.
 * Torques as for a contact (Eqs. 31-33, 55-59). */
#ifndef GRAINS_BONDS_BOND_H
#define GRAINS_BONDS_BOND_H

#include "contact/hertz_mindlin.h"

/* The stiffnesses and the damping ratio (grains_params' bond_*). */
typedef struct {
    real kn, kt, kr, ko;  /* [M/T^2] */
    real gn, gt, gr, go;  /* 2 zeta sqrt(k) per spring: each dashpot is this times sqrt(m*) */
    real max_force;       /* [ML/T^2] tension or shear that breaks it; 0 = never */
    real max_torque;      /* [ML^2/T^2] rolling or twisting torque that breaks it; 0 = never */
} bond_law;

static inline bond_law bond_law_of(const grains_params *p)
{
    real z2 = 2 * p->bond_damping;
    bond_law b = {p->bond_kn,           p->bond_kt,           p->bond_kr,           p->bond_ko,
                  z2 * sqrt(p->bond_kn), z2 * sqrt(p->bond_kt), z2 * sqrt(p->bond_kr), z2 * sqrt(p->bond_ko),
                  p->bond_max_force,    p->bond_max_torque};
    return b;
}

/* The forces of one bond on i (j gets -f and t_j), the magnitude of its
 * rolling and twisting torque, and whether it broke: when a limit is
 * exceeded the caller applies nothing. The springs in h advance by one
 * step before the force, whatever the run's friction_order: a spring that
 * never slips, advanced after the force (TinyDEM's order, Eq. 52), is
 * forward Euler, u += dt v(t) with v from the old u, and grows by
 * (omega dt)^2 / 2 a step without damping; before the force it is the
 * symplectic Euler, stable for omega dt < 2 (tests/test_bonds.c spins a
 * pair to show it). */
static inline int bond_force(const hm_params *hp, const bond_law *b, const hm_pair *pr, hm_history *h,
                             hm_result *out, real *torque)
{
    hm_motion k = hm_relative_motion(hp, pr, hp->half_step);
    vec3 u_s = project_spring(load3(h->us), k.n_v), u_r = project_spring(load3(h->ur), k.n_v);
    real u_t = h->ut + hp->dt * k.v_t;
    u_s = v3_axpy(u_s, hp->dt, k.v_s);
    u_r = v3_axpy(u_r, hp->dt, k.v_r);
    vec3 v_s = k.v_s, v_r = k.v_r;
    if (hp->half_step) { /* to the full-step plane, as hm_contact */
        u_s = project_spring(u_s, k.n);
        u_r = project_spring(u_r, k.n);
        v_s = project_spring(v_s, k.n);
        v_r = project_spring(v_r, k.n);
    }
    real c = b->gn > 0 ? sqrt(k.m_eff) : 0; /* gamma = 2 zeta sqrt(k m*) */
    real f_n = b->kn * k.delta - c * b->gn * k.v_n;
    vec3 f_s = v3_sub(v3_scale(-b->kt, u_s), v3_scale(c * b->gt, v_s));
    vec3 f_r = v3_sub(v3_scale(-b->kr, u_r), v3_scale(c * b->gr, v_r));
    real f_t = -b->ko * u_t - c * b->go * k.v_t;
    store3(h->us, u_s);
    store3(h->ur, u_r);
    h->ut = u_t;
    hm_compose(&k, f_n, f_s, rolling_torque(&k, f_r), f_t, 0, out);
    *torque = k.R_eff * sqrt(v3_dot(f_r, f_r) + f_t * f_t); /* |R* n x f_r + R* f_t n|, f_r normal to n */
    real F = b->max_force, T = b->max_torque / k.R_eff;
    return (F > 0 && (-f_n > F || v3_dot(f_s, f_s) > F * F)) ||
           (T > 0 && (v3_dot(f_r, f_r) > T * T || fabs(f_t) > T));
}

#endif
