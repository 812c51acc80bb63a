/* SPDX-License-Identifier: Apache-2.0 */
/* admm_run.c -- the checkpoint file proxal_admm: 004 Algorithm 2 (inexact
 * ADMM, fr_/ff_proxal_admm) on the oracle F_i = P_{i,k} of a given state
 * (fr_/ff_proxal_pk_fsum: w^k, mu^k, beta).  Schema:
 *   params  beta, tau, q, tmax, newton_max, eps18 ("printed" | "code")
 *   inputs  the problem (alg_common.h: kind, A, b, C, e | cnt, X, y, r),
 *           wk (d), mu (sum m_i), w0 (d: w~^0), rho (n)
 *   expect  w (d: the output w^{t+1}), iters, terminated ((19) held),
 *           eps (eps_{t+1} = q^t at the end), eps_tilde_sum (sum_i
 *           eps~_{i,t+1} of (18)), thm41_ok (Theorem 4.1 certified)
 * ref runs at working precision p; certification by precision doubling
 * (vgen.c, iterative): the iteration count and every test decision must be
 * the same at p, 2p and 4p.  tol for binary64: rel = abs = 1e-8
 * (empirical: the trajectory is contractive; fast's subproblem residuals
 * are ~1e-15, amplified by the iterations).  The instances follow from the
 * case comments: fr_proxal_gen_qp / fr_proxal_gen_lg (docs/RNG.md,
 * proxal) and the dyadic state written in the file. */
#include "alg_common.h"

enum { P_BETA, P_TAU, P_Q, P_TMAX, P_NEWTON, P_EPS18, NPAR };
enum { I_WK = PX_NPROB, I_MU, I_W0, I_RHO, NIN };
enum { E_W, E_ITERS, E_TERM, E_EPS, E_ETS, E_THM41, NEXP };

static const char *const EPS18_NAMES[] = {"printed", "code", NULL};   /* = FR_PROXAL_EPS18_* */
_Static_assert(FR_PROXAL_EPS18_PRINTED == 0 && FR_PROXAL_EPS18_CODE == 1, "eps18 index = enum");

static const vspec params[] = {{"beta", VK_SCALAR, NULL, NULL}, {"tau", VK_SCALAR, NULL, NULL},
                               {"q", VK_SCALAR, NULL, NULL}, {"tmax", VK_SCALAR, NULL, NULL},
                               {"newton_max", VK_SCALAR, NULL, NULL}, {"eps18", VK_CHOICE, EPS18_NAMES, NULL},
                               {NULL, 0, NULL, NULL}};
static const vspec inputs[] = {PX_PROBLEM_INPUTS, {"wk", VK_VECTOR, NULL, NULL}, {"mu", VK_VECTOR, NULL, NULL},
                               {"w0", VK_VECTOR, NULL, NULL}, {"rho", VK_VECTOR, NULL, NULL},
                               {NULL, 0, NULL, NULL}};
static const vspec expects[] = {{"w", VK_VECTOR, NULL, NULL}, {"iters", VK_SCALAR, NULL, NULL, VC_INT},
                                {"terminated", VK_BOOL, NULL, NULL}, {"eps", VK_SCALAR, NULL, NULL},
                                {"eps_tilde_sum", VK_SCALAR, NULL, NULL}, {"thm41_ok", VK_BOOL, NULL, NULL},
                                {NULL, 0, NULL, NULL}};

