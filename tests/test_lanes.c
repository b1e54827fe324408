/* The contact kernel in lanes (src/contact/lanes.h) against the scalar one.
 * The vector loop is the scalar kernel compiled for one case at a time:
 * the same operations in the same order, no fused multiply-add (C11 leaves
 * contraction off), IEEE square roots and divisions in every lane. So the
 * bound on their difference is zero, and this test holds them to it:
 * - contact by contact, on random contact states that cover every branch
 *   (sliding, rolling and twisting springs below and beyond Coulomb's
 *   limit, springs out of the tangent plane, zero springs), for the four
 *   cases of the Hertz law (improved Verlet's half step or not, springs
 *   incremented before the force or after) and the linear law, with batches
 *   that fill the vector registers and batches that leave a remainder
 *   (pairs of particles, and particles on walls);
 * - through the force loop: a polydisperse pour onto a floor gives the same
 *   bits with kernel = "vector" and "scalar" for each integrator, and on 1
 *   and 2 threads; so does a pour into a turning box of triangles (wall
 *   contacts in lanes: a moving mesh, two laws, seams where the mesh
 *   selection drops ghosts and hands springs over), the box's force and
 *   torque included; a pour whose run keeps some friction modes' springs
 *   alone (narrow histories, which the lanes unpack and pack back); and a
 *   pour onto a floor in a box periodic along x and
 *   y (period 27 mm, the lattice's own: its outer grains meet across the
 *   box), whose partners' nearest images the lanes now take; and a pour onto
 *   a bed of grains that stay put, open and periodic, whose lanes take each
 *   side's density (+inf for the bed) and whose bed touches not the floor
 *   it dips into (the same contacts too);
 * - a lattice contracting onto itself, at rest in no gravity but for its
 *   contraction, makes all its contacts in one step: each block's histories
 *   overflow its window and the overflow grows (and moves) while a batch of
 *   lanes holds slots in it; the springs still go where the scalar loop
 *   puts them (the same bits; a slot kept past the move is a use after
 *   free under AddressSanitizer, where realloc always moves). A sphere of
 *   6.4 radii at its centre lists more partners than the walk takes in one
 *   run (64), and the nearest of them strike it;
 * - which listed partners the walk visits (entries_to_visit): exactly those
 *   that touch, whose distance is not a number, or that have a history, by
 *   the nearest image across a periodic box, in runs of 64, stopping at the
 *   first mesh element;
 * - the integrators' lane loops (src/integrate/euler_spiral.c,
 *   velocity_verlet.c) against their general loops: the pour with a second,
 *   identical material (which sends forces and integrator through the
 *   general loops) gives the same bits, with each integrator; so do 300
 *   free spins whose turns cross the series' bound, each turned by n |w| dt
 *   about its axis after n steps;
 * - the hot loops compiled for each instruction set (sim/kernels.h: in a
 *   build for x86-64's baseline, SSE2, AVX2 and AVX-512): the pour, the
 *   pour into the turning box and the pour with Verlet give the same bits
 *   with every set this CPU runs. */
#include "check.h"
#include "contact/lanes.h"
#include "interact/contact_visit.h"
#include "sim/sim_internal.h"
#include "support.h"
#include "util/rng.h"

static double uniform(grains_rng *r, double lo, double hi) { return lo + (hi - lo) * rng_uniform(r); }

static vec3 random_vec(grains_rng *r, double scale)
{
    return v3(uniform(r, -scale, scale), uniform(r, -scale, scale), uniform(r, -scale, scale));
}

/* Contact l of a batch: radii around 1 mm, overlaps up to 2% of them, speeds
 * up to 1 cm/s, spins up to 10 rad/s, and springs from 0 (every fourth) to
 * far beyond the Coulomb limit (1e-4 m against overlaps of ~1e-5 m). */
static void random_contact(grains_rng *r, contact_lanes *L, int l)
{
    double R_i = uniform(r, 0.8e-3, 1.2e-3), R_j = uniform(r, 0.8e-3, 1.2e-3);
    vec3 n = random_vec(r, 1);
    double d = (R_i + R_j) * (1 - uniform(r, 1e-6, 0.02));
    real h[LANE_SPRINGS] = {0};
    if (l % 4 != 0) {
        double size = pow(10, uniform(r, -10, -4));
        for (int k = 0; k < LANE_SPRINGS; k++)
            h[k] = uniform(r, -size, size);
    }
    lanes_put(L, l, v3_scale(d / v3_norm(n), n), R_i, R_j, random_vec(r, 0.01), random_vec(r, 0.01), random_vec(r, 10),
              random_vec(r, 10), h);
}

/* Lanes [0, n) through lanes_contacts and each through hm_contact: the
 * number of lanes whose results differ in any bit; *worst is the largest
 * relative difference of a force (reported, should a compiler ever fuse or
 * reorder: with -ffp-contract=fast, up to 1.3e-11 on this
 * machine, from the cancellation in R_i + R_j - d). */
