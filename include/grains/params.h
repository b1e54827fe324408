/* Every parameter of a run: TinyDEM's Table 2 plus the engine's own options.
 * Symbols follow the paper; units in brackets ([L] length, [M] mass, [T] time). */
#ifndef GRAINS_PARAMS_H
#define GRAINS_PARAMS_H

#include <stdint.h>

#include "grains/api.h"
#include "grains/choices.h"
#include "grains/error.h"
#include "grains/real.h"

#define GRAINS_MAX_COEFFS 16 /* the contact sub-models' own coefficients (k_roll, ...) */

/* The parameters a run may change between steps (a stage's `set = { mu_s = 0.2; }`, a program's
 * grains_sim_set_named_params): the one list of them, in the order checkpoints keep them. X(name) */
#define GRAINS_CHANGEABLE_PARAMS(X) \
    X(mu_s) X(mu_r) X(mu_t) X(mu_s_dyn) X(mu_r_dyn) X(mu_t_dyn) X(e_n) X(eta) X(shear_rate) X(box_pressure)
#define GRAINS_CHANGEABLE_COUNT(name) +1
enum { GRAINS_N_CHANGEABLE = 0 GRAINS_CHANGEABLE_PARAMS(GRAINS_CHANGEABLE_COUNT) };

GRAINS_API_BEGIN

#define GRAINS_MAX_MESH_RADII 64
#define GRAINS_MAX_MATERIALS 8                         /* material 0 and up to 7 more */
#define GRAINS_MAX_PAIRS (GRAINS_MAX_MATERIALS * (GRAINS_MAX_MATERIALS + 1) / 2)
#define GRAINS_RIGID (-1)                              /* a mesh of no material: E = inf */

/* Elastic constants and density of one material (TinyDEM Eqs. 15-16, 20), and
 * whether its grains stay put. A fixed material's grains (materials 1 and up)
 * move at fixed_velocity without spin, whatever acts on them: infinitely
 * heavy in their contacts (Eq. 20 with m_j = inf), touching free grains
 * alone (no other fixed grain, wall, mesh or membrane), left out of the
 * kinetic energies; an explicit integrator's (euler, verlet,
 * verlet_improved). */
typedef struct {
    real rho;  /* [M/L^3] mass density */
    real E;    /* [M/LT^2] Young's modulus */
    real nu;   /* [-] Poisson's ratio */
    int fixed; /* 1: its grains stay put (or move at fixed_velocity) */
    grains_vec3 fixed_velocity; /* [L/T] of a fixed material's grains; 0 by default */
} grains_material;

/* Restitution and friction of one pair of materials (a with b, either
 * order), or that they do not touch at all. A value of -1 takes the run's own (e_n, mu_s, ...); an unset
 * mu_t is 2/3 of the pair's mu_s when the pair sets mu_s; an unset dynamic
 * coefficient is the pair's static one. */
typedef struct {
    int a, b;
    real e_n;
    real mu_s, mu_r, mu_t;
    real mu_s_dyn, mu_r_dyn, mu_t_dyn;
    int no_contact;  /* 1: the two pass through each other, no force at all (the percolation
                      * test's non-interacting fines); 0: they touch */
    real coeff[GRAINS_MAX_COEFFS]; /* the sub-models' own coefficients (grains_params.coeff) for this
                                    * pair, where coeff_given says so; else the run's */
    unsigned coeff_given;          /* bit k: coeff[k] is the pair's own */
} grains_pair_values;

/* When the static friction springs are incremented (TinyDEM Eq. 52; the list in grains/choices.h).
 * TinyDEM's order (force from the old spring, then u += dt v) creates energy (docs/model.md). */
#define GRAINS_ENUM_FRICTION_ORDER(id, name, doc) GRAINS_FRICTION_##id,
typedef enum {
    GRAINS_FRICTION_BY_COMPAT = -1, /* increment_first, or TinyDEM's order with compat = tinydem */
    GRAINS_FRICTION_ORDER_LIST(GRAINS_ENUM_FRICTION_ORDER)
} grains_friction_order;
#define GRAINS_N_FRICTION_ORDERS (0 GRAINS_FRICTION_ORDER_LIST(GRAINS_COUNT3))

