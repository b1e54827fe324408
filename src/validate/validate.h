/* The papers' own test cases, run in a short form by `grains validate`, by
 * the tests that assert them, and by the programs in examples/. Each uses
 * only the public library API (box_fill.c also the engine's header-only
 * random numbers, util/rng.h, for its start state). */
#ifndef GRAINS_VALIDATE_H
#define GRAINS_VALIDATE_H

#include <stdint.h>

#include "grains/error.h"
#include "grains/params.h"
#include "grains/sim.h"

/* Sets the mesh of `sim` to n rectangles, corners 4k .. 4k+3 in order
 * (v0, v1, v3 span each, TinyDEM's parallelogram). */
grains_status validate_rectangles(grains_sim *sim, const grains_vec3 *corner, int n, grains_error *err);

/* Sets the mesh of `sim` to n <= 4 squares of half-edge L in the planes x = x[k]. */
grains_status validate_x_walls(grains_sim *sim, const double *x, int n, double L, grains_error *err);

/* The three-particle test (improved-velocity-Verlet paper, Section 2 and
 * Appendix 1): a fine sphere released at theta0 from the top of the valley
 * between two fixed large spheres that touch, gravity across their axis. */
typedef struct {
    double R;           /* [m] large radius (paper: 2 mm) */
    double ratio;       /* R / r (paper: 7) */
    double mu;          /* sliding friction (paper: 0.6) */
    double theta0;      /* [rad] release angle from the top */
    double steps_per_tc; /* dt = t_c / steps_per_tc, t_c by Eq. 7 (paper: 270) */
    double t_end;       /* [s] simulated time at most */
    grains_integrator integrator;
} tp_setup;

/* The glass of the paper: E = 72 GPa, nu = 0.3, e_n = 0.8, rho = 2500,
 * g = 9.81, R = 2 mm, ratio 7, mu = 0.6, theta0 = 5 degrees, t_c / 50. */
tp_setup tp_default(grains_integrator integrator);

typedef struct {
    int separated;      /* the fine sphere left both large ones */
    double theta_sep;   /* [rad] angle when it left */
    double omega_sep;   /* [1/s] its spin about the valley axis then */
    double t_sep;       /* [s] */
    double theta_max;   /* [rad] largest angle reached while touching */
    double dt, k_n;     /* the timestep and Eq. 1 stiffness used */
    double theta_slide; /* [rad] rigid solution: where sliding begins */
    double omega_err;   /* engine: largest |omega - omega_rigid| / omega_rigid while the rigid
                         * solution rolls, from theta0 + 10 degrees on */
} tp_result;

/* The rigid-body solution of Appendix 1 (Eqs. 33-45): pure rolling until
 * friction reaches mu N, then rolling and sliding until the normal force
 * vanishes. */
void tp_rigid(const tp_setup *s, tp_result *out);

/* The same in the engine: linear spring-dashpot (k_n by Eq. 1 at
 * V0 = sqrt(2 g R), damping by Eq. 31), no rolling or twisting friction, the
 * large spheres as mesh points of radius R. */
grains_status tp_run(const tp_setup *s, tp_result *out, grains_error *err);

/* Eq. 22: the size ratio above which the standard scheme can trap. */
double tp_critical_ratio(double mu);

/* Head-on collision of two equal spheres (R = 1 mm, Table 2 material but
 * E = 1e7): the restitution measured from the velocities before and after,
 * for any contact model and integrator, dt = t_c / steps_per_tc. */
typedef struct {
    grains_contact_model model;
    grains_damping damping;
    grains_integrator integrator;
    double e_n, speed, steps_per_tc;
    double offset;      /* oblique impact: lateral offset of the centres / diameter (0: head-on) */
    double mu;          /* sliding friction (0 = none) */
} rest_setup;

grains_status rest_run(const rest_setup *s, double *e, grains_error *err);

/* The same collision with the linear model against the analytic damped
 * oscillator of the overlap (variational-integrator paper Section 3.1,
 * Eqs. 33-34): m* delta'' = -k_n delta - eta_n delta', delta(0) = 0,
 * delta'(0) = speed. Returns the largest |delta - delta_exact| over the
 * contact, relative to the largest overlap. */
grains_status oscillator_run(const rest_setup *s, double *max_err, grains_error *err);

/* The oblique case of the same impact (variational-integrator paper
 * Section 3.1, Figs. 6-7): the spheres approach along x with their centres
 * `offset` diameters apart in y. Samples the right sphere's translational
 * and rotational kinetic energy, K_T = m (v_x^2 + v_y^2) / 2 and
 * K_R = I w_z^2 / 2, relative to its initial K_T, at t = k t_c / 16 for
 * k = 0 .. OBLIQUE_SAMPLES - 1 (steps_per_tc must be a multiple of 16). */
