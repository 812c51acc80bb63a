/* SPDX-License-Identifier: Apache-2.0 */
/* test_status.c -- one error semantics, module fedepm: the same bad input
 * gives the same status in ref and fast, with every output untouched
 * (fedref_common.h, "Error semantics"; the engine: tests/status_engine.h).
 *
 * One row per bad input: {function, edits of its valid base case,
 * expected status, wings}.  Every public function of the module and of
 * fedspec/fedepm.h has rows (ci/check-status-coverage.sh checks it).  The
 * problem, the parameters and the traces are this file's own state (FX),
 * edited by X()/XZ() edits; a run's trace holds an earlier valid run and
 * must come back bit for bit.  After the table: errors after a run started
 * reset the trace (rule 3), unused rows, and the functions without a
 * status. */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_fedepm(void);

#define NaN NAN
#define Inf INFINITY
#define BIGPREC ((size_t)FR_PREC_MAX + 1)
#define TPREC 64                       /* the traces' working precision */
#define HUGE_EXP 30000000              /* 2^(3e7): an exact intermediate of > 2^24 bits */

/* ---- the module state: a problem, parameters, a trace mode -------------- */

enum { T_OK, T_NULL, T_ZERO, T_OTHER, T_SHORT };   /* the trace a run is given */

typedef struct {
    size_t d[8];                       /* d[3..7] = 0: an edited m reads zeros */
    double X[7 * 2], b[7];
    double Delta[3];
    fr_logreg P;
    fr_fedepm_params prm;
    int Pnull, prmnull, trace;
    int posnull, posentry_null, countnull, synth_alias;
} fx_t;

static fx_t FX;                        /* the case being run (edited) */
static fx_t BASE;                      /* the same, never edited (traces) */

static void fx_make(fx_t *x)
{
    static const double X0[14] = {0.5, -0.25, 0.75, 0.125, -0.5, 1, 0.25,
                                  0.5, -1, 0.375, 0.625, -0.75, 0.125, 0.25};
    static const double b0[7] = {0, 1, 1, 0, 1, 0, 1};
    memset(x, 0, sizeof *x);
    x->d[0] = 2;
    x->d[1] = 3;
    x->d[2] = 2;
    memcpy(x->X, X0, sizeof X0);
    memcpy(x->b, b0, sizeof b0);
    x->Delta[0] = x->Delta[1] = x->Delta[2] = 1;
    x->P = (fr_logreg){.m = 3, .n = 2, .d = x->d, .X = x->X, .b = x->b, .beta = 0.01};
    x->prm = (fr_fedepm_params){
        .k0 = 2, .rounds = 2, .nsel = 2, .lambda = 0.005, .eta = 0.01, .mu0 = 0.5,
        .c = 0.01, .alpha = 1.001, .eps = 4, .noise = FR_NOISE_EQ39, .Delta = x->Delta,
        .stopping = 0, .seed = 5, .mu_prox = 0.25, .ell = 2};
    x->trace = T_OK;
}

/* The module's edits: X(what, j, value) or XZ(what, size). */
enum {
    XP_NULL, XP_D_NULL, XP_X_NULL, XP_B_NULL, XP_M, XP_N, XP_D, XP_X, XP_B, XP_BETA,
    XPRM_NULL, XK0, XROUNDS, XNSEL, XLAMBDA, XETA, XMU0, XC, XALPHA, XEPS, XNOISE,
    XDELTA_NULL, XDELTA, XSTOP, XMUPROX, XELL, XACCT, XCERT_DELTA_NULL,
    XT_NULL, XT_ZERO, XT_OTHER, XT_SHORT,
    XPOS_NULL, XPOS_ENTRY_NULL, XCOUNT_NULL, XSYN_ALIAS
};
#define XN(what) XZ(what, 0)           /* an edit without a value */

static void fx_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    fx_t *x = c->x;
    switch (what) {
    case XP_NULL:     x->Pnull = 1; break;
    case XP_D_NULL:   x->P.d = NULL; break;
    case XP_X_NULL:   x->P.X = NULL; break;
    case XP_B_NULL:   x->P.b = NULL; break;
    case XP_M:        x->P.m = z; break;
    case XP_N:        x->P.n = z; break;
    case XP_D:        x->d[j] = (size_t)v; break;
    case XP_X:        x->X[j] = v; break;
    case XP_B:        x->b[j] = v; break;
    case XP_BETA:     x->P.beta = v; break;
    case XPRM_NULL:   x->prmnull = 1; break;
    case XK0:         x->prm.k0 = (unsigned long)z; break;
    case XROUNDS:     x->prm.rounds = (unsigned long)z; break;
    case XNSEL:       x->prm.nsel = z; break;
    case XLAMBDA:     x->prm.lambda = v; break;
    case XETA:        x->prm.eta = v; break;
    case XMU0:        x->prm.mu0 = v; break;
    case XC:          x->prm.c = v; break;
    case XALPHA:      x->prm.alpha = v; break;
    case XEPS:        x->prm.eps = v; break;
    case XNOISE:      x->prm.noise = (int)z; break;
    case XDELTA_NULL: x->prm.noise = FR_NOISE_EQ27; x->prm.Delta = NULL; break;
    case XDELTA:      x->prm.noise = FR_NOISE_EQ27; x->Delta[j] = v; break;
    case XSTOP:       x->prm.stopping = (int)z; break;
    case XMUPROX:     x->prm.mu_prox = v; break;
    case XELL:        x->prm.ell = (unsigned long)z; break;
    case XACCT:       x->prm.acct_delta = v; break;
    case XCERT_DELTA_NULL: x->prm.noise = FR_NOISE_CERT; x->prm.c = 0; x->prm.Delta = NULL; break;
    case XT_NULL:     x->trace = T_NULL; break;
    case XT_ZERO:     x->trace = T_ZERO; break;
    case XT_OTHER:    x->trace = T_OTHER; break;
    case XT_SHORT:    x->trace = T_SHORT; break;
    case XPOS_NULL:   x->posnull = 1; break;
    case XPOS_ENTRY_NULL: x->posentry_null = 1; break;
    case XCOUNT_NULL: x->countnull = 1; break;
    case XSYN_ALIAS:  x->synth_alias = 1; break;
    default:          ck_abort_msg("unknown edit %d", what);
    }
}

static void base_fx(st_case *c)
{
    fx_make(&FX);
    fx_make(&BASE);
    c->x = &FX;
    c->xedit = fx_edit;
}

static const fr_logreg *PP(void) { return FX.Pnull ? NULL : &FX.P; }
static const fr_fedepm_params *PRM(void) { return FX.prmnull ? NULL : &FX.prm; }

/* ---- the functions: base case and one adapter per wing ------------------ *
 * Slots (s), scalars (c) and sizes (z) of each call are named in the
 * comment above its base case. */

/* logreg_fi(fi = s0, gi = s1, P, i = z0, w = s2); logreg_f without i */
static void b_logreg(st_case *c)
{
    base_fx(c);
    st_out(c, 0, 1);
    st_out(c, 1, 2);
    st_in(c, 2, 2, (const double[]){0.75, -1.5});
    c->z[0] = 1;
}
static int r_lrfi(st_case *c, st_ref *r) { return fr_logreg_fi(st_one(r, 0), r->v[1], PP(), c->z[0], r->v[2]); }
static int f_lrfi(st_case *c, st_fast *f) { return ff_logreg_fi(f->v[0], f->v[1], PP(), c->z[0], f->v[2]); }
static int fb_lrfi(st_case *c, st_fast *f) { return ff_logreg_fi_bound(f->v[0], f->v[1], PP(), c->z[0], f->v[2]); }
static const st_fn LRFI = {"fr_logreg_fi / ff_logreg_fi", b_logreg, r_lrfi, f_lrfi, NULL, fb_lrfi};
static int r_lrf(st_case *c, st_ref *r) { (void)c; return fr_logreg_f(st_one(r, 0), r->v[1], PP(), r->v[2]); }
static int f_lrf(st_case *c, st_fast *f) { (void)c; return ff_logreg_f(f->v[0], f->v[1], PP(), f->v[2]); }
static int fb_lrf(st_case *c, st_fast *f) { (void)c; return ff_logreg_f_bound(f->v[0], f->v[1], PP(), f->v[2]); }
static const st_fn LRF = {"fr_logreg_f / ff_logreg_f", b_logreg, r_lrf, f_lrf, NULL, fb_lrf};

/* fedepm_mu(mu = s0, mu0 = c0, c = c1, alpha = c2, kp1 = u, wik = s1, w = s2, n = z0) */
static void b_mu(st_case *c)
{
    st_out(c, 0, 1);
    st_in(c, 1, 2, (const double[]){0.5, -0.25});
    st_in(c, 2, 2, (const double[]){0.125, 1});
    c->s[0] = 0.5;
    c->s[1] = 0.01;
    c->s[2] = 1.001;
    c->u = 3;
    c->z[0] = 2;
}
static int r_mu(st_case *c, st_ref *r)
{
    return fr_fedepm_mu(st_one(r, 0), r->s[0], r->s[1], r->s[2], c->u, r->v[1], r->v[2], c->z[0]);
}
static int f_mu(st_case *c, st_fast *f)
{
    return ff_fedepm_mu(f->v[0], c->s[0], c->s[1], c->s[2], c->u, f->v[1], f->v[2], c->z[0]);
}
static int fb_mu(st_case *c, st_fast *f)
{
    return ff_fedepm_mu_bound(f->v[0], c->s[0], c->s[1], c->s[2], c->u, f->v[1], f->v[2], c->z[0]);
}
static const st_fn MU = {"fr_fedepm_mu / ff_fedepm_mu", b_mu, r_mu, f_mu, NULL, fb_mu};