/* How the particle-particle contacts are evaluated: the same bits either
 * way (tests/test_lanes.c); the scalar kernel is the reference, and the
 * benchmarks' baseline. */
#define GRAINS_ENUM_KERNEL(id, name, doc) GRAINS_KERNEL_##id,
typedef enum { GRAINS_KERNEL_LIST(GRAINS_ENUM_KERNEL) } grains_kernel;
#define GRAINS_N_KERNELS (0 GRAINS_KERNEL_LIST(GRAINS_COUNT3))

/* Which conventions the run follows (docs/model.md, "grains and TinyDEM"): the physically
 * correct choices (friction springs incremented before the force, so that no spring that lags a
 * step creates energy; orientations turned by the world-frame spin, left multiplication), or
 * every TinyDEM convention as printed (the force from the old spring, then Eq. 52; Eq. 46's right
 * multiplication by the world-frame spin), so that runs follow TinyDEM's output to round-off. */
#define GRAINS_ENUM_COMPAT(id, name, doc) GRAINS_COMPAT_##id,
typedef enum { GRAINS_COMPAT_LIST(GRAINS_ENUM_COMPAT) } grains_compat;
#define GRAINS_N_COMPATS (0 GRAINS_COMPAT_LIST(GRAINS_COUNT3))

/* Time integration (docs/model.md). Euler: forces from x(t), v(t). Velocity Verlet as LAMMPS,
 * LIGGGHTS, MercuryDPM: forces from x(t+dt) and v(t+dt/2). The variational integrators
 * (Section 2, Algorithm 1 of their paper) are implicit, Newton iterations with conjugate
 * gradients; they need a potential for every force (frictionless contacts, no bonds), taken at
 * q_k+alpha (Eq. 2): alpha = 0, the left rule, first order; alpha = 1/2, the midpoint rule,
 * second order. */
#define GRAINS_ENUM_INTEGRATOR(id, name, inc, half, doc) GRAINS_INTEGRATOR_##id,
typedef enum { GRAINS_INTEGRATOR_LIST(GRAINS_ENUM_INTEGRATOR) } grains_integrator;
#define GRAINS_N_INTEGRATORS (0 GRAINS_INTEGRATOR_LIST(GRAINS_COUNT5))

static inline int grains_integrator_variational(grains_integrator i)
{
    return i == GRAINS_INTEGRATOR_VARIATIONAL_LEFT || i == GRAINS_INTEGRATOR_VARIATIONAL_MIDPOINT;
}

/* Normal and tangential contact law (docs/model.md): TinyDEM's visco-elastic Hertz-Mindlin;
 * the linear spring-dashpot F_n = k_n delta - eta_n v_n, k_t = 2(1-nu)/(2-nu) k_n; Hertz with the
 * restitution-exact damping of Eq. 32 (LAMMPS' coeff_restitution). */
#define GRAINS_ENUM_CONTACT_MODEL(id, name, doc) GRAINS_CONTACT_##id,
typedef enum { GRAINS_CONTACT_MODEL_LIST(GRAINS_ENUM_CONTACT_MODEL) } grains_contact_model;
#define GRAINS_N_CONTACT_MODELS (0 GRAINS_CONTACT_MODEL_LIST(GRAINS_COUNT3))

/* Normal damping law (docs/model.md, "Contact sub-models"); BY_MODEL until derived. */
#define GRAINS_ENUM_DAMPING(id, name, doc) GRAINS_DAMPING_##id,
typedef enum {
    GRAINS_DAMPING_BY_MODEL = -1, /* the contact model's own */
    GRAINS_DAMPING_LIST(GRAINS_ENUM_DAMPING)
} grains_damping;
#define GRAINS_N_DAMPINGS (0 GRAINS_DAMPING_LIST(GRAINS_COUNT3))