/* The parameters and the shape checks of a case (binary64 fields). */
static int setup(px_prob *pp, fr_proxal_admm_params *prm, const double *par, const ftensor *in)
{
    unsigned long tmax, nm;
    int st = px_count(par[P_TMAX], &tmax);
    if (st == FR_OK) st = px_count(par[P_NEWTON], &nm);
    if (st != FR_OK) return st;
    st = px_build(pp, in);
    if (st != FR_OK) return st;
    size_t n = pp->P.n, d = pp->P.d, m = fr_proxal_mtot(&pp->P);
    if (in[I_WK].cols != d || in[I_W0].cols != d || in[I_MU].cols != m || in[I_RHO].cols != n) {
        px_free(pp);
        return FR_ESIZE;
    }
    *prm = (fr_proxal_admm_params){.tau = par[P_TAU], .q = par[P_Q], .rho = in[I_RHO].v, .tmax = tmax,
                                   .newton_max = nm, .eps18 = (int)par[P_EPS18]};
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    ftensor fp[NPAR] = {{0}}, fin[NIN] = {{0}};
    double p[NPAR];
    px_prob pp = {0};
    fr_proxal_admm_params prm;
    fr_proxal_admm_info info;
    int st = px_copy(fp, par, NPAR), have_info = 0;
    if (st == FR_OK) st = px_copy(fin, in, NIN);
    for (size_t k = 0; k < NPAR && st == FR_OK; k++) p[k] = fp[k].v[0];
    if (st == FR_OK) st = setup(&pp, &prm, p, fin);
    if (st == FR_OK) {
        size_t d = pp.P.d;
        fr_proxal_fsum F;
        fr_proxal_pk_ctx ctx;
        st = fr_proxal_admm_info_init(&info, prec);
        have_info = st == FR_OK;
        if (st == FR_OK) st = fr_proxal_pk_fsum(&F, &ctx, &pp.P, in[I_WK].v, in[I_MU].v, par[P_BETA].v[0]);
        if (st == FR_OK && rt_alloc(&out[E_W], 1, d, prec) != 0) st = FR_ENOMEM;
        if (st == FR_OK) st = fr_proxal_admm(out[E_W].v, &info, &F, in[I_W0].v, &prm);
        for (size_t k = E_ITERS; k < NEXP && st == FR_OK; k++)
            if (rt_alloc(&out[k], 1, 1, prec) != 0) st = FR_ENOMEM;
        if (st == FR_OK) {
            mpfr_set_ui(out[E_ITERS].v[0], info.iters, MPFR_RNDN);
            mpfr_set_ui(out[E_TERM].v[0], info.terminated != 0, MPFR_RNDN);
            mpfr_set(out[E_EPS].v[0], info.eps, MPFR_RNDN);
            mpfr_set(out[E_ETS].v[0], info.eps_tilde_sum, MPFR_RNDN);
            mpfr_set_ui(out[E_THM41].v[0], info.thm41_ok != 0, MPFR_RNDN);
        }
    }
    if (have_info) fr_proxal_admm_info_clear(&info);
    px_free(&pp);
    for (size_t k = 0; k < NPAR; k++) ft_free(&fp[k]);
    for (size_t k = 0; k < NIN; k++) ft_free(&fin[k]);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    double p[NPAR];
    for (size_t k = 0; k < NPAR; k++) p[k] = par[k].v[0];
    px_prob pp = {0};
    fr_proxal_admm_params prm;
    int st = setup(&pp, &prm, p, in);
    if (st != FR_OK) return st;
    size_t n = pp.P.n, d = pp.P.d;
    ff_proxal_fsum F;
    ff_proxal_pk_ctx ctx;
    ff_proxal_admm_ws *ws = NULL;
    ff_proxal_admm_info info;
    memset(&info, 0, sizeof info);
    st = ff_proxal_pk_fsum(&F, &ctx, &pp.P, in[I_WK].v, in[I_MU].v, p[P_BETA]);
    if (st == FR_OK) st = ff_proxal_admm_ws_init(&ws, n, d);
    if (st == FR_OK && ft_alloc(&out[E_W], 1, d) != 0) st = FR_ENOMEM;
    if (st == FR_OK) st = ff_proxal_admm(out[E_W].v, &info, ws, &F, in[I_W0].v, &prm);
    for (size_t k = E_ITERS; k < NEXP && st == FR_OK; k++)
        if (ft_alloc(&out[k], 1, 1) != 0) st = FR_ENOMEM;
    if (st == FR_OK) {
        out[E_ITERS].v[0] = (double)info.iters;
        out[E_TERM].v[0] = info.terminated != 0;
        out[E_EPS].v[0] = info.eps;
        out[E_ETS].v[0] = info.eps_tilde_sum;
        out[E_THM41].v[0] = info.thm41_ok != 0;
    }
    ff_proxal_admm_ws_clear(&ws);
    px_free(&pp);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = 1e-8;
    *abs = 1e-8;
}