#define OBLIQUE_SAMPLES 33
grains_status oblique_run(const rest_setup *s, double K_T[OBLIQUE_SAMPLES], double K_R[OBLIQUE_SAMPLES],
                          grains_error *err);

/* A sphere (R = 1 mm) bouncing at 0.1 m/s between two walls 1.01 d apart,
 * linear spring, undamped, t_c = 1e-4 s (variational-integrator paper
 * Section 3.2). */
typedef struct {
    grains_integrator integrator;
    double steps_per_tc;    /* dt = t_c / steps_per_tc */
    int collisions;         /* run until this many collisions have ended */
} bounce_setup;

typedef struct {
    int collisions;
    double drift;           /* E / E0 - 1 after the last collision (all kinetic) */
    double max_dev;         /* largest |E / E0 - 1| at any step, in contact or not */
} bounce_result;

grains_status bounce_run(const bounce_setup *s, bounce_result *out, grains_error *err);

/* Van der Waals attraction (libgran, Hamaker 1937): sphere 1 at gap `gap`
 * from sphere 2 or from a plane wall, both at rest, no gravity. */
typedef struct {
    double A;               /* [J] Hamaker constant */
    double R_1, R_2;        /* [m] radii (R_2 unused against the wall) */
    double delta0, cutoff;  /* [m] saturation gap and cut-off */
    double gap;             /* [m] surface gap */
    int wall;
} vdw_setup;

/* A = 1e-19 J, R_1 = 10 um, R_2 = 5 um, delta0 = 0.4 nm, cut-off 40 nm. */
vdw_setup vdw_default(void);

/* Hamaker's attraction at the setup's gap (saturated below delta0, 0 from
 * the cut-off on), as -dU/dd of the potential by central differences. */
double vdw_expected(const vdw_setup *s);

typedef struct {
    double force;           /* [N] attraction on sphere 1 after one step, m dv / dt */
    double momentum;        /* [kg m/s] total momentum then (0 in exact arithmetic) */
    double impulse;         /* [kg m/s] |momentum of sphere 1| then */
} vdw_result;

grains_status vdw_run(const vdw_setup *s, vdw_result *out, grains_error *err);

/* Filling a box (variational-integrator paper, Section 3.4): BOX_N equal
 * spheres fall into an L x L x BOX_HEIGHT L box (L = BOX_WIDTH d, floor and
 * side walls), linear spring-dashpot, no friction. */
#define BOX_N 218
#define BOX_WIDTH 6
#define BOX_HEIGHT 20
#define BOX_SAMPLES 1001
typedef struct {
    grains_integrator integrator;
    double d;            /* [m] diameter */
    double rho;          /* [kg/m^3] */
    double k_n;          /* [N/m] normal stiffness */
    double e_n;          /* restitution (damping by Eq. 31) */
    double steps_per_tc; /* dt = t_c / steps_per_tc, t_c = pi sqrt(m / (2 k_n)) */
    double z_start;      /* [m] height of the lowest layer of the start lattice */
    double v_random;     /* [m/s] start velocities uniform in +-v_random per component */
    double t_end;        /* [s] */
    double sample;       /* [s] between samples */
    uint64_t seed;
} box_setup;

/* d = 1 cm, rho = 2500, k_n = 1e5 N/m, e_n = 0.5, t_c / 50, lattice from
 * z = 0.2 m, +-0.5 m/s, 0.8 s sampled every 0.01 s, seed 42. */
box_setup box_default(grains_integrator integrator);

double box_mass(const box_setup *s);
double box_contact_time(const box_setup *s);
grains_params box_params(const box_setup *s);

/* The box's floor (z = 0) and four side walls (x, y = 0 and L) up to H,
 * rectangles of radius 0. */
grains_status box_walls(grains_sim *sim, double L, double H, grains_error *err);

/* The start state: 5 x 5 spheres per layer, 1.2 d apart, random velocities. */
void box_start(const box_setup *s, grains_particle out[BOX_N]);

typedef struct {
    int n;                                       /* samples taken */
    double t[BOX_SAMPLES];                       /* [s] */
    double K[BOX_SAMPLES];                       /* [J] mean kinetic energy per particle, Eq. 35 */
    double dv[BOX_SAMPLES];                      /* [m^2/s^2] velocity fluctuation, Eq. 36 */
} box_result;

grains_status box_run(const box_setup *s, box_result *out, grains_error *err);