/* Rolling resistance (docs/model.md, "Contact sub-models"). Type C: a torque spring
 * k_r = 2.25 k_n mu_r^2 R*^2 on the relative rotation, limited to mu_r R* |f_n|, a dashpot
 * rolling_damping x critical below the limit. */
#define GRAINS_ENUM_ROLLING(id, name, doc) GRAINS_ROLLING_##id,
typedef enum { GRAINS_ROLLING_LIST(GRAINS_ENUM_ROLLING) } grains_rolling_model;
#define GRAINS_N_ROLLINGS (0 GRAINS_ROLLING_LIST(GRAINS_COUNT3))

/* Attraction between surfaces (docs/model.md, "Contact sub-models"). Van der Waals is on when
 * the coefficient hamaker (per pair of materials, as JKR's) is > 0 in some pair. JKR: Hertz with the
 * work of adhesion W (the coefficient work_of_adhesion, per pair of materials: grains_params.coeff,
 * grains_params_pair); pull-off force
 * 3/2 pi W R*, the contact holds until the gap reaches 3/4 (pi^2 W^2 R* / E*^2)^(1/3). */
#define GRAINS_ENUM_COHESION(id, name, doc) GRAINS_COHESION_##id,
typedef enum { GRAINS_COHESION_LIST(GRAINS_ENUM_COHESION) } grains_cohesion;
#define GRAINS_N_COHESIONS (0 GRAINS_COHESION_LIST(GRAINS_COUNT3))

/* The damping law a run uses: its own key, or its contact model's (tinydem for hertz_mindlin,
 * restitution for hertz_restitution, linear for linear). */
static inline grains_damping grains_damping_of(grains_damping damping, grains_contact_model model)
{
    if (damping != GRAINS_DAMPING_BY_MODEL)
        return damping;
    return model == GRAINS_CONTACT_LINEAR              ? GRAINS_DAMPING_LINEAR
           : model == GRAINS_CONTACT_HERTZ_RESTITUTION ? GRAINS_DAMPING_RESTITUTION
                                                       : GRAINS_DAMPING_TINYDEM;
}

#define GRAINS_MAX_SPAWNS 8                            /* insertion regions */
#define GRAINS_MAX_SPAWN_RATE 10000000L                /* spawn attempts per step (each searches the grains and
                                                        * meshes near it: 10^7 take seconds, and a step is not
                                                        * interrupted) */
#define GRAINS_MAX_SIZES 16                            /* radii of a discrete size distribution */
#define GRAINS_MAX_TAG_RULES 16
#define GRAINS_MAX_SINKS 8                             /* outlets */
#define GRAINS_MAX_PROBES 16
#define GRAINS_MAX_PROBE_SIZES 8                       /* radii between the probes' size classes */

/* How an insertion region draws radii (docs/scenario.md, "Insertion"). */
#define GRAINS_ENUM_SIZE_LAW(id, name, doc) GRAINS_SIZES_##id,
typedef enum { GRAINS_SIZE_LAW_LIST(GRAINS_ENUM_SIZE_LAW) } grains_size_law;
#define GRAINS_N_SIZE_LAWS (0 GRAINS_SIZE_LAW_LIST(GRAINS_COUNT3))

typedef struct {
    grains_size_law law;
    real R_lo, R_hi;                      /* [L] uniform: the range; lognormal: the truncation */
    real median, sigma;                   /* lognormal: [L] median radius, [-] deviation of ln R */
    int n;                                /* discrete: the number of radii */
    real R[GRAINS_MAX_SIZES];             /* [L] discrete radii */
    real fraction[GRAINS_MAX_SIZES];      /* [-] their shares (normalised when drawn) */
    int by_mass;                          /* 1: shares of mass; 0: shares of number */
} grains_size_distribution;

/* Where insertion happens: TinyDEM's spawn box (Section 3.1) generalised. Each step
 * `rate` centres are tried, uniform in the region; a radius is drawn from `sizes`
 * and kept until a sphere of it fits (no bias towards small ones); no overlap with
 * particles or meshes. The region stops when it has added `count` particles, or
 * when no attempt has fit for `full_after` steps in a row. */