/* ---- the golden cases ------------------------------------------------------ */

#define PRM(...) ((const double[]){__VA_ARGS__})
enum { PRINTED = FR_PROXAL_EPS18_PRINTED, CODE = FR_PROXAL_EPS18_CODE };
enum { ED_NONE, ED_W0_NAN, ED_MU_NEG, ED_RHO_ZERO, ED_W0_SHORT, ED_A_INF };

/* The state: wk_k = (k mod 3 - 1) / 4 (k = 0..d-1) or 0; mu_j = 1/2 + j/4
 * (j = 0..mtot-1; a QP's equality multipliers alternate in sign: - for odd
 * j) or 0; w0 = wk; rho_i = 1 or (i + 1)/2 (i = 0..n-1). */
static void admm_case(vgen *g, const char *what, const char *flags, int invalid, px_inst *I, int wk_on, int mu_on,
                      int rho_var, int edit, const char *inst_text)
{
    size_t n = I->n, d = I->d, m = I->mtot;
    double *wk = calloc(d, sizeof *wk), *mu = calloc(m ? m : 1, sizeof *mu), *w0 = calloc(d, sizeof *w0);
    double *rho = calloc(n, sizeof *rho);
    if (!wk || !mu || !w0 || !rho) abort();
    int qp = I->f[PX_KIND].v[0] == 0;
    for (size_t k = 0; k < d; k++) wk[k] = w0[k] = wk_on ? ((double)(k % 3) - 1) / 4 : 0;
    for (size_t j = 0; j < m; j++) mu[j] = mu_on ? (qp && (j & 1) ? -1.0 : 1.0) * (0.5 + (double)j / 4) : 0;
    for (size_t i = 0; i < n; i++) rho[i] = rho_var ? ((double)i + 1) / 2 : 1;
    size_t nw0 = d;
    double a00 = I->f[PX_A].rows ? I->f[PX_A].v[0] : 0;
    const char *ed = "";
    switch (edit) {
    case ED_W0_NAN: w0[0] = NAN; ed = ", then w0_0 = nan"; break;
    case ED_MU_NEG: mu[m - 1] = -0.5; ed = ", then the last multiplier (an inequality row) = -1/2"; break;
    case ED_RHO_ZERO: rho[n - 1] = 0; ed = ", then rho_{n-1} = 0"; break;
    case ED_W0_SHORT: nw0 = d - 1; ed = ", then w0 one entry short"; break;
    case ED_A_INF: I->f[PX_A].v[0] = INFINITY; ed = ", then A_1[0][0] = inf"; break;
    default: break;
    }
    char text[700];
    /* the state as docs/rng_reference.py reads it: 0-based indices */
    snprintf(text, sizeof text, "%s. Data: %s; %s, %s, w0 = wk, %s%s", what, inst_text,
             wk_on ? "wk_k = (k mod 3 - 1)/4 (k = 0..d-1)" : "wk zero",
             mu_on ? (qp ? "mu_j = (-1)^j (1/2 + j/4) (j = 0..sum m_i - 1)" : "mu_j = 1/2 + j/4 (j = 0..sum m_i - 1)")
                   : "mu zero",
             rho_var ? "rho_i = (i + 1)/2 (i = 0..n-1)" : "rho 1", ed);
    ftensor f[NIN];
    memcpy(f, I->f, sizeof I->f);
    f[I_WK] = (ftensor){1, d, wk};
    f[I_MU] = (ftensor){1, m, mu};
    f[I_W0] = (ftensor){1, nw0, w0};
    f[I_RHO] = (ftensor){1, n, rho};
    vg_case(g, text, flags, invalid, f);
    if (edit == ED_A_INF) I->f[PX_A].v[0] = a00;
    free(wk);
    free(mu);
    free(w0);
    free(rho);
}

