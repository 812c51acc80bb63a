/* SPDX-License-Identifier: Apache-2.0 */
/* alg_runs.c -- the checkpoint files proxal_alg1 and proxal_alg3: 004
 * Algorithm 1 (proximal AL with the inexact ADMM, fr_/ff_proxal_alg1) and
 * Algorithm 3 (cProx-AL, fr_/ff_proxal_alg3), one schema:
 *   params  eps1, eps2, sbar, beta, kmax, q, tmax, newton_max, eps18
 *           ("printed" | "code"): fr_proxal_alg_params with admm.{q, tmax,
 *           newton_max, eps18} (Algorithm 3 reads newton_max only)
 *   inputs  the problem (alg_common.h: kind, A, b, C, e | cnt, X, y, r),
 *           w0 (d), mu0 (sum m_i), rho (n: Algorithm 2's penalties)
 *   expect  w ((K + 1) x d: every w^k, K = iters), mu (the output
 *           multipliers), tau, dw, dmu, kkt1, kkt2, sub, obj, feas, inner,
 *           inner_ok (K entries each: the records of fedref/proxal.h; inner
 *           and inner_ok as numbers), iters, terminated, thm31_ok
 * A sub below 2^-(p/2) (ref at p bits) is written as 0: Algorithm 3's
 * Newton step on a QP's quadratic l_k is exact in exact arithmetic, so the
 * exact residual of (7) is 0 and ref's value a rounding residue that no
 * precision certifies (as fedpdm_run_*'s Px0).
 * ref runs at working precision p; certification by precision doubling
 * (vgen.c, iterative): every test decision must be the same at p, 2p, 4p.
 * tol for binary64: rel = abs = 1e-7 (empirical).  The instances follow
 * from the case comments (fr_proxal_gen_qp / _gen_lg, docs/RNG.md). */
#include "alg_common.h"

enum { P_EPS1, P_EPS2, P_SBAR, P_BETA, P_KMAX, P_Q, P_TMAX, P_NEWTON, P_EPS18, NPAR };
enum { I_W0 = PX_NPROB, I_MU0, I_RHO, NIN, I_H = NIN, I_GAMMA, I_LO, I_HI, NIN_H };
enum { E_W, E_MU, E_TAU, E_DW, E_DMU, E_KKT1, E_KKT2, E_SUB, E_OBJ, E_FEAS, E_INNER, E_INNER_OK, E_ITERS, E_TERM,
       E_THM31, NEXP };

static const char *const EPS18_NAMES[] = {"printed", "code", NULL};   /* = FR_PROXAL_EPS18_* */
_Static_assert(FR_PROXAL_EPS18_PRINTED == 0 && FR_PROXAL_EPS18_CODE == 1, "eps18 index = enum");

static const vspec params[] = {
    {"eps1", VK_SCALAR, NULL, NULL}, {"eps2", VK_SCALAR, NULL, NULL}, {"sbar", VK_SCALAR, NULL, NULL},
    {"beta", VK_SCALAR, NULL, NULL}, {"kmax", VK_SCALAR, NULL, NULL}, {"q", VK_SCALAR, NULL, NULL},
    {"tmax", VK_SCALAR, NULL, NULL}, {"newton_max", VK_SCALAR, NULL, NULL},
    {"eps18", VK_CHOICE, EPS18_NAMES, NULL}, {NULL, 0, NULL, NULL}};
static const vspec inputs[] = {PX_PROBLEM_INPUTS, {"w0", VK_VECTOR, NULL, NULL}, {"mu0", VK_VECTOR, NULL, NULL},
                               {"rho", VK_VECTOR, NULL, NULL}, {NULL, 0, NULL, NULL}};
/* proxal_alg1_h, proxal_alg3_h: the same with h (docs/PROXAL.md 4.5) as
 * inputs: h ("zero" | "l1" | "box" = FR_PROXAL_H_*), gamma (h = l1), lo,
 * hi (h = box, d each). */