typedef struct {
    grains_vec3 lo, hi;                   /* [L] the box's corners */
    int cylinder;                         /* 1: the cylinder along z inscribed in the box */
    int material;                         /* of the particles it adds */
    int tag;                              /* their tag */
    long count;                           /* particles to add; 0 = no limit but N_max */
    long rate;                            /* attempts per step */
    long full_after;                      /* steps without a fit that stop it; 0 = never */
    grains_vec3 v0, w0;                   /* [L/T], [1/T] initial velocity and spin */
    grains_size_distribution sizes;
} grains_spawn_region;

/* Every particle whose centre is in the box [lo, hi] takes the tag (the binary
 * stream's separator: grains passing left and right of a splitter are told apart). */
typedef struct {
    grains_vec3 lo, hi;
    int tag;
} grains_tag_rule;

/* An outlet: every particle whose centre is in the box [lo, hi] (cylinder: the
 * cylinder along z inscribed in it, as an insertion region's) at the end of a
 * step is removed then (grains_sim_remove; grains_sim_removals logs it). */
typedef struct {
    grains_vec3 lo, hi;
    int cylinder;
} grains_sink;

/* A probe (grains_sim_probe_rows): a plane counts the grains that cross it
 * during each step, by the side their centres are on at its start and its
 * end (along the normal: +1 and +m, +m v; against it: -1, -m, -m v; within
 * `radius` of `point` when radius > 0); a box counts the grains whose
 * centres it holds when asked. Both by tag and by size class: class k holds
 * the radii in [size[k-1], size[k]) (class 0 those below size[0], class
 * n_sizes those from size[n_sizes-1] on). */
typedef struct {
    int box;                              /* 0: a plane; 1: a box */
    grains_vec3 point, normal;            /* [L], [-] the plane */
    real radius;                          /* [L] the plane's disc about point; 0: the whole plane */
    grains_vec3 lo, hi;                   /* [L] the box */
    int n_sizes;
    real size[GRAINS_MAX_PROBE_SIZES];    /* [L] radii between size classes, ascending */
} grains_probe;

/* The layout of grains_params (and of grains_scenario, which holds one) that this header
 * describes. It is raised whenever a field is added, moved or removed; a new contact
 * sub-model's coefficient changes nothing (it takes a place in coeff[], whose size is fixed).
 * A program records it through grains_params_default (or grains_scenario_default), and every
 * call that takes the struct from the program (grains_params_check, grains_sim_create,
 * grains_sim_set_params, grains_scenario_read, _set, _finish) refuses one of another version,
 * saying to rebuild, instead of reading it at the wrong places. A program that must not be
 * rebuilt for a new release reaches the parameters by name instead (grains/run.h). */
#define GRAINS_PARAMS_VERSION 4

