/* The engine follows TinyDEM's equations exactly: a two-sphere collision and
 * a sphere on an incline, computed here by a plain transcription of the
 * paper (Eqs. 3-54, with Eq. 26's contact-point velocity n x (r_i w_i + r_j w_j)
 * as in TinyDEM's source), must match the library to round-off every step. */
#include <string.h>

#include "check.h"
#include "support.h"

#define PI 3.14159265358979323846

typedef struct { double x[3], v[3], w[3], q[4], R; } body;
typedef struct { double us[3], ur[3], ut; } springs;

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Eq. 51 */
static void project(double *u, const double *n)
{
    double before = sqrt(dot(u, u)), un = dot(u, n);
    for (int k = 0; k < 3; k++)
        u[k] -= un * n[k];
    double after = sqrt(dot(u, u));
    if (after > 0)
        for (int k = 0; k < 3; k++)
            u[k] *= before / after;
}

/* Eqs. 11, 39, 40, 53, 54 on an n-component mode. */
static void clip(double *f, double *u, const double *v, int n, double mu, double fn, double k, double c)
{
    double norm = 0;
    for (int a = 0; a < n; a++)
        norm += f[a] * f[a];
    norm = sqrt(norm);
    if (norm > mu * fn)
        for (int a = 0; a < n; a++) {
            f[a] *= mu * fn / norm;
            u[a] = -(f[a] + c * v[a]) / k;
        }
}

/* Force and torques on body i (and torque on j) from contact with j; j is a
 * wall (infinite R, m, E; at rest) when wall != 0 and then xj is the closest point. */
static void contact(const grains_params *p, const body *bi, const body *bj, const double *xj, double Rj, int wall,
                    springs *s, double *F, double *Ti, double *Tj)
{
    double d[3] = {bi->x[0] - xj[0], bi->x[1] - xj[1], bi->x[2] - xj[2]};
    double dist = sqrt(dot(d, d)), n[3] = {d[0] / dist, d[1] / dist, d[2] / dist};
    double delta = bi->R + Rj - dist;                                              /* Eq. 7 */
    double ri = bi->R - delta / 2, rj = Rj - delta / 2;                            /* Eqs. 29-30 */
    double mi = 4 * PI / 3 * p->rho * pow(bi->R, 3), mj = 4 * PI / 3 * p->rho * pow(Rj, 3);
    double Rs = wall ? bi->R : 1 / (1 / bi->R + 1 / Rj);                           /* Eq. 17 */
    double ms = wall ? mi : 1 / (1 / mi + 1 / mj);                                 /* Eq. 20 */
    double Es = wall ? p->E / (1 - p->nu * p->nu) : p->E / (2 * (1 - p->nu * p->nu)); /* Eqs. 15, 22 */
    double G = p->E / (2 * (1 + p->nu));
    double Gs = wall ? G / (2 - p->nu) : p->E / (4 * (2 - p->nu) * (1 + p->nu));     /* Eqs. 16, 23 */
    double a = sqrt(Rs * delta);                                                   /* Eq. 14 */
    double kn = 4.0 / 3.0 * Es * a, ks = 8 * Gs * a;                               /* Eqs. 12-13 */
    double beta = 1 / sqrt(1 + pow(PI / log(p->e_n), 2));                          /* Eq. 21 */
    double cn = sqrt(5 * ms * kn) * beta;                                          /* Eq. 18 */
    double cs = sqrt(ms * ks / 6) * beta;                                          /* Eq. 19 */
    double wj[3] = {0, 0, 0}, vj[3] = {0, 0, 0};
    if (!wall)
        memcpy(wj, bj->w, sizeof wj), memcpy(vj, bj->v, sizeof vj);
    double spin[3], nxs[3], v[3];
    for (int k = 0; k < 3; k++)
        spin[k] = ri * bi->w[k] + (wall ? 0 : rj * wj[k]);
    cross(n, spin, nxs);
    for (int k = 0; k < 3; k++)
        v[k] = bi->v[k] - vj[k] + nxs[k];                                          /* Eq. 26 */
    double vn = dot(v, n), vs[3], w[3], vr[3];
    for (int k = 0; k < 3; k++)
        vs[k] = v[k] - vn * n[k], w[k] = bi->w[k] - wj[k];                         /* Eqs. 27-28, 38 */
    double rr = wall ? ri : 1 / (1 / ri + 1 / rj);
    cross(w, n, vr);
    for (int k = 0; k < 3; k++)
        vr[k] *= rr;                                                               /* Eq. 36 */
    double vt = Rs * dot(w, n);                                                    /* Eq. 37 */
    project(s->us, n);
    project(s->ur, n);
    int first = p->friction_order == GRAINS_FRICTION_INCREMENT_THEN_FORCE;
    for (int k = 0; first && k < 3; k++)
        s->us[k] += p->dt * vs[k], s->ur[k] += p->dt * vr[k];
    s->ut += first ? p->dt * vt : 0;
    double fn[3], fs[3], fr[3], ft;
    for (int k = 0; k < 3; k++) {
        fn[k] = kn * delta * n[k] - cn * vn * n[k];                                /* Eqs. 5, 10 */
        fs[k] = -ks * s->us[k] - cs * vs[k];                                       /* Eq. 6 */
        fr[k] = -kn * s->ur[k] - cn * vr[k];                                       /* Eq. 34 */
    }
    ft = -ks * s->ut - cs * vt;                                                    /* Eq. 35 */
    for (int k = 0; !first && k < 3; k++)
        s->us[k] += p->dt * vs[k], s->ur[k] += p->dt * vr[k];                      /* Eq. 52 */
    s->ut += first ? 0 : p->dt * vt;
    double fnn = sqrt(dot(fn, fn));
    clip(fs, s->us, vs, 3, p->mu_s, fnn, ks, cs);
    clip(fr, s->ur, vr, 3, p->mu_r, fnn, kn, cn);
    clip(&ft, &s->ut, &vt, 1, p->mu_t, fnn, ks, cs);
    double fsxn[3], nxfr[3];
    cross(fs, n, fsxn);
    cross(n, fr, nxfr);
    for (int k = 0; k < 3; k++) {
        F[k] = fn[k] + fs[k];
        double trt = Rs * nxfr[k] + ft * Rs * n[k];                                /* Eqs. 32-33 */
        Ti[k] = ri * fsxn[k] + trt;                                                /* Eq. 31 */
        Tj[k] = rj * fsxn[k] - trt;                                                /* Eqs. 57-59 */
    }
}