static int lanes_differ(const hm_params *hp, contact_lanes *L, int n, int wall, double *worst)
{
    const hm_law *law = wall ? hm_law_pw(hp, 0, -1) : hm_law_pp(hp, 0, 0);
    contact_lanes in = *L;
    lanes_contacts(hp, law, hp->rho[0], L, n, wall, 0);
    int differ = 0;
    for (int l = 0; l < n; l++) {
        hm_pair pr = {lane_vec(in.x_ij, l), in.R_i[l], in.R_j[l], lane_vec(in.v_i, l), lane_vec(in.v_j, l),
                      lane_vec(in.w_i, l), lane_vec(in.w_j, l), wall, law, hp->rho[0], wall ? 0 : hp->rho[0]};
        hm_history h = {{in.h[0][l], in.h[1][l], in.h[2][l]}, {in.h[3][l], in.h[4][l], in.h[5][l]}, in.h[6][l]};
        hm_result r;
        hm_contact(hp, &pr, &h, &r, 0);
        const real want[] = {r.f.x,   r.f.y,   r.f.z,   r.t_i.x, r.t_i.y, r.t_i.z, r.t_j.x, r.t_j.y,
                             r.t_j.z, r.delta, r.R_eff, h.us[0], h.us[1], h.us[2], h.ur[0], h.ur[1],
                             h.ur[2], h.ut};
        const real got[] = {L->f[0][l],   L->f[1][l],   L->f[2][l],   L->t_i[0][l], L->t_i[1][l], L->t_i[2][l],
                            L->t_j[0][l], L->t_j[1][l], L->t_j[2][l], L->delta[l],  L->R_eff[l],  L->h[0][l],
                            L->h[1][l],   L->h[2][l],   L->h[3][l],   L->h[4][l],   L->h[5][l],   L->h[6][l]};
        differ += memcmp(want, got, sizeof want) != 0;
        *worst = nan_max(*worst, v3_norm(v3_sub(lane_vec(L->f, l), r.f)) / v3_norm(r.f));
    }
    return differ;
}

/* The lanes of a batch whose sliding force sits at Coulomb's limit
 * mu |f_n| (the trial force broke it and was clipped): the rest stuck. */
static int at_limit(contact_lanes *in, contact_lanes *out, int n, double mu)
{
    int k = 0;
    for (int l = 0; l < n; l++) {
        vec3 x = lane_vec(in->x_ij, l), f = lane_vec(out->f, l), e = v3_scale(1 / v3_norm(x), x);
        double f_n = fabs(v3_dot(f, e)), f_s = v3_norm(v3_axpy(f, -v3_dot(f, e), e));
        k += fabs(f_s - mu * f_n) <= 1e-9 * mu * f_n;
    }
    return k;
}