static const char *const H_NAMES[] = {"zero", "l1", "box", NULL};
_Static_assert(FR_PROXAL_H_ZERO == 0 && FR_PROXAL_H_L1 == 1 && FR_PROXAL_H_BOX == 2, "h index = enum");
static const vspec inputs_h[] = {PX_PROBLEM_INPUTS, {"w0", VK_VECTOR, NULL, NULL}, {"mu0", VK_VECTOR, NULL, NULL},
                                 {"rho", VK_VECTOR, NULL, NULL}, {"h", VK_CHOICE, H_NAMES, NULL},
                                 {"gamma", VK_SCALAR, NULL, "h=l1"}, {"lo", VK_VECTOR, NULL, "h=box"},
                                 {"hi", VK_VECTOR, NULL, "h=box"}, {NULL, 0, NULL, NULL}};
static const vspec expects[] = {
    {"w", VK_MATRIX, NULL, NULL}, {"mu", VK_VECTOR, NULL, NULL}, {"tau", VK_VECTOR, NULL, NULL},
    {"dw", VK_VECTOR, NULL, NULL}, {"dmu", VK_VECTOR, NULL, NULL}, {"kkt1", VK_VECTOR, NULL, NULL},
    {"kkt2", VK_VECTOR, NULL, NULL}, {"sub", VK_VECTOR, NULL, NULL}, {"obj", VK_VECTOR, NULL, NULL},
    {"feas", VK_VECTOR, NULL, NULL}, {"inner", VK_VECTOR, NULL, NULL, VC_INT},
    {"inner_ok", VK_VECTOR, NULL, NULL, VC_INT},
    {"iters", VK_SCALAR, NULL, NULL, VC_INT}, {"terminated", VK_BOOL, NULL, NULL}, {"thm31_ok", VK_BOOL, NULL, NULL},
    {NULL, 0, NULL, NULL}};

/* Records longer than this are refused (FR_ESIZE): the files stay small. */
#define VALG_KMAX 1000ul
unsigned long valg_iter_max = VALG_ITER_MAX;

static int setup(px_prob *pp, fr_proxal_alg_params *prm, const double *par, const ftensor *in, int withh)
{
    unsigned long kmax, tmax, nm;
    int st = px_count(par[P_KMAX], &kmax);
    if (st == FR_OK) st = px_count(par[P_TMAX], &tmax);
    if (st == FR_OK) st = px_count(par[P_NEWTON], &nm);
    if (st != FR_OK) return st;
    if (kmax > VALG_KMAX || (double)kmax * (double)tmax > (double)valg_iter_max) return FR_ESIZE;
    st = px_build(pp, in);
    if (st != FR_OK) return st;
    size_t n = pp->P.n, d = pp->P.d, m = fr_proxal_mtot(&pp->P);
    if (in[I_W0].cols != d || in[I_MU0].cols != m || in[I_RHO].cols != n) {
        px_free(pp);
        return FR_ESIZE;
    }
    if (withh) {   /* h, then gamma (l1) or lo, hi (box): d entries each */
        int h = (int)in[I_H].v[0];
        pp->P.h = h;
        if (h == FR_PROXAL_H_L1) {
            if (in[I_GAMMA].rows * in[I_GAMMA].cols != 1) { px_free(pp); return FR_ESIZE; }
            pp->P.gamma = in[I_GAMMA].v[0];
        } else if (h == FR_PROXAL_H_BOX) {
            if (in[I_LO].cols != d || in[I_HI].cols != d) { px_free(pp); return FR_ESIZE; }
            pp->P.lo = in[I_LO].v;
            pp->P.hi = in[I_HI].v;
        }
    }
    *prm = (fr_proxal_alg_params){.eps1 = par[P_EPS1], .eps2 = par[P_EPS2], .sbar = par[P_SBAR],
                                  .beta = par[P_BETA], .kmax = kmax,
                                  .admm = {.tau = 1, .q = par[P_Q], .rho = in[I_RHO].v, .tmax = tmax,
                                           .newton_max = nm, .eps18 = (int)par[P_EPS18]},
                                  .w0 = in[I_W0].v, .mu0 = m ? in[I_MU0].v : NULL, .keep = FR_PROXAL_KEEP_W};
    return FR_OK;
}