static void golden(vgen *g)
{
    px_inst Q1, Q2, Q3, N1;
    px_inst_qp(&Q1, 1, 2, 3, 1);
    px_inst_qp(&Q2, 2, 1, 2, 1);
    px_inst_qp(&Q3, 3, 3, 4, 2);
    px_inst_np(&N1, 4, 2, 3, 4, 0.7);
    const char *q1 = "qp fr_proxal_gen_qp(seed 1, n = 2, d = 3, mt = 1)";
    const char *q2 = "qp fr_proxal_gen_qp(seed 2, n = 1, d = 2, mt = 1)";
    const char *q3 = "qp fr_proxal_gen_qp(seed 3, n = 3, d = 4, mt = 2)";
    const char *n1 = "np fr_proxal_gen_lg(NP, seed 4, n = 2, d = 3, s = 4), r_i = 0.7";

    vg_group(g, "QP, beta = 10, tau = 1e-3, q = 0.95, eps18 printed (u_i^t in (18))",
             PRM(10, 1e-3, 0.95, 2000, 20, PRINTED));
    admm_case(g, "two clients from w~^0 = w^k = 0, mu = 0", "trajectory,proxal-qp,proxal-eps18-printed", 0, &Q1,
              0, 0, 0, ED_NONE, q1);
    admm_case(g, "two clients, a nonzero state", "trajectory,proxal-qp,proxal-eps18-printed", 0, &Q1, 1, 1, 0,
              ED_NONE, q1);
    admm_case(g, "one client (n = 1), a nonzero state", "trajectory,proxal-qp,proxal-eps18-printed", 0, &Q2, 1,
              1, 0, ED_NONE, q2);
    admm_case(g, "three clients, mt = 2, rho_i = (i + 1)/2", "trajectory,proxal-qp,proxal-eps18-printed", 0, &Q3,
              1, 1, 1, ED_NONE, q3);
    vg_group(g, "the same with eps18 code (u_i^{t+1} in (18): PL97/Constr_FL's admm.py)",
             PRM(10, 1e-3, 0.95, 2000, 20, CODE));
    admm_case(g, "two clients, a nonzero state", "trajectory,proxal-qp,proxal-eps18-code", 0, &Q1, 1, 1, 0,
              ED_NONE, q1);
    admm_case(g, "three clients, mt = 2, rho_i = (i + 1)/2", "trajectory,proxal-qp,proxal-eps18-code", 0, &Q3, 1,
              1, 1, ED_NONE, q3);
    vg_group(g, "QP, a tight tau = 1e-6, q = 0.95", PRM(10, 1e-6, 0.95, 2000, 20, PRINTED));
    admm_case(g, "two clients, a nonzero state", "trajectory,proxal-qp,proxal-eps18-printed", 0, &Q1, 1, 1, 0,
              ED_NONE, q1);
    vg_group(g, "QP, tmax = 2 reached before (19): terminated false", PRM(10, 1e-8, 0.95, 2, 20, PRINTED));
    admm_case(g, "three clients", "trajectory,proxal-qp,proxal-tmax", 0, &Q3, 1, 1, 0, ED_NONE, q3);
    vg_group(g, "Neyman-Pearson, beta = 10, tau = 1e-3, q = 0.9: damped Newton subproblems",
             PRM(10, 1e-3, 0.95, 2000, 50, PRINTED));
    admm_case(g, "two clients, mu = 0, w^k = 0", "trajectory,proxal-np,proxal-eps18-printed", 0, &N1, 0, 0, 0,
              ED_NONE, n1);
    admm_case(g, "two clients, mu > 0 (the AL terms active)", "trajectory,proxal-np,proxal-eps18-printed", 0, &N1,
              1, 1, 0, ED_NONE, n1);

    vg_group(g, "invalid: tau = 0", PRM(10, 0, 0.5, 200, 20, PRINTED));
    admm_case(g, "tau outside (0, 1]", "domain", 1, &Q1, 0, 0, 0, ED_NONE, q1);
    vg_group(g, "invalid: q = 1", PRM(10, 1e-3, 1, 200, 20, PRINTED));
    admm_case(g, "q outside (0, 1)", "domain", 1, &Q1, 0, 0, 0, ED_NONE, q1);
    vg_group(g, "invalid: beta = 0", PRM(0, 1e-3, 0.5, 200, 20, PRINTED));
    admm_case(g, "beta <= 0", "domain", 1, &Q1, 0, 0, 0, ED_NONE, q1);
    vg_group(g, "invalid: tmax = 0", PRM(10, 1e-3, 0.5, 0, 20, PRINTED));
    admm_case(g, "no iteration allowed", "size", 1, &Q1, 0, 0, 0, ED_NONE, q1);
    vg_group(g, "invalid inputs", PRM(10, 1e-3, 0.95, 2000, 20, PRINTED));
    admm_case(g, "a NaN in w0", "nan", 1, &Q1, 1, 1, 0, ED_W0_NAN, q1);
    admm_case(g, "the last penalty rho_{n-1} = 0", "domain", 1, &Q1, 1, 1, 0, ED_RHO_ZERO, q1);
    admm_case(g, "w0 of length d - 1", "size", 1, &Q1, 1, 1, 0, ED_W0_SHORT, q1);
    admm_case(g, "an infinite entry of A", "inf", 1, &Q1, 1, 1, 0, ED_A_INF, q1);
    admm_case(g, "a negative inequality multiplier (NP)", "domain", 1, &N1, 1, 1, 0, ED_MU_NEG, n1);
    px_inst_free(&Q1);
    px_inst_free(&Q2);
    px_inst_free(&Q3);
    px_inst_free(&N1);
}

