/* Contact springs named by stable ids (grains_sim_get_contacts and
 * grains_sim_set_contacts), what checkpoints and other processes will use:
 * - a sphere held on a slope by its friction springs, copied into a fresh
 *   simulation with its springs, continues bit for bit; without them it
 *   slips until its springs are loaded again (the springs are state);
 * - a pile's springs read and put back, its pairs named either way round
 *   (springs turned over: odd ones negated), continue identically, with
 *   TinyDEM's rolling spring and with type C's relative rotation; with the
 *   springs zeroed the pile continues differently;
 * - bad records are refused with the record named. */
#include "check.h"
#include "support.h"

#define PI 3.14159265358979323846

static const double R = 0.01;

/* Gravity tilted by atan(tilt mu_s); below 1 (and below mu_r) friction holds a sphere. */
static grains_params slope_params(grains_rolling_model rolling, double tilt)
{
    grains_params p = scene_params();
    p.R_min = 0.009, p.R_max = R;
    p.E = 1e7, p.mu_s = 0.5, p.mu_r = 0.5;
    p.rolling_model = rolling;
    double a = atan(tilt * p.mu_s);
    p.g = (grains_vec3){9.81 * sin(a), 0, -9.81 * cos(a)};
    p.dt = grains_params_default_dt(&p) / 10;
    return p;
}

static size_t contacts_of(const grains_sim *sim, grains_contact **out)
{
    size_t n = grains_sim_contact_count(sim), got = 0;
    grains_error err;
    *out = malloc((n ? n : 1) * sizeof **out);
    if (grains_sim_get_contacts(sim, *out, n, &got, &err) != GRAINS_OK) {
        fprintf(stderr, "get_contacts: %s\n", err.message);
        exit(1);
    }
    return got;
}

static void set_contacts(grains_sim *sim, const grains_contact *c, size_t n)
{
    grains_error err;
    if (grains_sim_set_contacts(sim, c, n, &err) != GRAINS_OK) {
        fprintf(stderr, "set_contacts: %s\n", err.message);
        exit(1);
    }
}

static void run(grains_sim *sim, long n)
{
    for (long k = 0; k < n; k++)
        step(sim);
}

/* A copy of the particles of `from` (by id) in a fresh simulation. */
static grains_sim *copy_of(const grains_sim *from, const grains_params *p)
{
    grains_sim *sim = scene(p);
    floor_mesh(sim, 1, 0);
    for (size_t i = 0; i < grains_sim_count(from); i++) {
        grains_particle q = get(from, i);
        grains_error err;
        grains_sim_add_particle(sim, &q, &err);
    }
    return sim;
}

static void held_on_slope(test_ctx *t)
{
    grains_params p = slope_params(GRAINS_ROLLING_SPRING, 0.5);
    grains_sim *a = scene(&p);
    floor_mesh(a, 1, 0);
    add(a, (grains_vec3){0, 0, R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0}, R);
    run(a, 5000);
    grains_contact *c;
    size_t n = contacts_of(a, &c);
    CHECK(t, n == 1 && c[0].wall && c[0].a == 0 && c[0].b == 0 && c[0].us[0] != 0,
          "one wall contact with a loaded sliding spring (n %zu, us %g)", n, n ? c[0].us[0] : 0.0);
    grains_sim *b = copy_of(a, &p), *bare = copy_of(a, &p);
    set_contacts(b, c, n);
    run(a, 5000);
    run(b, 5000);
    run(bare, 5000);
    CHECK(t, same_particle(get(a, 0), get(b, 0)), "restored springs: the sphere continues bit for bit");
    double slip = get(bare, 0).x.x - get(a, 0).x.x;
    printf("  held on a slope: with its springs restored it continues exactly; without, it slips %.3g m\n", slip);
    CHECK(t, fabs(slip) > 1e-8, "without its springs the sphere slips (%g m)", slip);
    free(c);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(bare);
}

/* A pile settling on the floor under gravity tilted a little: 5 x 4
 * spheres, 4 x 3 in the hollows above them. */
static grains_sim *pile_of(const grains_params *p)
{
    grains_sim *sim = scene(p);
    floor_mesh(sim, 1, 0);
    const double s = 0.0195;
    for (int k = 0; k < 20; k++)
        add(sim, (grains_vec3){s * (k % 5), s * (k / 5), R}, (grains_vec3){0, 0, 0}, (grains_vec3){0, 0, 0},
            0.0093 + 0.0001 * (k % 7));
    for (int k = 0; k < 12; k++)
        add(sim, (grains_vec3){s * (k % 4 + 0.5), s * (k / 4 + 0.5), R + 0.0135}, (grains_vec3){0, 0, 0},
            (grains_vec3){0, 0, 0}, 0.0093 + 0.0001 * (k % 5));
    run(sim, 4000);
    return sim;
}

static grains_sim *pile(grains_rolling_model rolling)
{
    grains_params p = slope_params(rolling, 0.2);
    return pile_of(&p);
}

/* Field by field (the struct has padding). */
static int same_contacts(const grains_contact *a, const grains_contact *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (a[k].a != b[k].a || a[k].b != b[k].b || a[k].wall != b[k].wall || a[k].ut != b[k].ut ||
            memcmp(a[k].us, b[k].us, sizeof a[k].us) != 0 || memcmp(a[k].ur, b[k].ur, sizeof a[k].ur) != 0)
            return 0;
    return 1;
}

static int same_piles(const grains_sim *a, const grains_sim *b)
{
    for (size_t i = 0; i < grains_sim_count(a); i++)
        if (!same_particle(get(a, i), get(b, i)))
            return 0;
    return 1;
}