/* fedepm_step(wnext = s0, wi = s1, w = s2, g = s3, n = z0, lambda = c0,
 * eta = c1, mu = c2) */
static void b_step(st_case *c)
{
    st_out(c, 0, 2);
    st_in(c, 1, 2, (const double[]){0.5, -0.25});
    st_in(c, 2, 2, (const double[]){0.125, 1});
    st_in(c, 3, 2, (const double[]){-0.375, 0.0625});
    c->s[0] = 0.005;
    c->s[1] = 0.01;
    c->s[2] = 0.6;
    c->z[0] = 2;
}
static int r_step(st_case *c, st_ref *r)
{
    return fr_fedepm_step(r->v[0], r->v[1], r->v[2], r->v[3], c->z[0], r->s[0], r->s[1], r->s[2]);
}
static int f_step(st_case *c, st_fast *f)
{
    return ff_fedepm_step(f->v[0], f->v[1], f->v[2], f->v[3], c->z[0], c->s[0], c->s[1], c->s[2]);
}
static int fb_step(st_case *c, st_fast *f)
{
    return ff_fedepm_step_bound(f->v[0], f->v[1], f->v[2], f->v[3], c->z[0], c->s[0], c->s[1], c->s[2]);
}
static const st_fn STEP = {"fr_fedepm_step / ff_fedepm_step", b_step, r_step, f_step, NULL, fb_step};

/* laplace_scale(nu = s0, Delta = c0, eps = c1, mu = c2, rnd = flag): ref
 * rounded up (MPFR_RNDU) against ff_laplace_scale_upper.
 * laplace_scale_eq39(nu = s0, g = s1, n = z0, eps = c0, mu = c1, rnd = flag).
 * laplace_density(p = s0, x = c0, nu = c1, printed = flag). */
static void b_lap(st_case *c)
{
    st_out(c, 0, 1);
    st_in(c, 1, 3, (const double[]){0.5, -2, 0.25});
    c->s[0] = 1;
    c->s[1] = 4;
    c->s[2] = 0.5;
    c->z[0] = 3;
    c->flag = MPFR_RNDU;
}
static int r_scale(st_case *c, st_ref *r)
{
    return fr_laplace_scale(st_one(r, 0), r->s[0], r->s[1], r->s[2], (mpfr_rnd_t)c->flag);
}
static int f_scale(st_case *c, st_fast *f) { return ff_laplace_scale_upper(f->v[0], c->s[0], c->s[1], c->s[2]); }
static int fb_scale(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_laplace_scale_upper_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), c->s[0],
                                                            c->s[1], c->s[2]));
}
static const st_fn SCALE = {"fr_laplace_scale (RNDU) / ff_laplace_scale_upper", b_lap, r_scale, f_scale, NULL,
                            fb_scale};

static int r_eq39(st_case *c, st_ref *r)
{
    return fr_laplace_scale_eq39(st_one(r, 0), r->v[1], c->z[0], r->s[0], r->s[1], (mpfr_rnd_t)c->flag);
}
static int f_eq39(st_case *c, st_fast *f)
{
    return ff_laplace_scale_eq39_upper(f->v[0], f->v[1], c->z[0], c->s[0], c->s[1]);
}
static int fb_eq39(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_laplace_scale_eq39_upper_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), f->v[1],
                                                                 c->z[0], c->s[0], c->s[1]));
}
static const st_fn EQ39 = {"fr_laplace_scale_eq39 (RNDU) / ff_laplace_scale_eq39_upper",
                           b_lap, r_eq39, f_eq39, NULL, fb_eq39};

static void b_density(st_case *c)
{
    st_out(c, 0, 1);
    c->s[0] = 0.3;
    c->s[1] = 2;
    c->flag = 0;
}
static int r_dens(st_case *c, st_ref *r) { return fr_laplace_density(st_one(r, 0), r->s[0], r->s[1], c->flag); }
static int f_dens(st_case *c, st_fast *f) { return ff_laplace_density(f->v[0], c->s[0], c->s[1], c->flag); }
static int fb_dens(st_case *c, st_fast *f)
{
    st_pair p;
    st_pair_init(&p, f, 0);
    return st_pair_done(c, &p, ff_laplace_density_bound(st_pair_at(&p, 0), st_pair_at(&p, 1), c->s[0], c->s[1],
                                                        c->flag));
}
static const st_fn DENS = {"fr_laplace_density / ff_laplace_density", b_density, r_dens, f_dens, NULL, fb_dens};

/* lambda_star(lam = s0, G = s2, m = z0, n = z1);
 * stationarity_9(r_cons = s0, r_sum = s1, G = s2, W = s3, w = s4, m, n);
 * stationarity_10(r_set = s0, r_sum = s1, ..., lambda = c0, eta = c1) */
static void b_pen(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 1);
    st_in(c, 2, 6, (const double[]){0.5, -1, 0.25, 2, -0.125, 0.75});
    st_in(c, 3, 6, (const double[]){1, 0.5, 1, -0.5, 0.25, 0.5});
    st_in(c, 4, 2, (const double[]){1, 0.5});
    c->z[0] = 3;
    c->z[1] = 2;
    c->s[0] = 0.1;
    c->s[1] = 0.2;
}
static int r_lam(st_case *c, st_ref *r) { return fr_lambda_star(st_one(r, 0), r->v[2], c->z[0], c->z[1]); }
static int f_lam(st_case *c, st_fast *f) { return ff_lambda_star(f->v[0], f->v[2], c->z[0], c->z[1]); }
static const st_fn LAM = {"fr_lambda_star / ff_lambda_star", b_pen, r_lam, f_lam, NULL, NULL};
static int r_st9(st_case *c, st_ref *r)
{
    return fr_stationarity_9(st_one(r, 0), st_one(r, 1), r->v[2], r->v[3], r->v[4], c->z[0], c->z[1]);
}
static int f_st9(st_case *c, st_fast *f)
{
    return ff_stationarity_9(f->v[0], f->v[1], f->v[2], f->v[3], f->v[4], c->z[0], c->z[1]);
}
static int fb_st9(st_case *c, st_fast *f)
{
    return ff_stationarity_9_bound(f->v[0], f->v[1], f->v[2], f->v[3], f->v[4], c->z[0], c->z[1]);
}
static const st_fn ST9 = {"fr_stationarity_9 / ff_stationarity_9", b_pen, r_st9, f_st9, NULL, fb_st9};
static int r_st10(st_case *c, st_ref *r)
{
    return fr_stationarity_10(st_one(r, 0), st_one(r, 1), r->v[2], r->v[3], r->v[4], c->z[0],
                              c->z[1], r->s[0], r->s[1]);
}
static int f_st10(st_case *c, st_fast *f)
{
    return ff_stationarity_10(f->v[0], f->v[1], f->v[2], f->v[3], f->v[4], c->z[0], c->z[1],
                              c->s[0], c->s[1]);
}
static int fb_st10(st_case *c, st_fast *f)
{
    return ff_stationarity_10_bound(f->v[0], f->v[1], f->v[2], f->v[3], f->v[4], c->z[0], c->z[1],
                                    c->s[0], c->s[1]);
}
static const st_fn ST10 = {"fr_stationarity_10 / ff_stationarity_10", b_pen, r_st10, f_st10, NULL, fb_st10};

/* stop_rule(stop (slot 0's NULL bit; an int the adapter checks), gnorm2 =
 * c0, f = s1, nf = z0, n = z1) */
static void b_stop(st_case *c)
{
    st_in(c, 1, 5, (const double[]){3, 2.5, 2.25, 2.125, 2.0625});
    c->s[0] = 0.5;
    c->z[0] = 5;
    c->z[1] = 2;
}
static int stop_checked(st_case *c, int st, int stop)
{
    if (stop != 0x5a5a)
        st_failf(c, "*stop written");
    return st;
}
static int r_stop(st_case *c, st_ref *r)
{
    int stop = 0x5a5a;
    return stop_checked(c, fr_stop_rule(c->null & 1 ? NULL : &stop, r->s[0], r->v[1], c->z[0],
                                        c->z[1]), stop);
}
static int f_stop(st_case *c, st_fast *f)
{
    int stop = 0x5a5a;
    return stop_checked(c, ff_stop_rule(c->null & 1 ? NULL : &stop, c->s[0], f->v[1], c->z[0],
                                        c->z[1]), stop);
}
static int fb_stop(st_case *c, st_fast *f)
{
    double gap = -1.5;
    int st = ff_stop_rule_bound(c->null & 1 ? NULL : &gap, c->s[0], f->v[1], c->z[0], c->z[1]);
    if (gap != -1.5)
        st_failf(c, "*gap written");
    return st;
}
static const st_fn STOP = {"fr_stop_rule / ff_stop_rule", b_stop, r_stop, f_stop, NULL, fb_stop};

