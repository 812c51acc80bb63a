/* SPDX-License-Identifier: Apache-2.0 */
/* check_model.c -- the model of 003 Sec. V-A, (24)-(26).
 *
 * pc_fedpdm_loss_grad: the gradient fr_pdm_loss returns is the derivative
 *   of the f it returns: on random dyadic cases (m, n, b <= 3), for a
 *   random dyadic direction D, <g, D> against the central difference
 *   (f(X + hD) - f(X - hD)) / (2h), h = 2^-40, everything at ctx->prec
 *   (>= 256 bits; X +- hD exact).  Truncation error <= h^2 max|f'''| |D|^3
 *   / 6 and rounding error <= 2^-prec |f| / h: far below the tolerance
 *   2^-60 (1 + |<g, D>|).  A per-entry check (D = E_kl) runs on the first
 *   cases.
 * pc_fedpdm_no_minimiser (finding F-003-25a; docs):
 *   (a) beta = 0: with nonnegative features and a bias feature A_t0 = 1,
 *       along the ray X(t) = t E (E_k0 = 1 for every k) u_t = t for every
 *       sample, f(t) = ln(1 + e^-t): f(2^j) strictly decreasing for
 *       j = -4..28 (correctly rounded values: RN(a) > RN(b) implies
 *       a > b), f > 0 and f(2^28) < 2^-1000: inf f = 0 is not attained,
 *       (15)'s bounded-below holds (f >= 0) but f has no minimiser;
 *   (b) beta = 0.01 (the paper's): along the same ray f(t) -> beta m from
 *       below and is not monotone (f(2^4) < f(2^28) < beta m): the ray
 *       does not show non-existence; for m = n = 1, a = 1: f(10) < beta
 *       <= lim inf_{|x| -> inf} f, so a minimiser exists (on a compact);
 *   (c) the loss is separable over the rows: changing the row of a class
 *       that has no sample in the batch changes f only through the beta
 *       term (beta = 0: f identical, bit for bit at 256 bits) -- there is
 *       no competition between classes: it is not multinomial logistic
 *       regression.
 * pc_fedpdm_notation (erratum E-003-25):
 *   (a) X in R^{m x n}, X_ij = a b^T in R^{n x m}: X X_ij^T = X (b a^T) is
 *       (m x n)(m x n), defined iff n = m; (m, n) = (10, 785) of Sec. V-A:
 *       undefined;
 *   (b) where defined (m = n) the printed Tr(X (a b^T)^T) = a^T X b (column
 *       k of X against a) differs from the row form x_k^T a that (26)
 *       uses: a witness with exact arithmetic;
 *   (c) with X_ij = b a^T, Tr(X X_ij^T) formed as a full m x m matrix
 *       product and its trace (exactly) equals x_k^T a, and fr_pdm_loss
 *       matches the loss built from that trace at ctx->prec (random
 *       cases). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "../pc_util.h"

static uint64_t st_;
static uint64_t nx(void)
{
    st_ = st_ * 6364136223846793005ull + 1442695040888963407ull;
    return st_ >> 11;
}
/* a dyadic in [-2, 2) with 8 fractional bits */
static double dy(void) { return ((double)(nx() % 1024) - 512) / 256; }

static mpfr_t *arr(size_t k, mpfr_prec_t p)
{
    mpfr_t *a = malloc(k * sizeof *a);
    for (size_t i = 0; i < k; i++)
        mpfr_init2(a[i], p);
    return a;
}
static void arr_free(mpfr_t *a, size_t k)
{
    for (size_t i = 0; i < k; i++)
        mpfr_clear(a[i]);
    free(a);
}

