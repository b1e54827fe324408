/* Default values and range checks for the run parameters (TinyDEM Table 2). */
#include "grains/params.h"
#include "core/coeffs.h"
#include "params_spawn.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The size of version 3 where pointers and reals are 8 bytes: a change of
 * layout that fails this raises GRAINS_PARAMS_VERSION, then this size
 * (scenario/scenario.c keeps grains_scenario's). */
_Static_assert(sizeof(void *) != 8 || sizeof(real) != 8 || sizeof(grains_params) == 18088,
               "grains_params' layout changed: raise GRAINS_PARAMS_VERSION (grains/params.h)");

void grains_params_default_version(grains_params *p, int version)
{
    if (version != GRAINS_PARAMS_VERSION) { /* a program's struct of another layout: touch no more */
        p->version = version;
        return;
    }
    memset(p, 0, sizeof *p);
    p->version = GRAINS_PARAMS_VERSION;
    coeffs_default(p);
    p->R_min = 0.002;
    p->R_max = 0.01;
    p->R_mesh[0] = 0.002;
    p->R_mesh[1] = 0.02;
    p->R_mesh[2] = 0.01;
    p->n_mesh_radii = 3;
    p->s_min = (grains_vec3){-0.1, -0.1, 0.3};
    p->s_max = (grains_vec3){0.1, 0.1, 0.4};
    p->rho = 1e3;
    p->E = 1e6;
    p->nu = 0.3;
    p->e_n = 0.5;
    p->mu_s = 0.3;
    p->mu_r = 0.3;
    p->mu_t = 2 * 0.3 / 3; /* mu_t = 2 mu_s / 3 (Section 2.2) */
    p->mu_s_dyn = p->mu_r_dyn = p->mu_t_dyn = -1; /* = static */
    p->eta = 0;
    p->n_materials = 1;
    p->n_pairs = 0;
    p->spawn_material = 0;
    p->mesh_material = GRAINS_RIGID;
    p->v0 = (grains_vec3){0, 0, -1};
    p->w0 = (grains_vec3){0, 0, 0};
    p->g = (grains_vec3){0, 0, -9.81};
    p->dt = 0; /* Eq. 49 */
    p->N_max = 1000;
    p->N_frames = 100;
    p->N_steps = 500;
    p->N_spawn = 100;
    p->seed = 1;
    p->compat = GRAINS_COMPAT_NONE;
    p->friction_order = GRAINS_FRICTION_BY_COMPAT;
    p->integrator = GRAINS_INTEGRATOR_EULER;
    p->contact_model = GRAINS_CONTACT_HERTZ_MINDLIN;
    p->damping = GRAINS_DAMPING_BY_MODEL;
    p->kernel = GRAINS_KERNEL_VECTOR;
    p->dimension = 3;
    p->plane_normal = 1;
    p->rolling_model = GRAINS_ROLLING_SPRING;
    p->cohesion = GRAINS_COHESION_NONE;
    p->bond_kn = 0;
    p->bond_kt = p->bond_kr = p->bond_ko = -1;
    p->bond_damping = 0;
    p->bond_max_force = p->bond_max_torque = 0;
    p->bond_tolerance = 0;
    p->newton_tol = 1e-10;
    p->newton_max_iter = 20;
    p->skin = 0;
    p->max_overlap = 0.5;
    p->grow_from = 1;
    p->grow_time = 0;
    p->threads = 0;
}

grains_material grains_params_material(const grains_params *p, int k)
{
    return k == 0 ? (grains_material){.rho = p->rho, .E = p->E, .nu = p->nu} : p->material[k];
}

double grains_params_mass(const grains_params *p, int material, double R)
{
    const double pi = 3.14159265358979323846;
    return grains_params_material(p, material).rho * (4.0 / 3.0 * pi * R * R * R);
}

/* A pair value: the pair's own, else the run's. */
static real pick(real own, real run) { return own < 0 ? run : own; }

/* A sub-model's coefficient the pair does not give: the geometric mean of
 * its two materials' values (each material's own, or the run's), as
 * LAMMPS's granular pair style mixes its coefficients; the run's when
 * neither material gives it. A material with itself takes its own. */
static real material_coeff(const grains_params *p, int m, int k)
{
    return m > 0 && (p->material_coeff_given[m] >> k & 1) ? p->material_coeff[m][k] : p->coeff[k];
}

static void mix_coeffs(const grains_params *p, grains_pair_values *v)
{
    for (int k = 0; k < GRAINS_MAX_COEFFS; k++) {
        if (v->coeff_given >> k & 1)
            continue;
        real ca = material_coeff(p, v->a, k), cb = material_coeff(p, v->b, k), both = ca * cb;
        v->coeff[k] = ca == cb                       ? ca
                      : isnormal(both) || both == 0 ? sqrt(both)
                                                    : sqrt(ca) * sqrt(cb); /* (beyond a real's range) */
    }
}

grains_pair_values grains_params_pair(const grains_params *p, int a, int b)
{
    grains_pair_values v = {.a = a, .b = b, .e_n = -1, .mu_s = -1, .mu_r = -1, .mu_t = -1,
                            .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1};
    for (int k = 0; k < p->n_pairs; k++)
        if ((p->pair[k].a == a && p->pair[k].b == b) || (p->pair[k].a == b && p->pair[k].b == a))
            v = p->pair[k], v.a = a, v.b = b;
    /* mu_t follows the pair's own mu_s (TinyDEM Section 2.2) unless given */
    if (v.mu_t < 0 && v.mu_s >= 0)
        v.mu_t = isfinite(2 * v.mu_s) ? 2 * v.mu_s / 3 : v.mu_s / 3 * 2; /* (no overflow at 1e308) */
    v.e_n = pick(v.e_n, p->e_n);
    mix_coeffs(p, &v);
    int own_s = v.mu_s >= 0, own_r = v.mu_r >= 0, own_t = v.mu_t >= 0;
    v.mu_s = pick(v.mu_s, p->mu_s);
    v.mu_r = pick(v.mu_r, p->mu_r);
    v.mu_t = pick(v.mu_t, p->mu_t);
    /* a dynamic value not given is the static one; the run's dynamic value
     * goes with the run's static one only */
    v.mu_s_dyn = pick(v.mu_s_dyn, own_s || p->mu_s_dyn < 0 ? v.mu_s : p->mu_s_dyn);
    v.mu_r_dyn = pick(v.mu_r_dyn, own_r || p->mu_r_dyn < 0 ? v.mu_r : p->mu_r_dyn);
    v.mu_t_dyn = pick(v.mu_t_dyn, own_t || p->mu_t_dyn < 0 ? v.mu_t : p->mu_t_dyn);
    return v;
}

real grains_params_default_dt(const grains_params *p)
{
    real dt = INFINITY;
    for (int k = 0; k < p->n_materials; k++) {
        grains_material m = grains_params_material(p, k);
        dt = fmin(dt, p->R_min * sqrt(m.rho * (1 - m.nu * m.nu) / m.E)); /* Eq. 49 */
    }
    return dt;
}

void grains_params_derive(grains_params *p)
{
    if (p->version != GRAINS_PARAMS_VERSION) /* (refused by the checks: touch nothing) */
        return;
    if (p->dt == 0)
        p->dt = grains_params_default_dt(p);
    if (p->skin == 0)
        /* 0.6 of the smallest size class's largest radius (classes double from
         * R_min, neighbor/grid.h): measured, fewer rebuilds beat fewer
         * candidates (docs/benchmarks.md). Not R_max: the lists are rebuilt
         * when any particle may have moved skin/2, so a larger skin for larger
         * classes would list more and never delay a rebuild. Bonds form
         * between listed pairs: the skin holds their tolerance. */
        p->skin = fmax(0.6 * fmin(p->R_max, 2 * p->R_min), p->bond_tolerance * 2 * p->R_max);
    if (p->box_pressure_time == 0)
        p->box_pressure_time = 200 * p->dt;
    if (p->bond_kt < 0)
        p->bond_kt = 2 * (1 - p->nu) / (2 - p->nu) * p->bond_kn; /* Eq. 6 */
    if (p->bond_kr < 0)
        p->bond_kr = p->bond_kn;
    if (p->bond_ko < 0)
        p->bond_ko = p->bond_kt;
    if (p->mu_s_dyn < 0)
        p->mu_s_dyn = p->mu_s;
    if (p->mu_r_dyn < 0)
        p->mu_r_dyn = p->mu_r;
    if (p->mu_t_dyn < 0)
        p->mu_t_dyn = p->mu_t;
    if (p->cohesion == GRAINS_COHESION_NONE && coeffs_most(p, COEFF_VDW_A) > 0)
        p->cohesion = GRAINS_COHESION_VAN_DER_WAALS;
    p->damping = grains_damping_of(p->damping, p->contact_model);
    if (p->friction_order == GRAINS_FRICTION_BY_COMPAT) /* docs/model.md: TinyDEM's order creates energy */
        p->friction_order = p->compat == GRAINS_COMPAT_TINYDEM ? GRAINS_FRICTION_FORCE_THEN_INCREMENT
                                                                : GRAINS_FRICTION_INCREMENT_THEN_FORCE;
}

static int finite3(grains_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

#define REQUIRE(cond, ...) \
    do { if (!(cond)) return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, __VA_ARGS__); } while (0)

/* One attraction at a time, with what it needs. */
static grains_status check_cohesion(const grains_params *p, grains_error *err)
{
    REQUIRE(p->cohesion >= 0 && p->cohesion < GRAINS_N_COHESIONS, "cohesion: unknown value");
    real hamaker = coeffs_most(p, COEFF_VDW_A);
    REQUIRE(p->cohesion != GRAINS_COHESION_VAN_DER_WAALS || hamaker > 0,
            "cohesion = \"van_der_waals\" needs hamaker > 0 (the Hamaker constant) in some pair of materials");
    if (p->cohesion != GRAINS_COHESION_JKR)
        return GRAINS_OK;
    REQUIRE(hamaker == 0,
            "cohesion = \"jkr\" and hamaker = %g: JKR's work of adhesion already is the surfaces' attraction; "
            "choose one", hamaker);
    REQUIRE(p->contact_model != GRAINS_CONTACT_LINEAR,
            "cohesion = \"jkr\" is Hertz's contact with adhesion: it needs contact_model = \"hertz_mindlin\" or "
            "\"hertz_restitution\", not \"linear\"");
    return GRAINS_OK;
}

/* A damping law with the normal law it was made for: Eqs. 18-21, Eq. 32 and Tsuji's fit are
 * Hertz's, Eq. 31 the linear spring's. */
static grains_status check_damping(const grains_params *p, grains_error *err)
{
    REQUIRE(p->contact_model >= 0 && p->contact_model < GRAINS_N_CONTACT_MODELS, "contact_model: unknown value");
    REQUIRE(p->damping >= GRAINS_DAMPING_BY_MODEL && p->damping < GRAINS_N_DAMPINGS, "damping: unknown value");
    grains_damping d = grains_damping_of(p->damping, p->contact_model);
    int linear = p->contact_model == GRAINS_CONTACT_LINEAR;
    REQUIRE(linear == (d == GRAINS_DAMPING_LINEAR),
            "damping = \"%s\" with contact_model = \"%s\": %s", grains_choice_name(&grains_dampings, d),
            grains_choice_name(&grains_contact_models, p->contact_model),
            linear ? "the linear spring takes its own damping, \"linear\" (Eq. 31)"
                   : "\"linear\" is the linear spring's (Eq. 31); Hertz takes \"tinydem\", \"restitution\" or \"tsuji\"");
    return GRAINS_OK;
}

static grains_status check_geometry(const grains_params *p, grains_error *err)
{
    REQUIRE(isfinite(p->R_min) && p->R_min > 0, "R_min = %g: minimum particle radius must be > 0", p->R_min);
    REQUIRE(isfinite(p->R_max) && p->R_max >= p->R_min,
            "R_max = %g: maximum particle radius must be >= R_min (%g)", p->R_max, p->R_min);
    REQUIRE(p->n_mesh_radii >= 1 && p->n_mesh_radii <= GRAINS_MAX_MESH_RADII,
            "R_mesh: between 1 and %d mesh radii expected, got %d", GRAINS_MAX_MESH_RADII, p->n_mesh_radii);
    for (int k = 0; k < p->n_mesh_radii; k++)
        REQUIRE(isfinite(p->R_mesh[k]) && p->R_mesh[k] >= 0, "R_mesh[%d] = %g: mesh radius must be >= 0",
                k, p->R_mesh[k]);
    REQUIRE(finite3(p->s_min), "s_min: spawn box corner must be finite");
    REQUIRE(finite3(p->s_max), "s_max: spawn box corner must be finite");
    REQUIRE(p->s_max.x >= p->s_min.x && p->s_max.y >= p->s_min.y && p->s_max.z >= p->s_min.z,
            "s_max = (%g,%g,%g): spawn box upper corner must be >= s_min (%g,%g,%g) in every component",
            p->s_max.x, p->s_max.y, p->s_max.z, p->s_min.x, p->s_min.y, p->s_min.z);
    return GRAINS_OK;
}

real coeffs_most(const grains_params *p, int k)
{
    real most = 0;
    for (int a = 0; a < p->n_materials; a++)
        for (int b = a; b < p->n_materials; b++)
            most = fmax(most, grains_params_pair(p, a, b).coeff[k]);
    return most;
}

/* The sub-models' coefficients c of the run or a pair (`where` says
 * which) within the ranges their laws need beyond core/coeffs.h's least
 * values: the linear law's and van der Waals'. */
static grains_status check_coeff_ranges(const real *c, const char *where, grains_error *err)
{
    real V0 = c[COEFF_LINEAR_V0], tol = c[COEFF_LINEAR_OVERLAP_TOL], k_n = c[COEFF_LINEAR_K_N];
    REQUIRE(isfinite(k_n) && k_n >= 0, "%sk_n = %g: normal stiffness must be >= 0 (0: from V0)", where, k_n);
    REQUIRE(isfinite(V0) && V0 > 0, "%sV0 = %g: characteristic impact velocity must be > 0", where, V0);
    REQUIRE(isfinite(tol) && tol >= 0 && tol < 1,
            "%soverlap_tol = %g: tolerated overlap must be in [0, 1) of the smaller diameter", where, tol);
    real A = c[COEFF_VDW_A], delta0 = c[COEFF_VDW_DELTA0], cutoff = c[COEFF_VDW_CUTOFF];
    REQUIRE(isfinite(A) && A >= 0, "%shamaker = %g: Hamaker constant must be >= 0", where, A);
    REQUIRE(isfinite(delta0) && delta0 > 0, "%svdw_delta0 = %g: saturation distance must be > 0", where, delta0);
    REQUIRE(isfinite(cutoff) && (cutoff == 0 || cutoff > delta0),
            "%svdw_cutoff = %g: cut-off must be > vdw_delta0 (%g), or 0 for 100 vdw_delta0", where, cutoff, delta0);
    return GRAINS_OK;
}

/* Each listed pair: two materials, values -1 or in range, listed once. */
static grains_status check_pairs(const grains_params *p, grains_error *err)
{
    REQUIRE(p->n_pairs >= 0 && p->n_pairs <= GRAINS_MAX_PAIRS, "pairs: at most %d pairs, got %d", GRAINS_MAX_PAIRS,
            p->n_pairs);
    for (int k = 0; k < p->n_pairs; k++) {
        const grains_pair_values *v = &p->pair[k];
        REQUIRE(v->a >= 0 && v->a < p->n_materials && v->b >= 0 && v->b < p->n_materials,
                "pairs[%d].between = [%d, %d]: materials are 0 to %d", k, v->a, v->b, p->n_materials - 1);
        for (int l = 0; l < k; l++)
            REQUIRE(!((p->pair[l].a == v->a && p->pair[l].b == v->b) || (p->pair[l].a == v->b && p->pair[l].b == v->a)),
                    "pairs[%d].between = [%d, %d]: this pair is listed before, as pairs[%d]", k, v->a, v->b, l);
        REQUIRE(v->no_contact == 0 || v->no_contact == 1, "pairs[%d].contact: expected true or false", k);
        REQUIRE(v->e_n == -1 || (isfinite(v->e_n) && v->e_n >= 0 && v->e_n <= 1),
                "pairs[%d].e_n = %g: coefficient of normal restitution must be in [0, 1]", k, v->e_n);
        const real mu[6] = {v->mu_s, v->mu_r, v->mu_t, v->mu_s_dyn, v->mu_r_dyn, v->mu_t_dyn};
        const char *names[6] = {"mu_s", "mu_r", "mu_t", "mu_s_dyn", "mu_r_dyn", "mu_t_dyn"};
        for (int m = 0; m < 6; m++)
            REQUIRE(mu[m] == -1 || (isfinite(mu[m]) && mu[m] >= 0), "pairs[%d].%s = %g: friction coefficient must be >= 0",
                    k, names[m], mu[m]);
        char where[32];
        snprintf(where, sizeof where, "pairs[%d].", k);
        grains_status s = coeffs_check(v->coeff, v->coeff_given, where, err);
        if (s != GRAINS_OK)
            return s;
        grains_pair_values r = grains_params_pair(p, v->a, v->b);
        REQUIRE(r.mu_s_dyn <= r.mu_s && r.mu_r_dyn <= r.mu_r && r.mu_t_dyn <= r.mu_t,
                "pairs[%d]: a dynamic friction coefficient exceeds its static one (sliding %g/%g, rolling %g/%g, "
                "twisting %g/%g)", k, r.mu_s_dyn, r.mu_s, r.mu_r_dyn, r.mu_r, r.mu_t_dyn, r.mu_t);
    }
    for (int a = 0; a < p->n_materials; a++) /* each pair's own, or its materials' mixed */
        for (int b = a; b < p->n_materials; b++) {
            grains_pair_values v = grains_params_pair(p, a, b);
            REQUIRE(p->rolling_model != GRAINS_ROLLING_SDS || v.coeff[COEFF_SDS_K_ROLL] > 0,
                    "materials %d and %d: rolling_model = \"sds\" needs its spring: k_roll > 0", a, b);
            REQUIRE(p->cohesion != GRAINS_COHESION_JKR || v.coeff[COEFF_JKR_W] > 0,
                    "materials %d and %d: cohesion = \"jkr\" needs work_of_adhesion > 0 (W, in J/m^2)", a, b);
            REQUIRE(v.coeff[COEFF_TYPE_C_DAMPING] <= 1,
                    "materials %d and %d: rolling_damping = %g: the type C rolling dashpot's fraction of critical "
                    "must be in [0, 1]", a, b, v.coeff[COEFF_TYPE_C_DAMPING]);
            char where[40];
            snprintf(where, sizeof where, "materials %d and %d: ", a, b);
            grains_status s = check_coeff_ranges(v.coeff, where, err);
            if (s != GRAINS_OK)
                return s;
        }
    return GRAINS_OK;
}

/* Whether an integrator moves grains that stay put: the explicit ones
 * (the implicit ones solve for every grain's motion together). */
static int moves_fixed_grains(grains_integrator i)
{
    return i == GRAINS_INTEGRATOR_EULER || i == GRAINS_INTEGRATOR_VERLET || i == GRAINS_INTEGRATOR_VERLET_IMPROVED;
}

/* Material k's grains that stay put (grains_material.fixed). */
static grains_status check_fixed(const grains_params *p, int k, grains_error *err)
{
    const grains_material *m = &p->material[k];
    grains_vec3 v = m->fixed_velocity;
    REQUIRE(m->fixed == 0 || m->fixed == 1, "materials[%d].fixed = %d: 1 (its grains stay put) or 0", k, m->fixed);
    REQUIRE(isfinite(v.x) && isfinite(v.y) && isfinite(v.z),
            "materials[%d].fixed_velocity = [%g, %g, %g]: must be finite", k, v.x, v.y, v.z);
    REQUIRE(m->fixed || (v.x == 0 && v.y == 0 && v.z == 0),
            "materials[%d].fixed_velocity moves the grains of a fixed material: add fixed = true", k);
    REQUIRE(!m->fixed || moves_fixed_grains(p->integrator),
            "materials[%d].fixed: grains that stay put need an explicit integrator (euler, verlet or "
            "verlet_improved), not integrator = \"%s\"", k, grains_choice_name(&grains_integrators, (int)p->integrator));
    return GRAINS_OK;
}

/* The materials beyond 0 and which particles and meshes use. */
static grains_status check_materials(const grains_params *p, grains_error *err)
{
    REQUIRE(p->n_materials >= 1 && p->n_materials <= GRAINS_MAX_MATERIALS,
            "materials: between 0 and %d materials besides rho, E, nu expected, got %d", GRAINS_MAX_MATERIALS - 1,
            p->n_materials - 1);
    for (int k = 1; k < p->n_materials; k++) {
        const grains_material *m = &p->material[k];
        REQUIRE(isfinite(m->rho) && m->rho > 0, "materials[%d].rho = %g: mass density must be > 0", k, m->rho);
        REQUIRE(isfinite(m->E) && m->E > 0, "materials[%d].E = %g: Young's modulus must be > 0", k, m->E);
        REQUIRE(isfinite(m->nu) && m->nu > -1 && m->nu <= 0.5,
                "materials[%d].nu = %g: Poisson's ratio must be in (-1, 0.5]", k, m->nu);
        char where[32];
        grains_status s = check_fixed(p, k, err);
        if (s != GRAINS_OK)
            return s;
        snprintf(where, sizeof where, "materials[%d].", k);
        s = coeffs_check(p->material_coeff[k], p->material_coeff_given[k], where, err);
        if (s != GRAINS_OK)
            return s;
    }
    REQUIRE(p->spawn_material >= 0 && p->spawn_material < p->n_materials,
            "spawn_material = %d: must name a material, 0 to %d", p->spawn_material, p->n_materials - 1);
    REQUIRE(p->mesh_material >= GRAINS_RIGID && p->mesh_material < p->n_materials,
            "mesh_material = %d: must name a material, 0 to %d, or -1 for rigid", p->mesh_material,
            p->n_materials - 1);
    return check_pairs(p, err);
}

static grains_status check_material(const grains_params *p, grains_error *err)
{
    REQUIRE(isfinite(p->rho) && p->rho > 0, "rho = %g: mass density must be > 0", p->rho);
    REQUIRE(isfinite(p->E) && p->E > 0, "E = %g: Young's modulus must be > 0", p->E);
    REQUIRE(isfinite(p->nu) && p->nu > -1 && p->nu <= 0.5, "nu = %g: Poisson's ratio must be in (-1, 0.5]", p->nu);
    grains_status s = check_coeff_ranges(p->coeff, "", err);
    if (s == GRAINS_OK)
        s = check_materials(p, err);
    if (s != GRAINS_OK)
        return s;
    REQUIRE(isfinite(p->e_n) && p->e_n >= 0 && p->e_n <= 1,
            "e_n = %g: coefficient of normal restitution must be in [0, 1]", p->e_n);
    REQUIRE(isfinite(p->mu_s) && p->mu_s >= 0, "mu_s = %g: sliding friction coefficient must be >= 0", p->mu_s);
    REQUIRE(isfinite(p->mu_r) && p->mu_r >= 0, "mu_r = %g: rolling friction coefficient must be >= 0", p->mu_r);
    REQUIRE(isfinite(p->mu_t) && p->mu_t >= 0, "mu_t = %g: twisting friction coefficient must be >= 0", p->mu_t);
    REQUIRE(isfinite(p->eta) && p->eta >= 0, "eta = %g: viscosity must be >= 0", p->eta);
    const real stat[3] = {p->mu_s, p->mu_r, p->mu_t}, dyn[3] = {p->mu_s_dyn, p->mu_r_dyn, p->mu_t_dyn};
    const char *names[3] = {"mu_s", "mu_r", "mu_t"};
    for (int k = 0; k < 3; k++)
        REQUIRE(dyn[k] == -1 || (isfinite(dyn[k]) && dyn[k] >= 0 && dyn[k] <= stat[k]),
                "%s_dyn = %g: dynamic friction coefficient must be in [0, %s = %g] (or -1 for %s)", names[k],
                dyn[k], names[k], stat[k], names[k]);
    return check_cohesion(p, err);
}

static grains_status check_simulation(const grains_params *p, grains_error *err)
{
    REQUIRE(finite3(p->v0), "v0: initial velocity must be finite");
    REQUIRE(finite3(p->w0), "w0: initial angular velocity must be finite");
    REQUIRE(finite3(p->g), "g: gravity must be finite");
    REQUIRE(isfinite(p->dt) && p->dt >= 0, "dt = %g: timestep must be > 0 (or 0 for Eq. 49)", p->dt);
    REQUIRE(p->N_max >= 0 && p->N_max <= 2000000000L, "N_max = %ld: must be in [0, 2e9]", p->N_max);
    REQUIRE(p->N_frames >= 0, "N_frames = %ld: must be >= 0", p->N_frames);
    REQUIRE(p->N_steps <= 0 || p->N_frames <= LONG_MAX / p->N_steps,
            "N_frames = %ld: N_frames x N_steps (%ld) is more steps than a run can count (%ld)", p->N_frames,
            p->N_steps, LONG_MAX);
    REQUIRE(p->N_steps >= 0, "N_steps = %ld: must be >= 0", p->N_steps);
    REQUIRE(p->N_spawn >= 0 && p->N_spawn <= GRAINS_MAX_SPAWN_RATE,
            "N_spawn = %ld: spawn attempts per step must be 0 to %ld", p->N_spawn, GRAINS_MAX_SPAWN_RATE);
    REQUIRE(p->compat >= 0 && p->compat < GRAINS_N_COMPATS, "compat: unknown value");
    REQUIRE(p->friction_order >= GRAINS_FRICTION_BY_COMPAT && p->friction_order < GRAINS_N_FRICTION_ORDERS,
            "friction_order: unknown value");
    REQUIRE(p->integrator >= 0 && p->integrator < GRAINS_N_INTEGRATORS, "integrator: unknown value");
    REQUIRE(p->kernel >= 0 && p->kernel < GRAINS_N_KERNELS, "kernel: unknown value");
    REQUIRE(p->rolling_model >= 0 && p->rolling_model < GRAINS_N_ROLLINGS, "rolling_model: unknown value");
    REQUIRE(p->rolling_model != GRAINS_ROLLING_SDS || p->coeff[COEFF_SDS_K_ROLL] > 0,
            "rolling_model = \"sds\" needs its spring: k_roll > 0 (and gamma_roll, its dashpot, >= 0)");
    REQUIRE(p->periodic >= 0 && p->periodic <= 7, "periodic: unknown value");
    const real lo[3] = {p->box_min.x, p->box_min.y, p->box_min.z}, hi[3] = {p->box_max.x, p->box_max.y, p->box_max.z};
    for (int k = 0; k < 3; k++)
        REQUIRE(!(p->periodic >> k & 1) || (isfinite(lo[k]) && isfinite(hi[k]) && hi[k] > lo[k]),
                "box_max = (%g,%g,%g): along the periodic axis %c the box must have box_max > box_min (%g,%g,%g)",
                hi[0], hi[1], hi[2], "xyz"[k], lo[0], lo[1], lo[2]);
    REQUIRE(isfinite(p->skin) && p->skin >= 0, "skin = %g: Verlet skin must be >= 0", p->skin);
    REQUIRE(isfinite(p->max_overlap) && p->max_overlap > 0,
            "max_overlap = %g: overlap bound must be > 0", p->max_overlap);
    /* from a hundredth: a grain's mass and moment of inertia start at grow_from^3 and ^5 of their own,
     * and from 1e-60 the doubles that hold them underflow to 0 (a state of NaN) */
    REQUIRE(isfinite(p->grow_from) && p->grow_from >= 0.01 && p->grow_from <= 1,
            "grow_from = %g: the starting fraction of the radii must be in [0.01, 1]", p->grow_from);
    REQUIRE(isfinite(p->grow_time) && p->grow_time >= 0 && (p->grow_from == 1 || p->grow_time > 0),
            "grow_time = %g: must be > 0 when grow_from < 1", p->grow_time);
    REQUIRE(p->threads >= 0 && p->threads <= 1024, "threads = %d: must be in [0, 1024]", p->threads);
    return GRAINS_OK;
}

/* Bond stiffnesses, damping, limits; bonds form within the skin. */
static grains_status check_bonds(const grains_params *p, grains_error *err)
{
    const real k[4] = {p->bond_kn, p->bond_kt, p->bond_kr, p->bond_ko};
    const char *names[4] = {"bond_kn", "bond_kt", "bond_kr", "bond_ko"};
    for (int m = 0; m < 4; m++)
        REQUIRE((m > 0 && k[m] == -1) || (isfinite(k[m]) && k[m] >= 0),
                "%s = %g: stiffness must be >= 0%s", names[m], k[m], m ? " (or -1 for the default)" : "");
    REQUIRE(isfinite(p->bond_damping) && p->bond_damping >= 0, "bond_damping = %g: must be >= 0", p->bond_damping);
    REQUIRE(isfinite(p->bond_max_force) && p->bond_max_force >= 0,
            "bond_max_force = %g: must be >= 0 (0: unbreakable)", p->bond_max_force);
    REQUIRE(isfinite(p->bond_max_torque) && p->bond_max_torque >= 0,
            "bond_max_torque = %g: must be >= 0 (0: unbreakable)", p->bond_max_torque);
    REQUIRE(isfinite(p->bond_tolerance) && p->bond_tolerance >= 0 && p->bond_tolerance <= 0.1,
            "bond_tolerance = %g: must be in [0, 0.1] (a fraction of the smaller diameter)", p->bond_tolerance);
    REQUIRE(p->skin == 0 || p->bond_tolerance * 2 * p->R_max <= p->skin,
            "bond_tolerance = %g: bonds form within the Verlet skin, %g; raise skin to at least %g",
            p->bond_tolerance, p->skin, p->bond_tolerance * 2 * p->R_max);
    REQUIRE(p->bond_tolerance == 0 || p->bond_kn > 0, "bond_tolerance = %g forms bonds, but bond_kn = 0",
            p->bond_tolerance);
    return GRAINS_OK;
}

/* The variational integrator's step is a stationary point of an action:
 * every force must derive from a potential (contact springs, gravity, van
 * der Waals) or be a dashpot (variational-integrator paper Section 2.2).
 * Friction springs and bond springs remember their path and have none. */
static grains_status check_variational(const grains_params *p, grains_error *err)
{
    REQUIRE(isfinite(p->newton_tol) && p->newton_tol > 0 && p->newton_tol < 1,
            "newton_tol = %g: must be in (0, 1) (a fraction of R_min)", p->newton_tol);
    REQUIRE(p->newton_max_iter >= 1 && p->newton_max_iter <= 1000, "newton_max_iter = %d: must be in [1, 1000]",
            p->newton_max_iter);
    if (!grains_integrator_variational(p->integrator))
        return GRAINS_OK;
    const char *name = p->integrator == GRAINS_INTEGRATOR_VARIATIONAL_LEFT ? "variational_left" : "variational_midpoint";
    for (int a = 0; a < p->n_materials; a++)
        for (int b = a; b < p->n_materials; b++) {
            grains_pair_values v = grains_params_pair(p, a, b);
            REQUIRE(v.no_contact || (v.mu_s == 0 && v.mu_r == 0 && v.mu_t == 0),
                    "integrator = %s needs a potential for every force (variational-integrator paper "
                    "Section 2.2), but friction (mu_s = %g, mu_r = %g, mu_t = %g between materials %d and %d) "
                    "depends on the path and has none: set mu_s = mu_r = mu_t = 0, or choose euler, verlet or "
                    "verlet_improved", name, v.mu_s, v.mu_r, v.mu_t, a, b);
        }
    REQUIRE(p->cohesion != GRAINS_COHESION_JKR,
            "integrator = %s: a JKR contact holds past touching until it snaps (hysteresis), which no potential "
            "describes: choose euler, verlet or verlet_improved", name);
    REQUIRE(p->bond_kn == 0,
            "integrator = %s needs a potential for every force, but bonds (bond_kn = %g) have sliding, "
            "rolling and twisting springs that depend on the path: choose euler, verlet or verlet_improved",
            name, p->bond_kn);
    return GRAINS_OK;
}

/* A sheared periodic box (Lees-Edwards, docs/model.md): periodic along x,
 * the flow, and z, the gradient; explicit integrators (the implicit ones
 * solve for the velocities without the images' motion); in 2D, the x-z
 * planes (a shear along x moves grains out of any other). */
static grains_status check_shear(const grains_params *p, grains_error *err)
{
    REQUIRE(isfinite(p->shear_rate), "shear_rate = %g: must be a finite number", p->shear_rate);
    if (p->shear_rate == 0)
        return GRAINS_OK;
    REQUIRE((p->periodic & 5) == 5,
            "shear_rate = %g shears a box periodic along x (the flow) and z (the gradient): "
            "set periodic = \"xz\" or \"xyz\"", p->shear_rate);
    REQUIRE(p->integrator == GRAINS_INTEGRATOR_EULER || p->integrator == GRAINS_INTEGRATOR_VERLET ||
                p->integrator == GRAINS_INTEGRATOR_VERLET_IMPROVED,
            "shear_rate: a sheared box needs an explicit integrator (euler, verlet or verlet_improved), not "
            "integrator = \"%s\"", grains_choice_name(&grains_integrators, (int)p->integrator));
    REQUIRE(p->dimension == 3 || p->plane_normal == 1,
            "shear_rate: a 2D sheared box shears in the x-z planes: set plane_normal = \"y\"");
    return GRAINS_OK;
}

/* A box held at a pressure (docs/model.md, "A box held at a pressure"):
 * its height along z follows the grains' sigma_zz, so z must be periodic,
 * and the box must have a volume (its extent along y as given where y is
 * not periodic); the explicit integrators, as a sheared box's; in 2D, the
 * planes must contain z. */
static grains_status check_box_pressure(const grains_params *p, grains_error *err)
{
    REQUIRE(isfinite(p->box_pressure) && p->box_pressure >= 0,
            "box_pressure = %g: the pressure a box's height holds must be >= 0 (0: none)", p->box_pressure);
    REQUIRE(isfinite(p->box_pressure_time) && p->box_pressure_time >= 0,
            "box_pressure_time = %g: the servo's time constant must be >= 0 (0: 200 dt)", p->box_pressure_time);
    if (p->box_pressure == 0)
        return GRAINS_OK;
    REQUIRE(p->periodic & 4, "box_pressure = %g moves the box's height along z: set a box periodic along z "
            "(periodic = \"z\", \"xz\", \"xyz\", ...)", p->box_pressure);
    REQUIRE(p->box_max.x > p->box_min.x && p->box_max.y > p->box_min.y,
            "box_pressure: the stress is a force over the box's volume, which needs box_max > box_min along x and y "
            "too (a 2D run's or a walled axis's extent as given)");
    REQUIRE(p->integrator == GRAINS_INTEGRATOR_EULER || p->integrator == GRAINS_INTEGRATOR_VERLET ||
                p->integrator == GRAINS_INTEGRATOR_VERLET_IMPROVED,
            "box_pressure needs an explicit integrator (euler, verlet or verlet_improved), not integrator = \"%s\"",
            grains_choice_name(&grains_integrators, (int)p->integrator));
    REQUIRE(p->dimension == 3 || p->plane_normal != 2,
            "box_pressure: a 2D run in planes normal to z keeps every z: set plane_normal = \"x\" or \"y\"");
    return GRAINS_OK;
}

/* A component of v along axis a. */
static real axis_part(grains_vec3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

/* A 2D run keeps each particle in its plane only if nothing pushes it out:
 * gravity and the spawned particles' motion must lie in the plane (the
 * contact forces are projected, sim/plane.c). The variational integrators
 * take their own steps, which the projection does not reach. */
static grains_status check_dimension(const grains_params *p, grains_error *err)
{
    static const char axes[] = "xyz";
    REQUIRE(p->dimension == 2 || p->dimension == 3, "dimension = %d: must be 2 or 3", p->dimension);
    REQUIRE(p->plane_normal >= 0 && p->plane_normal <= 2, "plane_normal: unknown value");
    if (p->dimension == 3)
        return GRAINS_OK;
    int a = p->plane_normal;
    REQUIRE(axis_part(p->g, a) == 0,
            "dimension = 2: g = [%g, %g, %g] has a component along plane_normal = \"%c\" and would pull the "
            "grains out of their planes", p->g.x, p->g.y, p->g.z, axes[a]);
    REQUIRE(axis_part(p->v0, a) == 0, "dimension = 2: v0 = [%g, %g, %g] has a component along plane_normal = "
            "\"%c\"", p->v0.x, p->v0.y, p->v0.z, axes[a]);
    REQUIRE(axis_part(p->w0, (a + 1) % 3) == 0 && axis_part(p->w0, (a + 2) % 3) == 0,
            "dimension = 2: w0 = [%g, %g, %g] must spin about plane_normal = \"%c\" only", p->w0.x, p->w0.y,
            p->w0.z, axes[a]);
    REQUIRE(!grains_integrator_variational(p->integrator),
            "dimension = 2 needs an explicit integrator (euler, verlet or verlet_improved)");
    for (int k = 1; k < p->n_materials; k++) {
        grains_vec3 u = p->material[k].fixed_velocity;
        REQUIRE(axis_part(u, a) == 0, "dimension = 2: materials[%d].fixed_velocity = [%g, %g, %g] has a component "
                "along plane_normal = \"%c\" and would move its grains out of their planes", k, u.x, u.y, u.z, axes[a]);
    }
    return GRAINS_OK;
}

grains_status grains_params_version_check(const grains_params *p, grains_error *err)
{
    if (p->version == GRAINS_PARAMS_VERSION)
        return GRAINS_OK;
    return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "grains_params of version %d, and this library reads version "
                            "%d: rebuild the program against the headers installed with it (grains/params.h, "
                            "GRAINS_PARAMS_VERSION), or reach the parameters by name (grains/run.h)", p->version,
                            GRAINS_PARAMS_VERSION);
}

grains_status grains_params_check(const grains_params *p, grains_error *err)
{
    grains_status s = grains_params_version_check(p, err);
    if (s == GRAINS_OK)
        s = check_geometry(p, err);
    if (s == GRAINS_OK)
        s = check_damping(p, err);
    if (s == GRAINS_OK)
        s = check_material(p, err);
    if (s == GRAINS_OK)
        s = check_simulation(p, err);
    if (s == GRAINS_OK)
        s = check_bonds(p, err);
    if (s == GRAINS_OK)
        s = check_variational(p, err);
    if (s == GRAINS_OK)
        s = check_dimension(p, err);
    if (s == GRAINS_OK)
        s = check_shear(p, err);
    if (s == GRAINS_OK)
        s = check_box_pressure(p, err);
    if (s == GRAINS_OK)
        s = params_check_spawns(p, err);
    if (s == GRAINS_OK)
        s = coeffs_check(p->coeff, COEFFS_ALL, "", err);
    return s;
}
