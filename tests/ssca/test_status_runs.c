/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_runs.c -- one error semantics for the runs of Algorithms 1-4
 * and the baselines of 000 (module ssca, docs/SSCA.md section 10): the same
 * bad input gives the same status in ref and fast, with every output
 * untouched (fedref_common.h, "Error semantics"; the engine:
 * tests/status_engine.h).  Rows for fr_/ff_ssca_trace_init, fr_/ff_ssca_run
 * and the shared fr_ssca_run_check, fr_ssca_run_msgs, fr_ssca_data_seal,
 * fr_ssca_synth and fr_ssca_init_w, for four algorithms that between them use every field
 * (Algorithm 2: sample-based, (40); Algorithm 4: feature-based, (40);
 * SGDM_S: E, the learning rate, the momentum, lambda; SGDM_F).  The data,
 * parameters and traces are this file's own state (FX), edited by X()/XZ()
 * edits; a run's trace holds an earlier valid run and must come back bit
 * for bit.  After the table: an error after the start resets the trace,
 * and the functions without a status (fr_ssca_algo_feature,
 * fr_ssca_algo_constrained, fr_ssca_algo_baseline, fr_ssca_algo_name,
 * fr_ssca_trace_clear, ff_ssca_trace_clear, fr_ssca_data_sealed). */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_ssca_runs(void);

#define NaN NAN
#define Inf INFINITY
#define BIGPREC ((size_t)FR_PREC_MAX + 1)
#define TPREC 64                       /* the traces' working precision */
#define KEEP_ALL (FR_SSCA_KEEP_W | FR_SSCA_KEEP_DRAWS | FR_SSCA_KEEP_COST)

/* ---- the module state: data, parameters, a trace mode --------------------- */

enum { T_OK, T_NULL, T_ZERO, T_OTHER, T_KEEP, T_ALGO };    /* the trace a run is given */

/* N = 6 samples, P = 3 features, L = 2 classes, J = 2 cells (d = 10), two
 * clients: Ni = 3, 3 samples, Pi = 1, 2 features. */
typedef struct {
    double Z[6 * 3], w1[10];
    size_t y[6], Ni[3], Pi[3];
    fr_ssca_data D;
    fr_ssca_params prm;
    int Dnull, prmnull, trace, outnull;
} fx_t;

static fx_t FX;                        /* the case being run (edited) */
static fx_t BASE;                      /* the same, never edited (traces) */

static void fx_make(fx_t *x, int algo)
{
    static const double Z0[18] = {0.5, -0.25, 0.75, 0.125, -0.5, 1, 0.25, 0.5, -1,
                                  0.375, 0.625, -0.75, 0.125, 0.25, -0.125, -1, 0.5, 0.25};
    static const double w0[10] = {0.25, -0.5, 0.125, 0.375, 0.5, -0.25, 0.75, -0.125, 0.25, 0.5};
    static const size_t y0[6] = {0, 1, 1, 0, 1, 0};
    memset(x, 0, sizeof *x);
    memcpy(x->Z, Z0, sizeof Z0);
    memcpy(x->w1, w0, sizeof w0);
    memcpy(x->y, y0, sizeof y0);
    x->Ni[0] = x->Ni[1] = 3;
    x->Pi[0] = 1;
    x->Pi[1] = 2;
    x->D = (fr_ssca_data){.N = 6, .P = 3, .J = 2, .L = 2, .Z = x->Z, .y = x->y, .nc = 2,
                          .Ni = x->Ni, .Pi = x->Pi};
    x->prm = (fr_ssca_params){.algo = algo, .T = 3, .B = 2, .E = 1, .a1 = 0.9, .alpha1 = 0.6,
                              .a2 = 0.5, .alpha2 = 0.9, .tau = 0.2, .lambda = 1e-3, .U = 0.5,
                              .c = 10, .lr_a = 0.3, .lr_alpha = 0.3, .mom = 0.1,
                              .weight = FR_SSCA_W_EXACT, .seed = 5, .w1 = x->w1, .keep = KEEP_ALL};
    x->trace = T_OK;
}

/* The module's edits: X(what, j, value) or XZ(what, size). */
enum {
    XD_NULL, XZ_NULL, XY_NULL, XNI_NULL, XPI_NULL, XW1_NULL, XPRM_NULL,
    XN_, XP_, XJ_, XL_, XNC, XNI, XPI, XZV, XYV, XW1V,
    XALGO, XT, XB, XE, XA1, XALPHA1, XA2, XALPHA2, XTAU, XLAMBDA, XU, XC, XLRA, XLRALPHA,
    XMOM, XWEIGHT, XKEEP,
    XT_NULL, XT_ZERO, XT_OTHER, XT_KEEP, XT_ALGO, XOUT_NULL
};
#define XN(what) XZ(what, 0)           /* an edit without a value */