int pc_fedpdm_loss_grad(pc_ctx *ctx)
{
    ctx->function = "pdm_loss";
    ctx->vector = "fedpdm_loss";
    ctx->claim = "003 (25): fr_pdm_loss's gradient = derivative of its f (central differences, h = 2^-40)";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    st_ = ctx->seed ^ 0x3025u;
    mpfr_prec_t p = ctx->prec < 256 ? 256 : ctx->prec;
    unsigned long cases = ctx->cases;
    mpfr_t f1, f2, gd, fd, d, beta, tol;
    mpfr_inits2(p, f1, f2, gd, fd, d, beta, tol, (mpfr_ptr)0);
    for (unsigned long c = 0; c < cases; c++) {
        size_t m = 1 + nx() % 3, n = 1 + nx() % 3, b = 1 + nx() % 3, y[3];
        size_t mn = m * n;
        mpfr_t *X = arr(mn, 64), *Xp = arr(mn, 128), *Xm = arr(mn, 128), *A = arr(b * n, 64), *g = arr(mn, p),
               *D = arr(mn, 64);
        int per_entry = c < 40;
        size_t ek = per_entry ? nx() % mn : 0;
        for (size_t k = 0; k < mn; k++) {
            mpfr_set_d(X[k], dy(), MPFR_RNDN);
            mpfr_set_d(D[k], per_entry ? (k == ek) : dy(), MPFR_RNDN);
            mpfr_set(Xp[k], D[k], MPFR_RNDN);
            mpfr_mul_2si(Xp[k], Xp[k], -40, MPFR_RNDN);
            mpfr_neg(Xm[k], Xp[k], MPFR_RNDN);
            mpfr_add(Xp[k], Xp[k], X[k], MPFR_RNDN);     /* exact at 128 bits */
            mpfr_add(Xm[k], Xm[k], X[k], MPFR_RNDN);
        }
        for (size_t k = 0; k < b * n; k++)
            mpfr_set_d(A[k], dy(), MPFR_RNDN);
        for (size_t t = 0; t < b; t++)
            y[t] = nx() % m;
        mpfr_set_d(beta, (c % 3) ? 0.01 * (double)(c % 3) : 0, MPFR_RNDN);
        int s1 = fr_pdm_loss(NULL, g, X, m, n, A, y, b, beta);
        int s2 = fr_pdm_loss(f1, NULL, Xp, m, n, A, y, b, beta);
        int s3 = fr_pdm_loss(f2, NULL, Xm, m, n, A, y, b, beta);
        mpfr_set_ui(gd, 0, MPFR_RNDN);
        for (size_t k = 0; k < mn; k++) {
            mpfr_mul(d, g[k], D[k], MPFR_RNDN);
            mpfr_add(gd, gd, d, MPFR_RNDN);
        }
        mpfr_sub(fd, f1, f2, MPFR_RNDN);
        mpfr_mul_2si(fd, fd, 39, MPFR_RNDN);              /* / (2 h) */
        mpfr_sub(d, fd, gd, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_abs(tol, gd, MPFR_RNDN);
        mpfr_add_ui(tol, tol, 1, MPFR_RNDN);
        mpfr_mul_2si(tol, tol, -60, MPFR_RNDN);
        ctx->ran++;
        if (s1 != FR_OK || s2 != FR_OK || s3 != FR_OK || mpfr_cmp(d, tol) > 0) {
            if (ctx->failed++ == 0)
                mpfr_snprintf(ctx->detail, sizeof ctx->detail,
                              "case %lu (m %zu n %zu b %zu): <g,D> = %.30Rg, central difference %.30Rg "
                              "(status %d %d %d)",
                              c, m, n, b, gd, fd, s1, s2, s3);
        }
        arr_free(X, mn);
        arr_free(Xp, mn);
        arr_free(Xm, mn);
        arr_free(A, b * n);
        arr_free(g, mn);
        arr_free(D, mn);
    }
    mpfr_clears(f1, f2, gd, fd, d, beta, tol, (mpfr_ptr)0);
    return ctx->failed != 0;
}

/* f of the ray X = t E (E_k0 = 1 for all k) on the fixed data below */
static int ray_f(mpfr_t f, double t, double beta, size_t m, size_t n, mpfr_t *A, const size_t *y, size_t b)
{
    mpfr_t *X = arr(m * n, 64), be;
    mpfr_init2(be, 64);
    mpfr_set_d(be, beta, MPFR_RNDN);
    for (size_t k = 0; k < m * n; k++)
        mpfr_set_d(X[k], (k % n == 0) ? t : 0, MPFR_RNDN);
    int st = fr_pdm_loss(f, NULL, X, m, n, A, y, b, be);
    arr_free(X, m * n);
    mpfr_clear(be);
    return st;
}

int pc_fedpdm_no_minimiser(pc_ctx *ctx)
{
    ctx->function = "pdm_loss";
    ctx->vector = "fedpdm_loss";
    ctx->claim = "003 (25): beta = 0: f decreases strictly to inf 0 along a ray (no minimiser); beta = 0.01: "
                 "the ray is not monotone and a 1-D minimiser exists; f separable over rows";
    ctx->erratum = NULL;
    ctx->ran = ctx->failed = 0;
    mpfr_prec_t p = ctx->prec < 256 ? 256 : ctx->prec;
    enum { m = 3, n = 4, b = 6 };
    double Ad[b * n];
    size_t y[b] = {0, 1, 2, 0, 1, 2};
    st_ = ctx->seed ^ 0x3026u;
    for (size_t t = 0; t < b; t++)
        for (size_t l = 0; l < n; l++)
            Ad[t * n + l] = l == 0 ? 1 : (double)(nx() % 256) / 256;   /* bias, features >= 0 */
    mpfr_t *A = arr(b * n, 64);
    for (size_t k = 0; k < b * n; k++)
        mpfr_set_d(A[k], Ad[k], MPFR_RNDN);
    mpfr_t prev, cur, lim, f10;
    mpfr_inits2(p, prev, cur, lim, f10, (mpfr_ptr)0);
    /* (a) beta = 0 */
    int ok = ray_f(prev, 0x1p-4, 0, m, n, A, y, b) == FR_OK;
    for (int j = -3; j <= 28 && ok; j++) {
        ctx->ran++;
        ok = ray_f(cur, ldexp(1, j), 0, m, n, A, y, b) == FR_OK && mpfr_cmp(cur, prev) < 0 && mpfr_sgn(cur) > 0;
        mpfr_set(prev, cur, MPFR_RNDN);
    }
    ctx->ran++;
    if (!ok || mpfr_cmp_d(prev, 0x1p-1000) >= 0) {
        ctx->failed++;
        snprintf(ctx->detail, sizeof ctx->detail, "(a) beta = 0: f along the ray not strictly decreasing to 0");
    }
    /* (b) beta = 0.01: f(16) < f(2^40) < beta m */
    ctx->ran++;
    mpfr_set_d(lim, 0.01, MPFR_RNDN);
    mpfr_mul_ui(lim, lim, m, MPFR_RNDN);
    if (ray_f(cur, 16, 0.01, m, n, A, y, b) != FR_OK || ray_f(prev, 0x1p28, 0.01, m, n, A, y, b) != FR_OK
        || !(mpfr_cmp(cur, prev) < 0 && mpfr_cmp(prev, lim) < 0)) {
        if (ctx->failed++ == 0)
            mpfr_snprintf(ctx->detail, sizeof ctx->detail, "(b) f(16) = %.20Rg, f(2^28) = %.20Rg", cur, prev);
    }
    /* (b) 1-D: f(10) < beta, so a minimiser exists */
    {
        mpfr_t *x = arr(1, 64), *a = arr(1, 64), be;
        size_t y0 = 0;
        mpfr_init2(be, 64);
        mpfr_set_d(be, 0.01, MPFR_RNDN);
        mpfr_set_ui(x[0], 10, MPFR_RNDN);
        mpfr_set_ui(a[0], 1, MPFR_RNDN);
        ctx->ran++;
        if (fr_pdm_loss(f10, NULL, x, 1, 1, a, &y0, 1, be) != FR_OK || mpfr_cmp(f10, be) >= 0) {
            if (ctx->failed++ == 0)
                mpfr_snprintf(ctx->detail, sizeof ctx->detail, "(b) 1-D: f(10) = %.20Rg not < beta", f10);
        }
        arr_free(x, 1);
        arr_free(a, 1);
        mpfr_clear(be);
    }
    /* (c) separability: class 2 has no sample in the first 2 rows of the batch */
    for (unsigned long c = 0; c < 100; c++) {
        mpfr_t *X = arr(m * n, 64), be, f1, f2;
        mpfr_init2(be, 64);
        mpfr_inits2(p, f1, f2, (mpfr_ptr)0);
        mpfr_set_ui(be, 0, MPFR_RNDN);
        for (size_t k = 0; k < m * n; k++)
            mpfr_set_d(X[k], dy(), MPFR_RNDN);
        int s1 = fr_pdm_loss(f1, NULL, X, m, n, A, y, 2, be);
        for (size_t l = 0; l < n; l++)
            mpfr_set_d(X[2 * n + l], dy() * 64, MPFR_RNDN);
        int s2 = fr_pdm_loss(f2, NULL, X, m, n, A, y, 2, be);
        ctx->ran++;
        if (s1 != FR_OK || s2 != FR_OK || !mpfr_equal_p(f1, f2)) {
            if (ctx->failed++ == 0)
                snprintf(ctx->detail, sizeof ctx->detail, "(c) f depends on the row of an absent class");
        }
        arr_free(X, m * n);
        mpfr_clears(be, f1, f2, (mpfr_ptr)0);
    }
    mpfr_clears(prev, cur, lim, f10, (mpfr_ptr)0);
    arr_free(A, b * n);
    return ctx->failed != 0;
}

int pc_fedpdm_notation(pc_ctx *ctx)
{
    ctx->function = "pdm_loss";
    ctx->vector = "fedpdm_loss";
    ctx->claim = "003 (25): X_ij = a b^T makes Tr(X X_ij^T) undefined for m != n; where m = n it reads "
                 "column k, not row k; X_ij = b a^T gives x_k^T a";
    ctx->erratum = "E-003-25";
    ctx->ran = ctx->failed = 0;
    mpfr_prec_t p = ctx->prec < 256 ? 256 : ctx->prec;
    st_ = ctx->seed ^ 0x3027u;
    /* (a) shapes: (rows, cols) of X = (m, n), of X_ij^T = (a b^T)^T = (m, n) */
    ctx->ran++;
    {
        size_t m = 10, n = 785;
        size_t xr = m, xc = n, tr = m, tc = n;     /* X, X_ij^T */
        int defined = xc == tr;
        if (defined || tc != n) {
            ctx->failed++;
            snprintf(ctx->detail, sizeof ctx->detail, "(a) X X_ij^T defined for (m, n) = (10, 785)");
        }
        (void)xr;
    }
    /* (b) m = n = 2: printed a^T X e_k vs row x_k^T a, exact */
    ctx->ran++;
    {
        double X[4] = {1, 2, 3, 4}, a[2] = {1, -1};   /* k = 0: row 1 - 2 = -1, column 1 - 3 = -2 */
        double row = X[0] * a[0] + X[1] * a[1], col = X[0] * a[0] + X[2] * a[1];
        if (row == col) {
            ctx->failed++;
            snprintf(ctx->detail, sizeof ctx->detail, "(b) no witness");
        } else {
            snprintf(ctx->detail, sizeof ctx->detail,
                     "witness m = n = 2, X = [1 2; 3 4], a = (1, -1), k = 1: printed Tr(X (a b^T)^T) = a^T X b = "
                     "%g (column), x_k^T a = %g (row, what (26) scores)",
                     col, row);
        }
    }
    /* (c) the trace form, as a full product, against fr_pdm_loss */
    for (unsigned long c = 0; c < 200; c++) {
        size_t m = 1 + nx() % 3, n = 1 + nx() % 4, b = 1 + nx() % 3, y[3];
        mpfr_t *X = arr(m * n, 64), *A = arr(b * n, 64), *M = arr(m * m, p);
        mpfr_t f, fo, tr, t, be;
        mpfr_inits2(p, f, fo, tr, t, (mpfr_ptr)0);
        mpfr_init2(be, 64);
        mpfr_set_ui(be, 0, MPFR_RNDN);
        for (size_t k = 0; k < m * n; k++)
            mpfr_set_d(X[k], dy(), MPFR_RNDN);
        for (size_t k = 0; k < b * n; k++)
            mpfr_set_d(A[k], dy(), MPFR_RNDN);
        for (size_t s = 0; s < b; s++)
            y[s] = nx() % m;
        mpfr_set_ui(fo, 0, MPFR_RNDN);
        for (size_t s = 0; s < b; s++) {
            /* X_ij = b a^T (m x n): (X X_ij^T)_{ij} = sum_l X_il (X_ij)_jl = sum_l X_il b_j a_l */
            for (size_t i = 0; i < m; i++)
                for (size_t j = 0; j < m; j++) {
                    mpfr_set_ui(M[i * m + j], 0, MPFR_RNDN);
                    for (size_t l = 0; l < n; l++) {
                        mpfr_mul(t, X[i * n + l], A[s * n + l], MPFR_RNDN);   /* exact at p */
                        mpfr_mul_ui(t, t, j == y[s], MPFR_RNDN);
                        mpfr_add(M[i * m + j], M[i * m + j], t, MPFR_RNDN);
                    }
                }
            mpfr_set_ui(tr, 0, MPFR_RNDN);
            for (size_t i = 0; i < m; i++)
                mpfr_add(tr, tr, M[i * m + i], MPFR_RNDN);
            mpfr_neg(tr, tr, MPFR_RNDN);
            mpfr_exp(tr, tr, MPFR_RNDN);
            mpfr_log1p(tr, tr, MPFR_RNDN);
            mpfr_add(fo, fo, tr, MPFR_RNDN);
        }
        mpfr_div_ui(fo, fo, (unsigned long)b, MPFR_RNDN);
        int st = fr_pdm_loss(f, NULL, X, m, n, A, y, b, be);
        mpfr_sub(t, f, fo, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        mpfr_mul_2si(fo, fo, 16 - p, MPFR_RNDN);     /* tolerance 2^(16-p) |f| */
        ctx->ran++;
        if (st != FR_OK || mpfr_cmp(t, fo) > 0) {
            if (ctx->failed++ == 0)
                snprintf(ctx->detail, sizeof ctx->detail, "(c) fr_pdm_loss differs from the trace form, case %lu",
                         c);
        }
        arr_free(X, m * n);
        arr_free(A, b * n);
        arr_free(M, m * m);
        mpfr_clears(f, fo, tr, t, be, (mpfr_ptr)0);
    }
    return ctx->failed != 0;
}
