/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_run.c -- one error semantics for Algorithm 1 of 003 end to
 * end (fedspec/fedpdm.h, section "Algorithm 1"): the shared
 * fr_pdm_run_check and fr_pdm_eta_paper, fr_/ff_pdm_trace_init and
 * fr_/ff_pdm_run.  The same bad input gives the same status in ref and
 * fast, every output untouched (fedref_common.h, "Error semantics"; the
 * engine: tests/status_engine.h).  One row per failing class and field, in
 * class order (ENULL, ESIZE, EPREC, ENONFINITE, EDOM), for three bases that
 * between them use every field: NOISE_PAPER with clip and rule 11; NOISE_GIVEN
 * with rule FIXED; NOISE_NONE without clip (G unused).  A run's trace holds
 * an earlier valid run and must come back bit for bit.  After the table: an
 * error after the start resets the trace, and the clear functions. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_fedpdm_run(void);

#define NaN NAN
#define Inf INFINITY
#define TPREC 64
#define BIGPREC ((size_t)FR_PREC_MAX + 1)
#define KEEP_ALL (FR_PDM_KEEP_X0 | FR_PDM_KEEP_DRAWS | FR_PDM_KEEP_P | FR_PDM_KEEP_F)

/* ---- the module state ------------------------------------------------------ */

enum { T_OK, T_NULL, T_ZERO, T_OTHER, T_KEEP, T_SIZES };   /* the trace a run is given */
enum { B_PAPER, B_GIVEN, B_NONE };                           /* the three bases */

/* N = 3 clients of 2, 3, 2 samples, m = 2 classes, n = 3 features (D = 6). */
typedef struct {
    double A[7 * 3], eta[8], sigma[8], x0[6];
    size_t y[7], d[3];
    fr_pdm_problem P;
    fr_pdm_params prm;
    int Pnull, prmnull, trace;
} fx_t;

static fx_t FX;                        /* the case being run (edited) */
static fx_t BASE;                      /* the same, never edited (traces) */

static void fx_make(fx_t *x, int base)
{
    static const double A0[21] = {1, 0.5, 0.25, 1, 0.75, 0.125, 1, 0.25, 0.5, 1, 0.625, 0.375, 1, 0.125, 0.75,
                                  1, 0.5, 0.5, 1, 0.875, 0.25};
    static const size_t y0[7] = {0, 1, 1, 0, 1, 0, 1};
    static const double x00[6] = {0.25, -0.5, 0, 0.125, 0.5, -0.25};
    memset(x, 0, sizeof *x);
    memcpy(x->A, A0, sizeof A0);
    memcpy(x->y, y0, sizeof y0);
    memcpy(x->x0, x00, sizeof x00);
    x->d[0] = 2;
    x->d[1] = 3;
    x->d[2] = 2;
    for (int t = 0; t < 8; t++) {
        x->eta[t] = 0.05 / (t + 1);
        x->sigma[t] = 0.01 * t;        /* sigma[0] = 0: no draw */
    }
    x->P = (fr_pdm_problem){.N = 3, .m = 2, .n = 3, .d = x->d, .A = x->A, .y = x->y, .beta = 0.01,
                            .gamma = 1e-3};
    x->prm = (fr_pdm_params){.T = 2, .K = 2, .b = 2, .Qmax = 2, .rule = FR_PDM_RULE_11, .nu = 1e-3,
                             .rho = 10, .eta = x->eta, .start = FR_PDM_START_XI, .server = FR_PDM_SERVER_ALL,
                             .noise = FR_PDM_NOISE_PAPER, .eps = 1, .delta = 1e-5, .G = 1,
                             .sigma = x->sigma, .clip = 1, .x0 = x->x0, .seed = 5, .keep = KEEP_ALL};
    if (base == B_GIVEN) {
        x->prm.noise = FR_PDM_NOISE_GIVEN;
        x->prm.rule = FR_PDM_RULE_FIXED;
        x->prm.start = FR_PDM_START_X0;
        x->prm.server = FR_PDM_SERVER_PART;
        x->prm.clip = 0;
        x->prm.sigma = x->sigma;
        x->prm.eps = x->prm.delta = x->prm.G = NAN;   /* unused */
        x->prm.nu = NAN;                               /* unused by rule FIXED */
    } else if (base == B_NONE) {
        x->prm.noise = FR_PDM_NOISE_NONE;
        x->prm.clip = 0;
        x->prm.sigma = NULL;
        x->prm.eps = x->prm.delta = x->prm.G = NAN;   /* unused */
        x->prm.keep = FR_PDM_KEEP_X0;
    }
    x->trace = T_OK;
}

