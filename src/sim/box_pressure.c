/* A periodic box that moves (a sheared one, one whose height holds a
 * pressure; docs/model.md, "A box held at a pressure"): the grains' stress
 * sampled from a recorded step's contacts and their velocities about the
 * shear profile, and the servo that moves the box's height along z to hold
 * sigma_zz at box_pressure, the grains' z following affinely. */
#include <math.h>

#include "math/pi.h"
#include "sim/sim_internal.h"

/* Whether the box moves: its stress is then sampled. */
static int box_moves(const grains_sim *sim) { return (sim->box.sheared || sim->p.box_pressure > 0); }

int sim_box_sample_begin(grains_sim *sim)
{
    if (!box_moves(sim) || sim->step % GRAINS_BOX_SAMPLE_EVERY != 0 || sim->rec.requested)
        return 0;
    sim->rec.requested = 1;
    return 1;
}

static real box_volume(const grains_sim *sim)
{
    const grains_params *p = &sim->p;
    return (p->box_max.x - p->box_min.x) * (p->box_max.y - p->box_min.y) * (p->box_max.z - p->box_min.z);
}

/* s -= a (x) b / V */
static void take_dyad(real *s, vec3 a, vec3 b, real V)
{
    const real u[3] = {a.x, a.y, a.z}, w[3] = {b.x, b.y, b.z};
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
            s[3 * k + l] -= u[k] * w[l] / V;
}

/* The contacts' part, in the blocks' order (the same for any thread
 * count), and their response to an affine strain along z: a contact of
 * branch l closes by l_z^2 / |l| per unit strain, its normal force then
 * grows by k_n times that (k_n = 3/2 f_n / delta, Hertz's, Eqs. 12-14; a
 * linear spring's is less: the servo then undershoots), and its l_z f_z
 * by k_n l_z^4 / l^2. */
static void contacts_part(const grains_sim *sim, real V, real *stress, real *stiffness)
{
    const contact_record *r = &sim->rec;
    for (size_t b = 0; b < r->n_blocks; b++)
        for (size_t k = 0; k < r->block[b].n; k++) {
            const grains_contact_force *c = &r->block[b].c[k];
            if (c->wall)
                continue; /* (a moving box takes no meshes: sim_shear_refusals) */
            vec3 l = v3_sub(c->x_a, c->x_b), f = v3_add(c->f_n, c->f_t);
            take_dyad(stress, l, f, V);
            real l2 = v3_dot(l, l);
            if (c->delta > 0 && l2 > 0)
                *stiffness += 1.5 * v3_norm(c->f_n) / c->delta * l.z * l.z * l.z * l.z / l2 / V;
        }
}

/* A grain's velocity less the shear profile's shear_rate (z - z_lo) along
 * x, and its mass in the flow (none for a grain that stays put: its motion
 * is imposed, as thermo's energies leave it out). */
static real flow_mass(const grains_sim *sim, const grains_particle *q, vec3 *v)
{
    const real rate = sim->box.sheared ? sim->p.shear_rate : 0;
    *v = v3(q->v.x - rate * (q->x.z - sim->p.box_min.z), q->v.y, q->v.z);
    return sim->motion[q->material].fixed ? 0 : grains_params_mass(&sim->p, q->material, q->R);
}

/* The kinetic part about the profile and the grains' mean velocity u_0
 * (along x, the profile's own), and the grains' volume, in the ids' order. */
static void grains_part(const grains_sim *sim, real V, real *stress, real *solid)
{
    const size_t n = grains_sim_count(sim);
    real m_sum = 0, volume = 0;
    vec3 p_sum = v3(0, 0, 0), v;
    grains_particle q;
    for (size_t id = 0; id < n; id++) {
        grains_sim_get_particle(sim, id, &q);
        real m = flow_mass(sim, &q, &v);
        m_sum += m;
        p_sum = v3_add(p_sum, v3_scale(m, v));
        volume += 4 * HM_PI / 3 * q.R * q.R * q.R;
    }
    vec3 u_0 = m_sum > 0 ? v3_scale(1 / m_sum, p_sum) : v3(0, 0, 0);
    for (size_t id = 0; id < n; id++) {
        grains_sim_get_particle(sim, id, &q);
        real m = flow_mass(sim, &q, &v);
        v = v3_sub(v, u_0);
        take_dyad(stress, v3_scale(m, v), v, V);
    }
    *solid = volume / V;
}