static void hamilton(double *q, const double *r)
{
    double s = q[0] * r[0] - (q[1] * r[1] + q[2] * r[2] + q[3] * r[3]), v[3];
    double qv[3] = {q[1], q[2], q[3]}, rv[3] = {r[1], r[2], r[3]}, c[3];
    cross(qv, rv, c);
    for (int k = 0; k < 3; k++)
        v[k] = q[0] * rv[k] + r[0] * qv[k] + c[k];
    q[0] = s, q[1] = v[0], q[2] = v[1], q[3] = v[2];
}

/* Eqs. 41-48. */
static void integrate(const grains_params *p, body *b, const double *F, const double *T)
{
    double m = 4 * PI / 3 * p->rho * pow(b->R, 3), I = 0.4 * m * b->R * b->R;
    double c = 9 * p->eta / (2 * p->rho * b->R * b->R), gam = 10 * c / 3, g[3] = {p->g.x, p->g.y, p->g.z};
    double alpha[3];
    for (int k = 0; k < 3; k++) {
        b->v[k] += p->dt * (F[k] / m + g[k] - c * b->v[k]);
        b->x[k] += p->dt * b->v[k];
        alpha[k] = T[k] / I - gam * b->w[k];
    }
    double wn = sqrt(dot(b->w, b->w)), an = sqrt(dot(alpha, alpha));
    if (wn > 0) {
        double phi = p->dt / 2 * wn, r[4] = {cos(phi), sin(phi) * b->w[0] / wn, sin(phi) * b->w[1] / wn,
                                            sin(phi) * b->w[2] / wn};
        hamilton(b->q, r);
    }
    if (an > 0) {
        double th = p->dt * p->dt / 4 * an, r[4] = {cos(th), sin(th) * alpha[0] / an, sin(th) * alpha[1] / an,
                                                   sin(th) * alpha[2] / an};
        hamilton(b->q, r);
    }
    for (int k = 0; k < 3; k++)
        b->w[k] += p->dt * alpha[k];
}

static void compare(test_ctx *t, const body *b, grains_particle q, double tol, const char *what)
{
    double got[13] = {q.x.x, q.x.y, q.x.z, q.v.x, q.v.y, q.v.z, q.w.x, q.w.y, q.w.z, q.q.q0, q.q.q1, q.q.q2, q.q.q3};
    double want[13] = {b->x[0], b->x[1], b->x[2], b->v[0], b->v[1], b->v[2], b->w[0],
                       b->w[1], b->w[2], b->q[0], b->q[1], b->q[2], b->q[3]};
    double vscale = fabs(want[3]) + fabs(want[4]) + fabs(want[5]) + 1e-3;
    double wscale = fabs(want[6]) + fabs(want[7]) + fabs(want[8]) + 1;
    for (int k = 0; k < 13; k++) {
        double scale = k < 3 ? fabs(want[0]) + fabs(want[1]) + fabs(want[2]) : k < 6 ? vscale : k < 9 ? wscale : 1;
        CHECK(t, fabs(got[k] - want[k]) <= tol * scale, "%s component %d: %.17g vs hand %.17g", what, k, got[k],
              want[k]);
    }
}

