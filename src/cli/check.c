/* grains check: validate a scenario with its mesh and particles, and print
 * the figures that follow from it before anything runs. */
#include <math.h>

#include "cli/cli.h"
#include "contact/submodels.h"
#include "core/coeffs.h"

#define PI 3.14159265358979323846

/* Linear spring: t_c = pi sqrt(m* / k_n) (improved-velocity-Verlet Eq. 7),
 * k_n as the contact kernel chooses it with the run's coefficients (Eqs. 1,
 * 27: contact/normal_linear.h). */
static double linear_time(const grains_params *p, double E_eff, double R_eff, double m_eff)
{
    const linear_coeffs lc = {p->coeff[COEFF_LINEAR_K_N], p->coeff[COEFF_LINEAR_V0],
                              p->coeff[COEFF_LINEAR_OVERLAP_TOL]};
    return PI * sqrt(m_eff / linear_kn(&lc, E_eff, R_eff, m_eff, p->R_min));
}

/* The contact times at the speeds the grains can reach (cli_impact),
 * and the steps each takes. */
static void print_contact_times(const grains_params *p, const cli_impact *im)
{
    int linear = p->contact_model == GRAINS_CONTACT_LINEAR;
    if (!linear && !(im->walls > 0)) {
        printf("  contact time        : no speed to evaluate it at (grains at rest, no gravity fall onto a mesh, no "
               "moving mesh)\n");
        return;
    }
    double m = 4 * PI / 3 * p->rho * p->R_min * p->R_min * p->R_min, v_pp = im->grains > 0 ? im->grains : im->walls;
    double E_pp = p->E / (2 * (1 - p->nu * p->nu)), E_pw = p->E / (1 - p->nu * p->nu);
    double t_pp = linear ? linear_time(p, E_pp, p->R_min / 2, m / 2) : cli_hertz_time(E_pp, p->R_min / 2, m / 2, v_pp);
    double t_pw = linear ? linear_time(p, E_pw, p->R_min, m) : cli_hertz_time(E_pw, p->R_min, m, im->walls);
    const char *which = p->n_materials > 1 ? "material 0, " : "";
    char why[160];
    if (linear)
        printf("  contact time        : %.4g s particle-particle, %.4g s particle-wall (%sR_min, linear, Eq. 7)\n",
               t_pp, t_pw, which);
    else
        printf("  contact time        : %.4g s particle-particle, %.4g s rigid wall (%sR_min, elastic Hertz, at %s)\n",
               t_pp, t_pw, which, cli_impact_why(im, why, sizeof why));
    double fewest = fmin(t_pp, t_pw) / p->dt;
    printf("  steps per contact   : %.1f particle-particle, %.1f particle-wall%s\n", t_pp / p->dt, t_pw / p->dt,
           linear && fewest < 40  ? " (below 40: choose dt <= t_c / 40, improved-Verlet Section 5.1)"
           : !linear && fewest < 10 ? " (below 10: choose dt <= t_c / 10)"
                                    : "");
}

/* E* of two materials (TinyDEM Eq. 15); b == NULL: a rigid wall. */
static double effective_E(const grains_material *a, const grains_material *b)
{
    return 1 / ((1 - a->nu * a->nu) / a->E + (b ? (1 - b->nu * b->nu) / b->E : 0));
}

/* With several materials (or a mesh of a material): each material, and each
 * pair's E*, restitution, friction and Hertz contact time of two R_min
 * spheres at the speed grains can meet at (Eqs. 15, 20). */
/* Each insertion region: where, how fast, which sizes. */
static void print_spawns(const grains_params *p)
{
    for (int k = 0; k < grains_params_n_spawns(p); k++) {
        grains_spawn_region r = grains_params_spawn(p, k);
        printf("  spawn region %d      : %s [%g, %g, %g] to [%g, %g, %g], %ld attempt%s/step, material %d, tag %d, "
               "radii %s", k, r.cylinder ? "cylinder in" : "box", r.lo.x, r.lo.y, r.lo.z, r.hi.x, r.hi.y, r.hi.z,
               r.rate, r.rate == 1 ? "" : "s", r.material, r.tag, grains_choice_name(&grains_size_laws, r.sizes.law));
        if (r.count > 0)
            printf(", %ld particles", r.count);
        printf("\n");
    }
}

static int spawned_material(const grains_params *p, int a)
{
    for (int k = 0; k < grains_params_n_spawns(p); k++)
        if (grains_params_spawn(p, k).material == a)
            return 1;
    return 0;
}