static void shapes(size_t K, size_t d, size_t m, size_t rows[NEXP], size_t cols[NEXP])
{
    for (size_t k = 0; k < NEXP; k++) rows[k] = 1, cols[k] = K;
    rows[E_W] = K + 1;
    cols[E_W] = d;
    cols[E_MU] = m;
    cols[E_ITERS] = cols[E_TERM] = cols[E_THM31] = 1;
}

static int ref_run(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec, int alg3, int withh)
{
    const size_t nin = withh ? NIN_H : NIN;
    ftensor fp[NPAR] = {{0}}, fin[NIN_H] = {{0}};
    double p[NPAR];
    px_prob pp = {0};
    fr_proxal_alg_params prm;
    fr_proxal_trace t;
    memset(&t, 0, sizeof t);
    int st = px_copy(fp, par, NPAR);
    if (st == FR_OK) st = px_copy(fin, in, nin);
    for (size_t k = 0; k < NPAR && st == FR_OK; k++) p[k] = fp[k].v[0];
    if (st == FR_OK) st = setup(&pp, &prm, p, fin, withh);
    if (st == FR_OK) st = fr_proxal_trace_init(&t, &pp.P, &prm, prec);
    if (st == FR_OK) st = alg3 ? fr_proxal_alg3(&t, &pp.P, &prm) : fr_proxal_alg1(&t, &pp.P, &prm);
    if (st == FR_OK) {
        size_t K = t.iters, d = t.d, m = t.mtot, rows[NEXP], cols[NEXP];
        shapes(K, d, m, rows, cols);
        for (size_t k = 0; k < NEXP && st == FR_OK; k++)
            if (rt_alloc(&out[k], rows[k], cols[k], prec) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            for (size_t k = 0; k < (K + 1) * d; k++) mpfr_set(out[E_W].v[k], t.w[k], MPFR_RNDN);
            for (size_t j = 0; j < m; j++) mpfr_set(out[E_MU].v[j], t.mu[j], MPFR_RNDN);
            mpfr_t *src[] = {t.tau, t.dw, t.dmu, t.kkt1, t.kkt2, t.sub, t.obj, t.feas};
            for (size_t r = 0; r < 8; r++)
                for (size_t k = 0; k < K; k++) mpfr_set(out[E_TAU + r].v[k], src[r][k], MPFR_RNDN);
            for (size_t k = 0; k < K; k++) {
                /* a rounding residue of an exact 0 (the header comment) */
                if (mpfr_number_p(t.sub[k]) && mpfr_cmp_si_2exp(t.sub[k], 1, -(long)(prec / 2)) <= 0)
                    mpfr_set_zero(out[E_SUB].v[k], 1);
                mpfr_set_ui(out[E_INNER].v[k], t.inner[k], MPFR_RNDN);
                mpfr_set_ui(out[E_INNER_OK].v[k], t.inner_ok[k] != 0, MPFR_RNDN);
            }
            mpfr_set_ui(out[E_ITERS].v[0], K, MPFR_RNDN);
            mpfr_set_ui(out[E_TERM].v[0], t.terminated != 0, MPFR_RNDN);
            mpfr_set_ui(out[E_THM31].v[0], t.thm31_ok != 0, MPFR_RNDN);
        }
    }
    fr_proxal_trace_clear(&t);
    px_free(&pp);
    for (size_t k = 0; k < NPAR; k++) ft_free(&fp[k]);
    for (size_t k = 0; k < nin; k++) ft_free(&fin[k]);
    return st;
}