static void put_back(test_ctx *t, grains_rolling_model rolling, const char *name)
{
    grains_sim *a = pile(rolling), *b = pile(rolling), *z = pile(rolling);
    grains_contact *c;
    size_t n = contacts_of(a, &c), pairs = 0;
    /* b: the same springs, in reverse order, every pair named the other way round */
    grains_contact *r = malloc(n * sizeof *r), *zero = malloc(n * sizeof *zero);
    for (size_t k = 0; k < n; k++) {
        grains_contact q = c[n - 1 - k];
        if (!q.wall) {
            pairs++;
            uint32_t tmp = q.a;
            q.a = q.b, q.b = tmp;
            for (int m = 0; m < 3; m++) {
                q.us[m] = -q.us[m];
                if (rolling == GRAINS_ROLLING_TYPE_C)
                    q.ur[m] = -q.ur[m];
            }
        }
        r[k] = q;
        zero[k] = (grains_contact){c[k].a, c[k].b, c[k].wall, {0, 0, 0}, {0, 0, 0}, 0};
    }
    set_contacts(a, c, n);
    set_contacts(b, r, n);
    set_contacts(z, zero, n);
    grains_contact *back;
    size_t n_back = contacts_of(b, &back);
    CHECK(t, n_back == n && same_contacts(back, c, n), "%s: named the other way round, read back the same",
          name);
    run(a, 2000);
    run(b, 2000);
    run(z, 2000);
    printf("  %s pile: %zu contacts (%zu pairs) put back; continues identically: %s; with the springs zeroed: %s\n",
           name, n, pairs, same_piles(a, b) ? "yes" : "no", same_piles(a, z) ? "the same (!)" : "differently");
    CHECK(t, pairs >= 12 && same_piles(a, b), "%s: springs put back by ids, either way round, continue identically",
          name);
    CHECK(t, !same_piles(a, z), "%s: the springs are state (zeroed, the pile goes on differently)", name);
    free(c), free(r), free(zero), free(back);
    grains_sim_destroy(a);
    grains_sim_destroy(b);
    grains_sim_destroy(z);
}

/* A friction mode whose coefficient is 0 in every pair keeps no spring: the
 * entries narrow to the modes that act (sliding only: 3 reals of 7). The
 * pile with mu_r = mu_t = 0 runs bit for bit as the same pile whose store
 * keeps all seven (a second material, never used, with rolling and
 * twisting friction), in less memory. */
static grains_sim *sliding_pile(int unused_material)
{
    grains_params p = slope_params(GRAINS_ROLLING_SPRING, 0.2);
    p.mu_r = 0, p.mu_t = 0, p.mu_r_dyn = p.mu_t_dyn = -1;
    if (unused_material) {
        p.n_materials = 2;
        p.material[1] = (grains_material){.rho = p.rho, .E = p.E, .nu = p.nu};
        p.n_pairs = 1;
        p.pair[0] = (grains_pair_values){.a = 1, .b = 1, .e_n = -1, .mu_s = -1, .mu_r = 0.3, .mu_t = 0.2,
                                         .mu_s_dyn = -1, .mu_r_dyn = -1, .mu_t_dyn = -1, .no_contact = 0};
    }
    return pile_of(&p);
}

static void narrow_histories(test_ctx *t)
{
    grains_sim *narrow = sliding_pile(0), *full = sliding_pile(1);
    size_t n = grains_sim_contact_count(narrow);
    printf("  sliding-only pile: %zu contacts; %zu bytes with 3-real histories, %zu with 7\n", n,
           grains_sim_bytes(narrow), grains_sim_bytes(full));
    CHECK(t, n > 20 && same_piles(narrow, full), "histories of the acting modes only: bit for bit the same run");
    CHECK(t, grains_sim_bytes(narrow) < grains_sim_bytes(full), "and less memory");
    grains_sim_destroy(narrow);
    grains_sim_destroy(full);
}

static void refuses(test_ctx *t)
{
    grains_sim *sim = pile(GRAINS_ROLLING_SPRING);
    grains_error err;
    const grains_contact bad[] = {
        {0, 32, 0, {0}, {0}, 0}, {3, 3, 0, {0}, {0}, 0}, {0, 1, 1, {0}, {0}, 0}, {0, 1, 0, {NAN, 0, 0}, {0}, 0},
    };
    const char *why[] = {"particle 0 with 32", "particle 3 with 3", "element 1 does not exist", "not finite"};
    for (int k = 0; k < 4; k++) {
        grains_status s = grains_sim_set_contacts(sim, &bad[k], 1, &err);
        CHECK(t, s == GRAINS_ERR_RANGE && strstr(err.message, why[k]), "refused: %s (%s)", why[k], err.message);
    }
    const grains_contact twice[] = {{1, 2, 0, {0}, {0}, 0}, {2, 1, 0, {0}, {0}, 0}};
    CHECK(t, grains_sim_set_contacts(sim, twice, 2, &err) == GRAINS_ERR_RANGE && strstr(err.message, "twice"),
          "refused: a pair given twice, either way round (%s)", err.message);
    grains_contact one;
    size_t got;
    CHECK(t, grains_sim_contact_count(sim) > 0 && grains_sim_get_contacts(sim, &one, 0, &got, &err) == GRAINS_ERR_ARG,
          "too little room is an error");
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    held_on_slope(&t);
    put_back(&t, GRAINS_ROLLING_SPRING, "TinyDEM spring");
    put_back(&t, GRAINS_ROLLING_TYPE_C, "type C");
    narrow_histories(&t);
    refuses(&t);
    return test_report(&t, "test_contacts");
}