static void print_materials(const grains_params *p, const cli_impact *im)
{
    if (p->n_materials == 1 && p->mesh_material == GRAINS_RIGID && p->n_pairs == 0)
        return;
    double v = im->grains, R = p->R_min;
    for (int a = 0; a < p->n_materials; a++) {
        grains_material m = grains_params_material(p, a);
        printf("  material %d          : rho %g, E %g, nu %g%s%s", a, m.rho, m.E, m.nu,
               spawned_material(p, a) ? "; spawned" : "", a == p->mesh_material ? "; mesh" : "");
        grains_vec3 u = m.fixed_velocity;
        if (m.fixed && u.x == 0 && u.y == 0 && u.z == 0)
            printf("; its grains stay put");
        else if (m.fixed)
            printf("; its grains move at (%g, %g, %g) m/s, whatever pushes them", u.x, u.y, u.z);
        printf("\n");
    }
    for (int a = 0; a < p->n_materials; a++)
        for (int b = a; b < p->n_materials; b++) {
            grains_material ma = grains_params_material(p, a), mb = grains_params_material(p, b);
            grains_pair_values pv = grains_params_pair(p, a, b);
            if (pv.no_contact || (ma.fixed && mb.fixed)) {
                printf("  pair %d-%d            : no contact (%s)\n", a, b,
                       pv.no_contact ? "they pass through each other" : "both stay put");
                continue;
            }
            double m_a = 4 * PI / 3 * ma.rho * R * R * R, m_b = 4 * PI / 3 * mb.rho * R * R * R;
            double m_eff = ma.fixed ? m_b : mb.fixed ? m_a : m_a * m_b / (m_a + m_b); /* fixed: infinitely heavy */
            double E_eff = effective_E(&ma, &mb);
            printf("  pair %d-%d            : E* %.4g, e_n %g, mu_s/r/t %g/%g/%g", a, b, E_eff, pv.e_n, pv.mu_s, pv.mu_r,
                   pv.mu_t);
            if (v > 0 && p->contact_model != GRAINS_CONTACT_LINEAR) {
                double t_c = cli_hertz_time(E_eff, R / 2, m_eff, v);
                printf(", contact time %.4g s = %.1f steps", t_c, t_c / p->dt);
            }
            printf("\n");
        }
}

/* The contact's sub-models (contact/submodels.c), their figures, and the
 * springs each contact keeps. */
static void print_submodels(const grains_params *p)
{
    const submodel *chosen[SUBMODEL_KINDS];
    submodels_chosen(p, chosen);
    printf("  contact sub-models  :");
    for (int k = 0; k < SUBMODEL_KINDS; k++)
        printf(" %s %s%s", submodel_kind_name((submodel_kind)k), chosen[k]->name, k + 1 < SUBMODEL_KINDS ? "," : "");
    int reals = submodels_history(p);
    if (reals > 0)
        printf("; %d reals of history per contact (a friction mode at 0 in every pair keeps none)\n", reals);
    else
        printf("; no springs to keep (one real per contact marks it)\n");
    if (p->rolling_model == GRAINS_ROLLING_TYPE_C)
        printf("  rolling type C      : k_r = 2.25 k_n mu_r^2 R*^2, limit mu_r R* |f_n|, dashpot %g of critical\n",
               grains_params_pair(p, 0, 0).coeff[COEFF_TYPE_C_DAMPING]);
    if (p->cohesion == GRAINS_COHESION_JKR) {
        /* two R_min spheres of material 0: R* = R_min / 2, E* by Eq. 22 */
        double R = p->R_min / 2, E = p->E / (2 * (1 - p->nu * p->nu));
        double W = grains_params_pair(p, 0, 0).coeff[COEFF_JKR_W]; /* (material 0's) */
        double m = 4 * PI / 3 * p->rho * p->R_min * p->R_min * p->R_min;
        double F = 1.5 * PI * W * R, gap = 0.75 * cbrt(PI * PI * W * W * R / (E * E));
        printf("  JKR                 : W = %g J/m^2; two R_min spheres pull off at %.3g N = %.3g x their weight "
               "(|g| = 9.81), snap at a gap of %.3g m\n", W, F, F / (m * 9.81), gap);
    }
}