static void fx_edit(st_case *c, int what, size_t j, double v, size_t z)
{
    fx_t *x = c->x;
    switch (what) {
    case XD_NULL:   x->Dnull = 1; break;
    case XZ_NULL:   x->D.Z = NULL; break;
    case XY_NULL:   x->D.y = NULL; break;
    case XNI_NULL:  x->D.Ni = NULL; break;
    case XPI_NULL:  x->D.Pi = NULL; break;
    case XW1_NULL:  x->prm.w1 = NULL; break;
    case XPRM_NULL: x->prmnull = 1; break;
    case XN_:       x->D.N = z; break;
    case XP_:       x->D.P = z; break;
    case XJ_:       x->D.J = z; break;
    case XL_:       x->D.L = z; break;
    case XNC:       x->D.nc = z; break;
    case XNI:       x->Ni[j] = z; break;
    case XPI:       x->Pi[j] = z; break;
    case XZV:       x->Z[j] = v; break;
    case XYV:       x->y[j] = z; break;
    case XW1V:      x->w1[j] = v; break;
    case XALGO:     x->prm.algo = (int)z; break;
    case XT:        x->prm.T = (unsigned long)z; break;
    case XB:        x->prm.B = z; break;
    case XE:        x->prm.E = (unsigned long)z; break;
    case XA1:       x->prm.a1 = v; break;
    case XALPHA1:   x->prm.alpha1 = v; break;
    case XA2:       x->prm.a2 = v; break;
    case XALPHA2:   x->prm.alpha2 = v; break;
    case XTAU:      x->prm.tau = v; break;
    case XLAMBDA:   x->prm.lambda = v; break;
    case XU:        x->prm.U = v; break;
    case XC:        x->prm.c = v; break;
    case XLRA:      x->prm.lr_a = v; break;
    case XLRALPHA:  x->prm.lr_alpha = v; break;
    case XMOM:      x->prm.mom = v; break;
    case XWEIGHT:   x->prm.weight = (int)z; break;
    case XKEEP:     x->prm.keep = (unsigned)z; break;
    case XT_NULL:   x->trace = T_NULL; break;
    case XT_ZERO:   x->trace = T_ZERO; break;
    case XT_OTHER:  x->trace = T_OTHER; break;
    case XT_KEEP:   x->trace = T_KEEP; break;
    case XT_ALGO:   x->trace = T_ALGO; break;
    case XOUT_NULL: x->outnull = 1; break;
    default:        ck_abort_msg("unknown edit %d", what);
    }
}

static void base_algo(st_case *c, int algo)
{
    fx_make(&FX, algo);
    fx_make(&BASE, algo);
    c->x = &FX;
    c->xedit = fx_edit;
    c->z[0] = TPREC;
}
static void b_alg2(st_case *c) { base_algo(c, FR_SSCA_ALG2); }
static void b_alg4(st_case *c) { base_algo(c, FR_SSCA_ALG4); }
static void b_sgdm_s(st_case *c) { base_algo(c, FR_SSCA_SGDM_S); }
static void b_sgdm_f(st_case *c) { base_algo(c, FR_SSCA_SGDM_F); }

static const fr_ssca_data *DD(void) { return FX.Dnull ? NULL : &FX.D; }
static const fr_ssca_params *PRM(void) { return FX.prmnull ? NULL : &FX.prm; }

/* ---- trace init: t (FX.trace == T_NULL: NULL) filled with a sentinel
 * pattern, D, prm, and (ref) prec = z0 ----------------------------------- */
static int r_tinit(st_case *c, st_ref *r)
{
    (void)r;
    fr_ssca_trace t, keep;
    memset(&t, 0x5a, sizeof t);
    keep = t;
    int st = fr_ssca_trace_init(FX.trace == T_NULL ? NULL : &t, DD(), PRM(), (mpfr_prec_t)c->z[0]);
    if (st != FR_OK && memcmp(&t, &keep, sizeof t) != 0)
        st_failf(c, "the trace was written");
    if (st == FR_OK)
        fr_ssca_trace_clear(&t);
    return st;
}
static int f_tinit(st_case *c, st_fast *f)
{
    (void)f;
    ff_ssca_trace t, keep;
    memset(&t, 0x5a, sizeof t);
    keep = t;
    int st = ff_ssca_trace_init(FX.trace == T_NULL ? NULL : &t, DD(), PRM());
    if (st != FR_OK && memcmp(&t, &keep, sizeof t) != 0)
        st_failf(c, "the trace was written");
    if (st == FR_OK)
        ff_ssca_trace_clear(&t);
    return st;
}
#define TINIT_FN(NAME, B) \
    static const st_fn NAME = {"fr_ssca_trace_init / ff_ssca_trace_init", B, r_tinit, f_tinit, NULL, NULL};
TINIT_FN(TI_ALG2, b_alg2)
TINIT_FN(TI_ALG4, b_alg4)
TINIT_FN(TI_SGDM_S, b_sgdm_s)

/* ---- the runs ---------------------------------------------------------------- */