/* dp_sens_step(out = s0, delta = c0, Delta = c1, eta = c2, mu = c3, rnd =
 * flag): ref rounded up (MPFR_RNDU) against ff_dp_sens_step_upper; the
 * bound (rel = s0, abs = s1) on the same rows and its own range. */
static void b_sens(st_case *c)
{
    st_out(c, 0, 1);
    c->s[0] = 0.75;
    c->s[1] = 0.5;
    c->s[2] = 1.2e-5;
    c->s[3] = 0.05;
    c->flag = MPFR_RNDU;
}
static void b_sensb(st_case *c)
{
    b_sens(c);
    st_out(c, 1, 1);
}
static int r_sens(st_case *c, st_ref *r)
{
    return fr_dp_sens_step(st_one(r, 0), r->s[0], r->s[1], r->s[2], r->s[3], (mpfr_rnd_t)c->flag);
}
static int f_sens(st_case *c, st_fast *f)
{
    return ff_dp_sens_step_upper(f->v[0], c->s[0], c->s[1], c->s[2], c->s[3]);
}
static int f_sensb(st_case *c, st_fast *f)
{
    return ff_dp_sens_step_upper_bound(f->v[0], f->v[1], c->s[0], c->s[1], c->s[2], c->s[3]);
}
static const st_fn SENS = {"fr_dp_sens_step (RNDU) / ff_dp_sens_step_upper", b_sens, r_sens, f_sens, NULL, NULL};
static const st_fn SENSB = {"ff_dp_sens_step_upper_bound", b_sensb, NULL, f_sensb, NULL, NULL};

/* dp_compose(basic = s0, adv = s1, eps = s2, k = z0, delta = c0, rnd =
 * flag): ref rounded up against ff_dp_compose_upper; the bound (rel = s0,
 * abs = s1) on the same inputs. */
static void b_comp(st_case *c)
{
    st_out(c, 0, 1);
    st_out(c, 1, 1);
    st_in(c, 2, 3, (const double[]){0, 0.5, 0.25});
    c->z[0] = 3;
    c->s[0] = 1e-5;
    c->flag = MPFR_RNDU;
}
static int r_comp(st_case *c, st_ref *r)
{
    return fr_dp_compose(st_one(r, 0), st_one(r, 1), r->v[2], c->z[0], r->s[0], (mpfr_rnd_t)c->flag);
}
static int f_comp(st_case *c, st_fast *f)
{
    return ff_dp_compose_upper(f->v[0], f->v[1], f->v[2], c->z[0], c->s[0]);
}
static int f_compb(st_case *c, st_fast *f)
{
    return ff_dp_compose_upper_bound(f->v[0], f->v[1], f->v[2], c->z[0], c->s[0]);
}
static const st_fn COMP = {"fr_dp_compose (RNDU) / ff_dp_compose_upper", b_comp, r_comp, f_comp, NULL, NULL};
static const st_fn COMPB = {"ff_dp_compose_upper_bound", b_comp, NULL, f_compb, NULL, NULL};

/* dp_compose_tight(eps = s0, epsj = s2, k = z0, delta = c0) */
static void b_tight(st_case *c)
{
    st_out(c, 0, 1);
    st_in(c, 2, 3, (const double[]){0, 0.5, 0.25});
    c->z[0] = 3;
    c->s[0] = 1e-5;
}
static int r_tight(st_case *c, st_ref *r)
{
    return fr_dp_compose_tight(st_one(r, 0), r->v[2], c->z[0], r->s[0]);
}
static int f_tight(st_case *c, st_fast *f)
{
    return ff_dp_compose_tight_upper(f->v[0], f->v[2], c->z[0], c->s[0]);
}
static const st_fn TIGHT = {"fr_dp_compose_tight / ff_dp_compose_tight_upper", b_tight, r_tight, f_tight,
                            NULL, NULL};

/* ---- traces: init, and the three runs ------------------------------------ */

/* The trace init rows: t (FX.trace == T_NULL: NULL) filled with a
 * sentinel pattern, P, prm, and (ref) prec = z0. */
static void b_trace(st_case *c)
{
    base_fx(c);
    c->z[0] = TPREC;
}
static int r_tinit(st_case *c, st_ref *r)
{
    (void)r;
    fr_fedepm_trace t, keep;
    memset(&t, 0x5a, sizeof t);
    keep = t;
    int st = fr_fedepm_trace_init(FX.trace == T_NULL ? NULL : &t, PP(), PRM(), (mpfr_prec_t)c->z[0]);
    if (memcmp(&t, &keep, sizeof t) != 0)
        st_failf(c, "the trace was written");
    if (st == FR_OK)
        fr_fedepm_trace_clear(&t);
    return st;
}
static int f_tinit(st_case *c, st_fast *f)
{
    (void)f;
    ff_fedepm_trace t, keep;
    memset(&t, 0x5a, sizeof t);
    keep = t;
    int st = ff_fedepm_trace_init(FX.trace == T_NULL ? NULL : &t, PP(), PRM());
    if (memcmp(&t, &keep, sizeof t) != 0)
        st_failf(c, "the trace was written");
    if (st == FR_OK)
        ff_fedepm_trace_clear(&t);
    return st;
}
static const st_fn TINIT = {"fr_fedepm_trace_init / ff_fedepm_trace_init", b_trace, r_tinit, f_tinit, NULL, NULL};

typedef int (*ref_run_fn)(fr_fedepm_trace *, const fr_logreg *, const fr_fedepm_params *);
typedef int (*fast_run_fn)(ff_fedepm_trace *, const fr_logreg *, const fr_fedepm_params *);

/* Every byte of a trace: the struct, then each array (mpfr_t bit for bit). */
static void snap_ref(st_bytes *b, const fr_fedepm_trace *t)
{
    st_bytes_raw(b, t, sizeof *t);
    if (t->w == NULL)
        return;
    st_bytes_mpfrs(b, t->w, t->cap * t->n);
    st_bytes_mpfrs(b, t->f, t->cap);
    st_bytes_mpfrs(b, t->gnorm2, t->cap);
    st_bytes_mpfrs(b, t->W, t->m * t->n);
    st_bytes_mpfrs(b, t->Z, t->m * t->n);
    st_bytes_mpfr(b, t->snr);
    st_bytes_raw(b, t->sel, t->cap * t->nsel * sizeof *t->sel);
    st_bytes_mpfrs(b, t->nu0, t->m);
    st_bytes_mpfrs(b, t->loss0, t->m);
    st_bytes_mpfrs(b, t->eps_basic, t->m);
    st_bytes_mpfrs(b, t->eps_adv, t->m);
    st_bytes_mpfrs(b, t->nu, t->cap * t->nsel);
    st_bytes_mpfrs(b, t->loss, t->cap * t->nsel);
}

static void snap_fast(st_bytes *b, const ff_fedepm_trace *t)
{
    st_bytes_raw(b, t, sizeof *t);
    if (t->w == NULL)
        return;
    st_bytes_raw(b, t->w, t->cap * t->n * sizeof *t->w);
    st_bytes_raw(b, t->f, t->cap * sizeof *t->f);
    st_bytes_raw(b, t->gnorm2, t->cap * sizeof *t->gnorm2);
    st_bytes_raw(b, t->W, t->m * t->n * sizeof *t->W);
    st_bytes_raw(b, t->Z, t->m * t->n * sizeof *t->Z);
    st_bytes_raw(b, t->sel, t->cap * t->nsel * sizeof *t->sel);
    st_bytes_raw(b, t->nu0, t->m * sizeof *t->nu0);
    st_bytes_raw(b, t->loss0, t->m * sizeof *t->loss0);
    st_bytes_raw(b, t->eps_basic, t->m * sizeof *t->eps_basic);
    st_bytes_raw(b, t->eps_adv, t->m * sizeof *t->eps_adv);
    st_bytes_raw(b, t->nu, t->cap * t->nsel * sizeof *t->nu);
    st_bytes_raw(b, t->loss, t->cap * t->nsel * sizeof *t->loss);
}

/* The parameters a trace of mode `mode` is initialised for. */
static fr_fedepm_params trace_params(int mode)
{
    fr_fedepm_params p = BASE.prm;
    if (mode == T_OTHER)
        p.nsel = 1;                    /* made for another |S| */
    if (mode == T_SHORT)
        p.rounds--;                    /* one row too few */
    return p;
}

/* The trace of FX.trace holding an earlier valid run of `run`, the run on
 * the case's (P, prm), and the trace compared bit for bit. */
static int ref_run(st_case *c, ref_run_fn run)
{
    fr_fedepm_trace t;
    memset(&t, 0, sizeof t);
    if (FX.trace != T_NULL && FX.trace != T_ZERO) {
        fr_fedepm_params p = trace_params(FX.trace);
        ck_assert_int_eq(fr_fedepm_trace_init(&t, &BASE.P, &p, TPREC), FR_OK);
        ck_assert_int_eq(run(&t, &BASE.P, &p), FR_OK);
    }
    st_bytes before = {0}, after = {0};
    snap_ref(&before, &t);
    int st = run(FX.trace == T_NULL ? NULL : &t, PP(), PRM());
    snap_ref(&after, &t);
    if (!st_bytes_eq(&before, &after))
        st_failf(c, "the trace was written");
    st_bytes_free(&before);
    st_bytes_free(&after);
    fr_fedepm_trace_clear(&t);
    return st;
}