/* Which laws the run uses, and the figures a user checks them by. */
static void print_models(const grains_params *p)
{
    printf("  model               : %s contacts, %s integrator\n",
           grains_choice_name(&grains_contact_models, p->contact_model),
           grains_choice_name(&grains_integrators, p->integrator));
    if (grains_integrator_variational(p->integrator))
        printf("  implicit steps      : Newton until no update exceeds %g R_min, at most %d iterations\n",
               p->newton_tol, p->newton_max_iter);
    printf("  friction static/dyn : sliding %g/%g, rolling %g/%g, twisting %g/%g\n", p->mu_s, p->mu_s_dyn, p->mu_r,
           p->mu_r_dyn, p->mu_t, p->mu_t_dyn);
    print_submodels(p);
    if (p->periodic) {
        const char *axes[] = {"", "x", "y", "xy", "z", "xz", "yz", "xyz"};
        printf("  periodic            : %s, box (%g, %g, %g) to (%g, %g, %g); the mesh is not periodic\n",
               axes[p->periodic], p->box_min.x, p->box_min.y, p->box_min.z, p->box_max.x, p->box_max.y, p->box_max.z);
    }
    if (p->shear_rate != 0) {
        double H = p->box_max.z - p->box_min.z, U = p->shear_rate * H;
        printf("  sheared box         : images above and below slide along x at +-%g m/s (shear rate %g /s over %g "
               "m); a strain of 1 every %.4g s, %.4g steps\n", U, p->shear_rate, H, 1 / fabs(p->shear_rate),
               1 / (fabs(p->shear_rate) * p->dt));
    }
    if (p->box_pressure > 0) { /* I = shear rate d / sqrt(P / rho) (GDR MiDi 2004), d the mean diameter */
        double d = p->R_min + p->R_max, tau = p->box_pressure_time > 0 ? p->box_pressure_time : 200 * p->dt;
        printf("  box pressure        : the height follows sigma_zz to %g Pa (servo time %.4g s, %.4g steps); "
               "inertial number I = %.4g, P / E = %.3g\n", p->box_pressure, tau, tau / p->dt,
               fabs(p->shear_rate) * d / sqrt(p->box_pressure / p->rho), p->box_pressure / p->E);
    }
    double A = p->coeff[COEFF_VDW_A], delta0 = p->coeff[COEFF_VDW_DELTA0];
    if (A > 0) {
        /* saturated attraction of two R_min spheres: A R* / (6 delta0^2) near contact */
        double R = p->R_min, m = 4 * PI / 3 * p->rho * R * R * R;
        double F = A * (R / 2) / (6 * delta0 * delta0);
        printf("  van der Waals       : A = %g J, pull-off of two R_min spheres ~ %.3g N = %.3g x their weight "
               "(|g| = 9.81)\n", A, F, F / (m * 9.81));
    } else if (coeffs_most(p, COEFF_VDW_A) > 0) {
        printf("  van der Waals       : between the materials that give a Hamaker constant (largest A = %g J)\n",
               coeffs_most(p, COEFF_VDW_A));
    }
    if (p->bond_kn > 0) {
        grains_params d = *p;
        grains_params_derive(&d);
        /* two bonded R_min spheres vibrate along the bond at sqrt(2 k_n / m) */
        double m = 4 * PI / 3 * p->rho * p->R_min * p->R_min * p->R_min, T = 2 * PI / sqrt(2 * d.bond_kn / m);
        printf("  bonds               : k_n %g, k_t %g, k_r %g, k_o %g N/m, damping %g of critical; period %.4g s = "
               "%.1f steps\n", d.bond_kn, d.bond_kt, d.bond_kr, d.bond_ko, d.bond_damping, T, T / d.dt);
        printf("  bonds break at      : force %g N, torque %g N m (0: never); formed within %g d at the start\n",
               d.bond_max_force, d.bond_max_torque, d.bond_tolerance);
    }
}

/* Each entry of `meshes`: its elements and how it moves. */
static void print_meshes(const grains_scenario *sc, const grains_mesh *mesh)
{
    for (int k = 0; k < sc->n_meshes; k++) {
        const grains_scenario_mesh *e = &sc->meshes[k];
        const grains_motion *m = &e->motion;
        size_t n = 0;
        for (size_t el = 0; mesh && el < mesh->n_elements; el++)
            n += mesh->elements[el].body == k;
        printf("  mesh %-2d             : %s, %zu elements, %s", k, e->file, n,
               grains_choice_name(&grains_motions, m->type));
        switch (m->type) {
        case GRAINS_MOTION_LINEAR: printf(" at (%g, %g, %g) m/s", m->velocity.x, m->velocity.y, m->velocity.z); break;
        case GRAINS_MOTION_ROTATE:
            printf(" at %g rad/s about (%g, %g, %g) through (%g, %g, %g)", m->omega, m->axis.x, m->axis.y, m->axis.z,
                   m->point.x, m->point.y, m->point.z);
            break;
        case GRAINS_MOTION_VIBRATE:
            printf(" %g m at %g Hz: peak acceleration %.3g g", m->amplitude, m->frequency,
                   m->amplitude * pow(2 * PI * m->frequency, 2) / 9.81);
            break;
        case GRAINS_MOTION_TABLE: printf(" from %s", e->table); break;
        case GRAINS_MOTION_SERVO:
            printf(" to %g N along (%g, %g, %g), at most %g m/s", m->force, m->axis.x, m->axis.y, m->axis.z,
                   m->max_speed);
            break;
        default: break;
        }
        putchar('\n');
    }
}