static void kernel_cases(test_ctx *t)
{
    const struct {
        grains_integrator integrator;
        grains_friction_order order;
        grains_contact_model model;
        const char *name;
        double k_n, overlap_tol; /* the linear law's spring: given, by Eq. 27, or (both 0) by Eq. 1 */
    } cases[] = {
        {GRAINS_INTEGRATOR_EULER, GRAINS_FRICTION_FORCE_THEN_INCREMENT, GRAINS_CONTACT_HERTZ_MINDLIN, "hertz, euler, tinydem order", 0, 0},
        {GRAINS_INTEGRATOR_EULER, GRAINS_FRICTION_INCREMENT_THEN_FORCE, GRAINS_CONTACT_HERTZ_MINDLIN, "hertz, euler", 0, 0},
        {GRAINS_INTEGRATOR_VERLET, GRAINS_FRICTION_BY_COMPAT, GRAINS_CONTACT_HERTZ_MINDLIN, "hertz, verlet", 0, 0},
        {GRAINS_INTEGRATOR_VERLET_IMPROVED, GRAINS_FRICTION_BY_COMPAT, GRAINS_CONTACT_HERTZ_RESTITUTION,
         "hertz_restitution, verlet_improved", 0, 0},
        {GRAINS_INTEGRATOR_EULER, GRAINS_FRICTION_BY_COMPAT, GRAINS_CONTACT_LINEAR, "linear (Eq. 1), euler", 0, 0},
        {GRAINS_INTEGRATOR_EULER, GRAINS_FRICTION_FORCE_THEN_INCREMENT, GRAINS_CONTACT_LINEAR,
         "linear (k_n given), euler, tinydem order", 30, 0},
        {GRAINS_INTEGRATOR_VERLET, GRAINS_FRICTION_BY_COMPAT, GRAINS_CONTACT_LINEAR, "linear (k_n given), verlet", 30, 0},
        {GRAINS_INTEGRATOR_VERLET_IMPROVED, GRAINS_FRICTION_BY_COMPAT, GRAINS_CONTACT_LINEAR,
         "linear (Eq. 27), verlet_improved", 0, 0.02},
        {GRAINS_INTEGRATOR_EULER, GRAINS_FRICTION_BY_COMPAT, GRAINS_CONTACT_LINEAR, "linear (Eq. 27), euler", 0, 0.02},
    };
    grains_rng rng;
    rng_seed(&rng, 7);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        grains_params p = scene_params();
        p.integrator = cases[c].integrator, p.friction_order = cases[c].order, p.contact_model = cases[c].model;
        p.mu_s = 0.4, p.mu_r = 0.1, p.mu_t = 0.05, p.e_n = 0.5;
        p.coeff[COEFF_LINEAR_K_N] = cases[c].k_n, p.coeff[COEFF_LINEAR_OVERLAP_TOL] = cases[c].overlap_tol;
        grains_params_derive(&p);
        hm_params hp;
        hm_params_init(&hp, &p);
        int differ = 0, total = 0, sliding = 0;
        double worst = 0;
        for (int batch = 0; batch < 200; batch++) { /* two of every four: particles on a wall */
            contact_lanes L;
            int n = batch % 2 ? LANES : 1 + batch % LANES; /* full, and every remainder */
            for (int l = 0; l < n; l++)
                random_contact(&rng, &L, l);
            contact_lanes in = L;
            differ += lanes_differ(&hp, &L, n, batch / 2 % 2, &worst);
            sliding += at_limit(&in, &L, n, p.mu_s);
            total += n;
        }
        printf("  %s: %d contacts (%d sliding), %d of them differ, forces by %.3g at most\n", cases[c].name, total,
               sliding, differ, worst);
        CHECK(t, differ == 0, "%s: the lanes give the scalar kernel's bits (%d of %d differ)", cases[c].name, differ,
              total);
        CHECK(t, sliding > total / 10 && total - sliding > total / 10,
              "%s: the states cover sliding and sticking contacts (%d of %d slide)", cases[c].name, sliding, total);
    }
}

/* The pours' parameters: radii of 1 to 1.3 mm under gravity, friction in
 * every mode. */
static grains_params pour_params(grains_integrator scheme, grains_kernel kernel, int threads)
{
    grains_params p = scene_params();
    p.R_min = 1e-3, p.R_max = 1.3e-3;
    p.g = (grains_vec3){0, 0, -9.81};
    p.mu_s = 0.4, p.mu_r = 0.1, p.mu_t = 0.05, p.e_n = 0.5;
    p.integrator = scheme, p.kernel = kernel, p.threads = threads;
    return p;
}

/* 600 spheres on a 10 x 10 lattice, six layers, falling with sideways
 * speeds up to `spread`, for 1500 steps. */
static grains_sim *drop_600(grains_sim *sim, uint64_t seed, double spread, const char *name)
{
    const double R = 1e-3;
    grains_rng rng;
    rng_seed(&rng, seed);
    for (int k = 0; k < 600; k++) {
        grains_vec3 x = {(k % 10 - 4.5) * 2.7 * R, (k / 10 % 10 - 4.5) * 2.7 * R, (1.5 + k / 100) * 2.7 * R};
        add(sim, x, (grains_vec3){uniform(&rng, -spread, spread), uniform(&rng, -spread, spread), -0.3},
            (grains_vec3){0, 0, 0}, R * uniform(&rng, 1, 1.3));
    }
    grains_error err;
    if (grains_sim_advance(sim, 1500, &err) != GRAINS_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(1);
    }
    return sim;
}

/* The pour onto a floor. */
static grains_sim *pour(grains_integrator scheme, grains_kernel kernel, int threads, int twin)
{
    grains_params p = pour_params(scheme, kernel, threads);
    if (twin) { /* a second material, the same as the first and unused: the general loops run */
        p.n_materials = 2;
        p.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu};
    }
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 40e-3, 0);
    return drop_600(sim, 3, 0.1, "pour");
}

/* An open box of half-width L and height H, each face two triangles (so
 * that a particle near a seam touches two elements and the mesh selection
 * keeps one contact), the sides rigid, the floor of the particles'
 * material, turning about the y axis at omega. */
