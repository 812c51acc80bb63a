/* SPDX-License-Identifier: Apache-2.0 */
/* audit_alg.c -- module proxal's section of `fedref audit` for 004's
 * Algorithms 1, 3 (fedspec/proxal.h, "Algorithms 1 and 3") and 2
 * ("Algorithm 2"): ref (MPFR, 128 bits) against fast (binary64) on small
 * seeded instances: a QP (25) from fr_proxal_gen_qp(audit seed, n = 2, d =
 * 4, mt = 1) and a Neyman-Pearson problem (26) from fr_proxal_gen_lg(NP,
 * audit seed, n = 2, d = 3, s = 6) with r_i = 0.7.  Sec. 5.1's parameters
 * (eps1 = eps2 = 1e-3 for QP, 1e-2 for NP; sbar = 0.1, beta = 10, rho_i =
 * 1), Algorithm 2 with q = 0.95, eps18 printed; w0_k = (k mod 3 - 1)/4,
 * mu0 = 0.  One row per (algorithm, problem): the outer iterations of each
 * wing, how many per-iteration inner counts differ, fast's drift from ref
 * on the output w (cli_drift), ref's true KKT residuals of the output and
 * fast's relative difference on them, thm31_ok of each wing, the time of
 * each wing.  Algorithm 2 rows: one call on P_{i,k} of the state (w^k = w0,
 * mu = 1/4), tau = 1e-3: iterations, drift on w, eps_tilde_sum, thm41_ok.
 * The same rows with h = l1 and h = a box (docs/PROXAL.md 4.5), and
 * Algorithm 2 with h through ff_/fr_proxal_admm_h.
 * A row fails when an iteration count differs, the drift reaches 1e-7 (the
 * checkpoint vectors' tol), a run does not terminate, or a Theorem 3.1 /
 * 4.1 certificate fails in either wing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "audit_registry.h"   /* its own prototype */
#include "fedref.h"
#include "fedfast.h"

#define REF_PREC 128
#define DRIFT_TOL 1e-7

/* mpfr copies of x[0..k) at 53 bits (exact) */
static mpfr_t *mp_of(const double *x, size_t k)
{
    mpfr_t *v = malloc((k ? k : 1) * sizeof *v);
    if (v)
        for (size_t j = 0; j < k; j++) mpfr_init2(v[j], 53), mpfr_set_d(v[j], x[j], MPFR_RNDN);
    return v;
}

static void mp_free(mpfr_t *v, size_t k)
{
    if (v == NULL) return;
    for (size_t j = 0; j < k; j++) mpfr_clear(v[j]);
    free(v);
}

static double rel_diff(double f, mpfr_srcptr r)
{
    double x = mpfr_get_d(r, MPFR_RNDN);
    return fabs(f - x) / fmax(fabs(x), 1e-300);
}