static int fast_run(ftensor *par, ftensor *in, ftensor *out, int alg3, int withh)
{
    double p[NPAR];
    for (size_t k = 0; k < NPAR; k++) p[k] = par[k].v[0];
    px_prob pp = {0};
    fr_proxal_alg_params prm;
    ff_proxal_trace t;
    memset(&t, 0, sizeof t);
    int st = setup(&pp, &prm, p, in, withh);
    if (st == FR_OK) st = ff_proxal_trace_init(&t, &pp.P, &prm);
    if (st == FR_OK) st = alg3 ? ff_proxal_alg3(&t, &pp.P, &prm) : ff_proxal_alg1(&t, &pp.P, &prm);
    if (st == FR_OK) {
        size_t K = t.iters, d = t.d, m = t.mtot, rows[NEXP], cols[NEXP];
        shapes(K, d, m, rows, cols);
        for (size_t k = 0; k < NEXP && st == FR_OK; k++)
            if (ft_alloc(&out[k], rows[k], cols[k]) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            memcpy(out[E_W].v, t.w, (K + 1) * d * sizeof(double));
            if (m) memcpy(out[E_MU].v, t.mu, m * sizeof(double));
            double *src[] = {t.tau, t.dw, t.dmu, t.kkt1, t.kkt2, t.sub, t.obj, t.feas};
            for (size_t r = 0; r < 8; r++)
                if (K) memcpy(out[E_TAU + r].v, src[r], K * sizeof(double));
            for (size_t k = 0; k < K; k++) {
                out[E_INNER].v[k] = (double)t.inner[k];
                out[E_INNER_OK].v[k] = t.inner_ok[k] != 0;
            }
            out[E_ITERS].v[0] = (double)K;
            out[E_TERM].v[0] = t.terminated != 0;
            out[E_THM31].v[0] = t.thm31_ok != 0;
        }
    }
    ff_proxal_trace_clear(&t);
    px_free(&pp);
    return st;
}

static int ref1(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec) { return ref_run(par, in, out, prec, 0, 0); }
static int ref3(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec) { return ref_run(par, in, out, prec, 1, 0); }
static int fast1(ftensor *par, ftensor *in, ftensor *out) { return fast_run(par, in, out, 0, 0); }
static int fast3(ftensor *par, ftensor *in, ftensor *out) { return fast_run(par, in, out, 1, 0); }
static int ref1h(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec) { return ref_run(par, in, out, prec, 0, 1); }
static int ref3h(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec) { return ref_run(par, in, out, prec, 1, 1); }
static int fast1h(ftensor *par, ftensor *in, ftensor *out) { return fast_run(par, in, out, 0, 1); }
static int fast3h(ftensor *par, ftensor *in, ftensor *out) { return fast_run(par, in, out, 1, 1); }

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = 1e-7;
    *abs = 1e-7;
}

/* ---- the golden cases ------------------------------------------------------ */

#define PRM(...) ((const double[]){__VA_ARGS__})
enum { PRINTED = FR_PROXAL_EPS18_PRINTED, CODE = FR_PROXAL_EPS18_CODE };
enum { ED_NONE, ED_W0_INF, ED_MU_NEG, ED_RHO_SHORT };
/* the h of the golden cases with h (chosen so that h is active at the output) */
#define QP_GAMMA 0.8
#define QP_LO -0.75
#define QP_HI 3
#define NP_GAMMA 0.3
#define NP_LO -0.25
#define NP_HI 0.5

/* w0_k = (k mod 3 - 1)/4 (k = 0..d-1); mu0 zero or mu0_j = 1/4 (j =
 * 0..mtot-1); rho_i = 1. */