/* The module's edits: X(what, j, value) or XZ(what, size). */
enum {
    XP_NULL, XPRM_NULL, XD_NULL, XA_NULL, XY_NULL, XETA_NULL, XSIG_NULL, XX0_NULL,
    XN_, XM_, XNN, XDI, XYV, XAV, XBETA, XGAMMA,
    XT, XK, XB, XQMAX, XRULE, XNU, XRHO, XETAV, XSTART, XSERVER, XNOISE, XEPS, XDELTA, XG, XSIGV,
    XCLIP, XX0V, XKEEP,
    XT_NULL, XT_ZERO, XT_OTHER, XT_KEEP, XT_SIZES
};
#define XN(what) XZ(what, 0)           /* an edit without a value */

static void fx_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    fx_t *x = c->x;
    switch (what) {
    case XP_NULL:   x->Pnull = 1; break;
    case XPRM_NULL: x->prmnull = 1; break;
    case XD_NULL:   x->P.d = NULL; break;
    case XA_NULL:   x->P.A = NULL; break;
    case XY_NULL:   x->P.y = NULL; break;
    case XETA_NULL: x->prm.eta = NULL; break;
    case XSIG_NULL: x->prm.sigma = NULL; break;
    case XX0_NULL:  x->prm.x0 = NULL; break;
    case XN_:       x->P.N = z; break;
    case XM_:       x->P.m = z; break;
    case XNN:       x->P.n = z; break;
    case XDI:       x->d[j] = z; break;
    case XYV:       x->y[j] = z; break;
    case XAV:       x->A[j] = v; break;
    case XBETA:     x->P.beta = v; break;
    case XGAMMA:    x->P.gamma = v; break;
    case XT:        x->prm.T = (unsigned long)z; break;
    case XK:        x->prm.K = z; break;
    case XB:        x->prm.b = z; break;
    case XQMAX:     x->prm.Qmax = (unsigned long)z; break;
    case XRULE:     x->prm.rule = (int)z; break;
    case XNU:       x->prm.nu = v; break;
    case XRHO:      x->prm.rho = v; break;
    case XETAV:     x->eta[j] = v; break;
    case XSTART:    x->prm.start = (int)z; break;
    case XSERVER:   x->prm.server = (int)z; break;
    case XNOISE:    x->prm.noise = (int)z; break;
    case XEPS:      x->prm.eps = v; break;
    case XDELTA:    x->prm.delta = v; break;
    case XG:        x->prm.G = v; break;
    case XSIGV:     x->sigma[j] = v; break;
    case XCLIP:     x->prm.clip = (int)z; break;
    case XX0V:      x->x0[j] = v; break;
    case XKEEP:     x->prm.keep = (unsigned)z; break;
    case XT_NULL:   x->trace = T_NULL; break;
    case XT_ZERO:   x->trace = T_ZERO; break;
    case XT_OTHER:  x->trace = T_OTHER; break;
    case XT_KEEP:   x->trace = T_KEEP; break;
    case XT_SIZES:  x->trace = T_SIZES; break;
    default:        ck_abort_msg("unknown edit %d", what);
    }
}

static void base_of(st_case *c, int base)
{
    fx_make(&FX, base);
    fx_make(&BASE, base);
    c->x = &FX;
    c->xedit = fx_edit;
    c->z[0] = TPREC;
}
static void b_paper(st_case *c) { base_of(c, B_PAPER); }
static void b_given(st_case *c) { base_of(c, B_GIVEN); }
static void b_none(st_case *c) { base_of(c, B_NONE); }

static const fr_pdm_problem *PP(void) { return FX.Pnull ? NULL : &FX.P; }
static const fr_pdm_params *PRM(void) { return FX.prmnull ? NULL : &FX.prm; }

/* ---- the shared functions (status only) ------------------------------------ */

static int s_check(st_case *c) { (void)c; return fr_pdm_run_check(PP(), PRM()); }
static const st_fn CK_PAPER = {"fr_pdm_run_check", b_paper, NULL, NULL, s_check, NULL};
static const st_fn CK_GIVEN = {"fr_pdm_run_check", b_given, NULL, NULL, s_check, NULL};
static const st_fn CK_NONE = {"fr_pdm_run_check", b_none, NULL, NULL, s_check, NULL};

