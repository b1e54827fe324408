/* The papers' own test cases, run in a short form by `grains validate`, by
 * the tests that assert them, and by the programs in examples/. Each uses
 * only the public library API. */
#ifndef GRAINS_VALIDATE_H
#define GRAINS_VALIDATE_H

#include "grains/error.h"
#include "grains/params.h"

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
    grains_integrator integrator;
    double e_n, speed, steps_per_tc;
} rest_setup;

grains_status rest_run(const rest_setup *s, double *e, grains_error *err);

/* The same collision with the linear model against the analytic damped
 * oscillator of the overlap (variational-integrator paper Section 3.1,
 * Eqs. 33-34): m* delta'' = -k_n delta - eta_n delta', delta(0) = 0,
 * delta'(0) = speed. Returns the largest |delta - delta_exact| over the
 * contact, relative to the largest overlap. */
grains_status oscillator_run(const rest_setup *s, double *max_err, grains_error *err);

#endif