static void alg_case(vgen *g, const char *what, const char *flags, int invalid, const px_inst *I, int mu_on,
                     int edit, const char *inst_text)
{
    size_t n = I->n, d = I->d, m = I->mtot;
    double *w0 = calloc(d, sizeof *w0), *mu = calloc(m ? m : 1, sizeof *mu), *rho = calloc(n, sizeof *rho);
    if (!w0 || !mu || !rho) abort();
    for (size_t k = 0; k < d; k++) w0[k] = ((double)(k % 3) - 1) / 4;
    for (size_t j = 0; j < m; j++) mu[j] = mu_on ? 0.25 : 0;
    for (size_t i = 0; i < n; i++) rho[i] = 1;
    size_t nrho = n;
    const char *ed = "";
    switch (edit) {
    case ED_W0_INF: w0[d - 1] = -INFINITY; ed = ", then w0_{d-1} = -inf"; break;
    case ED_MU_NEG: mu[0] = -0.25; ed = ", then mu0_0 = -1/4 (an inequality row)"; break;
    case ED_RHO_SHORT: nrho = n - 1; ed = ", then rho one entry short"; break;
    default: break;
    }
    char text[700];
    /* the start as docs/rng_reference.py reads it: 0-based indices */
    snprintf(text, sizeof text, "%s. Data: %s; w0_k = (k mod 3 - 1)/4 (k = 0..d-1), %s, rho 1%s", what,
             inst_text, mu_on ? "mu0_j = 1/4 (j = 0..sum m_i - 1)" : "mu0 zero", ed);
    ftensor f[NIN];
    memcpy(f, I->f, sizeof I->f);
    f[I_W0] = (ftensor){1, d, w0};
    f[I_MU0] = (ftensor){1, m, mu};
    f[I_RHO] = (ftensor){1, nrho, rho};
    vg_case(g, text, flags, invalid, f);
    free(w0);
    free(mu);
    free(rho);
}

static void golden(vgen *g)
{
    px_inst Q1, Q2, N1;
    px_inst_qp(&Q1, 1, 2, 3, 1);
    px_inst_qp(&Q2, 2, 1, 2, 1);
    px_inst_np(&N1, 4, 2, 3, 4, 0.7);
    const char *q1 = "qp fr_proxal_gen_qp(seed 1, n = 2, d = 3, mt = 1)";
    const char *q2 = "qp fr_proxal_gen_qp(seed 2, n = 1, d = 2, mt = 1)";
    const char *n1 = "np fr_proxal_gen_lg(NP, seed 4, n = 2, d = 3, s = 4), r_i = 0.7";

    vg_group(g, "Sec. 5.1's parameters: eps1 = eps2 = 1e-3, sbar = 0.1, beta = 10; Algorithm 2: q = 0.95, "
                "eps18 printed", PRM(1e-3, 1e-3, 0.1, 10, 200, 0.95, 2000, 20, PRINTED));
    alg_case(g, "QP, two clients, mu0 = 0", "trajectory,proxal-qp,proxal-terminated", 0, &Q1, 0, ED_NONE, q1);
    alg_case(g, "QP, one client (n = 1), mu0 = 1/4", "trajectory,proxal-qp,proxal-terminated", 0, &Q2, 1, ED_NONE,
             q2);
    vg_group(g, "Neyman-Pearson, eps1 = eps2 = 1e-2, sbar = 0.1, beta = 10; q = 0.95, newton_max = 50",
             PRM(1e-2, 1e-2, 0.1, 10, 200, 0.95, 2000, 50, PRINTED));
    alg_case(g, "NP, two clients, mu0 = 1/4", "trajectory,proxal-np,proxal-terminated", 0, &N1, 1, ED_NONE, n1);
    vg_group(g, "kmax = 2 reached before (8): terminated and thm31_ok false",
             PRM(1e-3, 1e-3, 0.1, 10, 2, 0.95, 2000, 20, PRINTED));
    alg_case(g, "QP, two clients, mu0 = 0", "trajectory,proxal-qp,proxal-kmax", 0, &Q1, 0, ED_NONE, q1);

    vg_group(g, "invalid: eps1 = 1", PRM(1, 1e-3, 0.1, 10, 200, 0.95, 2000, 20, PRINTED));
    alg_case(g, "eps1 outside (0, 1)", "domain", 1, &Q1, 0, ED_NONE, q1);
    vg_group(g, "invalid: sbar = 0", PRM(1e-3, 1e-3, 0, 10, 200, 0.95, 2000, 20, PRINTED));
    alg_case(g, "sbar <= 0", "domain", 1, &Q1, 0, ED_NONE, q1);
    vg_group(g, "invalid: kmax = 0", PRM(1e-3, 1e-3, 0.1, 10, 0, 0.95, 2000, 20, PRINTED));
    alg_case(g, "no outer iteration allowed", "size", 1, &Q1, 0, ED_NONE, q1);
    vg_group(g, "invalid: newton_max = 0", PRM(1e-3, 1e-3, 0.1, 10, 200, 0.95, 2000, 0, PRINTED));
    alg_case(g, "no Newton step allowed", "size", 1, &Q1, 0, ED_NONE, q1);
    vg_group(g, "invalid inputs", PRM(1e-3, 1e-3, 0.1, 10, 200, 0.95, 2000, 20, PRINTED));
    alg_case(g, "an infinite entry of w0", "inf", 1, &Q1, 0, ED_W0_INF, q1);
    alg_case(g, "a negative inequality multiplier (NP)", "domain", 1, &N1, 1, ED_MU_NEG, n1);
    px_inst_free(&Q1);
    px_inst_free(&Q2);
    px_inst_free(&N1);
}