/* Every byte of a trace: the struct, then each array (mpfr_t bit for bit). */
static size_t w_rows(size_t T, unsigned keep) { return keep & FR_SSCA_KEEP_W ? T : 1; }
static void snap_ref(st_bytes *b, const fr_ssca_trace *t)
{
    st_bytes_raw(b, t, sizeof *t);
    if (t->w == NULL)
        return;
    st_bytes_mpfrs(b, t->w, w_rows(t->T, t->keep) * t->d);
    st_bytes_mpfrs(b, t->cost, t->T);
    st_bytes_mpfrs(b, t->norm2, t->T);
    st_bytes_mpfrs(b, t->cons, t->T);
    st_bytes_mpfrs(b, t->nu, t->T - 1);
    st_bytes_mpfrs(b, t->slack, t->T - 1);
    st_bytes_raw(b, t->branch, (t->T - 1) * sizeof *t->branch);
    if (t->draws != NULL)
        st_bytes_raw(b, t->draws, (t->T - 1) * t->nd * sizeof *t->draws);
}
static void snap_fast(st_bytes *b, const ff_ssca_trace *t)
{
    st_bytes_raw(b, t, sizeof *t);
    if (t->w == NULL)
        return;
    st_bytes_raw(b, t->w, w_rows(t->T, t->keep) * t->d * sizeof *t->w);
    st_bytes_raw(b, t->cost, t->T * sizeof *t->cost);
    st_bytes_raw(b, t->norm2, t->T * sizeof *t->norm2);
    st_bytes_raw(b, t->cons, t->T * sizeof *t->cons);
    st_bytes_raw(b, t->nu, (t->T - 1) * sizeof *t->nu);
    st_bytes_raw(b, t->slack, (t->T - 1) * sizeof *t->slack);
    st_bytes_raw(b, t->branch, (t->T - 1) * sizeof *t->branch);
    if (t->draws != NULL)
        st_bytes_raw(b, t->draws, (t->T - 1) * t->nd * sizeof *t->draws);
}

/* The parameters a trace of mode `mode` is initialised for. */
static fr_ssca_params trace_params(int mode)
{
    fr_ssca_params p = BASE.prm;
    if (mode == T_OTHER)
        p.T = 4;                       /* made for another T */
    if (mode == T_KEEP)
        p.keep = FR_SSCA_KEEP_COST;    /* made for other records */
    if (mode == T_ALGO)
        p.algo--;                      /* made for the sibling algorithm (2 -> 1, 4 -> 3, 6 -> 5,
                                        * 8 -> 7): the same d, T, nd and keep */
    return p;
}

static int r_run(st_case *c, st_ref *r)
{
    (void)r;
    fr_ssca_trace t;
    memset(&t, 0, sizeof t);
    if (FX.trace != T_NULL && FX.trace != T_ZERO) {
        fr_ssca_params p = trace_params(FX.trace);
        ck_assert_int_eq(fr_ssca_trace_init(&t, &BASE.D, &p, TPREC), FR_OK);
        ck_assert_int_eq(fr_ssca_run(&t, &BASE.D, &p), FR_OK);
    }
    st_bytes before = {0}, after = {0};
    snap_ref(&before, &t);
    int st = fr_ssca_run(FX.trace == T_NULL ? NULL : &t, DD(), PRM());
    snap_ref(&after, &t);
    if (!st_bytes_eq(&before, &after))
        st_failf(c, "the trace was written");
    st_bytes_free(&before);
    st_bytes_free(&after);
    fr_ssca_trace_clear(&t);
    return st;
}
static int f_run(st_case *c, st_fast *f)
{
    (void)f;
    ff_ssca_trace t = {0};
    if (FX.trace != T_NULL && FX.trace != T_ZERO) {
        fr_ssca_params p = trace_params(FX.trace);
        ck_assert_int_eq(ff_ssca_trace_init(&t, &BASE.D, &p), FR_OK);
        ck_assert_int_eq(ff_ssca_run(&t, &BASE.D, &p), FR_OK);
    }
    st_bytes before = {0}, after = {0};
    snap_fast(&before, &t);
    int st = ff_ssca_run(FX.trace == T_NULL ? NULL : &t, DD(), PRM());
    snap_fast(&after, &t);
    if (!st_bytes_eq(&before, &after))
        st_failf(c, "the trace was written");
    st_bytes_free(&before);
    st_bytes_free(&after);
    ff_ssca_trace_clear(&t);
    return st;
}
#define RUN_FN(NAME, B) static const st_fn NAME = {"fr_ssca_run / ff_ssca_run", B, r_run, f_run, NULL, NULL};
RUN_FN(RUN_ALG2, b_alg2)
RUN_FN(RUN_ALG4, b_alg4)
RUN_FN(RUN_SGDM_S, b_sgdm_s)
RUN_FN(RUN_SGDM_F, b_sgdm_f)

/* ---- the shared functions of fedspec/ssca.h (status only) ------------------- */

static int s_check(st_case *c) { (void)c; return fr_ssca_run_check(DD(), PRM()); }
#define CHECK_FN(NAME, B) static const st_fn NAME = {"fr_ssca_run_check", B, NULL, NULL, s_check, NULL};
CHECK_FN(CK_ALG2, b_alg2)
CHECK_FN(CK_ALG4, b_alg4)
CHECK_FN(CK_SGDM_S, b_sgdm_s)
CHECK_FN(CK_SGDM_F, b_sgdm_f)

/* fr_ssca_data_seal(D): on an error the seal is 0 (over a stale one), on
 * FR_OK the data is sealed; the data's own check, no parameters */
static int s_seal(st_case *c)
{
    if (FX.Dnull)
        return fr_ssca_data_seal(NULL);
    fr_ssca_data D = FX.D;
    D.seal = 12345;                        /* stale */
    const int st = fr_ssca_data_seal(&D);
    if (st != FR_OK && (D.seal != 0 || fr_ssca_data_sealed(&D)))
        st_failf(c, "a seal on invalid data");
    if (st == FR_OK && !fr_ssca_data_sealed(&D))
        st_failf(c, "FR_OK but not sealed");
    return st;
}
static const st_fn SEAL = {"fr_ssca_data_seal", b_alg2, NULL, NULL, s_seal, NULL};