static int fast_run(st_case *c, fast_run_fn run)
{
    ff_fedepm_trace t = {0};
    if (FX.trace != T_NULL && FX.trace != T_ZERO) {
        fr_fedepm_params p = trace_params(FX.trace);
        ck_assert_int_eq(ff_fedepm_trace_init(&t, &BASE.P, &p), FR_OK);
        ck_assert_int_eq(run(&t, &BASE.P, &p), FR_OK);
    }
    st_bytes before = {0}, after = {0};
    snap_fast(&before, &t);
    int st = run(FX.trace == T_NULL ? NULL : &t, PP(), PRM());
    snap_fast(&after, &t);
    if (!st_bytes_eq(&before, &after))
        st_failf(c, "the trace was written");
    st_bytes_free(&before);
    st_bytes_free(&after);
    ff_fedepm_trace_clear(&t);
    return st;
}

static int r_fedepm(st_case *c, st_ref *r) { (void)r; return ref_run(c, fr_fedepm_run); }
static int f_fedepm(st_case *c, st_fast *f) { (void)f; return fast_run(c, ff_fedepm_run); }
static int r_sfedavg(st_case *c, st_ref *r) { (void)r; return ref_run(c, fr_sfedavg_run); }
static int f_sfedavg(st_case *c, st_fast *f) { (void)f; return fast_run(c, ff_sfedavg_run); }
static int r_sfedprox(st_case *c, st_ref *r) { (void)r; return ref_run(c, fr_sfedprox_run); }
static int f_sfedprox(st_case *c, st_fast *f) { (void)f; return fast_run(c, ff_sfedprox_run); }
static const st_fn FEDEPM = {"fr_fedepm_run / ff_fedepm_run", base_fx, r_fedepm, f_fedepm, NULL, NULL};
static const st_fn SFEDAVG = {"fr_sfedavg_run / ff_sfedavg_run", base_fx, r_sfedavg, f_sfedavg, NULL, NULL};
static const st_fn SFEDPROX = {"fr_sfedprox_run / ff_sfedprox_run", base_fx, r_sfedprox, f_sfedprox, NULL, NULL};

/* ---- the shared checks and helpers of fedspec/fedepm.h (status only) ----- */

static int s_lrcheck(st_case *c) { (void)c; return fr_logreg_check(PP()); }
static int s_sizes(st_case *c) { (void)c; return fr_fedepm_sizes_check(PP(), PRM()); }
static int s_fedepm(st_case *c) { (void)c; return fr_fedepm_check(PP(), PRM()); }
static int s_sfedavg(st_case *c) { (void)c; return fr_sfedavg_check(PP(), PRM()); }
static int s_sfedprox(st_case *c) { (void)c; return fr_sfedprox_check(PP(), PRM()); }
static const st_fn LRCHECK = {"fr_logreg_check", base_fx, NULL, NULL, s_lrcheck, NULL};
/* fr_logreg_seal on a copy of P: the check's status; the seal nonzero and
 * fr_logreg_sealed 1 exactly on FR_OK (0 after an error). */
static int s_lrseal(st_case *c)
{
    if (PP() == NULL)
        return fr_logreg_seal(NULL);
    fr_logreg Q = *PP();
    Q.seal = 1;                                    /* stale: overwritten */
    int st = fr_logreg_seal(&Q);
    if ((st == FR_OK) != (Q.seal != 0) || (st == FR_OK) != (fr_logreg_sealed(&Q) == 1))
        st_failf(c, "the seal disagrees with the status");
    return st;
}
static const st_fn LRSEAL = {"fr_logreg_seal", base_fx, NULL, NULL, s_lrseal, NULL};
static const st_fn SIZES = {"fr_fedepm_sizes_check", base_fx, NULL, NULL, s_sizes, NULL};
static const st_fn CFEDEPM = {"fr_fedepm_check", base_fx, NULL, NULL, s_fedepm, NULL};
static const st_fn CSFEDAVG = {"fr_sfedavg_check", base_fx, NULL, NULL, s_sfedavg, NULL};
static const st_fn CSFEDPROX = {"fr_sfedprox_check", base_fx, NULL, NULL, s_sfedprox, NULL};

/* fr_fedepm_check_fields(P, prm, pos = {&mu_prox}, 1, count = {&ell}, 1) */
static int s_fields(st_case *c)
{
    (void)c;
    const double *pos[1] = {FX.posentry_null ? NULL : &FX.prm.mu_prox};
    const unsigned long *count[1] = {&FX.prm.ell};
    return fr_fedepm_check_fields(PP(), PRM(), FX.posnull ? NULL : pos, 1,
                                  FX.countnull ? NULL : count, 1);
}
static const st_fn FIELDS = {"fr_fedepm_check_fields", base_fx, NULL, NULL, s_fields, NULL};

/* fr_selection_size(rho = c0, m = z0, nsel: slot 0's NULL bit) */
static void b_selsize(st_case *c)
{
    c->s[0] = 0.5;
    c->z[0] = 4;
}
static int s_selsize(st_case *c)
{
    size_t k = 77;
    int st = fr_selection_size(c->s[0], c->z[0], c->null & 1 ? NULL : &k);
    if (st != FR_OK && k != 77)
        st_failf(c, "*nsel written");
    return st;
}
static const st_fn SELSIZE = {"fr_selection_size", b_selsize, NULL, NULL, s_selsize, NULL};

/* fr_synth_sizes(seed, m = z0, dmin = z1, dmax = z2, d: slot 0's NULL bit);
 * fr_synth_data(seed, m = z0, n = z1, d = FX.d (slot 0's NULL bit), X
 * (slot 1's), b (slot 2's); XSYN_ALIAS: b inside X) */
static void b_synth(st_case *c)
{
    base_fx(c);
    c->z[0] = 3;
    c->z[1] = 2;
    c->z[2] = 5;
}
static int s_synth_sizes(st_case *c)
{
    size_t d[4], keep[4];
    memset(d, 0xa5, sizeof d);
    memcpy(keep, d, sizeof d);
    int st = fr_synth_sizes(9, c->z[0], c->z[1], c->z[2], c->null & 1 ? NULL : d);
    if (st != FR_OK && memcmp(d, keep, sizeof d) != 0)
        st_failf(c, "d written");
    return st;
}
static const st_fn SYNSIZES = {"fr_synth_sizes", b_synth, NULL, NULL, s_synth_sizes, NULL};
static int s_synth_data(st_case *c)
{
    double X[32], keep[32];
    for (size_t k = 0; k < 32; k++)
        X[k] = -(double)k;
    memcpy(keep, X, sizeof X);
    double *b = FX.synth_alias ? X + 4 : X + 16;        /* X: 7 x 2 = X[0..13] */
    int st = fr_synth_data(9, c->z[0], c->z[1], c->null & 1 ? NULL : FX.d,
                           c->null & 2 ? NULL : X, c->null & 4 ? NULL : b);
    if (st != FR_OK && memcmp(X, keep, sizeof X) != 0)
        st_failf(c, "X or b written");
    return st;
}
static const st_fn SYNDATA = {"fr_synth_data", b_synth, NULL, NULL, s_synth_data, NULL};

/* ---- the table ------------------------------------------------------------ */

/* The problem's rows, for every function that takes P (its class at its
 * place among the others). */
#define PROBLEM_ROWS(F) \
    ROW(F, FR_ENULL, XN(XP_NULL)), \
    ROW(F, FR_ENULL, XN(XP_X_NULL)), \
    ROW(F, FR_ENULL, XN(XP_D_NULL), XZ(XP_N, 0)), \
    ROW(F, FR_ESIZE, XZ(XP_M, 0)), \
    ROW(F, FR_ESIZE, XZ(XP_N, 0)), \
    ROW(F, FR_ESIZE, XZ(XP_N, SIZE_MAX)), \
    ROW(F, FR_ESIZE, X(XP_D, 1, 0)), \
    ROW(F, FR_ENONFINITE, X(XP_X, 13, NaN)), \
    ROW(F, FR_ENONFINITE, X(XP_B, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XP_BETA, 0, -Inf)), \
    ROW(F, FR_EDOM, X(XP_BETA, 0, 0)), \
    ROW(F, FR_EDOM, X(XP_B, 6, 0.5)), \
    ROW(F, FR_ENONFINITE, X(XP_BETA, 0, 0), X(XP_X, 0, NaN)), \
    ROW(F, FR_ESIZE, X(XP_X, 0, NaN), XZ(XP_M, 0))

/* The parameters' rows of the family (fr_sfedavg_check's fields), for the
 * three checks and the three runs. */