/* Algorithm 1 only: rho one entry short (Algorithm 3 ignores rho). */
static void golden1(vgen *g)
{
    golden(g);
    px_inst Q1;
    px_inst_qp(&Q1, 1, 2, 3, 1);
    vg_group(g, "invalid: Algorithm 2's q = 0", PRM(1e-3, 1e-3, 0.1, 10, 200, 0, 2000, 20, PRINTED));
    alg_case(g, "q outside (0, 1)", "domain", 1, &Q1, 0, ED_NONE, "qp fr_proxal_gen_qp(seed 1, n = 2, d = 3, mt = 1)");
    px_inst_free(&Q1);
}

/* ---- the files with h (proxal_alg1_h, proxal_alg3_h) ------------------------
 * The start of alg_case; h = l1 with gamma, or the box lo_k = lo, hi_k = hi
 * for every k (w0 inside); edit ED_GAMMA_NAN, ED_W0_OUT as named. */
enum { ED_H_NONE, ED_GAMMA_NAN, ED_W0_OUT };
static void alg_case_h(vgen *g, const char *what, const char *flags, int invalid, const px_inst *I, int mu_on,
                       const char *inst_text, int h, double gamma, double lo, double hi, int edit)
{
    size_t n = I->n, d = I->d, m = I->mtot;
    double *w0 = calloc(d, sizeof *w0), *mu = calloc(m ? m : 1, sizeof *mu), *rho = calloc(n, sizeof *rho);
    double *lv = calloc(d, sizeof *lv), *hv = calloc(d, sizeof *hv), gm = gamma;
    if (!w0 || !mu || !rho || !lv || !hv) abort();
    for (size_t k = 0; k < d; k++) w0[k] = ((double)(k % 3) - 1) / 4, lv[k] = lo, hv[k] = hi;
    for (size_t j = 0; j < m; j++) mu[j] = mu_on ? 0.25 : 0;
    for (size_t i = 0; i < n; i++) rho[i] = 1;
    const char *ed = "";
    switch (edit) {
    case ED_GAMMA_NAN: gm = NAN; ed = ", then gamma = NaN"; break;
    case ED_W0_OUT: w0[0] = hi + 0.125; ed = ", then w0_0 = hi + 1/8 (outside dom h)"; break;
    default: break;
    }
    char text[800], hs[120];
    if (h == FR_PROXAL_H_L1)
        snprintf(hs, sizeof hs, "h = gamma ||.||_1, gamma = %.17g", gamma);
    else
        snprintf(hs, sizeof hs, "h = the indicator of [lo, hi], lo_k = %.17g, hi_k = %.17g", lo, hi);
    snprintf(text, sizeof text, "%s. Data: %s; w0_k = (k mod 3 - 1)/4 (k = 0..d-1), %s, rho 1; %s%s", what,
             inst_text, mu_on ? "mu0_j = 1/4 (j = 0..sum m_i - 1)" : "mu0 zero", hs, ed);
    ftensor f[NIN_H];
    memset(f, 0, sizeof f);
    memcpy(f, I->f, sizeof I->f);
    double hidx = h, one[1] = {gm};
    f[I_W0] = (ftensor){1, d, w0};
    f[I_MU0] = (ftensor){1, m, mu};
    f[I_RHO] = (ftensor){1, n, rho};
    f[I_H] = (ftensor){1, 1, &hidx};
    if (h == FR_PROXAL_H_L1)
        f[I_GAMMA] = (ftensor){1, 1, one};
    if (h == FR_PROXAL_H_BOX) {
        f[I_LO] = (ftensor){1, d, lv};
        f[I_HI] = (ftensor){1, d, hv};
    }
    vg_case(g, text, flags, invalid, f);
    free(w0), free(mu), free(rho), free(lv), free(hv);
}