/* ---- the sweep of `make run`: a seeded QP, a dyadic state ------------------- */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t seed, n, d, mt, e18, on;
    frng_below(g, 1u << 20, &seed);
    frng_below(g, 3, &n); n++;
    frng_below(g, 3, &d); d += 2;
    frng_below(g, 2, &mt); mt++;
    frng_below(g, 2, &e18);
    frng_below(g, 2, &on);
    px_inst I;
    px_inst_qp(&I, seed, n, d, mt);
    memcpy(in, I.f, sizeof I.f);                 /* the fields move to in[] (the caller frees them) */
    ft_alloc(&in[I_WK], 1, d);
    ft_alloc(&in[I_MU], 1, I.mtot);
    ft_alloc(&in[I_W0], 1, d);
    ft_alloc(&in[I_RHO], 1, n);
    for (size_t k = 0; k < d; k++) in[I_WK].v[k] = in[I_W0].v[k] = on ? ((double)(k % 3) - 1) / 4 : 0;
    for (size_t j = 0; j < I.mtot; j++) in[I_MU].v[j] = on ? 0.5 - (double)j / 8 : 0;
    for (size_t i = 0; i < n; i++) in[I_RHO].v[i] = 1;
    const double v[NPAR] = {10, 1e-3, 0.95, 2000, 20, (double)e18};
    for (size_t k = 0; k < NPAR; k++) { ft_alloc(&par[k], 1, 1); par[k].v[0] = v[k]; }
}

const vfunc vfunc_proxal_admm = {"proxal_admm", "004 Algorithm 2, (14)-(19), on (9): P_{i,k} of (10)-(11); docs/PROXAL.md",
                                 params, inputs, expects, ref, fast, tol, golden, sample, 6, 1};