static void two_spheres(test_ctx *t, grains_friction_order order)
{
    grains_params p = scene_params();
    p.compat = GRAINS_COMPAT_TINYDEM; /* Eq. 46 as printed: the transcription below follows it */
    p.mu_s = 0.25, p.mu_r = 0.08, p.mu_t = 0.04, p.eta = 0.013, p.e_n = 0.37, p.friction_order = order;
    p.g = (grains_vec3){0.3, -0.2, -9.81};
    grains_params_derive(&p);
    body b[2] = {{{0, 0, 0}, {0.31, 0.07, -0.02}, {13, -40, 27}, {1, 0, 0, 0}, 2.385e-3},
                 {{2.385e-3 + 3.71e-3 + 2e-5, 1.3e-3, 0.4e-3}, {-0.2, 0.03, 0.05}, {-5, 22, 60}, {1, 0, 0, 0}, 3.71e-3}};
    grains_sim *sim = scene(&p);
    for (int i = 0; i < 2; i++)
        add(sim, (grains_vec3){b[i].x[0], b[i].x[1], b[i].x[2]}, (grains_vec3){b[i].v[0], b[i].v[1], b[i].v[2]},
            (grains_vec3){b[i].w[0], b[i].w[1], b[i].w[2]}, b[i].R);
    springs s = {{0}, {0}, 0};
    int touching = 0, touched = 0;
    for (int k = 0; k < 400; k++) {
        double F[3] = {0}, Ti[3] = {0}, Tj[3] = {0}, Fj[3];
        double d[3] = {b[0].x[0] - b[1].x[0], b[0].x[1] - b[1].x[1], b[0].x[2] - b[1].x[2]};
        if (dot(d, d) < pow(b[0].R + b[1].R, 2)) {
            contact(&p, &b[0], &b[1], b[1].x, b[1].R, 0, &s, F, Ti, Tj);
            touched++;
            touching = 1;
        } else if (touching) {
            memset(&s, 0, sizeof s); /* the contact ended: its history goes */
            touching = 0;
        }
        for (int c = 0; c < 3; c++)
            Fj[c] = -F[c];
        integrate(&p, &b[0], F, Ti);
        integrate(&p, &b[1], Fj, Tj);
        step(sim);
        compare(t, &b[0], get(sim, 0), 1e-12, "sphere 1");
        compare(t, &b[1], get(sim, 1), 1e-12, "sphere 2");
    }
    CHECK(t, touched > 20, "the spheres were in contact for %d steps", touched);
    grains_sim_destroy(sim);
}

/* A spinning sphere dropped onto a floor tilted by gravity's direction. */
static void on_incline(test_ctx *t, grains_friction_order order)
{
    grains_params p = scene_params();
    p.compat = GRAINS_COMPAT_TINYDEM; /* Eq. 46 as printed: the transcription below follows it */
    double th = 0.41;
    p.g = (grains_vec3){9.81 * sin(th), 0.4, -9.81 * cos(th)};
    p.mu_s = 0.2, p.mu_r = 0.05, p.friction_order = order;
    grains_params_derive(&p);
    body b = {{0.01, -0.02, 4.2e-3 - 2e-6}, {0.05, 0.01, 0}, {3, 7, -20}, {1, 0, 0, 0}, 4.2e-3};
    grains_sim *sim = scene(&p);
    floor_mesh(sim, 1, 0);
    add(sim, (grains_vec3){b.x[0], b.x[1], b.x[2]}, (grains_vec3){b.v[0], b.v[1], b.v[2]},
        (grains_vec3){b.w[0], b.w[1], b.w[2]}, b.R);
    springs s = {{0}, {0}, 0};
    int touched = 0;
    for (int k = 0; k < 600; k++) {
        double F[3] = {0}, Ti[3] = {0}, Tj[3], xj[3] = {b.x[0], b.x[1], 0};
        if (b.x[2] < b.R) {
            contact(&p, &b, NULL, xj, 0, 1, &s, F, Ti, Tj);
            touched++;
        } else {
            memset(&s, 0, sizeof s);
        }
        integrate(&p, &b, F, Ti);
        step(sim);
        compare(t, &b, get(sim, 0), 1e-12, "sphere on incline");
    }
    CHECK(t, touched > 500, "the sphere stayed on the incline (%d steps)", touched);
    grains_sim_destroy(sim);
}

int main(void)
{
    test_ctx t = {0, 0};
    two_spheres(&t, GRAINS_FRICTION_FORCE_THEN_INCREMENT);
    two_spheres(&t, GRAINS_FRICTION_INCREMENT_THEN_FORCE);
    on_incline(&t, GRAINS_FRICTION_FORCE_THEN_INCREMENT);
    on_incline(&t, GRAINS_FRICTION_INCREMENT_THEN_FORCE);
    return test_report(&t, "test_tinydem_reference");
}