/* fr_ssca_run_msgs(out (XOUT_NULL: NULL), D, prm): out untouched on error */
static int s_msgs(st_case *c)
{
    fr_ssca_round_msgs m, keep;
    memset(&m, 0xa5, sizeof m);
    keep = m;
    int st = fr_ssca_run_msgs(FX.outnull ? NULL : &m, DD(), PRM());
    if (st != FR_OK && memcmp(&m, &keep, sizeof m) != 0)
        st_failf(c, "out written");
    return st;
}
static const st_fn MSGS = {"fr_ssca_run_msgs", b_alg2, NULL, NULL, s_msgs, NULL};

/* fr_ssca_synth(seed, N = z0, P = z1, L = z2, Z: slot 0's NULL bit, y: slot
 * 1's); fr_ssca_init_w(seed, L = z2, J = z3, P = z1, w: slot 0's NULL bit) */
static void b_synth(st_case *c)
{
    c->z[0] = 4;
    c->z[1] = 3;
    c->z[2] = 2;
    c->z[3] = 2;
}
static int s_synth(st_case *c)
{
    double Z[16], kz[16];
    size_t y[8], ky[8];
    for (size_t k = 0; k < 16; k++) Z[k] = -(double)k;
    for (size_t k = 0; k < 8; k++) y[k] = 1000 + k;
    memcpy(kz, Z, sizeof Z);
    memcpy(ky, y, sizeof y);
    int st = fr_ssca_synth(9, c->z[0], c->z[1], c->z[2], c->null & 1 ? NULL : Z, c->null & 2 ? NULL : y);
    if (st != FR_OK && (memcmp(Z, kz, sizeof Z) != 0 || memcmp(y, ky, sizeof y) != 0))
        st_failf(c, "Z or y written");
    return st;
}
static const st_fn SYNTH = {"fr_ssca_synth", b_synth, NULL, NULL, s_synth, NULL};
static int s_initw(st_case *c)
{
    double w[16], kw[16];
    for (size_t k = 0; k < 16; k++) w[k] = -(double)k;
    memcpy(kw, w, sizeof w);
    int st = fr_ssca_init_w(9, c->z[2], c->z[3], c->z[1], c->null & 1 ? NULL : w);
    if (st != FR_OK && memcmp(w, kw, sizeof w) != 0)
        st_failf(c, "w written");
    return st;
}
static const st_fn INITW = {"fr_ssca_init_w", b_synth, NULL, NULL, s_initw, NULL};

/* ---- the table ----------------------------------------------------------------- */

/* The rows every algorithm has (the data, the common fields), each class
 * at its place among the others. */
#define DATA_ROWS(F) \
    ROW(F, FR_ENULL, XN(XD_NULL)), \
    ROW(F, FR_ENULL, XN(XPRM_NULL)), \
    ROW(F, FR_ENULL, XN(XZ_NULL)), \
    ROW(F, FR_ENULL, XN(XY_NULL)), \
    ROW(F, FR_ENULL, XN(XW1_NULL)), \
    ROW(F, FR_ENULL, XN(XZ_NULL), XZ(XB, 0)), \
    ROW(F, FR_ENULL, XN(XW1_NULL), X(XZV, 0, NaN)), \
    ROW(F, FR_ESIZE, XZ(XN_, 0)), \
    ROW(F, FR_ESIZE, XZ(XP_, 0)), \
    ROW(F, FR_ESIZE, XZ(XJ_, 0)), \
    ROW(F, FR_ESIZE, XZ(XL_, 0)), \
    ROW(F, FR_ESIZE, XZ(XNC, 0)), \
    ROW(F, FR_ESIZE, XZ(XB, 0)), \
    ROW(F, FR_ESIZE, XZ(XT, 1)), \
    ROW(F, FR_ESIZE, XZ(XT, FR_SSCA_T_MAX + 1)), \
    ROW(F, FR_ESIZE, XZ(XJ_, SIZE_MAX / 4)), \
    ROW(F, FR_ESIZE, XZ(XT, 1), X(XZV, 3, NaN)), \
    ROW(F, FR_ESIZE, XZ(XB, 0), XZ(XWEIGHT, 7)), \
    ROW(F, FR_ENONFINITE, X(XZV, 17, NaN)), \
    ROW(F, FR_ENONFINITE, X(XZV, 0, -Inf)), \
    ROW(F, FR_ENONFINITE, X(XW1V, 9, Inf)), \
    ROW(F, FR_EDOM, XZ(XYV, 2)), \
    ROW(F, FR_EDOM, X(XYV, 5, 0), XZ(XYV, SIZE_MAX)), \
    ROW(F, FR_EDOM, XZ(XWEIGHT, 2))

/* L = 1 (d changes), an unknown algo, unknown keep bits: FR_EDOM for the
 * check and trace init; a run's trace was made for L = 2 and keep 7, so
 * the run answers FR_ESIZE (a trace for other sizes, first in class
 * order), except for an unknown algo: fr_ssca_run_check's FR_EDOM (an
 * unknown algorithm has no record sizes to compare). */