/* The servo (a first-order one on the height's strain, the stiffness-based
 * step of YADE's stress controllers and of the mesh servo): the strain
 * rate that would bring the normal stress P_zz = -sigma_zz to P in the time
 * constant tau if the grains followed the box affinely,
 * (P_zz - P) / ((K + P) tau), K the contacts' stiffness to that strain;
 * P in the denominator keeps it finite without contacts. Never faster
 * than 1/max(tau, 2000 dt): a gas closes no faster, its grains' gaps by
 * 1/2000 a step. Non-affine relaxation makes the response softer: the
 * servo then undershoots, never overshoots. In a flow the steady stress
 * follows the solid fraction far less steeply than the contacts' K
 * (dilatancy, not elasticity): there the height settles in tau times
 * their ratio (measured, a sheared box at I = 0.1: with tau = 2000 dt it
 * held 176 +- 13 Pa for 100 Pa after 0.5 s, with 200 dt 101 +- 3 Pa).
 * K is the samples' mean over tau: the height is steady when the rates
 * sum to nothing, and with a K that rose and fell with each sample's
 * stress that would hold a mean of P_zz weighted by 1/K, above P. It is
 * never below a hundredth of the sample's, so that a jump in K cannot
 * make the servo overshoot. */
static real servo_rate(const grains_sim *sim, sim_box_sample *s, real K)
{
    const real P = sim->p.box_pressure, tau = sim->p.box_pressure_time;
    real weight = fmin(1, GRAINS_BOX_SAMPLE_EVERY * sim->p.dt / tau);
    s->stiffness = s->step < 0 ? K : s->stiffness + weight * (K - s->stiffness);
    if (!(P > 0))
        return 0;
    real rate = (-s->stress[8] - P) / ((fmax(s->stiffness, K / 100) + P) * tau), most = 1 / fmax(tau, 2000 * sim->p.dt);
    return fmax(-most, fmin(most, rate));
}

/* A sample that is not finite (a step whose state is about to be refused)
 * leaves the last one as it was: box.csv writes no NaN or inf. */
static void take_sample(grains_sim *sim)
{
    sim_box_sample next = sim->box_sample;
    real V = box_volume(sim), K = 0;
    for (int k = 0; k < 9; k++)
        next.stress[k] = 0;
    contacts_part(sim, V, next.stress, &K);
    grains_part(sim, V, next.stress, &next.solid_fraction);
    int finite = isfinite(K);
    for (int k = 0; k < 9; k++)
        finite &= isfinite(next.stress[k]) != 0;
    if (!finite)
        return;
    next.rate = servo_rate(sim, &next, K);
    next.step = sim->step;
    next.n_sum++;
    for (int k = 0; k < 9; k++)
        next.sum_stress[k] += next.stress[k];
    next.sum_solid += next.solid_fraction;
    sim->box_sample = next;
}

/* Whether the step recorded every contact (none ran out of memory). */
static int recorded_whole(const contact_record *r)
{
    for (size_t b = 0; r->valid && b < r->n_blocks; b++)
        if (r->block[b].failed)
            return 0;
    return r->valid;
}

void sim_box_sample_take(grains_sim *sim, int own, int held)
{
    if (held && recorded_whole(&sim->rec) && box_moves(sim) && sim->step % GRAINS_BOX_SAMPLE_EVERY == 0)
        take_sample(sim);
    if (own) { /* (the contacts were the sample's: none recorded for a program) */
        sim->rec.requested = 0;
        sim->rec.valid = 0;
    }
}

void sim_box_advance(grains_sim *sim)
{
    sim_box_sample *s = &sim->box_sample;
    if (!(sim->p.box_pressure > 0) || s->step < 0 || s->rate == 0)
        return;
    real strain = s->rate * sim->p.dt, scale = 1 + strain, z_lo = sim->p.box_min.z;
    grains_particles *pt = &sim->pt;
    for (size_t i = 0; i < pt->n; i++) /* (a grain past the faces keeps its image's place: z + L maps to z' + L') */
        pt->x[i].z = z_lo + (pt->x[i].z - z_lo) * scale;
    sim->p.box_max.z = z_lo + (sim->p.box_max.z - z_lo) * scale;
    sim->box.L[2] = sim->p.box_max.z - z_lo;
    sim->box.inv_L[2] = 1 / sim->box.L[2];
    sim_shear_frame(sim); /* the images' speed: shear_rate x L_z */
    /* A pair within reach of touching, 2 R_max + skin apart at most while
     * it may come to touch, closes by |strain| x that: each grain's bound
     * takes half (the lists' rebuild, sim/step.c). */
    real moved = 0.5 * fabs(strain) * (2 * sim->p.R_max + sim->p.skin);
    sim->displacement += moved;
    sim->strays.moved += moved;
}