static int alg_row(const char *label, const fr_proxal_problem *P, const fr_proxal_alg_params *prm, int alg3)
{
    fr_proxal_trace rt;
    ff_proxal_trace ft;
    memset(&rt, 0, sizeof rt);
    memset(&ft, 0, sizeof ft);
    int s1 = fr_proxal_trace_init(&rt, P, prm, REF_PREC), s2 = ff_proxal_trace_init(&ft, P, prm);
    double t0 = bench_now();
    if (s1 == FR_OK) s1 = alg3 ? fr_proxal_alg3(&rt, P, prm) : fr_proxal_alg1(&rt, P, prm);
    double t1 = bench_now();
    if (s2 == FR_OK) s2 = alg3 ? ff_proxal_alg3(&ft, P, prm) : ff_proxal_alg1(&ft, P, prm);
    double t2 = bench_now();
    int fail = 0;
    if (s1 != FR_OK || s2 != FR_OK) {
        printf("%-22s run failed: ref %s, fast %s  FAIL\n", label, fr_strerror(s1), fr_strerror(s2));
        fail = 1;
    } else {
        size_t K = rt.iters < ft.iters ? rt.iters : ft.iters, dinner = 0;
        unsigned long inr = 0;
        for (size_t k = 0; k < K; k++) {
            dinner += rt.inner[k] != ft.inner[k];
            inr += rt.inner[k];
        }
        double drift = cli_drift(ft.w, rt.w, rt.d);
        double k1 = NAN, k2 = NAN, r1 = NAN, r2 = NAN;
        if (K > 0) {
            k1 = mpfr_get_d(rt.kkt1[K - 1], MPFR_RNDU);
            k2 = mpfr_get_d(rt.kkt2[K - 1], MPFR_RNDU);
            r1 = rel_diff(ft.kkt1[K - 1], rt.kkt1[K - 1]);
            r2 = rel_diff(ft.kkt2[K - 1], rt.kkt2[K - 1]);
        }
        fail = rt.iters != ft.iters || dinner || !(drift < DRIFT_TOL) || !rt.terminated || !ft.terminated
               || !rt.thm31_ok || !ft.thm31_ok;
        printf("%-22s %4zu %4zu %6zu %7lu %9.2g %9.2e %9.2e %8.1e %8.1e %d/%d %7.3f %7.4f%s\n", label, rt.iters,
               ft.iters, dinner, inr, drift, k1, k2, r1, r2, rt.thm31_ok, ft.thm31_ok, t1 - t0, t2 - t1,
               fail ? "  FAIL" : "");
    }
    fr_proxal_trace_clear(&rt);
    ff_proxal_trace_clear(&ft);
    return fail;
}

static int admm_row(const char *label, const fr_proxal_problem *P, const double *wk, const double *mu,
                    const fr_proxal_admm_params *prm, const fr_proxal_hreg *H)
{
    size_t d = P->d, m = fr_proxal_mtot(P), n = P->n;
    mpfr_t *rwk = mp_of(wk, d), *rmu = mp_of(mu, m), *rw = malloc(d * sizeof *rw), beta;
    mpfr_init2(beta, 53);
    mpfr_set_ui(beta, 10, MPFR_RNDN);
    if (rw)
        for (size_t k = 0; k < d; k++) mpfr_init2(rw[k], REF_PREC);
    double *fw = malloc(d * sizeof *fw);
    fr_proxal_admm_info ri;
    ff_proxal_admm_info fi;
    memset(&fi, 0, sizeof fi);
    fr_proxal_fsum RF;
    fr_proxal_pk_ctx rc;
    ff_proxal_fsum FF;
    ff_proxal_pk_ctx fc;
    ff_proxal_admm_ws *ws = NULL;
    int s1 = rwk && rmu && rw && fw ? fr_proxal_admm_info_init(&ri, REF_PREC) : FR_ENOMEM, have = s1 == FR_OK;
    double t0 = bench_now();
    if (s1 == FR_OK) s1 = fr_proxal_pk_fsum(&RF, &rc, P, rwk, rmu, beta);
    if (s1 == FR_OK) s1 = H ? fr_proxal_admm_h(rw, &ri, &RF, rwk, prm, H) : fr_proxal_admm(rw, &ri, &RF, rwk, prm);
    double t1 = bench_now();
    int s2 = fw ? ff_proxal_pk_fsum(&FF, &fc, P, wk, mu, 10) : FR_ENOMEM;
    if (s2 == FR_OK) s2 = ff_proxal_admm_ws_init(&ws, n, d);
    if (s2 == FR_OK) s2 = H ? ff_proxal_admm_h(fw, &fi, ws, &FF, wk, prm, H) : ff_proxal_admm(fw, &fi, ws, &FF, wk, prm);
    double t2 = bench_now();
    int fail = 0;
    if (s1 != FR_OK || s2 != FR_OK) {
        printf("%-22s run failed: ref %s, fast %s  FAIL\n", label, fr_strerror(s1), fr_strerror(s2));
        fail = 1;
    } else {
        double drift = cli_drift(fw, rw, d), ets = mpfr_get_d(ri.eps_tilde_sum, MPFR_RNDN);
        fail = ri.iters != fi.iters || !(drift < DRIFT_TOL) || !ri.terminated || !fi.terminated || !ri.thm41_ok
               || !fi.thm41_ok;
        printf("%-22s %4lu %4lu %6s %7lu %9.2g %9.2e %9s %8.1e %8s %d/%d %7.3f %7.4f%s\n", label, ri.iters, fi.iters,
               "-", ri.newton, drift, ets, "-", rel_diff(fi.eps_tilde_sum, ri.eps_tilde_sum), "-", ri.thm41_ok,
               fi.thm41_ok, t1 - t0, t2 - t1, fail ? "  FAIL" : "");
    }
    if (have) fr_proxal_admm_info_clear(&ri);
    ff_proxal_admm_ws_clear(&ws);
    if (rw)
        for (size_t k = 0; k < d; k++) mpfr_clear(rw[k]);
    free(rw);
    free(fw);
    mp_free(rwk, d);
    mp_free(rmu, m);
    mpfr_clear(beta);
    return fail;
}