static void golden_h(vgen *g)
{
    px_inst Q1, N1;   /* d > (n + 1) mt: the QP's feasible set is a line, not a point */
    px_inst_qp(&Q1, 13, 2, 4, 1);
    px_inst_np(&N1, 4, 2, 3, 4, 0.7);
    const char *q1 = "qp fr_proxal_gen_qp(seed 13, n = 2, d = 4, mt = 1)";
    const char *n1 = "np fr_proxal_gen_lg(NP, seed 4, n = 2, d = 3, s = 4), r_i = 0.7";
    enum { L1 = FR_PROXAL_H_L1, BOX = FR_PROXAL_H_BOX };
    vg_group(g, "Sec. 5.1's parameters: eps1 = eps2 = 1e-3, sbar = 0.1, beta = 10; Algorithm 2: q = 0.7, "
                "eps18 printed", PRM(1e-3, 1e-3, 0.1, 10, 200, 0.7, 2000, 50, PRINTED));
    alg_case_h(g, "QP, two clients, mu0 = 0, l1", "trajectory,proxal-qp,proxal-terminated", 0, &Q1, 0,
               q1, L1, QP_GAMMA, 0, 0, ED_H_NONE);
    alg_case_h(g, "QP, two clients, mu0 = 0, box", "trajectory,proxal-qp,proxal-terminated", 0, &Q1,
               0, q1, BOX, 0, QP_LO, QP_HI, ED_H_NONE);
    vg_group(g, "Neyman-Pearson, eps1 = eps2 = 1e-2, sbar = 0.1, beta = 10; q = 0.7, newton_max = 50",
             PRM(1e-2, 1e-2, 0.1, 10, 200, 0.7, 2000, 50, PRINTED));
    alg_case_h(g, "NP, two clients, mu0 = 1/4, l1", "trajectory,proxal-np,proxal-terminated", 0, &N1,
               1, n1, L1, NP_GAMMA, 0, 0, ED_H_NONE);
    alg_case_h(g, "NP, two clients, mu0 = 1/4, box", "trajectory,proxal-np,proxal-terminated", 0, &N1,
               1, n1, BOX, 0, NP_LO, NP_HI, ED_H_NONE);
    vg_group(g, "invalid h", PRM(1e-3, 1e-3, 0.1, 10, 200, 0.7, 2000, 50, PRINTED));
    alg_case_h(g, "gamma NaN", "nan", 1, &Q1, 0, q1, L1, QP_GAMMA, 0, 0, ED_GAMMA_NAN);
    alg_case_h(g, "gamma < 0", "domain", 1, &Q1, 0, q1, L1, -0.5, 0, 0, ED_H_NONE);
    alg_case_h(g, "lo > hi", "domain", 1, &Q1, 0, q1, BOX, 0, 0.5, 0.25, ED_H_NONE);
    alg_case_h(g, "w0 outside the box (w^0 in dom h)", "domain", 1, &Q1, 0, q1, BOX, 0, QP_LO, QP_HI, ED_W0_OUT);
    px_inst_free(&Q1);
    px_inst_free(&N1);
}

