/* The membrane paper's triaxial test (Section 3.1, case 1), shortened, see
 * validate/validate.h: the sample of examples/triaxial_case1.cfg built with the
 * library, prepared faster and loaded at a given speed; its peak deviatoric
 * stress and friction angle. The stresses are those of triaxial.csv
 * (docs/scenario.md, "Triaxial test"). */
#include <math.h>

#include "validate/validate.h"
#include "membrane/sheet.h"

#define PI 3.14159265358979323846
#define RC 0.025      /* [m] the membrane's radius */
#define HEIGHT 0.1    /* [m] */
#define SIGMA 1e5     /* [Pa] confining pressure and the servos' target */
#define LOAD_AFTER 0.025

/* Grains and membrane of Table 2: glass-like grains of radii 2.3-2.7 mm
 * grown from 0.7 of their size in 10 ms, placed in the inscribed cylinder. */
static grains_params tx_params(int threads)
{
    grains_params p;
    grains_params_default(&p);
    p.integrator = GRAINS_INTEGRATOR_VERLET;
    p.R_min = 0.0023, p.R_max = 0.0027;
    p.rho = 2500, p.E = 4.6e10, p.nu = 0.245, p.e_n = 0.5;
    p.mu_s = 0.25, p.mu_r = 0, p.mu_t = 2 * 0.25 / 3;
    p.n_materials = 2;
    p.material[1] = (grains_material){.rho = 1000, .E = 1.25e6, .nu = 1.0 / 3};
    p.n_pairs = 1;
    p.pair[0] = (grains_pair_values){.a = 0, .b = 1, .e_n = -1, .mu_s = 1.2, .mu_r = -1, .mu_t = -1,
                                     .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    p.mesh_material = -1; /* the platens: rigid, as examples/triaxial_case1.cfg's */
    p.R_mesh[0] = 0;
    p.g = (grains_vec3){0, 0, 0};
    p.spawn_cylinder = 1;
    p.s_min = (grains_vec3){-0.0245, -0.0245, 0.0003};
    p.s_max = (grains_vec3){0.0245, 0.0245, 0.0997};
    p.v0 = (grains_vec3){0, 0, 0};
    p.N_max = 1720, p.N_spawn = 20000;
    p.grow_from = 0.7, p.grow_time = 0.01;
    p.threads = threads;
    p.dt = 1e-6;
    return p;
}

/* A platen: a square of side 0.1 m at height z, a servo pressing along `dir`. */
static grains_status platen(grains_sim *sim, double z, double dir, double speed, grains_error *err)
{
    grains_mesh *m = NULL;
    grains_status s = grains_mesh_create(&m, err);
    const double c[4][2] = {{-0.05, -0.05}, {0.05, -0.05}, {0.05, 0.05}, {-0.05, 0.05}};
    for (int k = 0; s == GRAINS_OK && k < 4; k++)
        s = grains_mesh_add_vertex(m, (grains_vec3){c[k][0], c[k][1], z}, err);
    const uint32_t v[4] = {0, 1, 2, 3};
    if (s == GRAINS_OK)
        s = grains_mesh_add_element(m, 4, v, 0, 0, err);
    grains_motion servo = grains_motion_fixed();
    servo.type = GRAINS_MOTION_SERVO;
    servo.axis = (grains_vec3){0, 0, dir};
    servo.force = SIGMA * PI * RC * RC;
    servo.max_speed = 0.05, servo.travel = 0.03;
    servo.load_after = LOAD_AFTER, servo.load_speed = speed;
    if (s == GRAINS_OK)
        s = grains_sim_add_mesh(sim, m, &servo, err);
    grains_mesh_destroy(m);
    return s;
}

/* The cylinder of patches of 4 mm, its end rings pinned to the platens. */
static grains_status membrane(grains_sim *sim, grains_error *err)
{
    grains_membrane_material mat = {.E = 1.25e6, .d = 3e-4, .rho = 1000, .gamma = 0.15, .k_el = 1e-3,
                                    .k_diss = 1e-4, .pressure = SIGMA, .pressure_after = 0.005,
                                    .pressure_ramp = 0.01, .material = 1};
    grains_mesh *mesh = NULL;
    size_t n_ring = 0;
    grains_status s = membrane_cylinder_mesh(&mesh, &n_ring, RC, HEIGHT, 0.004, err);
    if (s == GRAINS_OK)
        s = grains_sim_add_membrane(sim, mesh, &mat, err);
    size_t n = s == GRAINS_OK ? mesh->n_vertices : 0;
    for (size_t i = 0; s == GRAINS_OK && i < n_ring; i++) {
        s = grains_sim_pin_membrane_vertex(sim, 0, i, 0, err);
        if (s == GRAINS_OK)
            s = grains_sim_pin_membrane_vertex(sim, 0, n - n_ring + i, 1, err);
    }
    grains_mesh_destroy(mesh);
    return s;
}

/* sigma_c (the grains' push on the membrane over its area), sigma_p (the
 * platens' mean axial force over pi r^2) and the platens' gap now. */
static void stresses(const grains_sim *sim, double *sigma_c, double *sigma_p, double *gap)
{
    grains_membrane_load load;
    grains_sim_membrane_load(sim, 0, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 1}, &load);
    grains_wall bottom, top;
    grains_sim_get_wall(sim, 0, &bottom);
    grains_sim_get_wall(sim, 1, &top);
    *sigma_c = load.radial_push / load.area;
    *sigma_p = (top.force.z - bottom.force.z) / 2 / (PI * load.mean_radius * load.mean_radius);
    *gap = HEIGHT + top.shift.z - bottom.shift.z;
}

/* A row per ms until the strain is reached; the peak of sigma_d after
 * loading began. */
static grains_status load(grains_sim *sim, const tx_setup *s, tx_result *r, grains_error *err)
{
    double h0 = HEIGHT, strain = 0, sigma_c, sigma_p, h;
    grains_status st = GRAINS_OK;
    r->peak_sigma_d = -INFINITY;
    while (st == GRAINS_OK && strain < s->strain) {
        st = grains_sim_advance(sim, 1000, err);
        stresses(sim, &sigma_c, &sigma_p, &h);
        if (grains_sim_time(sim) <= LOAD_AFTER + 1e-9) {
            h0 = h;
            r->sigma_c_start = sigma_c, r->sigma_p_start = sigma_p;
            continue;
        }
        strain = log(h0 / h);
        if (sigma_p - sigma_c > r->peak_sigma_d) {
            r->peak_sigma_d = sigma_p - sigma_c, r->peak_strain = strain, r->sigma_c = sigma_c;
            r->sin_phi = r->peak_sigma_d / (r->peak_sigma_d + 2 * sigma_c);
        }
    }
    return st;
}

grains_status tx_run(const tx_setup *s, tx_result *r, grains_error *err)
{
    grains_params p = tx_params(s->threads);
    grains_sim *sim = NULL;
    *r = (tx_result){0};
    grains_status st = grains_sim_create(&sim, &p, err);
    if (st == GRAINS_OK)
        st = platen(sim, 0, 1, s->speed, err);
    if (st == GRAINS_OK)
        st = platen(sim, HEIGHT, -1, s->speed, err);
    if (st == GRAINS_OK)
        st = membrane(sim, err);
    if (st == GRAINS_OK)
        st = load(sim, s, r, err);
    r->grains = st == GRAINS_OK ? grains_sim_count(sim) : 0;
    grains_sim_destroy(sim);
    return st;
}