int audit_proxal_alg(uint64_t seed)
{
    enum { QN = 2, QD = 4, QM = 1, NN = 2, ND = 3, NS = 6 };
    double A[QN * QD * QD], b[QN * QD], C[(QN + 1) * QM * QD], e[(QN + 1) * QM];
    double X[NN * NS * ND], r[NN] = {0.7, 0.7}, rho[QN] = {1, 1};
    size_t cnt[NN + 1];
    unsigned char y[NN * NS];
    if (fr_proxal_gen_qp(A, b, C, e, QN, QD, QM, seed) != FR_OK
        || fr_proxal_gen_lg(FR_PROXAL_NP, cnt, X, y, NULL, NN, ND, NS, seed) != FR_OK) {
        cli_error("the audit's problems could not be made", "audit proxal alg");
        return 1;
    }
    fr_proxal_problem Q = {.kind = FR_PROXAL_QP, .n = QN, .d = QD, .mt = QM, .A = A, .b = b, .C = C, .e = e,
                           .h = FR_PROXAL_H_ZERO};
    fr_proxal_problem N = {.kind = FR_PROXAL_NP, .n = NN, .d = ND, .cnt = cnt, .X = X, .y = y, .r = r,
                           .h = FR_PROXAL_H_ZERO};
    double w0[QD], muq[(QN + 1) * QM], mun[NN];
    for (size_t k = 0; k < QD; k++) w0[k] = ((double)(k % 3) - 1) / 4;
    fr_proxal_admm_params ap = {.tau = 1e-3, .q = 0.95, .rho = rho, .tmax = 2000, .newton_max = 50,
                                .eps18 = FR_PROXAL_EPS18_PRINTED};
    fr_proxal_alg_params pq = {.eps1 = 1e-3, .eps2 = 1e-3, .sbar = 0.1, .beta = 10, .kmax = 200, .admm = ap,
                               .w0 = w0, .mu0 = NULL, .keep = 0};
    fr_proxal_alg_params pn = pq;
    pn.eps1 = pn.eps2 = 1e-2;
    printf("\nproxal algorithms (004 Algorithms 1, 3 and 2): ref at %d bits vs fast\n"
           "  QP (25): fr_proxal_gen_qp(seed %llu, n = %d, d = %d, mt = %d), eps1 = eps2 = 1e-3;\n"
           "  NP (26): fr_proxal_gen_lg(NP, seed %llu, n = %d, d = %d, s = %d), r_i = 0.7, eps1 = eps2 = 1e-2;\n"
           "  sbar = 0.1, beta = 10, rho_i = 1, w0_k = (k mod 3 - 1)/4, mu0 = 0; Algorithm 2: q = 0.95,\n"
           "  eps18 printed, tmax = 2000, newton_max = 50\n",
           REF_PREC, (unsigned long long)seed, QN, QD, QM, (unsigned long long)seed, NN, ND, NS);
    printf("%-22s %4s %4s %6s %7s %9s %9s %9s %8s %8s %3s %7s %7s\n", "run", "K rf", "K fs", "dinner", "inner",
           "drift w", "kkt1 ref", "kkt2 ref", "kkt1 rel", "kkt2 rel", "thm", "ref s", "fast s");
    int failures = 0;
    failures += alg_row("Algorithm 1, QP", &Q, &pq, 0);
    failures += alg_row("Algorithm 1, NP", &N, &pn, 0);
    failures += alg_row("Algorithm 3, QP", &Q, &pq, 1);
    failures += alg_row("Algorithm 3, NP", &N, &pn, 1);
    for (size_t j = 0; j < (QN + 1) * QM; j++) muq[j] = 0.25;
    for (size_t j = 0; j < NN; j++) mun[j] = 0.25;
    failures += admm_row("Algorithm 2, QP", &Q, w0, muq, &ap, NULL);
    failures += admm_row("Algorithm 2, NP", &N, w0, mun, &ap, NULL);
    /* with h (docs/PROXAL.md 4.5): l1 and a box; the boxes contain w0 (and,
     * wide for QP, points of its line of feasible points) */
    double qlo[QD], qhi[QD], nlo[ND], nhi[ND];
    for (size_t k = 0; k < QD; k++) qlo[k] = -8, qhi[k] = 8;
    for (size_t k = 0; k < ND; k++) nlo[k] = -0.25, nhi[k] = 0.5;
    fr_proxal_problem Ql = Q, Qb = Q, Nl = N, Nb = N;
    Ql.h = Nl.h = FR_PROXAL_H_L1;
    Ql.gamma = 0.5, Nl.gamma = 0.3;
    Qb.h = Nb.h = FR_PROXAL_H_BOX;
    Qb.lo = qlo, Qb.hi = qhi, Nb.lo = nlo, Nb.hi = nhi;
    failures += alg_row("Algorithm 1, QP, l1", &Ql, &pq, 0);
    failures += alg_row("Algorithm 1, QP, box", &Qb, &pq, 0);
    failures += alg_row("Algorithm 1, NP, l1", &Nl, &pn, 0);
    failures += alg_row("Algorithm 1, NP, box", &Nb, &pn, 0);
    failures += alg_row("Algorithm 3, QP, l1", &Ql, &pq, 1);
    failures += alg_row("Algorithm 3, QP, box", &Qb, &pq, 1);
    failures += alg_row("Algorithm 3, NP, l1", &Nl, &pn, 1);
    failures += alg_row("Algorithm 3, NP, box", &Nb, &pn, 1);
    const fr_proxal_hreg hql = {FR_PROXAL_H_L1, 0.5, NULL, NULL}, hnb = {FR_PROXAL_H_BOX, 0, nlo, nhi};
    failures += admm_row("Algorithm 2, QP, l1", &Q, w0, muq, &ap, &hql);
    failures += admm_row("Algorithm 2, NP, box", &N, w0, mun, &ap, &hnb);
    printf("K rf, K fs: outer iterations of ref and fast (Algorithm 2 rows: its iterations); dinner: outer\n"
           "iterations whose inner count (Algorithm 2 iterations; Algorithm 3: Newton steps) differs (must\n"
           "be 0); inner: ref's total inner count (Algorithm 2 rows: Newton steps); drift w: max |w_fast -\n"
           "w_ref| / max |w_ref| on the output (fails at %.0e, the checkpoint vectors' tol); kkt1/kkt2 ref:\n"
           "the true residuals (Definition 1) of ref's output, rounded up (Algorithm 2 rows: eps_tilde_sum);\n"
           "rel: fast's relative difference; thm: thm31_ok (Algorithm 2: thm41_ok) of ref/fast.\n"
           "Rows with l1 / box: h = gamma ||.||_1 (QP gamma = 0.5, NP 0.3) or the box [-8, 8]^d (QP),\n"
           "[-1/4, 1/2]^d (NP); the server step (14) and Algorithm 3's subproblem with h, the residuals\n"
           "with dh (docs/PROXAL.md 4.5).\n",
           DRIFT_TOL);
    return failures;
}