#define FAMILY_ROWS(F) \
    PROBLEM_ROWS(F), \
    ROW(F, FR_ENULL, XN(XPRM_NULL)), \
    ROW(F, FR_ENULL, XN(XPRM_NULL), XZ(XP_M, 0)), \
    ROW(F, FR_ENULL, XN(XDELTA_NULL)), \
    ROW(F, FR_ENULL, XN(XDELTA_NULL), XZ(XK0, 0)), \
    ROW(F, FR_ESIZE, XZ(XNSEL, 0)), \
    ROW(F, FR_ESIZE, XZ(XNSEL, 4)), \
    ROW(F, FR_ESIZE, XZ(XK0, 0)), \
    ROW(F, FR_ESIZE, XZ(XROUNDS, 0)), \
    ROW(F, FR_ESIZE, XZ(XROUNDS, ULONG_MAX)), \
    ROW(F, FR_ENONFINITE, X(XMU0, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XC, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XALPHA, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XEPS, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XDELTA, 1, NaN)), \
    ROW(F, FR_EDOM, X(XMU0, 0, 0)), \
    ROW(F, FR_EDOM, X(XC, 0, -1)), \
    ROW(F, FR_EDOM, X(XALPHA, 0, 1)), \
    ROW(F, FR_EDOM, X(XEPS, 0, 0)), \
    ROW(F, FR_EDOM, XZ(XNOISE, 7)), \
    ROW(F, FR_EDOM, X(XDELTA, 2, 0)), \
    ROW(F, FR_EDOM, XZ(XSTOP, 2)), \
    ROW(F, FR_ENONFINITE, X(XALPHA, 0, 1), X(XP_X, 3, NaN)), \
    ROW(F, FR_ESIZE, X(XALPHA, 0, NaN), XZ(XNSEL, 0)), \
    ROW(F, FR_ENULL, XN(XCERT_DELTA_NULL)), \
    ROW(F, FR_ENULL, XN(XCERT_DELTA_NULL), XZ(XNSEL, 0)), \
    ROW(F, FR_ENONFINITE, X(XACCT, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XACCT, 0, 1), X(XEPS, 0, NaN)), \
    ROW(F, FR_EDOM, X(XACCT, 0, 1)), \
    ROW(F, FR_EDOM, X(XACCT, 0, -0.25)), \
    ROW(F, FR_EDOM, XZ(XNOISE, 4)), \
    ROW(F, FR_EDOM, XZ(XNOISE, 3)),                     /* certified with c > 0 */ \
    ROW(F, FR_EDOM, XZ(XNOISE, 3), X(XC, 0, 0), XZ(XSTOP, 1)),  /* ... with stopping */ \
    ROW(F, FR_ENONFINITE, XZ(XNOISE, 3), X(XEPS, 0, NaN)), \
    ROW(F, FR_ESIZE, XZ(XNOISE, 3), XZ(XK0, 0))

/* The certified rule is FedEPM's: the baselines refuse it (its other
 * requirements met). */
#define BASELINE_ROWS(F) \
    ROW(F, FR_EDOM, XZ(XNOISE, 3), X(XC, 0, 0)), \
    ROW(F, FR_ENONFINITE, XZ(XNOISE, 3), X(XC, 0, 0), X(XDELTA, 0, Inf))

/* A run's trace: zeroed, NULL, made for other sizes (with other errors). */
#define TRACE_ROWS(F) \
    ROW(F, FR_ENULL, XN(XT_NULL)), \
    ROW(F, FR_ENULL, XN(XT_ZERO)), \
    ROW(F, FR_ENULL, XN(XT_ZERO), XZ(XP_M, 0)), \
    ROW(F, FR_ENULL, XN(XT_OTHER), XN(XP_NULL)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER)), \
    ROW(F, FR_ESIZE, XN(XT_SHORT)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER), X(XP_BETA, 0, 0)), \
    ROW(F, FR_ESIZE, XN(XT_SHORT), X(XP_X, 2, NaN))

/* FedEPM's own fields (lambda, eta), SFedProx's (mu_prox, ell). */
#define FEDEPM_ROWS(F) \
    ROW(F, FR_EDOM, X(XLAMBDA, 0, 0)), \
    ROW(F, FR_ENONFINITE, X(XETA, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XLAMBDA, 0, 0), X(XETA, 0, NaN))
#define SFEDPROX_ROWS(F) \
    ROW(F, FR_EDOM, X(XMUPROX, 0, 0)), \
    ROW(F, FR_ENONFINITE, X(XMUPROX, 0, Inf)), \
    ROW(F, FR_ESIZE, XZ(XELL, 0)), \
    ROW(F, FR_ESIZE, XZ(XELL, 0), X(XMUPROX, 0, NaN))