/* fr_pdm_eta_paper(eta (slot 0's NULL bit; 4 entries own), T = z0, eta0 = c0) */
static void b_eta(st_case *c)
{
    st_in(c, 0, 1, (const double[]){0});
    c->z[0] = 4;
    c->s[0] = 1;
}
static int s_eta(st_case *c)
{
    double e[4] = {-1, -2, -3, -4};
    int st = fr_pdm_eta_paper(c->null & 1 ? NULL : e, c->z[0], c->s[0]);
    if (st != FR_OK && (e[0] != -1 || e[1] != -2 || e[2] != -3 || e[3] != -4))
        st_failf(c, "eta written on error");
    return st;
}
static const st_fn ETA = {"fr_pdm_eta_paper", b_eta, NULL, NULL, s_eta, NULL};

/* ---- trace init: t (T_NULL: NULL) filled with a sentinel pattern, P, prm,
 * (ref) prec = z0 --------------------------------------------------------------- */
static int r_tinit(st_case *c, st_ref *r)
{
    (void)r;
    fr_pdm_trace t, keep;
    memset(&t, 0x5a, sizeof t);
    keep = t;
    int st = fr_pdm_trace_init(FX.trace == T_NULL ? NULL : &t, PP(), PRM(), (mpfr_prec_t)c->z[0]);
    if (st != FR_OK && memcmp(&t, &keep, sizeof t) != 0)
        st_failf(c, "the trace was written");
    if (st == FR_OK)
        fr_pdm_trace_clear(&t);
    return st;
}
static int f_tinit(st_case *c, st_fast *f)
{
    (void)f;
    ff_pdm_trace t, keep;
    memset(&t, 0x5a, sizeof t);
    keep = t;
    int st = ff_pdm_trace_init(FX.trace == T_NULL ? NULL : &t, PP(), PRM());
    if (st != FR_OK && memcmp(&t, &keep, sizeof t) != 0)
        st_failf(c, "the trace was written");
    if (st == FR_OK)
        ff_pdm_trace_clear(&t);
    return st;
}
static const st_fn TI_PAPER = {"fr_pdm_trace_init / ff_pdm_trace_init", b_paper, r_tinit, f_tinit, NULL, NULL};
static const st_fn TI_GIVEN = {"fr_pdm_trace_init / ff_pdm_trace_init", b_given, r_tinit, f_tinit, NULL, NULL};

/* ---- the runs ------------------------------------------------------------------- */

static size_t x0_rows(const fr_pdm_trace *t) { return t->keep & FR_PDM_KEEP_X0 ? t->T + 1 : 1; }

/* Every byte of a trace: the struct, then each array (mpfr_t bit for bit). */
static void snap_ref(st_bytes *b, const fr_pdm_trace *t)
{
    st_bytes_raw(b, t, sizeof *t);
    if (t->x0 == NULL)
        return;
    size_t R = t->T * t->N;
    st_bytes_mpfrs(b, t->x0, x0_rows(t) * t->D);
    st_bytes_mpfrs(b, t->x, t->N * t->D);
    st_bytes_mpfrs(b, t->lam, t->N * t->D);
    st_bytes_mpfrs(b, t->P, t->T + 1);
    st_bytes_mpfrs(b, t->Px, t->T + 1);
    st_bytes_mpfrs(b, t->Plam, t->T + 1);
    st_bytes_mpfrs(b, t->Px0, t->T + 1);
    st_bytes_mpfrs(b, t->F, t->T + 1);
    st_bytes_mpfrs(b, t->sigma, R);
    st_bytes_mpfrs(b, t->stop2, R);
    st_bytes_raw(b, t->part, R);
    st_bytes_raw(b, t->capped, R);
    st_bytes_raw(b, t->Q, R * sizeof *t->Q);
    if (t->draws != NULL)
        st_bytes_raw(b, t->draws, t->ndmax * sizeof *t->draws);
}
static void snap_fast(st_bytes *b, const ff_pdm_trace *t)
{
    st_bytes_raw(b, t, sizeof *t);
    if (t->x0 == NULL)
        return;
    size_t R = t->T * t->N, rows = t->keep & FR_PDM_KEEP_X0 ? t->T + 1 : 1;
    st_bytes_raw(b, t->x0, rows * t->D * sizeof(double));
    st_bytes_raw(b, t->x, t->N * t->D * sizeof(double));
    st_bytes_raw(b, t->lam, t->N * t->D * sizeof(double));
    st_bytes_raw(b, t->P, (t->T + 1) * sizeof(double));
    st_bytes_raw(b, t->Px, (t->T + 1) * sizeof(double));
    st_bytes_raw(b, t->Plam, (t->T + 1) * sizeof(double));
    st_bytes_raw(b, t->Px0, (t->T + 1) * sizeof(double));
    st_bytes_raw(b, t->F, (t->T + 1) * sizeof(double));
    st_bytes_raw(b, t->sigma, R * sizeof(double));
    st_bytes_raw(b, t->stop2, R * sizeof(double));
    st_bytes_raw(b, t->part, R);
    st_bytes_raw(b, t->capped, R);
    st_bytes_raw(b, t->Q, R * sizeof *t->Q);
    if (t->draws != NULL)
        st_bytes_raw(b, t->draws, t->ndmax * sizeof *t->draws);
}