typedef struct {
    int version;                          /* GRAINS_PARAMS_VERSION of the program's header: the
                                           * first member in every version */
    /* geometry */
    real R_min;                           /* [L] minimum particle radius */
    real R_max;                           /* [L] maximum particle radius */
    real R_mesh[GRAINS_MAX_MESH_RADII];   /* [L] mesh radii, indexed from the OFF file */
    int n_mesh_radii;
    grains_vec3 s_min, s_max;             /* [L] spawn box corners */
    int spawn_cylinder;                   /* 1: spawn in the cylinder along z inscribed in the box
                                           * (elliptic if its x and y sides differ); 0: the box */
    /* material */
    real rho;                             /* [M/L^3] mass density */
    real E;                               /* [M/LT^2] Young's modulus */
    real nu;                              /* [-] Poisson's ratio */
    real e_n;                             /* [-] normal restitution coefficient */
    real mu_s, mu_r, mu_t;                /* [-] sliding, rolling, twisting friction */
    real mu_s_dyn, mu_r_dyn, mu_t_dyn;    /* [-] dynamic coefficients (Luding 2008, libgran): a
                                           * mode that breaks its static limit slides at these;
                                           * -1 = the static value (TinyDEM) */
    real eta;                             /* [M/LT] viscosity for Stokes drag */
    /* several materials (material 0 is rho, E, nu above) */
    int n_materials;                      /* 1 + the materials listed below */
    grains_material material[GRAINS_MAX_MATERIALS]; /* [1 .. n_materials-1]; [0] unused */
    /* the contact sub-models' coefficients (k_roll, ...) a material gives, [1 .. n_materials-1]
     * ([0]: the run's coeff): a pair of materials that gives none of its own takes the geometric
     * mean of its two materials' values, each material's own or the run's (grains_params_pair) */
    real material_coeff[GRAINS_MAX_MATERIALS][GRAINS_MAX_COEFFS];
    unsigned material_coeff_given[GRAINS_MAX_MATERIALS]; /* bit k: material_coeff[m][k] is the material's */
    int n_pairs;
    grains_pair_values pair[GRAINS_MAX_PAIRS];
    int spawn_material;                   /* material of spawned particles */
    int n_spawns;                         /* insertion regions listed; 0 = the one of s_min, s_max,
                                           * spawn_cylinder, spawn_material, N_spawn, v0, w0,
                                           * radii uniform in [R_min, R_max] (grains_params_spawn) */
    grains_spawn_region spawn[GRAINS_MAX_SPAWNS];
    int n_tag_rules;
    grains_tag_rule tag_rule[GRAINS_MAX_TAG_RULES]; /* applied in order after every step */
    int n_sinks;
    grains_sink sink[GRAINS_MAX_SINKS];   /* outlets, checked after every step in their order */
    int remove_lost;                      /* 1: a particle lost out of the meshes' box (grains_thermo's
                                           * n_lost) is removed as by a sink */
    int n_probes;
    grains_probe probe[GRAINS_MAX_PROBES];
    int mesh_material;                    /* material of mesh elements that name none;
                                           * GRAINS_RIGID = infinitely stiff (TinyDEM) */
    /* kinetic */
    grains_vec3 v0;                       /* [L/T] initial velocity of spawned particles */
    grains_vec3 w0;                       /* [1/T] initial angular velocity */
    grains_vec3 g;                        /* [L/T^2] gravity */
    /* simulation */
    real dt;                              /* [T] timestep; 0 = Eq. 49 */
    long N_max, N_frames, N_steps, N_spawn;
    uint64_t seed;                        /* spawn random seed */
    /* engine options (not in Table 2) */
    grains_compat compat;
    grains_friction_order friction_order; /* GRAINS_FRICTION_BY_COMPAT until derived */
    grains_integrator integrator;
    grains_contact_model contact_model;
    grains_damping damping;               /* GRAINS_DAMPING_BY_MODEL until derived */
    grains_kernel kernel;
    grains_rolling_model rolling_model;
    grains_cohesion cohesion;             /* NONE with a Hamaker constant > 0 in some pair derives
                                           * VAN_DER_WAALS */
    /* bonded contacts (libgran; docs/model.md): four springs, each with a dashpot */
    real bond_kn;                         /* [M/T^2] normal stiffness; 0 = no bonds */
    real bond_kt, bond_kr, bond_ko;       /* [M/T^2] sliding, rolling, twisting stiffness; -1 =
                                           * 2(1-nu)/(2-nu) bond_kn (Eq. 6), bond_kn, bond_kt */
    real bond_damping;                    /* [-] each dashpot as a fraction of critical,
                                           * gamma = 2 bond_damping sqrt(k m*) */
    real bond_max_force;                  /* [ML/T^2] breaks when tension or shear exceeds it; 0 = never */
    real bond_max_torque;                 /* [ML^2/T^2] breaks when the rolling or twisting torque
                                           * exceeds it; 0 = never */
    real bond_tolerance;                  /* [-] at the first step, bonds form between particles
                                           * whose |gap| < this x the smaller diameter; 0 = none */
    /* variational integrator (docs/model.md) */
    real newton_tol;                      /* [-] Newton stops when no particle moved more than this
                                           * x R_min in the last iteration */
    int newton_max_iter;                  /* Newton iterations at most; more is an error */
    int dimension;                        /* 3, or 2: each particle keeps its plane normal to the
                                           * axis plane_normal (its position along it, no velocity
                                           * along it, spin only about it; TinyDEM Section 3.6) */
    int plane_normal;                     /* 0 x, 1 y, 2 z: the normal of the planes of a 2D run */
    int periodic;                         /* periodic axes: bit 0 x, bit 1 y, bit 2 z; 0 = none */
    grains_vec3 box_min, box_max;         /* [L] the periodic box (used along periodic axes) */
    real shear_rate;                      /* [1/T] a sheared periodic box (Lees-Edwards; periodic
                                           * along x and z): the images above and below move along
                                           * x at +-shear_rate (box_max.z - box_min.z); 0 = none */
    real box_pressure;                    /* [M/LT^2] a box periodic along z whose height follows a
                                           * servo that holds the grains' normal stress sigma_zz at
                                           * this (docs/model.md, "A box held at a pressure"); 0 =
                                           * the height as given */
    real box_pressure_time;               /* [T] that servo's time constant; 0 = 200 dt */
    real skin;                            /* [L] Verlet skin; 0 = 0.6 min(R_max, 2 R_min) */
    real max_overlap;                     /* [-] stop when delta / (2 R*) exceeds this */
    /* densification by growing radii (as Lubachevsky-Stillinger): particles start at grow_from x
     * their radius (added at t = 0; spawned later at the scale of their time) and grow linearly
     * to it by t = grow_time */
    real grow_from;                       /* [-] in (0, 1]; 1 = no growth */
    real grow_time;                       /* [T] > 0 when grow_from < 1 */
    int threads;                          /* 0 = OpenMP default */
    real coeff[GRAINS_MAX_COEFFS];        /* the contact sub-models' own coefficients, each a
                                           * scenario key of its own (k_roll, k_n, hamaker, ...: read
                                           * them by name, grains_scenario_param) */
} grains_params;