static void turning_box(grains_sim *sim, double L, double H, double omega)
{
    grains_mesh *m;
    grains_error err;
    grains_mesh_create(&m, &err);
    for (int k = 0; k < 8; k++) /* corners: bit 0 x, bit 1 y, bit 2 top */
        grains_mesh_add_vertex(m, (grains_vec3){k & 1 ? L : -L, k & 2 ? L : -L, k & 4 ? H : 0}, &err);
    const uint32_t faces[5][4] = {{0, 1, 3, 2}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
    for (int f = 0; f < 5; f++) {
        uint32_t a[3] = {faces[f][0], faces[f][1], faces[f][2]}, b[3] = {faces[f][0], faces[f][2], faces[f][3]};
        if (grains_mesh_add_element(m, 3, a, 0, 0, &err) != GRAINS_OK ||
            grains_mesh_add_element(m, 3, b, 0, 0, &err) != GRAINS_OK) {
            fprintf(stderr, "box: %s\n", err.message);
            exit(1);
        }
        m->elements[2 * f].material = m->elements[2 * f + 1].material = f == 0 ? 0 : -1;
    }
    grains_motion turn = grains_motion_fixed();
    turn.type = GRAINS_MOTION_ROTATE;
    turn.axis = (grains_vec3){0, 1, 0};
    turn.omega = omega;
    if (grains_sim_add_mesh(sim, m, &turn, &err) != GRAINS_OK) {
        fprintf(stderr, "box: %s\n", err.message);
        exit(1);
    }
    grains_mesh_destroy(m);
}

/* The pour into a turning box instead of onto a floor. */
static grains_sim *pour_in_box(grains_integrator scheme, grains_kernel kernel, int threads)
{
    grains_params p = pour_params(scheme, kernel, threads);
    grains_sim *sim = scene(&p);
    turning_box(sim, 14e-3, 20e-3, 3);
    return drop_600(sim, 5, 0.3, "pour in box");
}

static int same_state(const grains_sim *a, const grains_sim *b)
{
    int same = grains_sim_count(a) == grains_sim_count(b);
    for (size_t i = 0; same && i < grains_sim_count(a); i++)
        same = same_particle(get(a, i), get(b, i));
    return same;
}

static void force_loop(test_ctx *t)
{
    const grains_integrator integrators[] = {GRAINS_INTEGRATOR_EULER, GRAINS_INTEGRATOR_VERLET,
                                             GRAINS_INTEGRATOR_VERLET_IMPROVED};
    const char *names[] = {"euler", "verlet", "verlet_improved"};
    for (int k = 0; k < 3; k++) {
        grains_sim *v = pour(integrators[k], GRAINS_KERNEL_VECTOR, 1, 0),
                   *s = pour(integrators[k], GRAINS_KERNEL_SCALAR, 1, 0);
        grains_thermo th;
        grains_sim_thermo(v, &th);
        printf("  pour, %s: %zu contacts after 1500 steps\n", names[k], th.n_contacts);
        CHECK(t, th.n_contacts > 300, "%s: the pour has settled into contacts (%zu)", names[k], th.n_contacts);
        CHECK(t, same_state(v, s), "%s: kernel = \"vector\" and \"scalar\" give bit-identical states", names[k]);
        grains_sim *v2 = pour(integrators[k], GRAINS_KERNEL_VECTOR, 2, 0),
                   *general = pour(integrators[k], GRAINS_KERNEL_VECTOR, 1, 1);
        CHECK(t, same_state(v, v2), "%s: the vector kernel on 1 and 2 threads: bit-identical states", names[k]);
        CHECK(t, same_state(v, general), "%s: the lane loops (contacts, integrator) and the general loops "
              "(a second, identical material) give bit-identical states", names[k]);
        grains_sim_destroy(v2), grains_sim_destroy(general);
        grains_sim_destroy(v), grains_sim_destroy(s);
    }
}

/* 300 grains apart in free flight, no drag, each spinning about its own
 * axis at a rate whose turn per step |w| dt / 2 runs from 2e-3 to 2e-2,
 * across quat_turn's series bound (1e-2): the runs holding a larger turn
 * take their turns again from the kept inputs. With no torque w stays, so
 * after n steps q is the turn by n |w| dt about w's axis (to round-off),
 * and the lanes give the general loops' bits (a second material). */
static grains_sim *fast_spins(grains_integrator scheme, int twin, double *worst)
{
    grains_params p = pour_params(scheme, GRAINS_KERNEL_VECTOR, 1);
    p.g = (grains_vec3){0, 0, 0}, p.eta = 0;
    if (twin) {
        p.n_materials = 2;
        p.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu};
    }
    grains_sim *sim = scene(&p);
    const double R = 1e-3, dt = grains_sim_params(sim)->dt;
    for (int k = 0; k < 300; k++) {
        double a = 2e-3 * (1 + 9 * (k % 37) / 36.0), phi = k * 0.7; /* |w| dt / 2 */
        grains_vec3 axis = {cos(phi) * 0.6, sin(phi) * 0.6, 0.8};
        add(sim, (grains_vec3){(k % 20) * 4 * R, (k / 20) * 4 * R, 0}, (grains_vec3){0, 0, 0},
            (grains_vec3){axis.x * 2 * a / dt, axis.y * 2 * a / dt, axis.z * 2 * a / dt}, R);
    }
    const int n = 40;
    advance(sim, n);
    *worst = 0;
    for (int k = 0; k < 300; k++) {
        double a = 2e-3 * (1 + 9 * (k % 37) / 36.0), phi = k * 0.7;
        grains_quat q = get(sim, (size_t)k).q;
        double s = sin(n * a), want[4] = {cos(n * a), s * cos(phi) * 0.6, s * sin(phi) * 0.6, s * 0.8},
               got[4] = {q.q0, q.q1, q.q2, q.q3};
        for (int c = 0; c < 4; c++)
            *worst = fmax(*worst, fabs(got[c] - want[c]));
    }
    return sim;
}