/* The problem and parameters a trace of mode `mode` is initialised for. */
static fr_pdm_params trace_params(int mode)
{
    fr_pdm_params p = BASE.prm;
    if (mode == T_OTHER)
        p.T = 3;                       /* made for another T */
    if (mode == T_KEEP)
        p.keep = FR_PDM_KEEP_P;        /* made for other records */
    if (mode == T_SIZES)
        p.Qmax = 3;                    /* made for another draw capacity */
    return p;
}

static int r_run(st_case *c, st_ref *r)
{
    (void)r;
    fr_pdm_trace t;
    memset(&t, 0, sizeof t);
    if (FX.trace != T_NULL && FX.trace != T_ZERO) {
        fr_pdm_params p = trace_params(FX.trace);
        ck_assert_int_eq(fr_pdm_trace_init(&t, &BASE.P, &p, TPREC), FR_OK);
        ck_assert_int_eq(fr_pdm_run(&t, &BASE.P, &p), FR_OK);
    }
    st_bytes before = {0}, after = {0};
    snap_ref(&before, &t);
    int st = fr_pdm_run(FX.trace == T_NULL ? NULL : &t, PP(), PRM());
    snap_ref(&after, &t);
    if (st != FR_OK && !st_bytes_eq(&before, &after))
        st_failf(c, "the trace was written");
    st_bytes_free(&before);
    st_bytes_free(&after);
    fr_pdm_trace_clear(&t);
    return st;
}
static int f_run(st_case *c, st_fast *f)
{
    (void)f;
    ff_pdm_trace t;
    memset(&t, 0, sizeof t);
    if (FX.trace != T_NULL && FX.trace != T_ZERO) {
        fr_pdm_params p = trace_params(FX.trace);
        ck_assert_int_eq(ff_pdm_trace_init(&t, &BASE.P, &p), FR_OK);
        ck_assert_int_eq(ff_pdm_run(&t, &BASE.P, &p), FR_OK);
    }
    st_bytes before = {0}, after = {0};
    snap_fast(&before, &t);
    int st = ff_pdm_run(FX.trace == T_NULL ? NULL : &t, PP(), PRM());
    snap_fast(&after, &t);
    if (st != FR_OK && !st_bytes_eq(&before, &after))
        st_failf(c, "the trace was written");
    st_bytes_free(&before);
    st_bytes_free(&after);
    ff_pdm_trace_clear(&t);
    return st;
}
static const st_fn RUN_PAPER = {"fr_pdm_run / ff_pdm_run", b_paper, r_run, f_run, NULL, NULL};
static const st_fn RUN_GIVEN = {"fr_pdm_run / ff_pdm_run", b_given, r_run, f_run, NULL, NULL};
static const st_fn RUN_NONE = {"fr_pdm_run / ff_pdm_run", b_none, r_run, f_run, NULL, NULL};

/* ---- the table ------------------------------------------------------------------ */

