/* What a run changes between steps besides its particles and meshes (a
 * scenario's stages, a program): gravity, and which insertion regions add. */
#include <math.h>
#include <string.h>

#include "core/changeable.h"
#include "sim/sim_internal.h"

grains_status grains_sim_set_gravity(grains_sim *sim, grains_vec3 g, grains_error *err)
{
    grains_params p = sim->p;
    p.g = g;
    grains_status s = grains_params_check(&p, err); /* (finite; a 2D run's in its plane) */
    if (s == GRAINS_OK)
        s = sim_scale_gravity(sim, g, err);
    if (s == GRAINS_OK)
        sim->p.g = g;
    return s;
}

/* The parameters a run may change between steps (grains_sim_set_params). */
static void take_changeable(grains_params *to, const grains_params *from)
{
    for (int k = 0; k < GRAINS_N_CHANGEABLE; k++)
        *changeable_field(to, k) = changeable_get(from, k);
    to->g = from->g;
}

grains_status grains_sim_set_params(grains_sim *sim, const grains_params *p, grains_error *err)
{
    grains_status s = grains_params_check(p, err);
    if (s == GRAINS_OK)
        s = sim_scale_gravity(sim, p->g, err);
    if (s != GRAINS_OK)
        return s;
    grains_params next = *p, same = *p;
    grains_params_derive(&next);
    grains_params_derive(&same);
    take_changeable(&same, &sim->p);
    if (sim->p.periodic & 4) /* the box's height is the run's (box_pressure moves it) */
        next.box_max.z = same.box_max.z = sim->p.box_max.z;
    if (memcmp(&same, &sim->p, sizeof same) != 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "a run may change only %sand g between steps: the other parameters are its own",
                                changeable_names());
    hm_params hp;
    hm_params_init(&hp, &next);
    int modes[2][3];
    hm_spring_modes(&sim->hp, &modes[0][0], &modes[0][1], &modes[0][2]);
    hm_spring_modes(&hp, &modes[1][0], &modes[1][1], &modes[1][2]);
    if (memcmp(modes[0], modes[1], sizeof modes[0]) != 0)
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0,
                                "a friction (sliding, rolling or twisting) that acts in no pair cannot start acting "
                                "mid-run, nor one that acts stop (the contacts keep its springs or not)");
    sim->p = next;
    sim->hp = hp;
    for (int k = 0; k < sim->p.n_materials; k++) /* Eq. 3: the drag follows eta */
        sim->motion[k] = material_motion_of(&sim->p, k);
    sim->fixed_lanes = hm_fixed_copies(&sim->hp);
    sim_shear_frame(sim);
    return GRAINS_OK;
}

grains_status grains_sim_spawn_open(grains_sim *sim, int k, int open, grains_error *err)
{
    if (k < 0 || k >= grains_params_n_spawns(&sim->p))
        return grains_error_set(err, GRAINS_ERR_RANGE, NULL, 0, "insertion region %d: the run has %d", k,
                                grains_params_n_spawns(&sim->p));
    spawn_state_open(&sim->spawn[k], open, sim->step);
    return GRAINS_OK;
}

/* A dynamic friction equal to its static one follows it (-1: Luding 2008's
 * default) when the static one changes and it is not given. */
static void dynamic_follows(grains_params *p, int n, const char *const *names)
{
    static const char *const pair[3][2] = {{"mu_s", "mu_s_dyn"}, {"mu_r", "mu_r_dyn"}, {"mu_t", "mu_t_dyn"}};
    for (int j = 0; j < 3; j++) {
        int given = 0;
        for (int k = 0; k < n; k++)
            given |= strcmp(names[k], pair[j][1]) == 0;
        real *dyn = changeable_field(p, changeable_find(pair[j][1]));
        if (!given && *dyn == *changeable_field(p, changeable_find(pair[j][0])))
            *dyn = -1;
    }
}

grains_status grains_sim_set_named_params(grains_sim *sim, int n, const char *const *names, const double *values,
                                          grains_error *err)
{
    if (n < 0 || (n > 0 && (!names || !values)))
        return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "named parameters: %d of them and no list", n);
    for (int k = 0; k < n; k++)
        if (changeable_find(names[k]) < 0)
            return grains_error_set(err, GRAINS_ERR_ARG, NULL, 0, "%s cannot change during a run (these can: %s"
                                    "and g through grains_sim_set_gravity)", names[k] ? names[k] : "(null)",
                                    changeable_names());
    grains_params p = sim->p;
    dynamic_follows(&p, n, names);
    for (int k = 0; k < n; k++)
        *changeable_field(&p, changeable_find(names[k])) = values[k];
    return grains_sim_set_params(sim, &p, err);
}