/* Each entry of `membranes`: its vertices, model, mass, stiffness, pressure,
 * pins, and the period of its stiffest vertex (how small dt must be). */
static void print_membranes(const grains_scenario *sc, const grains_sim *sim)
{
    static const char *const shapes[] = {"file", "cylinder", "sheet"};
    for (int k = 0; k < sc->n_membranes; k++) {
        const grains_scenario_membrane *e = &sc->membranes[k];
        const grains_membrane_material *m = &e->material;
        size_t n = grains_sim_membrane_vertices(sim, (size_t)k), pinned = 0;
        double lightest = INFINITY;
        grains_membrane_vertex v;
        for (size_t i = 0; i < n; i++)
            grains_sim_get_membrane_vertex(sim, (size_t)k, i, &v), lightest = fmin(lightest, v.mass);
        pinned = (size_t)(e->pin_bottom >= 0) + (size_t)(e->pin_top >= 0) + (size_t)(e->pin_edges >= 0);
        double k_spring = 0.8660254037844386 * m->E * m->d; /* Eq. 7 */
        printf("  membrane %-2d         : %s%s%s, %zu vertices, %s; k = %.4g N/m (Eq. 7), pressure %g Pa; "
               "lightest vertex %.3g kg: 2 pi sqrt(m / 6k) = %.3g s\n",
               k, e->shape == GRAINS_SHAPE_FILE ? e->file : shapes[e->shape], pinned ? ", pinned to " : "",
               pinned ? (e->shape == GRAINS_SHAPE_SHEET ? "a mesh at its rim" : "meshes at its ends") : "", n,
               m->vertex_radius > 0 ? "MSS_particle (vertex spheres)" : "patches", k_spring, m->pressure, lightest,
               2 * PI * sqrt(lightest / (6 * k_spring)));
    }
}

int cli_check(int argc, char **argv)
{
    grains_scenario sc;
    run_flags fl;
    grains_error err;
    grains_sim *sim = NULL;
    if (run_scenario_args(argc, argv, &sc, &fl, &err) != GRAINS_OK || run_load(&sc, NULL, &sim, &err) != GRAINS_OK) {
        cli_report(&err);
        return EXIT_INPUT;
    }
    const grains_params *p = grains_sim_params(sim);
    const grains_mesh *mesh = grains_sim_mesh(sim);
    long steps = p->N_frames * p->N_steps;
    size_t n_max = grains_sim_count(sim) + (size_t)p->N_max;
    printf("%s: OK\n", sc.source[0] ? sc.source : "built-in default scenario");
    cli_warnings(&sc, sim);
    printf("  timestep dt         : %.6g s%s\n", p->dt, p->dt == grains_params_default_dt(p) ? " (Eq. 49)" : "");
    cli_grain_survey gs = cli_survey(p, sim);
    cli_impact im = cli_impact_speed(&sc, p, sim, &gs);
    print_contact_times(p, &im);
    print_models(p);
    print_materials(p, &im);
    printf("  steps               : %ld (%ld frames of %ld)\n", steps, p->N_frames, p->N_steps);
    printf("  simulated time      : %.6g s\n", (double)steps * p->dt);
    printf("  particles           : %zu from file, up to %ld in all\n", grains_sim_count(sim), p->N_max);
    print_spawns(p);
    printf("  mesh                : %zu elements, %zu vertices\n", mesh ? mesh->n_elements : 0,
           mesh ? mesh->n_vertices : 0);
    print_meshes(&sc, mesh);
    print_membranes(&sc, sim);
    /* ~430 bytes per particle measured on a dense pack (docs/benchmarks.md),
     * plus a few MB for the program itself, plus ~250 bytes per mesh element
     * at the peak of reading it (measured: 180,000 triangles of an ASCII STL
     * 45 MB, 2e6 triangles 441 MB) */
    double mesh_mb = mesh ? (double)mesh->n_elements * 250e-6 : 0;
    printf("  memory estimate     : %.3g MB for %zu particles%s\n", (double)n_max * 430e-6 + 3 + mesh_mb, n_max,
           mesh_mb >= 1 ? " and the meshes" : "");
    grains_sim_destroy(sim);
    return 0;
}