static void spins_past_the_series(test_ctx *t)
{
    const grains_integrator integrators[] = {GRAINS_INTEGRATOR_EULER, GRAINS_INTEGRATOR_VERLET};
    const char *names[] = {"euler", "verlet"};
    for (int k = 0; k < 2; k++) {
        double err_lanes, err_general;
        grains_sim *lanes = fast_spins(integrators[k], 0, &err_lanes),
                   *general = fast_spins(integrators[k], 1, &err_general);
        printf("  fast spins, %s: q off the exact turn by %.2g\n", names[k], err_lanes);
        CHECK(t, err_lanes < 1e-13, "%s: 40 steps of a free spin turn q by 40 |w| dt about w's axis (off by %.2g)",
              names[k], err_lanes);
        CHECK(t, same_state(lanes, general), "%s: spins past the series bound: the lane loop and the general loop "
              "give bit-identical states", names[k]);
        grains_sim_destroy(lanes), grains_sim_destroy(general);
    }
}

/* The pour onto a floor in a box periodic along x and y, one lattice
 * wide (10 x 2.7 R): the outer columns are 2.7 R apart across the box. */
static grains_sim *pour_periodic(grains_kernel kernel)
{
    grains_params p = pour_params(GRAINS_INTEGRATOR_EULER, kernel, 1);
    p.periodic = 3;
    p.box_min = (grains_vec3){-13.5e-3, -13.5e-3, -1};
    p.box_max = (grains_vec3){13.5e-3, 13.5e-3, 1};
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 40e-3, 0);
    return drop_600(sim, 7, 0.3, "periodic pour");
}

static void periodic_pour(test_ctx *t)
{
    grains_sim *v = pour_periodic(GRAINS_KERNEL_VECTOR), *s = pour_periodic(GRAINS_KERNEL_SCALAR);
    grains_thermo th;
    grains_sim_thermo(v, &th);
    size_t across = 0; /* contacts whose partners are more than half a period apart as stored */
    for (size_t i = 0; i < grains_sim_count(v); i++)
        for (size_t j = i + 1; j < grains_sim_count(v); j++) {
            grains_particle a = get(v, i), b = get(v, j);
            double dx = fabs(a.x.x - b.x.x), dy = fabs(a.x.y - b.x.y), dz = a.x.z - b.x.z;
            double ix = dx > 13.5e-3 ? 27e-3 - dx : dx, iy = dy > 13.5e-3 ? 27e-3 - dy : dy;
            double touch = a.R + b.R;
            across += (dx > 13.5e-3 || dy > 13.5e-3) && ix * ix + iy * iy + dz * dz < touch * touch;
        }
    printf("  periodic pour: %zu contacts, %zu of them across the box\n", th.n_contacts, across);
    CHECK(t, th.n_contacts > 300 && across > 10, "the periodic pour has contacts across the box (%zu of %zu)", across,
          th.n_contacts);
    CHECK(t, same_state(v, s), "periodic pour: kernel = \"vector\" (lanes) and \"scalar\" give bit-identical states");
    grains_sim_destroy(v), grains_sim_destroy(s);
}

/* The pour onto a bed of grains that stay put (material 1, a copy of
 * material 0 but fixed: hm_fixed_copies), 11 x 11 of them (10 x 10 across
 * the period) between the lattice's columns, a floor under them (which they must not touch); in a
 * box periodic along x and y (the bed then meets itself across it), or not. */
static grains_sim *pour_on_bed(grains_integrator scheme, grains_kernel kernel, int threads, int periodic)
{
    grains_params p = pour_params(scheme, kernel, threads);
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu, .fixed = 1};
    if (periodic) {
        p.periodic = 3;
        p.box_min = (grains_vec3){-13.5e-3, -13.5e-3, -1};
        p.box_max = (grains_vec3){13.5e-3, 13.5e-3, 1};
    }
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 40e-3, -1.2e-3); /* 0.05 mm into the bed: a contact, were it not fixed */
    int n = periodic ? 10 : 11; /* (the period is 10 of the lattice's spacings) */
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            add_of(sim, (grains_vec3){(a - 5) * 2.7e-3, (b - 5) * 2.7e-3, 0}, (grains_vec3){0, 0, 0}, 1.25e-3, 1);
    return drop_600(sim, 5, 0.1, "pour on a bed");
}