#define DOM_ROWS(F) \
    ROW(F, FR_ENONFINITE, X(XW1V, 0, NaN), XZ(XL_, 1)), \
    ROW(F, FR_EDOM, XZ(XL_, 1)), \
    ROW(F, FR_EDOM, XZ(XALGO, 0)), \
    ROW(F, FR_EDOM, XZ(XALGO, 9)), \
    ROW(F, FR_EDOM, XZ(XKEEP, 8))
#define RUN_DOM_ROWS(F) \
    ROW(F, FR_EDOM, XZ(XALGO, 0)), \
    ROW(F, FR_EDOM, XZ(XALGO, 9)), \
    ROW(F, FR_ESIZE, X(XW1V, 0, NaN), XZ(XL_, 1)), \
    ROW(F, FR_ESIZE, XZ(XL_, 1)), \
    ROW(F, FR_ESIZE, XZ(XKEEP, 8)), \
    ROW(F, FR_EDOM, XZ(XWEIGHT, 2), X(XLAMBDA, 0, -1), X(XMOM, 0, 1))

/* The SSCA fields (Algorithms 2, 4: the schedules, tau, U, c). */
#define SSCA_ROWS(F) \
    ROW(F, FR_ENONFINITE, X(XA1, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XALPHA2, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XTAU, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XU, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XC, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XU, 0, NaN), X(XTAU, 0, 0)), \
    ROW(F, FR_EDOM, X(XA1, 0, 1.5)), \
    ROW(F, FR_EDOM, X(XA1, 0, 0)), \
    ROW(F, FR_EDOM, X(XA2, 0, -0.5)), \
    ROW(F, FR_EDOM, X(XA2, 0, 1.25)), \
    ROW(F, FR_EDOM, X(XALPHA1, 0, -1)), \
    ROW(F, FR_EDOM, X(XALPHA2, 0, -0.25)), \
    ROW(F, FR_EDOM, X(XTAU, 0, 0)), \
    ROW(F, FR_EDOM, X(XC, 0, 0)), \
    ROW(F, FR_EDOM, X(XC, 0, -1))

/* The baselines' fields (SGDM_S, SGDM_F: lr_a, lr_alpha, mom, lambda). */
#define SGD_ROWS(F) \
    ROW(F, FR_ENONFINITE, X(XLRA, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XLRALPHA, 0, Inf)), \
    ROW(F, FR_ENONFINITE, X(XMOM, 0, NaN)), \
    ROW(F, FR_ENONFINITE, X(XLAMBDA, 0, -Inf)), \
    ROW(F, FR_ENONFINITE, X(XMOM, 0, NaN), X(XLRA, 0, 0)), \
    ROW(F, FR_EDOM, X(XLRA, 0, 0)), \
    ROW(F, FR_EDOM, X(XLRALPHA, 0, -1)), \
    ROW(F, FR_EDOM, X(XMOM, 0, 1)), \
    ROW(F, FR_EDOM, X(XMOM, 0, -0.125)), \
    ROW(F, FR_EDOM, X(XLAMBDA, 0, -1))

/* The sample partition (Algorithm 2, SGDM_S): B = 3 <= N_i; the feature
 * partition (Algorithm 4, SGDM_F): B <= N = 6. */
#define SAMPLE_ROWS(F) \
    ROW(F, FR_ENULL, XN(XNI_NULL)), \
    ROW(F, FR_ENULL, XN(XNI_NULL), XZ(XN_, 0)), \
    ROW(F, FR_ESIZE, XZ(XNI, 1)), \
    ROW(F, FR_ESIZE, X(XNI, 0, 0), XZ(XNI, 0)), \
    ROW(F, FR_ESIZE, XZ(XB, 4)), \
    ROW(F, FR_ESIZE, XZ(XB, 4), X(XZV, 0, NaN))
#define FEATURE_ROWS(F) \
    ROW(F, FR_ENULL, XN(XPI_NULL)), \
    ROW(F, FR_ENULL, XN(XPI_NULL), XZ(XP_, 0)), \
    ROW(F, FR_ESIZE, XZ(XPI, 3)), \
    ROW(F, FR_ESIZE, X(XPI, 0, 0), XZ(XPI, 0)), \
    ROW(F, FR_ESIZE, XZ(XB, 7)), \
    ROW(F, FR_ESIZE, XZ(XB, 7), X(XLRA, 0, NaN))

/* The local steps of SGD_S, SGDM_S: E zero, above FR_SSCA_E_MAX, E B > N_i. */
#define LOCAL_ROWS(F) \
    ROW(F, FR_ESIZE, XZ(XE, 0)), \
    ROW(F, FR_ESIZE, XZ(XE, FR_SSCA_E_MAX + 1)), \
    ROW(F, FR_ESIZE, XZ(XE, 2)), \
    ROW(F, FR_ESIZE, XZ(XE, 2), X(XMOM, 0, NaN))

/* A run's trace: NULL, zeroed, made for another T, other records or the
 * sibling algorithm of the same sizes (a trace belongs to its algorithm). */