/* The problem's fields and the common parameters, each class at its place. */
#define COMMON_ROWS(F) \
    ROW(F, FR_ENULL, XN(XP_NULL)), \
    ROW(F, FR_ENULL, XN(XPRM_NULL)), \
    ROW(F, FR_ENULL, XN(XD_NULL)), \
    ROW(F, FR_ENULL, XN(XA_NULL)), \
    ROW(F, FR_ENULL, XN(XY_NULL)), \
    ROW(F, FR_ENULL, XN(XETA_NULL)), \
    ROW(F, FR_ENULL, XN(XETA_NULL), XZ(XT, 0)),          /* ENULL before ESIZE */ \
    ROW(F, FR_ENULL, XN(XA_NULL), XZ(XK, 0)), \
    ROW(F, FR_ESIZE, XZ(XN_, 0)), \
    ROW(F, FR_ESIZE, XZ(XM_, 0)), \
    ROW(F, FR_ESIZE, XZ(XNN, 0)), \
    ROW(F, FR_ESIZE, X(XDI, 1, 0), XZ(XDI, 0)), \
    ROW(F, FR_ESIZE, X(XYV, 6, 0), XZ(XYV, 2)),          /* y_0 = m: off by one */ \
    ROW(F, FR_ESIZE, XZ(XT, 0)), \
    ROW(F, FR_ESIZE, XZ(XT, FR_PDM_T_MAX + 1)), \
    ROW(F, FR_ESIZE, XZ(XK, 0)), \
    ROW(F, FR_ESIZE, XZ(XK, 4)),                         /* K = N + 1 */ \
    ROW(F, FR_ESIZE, XZ(XB, 0)), \
    ROW(F, FR_ESIZE, XZ(XB, 3)),                         /* b = min d_i + 1 */ \
    ROW(F, FR_ESIZE, XZ(XQMAX, 0)), \
    ROW(F, FR_ESIZE, XZ(XQMAX, FR_FEDPDM_Q_MAX + 1)), \
    ROW(F, FR_ESIZE, XZ(XB, 3), X(XAV, 0, NaN)),         /* ESIZE before ENONFINITE */ \
    ROW(F, FR_ESIZE, XZ(XK, 4), X(XRHO, 0, -1)),         /* ESIZE before EDOM */ \
    ROW(F, FR_ENONFINITE, X(XAV, 20, NaN)), \
    ROW(F, FR_ENONFINITE, X(XBETA, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XGAMMA, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XX0V, 5, -Inf)), \
    ROW(F, FR_ENONFINITE, X(XETAV, 1, NaN)), \
    ROW(F, FR_ENONFINITE, X(XETAV, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XRHO, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XRHO, 0, NaN), X(XETAV, 0, -1)), /* ENONFINITE before EDOM */ \
    ROW(F, FR_ENONFINITE, X(XX0V, 0, NaN), XZ(XRULE, 7)), \
    ROW(F, FR_ENONFINITE, X(XAV, 3, Inf), X(XBETA, 0, -1)), \
    ROW(F, FR_EDOM, X(XBETA, 0, -1)), \
    ROW(F, FR_EDOM, X(XGAMMA, 0, -0x1p-1074)), \
    ROW(F, FR_EDOM, XZ(XRULE, 2)), \
    ROW(F, FR_EDOM, XZ(XRULE, (size_t)-1)),              /* rule -1 */ \
    ROW(F, FR_EDOM, XZ(XSTART, 2)), \
    ROW(F, FR_OK, XZ(XSERVER, 1)),                       /* SERVER_PART */ \
    ROW(F, FR_OK, XZ(XSERVER, 2)),                       /* SERVER_13_AS_PRINTED */ \
    ROW(F, FR_EDOM, XZ(XSERVER, 3)), \
    ROW(F, FR_ENONFINITE, X(XRHO, 0, NaN), XZ(XSERVER, 3)), /* ENONFINITE before EDOM */ \
    ROW(F, FR_EDOM, XZ(XNOISE, 3)), \
    ROW(F, FR_EDOM, X(XRHO, 0, 0)), \
    ROW(F, FR_EDOM, X(XRHO, 0, -0.0)), \
    ROW(F, FR_EDOM, X(XETAV, 1, 0)),                     /* the last eta^t */ \
    ROW(F, FR_EDOM, X(XETAV, 0, -1))

/* Rule 11's nu (the PAPER base). */
#define NU_ROWS(F) \
    ROW(F, FR_ENONFINITE, X(XNU, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XNU, 0, Inf)), \
    ROW(F, FR_EDOM, X(XNU, 0, -0x1p-1074)), \
    ROW(F, FR_EDOM, X(XNU, 0, -1))

/* NOISE_PAPER's eps, delta, G (and clip's G). */
#define PAPER_ROWS(F) \
    ROW(F, FR_ENONFINITE, X(XEPS, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XDELTA, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XG, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XG, 0, Inf), XZ(XCLIP, 0)), \
    ROW(F, FR_ENONFINITE, X(XEPS, 0, -Inf), X(XDELTA, 0, 2)), \
    ROW(F, FR_EDOM, X(XEPS, 0, 0)), \
    ROW(F, FR_EDOM, X(XEPS, 0, -1)), \
    ROW(F, FR_EDOM, X(XDELTA, 0, 0)), \
    ROW(F, FR_EDOM, X(XDELTA, 0, 1)), \
    ROW(F, FR_EDOM, X(XDELTA, 0, -0.5)), \
    ROW(F, FR_EDOM, X(XG, 0, 0)), \
    ROW(F, FR_EDOM, X(XG, 0, -1), XZ(XCLIP, 0))