/* Grains that stay put in the lanes: the pour onto a fixed bed gives the
 * same bits with kernel = "vector" (whose lanes take each side's density,
 * +inf for the bed) and "scalar" (the general loop, every pair's law looked
 * up), for Euler and Verlet, open and periodic, and on 1 and 2 threads; the
 * bed stays put. */
static void fixed_bed(test_ctx *t)
{
    const grains_integrator schemes[2] = {GRAINS_INTEGRATOR_EULER, GRAINS_INTEGRATOR_VERLET};
    for (int k = 0; k < 2; k++)
        for (int periodic = 0; periodic < 2; periodic++) {
            grains_sim *v = pour_on_bed(schemes[k], GRAINS_KERNEL_VECTOR, 1, periodic),
                       *s = pour_on_bed(schemes[k], GRAINS_KERNEL_SCALAR, 1, periodic),
                       *v2 = pour_on_bed(schemes[k], GRAINS_KERNEL_VECTOR, 2, periodic);
            grains_thermo th;
            grains_sim_thermo(v, &th);
            int still = 1;
            for (size_t i = 0; i < (periodic ? 100u : 121u); i++) {
                grains_particle q = get(v, i);
                still &= q.x.z == 0 && q.v.x == 0 && q.v.y == 0 && q.v.z == 0;
            }
            printf("  pour on a fixed bed, %s, %s: %zu contacts\n", k ? "verlet" : "euler",
                   periodic ? "periodic" : "open", th.n_contacts);
            CHECK(t, v->fixed_lanes && th.n_contacts > 400 && still,
                  "the bed's grains go into lanes (%d), are touched (%zu contacts) and stay put (%d)", v->fixed_lanes,
                  th.n_contacts, still);
            grains_thermo th_s;
            grains_sim_thermo(s, &th_s);
            CHECK(t, same_state(v, s) && th.n_contacts == th_s.n_contacts,
                  "pour on a fixed bed: kernel = \"vector\" and \"scalar\" give the same bits and contacts "
                  "(%zu, %zu: the bed touches not the floor it dips into)", th.n_contacts, th_s.n_contacts);
            CHECK(t, same_state(v, v2), "pour on a fixed bed: the same bits on 1 and 2 threads");
            grains_sim_destroy(v), grains_sim_destroy(s), grains_sim_destroy(v2);
        }
}

/* The pour with friction modes left out (a coefficient of 0: the run keeps
 * no spring for the mode, and the lanes take narrow histories). */
static grains_sim *pour_modes(grains_kernel kernel, double mu_s, double mu_r, double mu_t)
{
    grains_params p = pour_params(GRAINS_INTEGRATOR_EULER, kernel, 1);
    p.mu_s = mu_s, p.mu_r = mu_r, p.mu_t = mu_t;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 40e-3, 0);
    return drop_600(sim, 11, 0.1, "pour of some friction modes");
}

static void friction_subsets(test_ctx *t)
{
    const double mu[][3] = {{0.4, 0, 0}, {0.4, 0, 0.05}, {0, 0.1, 0}, {0, 0, 0}};
    for (size_t k = 0; k < sizeof mu / sizeof mu[0]; k++) {
        grains_sim *v = pour_modes(GRAINS_KERNEL_VECTOR, mu[k][0], mu[k][1], mu[k][2]),
                   *s = pour_modes(GRAINS_KERNEL_SCALAR, mu[k][0], mu[k][1], mu[k][2]);
        grains_thermo th;
        grains_sim_thermo(v, &th);
        int width = v->cs.layout.width;
        printf("  pour with mu_s %g, mu_r %g, mu_t %g: %d reals a history, %zu contacts\n", mu[k][0], mu[k][1],
               mu[k][2], width, th.n_contacts);
        CHECK(t, width < STORE_FULL_WIDTH && th.n_contacts > 150, "mu_s %g mu_r %g mu_t %g: narrow histories (%d) "
              "and contacts (%zu)", mu[k][0], mu[k][1], mu[k][2], width, th.n_contacts);
        CHECK(t, same_state(v, s), "mu_s %g mu_r %g mu_t %g: the lanes on narrow histories and the scalar loop give "
              "bit-identical states", mu[k][0], mu[k][1], mu[k][2]);
        grains_sim_destroy(v), grains_sim_destroy(s);
    }
}

/* 8 x 8 x 8 spheres 2.1 R apart (a gap of 0.1 R, within the skin),
 * contracting towards their centre at 60 /s: neighbours close at 0.126 m/s,
 * every gap in the same step, after 0.8 ms (27 steps of Eq. 49's 30 us);
 * 32 steps, to the middle of the impacts. At the centre a sphere of 6.4 R
 * at rest, in place of the lattice's spheres closer than 7.45 R: 352
 * spheres and 768 lattice bonds are left, and the 48 spheres 7.5 R from the
 * centre close their gap of 0.1 R to it at 0.45 m/s, after 7 steps. */