/* Impact with a bonded pair (variational-integrator paper, Section 3.3,
 * Fig. 10): spheres 0 and 1 (R = 1 mm, rho = 2500), bonded by
 * bond_tolerance = d/100, move at +speed into sphere 2 at -speed, head-on.
 * Linear contact k = 1e4 N/m and bond k_B = k_ratio k, both undamped. */
typedef struct {
    grains_integrator integrator;
    double k_ratio;       /* k_B / k */
    double steps_per_tc;  /* dt = t_c / steps_per_tc, t_c of the contact (Eq. 7) */
    double speed;         /* [m/s] */
    double periods;       /* run for t_c and this many bond periods */
} bp_setup;

/* k_B = k / 4, t_c / 200, 0.1 m/s, 3 periods. */
bp_setup bp_default(grains_integrator integrator);
double bp_contact_time(void);                /* [s] pi sqrt(m / 2k) */
double bp_bond_period(const bp_setup *s);    /* [s] 2 pi / sqrt(2 k_B / m): the pair's own oscillation */

typedef struct {
    size_t bonds;           /* bonds formed (1 expected) */
    int broken;             /* the bond broke at some step */
    double peak_contact;    /* [N] reference's largest contact force */
    double peak_bond;       /* [N] reference's largest |bond force| */
    double err_contact;     /* largest |F_c - reference| / peak_contact, every step */
    double err_bond;        /* largest |F_b - reference| / peak_contact */
    double bond_force_err;  /* largest |grains_bond.force - k_B |delta|| / peak_contact */
    double period;          /* [s] the bond's oscillation after the impact, from zero crossings */
    double energy_drift;    /* E / E0 - 1 at the end (kinetic + both springs) */
    double momentum;        /* [kg m/s] change of the total momentum */
    double pair_speed, ref_pair_speed; /* [m/s] the pair's mean velocity at the end */
} bp_result;

grains_status bp_run(const bp_setup *s, bp_result *out, grains_error *err);

/* Percolation (improved-velocity-Verlet paper, Section 5.2): non-
 * interacting fines fall from 0.2 mm above a frozen random bed of large
 * spheres, periodic in x and y, and percolate under gravity. */
typedef struct {
    grains_integrator integrator;
    double R;            /* [m] large radius (paper: 2 mm) */
    double ratio;        /* R / r (paper: 20) */
    double mu, e_n;      /* sliding friction and restitution (paper: 0.3, 0.8) */
    double rho, nu;      /* (paper: 2500, 0.3) */
    double overlap;      /* Eq. 27's tolerated overlap / fine diameter (paper: 1e-3) */
    double steps_per_tc; /* dt = t_c / steps_per_tc (paper: 40) */
    double width, depth; /* [R] the bed (paper: 20 R x 20 R x 40 R) */
    int n_fines;
    double t_end;        /* [s] (paper: 2 s) */
    double pour_mu;      /* friction of the large spheres while the bed is poured (denser at 0) */
    uint64_t seed;
} perc_setup;

/* The paper's values, with a bed of 10 R x 10 R x 20 R and 64 fines,
 * poured with mu = 0.3. */
perc_setup perc_default(grains_integrator integrator);

double perc_stiffness(const perc_setup *s);    /* [N/m] Eq. 27: m V0^2 / delta^2, V0^2 = 2 g R */
double perc_contact_time(const perc_setup *s); /* [s] Eq. 7 with Eq. 31's damping */

/* The frozen bed: large spheres poured into the periodic box on a floor
 * at z = 0 and settled. */
typedef struct {
    int n;          /* spheres */
    double *x;      /* [m] their centres, 3 n, x and y in [0, W) */
    double top;     /* [m] highest point of the bed */
    double W;       /* [m] the period along x and y */
    double K;       /* [J] kinetic energy left when frozen */
    double packing; /* volume fraction of the spheres below the top */
} perc_bed;

grains_status perc_bed_make(const perc_setup *s, perc_bed *bed, grains_error *err);
void perc_bed_free(perc_bed *bed);

typedef struct {
    int n_fines;
    int trapped;        /* fines still above the bed's floor at t */
    int through;        /* fines that left the bed at the bottom */
    double t;           /* [s] when the run stopped: t_end, or once all are through */
    double t_half;      /* [s] when half of them were through (0: never) */
    double k_n, t_c, dt;
    long steps;
    int n_bed;          /* spheres in the bed */
    int n_elements;     /* mesh spheres, the images across the sides included */
} perc_result;

grains_status perc_run(const perc_setup *s, const perc_bed *bed, perc_result *out, grains_error *err);

/* A column of n spheres (R = 1 mm, rho = 2500) relaxed on a floor,
 * frictionless, k_n = 10 N/m or Hertz with E = 1e6 (validate/column.c). */
