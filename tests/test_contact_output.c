/* The contacts a step records (grains_sim_record_contacts) are the forces
 * the step applied: on every particle their sum is the force and torque the
 * force loop summed (to round-off: another order of addition); a resting
 * column carries the weight above each contact; recording changes no bit
 * of the motion, and the list is the same for 1 and 2 threads. */
#include "check.h"
#include "support.h"

static grains_contact_force *recorded(const grains_sim *sim, size_t *n)
{
    *n = grains_sim_recorded_count(sim);
    grains_contact_force *c = malloc((*n + 1) * sizeof *c);
    grains_error err;
    size_t got;
    if (grains_sim_get_contact_forces(sim, c, *n, &got, &err) != GRAINS_OK || got != *n) {
        fprintf(stderr, "recorded: %s\n", err.message);
        exit(1);
    }
    return c;
}

/* Five spheres stacked on a floor, settled by heavy damping: the contact
 * below sphere k carries the weight of k and those above, (5 - k) m g, the
 * floor all five; each force is along the normal (no friction is needed). */
static void resting_column(test_ctx *t)
{
    const double R = 1e-3;
    grains_params p = scene_params();
    p.R_min = p.R_max = R;
    p.g = (grains_vec3){0, 0, -9.81};
    p.e_n = 0.05;
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 0.01, 0);
    for (int k = 0; k < 5; k++)
        add(sim, (grains_vec3){0, 0, R + 2.0 * R * k + 1e-6 * k}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    advance(sim, (long)(0.5 / grains_sim_params(sim)->dt));
    grains_sim_record_contacts(sim, 1);
    step(sim);
    size_t n;
    grains_contact_force *c = recorded(sim, &n);
    double W = mass(&p, R) * 9.81, worst = 0, tangential = 0;
    int seen = 0;
    for (size_t k = 0; k < n; k++) {
        /* the lower body is b for a pair (a's partners come after a), the floor for a wall */
        size_t above = c[k].wall ? c[k].a : (c[k].x_a.z > c[k].x_b.z ? c[k].a : c[k].b);
        double fz = c[k].x_a.z > c[k].x_b.z ? c[k].f_n.z : -c[k].f_n.z;
        worst = nan_max(worst, fabs(fz - (double)(5 - above) * W) / W);
        tangential = nan_max(tangential, fabs(c[k].f_t.x) + fabs(c[k].f_t.y) + fabs(c[k].f_t.z));
        seen |= 1 << above;
    }
    printf("  column: %zu contacts, largest error %.2g of a weight, tangential %.2g N\n", n, worst, tangential);
    CHECK(t, n == 5 && seen == 31, "5 contacts, one below each sphere (%zu)", n);
    CHECK(t, worst < 1e-3, "each contact carries the weight above it (%.2g)", worst);
    CHECK(t, tangential < 1e-9 * W, "no tangential force in a straight column");
    /* Love's stress of sphere k: the contact below pushes up with (5 - k) W at
     * -R z, the one above down with (4 - k) W at +R z: sigma_zz = -(9 - 2k)
     * R W / V, to the order of delta / R (the branch is R - delta/2). */
    int coord[5];
    double stress[5][9], V = 4.0 / 3.0 * 3.14159265358979323846 * R * R * R, worst_s = 0;
    grains_sim_contact_stress(sim, coord, stress);
    for (size_t id = 0; id < 4; id++) {
        double want = -(9.0 - 2.0 * (double)id) * R * W / V;
        worst_s = nan_max(worst_s, fabs(stress[id][8] - want) / fabs(want));
    }
    double off = fabs(stress[2][0]) + fabs(stress[2][1]) + fabs(stress[2][4]);
    printf("  column stress: sigma_zz of the bottom sphere %.4g Pa, largest relative error %.2g\n", stress[0][8],
           worst_s);
    CHECK(t, coord[0] == 2 && coord[1] == 2 && coord[4] == 1, "coordination 2 below the top, 1 at the top");
    CHECK(t, worst_s < 5e-3, "Love's stress carries the weight above (%.2g)", worst_s);
    CHECK(t, off < 1e-9 * fabs(stress[2][8]), "no horizontal stress in a straight column");
    free(c);
    grains_sim_destroy(sim);
}

/* 400 grains poured onto a floor with friction for 6,000 steps, the steps
 * from record_from on recorded. */