static grains_sim *contracting_lattice(grains_kernel kernel, size_t *struck)
{
    const double R = 1e-3, a = 2.1 * R, rate = 60, R_big = 6.4 * R;
    grains_params p = pour_params(GRAINS_INTEGRATOR_EULER, kernel, 1);
    p.g = (grains_vec3){0, 0, 0};
    p.R_max = R_big;
    grains_sim *sim = scene(&p);
    add(sim, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R_big);
    for (int k = 0; k < 512; k++) {
        grains_vec3 x = {(k % 8 - 3.5) * a, (k / 8 % 8 - 3.5) * a, (k / 64 - 3.5) * a};
        if (x.x * x.x + x.y * x.y + x.z * x.z >= (R_big + 1.05 * R) * (R_big + 1.05 * R))
            add(sim, x, (grains_vec3){-rate * x.x, -rate * x.y, -rate * x.z}, (grains_vec3){0, 0, 0}, R);
    }
    advance(sim, 10); /* the lattice still open: every contact is the big sphere's */
    grains_thermo th;
    grains_sim_thermo(sim, &th);
    *struck = th.n_contacts;
    advance(sim, 22);
    return sim;
}

/* The longest of the lists. */
static uint32_t longest_list(const grains_sim *sim)
{
    uint32_t longest = 0;
    for (size_t i = 0; i < sim->nb.n_particles; i++)
        longest = sim->nb.start[i + 1] - sim->nb.start[i] > longest ? sim->nb.start[i + 1] - sim->nb.start[i]
                                                                     : longest;
    return longest;
}

static void contracting(test_ctx *t)
{
    size_t struck, struck_s;
    grains_sim *v = contracting_lattice(GRAINS_KERNEL_VECTOR, &struck),
               *s = contracting_lattice(GRAINS_KERNEL_SCALAR, &struck_s);
    grains_thermo th;
    grains_sim_thermo(v, &th);
    printf("  contracting lattice: %zu spheres on the big one after 10 steps, %zu contacts after 32, the longest "
           "list %u entries\n", struck, th.n_contacts, longest_list(v));
    CHECK(t, longest_list(v) > 64 && struck > 0, "the big sphere lists more than a run of the walk (%u) and is "
          "struck (%zu)", longest_list(v), struck);
    CHECK(t, th.n_contacts > 600, "most of the lattice's 768 bonds have closed into contacts (%zu)", th.n_contacts);
    CHECK(t, same_state(v, s), "contracting lattice: kernel = \"vector\" and \"scalar\" give bit-identical states");
    grains_sim_destroy(v), grains_sim_destroy(s);
}

/* 150 partners of particle 0 at random distances around touching, every
 * third with a history, one at a NaN position, then two mesh elements; in a
 * box periodic along x (period 8 mm) or in an open one. entries_to_visit
 * against the definition, partner by partner. */
static void visits(test_ctx *t)
{
    enum { N = 151 };
    static vec3 x[N];
    static real R[N];
    uint32_t list[N + 2];
    grains_particles pt = {.n = N, .x = x, .R = R};
    periodic_box box = {.mask = 1, .L = {8e-3, 0, 0}, .inv_L = {1 / 8e-3, 0, 0}};
    grains_rng rng;
    rng_seed(&rng, 11);
    x[0] = v3(0, 0, 0), R[0] = 1e-3;
    for (uint32_t j = 1; j < N; j++) {
        R[j] = uniform(&rng, 0.8e-3, 1.2e-3);
        vec3 u = random_vec(&rng, 1);
        x[j] = v3_scale(uniform(&rng, 0.8, 1.3) * (R[0] + R[j]) / v3_norm(u), u);
        if (j % 2) /* half of them as images a period away along x */
            x[j].x += 8e-3;
        list[j - 1] = j | (j % 3 ? 0 : STORE_HIST_BIT);
    }
    x[77].y = NAN;
    list[N - 1] = 0 | STORE_MESH_BIT, list[N] = 1 | STORE_MESH_BIT;
    int wrong = 0, visited = 0;
    for (int periodic = 0; periodic < 2; periodic++) {
        uint32_t k = 0, n_pairs;
        do {
            uint32_t run = N + 1 - k < 64 ? N + 1 - k : 64;
            uint64_t visit = entries_to_visit(&pt, periodic ? &box : NULL, 0, list, k, run, x[0], R[0], &n_pairs);
            for (uint32_t a = 0; a < n_pairs; a++) {
                uint32_t j = list[k + a] & STORE_INDEX_MASK;
                vec3 dx = v3_sub(x[0], x[j]);
                if (periodic)
                    dx.x -= 8e-3 * rint(dx.x / 8e-3);
                int need = !(v3_dot(dx, dx) >= (R[0] + R[j]) * (R[0] + R[j])) || (list[k + a] & STORE_HIST_BIT);
                wrong += need != (int)(visit >> a & 1);
                visited += need && periodic;
            }
            wrong += n_pairs < 64 && visit >> n_pairs != 0; /* nothing beyond the partners */
            k += n_pairs;
        } while (k < N - 1 && n_pairs == 64);
        wrong += k != N - 1; /* every partner, and no mesh element */
    }
    printf("  visits: %d of 150 partners across the periodic box\n", visited);
    CHECK(t, wrong == 0 && visited > 50 && visited < 150,
          "entries_to_visit marks exactly the touching, NaN and remembered partners (%d wrong, %d visited)", wrong,
          visited);
}