#define TRACE_ROWS(F) \
    ROW(F, FR_ESIZE, XN(XT_ALGO)), \
    ROW(F, FR_ESIZE, XN(XT_ALGO), X(XZV, 2, NaN)), \
    ROW(F, FR_ENULL, XN(XT_NULL)), \
    ROW(F, FR_ENULL, XN(XT_ZERO)), \
    ROW(F, FR_ENULL, XN(XT_ZERO), XZ(XN_, 0)), \
    ROW(F, FR_ENULL, XN(XT_OTHER), XN(XD_NULL)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER)), \
    ROW(F, FR_ESIZE, XN(XT_KEEP)), \
    ROW(F, FR_ESIZE, XN(XT_OTHER), X(XZV, 1, NaN))

/* What the other algorithms do not use is not checked (a field the
 * algorithm ignores may hold anything): checks answer FR_OK. */
#define UNUSED_ROWS_SSCA(F) \
    ROW(F, FR_OK, X(XLRA, 0, NaN)), \
    ROW(F, FR_OK, X(XMOM, 0, 2)), \
    ROW(F, FR_OK, XZ(XE, 0))
#define UNUSED_ROWS_SGD(F) \
    ROW(F, FR_OK, X(XA1, 0, NaN)), \
    ROW(F, FR_OK, X(XTAU, 0, 0)), \
    ROW(F, FR_OK, X(XC, 0, -1)), \
    ROW(F, FR_OK, X(XU, 0, Inf))