/* NOISE_GIVEN's sigma (T = 2 scales; sigma[0] = 0 is valid). */
#define GIVEN_ROWS(F) \
    ROW(F, FR_ENULL, XN(XSIG_NULL)), \
    ROW(F, FR_ENULL, XN(XSIG_NULL), XZ(XB, 0)), \
    ROW(F, FR_ENONFINITE, X(XSIGV, 1, NaN)), \
    ROW(F, FR_ENONFINITE, X(XSIGV, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XSIGV, 1, Inf), X(XSIGV, 0, -1)), \
    ROW(F, FR_EDOM, X(XSIGV, 1, -1)), \
    ROW(F, FR_EDOM, X(XSIGV, 0, -0x1p-1074))

/* A run's trace: NULL, zeroed, made for another T, other records (another
 * draw capacity: rows after the table's macros). */
#define TRACE_ROWS(F) \
    ROW(F, FR_ENULL, XN(XT_NULL)), \
    ROW(F, FR_ENULL, XN(XT_ZERO)), \
    ROW(F, FR_ENULL, XN(XT_ZERO), XZ(XK, 0)), \
    ROW(F, FR_ENULL, XN(XT_OTHER), XN(XP_NULL)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER)), \
    ROW(F, FR_ESIZE, XN(XT_KEEP)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER), X(XAV, 1, NaN)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER), X(XRHO, 0, 0))