void grains_sim_box(const grains_sim *sim, grains_box_state *out)
{
    const sim_box_sample *s = &sim->box_sample;
    *out = (grains_box_state){0};
    out->L_z = sim->p.box_max.z - sim->p.box_min.z;
    out->shift = sim->box.sheared ? sim->shear_shift : 0;
    out->shear_velocity = sim->box.shear_v;
    out->height_rate = sim->p.box_pressure > 0 && s->step >= 0 ? s->rate : 0;
    out->sampled_step = s->step;
    out->solid_fraction = s->solid_fraction;
    out->samples = s->n_sum;
    out->mean_solid_fraction = s->n_sum ? s->sum_solid / (real)s->n_sum : s->solid_fraction;
    for (int k = 0; k < 9; k++) {
        out->stress[k] = s->stress[k];
        out->mean_stress[k] = s->n_sum ? s->sum_stress[k] / (real)s->n_sum : s->stress[k];
    }
}

void grains_sim_clear_box_means(grains_sim *sim)
{
    sim_box_sample *s = &sim->box_sample;
    s->n_sum = 0;
    s->sum_solid = 0;
    for (int k = 0; k < 9; k++)
        s->sum_stress[k] = 0;
}

void sim_box_write_state(const grains_sim *sim, bytes_out *o)
{
    const sim_box_sample *s = &sim->box_sample;
    bytes_put_real(o, sim->p.box_max.z);
    bytes_put_i64(o, s->step);
    bytes_put_reals(o, s->stress, 9);
    bytes_put_real(o, s->solid_fraction);
    bytes_put_real(o, s->stiffness);
    bytes_put_real(o, s->rate);
    bytes_put_i64(o, s->n_sum);
    bytes_put_reals(o, s->sum_stress, 9);
    bytes_put_real(o, s->sum_solid);
}

grains_status sim_box_read_state(grains_sim *sim, bytes_in *in, grains_error *err)
{
    sim_box_sample *s = &sim->box_sample;
    real z_hi = bytes_get_real(in);
    s->step = (long)bytes_get_i64(in);
    bytes_get_reals(in, s->stress, 9);
    s->solid_fraction = bytes_get_real(in);
    s->stiffness = bytes_get_real(in);
    s->rate = bytes_get_real(in);
    s->n_sum = (long)bytes_get_i64(in);
    bytes_get_reals(in, s->sum_stress, 9);
    s->sum_solid = bytes_get_real(in);
    if (in->bad)
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "truncated in its box's state");
    int finite = isfinite(s->solid_fraction) && isfinite(s->stiffness) && isfinite(s->rate) && isfinite(s->sum_solid);
    for (int k = 0; k < 9; k++)
        finite &= isfinite(s->stress[k]) && isfinite(s->sum_stress[k]);
    real z_lo = sim->p.box_min.z, L = z_hi - z_lo;
    /* (the servo's rate is never beyond 1/(2000 dt): servo_rate) */
    /* (at most a sample every GRAINS_BOX_SAMPLE_EVERY steps, counting step 0) */
    long n_most = sim->step / GRAINS_BOX_SAMPLE_EVERY + 1;
    if (!finite || s->step < -1 || s->step > sim->step || !(s->stiffness >= 0) || s->n_sum < 0 || s->n_sum > n_most ||
        !(fabs(s->rate) <= 1 / (2000 * sim->p.dt)) ||
        (sim->box.mask & 4 ? !(isfinite(L) && L > 0) : z_hi != sim->p.box_max.z))
        return grains_error_set(err, GRAINS_ERR_PARSE, NULL, 0, "damaged: its box's state");
    if (sim->box.mask & 4) {
        sim->p.box_max.z = z_hi;
        sim->box.L[2] = L;
        sim->box.inv_L[2] = 1 / L;
    }
    return GRAINS_OK;
}