/* Table 2 defaults: the paper's hourglass run (eta = 0, mu_t = 2 mu_s / 3), for a program
 * built with grains_params of `version`. Of another version than the library's only the
 * version is written (a struct of that layout may be shorter), and the calls that take it
 * refuse it. */
void grains_params_default_version(grains_params *p, int version);
#define grains_params_default(p) grains_params_default_version((p), GRAINS_PARAMS_VERSION)

/* GRAINS_OK when p is of the library's version; else an error that says to rebuild. */
grains_status grains_params_version_check(const grains_params *p, grains_error *err);

/* Fills the values that derive from others: dt by Eq. 49 when dt == 0, skin when 0, dynamic friction
 * coefficients when -1, the friction order from compat. Call after all values are set and checked. */
void grains_params_derive(grains_params *p);

/* Eq. 49: dt = R_min sqrt(rho (1 - nu^2) / E), the smallest over the materials. */
real grains_params_default_dt(const grains_params *p);

/* Checks the version (grains_params_version_check), then every value against Table 2's
 * "Requirements" column and the engine's own limits; names the offending key in the
 * message. The other functions here trust a checked struct. */
grains_status grains_params_check(const grains_params *p, grains_error *err);

/* The insertion regions: n_spawns, or the one of the run's spawn keys (0 when
 * N_max or N_spawn is 0). */
int grains_params_n_spawns(const grains_params *p);
grains_spawn_region grains_params_spawn(const grains_params *p, int k);

/* Material k (0: rho, E, nu). */
grains_material grains_params_material(const grains_params *p, int k);

/* [M] A sphere's mass: 4 pi / 3 rho R^3 of its material (the frames'
 * mass array and the fields take it so, to the same bits). */
double grains_params_mass(const grains_params *p, int material, double R);

/* The restitution and friction of materials a and b, resolved (no -1). */
grains_pair_values grains_params_pair(const grains_params *p, int a, int b);

/* The k-th name of GRAINS_CHANGEABLE_PARAMS ("mu_s", ...); NULL past the last. */
const char *grains_changeable_name(int k);

GRAINS_API_END

#endif