static const st_row ROWS[] = {
    /* fr_ssca_run_check */
    DATA_ROWS(CK_ALG2), DOM_ROWS(CK_ALG2), SSCA_ROWS(CK_ALG2), SAMPLE_ROWS(CK_ALG2), UNUSED_ROWS_SSCA(CK_ALG2),
    ROW(CK_ALG2, FR_OK, XN(XPI_NULL)),                    /* the unused partition */
    ROW(CK_ALG2, FR_OK, X(XLAMBDA, 0, NaN)),              /* (40) has no lambda */
    DATA_ROWS(CK_ALG4), DOM_ROWS(CK_ALG4), SSCA_ROWS(CK_ALG4), FEATURE_ROWS(CK_ALG4), UNUSED_ROWS_SSCA(CK_ALG4),
    ROW(CK_ALG4, FR_OK, XN(XNI_NULL)),
    ROW(CK_ALG4, FR_OK, XZ(XB, 6)),                       /* B = N */
    DATA_ROWS(CK_SGDM_S), DOM_ROWS(CK_SGDM_S), SGD_ROWS(CK_SGDM_S), SAMPLE_ROWS(CK_SGDM_S), LOCAL_ROWS(CK_SGDM_S),
    UNUSED_ROWS_SGD(CK_SGDM_S),
    DATA_ROWS(CK_SGDM_F), DOM_ROWS(CK_SGDM_F), SGD_ROWS(CK_SGDM_F), FEATURE_ROWS(CK_SGDM_F), UNUSED_ROWS_SGD(CK_SGDM_F),
    ROW(CK_SGDM_F, FR_OK, XZ(XE, 0)),                     /* E is the sample-based baselines' */
    /* trace init: t, D, prm, (ref) prec z0 */
    DATA_ROWS(TI_ALG2), DOM_ROWS(TI_ALG2), SSCA_ROWS(TI_ALG2), SAMPLE_ROWS(TI_ALG2),
    DATA_ROWS(TI_ALG4), DOM_ROWS(TI_ALG4), FEATURE_ROWS(TI_ALG4),
    DATA_ROWS(TI_SGDM_S), DOM_ROWS(TI_SGDM_S), SGD_ROWS(TI_SGDM_S), LOCAL_ROWS(TI_SGDM_S),
    ROW(TI_ALG2, FR_ENULL, XN(XT_NULL)),
    ROW(TI_ALG2, FR_ENULL, XN(XT_NULL), XZ(XN_, 0)),
    REF_ROW(TI_ALG2, FR_EPREC, SZ(0, 0)),
    REF_ROW(TI_ALG2, FR_EPREC, SZ(0, BIGPREC)),
    REF_ROW(TI_ALG2, FR_EPREC, SZ(0, 0), X(XZV, 0, NaN)),
    REF_ROW(TI_ALG2, FR_EPREC, SZ(0, 0), X(XTAU, 0, 0)),
    REF_ROW(TI_ALG2, FR_ESIZE, SZ(0, BIGPREC), XZ(XB, 0)),
    REF_ROW(TI_ALG2, FR_ENULL, SZ(0, 0), XN(XZ_NULL)),
    /* the runs: D, prm, the trace */
    DATA_ROWS(RUN_ALG2), RUN_DOM_ROWS(RUN_ALG2), SSCA_ROWS(RUN_ALG2), SAMPLE_ROWS(RUN_ALG2), TRACE_ROWS(RUN_ALG2),
    DATA_ROWS(RUN_ALG4), RUN_DOM_ROWS(RUN_ALG4), SSCA_ROWS(RUN_ALG4), FEATURE_ROWS(RUN_ALG4), TRACE_ROWS(RUN_ALG4),
    DATA_ROWS(RUN_SGDM_S), RUN_DOM_ROWS(RUN_SGDM_S), SGD_ROWS(RUN_SGDM_S), SAMPLE_ROWS(RUN_SGDM_S), LOCAL_ROWS(RUN_SGDM_S),
    TRACE_ROWS(RUN_SGDM_S),
    DATA_ROWS(RUN_SGDM_F), RUN_DOM_ROWS(RUN_SGDM_F), SGD_ROWS(RUN_SGDM_F), FEATURE_ROWS(RUN_SGDM_F), TRACE_ROWS(RUN_SGDM_F),
    /* fr_ssca_run_msgs: out, D, prm; then the sizes of fr_ssca_run_check */
    ROW(MSGS, FR_ENULL, XN(XOUT_NULL)),
    ROW(MSGS, FR_ENULL, XN(XD_NULL)),
    ROW(MSGS, FR_ENULL, XN(XPRM_NULL)),
    ROW(MSGS, FR_ENULL, XN(XOUT_NULL), XZ(XN_, 0)),
    ROW(MSGS, FR_ESIZE, XZ(XJ_, 0)),
    ROW(MSGS, FR_ESIZE, XZ(XNC, 0)),
    ROW(MSGS, FR_ESIZE, XZ(XT, 1)),
    ROW(MSGS, FR_ESIZE, XZ(XJ_, SIZE_MAX / 4)),
    /* fr_ssca_data_seal: the data's check (either partition may be NULL) */
    ROW(SEAL, FR_OK, XN(XPI_NULL)),
    ROW(SEAL, FR_OK, XN(XNI_NULL)),
    ROW(SEAL, FR_OK, XZ(XB, 0)),                          /* no parameters */
    ROW(SEAL, FR_ENULL, XN(XD_NULL)),
    ROW(SEAL, FR_ENULL, XN(XZ_NULL)),
    ROW(SEAL, FR_ENULL, XN(XY_NULL)),
    ROW(SEAL, FR_ENULL, XN(XY_NULL), XZ(XN_, 0)),
    ROW(SEAL, FR_ESIZE, XZ(XN_, 0)),
    ROW(SEAL, FR_ESIZE, XZ(XJ_, 0)),
    ROW(SEAL, FR_ESIZE, XZ(XL_, 0)),
    ROW(SEAL, FR_ESIZE, XZ(XNC, 0)),
    ROW(SEAL, FR_ESIZE, XZ(XJ_, SIZE_MAX / 4)),
    ROW(SEAL, FR_ESIZE, XZ(XNI, 1)),
    ROW(SEAL, FR_ESIZE, XZ(XPI, 0)),
    ROW(SEAL, FR_ESIZE, XZ(XPI, 0), X(XZV, 0, NaN)),
    ROW(SEAL, FR_ENONFINITE, X(XZV, 17, NaN)),
    ROW(SEAL, FR_ENONFINITE, X(XZV, 0, -Inf), XZ(XYV, 2)),
    ROW(SEAL, FR_EDOM, XZ(XYV, 2)),
    ROW(SEAL, FR_EDOM, XZ(XL_, 1)),
    /* fr_ssca_synth: N z0, P z1, L z2, Z (slot 0), y (slot 1) */
    ROW(SYNTH, FR_ENULL, NUL(0)),
    ROW(SYNTH, FR_ENULL, NUL(1)),
    ROW(SYNTH, FR_ENULL, NUL(0), SZ(0, 0)),
    ROW(SYNTH, FR_ESIZE, SZ(0, 0)),
    ROW(SYNTH, FR_ESIZE, SZ(1, 0)),
    ROW(SYNTH, FR_ESIZE, SZ(1, 4097)),
    ROW(SYNTH, FR_ESIZE, SZ(0, SIZE_MAX)),
    ROW(SYNTH, FR_ESIZE, SZ(0, 0), SZ(2, 1)),
    ROW(SYNTH, FR_EDOM, SZ(2, 1)),
    ROW(SYNTH, FR_ESIZE, SZ(2, 0)),                       /* L = 0: a zero size, as in run_check */
    /* fr_ssca_init_w: L z2, J z3, P z1, w (slot 0) */
    ROW(INITW, FR_ENULL, NUL(0)),
    ROW(INITW, FR_ENULL, NUL(0), SZ(3, 0)),
    ROW(INITW, FR_ESIZE, SZ(3, 0)),
    ROW(INITW, FR_ESIZE, SZ(2, 0)),
    ROW(INITW, FR_ESIZE, SZ(1, 0)),
    ROW(INITW, FR_ESIZE, SZ(3, SIZE_MAX / 4)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* ---- errors after a run started: the reset state, in both wings ----------- */

static void ref_assert_reset(const fr_ssca_trace *t)
{
    ck_assert_uint_eq(t->rounds, 0);
    for (size_t k = 0; k < w_rows(t->T, t->keep) * t->d; k++)
        ck_assert(mpfr_nan_p(t->w[k]) && mpfr_get_prec(t->w[k]) == TPREC);
    for (size_t k = 0; k < t->T; k++)
        ck_assert(mpfr_nan_p(t->cost[k]) && mpfr_nan_p(t->norm2[k]) && mpfr_nan_p(t->cons[k]));
    for (size_t k = 0; k + 1 < t->T; k++)
        ck_assert(mpfr_nan_p(t->nu[k]) && mpfr_nan_p(t->slack[k]) && t->branch[k] == 0);
    for (size_t k = 0; k < (t->T - 1) * t->nd; k++)
        ck_assert_uint_eq(t->draws[k], SIZE_MAX);
}
static void fast_assert_reset(const ff_ssca_trace *t)
{
    ck_assert_uint_eq(t->rounds, 0);
    for (size_t k = 0; k < w_rows(t->T, t->keep) * t->d; k++)
        ck_assert(isnan(t->w[k]));
    for (size_t k = 0; k < t->T; k++)
        ck_assert(isnan(t->cost[k]) && isnan(t->norm2[k]) && isnan(t->cons[k]));
    for (size_t k = 0; k + 1 < t->T; k++)
        ck_assert(isnan(t->nu[k]) && isnan(t->slack[k]) && t->branch[k] == 0);
    for (size_t k = 0; k < (t->T - 1) * t->nd; k++)
        ck_assert_uint_eq(t->draws[k], SIZE_MAX);
}

/* Features times 2^500: each round multiplies the scale of w by about
 * 2^500, so a later round's pre-activations or outputs overflow binary64
 * (fast: FR_ENONFINITE after the start); ref gets the same with MPFR's
 * exponent range cut to 2^900.  Both runs fail after they
 * started, on a trace that held a valid run: the trace is reset to its
 * initial state (fedref/ssca.h). */
START_TEST(error_after_start_resets_trace)
{
    fx_make(&BASE, FR_SSCA_SGDM_S);
    fr_ssca_data bad = BASE.D;
    double Z[18];
    memcpy(Z, BASE.Z, sizeof Z);
    for (size_t k = 0; k < 18; k++) Z[k] = ldexp(Z[k], 500);
    bad.Z = Z;
    fr_ssca_trace rt;
    ff_ssca_trace ft = {0};
    memset(&rt, 0, sizeof rt);
    ck_assert_int_eq(fr_ssca_trace_init(&rt, &BASE.D, &BASE.prm, TPREC), FR_OK);
    ck_assert_int_eq(ff_ssca_trace_init(&ft, &BASE.D, &BASE.prm), FR_OK);
    ck_assert_int_eq(fr_ssca_run(&rt, &BASE.D, &BASE.prm), FR_OK);
    ck_assert_int_eq(ff_ssca_run(&ft, &BASE.D, &BASE.prm), FR_OK);
    ck_assert(rt.rounds == 2 && ft.rounds == 2);
    const mpfr_exp_t emax = mpfr_get_emax();
    ck_assert_int_eq(mpfr_set_emax(900), 0);
    int rs = fr_ssca_run(&rt, &bad, &BASE.prm);
    ck_assert_int_eq(mpfr_set_emax(emax), 0);
    int fs = ff_ssca_run(&ft, &bad, &BASE.prm);
    ck_assert_msg(rs != FR_OK && fs == FR_ENONFINITE, "ref %d fast %d", rs, fs);
    ref_assert_reset(&rt);
    fast_assert_reset(&ft);
    fr_ssca_trace_clear(&rt);
    ff_ssca_trace_clear(&ft);
}
END_TEST

/* The functions without a status: their documented answer to bad input. */
START_TEST(no_status_functions)
{
    static const char *const names[9] = {NULL, "alg1", "alg2", "alg3", "alg4", "sgd_s", "sgdm_s",
                                         "sgd_f", "sgdm_f"};
    for (int a = -1; a <= 10; a++) {
        int known = a >= 1 && a <= 8;
        ck_assert_int_eq(fr_ssca_algo_feature(a), known && (a == 3 || a == 4 || a == 7 || a == 8));
        ck_assert_int_eq(fr_ssca_algo_constrained(a), known && (a == 2 || a == 4));
        ck_assert_int_eq(fr_ssca_algo_baseline(a), known && a >= 5);
        const char *n = fr_ssca_algo_name(a);
        if (known) ck_assert_str_eq(n, names[a]);
        else ck_assert_ptr_null(n);
    }
    fx_make(&BASE, FR_SSCA_ALG2);
    fr_ssca_trace rt;
    ff_ssca_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    fr_ssca_trace_clear(NULL);                        /* safe */
    ff_ssca_trace_clear(NULL);
    fr_ssca_trace_clear(&rt);                         /* a zeroed trace: safe */
    ff_ssca_trace_clear(&ft);
    ck_assert_int_eq(fr_ssca_trace_init(&rt, &BASE.D, &BASE.prm, TPREC), FR_OK);
    ck_assert_int_eq(ff_ssca_trace_init(&ft, &BASE.D, &BASE.prm), FR_OK);
    ref_assert_reset(&rt);                            /* the initial state */
    fast_assert_reset(&ft);
    fr_ssca_trace_clear(&rt);
    ff_ssca_trace_clear(&ft);
    fr_ssca_trace_clear(&rt);                         /* twice: safe */
    ff_ssca_trace_clear(&ft);
    ck_assert(rt.w == NULL && ft.w == NULL && rt.T == 0 && ft.T == 0);
    /* fr_ssca_data_sealed: 0 for NULL, a zero seal, a stale one */
    fr_ssca_data D = BASE.D;
    ck_assert_int_eq(fr_ssca_data_sealed(NULL), 0);
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 0);
    ck_assert_int_eq(fr_ssca_data_seal(&D), FR_OK);
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 1);
    D.N++;
    ck_assert_int_eq(fr_ssca_data_sealed(&D), 0);
}
END_TEST

Suite *suite_status_ssca_runs(void)
{
    Suite *s = suite_create("status_ssca_runs");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, error_after_start_resets_trace);
    tcase_add_test(tc, no_status_functions);
    suite_add_tcase(s, tc);
    return s;
}
