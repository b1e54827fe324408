/* grains validate: the papers' own tests in a short form, one row per
 * quantity: what, the expected value and its source, the measured value,
 * pass or fail. Exit status 0 when every row passes, 1 otherwise. */
#include <math.h>
#include <string.h>

#include "cli/cli.h"
#include "validate/validate.h"

#define DEG (180 / 3.14159265358979323846)

typedef struct {
    int rows, failed;
} tally;


static const char *integrator_name(int i) { return grains_choice_name(&grains_integrators, i); }

static void row(tally *t, const char *what, const char *expected, double measured, int pass)
{
    t->rows++;
    t->failed += !pass;
    printf("%-58s %-44s %12.5g  %s\n", what, expected, measured, pass ? "pass" : "FAIL");
}

static int three_particle(tally *t)
{
    tp_setup s = tp_default(GRAINS_INTEGRATOR_VERLET_IMPROVED);
    tp_result rigid, imp, std;
    grains_error err;
    tp_rigid(&s, &rigid);
    s.t_end = 2 * rigid.t_sep;
    if (tp_run(&s, &imp, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    s.integrator = GRAINS_INTEGRATOR_VERLET;
    if (tp_run(&s, &std, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    char e[64];
    row(t, "3-particle (ratio 7, mu 0.6): rigid solution leaves at [deg]", "61 +- 1 (paper, Fig. 2)",
        rigid.theta_sep * DEG, fabs(rigid.theta_sep * DEG - 61) <= 1);
    snprintf(e, sizeof e, "%.2f +- 3 (rigid, Appendix 1)", rigid.theta_sep * DEG);
    row(t, "3-particle, verlet_improved: leaves at [deg]", e, imp.separated ? imp.theta_sep * DEG : NAN,
        imp.separated && fabs(imp.theta_sep - rigid.theta_sep) * DEG <= 3);
    snprintf(e, sizeof e, "%.1f +- 6%% (rigid, Appendix 1)", rigid.omega_sep);
    row(t, "3-particle, verlet_improved: omega when it leaves [1/s]", e, imp.omega_sep,
        fabs(imp.omega_sep / rigid.omega_sep - 1) <= 0.06);
    row(t, "3-particle, verlet_improved: rolling omega, rel. error", "< 1e-4 (Eq. 34)", imp.omega_err,
        imp.omega_err < 1e-4);
    snprintf(e, sizeof e, "trapped: > 90 (ratio 7 > %.2f, Eq. 22)", tp_critical_ratio(s.mu));
    row(t, "3-particle, verlet: largest angle while touching [deg]", e, std.theta_max * DEG,
        !std.separated && std.theta_max * DEG > 90);
    return 1;
}

/* Worst |e - e_n| over impact speeds 0.1, 1, 10 m/s at dt = t_c / 200, for each contact model
 * with its own damping and for Hertz with Tsuji's. */
static int restitution(tally *t)
{
    static const struct {
        grains_contact_model model;
        grains_damping damping;
    } laws[] = {{GRAINS_CONTACT_HERTZ_MINDLIN, GRAINS_DAMPING_BY_MODEL},
                {GRAINS_CONTACT_LINEAR, GRAINS_DAMPING_BY_MODEL},
                {GRAINS_CONTACT_HERTZ_RESTITUTION, GRAINS_DAMPING_BY_MODEL},
                {GRAINS_CONTACT_HERTZ_MINDLIN, GRAINS_DAMPING_TSUJI}};
    const double e_n[] = {0.1, 0.5, 0.9};
    for (int m = 0; m < 4; m++)
        for (int i = 0; i < GRAINS_N_INTEGRATORS; i++) {
            double worst = 0;
            for (int k = 0; k < 3; k++)
                for (double v = 0.1; v < 20; v *= 10) {
                    rest_setup s = {laws[m].model, laws[m].damping, (grains_integrator)i, e_n[k], v, 200, 0, 0};
                    double e;
                    grains_error err;
                    if (rest_run(&s, &e, &err) != GRAINS_OK)
                        return cli_report(&err), 0;
                    worst = fmax(worst, fabs(e - e_n[k]));
                }
            char what[96];
            const char *law = laws[m].damping == GRAINS_DAMPING_TSUJI
                                  ? "tsuji damping"
                                  : grains_choice_name(&grains_contact_models, laws[m].model);
            snprintf(what, sizeof what, "restitution |e - e_n|, %s, %s", law, integrator_name(i));
            if (laws[m].damping == GRAINS_DAMPING_TSUJI) /* a fit (contact/damping_tsuji.h) */
                row(t, what, "< 3e-3 (the fit to Tsuji's chart 1.1e-3; end of contact)", worst, worst < 3e-3);
            else if (i == GRAINS_INTEGRATOR_VARIATIONAL_LEFT) /* the dashpot at the step's ends: first order */
                row(t, what, "< 5e-3 = h/t_c (left rule: first order)", worst, worst < 5e-3);
            else
                row(t, what, m == 1 ? "< 2e-3 (Eq. 31 exact; end of contact to 1 step)" : "< 2e-3 (Eq. 21 = Eq. 32)",
                    worst, worst < 2e-3);
        }
    return 1;
}

/* Linear head-on impact against the damped oscillator, e_n = 0.5, 0.1 m/s. */
static int oscillator(tally *t)
{
    const double steps[2] = {16, 160}, tol[2] = {0.1, 0.01};
    for (int i = 0; i < GRAINS_N_INTEGRATORS; i++)
        for (int k = 0; k < 2; k++) {
            rest_setup s = {GRAINS_CONTACT_LINEAR, GRAINS_DAMPING_BY_MODEL, (grains_integrator)i, 0.5, 0.1, steps[k],
                            0, 0};
            double e;
            grains_error err;
            if (oscillator_run(&s, &e, &err) != GRAINS_OK)
                return cli_report(&err), 0;
            char what[96], expected[96];
            snprintf(what, sizeof what, "impact vs damped oscillator, %s, h = t_c/%g", integrator_name(i), steps[k]);
            snprintf(expected, sizeof expected, "< %g of delta_max (var. paper Eqs. 33-34)", tol[k]);
            row(t, what, expected, e, e < tol[k]);
        }
    return 1;
}

/* Oblique impact (offset 0.1 d, mu 0.5; frictionless for the variational
 * integrators, which need a potential): the kinetic energy curve of one
 * sphere against the converged one at t_c / 1600. */
static int oblique(tally *t)
{
    const double steps[3] = {1600, 160, 16}, tol[3] = {0, 0.01, 0.1};
    for (int i = 0; i < GRAINS_N_INTEGRATORS; i++) {
        double K_T[3][OBLIQUE_SAMPLES], K_R[OBLIQUE_SAMPLES];
        double mu = grains_integrator_variational((grains_integrator)i) ? 0 : 0.5;
        for (int k = 0; k < 3; k++) {
            rest_setup s = {GRAINS_CONTACT_LINEAR, GRAINS_DAMPING_BY_MODEL, (grains_integrator)i, 0.9, 0.1, steps[k],
                            0.1, mu};
            grains_error err;
            if (oblique_run(&s, K_T[k], K_R, &err) != GRAINS_OK)
                return cli_report(&err), 0;
        }
        for (int k = 1; k < 3; k++) {
            double e = 0;
            for (int j = 0; j < OBLIQUE_SAMPLES; j++)
                e = fmax(e, fabs(K_T[k][j] - K_T[0][j]));
            char what[96], expected[96];
            snprintf(what, sizeof what, "oblique impact%s K_T curve, %s, h = t_c/%g", mu > 0 ? "" : " (mu 0)",
                     integrator_name(i), steps[k]);
            snprintf(expected, sizeof expected, "< %g of K0 (vs h = t_c/1600; var. Figs. 6-7)", tol[k]);
            row(t, what, expected, e, e < tol[k]);
        }
    }
    return 1;
}

/* Undamped bouncing between walls: energy error after 250 collisions. */
static int bounce(tally *t)
{
    for (int i = 0; i < GRAINS_N_INTEGRATORS; i++)
        for (double n = 32; n <= 160; n *= 5) {
            bounce_setup s = {(grains_integrator)i, n, 250};
            bounce_result r;
            grains_error err;
            if (bounce_run(&s, &r, &err) != GRAINS_OK)
                return cli_report(&err), 0;
            char what[96], expected[96];
            snprintf(what, sizeof what, "250 bounces, %s, h = t_c/%g: |E/E0 - 1|", integrator_name(i), n);
            snprintf(expected, sizeof expected, "< %.2g = 2 (h/t_c)^2 (var. paper ~1e-3 at t_c/32)", 2 / (n * n));
            row(t, what, expected, fabs(r.drift), fabs(r.drift) < 2 / (n * n));
        }
    return 1;
}

/* Worst relative error of the attraction against Hamaker's formula over
 * gaps from delta0 / 2 (saturated) to the cut-off. */
static int van_der_waals(tally *t)
{
    const double gaps[] = {0.2e-9, 1e-9, 3e-9, 10e-9, 39e-9};
    for (int wall = 0; wall < 2; wall++) {
        vdw_setup s = vdw_default();
        s.wall = wall;
        double worst = 0;
        for (size_t k = 0; k < sizeof gaps / sizeof gaps[0]; k++) {
            vdw_result r;
            grains_error err;
            s.gap = gaps[k];
            if (vdw_run(&s, &r, &err) != GRAINS_OK)
                return cli_report(&err), 0;
            worst = fmax(worst, fabs(r.force / vdw_expected(&s) - 1));
        }
        row(t, wall ? "van der Waals sphere-wall, 0.2-39 nm: rel. error" : "van der Waals sphere-sphere, 0.2-39 nm: rel. error",
            "< 1e-6 (Hamaker 1937, -dU/dd)", worst, worst < 1e-6);
    }
    return 1;
}

/* Filling a box, short: the cloud falls 0.05 m and settles; each
 * integrator's mean kinetic energy (Eq. 35) falls below 1e-2 of its peak by
 * 0.25 s, and its peak agrees with Verlet's (the comparison with LAMMPS is
 * tests/peers/box_fill.sh) to 2%: the cloud's collisions are chaotic (at
 * t_c/40 the five peaks spread over 1.5%; at t_c/400 Verlet's and the
 * midpoint rule's agree to 0.3%). */
static int box_fill(tally *t)
{
    static box_result r[GRAINS_N_INTEGRATORS];
    for (int i = 0; i < GRAINS_N_INTEGRATORS; i++) {
        box_setup s = box_default((grains_integrator)i);
        s.z_start = 0.05, s.t_end = 0.25, s.steps_per_tc = 40;
        grains_error err;
        if (box_run(&s, &r[i], &err) != GRAINS_OK)
            return cli_report(&err), 0;
    }
    for (int i = 0; i < GRAINS_N_INTEGRATORS; i++) {
        double peak = 0, peak_v = 0;
        for (int k = 0; k < r[i].n; k++)
            peak = fmax(peak, r[i].K[k]), peak_v = fmax(peak_v, r[1].K[k]);
        double last = r[i].K[r[i].n - 1] / peak;
        char what[96];
        snprintf(what, sizeof what, "box filling, %s: K(0.25 s) / peak K", integrator_name(i));
        row(t, what, "< 1e-2 (var. paper Fig. 11: the bed settles)", last, last < 1e-2);
        if (i == GRAINS_INTEGRATOR_VERLET)
            continue;
        snprintf(what, sizeof what, "box filling, %s: peak K / Verlet's - 1", integrator_name(i));
        row(t, what, "< 2e-2 (same fall, chaotic impacts)", fabs(peak / peak_v - 1), fabs(peak / peak_v - 1) < 2e-2);
    }
    return 1;
}

/* Case 5: the bonded pair's impact against the exact three-body solution. */
static int bonded_pair(tally *t)
{
    for (int i = 0; i < 3; i++) {
        bp_setup s = bp_default((grains_integrator)i);
        bp_result r;
        grains_error err;
        if (bp_run(&s, &r, &err) != GRAINS_OK)
            return cli_report(&err), 0;
        double h2 = pow(3.14159265358979323846 / s.steps_per_tc, 2), worst = fmax(r.err_contact, r.err_bond);
        char what[96];
        snprintf(what, sizeof what, "bonded pair, %s: forces vs exact / peak", integrator_name(i));
        row(t, what, "< (pi/200)^2 (var. paper Fig. 10; 3 bodies)", worst, worst < h2 && r.bonds == 1 && !r.broken);
        snprintf(what, sizeof what, "bonded pair, %s: period / 2pi sqrt(m / 2k_B)", integrator_name(i));
        double e = fabs(r.period / bp_bond_period(&s) - 1);
        row(t, what, "< 1e-4 (the pair's own vibration)", e, e < 1e-4);
    }
    return 1;
}

/* The quasi-static limit: columns of 3 spheres relaxed to rest carry the
 * weight above each contact. */
static int relaxation(tally *t)
{
    const char *models[2] = {"linear", "hertz_mindlin"};
    for (int m = 0; m < 2; m++) {
        column_result r;
        grains_error err;
        if (column_run(m ? GRAINS_CONTACT_HERTZ_MINDLIN : GRAINS_CONTACT_LINEAR, 3, &r, &err) != GRAINS_OK)
            return cli_report(&err), 0;
        char what[96];
        snprintf(what, sizeof what, "relaxed column of 3, %s: overlaps / the load's - 1", models[m]);
        row(t, what, m ? "< 1e-6 ((n m g / K)^(2/3), Hertz)" : "< 1e-6 (n m g / k_n)", r.worst,
            r.relax.converged && r.worst < 1e-6);
    }
    return 1;
}

/* Case 2, short: a 10 R x 10 R x 10 R bed, 16 fines, k_n for 1% overlap
 * (Eq. 27; the example runs the paper's 0.1%): the improved scheme lets
 * them all through (paper, Fig. 14: under 2% trapped); the count for the
 * standard scheme is printed, not judged (at 1% overlap it traps none). */
static int percolation(tally *t)
{
    perc_setup s = perc_default(GRAINS_INTEGRATOR_VERLET_IMPROVED);
    s.depth = 10, s.n_fines = 16, s.overlap = 1e-2, s.t_end = 1;
    perc_bed bed;
    perc_result r;
    grains_error err;
    if (perc_bed_make(&s, &bed, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    grains_status st = perc_run(&s, &bed, &r, &err);
    perc_bed_free(&bed);
    if (st != GRAINS_OK)
        return cli_report(&err), 0;
    double f = (double)r.trapped / r.n_fines;
    row(t, "percolation, verlet_improved: fines trapped after 1 s", "< 0.02 (imp. paper Fig. 14: < 2%)", f, f < 0.02);
    return 1;
}

/* The friction test (membrane paper Section 3.2, Fig. 6): on patches, the
 * friction of a plane; on vertex spheres, bumps of the lattice's height.
 * --quick leaves it out: test_membrane_friction drags the same sphere 6 mm
 * (the sanitizer suite's, where this row took half of validate's 620 s). */
static int membrane_friction(tally *t, int quick)
{
    if (quick) {
        printf("%-58s %-44s %12s  %s\n", "friction test (membrane paper Fig. 6)", "(left out: --quick)", "-",
               "skipped");
        return 1;
    }
    mf_setup s = {0, 0.012, 0};
    mf_result patch, particle;
    grains_error err;
    if (mf_run(&s, &patch, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    s.vertex_radius = 8.33e-4;
    if (mf_run(&s, &particle, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    double spread = fmax(patch.ratio_max - 1, 1 - patch.ratio_min);
    row(t, "friction test, patches: |fx / (mu F_n) - 1| while sliding", "< 0.01 (membrane paper Fig. 6: constant)",
        spread, spread < 0.01);
    row(t, "friction test, patches: height range / radius", "< 1e-6 (Fig. 6: constant height)",
        (patch.z_max - patch.z_min) / 0.002, patch.z_max - patch.z_min < 2e-9);
    row(t, "friction test, vertex spheres: height range [um]", "> 10 (Fig. 6: it oscillates)",
        (particle.z_max - particle.z_min) * 1e6, particle.z_max - particle.z_min > 1e-5);
    row(t, "friction test, vertex spheres: fx range / (mu F_n)", "> 0.5 (Fig. 6: it oscillates)",
        (particle.fx_max - particle.fx_min) / (particle.mu * particle.fz_mean),
        particle.fx_max - particle.fx_min > 0.5 * particle.mu * particle.fz_mean);
    return 1;
}

/* The triaxial test's case 1, shortened (membrane paper Section 3.1, Fig. 5). */
static int triaxial(tally *t, int quick)
{
    const char *what = "triaxial case 1 (patches), short: peak sin phi";
    if (quick) {
        printf("%-58s %-44s %12s  %s\n", what, "(left out: --quick)", "-", "skipped");
        return 1;
    }
    tx_setup s = {0.1, 0.06, 0};
    tx_result r;
    grains_error err;
    if (tx_run(&s, &r, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    char e[64];
    row(t, what, "0.33 to 0.47 (phi 19-28 deg, spheres mu 0.25)", r.sin_phi, r.sin_phi > 0.33 && r.sin_phi < 0.47);
    snprintf(e, sizeof e, "> 5e4, at eps %.3f (Fig. 5: a peak)", r.peak_strain);
    row(t, "triaxial case 1, short: peak sigma_d [Pa]", e, r.peak_sigma_d, r.peak_sigma_d > 5e4);
    row(t, "triaxial case 1, short: sigma_c felt at the peak [Pa]", "80e3 to 100e3 (applied 1e5)", r.sigma_c,
        r.sigma_c > 8e4 && r.sigma_c <= 1e5);
    return 1;
}

/* Steady simple shear of frictionless spheres at I = 0.01, against Peyneau
 * & Roux (2008, Phys. Rev. E 78, 011307: 3D DEM of frictionless beads
 * sheared at a given pressure): as I -> 0, mu -> 0.10 (an internal
 * friction angle of 5.8 degrees) and phi -> 0.639, random close packing;
 * above, both move away as powers of I, mu up and phi down. At I = 0.01
 * the step is several hundredths in mu and about 0.01 in phi (this
 * engine's lower I: docs/analysis.md, "mu(I) and phi(I)"); a frictional
 * contact (mu 0.29 at mu_p = 0.1) or a dilute flow (phi below 0.6) lies
 * outside. --quick leaves it out (3 min). */
static int simple_shear(tally *t, int quick)
{
    const char *what = "simple shear, frictionless, I = 0.01: mu = sigma_xz / P";
    if (quick) {
        printf("%-58s %-44s %12s  %s\n", what, "(left out: --quick)", "-", "skipped");
        return 1;
    }
    shear_setup s = {0, 0.01, 0.5, 2};
    shear_result r;
    grains_error err;
    if (shear_run(&s, &r, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    row(t, what, "0.10-0.20 (Peyneau & Roux 2008: 0.10, I->0)", r.mu, r.mu > 0.10 && r.mu < 0.20);
    row(t, "simple shear, frictionless, I = 0.01: solid fraction", "0.62-0.639 (P. & R. 2008: 0.639, I->0)",
        r.phi, r.phi > 0.62 && r.phi < 0.639);
    return 1;
}

/* Steady flow down a rough incline, a layer 8 diameters deep at 24 degrees
 * on a base of 6 x 6 diameters (docs/analysis.md, "The chute"): a steady,
 * uniform flow carries its weight's share along the slope as shear, so the
 * stress ratio -sigma_xz / sigma_zz is tan(theta) at every depth, and its
 * bulk is of one solid fraction (Silbert et al. 2001, Phys. Rev. E 64, 051302).
 * A flow still accelerating has a smaller ratio; a contact force summed
 * with a wrong sign or branch, another. --quick leaves it out (1 min). */
static int chute(tally *t, int quick)
{
    const char *what = "chute, 24 deg, H = 8 d: -sigma_xz / sigma_zz, bulk";
    if (quick) {
        printf("%-58s %-44s %12s  %s\n", what, "(left out: --quick)", "-", "skipped");
        return 1;
    }
    chute_setup s = {24, 8, 6, 314, 0.6, 1.5, 150};
    chute_result r;
    grains_error err;
    if (chute_run(&s, &r, &err) != GRAINS_OK)
        return cli_report(&err), 0;
    double tan_theta = tan(24 * 3.14159265358979323846 / 180);
    row(t, what, "tan 24 deg = 0.4452 +- 0.025 (steady, uniform)", r.stress_ratio,
        fabs(r.stress_ratio - tan_theta) < 0.025);
    row(t, "chute, 24 deg, H = 8 d: bulk solid fraction, max - min", "< 0.02 (Silbert et al. 2001: constant)",
        r.phi_max - r.phi_min, r.phi_max - r.phi_min < 0.02);
    row(t, "chute, 24 deg, H = 8 d: bulk solid fraction", "0.52-0.60 (a dense flow)", r.phi,
        r.phi > 0.52 && r.phi < 0.60);
    return 1;
}

int cli_validate(int argc, char **argv)
{
    int quick = argc == 1 && strcmp(argv[0], "--quick") == 0;
    if (argc > 0 && !quick) {
        fprintf(stderr, "grains: usage: grains validate [--quick]\n");
        return EXIT_INPUT;
    }
    tally t = {0, 0};
    printf("%-58s %-44s %12s  %s\n", "case", "expected (source)", "measured", "result");
    if (!three_particle(&t) || !restitution(&t) || !oscillator(&t) || !oblique(&t) || !bounce(&t) || !van_der_waals(&t) ||
        !box_fill(&t) || !bonded_pair(&t) || !relaxation(&t) || !percolation(&t) || !membrane_friction(&t, quick) ||
        !triaxial(&t, quick) || !simple_shear(&t, quick) || !chute(&t, quick))
        return EXIT_INPUT;
    printf("%d of %d rows pass\n", t.rows - t.failed, t.rows);
    return t.failed ? 1 : 0;
}