/* Wall contacts in lanes: with every wall kind the lanes take (a moving
 * mesh, elements of two laws, seams where the selection keeps one of two
 * touching elements) the two kernels give the same bits. */
static void wall_lanes(test_ctx *t)
{
    const grains_integrator integrators[] = {GRAINS_INTEGRATOR_EULER, GRAINS_INTEGRATOR_VERLET_IMPROVED};
    const char *names[] = {"euler", "verlet_improved"};
    for (int k = 0; k < 2; k++) {
        grains_sim *v = pour_in_box(integrators[k], GRAINS_KERNEL_VECTOR, 1),
                   *s = pour_in_box(integrators[k], GRAINS_KERNEL_SCALAR, 1);
        grains_wall wv, ws;
        grains_sim_get_wall(v, 0, &wv);
        grains_sim_get_wall(s, 0, &ws);
        grains_thermo th;
        grains_sim_thermo(v, &th);
        printf("  pour in a turning box, %s: %zu contacts, force on the box %.3g N\n", names[k], th.n_contacts,
               wv.force.z);
        CHECK(t, wv.force.z < 0, "%s: the grains press on the box", names[k]);
        CHECK(t, memcmp(&wv.force, &ws.force, sizeof wv.force) == 0 && memcmp(&wv.torque, &ws.torque, sizeof wv.torque) == 0,
              "%s: the box's force and torque are bit-identical", names[k]);
        CHECK(t, same_state(v, s), "%s, turning box: kernel = \"vector\" and \"scalar\" give bit-identical states",
              names[k]);
        if (k == 0) {
            grains_sim *v2 = pour_in_box(integrators[k], GRAINS_KERNEL_VECTOR, 2);
            CHECK(t, same_state(v, v2), "turning box: the vector kernel on 1 and 2 threads: bit-identical states");
            grains_sim_destroy(v2);
        }
        grains_sim_destroy(v), grains_sim_destroy(s);
    }
}

/* The pour (onto the floor, or into the turning box) with the hot loops of set k. */
static grains_sim *pour_with(const sim_kernels *k, int in_box, grains_integrator scheme)
{
    grains_params p = pour_params(scheme, GRAINS_KERNEL_VECTOR, 1);
    grains_sim *sim = scene(&p);
    sim->kernels = k;
    if (in_box)
        turning_box(sim, 14e-3, 20e-3, 3);
    else
        floor_mesh(sim, 40e-3, 0);
    return in_box ? drop_600(sim, 5, 0.3, "pour in box") : drop_600(sim, 3, 0.1, "pour");
}

static void instruction_sets(test_ctx *t)
{
    int n;
    const sim_kernels *all = sim_kernels_all(&n), *base = &all[n - 1];
    for (int run = 0; run < 3; run++) { /* the pour and the box with Euler, the pour with Verlet */
        int in_box = run == 1;
        grains_integrator scheme = run == 2 ? GRAINS_INTEGRATOR_VERLET : GRAINS_INTEGRATOR_EULER;
        const char *what[] = {"the pour", "the pour into the turning box", "the pour with verlet"};
        grains_sim *ref = pour_with(base, in_box, scheme);
        for (int k = 0; k < n - 1; k++) {
            if (sim_kernels_choose(all[k].isa) != &all[k]) {
                printf("  %s: this CPU does not run it\n", all[k].isa);
                continue;
            }
            grains_sim *sim = pour_with(&all[k], in_box, scheme);
            CHECK(t, same_state(sim, ref), "%s: the hot loops for %s and for %s give bit-identical states",
                  what[run], all[k].isa, base->isa);
            grains_sim_destroy(sim);
        }
        grains_sim_destroy(ref);
    }
    printf("  instruction sets: %d in this build (the widest this CPU runs: %s)\n", n, grains_kernels_isa());
}

int main(void)
{
    test_ctx t = {0, 0};
    kernel_cases(&t);
    force_loop(&t);
    spins_past_the_series(&t);
    periodic_pour(&t);
    fixed_bed(&t);
    friction_subsets(&t);
    visits(&t);
    contracting(&t);
    wall_lanes(&t);
    instruction_sets(&t);
    return test_report(&t, "test_lanes");
}