/* ---- the sweep of `make run`: a seeded QP ------------------------------------ */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t seed, n, d, mt;
    frng_below(g, 1u << 20, &seed);
    frng_below(g, 2, &n); n++;
    frng_below(g, 2, &d); d += 2;
    mt = 1;
    px_inst I;
    px_inst_qp(&I, seed, n, d, mt);
    memcpy(in, I.f, sizeof I.f);                 /* the fields move to in[] (the caller frees them) */
    ft_alloc(&in[I_W0], 1, d);
    ft_alloc(&in[I_MU0], 1, I.mtot);
    ft_alloc(&in[I_RHO], 1, n);
    for (size_t k = 0; k < d; k++) in[I_W0].v[k] = ((double)(k % 3) - 1) / 4;
    for (size_t j = 0; j < I.mtot; j++) in[I_MU0].v[j] = 0;
    for (size_t i = 0; i < n; i++) in[I_RHO].v[i] = 1;
    const double v[NPAR] = {1e-3, 1e-3, 0.1, 10, 200, 0.95, 2000, 20, PRINTED};
    for (size_t k = 0; k < NPAR; k++) { ft_alloc(&par[k], 1, 1); par[k].v[0] = v[k]; }
}

/* the sweep of the files with h: a seeded QP with d >= n + 2 (a feasible
 * set of dimension >= 1, so that (8) can hold), w0 and the parameters of
 * sample(), h = l1 (gamma = 1/2) or the box [-16, 16]^d (w0 inside; wide,
 * so that the feasible set meets it) */
static void sample_h(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t seed, n, d, box;
    frng_below(g, 1u << 20, &seed);
    frng_below(g, 2, &n); n++;
    frng_below(g, 2, &d); d += n + 2;
    frng_below(g, 2, &box);
    px_inst I;
    px_inst_qp(&I, seed, n, d, 1);
    memcpy(in, I.f, sizeof I.f);                 /* the fields move to in[] (the caller frees them) */
    ft_alloc(&in[I_W0], 1, d);
    ft_alloc(&in[I_MU0], 1, I.mtot);
    ft_alloc(&in[I_RHO], 1, n);
    for (size_t k = 0; k < d; k++) in[I_W0].v[k] = ((double)(k % 3) - 1) / 4;
    for (size_t j = 0; j < I.mtot; j++) in[I_MU0].v[j] = 0;
    for (size_t i = 0; i < n; i++) in[I_RHO].v[i] = 1;
    ft_alloc(&in[I_H], 1, 1);
    in[I_H].v[0] = box ? FR_PROXAL_H_BOX : FR_PROXAL_H_L1;
    if (box) {
        ft_alloc(&in[I_LO], 1, d);
        ft_alloc(&in[I_HI], 1, d);
        for (size_t k = 0; k < d; k++) in[I_LO].v[k] = -16, in[I_HI].v[k] = 16;
    } else {
        ft_alloc(&in[I_GAMMA], 1, 1);
        in[I_GAMMA].v[0] = 0.5;
    }
    const double v[NPAR] = {1e-3, 1e-3, 0.1, 10, 200, 0.95, 2000, 20, PRINTED};
    for (size_t k = 0; k < NPAR; k++) { ft_alloc(&par[k], 1, 1); par[k].v[0] = v[k]; }
}

static const vdata data = {"X", "y", "cnt", .binary = 1, .lead_zero = 1, .when = "kind=np"};
const vfunc vfunc_proxal_alg1 = {"proxal_alg1", "004 Algorithm 1, (6)-(8), with Algorithm 2 on (9); docs/PROXAL.md",
                                 params, inputs, expects, ref1, fast1, tol, golden1, sample, 2, 1, .data = &data};
const vfunc vfunc_proxal_alg3 = {"proxal_alg3", "004 Algorithm 3 (cProx-AL, Appendix C), (6)-(8); docs/PROXAL.md",
                                 params, inputs, expects, ref3, fast3, tol, golden, sample, 3, 1, .data = &data};
const vfunc vfunc_proxal_alg1_h = {"proxal_alg1_h", "004 Algorithm 1 with h = l1 or a box: (14) with h; docs/PROXAL.md 4.5",
                                   params, inputs_h, expects, ref1h, fast1h, tol, golden_h, sample_h, 2, 1, .data = &data};
const vfunc vfunc_proxal_alg3_h = {"proxal_alg3_h", "004 Algorithm 3 with h = l1 or a box; docs/PROXAL.md 4.5",
                                   params, inputs_h, expects, ref3h, fast3h, tol, golden_h, sample_h, 3, 1, .data = &data};