static grains_sim *pour(int threads, int record_from)
{
    grains_params p = scene_params();
    p.threads = threads;
    p.g = (grains_vec3){0, 0, -9.81};
    p.N_max = 400, p.N_spawn = 40;
    p.R_min = 1e-3, p.R_max = 2e-3;
    p.v0 = (grains_vec3){0, 0, -0.2};
    p.s_min = (grains_vec3){-0.015, -0.015, 0.003}, p.s_max = (grains_vec3){0.015, 0.015, 0.03};
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 0.05, 0);
    for (int k = 0; k < 6000; k++) {
        grains_sim_record_contacts(sim, k >= record_from);
        step(sim);
    }
    return sim;
}

/* The recorded contacts' forces (f on a, -f on b) add up on every particle
 * to what the force loop summed there, to round-off of the largest force. */
static void sums_match(test_ctx *t)
{
    grains_sim *sim = pour(2, 5999);
    size_t n, N = grains_sim_count(sim);
    grains_contact_force *c = recorded(sim, &n);
    grains_vec3 *f = calloc(N, sizeof *f);
    double f_max = 0, err = 0;
    size_t walls = 0;
    for (size_t k = 0; k < n; k++) {
        grains_vec3 F = {c[k].f_n.x + c[k].f_t.x, c[k].f_n.y + c[k].f_t.y, c[k].f_n.z + c[k].f_t.z};
        f[c[k].a] = (grains_vec3){f[c[k].a].x + F.x, f[c[k].a].y + F.y, f[c[k].a].z + F.z};
        if (!c[k].wall)
            f[c[k].b] = (grains_vec3){f[c[k].b].x - F.x, f[c[k].b].y - F.y, f[c[k].b].z - F.z};
        walls += (size_t)c[k].wall;
        f_max = nan_max(f_max, sqrt(F.x * F.x + F.y * F.y + F.z * F.z));
    }
    for (size_t i = 0; i < N; i++) {
        grains_vec3 fs, ts;
        if (!grains_sim_contact_sums(sim, i, &fs, &ts))
            err = INFINITY;
        else
            err = nan_max(err, fabs(fs.x - f[i].x) + fabs(fs.y - f[i].y) + fabs(fs.z - f[i].z));
    }
    printf("  pour: %zu particles, %zu contacts (%zu on the floor), largest force %.3g N, sum mismatch %.2g N\n", N,
           n, walls, f_max, err);
    CHECK(t, n > N && walls > 50, "a pile with contacts among grains and on the floor");
    CHECK(t, err <= 1e-12 * f_max, "contact forces sum to the particles' forces (%.2g of the largest)", err / f_max);
    free(f);
    free(c);
    grains_sim_destroy(sim);
}

/* Recording every step of the second half leaves every bit of the motion
 * as without; on 1 thread it records the same list as on 2. */
static void recording_is_invisible(test_ctx *t)
{
    grains_sim *plain = pour(2, 1 << 30), *rec2 = pour(2, 3000), *rec1 = pour(1, 5999);
    int same = grains_sim_count(plain) == grains_sim_count(rec2);
    for (size_t i = 0; same && i < grains_sim_count(plain); i++)
        same = same_particle(get(plain, i), get(rec2, i));
    CHECK(t, same, "recorded and plain runs move the same to the bit");
    size_t n1, n2;
    grains_contact_force *c1 = recorded(rec1, &n1), *c2 = recorded(rec2, &n2);
    int equal = n1 == n2;
    for (size_t k = 0; equal && k < n1; k++)
        equal = c1[k].a == c2[k].a && c1[k].b == c2[k].b && c1[k].wall == c2[k].wall && c1[k].delta == c2[k].delta &&
                !memcmp(&c1[k].x_a, &c2[k].x_a, 4 * sizeof c1[k].x_a);
    CHECK(t, equal, "1 and 2 threads record the same %zu contacts", n1);
    free(c1);
    free(c2);
    grains_sim_destroy(plain);
    grains_sim_destroy(rec1);
    grains_sim_destroy(rec2);
}

int main(void)
{
    test_ctx t = {0, 0};
    resting_column(&t);
    sums_match(&t);
    recording_is_invisible(&t);
    return test_report(&t, "test_contact_output");
}