static const st_row ROWS[] = {
    /* fr_pdm_run_check */
    COMMON_ROWS(CK_PAPER), NU_ROWS(CK_PAPER), PAPER_ROWS(CK_PAPER),
    ROW(CK_PAPER, FR_OK),
    ROW(CK_PAPER, FR_OK, XZ(XK, 3)),                     /* K = N */
    ROW(CK_PAPER, FR_OK, XZ(XK, 1), XZ(XT, 1)),          /* K = 1, T = 1 */
    ROW(CK_PAPER, FR_OK, XZ(XQMAX, 1)),                  /* Q = 1 */
    ROW(CK_PAPER, FR_OK, XZ(XQMAX, FR_FEDPDM_Q_MAX)),
    ROW(CK_PAPER, FR_OK, XN(XX0_NULL)),                  /* x0 NULL: 0 */
    ROW(CK_PAPER, FR_OK, X(XNU, 0, 0)),                  /* nu = 0 */
    ROW(CK_PAPER, FR_OK, X(XNU, 0, -0.0)),               /* nu = -0: not < 0 */
    ROW(CK_PAPER, FR_OK, XN(XSIG_NULL), X(XSIGV, 0, NaN)), /* sigma is NOISE_GIVEN's */
    ROW(CK_PAPER, FR_OK, XZ(XKEEP, 0)),
    ROW(CK_PAPER, FR_EDOM, XZ(XKEEP, 16)),
    ROW(CK_PAPER, FR_OK, X(XDELTA, 0, 0x1.fffffffffffffp-1)),
    COMMON_ROWS(CK_GIVEN), GIVEN_ROWS(CK_GIVEN),
    ROW(CK_GIVEN, FR_OK),
    ROW(CK_GIVEN, FR_OK, X(XNU, 0, -1)),                 /* rule FIXED: nu unused */
    ROW(CK_GIVEN, FR_OK, X(XSIGV, 0, -0.0)),             /* -0: not < 0 */
    ROW(CK_GIVEN, FR_OK, X(XSIGV, 2, NaN)),              /* beyond T */
    ROW(CK_GIVEN, FR_OK, X(XEPS, 0, -1), X(XDELTA, 0, 5)), /* eps, delta are NOISE_PAPER's */
    ROW(CK_GIVEN, FR_ENONFINITE, X(XG, 0, NaN), XZ(XCLIP, 1)), /* clip uses G */
    ROW(CK_GIVEN, FR_EDOM, X(XG, 0, 0), XZ(XCLIP, 1)),
    ROW(CK_GIVEN, FR_EDOM, X(XG, 0, -2), XZ(XCLIP, 7)),  /* any nonzero clip */
    COMMON_ROWS(CK_NONE), NU_ROWS(CK_NONE),
    ROW(CK_NONE, FR_OK),
    ROW(CK_NONE, FR_OK, X(XG, 0, -1)),                   /* G unused: no noise, no clip */
    ROW(CK_NONE, FR_OK, XN(XSIG_NULL), X(XEPS, 0, 0)),  /* sigma, eps, delta: noise's */
    /* fr_pdm_eta_paper: eta (slot 0), T z0, eta0 c0 */
    ROW(ETA, FR_OK),
    ROW(ETA, FR_ENULL, NUL(0)),
    ROW(ETA, FR_ENULL, NUL(0), SZ(0, 0)),
    ROW(ETA, FR_ESIZE, SZ(0, 0)),
    ROW(ETA, FR_ESIZE, SZ(0, FR_PDM_T_MAX + 1)),
    ROW(ETA, FR_ESIZE, SZ(0, 0), SC(0, NaN)),
    ROW(ETA, FR_ENONFINITE, SC(0, NaN)),
    ROW(ETA, FR_ENONFINITE, SC(0, Inf)),
    ROW(ETA, FR_ENONFINITE, SC(0, -Inf)),
    ROW(ETA, FR_EDOM, SC(0, 0)),
    ROW(ETA, FR_EDOM, SC(0, -0.0)),
    ROW(ETA, FR_EDOM, SC(0, -1)),
    /* trace init: t, P, prm, (ref) prec z0 */
    COMMON_ROWS(TI_PAPER), NU_ROWS(TI_PAPER), PAPER_ROWS(TI_PAPER),
    COMMON_ROWS(TI_GIVEN), GIVEN_ROWS(TI_GIVEN),
    ROW(TI_PAPER, FR_OK),
    ROW(TI_PAPER, FR_EDOM, XZ(XKEEP, 16)),
    ROW(TI_PAPER, FR_ENULL, XN(XT_NULL)),
    ROW(TI_PAPER, FR_ENULL, XN(XT_NULL), XZ(XN_, 0)),
    REF_ROW(TI_PAPER, FR_EPREC, SZ(0, 0)),
    REF_ROW(TI_PAPER, FR_EPREC, SZ(0, BIGPREC)),
    REF_ROW(TI_PAPER, FR_EPREC, SZ(0, 0), X(XAV, 0, NaN)),   /* EPREC before ENONFINITE */
    REF_ROW(TI_PAPER, FR_EPREC, SZ(0, 0), X(XRHO, 0, 0)),    /* and EDOM */
    REF_ROW(TI_PAPER, FR_ESIZE, SZ(0, BIGPREC), XZ(XB, 0)),  /* ESIZE before EPREC */
    REF_ROW(TI_PAPER, FR_ENULL, SZ(0, 0), XN(XA_NULL)),
    /* the runs: P, prm, the trace */
    COMMON_ROWS(RUN_PAPER), NU_ROWS(RUN_PAPER), PAPER_ROWS(RUN_PAPER), TRACE_ROWS(RUN_PAPER),
    ROW(RUN_PAPER, FR_ESIZE, XN(XT_SIZES)),              /* draws kept: capacity T N Qmax b */
    ROW(RUN_GIVEN, FR_ESIZE, XN(XT_SIZES)),
    ROW(RUN_NONE, FR_OK, XN(XT_SIZES)),                  /* no draws kept: Qmax changes no size */
    ROW(RUN_PAPER, FR_ESIZE, XZ(XKEEP, 16)),             /* a trace made for keep 15: ESIZE first */
    COMMON_ROWS(RUN_GIVEN), GIVEN_ROWS(RUN_GIVEN), TRACE_ROWS(RUN_GIVEN),
    COMMON_ROWS(RUN_NONE), TRACE_ROWS(RUN_NONE),
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* ---- errors after a run started: the reset state, in both wings ----------- */

static void ref_assert_reset(const fr_pdm_trace *t)
{
    size_t R = t->T * t->N;
    ck_assert_uint_eq(t->rounds, 0);
    ck_assert_uint_eq(t->nd, 0);
    for (size_t k = 0; k < x0_rows(t) * t->D; k++)
        ck_assert(mpfr_nan_p(t->x0[k]) && mpfr_get_prec(t->x0[k]) == TPREC);
    for (size_t k = 0; k < t->N * t->D; k++)
        ck_assert(mpfr_nan_p(t->x[k]) && mpfr_nan_p(t->lam[k]));
    for (size_t k = 0; k <= t->T; k++)
        ck_assert(mpfr_nan_p(t->P[k]) && mpfr_nan_p(t->Px[k]) && mpfr_nan_p(t->Plam[k]) && mpfr_nan_p(t->Px0[k])
                  && mpfr_nan_p(t->F[k]));
    for (size_t k = 0; k < R; k++)
        ck_assert(mpfr_nan_p(t->sigma[k]) && mpfr_nan_p(t->stop2[k]) && t->part[k] == 0 && t->capped[k] == 0
                  && t->Q[k] == 0);
}
static void fast_assert_reset(const ff_pdm_trace *t)
{
    size_t R = t->T * t->N, rows = t->keep & FR_PDM_KEEP_X0 ? t->T + 1 : 1;
    ck_assert_uint_eq(t->rounds, 0);
    ck_assert_uint_eq(t->nd, 0);
    for (size_t k = 0; k < rows * t->D; k++)
        ck_assert(isnan(t->x0[k]));
    for (size_t k = 0; k < t->N * t->D; k++)
        ck_assert(isnan(t->x[k]) && isnan(t->lam[k]));
    for (size_t k = 0; k <= t->T; k++)
        ck_assert(isnan(t->P[k]) && isnan(t->Px[k]) && isnan(t->Plam[k]) && isnan(t->Px0[k]) && isnan(t->F[k]));
    for (size_t k = 0; k < R; k++)
        ck_assert(isnan(t->sigma[k]) && isnan(t->stop2[k]) && t->part[k] == 0 && t->capped[k] == 0
                  && t->Q[k] == 0);
}

/* rho = 1e300 and eta = 1 (valid): the second local step moves x by about
 * 1e299, the third by about 1e599: the iterates overflow binary64 within
 * four steps (fast: FR_ENONFINITE after the start); ref
 * gets the same with MPFR's exponent range cut to 2^1100.  Both runs fail
 * after they started, on a trace that held a valid run: the trace is back
 * in its initial state (fedref/fedpdm.h). */
START_TEST(error_after_start_resets_trace)
{
    fx_make(&BASE, B_NONE);
    fr_pdm_params bad = BASE.prm;
    double eta[2] = {1, 1};
    bad.eta = eta;
    bad.rho = 1e300;
    bad.rule = FR_PDM_RULE_FIXED;
    bad.Qmax = 4;
    fr_pdm_params good = BASE.prm;
    good.rule = FR_PDM_RULE_FIXED;
    good.Qmax = 4;
    fr_pdm_trace rt;
    ff_pdm_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    ck_assert_int_eq(fr_pdm_trace_init(&rt, &BASE.P, &good, TPREC), FR_OK);
    ck_assert_int_eq(ff_pdm_trace_init(&ft, &BASE.P, &good), FR_OK);
    ck_assert_int_eq(fr_pdm_run(&rt, &BASE.P, &good), FR_OK);
    ck_assert_int_eq(ff_pdm_run(&ft, &BASE.P, &good), FR_OK);
    ck_assert(rt.rounds == 2 && ft.rounds == 2);
    const mpfr_exp_t emax = mpfr_get_emax();
    ck_assert_int_eq(mpfr_set_emax(1100), 0);
    int rs = fr_pdm_run(&rt, &BASE.P, &bad);
    ck_assert_int_eq(mpfr_set_emax(emax), 0);
    int fs = ff_pdm_run(&ft, &BASE.P, &bad);
    ck_assert_msg(rs != FR_OK && fs == FR_ENONFINITE, "ref %d fast %d", rs, fs);
    ref_assert_reset(&rt);
    fast_assert_reset(&ft);
    fr_pdm_trace_clear(&rt);
    ff_pdm_trace_clear(&ft);
}
END_TEST

/* The clear functions (no status): safe on NULL, a zeroed trace, twice;
 * an initialised trace is in its reset state. */
START_TEST(clear_functions)
{
    fx_make(&BASE, B_PAPER);
    fr_pdm_trace rt;
    ff_pdm_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    fr_pdm_trace_clear(NULL);
    ff_pdm_trace_clear(NULL);
    fr_pdm_trace_clear(&rt);
    ff_pdm_trace_clear(&ft);
    ck_assert_int_eq(fr_pdm_trace_init(&rt, &BASE.P, &BASE.prm, TPREC), FR_OK);
    ck_assert_int_eq(ff_pdm_trace_init(&ft, &BASE.P, &BASE.prm), FR_OK);
    ref_assert_reset(&rt);
    fast_assert_reset(&ft);
    ck_assert_uint_eq(rt.ndmax, BASE.prm.T * 3 * BASE.prm.Qmax * BASE.prm.b);
    ck_assert_uint_eq(ft.ndmax, rt.ndmax);
    fr_pdm_trace_clear(&rt);
    ff_pdm_trace_clear(&ft);
    fr_pdm_trace_clear(&rt);
    ff_pdm_trace_clear(&ft);
    ck_assert(rt.x0 == NULL && ft.x0 == NULL && rt.T == 0 && ft.T == 0);
}
END_TEST

Suite *suite_status_fedpdm_run(void)
{
    Suite *s = suite_create("status_fedpdm_run");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, error_after_start_resets_trace);
    tcase_add_test(tc, clear_functions);
    suite_add_tcase(s, tc);
    return s;
}