typedef struct {
    grains_relax_result relax;
    double worst;       /* largest |overlap / the load's - 1| over the contacts */
} column_result;

grains_status column_run(grains_contact_model model, int n, column_result *out, grains_error *err);

/* The friction test of the membrane paper (Section 3.2, Fig. 6): a sphere
 * of radius 2 mm (glass, Table 2) set down under gravity on a flat membrane
 * of spacing 1.33 mm (latex, Table 2; pair friction mu = 1.2), every vertex
 * held, and dragged along x at 0.05 m/s (grains_sim_guide: free along z,
 * no rotation) by `length`; sampled every step after 2 mm. */
typedef struct {
    double vertex_radius;  /* [m] 0: patches; > 0: the MSS_particle model */
    double length;         /* [m] of drag (> 2 mm) */
    int threads;
} mf_setup;

typedef struct {
    double mu;                      /* the pair's friction coefficient */
    double ratio;                   /* mean fx over mu times mean fz, fx against the drag */
    double ratio_min, ratio_max;    /* of -fx / (mu fz) over the rows in contact */
    double fx_min, fx_max;          /* [N] */
    double fz_mean;                 /* [N] */
    double z_min, z_max;            /* [m] the sphere's height */
    double x_err;                   /* [m] largest |x - x0 - v t| and off-track y */
    double w_max;                   /* [1/s] largest |w| */
    double off;                     /* fraction of rows without contact */
    grains_particle last;           /* the sphere at the end */
} mf_result;

grains_status mf_run(const mf_setup *s, mf_result *out, grains_error *err);

/* The triaxial test of the membrane paper (Section 3.1, case 1: radius
 * 25 mm, height 100 mm, 1,720 grains, patches of 4 mm), shortened: grains
 * grown from 0.7 of their size in 10 ms, the confining pressure ramped to
 * 100 kPa over 10 ms from 5 ms, the platens' servos holding 100 kPa, then
 * from 25 ms the platens closing at 2 x `speed`, until the strain reaches
 * `strain`. */
typedef struct {
    double speed;         /* [m/s] of each platen while loading */
    double strain;        /* the run ends at this axial strain */
    int threads;
} tx_setup;

typedef struct {
    double peak_sigma_d;  /* [Pa] largest sigma_d while loading (a row per ms) */
    double peak_strain;   /* where */
    double sigma_c;       /* [Pa] the confining stress the grains felt there */
    double sin_phi;       /* sigma_d / (sigma_d + 2 sigma_c) there */
    double sigma_c_start; /* [Pa] and sigma_p when loading began */
    double sigma_p_start;
    size_t grains;
} tx_result;

grains_status tx_run(const tx_setup *s, tx_result *out, grains_error *err);

/* Steady simple shear at constant pressure (docs/analysis.md, "mu(I) and
 * phi(I)"; examples/mu_of_I.cfg's grains): 760 spheres, d = 1.8 to 2.2 mm,
 * rho = 2500, E = 1e7, e_n = 0.5, contact friction mu_p (no rolling or
 * twisting), in a box periodic along x, y and z, grown for 1 s at constant
 * volume while sheared at the rate of the inertial number I, then held at
 * P = 10 Pa (P / E = 1e-6); `skip` strains later, `strains` more in 10
 * blocks of box.csv's means. */
typedef struct {
    double mu_p, I, skip, strains;
} shear_setup;

typedef struct {
    double mu, dmu;   /* sigma_xz / P and its standard error from the blocks */
    double phi, dphi; /* solid fraction */
    double P, I;      /* [Pa] the mean normal stress and the inertial number at it */
} shear_result;

grains_status shear_run(const shear_setup *s, shear_result *out, grains_error *err);

/* Flow down a rough incline (docs/analysis.md, "The chute"; examples/chute.cfg's grains and bed):
 * `grains` spheres of d = 2 mm (a layer of about H diameters) on a bed of grains that stay put,
 * a base of `base` x `base` diameters periodic along x and y, gravity at `theta` degrees from the
 * bed's normal; after `settle` s, `samples` profiles over `measure` s more. */
typedef struct {
    double theta, H, base;
    long grains;
    double settle, measure;
    int samples;
} chute_setup;

typedef struct {
    double H;                    /* [d] the layer's depth, bed's top to where phi halves */
    double phi, phi_min, phi_max; /* the bulk's (the middle three fifths of the depth) solid fraction */
    double stress_ratio;         /* -sigma_xz / sigma_zz summed over the bulk */
} chute_result;

grains_status chute_run(const chute_setup *s, chute_result *out, grains_error *err);

#endif