static const st_row ROWS[] = {
    /* logreg_fi: fi s0, gi s1, w s2, i z0 */
    PROBLEM_ROWS(LRFI),
    ROW(LRFI, FR_ENULL, NUL(0), NUL(1)),                      /* fi and gi */
    ROW(LRFI, FR_ENULL, NUL(2)),
    ROW(LRFI, FR_ENULL, NUL(2), XZ(XP_M, 0)),
    ROW(LRFI, FR_ESIZE, SZ(0, 3)),                            /* i = m */
    ROW(LRFI, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(LRFI, FR_ESIZE, SZ(0, 3), X(XP_X, 0, NaN)),
    ROW(LRFI, FR_ENONFINITE, EN(2, 1, NaN)),
    ROW(LRFI, FR_ENONFINITE, EN(2, 0, -Inf)),
    ROW(LRFI, FR_ENONFINITE, EN(2, 0, Inf), X(XP_BETA, 0, 0)),
    /* fast tests client i's rows (X[4..9]) during its pass: in class order */
    ROW(LRFI, FR_ENONFINITE, X(XP_X, 5, NaN)),
    ROW(LRFI, FR_ENONFINITE, X(XP_X, 9, -Inf)),
    ROW(LRFI, FR_ENONFINITE, X(XP_X, 4, Inf), X(XP_BETA, 0, 0)),
    ROW(LRFI, FR_ENONFINITE, X(XP_X, 6, NaN), X(XP_B, 3, 0.5)),
    ROW(LRFI, FR_ENONFINITE, X(XP_X, 7, NaN), ALIAS(0, 1)),
    ROW(LRFI, FR_ESIZE, X(XP_X, 5, NaN), SZ(0, 3)),
    ROW(LRFI, FR_EDOM, X(XP_B, 3, 0.5)),
    ROW(LRFI, FR_EDOM, ALIAS(0, 1)),                          /* fi inside gi */
    ROW(LRFI, FR_ENONFINITE, ALIAS(0, 1), EN(2, 0, NaN)),
    REF_ROW(LRFI, FR_EPREC, SHIFT(2, HUGE_EXP)),              /* exact <x, w> too long */
    /* logreg_f: f s0, g s1, w s2 */
    PROBLEM_ROWS(LRF),
    ROW(LRF, FR_ENULL, NUL(0), NUL(1)),
    ROW(LRF, FR_ENULL, NUL(2), X(XP_X, 0, NaN)),
    ROW(LRF, FR_ENONFINITE, EN(2, 1, Inf)),
    ROW(LRF, FR_ENONFINITE, X(XP_X, 7, NaN), ALIAS(0, 1)),
    ROW(LRF, FR_ENONFINITE, X(XP_X, 13, Inf), X(XP_B, 2, 2)),
    ROW(LRF, FR_EDOM, ALIAS(0, 1)),
    REF_ROW(LRF, FR_EPREC, SHIFT(2, HUGE_EXP)),
    /* fedepm_mu: mu s0, wik s1, w s2, n z0, mu0 c0, c c1, alpha c2 */
    ROW(MU, FR_ENULL, NUL(0)),
    ROW(MU, FR_ENULL, NUL(1)),
    ROW(MU, FR_ENULL, NUL(2), SZ(0, 0)),
    REF_ROW(MU, FR_ENULL, NULS(2)),
    ROW(MU, FR_ESIZE, SZ(0, 0)),
    ROW(MU, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(MU, FR_ENONFINITE, SC(0, NaN)),
    ROW(MU, FR_ENONFINITE, SC(1, Inf)),
    ROW(MU, FR_ENONFINITE, SC(2, -Inf)),
    ROW(MU, FR_ENONFINITE, EN(1, 1, NaN)),
    ROW(MU, FR_ENONFINITE, EN(2, 0, Inf)),
    ROW(MU, FR_EDOM, SC(0, 0)),
    ROW(MU, FR_EDOM, SC(1, -1)),
    ROW(MU, FR_EDOM, SC(2, 1)),
    ROW(MU, FR_ENONFINITE, SC(2, 1), EN(2, 1, NaN)),
    ROW(MU, FR_ESIZE, SC(0, NaN), SZ(0, 0)),
    /* fedepm_step: wnext s0, wi s1, w s2, g s3, n z0, lambda c0, eta c1, mu c2 */
    ROW(STEP, FR_ENULL, NUL(0)),
    ROW(STEP, FR_ENULL, NUL(3)),
    ROW(STEP, FR_ENULL, NUL(1), SZ(0, 0), SC(2, NaN)),
    REF_ROW(STEP, FR_ENULL, NULS(1)),
    ROW(STEP, FR_ESIZE, SZ(0, 0)),
    ROW(STEP, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(STEP, FR_ENONFINITE, SC(0, NaN)),
    ROW(STEP, FR_ENONFINITE, SC(1, Inf)),
    ROW(STEP, FR_ENONFINITE, SC(2, -Inf)),
    ROW(STEP, FR_ENONFINITE, EN(1, 0, NaN)),
    ROW(STEP, FR_ENONFINITE, EN(3, 1, -Inf)),
    ROW(STEP, FR_EDOM, SC(0, 0)),
    ROW(STEP, FR_EDOM, SC(1, -1)),
    ROW(STEP, FR_EDOM, SC(2, 0)),
    ROW(STEP, FR_ENONFINITE, SC(0, 0), EN(2, 1, NaN)),
    REF_ROW(STEP, FR_EPREC, SHIFT(1, HUGE_EXP)),              /* exact wi - w too long */
    /* laplace_scale: nu s0, Delta c0, eps c1, mu c2, rnd flag */
    ROW(SCALE, FR_ENULL, NUL(0)),
    REF_ROW(SCALE, FR_ENULL, NULS(0)),
    REF_ROW(SCALE, FR_ENULL, NULS(2), SC(0, NaN)),
    ROW(SCALE, FR_ENONFINITE, SC(0, NaN)),
    ROW(SCALE, FR_ENONFINITE, SC(1, Inf)),
    ROW(SCALE, FR_ENONFINITE, SC(2, -Inf)),
    ROW(SCALE, FR_EDOM, SC(0, 0)),
    ROW(SCALE, FR_EDOM, SC(1, -4)),
    ROW(SCALE, FR_EDOM, SC(2, 0)),
    ROW(SCALE, FR_ENONFINITE, SC(0, 0), SC(2, NaN)),
    REF_ROW(SCALE, FR_EDOM, FLAG(99)),                        /* no such rounding */
    REF_ROW(SCALE, FR_ENONFINITE, FLAG(99), SC(1, NaN)),
    /* laplace_scale_eq39: nu s0, g s1, n z0, eps c0, mu c1, rnd flag */
    ROW(EQ39, FR_ENULL, NUL(0)),
    ROW(EQ39, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(EQ39, FR_ENULL, NULS(1)),
    ROW(EQ39, FR_ESIZE, SZ(0, 0)),
    ROW(EQ39, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(EQ39, FR_ENONFINITE, SC(0, NaN)),
    ROW(EQ39, FR_ENONFINITE, SC(1, Inf)),
    ROW(EQ39, FR_ENONFINITE, EN(1, 2, -Inf)),
    ROW(EQ39, FR_EDOM, SC(0, 0)),
    ROW(EQ39, FR_EDOM, SC(1, -1)),
    ROW(EQ39, FR_ENONFINITE, SC(0, -1), EN(1, 0, NaN)),
    ROW(EQ39, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    REF_ROW(EQ39, FR_EDOM, FLAG(42)),
    REF_ROW(EQ39, FR_EPREC, SHIFT(1, HUGE_EXP)),              /* exact ||g||_1 too long */
    /* laplace_density: p s0, x c0, nu c1, printed flag */
    ROW(DENS, FR_ENULL, NUL(0)),
    REF_ROW(DENS, FR_ENULL, NULS(0)),
    REF_ROW(DENS, FR_ENULL, NULS(1), SC(0, NaN)),
    ROW(DENS, FR_ENONFINITE, SC(0, NaN)),
    ROW(DENS, FR_ENONFINITE, SC(0, -Inf)),
    ROW(DENS, FR_ENONFINITE, SC(1, Inf)),
    ROW(DENS, FR_EDOM, SC(1, 0)),
    ROW(DENS, FR_EDOM, SC(1, -2)),
    ROW(DENS, FR_ENONFINITE, SC(1, -2), SC(0, Inf)),
    ROW(DENS, FR_EDOM, SC(1, 0), FLAG(1)),
    /* dp_sens_step: out s0, delta c0, Delta c1, eta c2, mu c3, rnd flag */
    ROW(SENS, FR_ENULL, NUL(0)),
    REF_ROW(SENS, FR_ENULL, NULS(0)),
    REF_ROW(SENS, FR_ENULL, NULS(3), SC(0, NaN)),
    ROW(SENS, FR_ENONFINITE, SC(0, NaN)),
    ROW(SENS, FR_ENONFINITE, SC(0, Inf)),
    ROW(SENS, FR_ENONFINITE, SC(1, -Inf)),
    ROW(SENS, FR_ENONFINITE, SC(2, Inf)),
    ROW(SENS, FR_ENONFINITE, SC(3, NaN)),
    ROW(SENS, FR_EDOM, SC(0, -1)),
    ROW(SENS, FR_EDOM, SC(1, -0.5)),
    ROW(SENS, FR_EDOM, SC(2, 0)),
    ROW(SENS, FR_EDOM, SC(3, -1)),
    ROW(SENS, FR_EDOM, SC(3, 0)),                   /* mu > 0: its edge */
    ROW(SENS, FR_OK, SC(0, -0.0), SC(1, -0.0)),     /* delta, Delta >= 0: -0 is 0 */
    ROW(SENS, FR_ENONFINITE, SC(2, 0), SC(3, NaN)),
    ROW(SENS, FR_ENULL, NUL(0), SC(1, NaN)),
    REF_ROW(SENS, FR_EDOM, FLAG(99)),
    REF_ROW(SENS, FR_ENONFINITE, FLAG(99), SC(1, NaN)),
    ROW(SENS, FR_OK, SC(0, 1e308), SC(1, 1), SC(2, 1), SC(3, 4)),   /* mu delta overflows */
    ROW(SENS, FR_OK, SC(0, DBL_MAX), SC(1, DBL_MAX), SC(2, 0x1p-1074), SC(3, DBL_MAX)),
    /* ff_dp_sens_step_upper_bound: rel s0, abs s1; eta + mu < 2^-1021 */
    ROW(SENSB, FR_ENULL, NUL(0)),
    ROW(SENSB, FR_ENULL, NUL(1)),
    ROW(SENSB, FR_ENULL, NUL(1), SC(0, NaN)),
    ROW(SENSB, FR_ENONFINITE, SC(0, NaN)),
    ROW(SENSB, FR_ENONFINITE, SC(3, Inf)),
    ROW(SENSB, FR_EDOM, SC(1, -1)),
    ROW(SENSB, FR_EDOM, SC(2, 0)),
    ROW(SENSB, FR_EDOM, SC(2, 0x1p-1030), SC(3, 0x1p-1030)),   /* outside the proof */
    ROW(SENSB, FR_ENONFINITE, SC(2, 0), SC(0, Inf)),
    /* dp_compose: basic s0, adv s1, eps s2, k z0, delta c0, rnd flag */
    ROW(COMP, FR_ENULL, NUL(0)),
    ROW(COMP, FR_ENULL, NUL(1)),
    ROW(COMP, FR_ENULL, NUL(2), SZ(0, 0)),
    REF_ROW(COMP, FR_ENULL, NULS(0)),
    ROW(COMP, FR_ESIZE, SZ(0, 0)),
    ROW(COMP, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(COMP, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(COMP, FR_ENONFINITE, SC(0, NaN)),
    ROW(COMP, FR_ENONFINITE, SC(0, Inf)),
    ROW(COMP, FR_ENONFINITE, EN(2, 1, NaN)),
    ROW(COMP, FR_ENONFINITE, EN(2, 2, -Inf)),
    ROW(COMP, FR_EDOM, EN(2, 1, -0.5)),
    ROW(COMP, FR_EDOM, SC(0, 0)),
    ROW(COMP, FR_EDOM, SC(0, 1)),
    ROW(COMP, FR_EDOM, ALIAS(1, 0)),                          /* basic == adv */
    ROW(COMP, FR_ENONFINITE, ALIAS(1, 0), EN(2, 0, NaN)),
    ROW(COMP, FR_ENONFINITE, EN(2, 0, -1), EN(2, 2, NaN)),
    REF_ROW(COMP, FR_EDOM, FLAG(99)),
    /* dp_compose_tight: eps s0, epsj s2, k z0, delta c0 */
    ROW(TIGHT, FR_ENULL, NUL(0)),
    ROW(TIGHT, FR_ENULL, NUL(2), SZ(0, 0)),
    REF_ROW(TIGHT, FR_ENULL, NULS(0)),
    ROW(TIGHT, FR_ESIZE, SZ(0, 0)),
    ROW(TIGHT, FR_ESIZE, SZ(0, 65537)),
    ROW(TIGHT, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(TIGHT, FR_ENONFINITE, SC(0, NaN)),
    ROW(TIGHT, FR_ENONFINITE, SC(0, Inf)),
    ROW(TIGHT, FR_ENONFINITE, EN(2, 1, NaN)),
    ROW(TIGHT, FR_ENONFINITE, EN(2, 2, -Inf)),
    ROW(TIGHT, FR_ENONFINITE, EN(2, 0, -1), EN(2, 2, NaN)),
    ROW(TIGHT, FR_EDOM, EN(2, 1, -0.5)),
    ROW(TIGHT, FR_EDOM, EN(2, 1, -0.0), SC(0, 0)),
    ROW(TIGHT, FR_EDOM, SC(0, 0)),
    ROW(TIGHT, FR_EDOM, SC(0, 1)),
    ROW(TIGHT, FR_EDOM, SC(0, -1e-300)),
    /* ff_dp_compose_upper_bound: rel s0, abs s1; a loss outside [2^-500, 709] */
    ROW(COMPB, FR_ENULL, NUL(0)),
    ROW(COMPB, FR_ENULL, NUL(1), SZ(0, 0)),
    ROW(COMPB, FR_ESIZE, SZ(0, 0)),
    ROW(COMPB, FR_ENONFINITE, EN(2, 1, NaN)),
    ROW(COMPB, FR_EDOM, SC(0, 1)),
    ROW(COMPB, FR_EDOM, ALIAS(1, 0)),
    ROW(COMPB, FR_EDOM, EN(2, 1, 1e-200)),                    /* outside the proof */
    ROW(COMPB, FR_EDOM, EN(2, 1, Inf)),
    ROW(COMPB, FR_ENONFINITE, EN(2, 1, 1e-200), SC(0, NaN)),
    /* lambda_star: lam s0, G s2, m z0, n z1 */
    ROW(LAM, FR_ENULL, NUL(0)),
    ROW(LAM, FR_ENULL, NUL(2), SZ(0, 0)),
    ROW(LAM, FR_ESIZE, SZ(0, 0)),
    ROW(LAM, FR_ESIZE, SZ(1, SIZE_MAX)),
    ROW(LAM, FR_ESIZE, SZ(0, FR_COUNT_MAX / 2 + 1)),
    ROW(LAM, FR_ENONFINITE, EN(2, 5, NaN)),
    ROW(LAM, FR_ENONFINITE, EN(2, 0, -Inf)),
    ROW(LAM, FR_ESIZE, EN(2, 0, NaN), SZ(1, 0)),
    /* stationarity_9: r_cons s0, r_sum s1, G s2, W s3, w s4, m z0, n z1 */
    ROW(ST9, FR_ENULL, NUL(0)),
    ROW(ST9, FR_ENULL, NUL(1)),
    ROW(ST9, FR_ENULL, NUL(4), SZ(0, 0)),
    ROW(ST9, FR_ESIZE, SZ(0, 0)),
    ROW(ST9, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(ST9, FR_ENONFINITE, EN(2, 1, NaN)),
    ROW(ST9, FR_ENONFINITE, EN(3, 5, Inf)),
    ROW(ST9, FR_ENONFINITE, EN(4, 1, -Inf)),
    ROW(ST9, FR_EDOM, ALIAS(1, 0)),                           /* r_cons == r_sum */
    ROW(ST9, FR_ENONFINITE, ALIAS(1, 0), EN(3, 0, NaN)),
    ROW(ST9, FR_ESIZE, ALIAS(1, 0), SZ(1, 0)),
    /* stationarity_10: + lambda c0, eta c1 */
    ROW(ST10, FR_ENULL, NUL(0)),
    ROW(ST10, FR_ENULL, NUL(3), SZ(1, 0)),
    REF_ROW(ST10, FR_ENULL, NULS(1)),
    ROW(ST10, FR_ESIZE, SZ(1, 0)),
    ROW(ST10, FR_ESIZE, SZ(1, SIZE_MAX)),
    ROW(ST10, FR_ENONFINITE, SC(0, NaN)),
    ROW(ST10, FR_ENONFINITE, SC(1, Inf)),
    ROW(ST10, FR_ENONFINITE, EN(3, 2, NaN)),
    ROW(ST10, FR_EDOM, SC(0, 0)),
    ROW(ST10, FR_EDOM, SC(1, -1)),
    ROW(ST10, FR_EDOM, ALIAS(1, 0)),                          /* r_set == r_sum */
    ROW(ST10, FR_ENONFINITE, SC(0, 0), EN(2, 0, NaN)),
    ROW(ST10, FR_ESIZE, SC(0, NaN), SZ(0, 0)),
    REF_ROW(ST10, FR_EPREC, SHIFT(3, HUGE_EXP)),              /* exact w_ij - w_j too long */
    /* stop_rule: stop (slot 0), gnorm2 c0, f s1, nf z0, n z1 */
    ROW(STOP, FR_ENULL, NUL(0)),
    ROW(STOP, FR_ENULL, NUL(1), SZ(0, 0)),
    REF_ROW(STOP, FR_ENULL, NULS(0)),
    ROW(STOP, FR_ESIZE, SZ(0, 0)),
    ROW(STOP, FR_ESIZE, SZ(1, 0)),
    ROW(STOP, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(STOP, FR_ENONFINITE, SC(0, NaN)),
    ROW(STOP, FR_ENONFINITE, SC(0, Inf)),
    ROW(STOP, FR_ENONFINITE, EN(1, 0, -Inf)),
    ROW(STOP, FR_EDOM, SC(0, -1)),
    ROW(STOP, FR_ENONFINITE, SC(0, -1), EN(1, 4, NaN)),
    ROW(STOP, FR_ESIZE, SC(0, NaN), SZ(1, 0)),
    /* trace_init: t, P, prm, (ref) prec z0 */
    PROBLEM_ROWS(TINIT),
    ROW(TINIT, FR_ENULL, XN(XT_NULL)),
    ROW(TINIT, FR_ENULL, XN(XT_NULL), XZ(XP_M, 0)),
    ROW(TINIT, FR_ENULL, XN(XPRM_NULL)),
    ROW(TINIT, FR_ENULL, XN(XDELTA_NULL)),
    ROW(TINIT, FR_ESIZE, XZ(XNSEL, 0)),
    ROW(TINIT, FR_ESIZE, XZ(XROUNDS, ULONG_MAX)),
    ROW(TINIT, FR_ESIZE, XZ(XNSEL, 4), X(XP_BETA, 0, NaN)),
    REF_ROW(TINIT, FR_EPREC, SZ(0, 0)),
    REF_ROW(TINIT, FR_EPREC, SZ(0, BIGPREC)),
    REF_ROW(TINIT, FR_EPREC, SZ(0, 0), X(XP_X, 0, NaN)),
    REF_ROW(TINIT, FR_ESIZE, SZ(0, BIGPREC), XZ(XK0, 0)),
    /* the runs: P, prm, the trace */
    FAMILY_ROWS(FEDEPM), TRACE_ROWS(FEDEPM), FEDEPM_ROWS(FEDEPM),
    FAMILY_ROWS(SFEDAVG), TRACE_ROWS(SFEDAVG), BASELINE_ROWS(SFEDAVG),
    FAMILY_ROWS(SFEDPROX), TRACE_ROWS(SFEDPROX), SFEDPROX_ROWS(SFEDPROX), BASELINE_ROWS(SFEDPROX),
    /* shared checks */
    PROBLEM_ROWS(LRCHECK),
    PROBLEM_ROWS(LRSEAL),
    ROW(LRCHECK, FR_ENULL, XN(XP_B_NULL), XZ(XP_M, 0)),
    ROW(LRCHECK, FR_ESIZE, XZ(XP_M, SIZE_MAX)),
    PROBLEM_ROWS(SIZES),
    ROW(SIZES, FR_ENULL, XN(XPRM_NULL)),
    ROW(SIZES, FR_ENULL, XN(XDELTA_NULL), XZ(XNSEL, 0)),
    ROW(SIZES, FR_ESIZE, XZ(XNSEL, 0)),
    ROW(SIZES, FR_ESIZE, XZ(XK0, 0), X(XP_X, 1, NaN)),
    FAMILY_ROWS(CFEDEPM), FEDEPM_ROWS(CFEDEPM),
    FAMILY_ROWS(CSFEDAVG), BASELINE_ROWS(CSFEDAVG),
    FAMILY_ROWS(CSFEDPROX), SFEDPROX_ROWS(CSFEDPROX), BASELINE_ROWS(CSFEDPROX),
    FAMILY_ROWS(FIELDS), SFEDPROX_ROWS(FIELDS),
    ROW(FIELDS, FR_ENULL, XN(XPOS_NULL)),
    ROW(FIELDS, FR_ENULL, XN(XPOS_ENTRY_NULL)),
    ROW(FIELDS, FR_ENULL, XN(XCOUNT_NULL), XZ(XP_M, 0)),     /* before P's FR_ESIZE */
    ROW(FIELDS, FR_ENULL, XN(XPOS_NULL), XZ(XK0, 0), X(XP_X, 0, NaN)),
    /* fr_selection_size: rho c0, m z0, nsel (slot 0) */
    ROW(SELSIZE, FR_ENULL, NUL(0)),
    ROW(SELSIZE, FR_ENULL, NUL(0), SZ(0, 0)),
    ROW(SELSIZE, FR_ESIZE, SZ(0, 0)),
    ROW(SELSIZE, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(SELSIZE, FR_ENONFINITE, SC(0, NaN)),
    ROW(SELSIZE, FR_ENONFINITE, SC(0, -Inf)),
    ROW(SELSIZE, FR_EDOM, SC(0, 0)),
    ROW(SELSIZE, FR_EDOM, SC(0, 1.5)),
    ROW(SELSIZE, FR_EDOM, SC(0, -0.5)),
    /* fr_synth_sizes: m z0, dmin z1, dmax z2, d (slot 0) */
    ROW(SYNSIZES, FR_ENULL, NUL(0)),
    ROW(SYNSIZES, FR_ENULL, NUL(0), SZ(0, 0)),
    ROW(SYNSIZES, FR_ESIZE, SZ(0, 0)),
    ROW(SYNSIZES, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(SYNSIZES, FR_ESIZE, SZ(0, 0), SZ(1, 0)),
    ROW(SYNSIZES, FR_EDOM, SZ(1, 0)),
    ROW(SYNSIZES, FR_EDOM, SZ(1, 6)),                         /* dmin > dmax */
    /* fr_synth_data: m z0, n z1, d (slot 0), X (slot 1), b (slot 2) */
    ROW(SYNDATA, FR_ENULL, NUL(0)),
    ROW(SYNDATA, FR_ENULL, NUL(1)),
    ROW(SYNDATA, FR_ENULL, NUL(2), SZ(0, 0)),
    ROW(SYNDATA, FR_ESIZE, SZ(0, 0)),
    ROW(SYNDATA, FR_ESIZE, SZ(1, 0)),
    ROW(SYNDATA, FR_ESIZE, SZ(1, 4097)),
    ROW(SYNDATA, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(SYNDATA, FR_ESIZE, X(XP_D, 1, 0)),
    ROW(SYNDATA, FR_EDOM, XN(XSYN_ALIAS)),                    /* b inside X: two outputs */
    ROW(SYNDATA, FR_ESIZE, XN(XSYN_ALIAS), SZ(1, 0)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* ---- errors after a run started: the reset state, in both wings ---------- */

static void ref_assert_reset(const fr_fedepm_trace *t)
{
    ck_assert(t->rounds == 0 && t->iters == 0 && t->cr == 0 && t->stop == FR_STOP_ROUNDS);
    ck_assert(t->snr_clients == 0 && mpfr_nan_p(t->snr));
    for (size_t k = 0; k < t->cap * t->n; k++)
        ck_assert(mpfr_nan_p(t->w[k]) && mpfr_get_prec(t->w[k]) == TPREC);
    for (size_t k = 0; k < t->cap; k++)
        ck_assert(mpfr_nan_p(t->f[k]) && mpfr_nan_p(t->gnorm2[k]));
    for (size_t k = 0; k < t->m * t->n; k++)
        ck_assert(mpfr_nan_p(t->W[k]) && mpfr_nan_p(t->Z[k]));
    for (size_t k = 0; k < t->cap * t->nsel; k++) {
        ck_assert_uint_eq(t->sel[k], SIZE_MAX);
        ck_assert(mpfr_nan_p(t->nu[k]) && mpfr_nan_p(t->loss[k]));
    }
    for (size_t i = 0; i < t->m; i++)
        ck_assert(mpfr_nan_p(t->nu0[i]) && mpfr_nan_p(t->loss0[i]) && mpfr_nan_p(t->eps_basic[i])
                  && mpfr_nan_p(t->eps_adv[i]));
}

static void fast_assert_reset(const ff_fedepm_trace *t)
{
    ck_assert(t->rounds == 0 && t->iters == 0 && t->cr == 0 && t->stop == FR_STOP_ROUNDS);
    ck_assert(t->snr_clients == 0 && isnan(t->snr));
    for (size_t k = 0; k < t->cap * t->n; k++)
        ck_assert(isnan(t->w[k]));
    for (size_t k = 0; k < t->cap; k++)
        ck_assert(isnan(t->f[k]) && isnan(t->gnorm2[k]));
    for (size_t k = 0; k < t->m * t->n; k++)
        ck_assert(isnan(t->W[k]) && isnan(t->Z[k]));
    for (size_t k = 0; k < t->cap * t->nsel; k++) {
        ck_assert_uint_eq(t->sel[k], SIZE_MAX);
        ck_assert(isnan(t->nu[k]) && isnan(t->loss[k]));
    }
    for (size_t i = 0; i < t->m; i++)
        ck_assert(isnan(t->nu0[i]) && isnan(t->loss0[i]) && isnan(t->eps_basic[i])
                  && isnan(t->eps_adv[i]));
}

/* alpha = 1e300: mu_{i,2} = mu0 (1 + c s) alpha^2 overflows binary64 (fast:
 * FR_ENONFINITE from the step or the noise scale); ref gets the same
 * overflow with MPFR's exponent range cut to 2^1500.  Both runs fail after
 * they started, on a trace that held a valid run: the trace is reset. */
START_TEST(error_after_start_resets_trace)
{
    static const ref_run_fn R[3] = {fr_fedepm_run, fr_sfedavg_run, fr_sfedprox_run};
    static const fast_run_fn F[3] = {ff_fedepm_run, ff_sfedavg_run, ff_sfedprox_run};
    fx_make(&BASE);
    fr_fedepm_params bad = BASE.prm;
    bad.alpha = 1e300;
    const mpfr_exp_t emax = mpfr_get_emax();
    for (int a = 0; a < 3; a++) {
        fr_fedepm_trace rt;
        ff_fedepm_trace ft = {0};
        ck_assert_int_eq(fr_fedepm_trace_init(&rt, &BASE.P, &BASE.prm, TPREC), FR_OK);
        ck_assert_int_eq(ff_fedepm_trace_init(&ft, &BASE.P, &BASE.prm), FR_OK);
        ck_assert_int_eq(R[a](&rt, &BASE.P, &BASE.prm), FR_OK);
        ck_assert_int_eq(F[a](&ft, &BASE.P, &BASE.prm), FR_OK);
        ck_assert(rt.rounds == 3 && ft.rounds == 3);
        ck_assert_int_eq(mpfr_set_emax(1500), 0);
        int rs = R[a](&rt, &BASE.P, &bad);
        ck_assert_int_eq(mpfr_set_emax(emax), 0);
        int fs = F[a](&ft, &BASE.P, &bad);
        ck_assert_msg(rs == FR_ENONFINITE && fs == FR_ENONFINITE, "algo %d: ref %d fast %d",
                      a, rs, fs);
        ref_assert_reset(&rt);
        fast_assert_reset(&ft);
        fr_fedepm_trace_clear(&rt);
        ff_fedepm_trace_clear(&ft);
    }
}
END_TEST

/* A trace with more rows than the run needs: the unused rows are NaN and
 * their selections SIZE_MAX in both wings (and right after init). */
START_TEST(unused_rows_size_max)
{
    fx_make(&BASE);
    fr_fedepm_params big = BASE.prm;
    big.rounds = 4;                                   /* cap 5, the run uses 3 */
    fr_fedepm_trace rt;
    ff_fedepm_trace ft = {0};
    ck_assert_int_eq(fr_fedepm_trace_init(&rt, &BASE.P, &big, TPREC), FR_OK);
    ck_assert_int_eq(ff_fedepm_trace_init(&ft, &BASE.P, &big), FR_OK);
    ref_assert_reset(&rt);
    fast_assert_reset(&ft);
    ck_assert_int_eq(fr_fedepm_run(&rt, &BASE.P, &BASE.prm), FR_OK);
    ck_assert_int_eq(ff_fedepm_run(&ft, &BASE.P, &BASE.prm), FR_OK);
    ck_assert(rt.rounds == 3 && ft.rounds == 3 && rt.cap == 5 && ft.cap == 5);
    for (size_t k = 0; k < rt.cap * rt.nsel; k++) {
        ck_assert_uint_eq(rt.sel[k], ft.sel[k]);
        ck_assert((rt.sel[k] == SIZE_MAX) == (k >= rt.rounds * rt.nsel));
    }
    for (size_t r = rt.rounds; r < rt.cap; r++)
        ck_assert(mpfr_nan_p(rt.f[r]) && isnan(ft.f[r]) && mpfr_nan_p(rt.w[r * rt.n])
                  && isnan(ft.w[r * ft.n]));
    fr_fedepm_trace_clear(&rt);
    ff_fedepm_trace_clear(&ft);
}
END_TEST

/* The functions without a status: their documented answer to bad input. */
START_TEST(no_status_functions)
{
    fx_make(&BASE);
    ck_assert_uint_eq(fr_logreg_samples(NULL), 0);
    fr_logreg P = BASE.P;
    ck_assert_uint_eq(fr_logreg_samples(&P), 7);
    P.d = NULL;
    ck_assert_uint_eq(fr_logreg_samples(&P), 0);
    size_t dd[2] = {SIZE_MAX, 2};
    P.d = dd;
    P.m = 2;
    ck_assert_uint_eq(fr_logreg_samples(&P), 0);      /* the sum overflows */
    ck_assert_uint_eq(fr_tau(5, 0), 0);               /* k0 = 0 */
    ck_assert_uint_eq(fr_tau(5, 2), 3);
    fr_fedepm_trace rt;
    ff_fedepm_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    fr_fedepm_trace_clear(NULL);                      /* safe */
    ff_fedepm_trace_clear(NULL);
    fr_fedepm_trace_clear(&rt);                       /* a zeroed trace: safe */
    ff_fedepm_trace_clear(&ft);
    ck_assert_int_eq(fr_fedepm_trace_init(&rt, &BASE.P, &BASE.prm, TPREC), FR_OK);
    ck_assert_int_eq(ff_fedepm_trace_init(&ft, &BASE.P, &BASE.prm), FR_OK);
    fr_fedepm_trace_clear(&rt);
    ff_fedepm_trace_clear(&ft);
    fr_fedepm_trace_clear(&rt);                       /* twice: safe */
    ff_fedepm_trace_clear(&ft);
    ck_assert(rt.w == NULL && rt.cap == 0 && ft.w == NULL && ft.cap == 0);
}
END_TEST

Suite *suite_status_fedepm(void)
{
    Suite *s = suite_create("status_fedepm");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, error_after_start_resets_trace);
    tcase_add_test(tc, unused_rows_size_max);
    tcase_add_test(tc, no_status_functions);
    suite_add_tcase(s, tc);
    return s;
}
