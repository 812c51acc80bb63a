/* SPDX-License-Identifier: Apache-2.0 */
/* test_model_pass.c -- ff_pdm_loss's fused pass (fast/fedpdm/model.c
 * loss_grad: the regulariser in blocks of 256 entries with the |x| > 1
 * entries redone, u_t and the row update per sample through BLAS level 1):
 *   - within ff_pdm_loss_bound of fr_pdm_loss at 200 bits on shapes that
 *     cross the block edge (m n = 303, 256 + 47; m n = 256 exactly; m n =
 *     1), with X entries on both sides of |x| = 1 (1, -1, 1 + 2^-52, 2,
 *     -3, 2^20, 2^-600 whose square underflows, -0) and a class absent
 *     from the batch, b = 1 and b = 7;
 *   - f alone, g alone and both: the same bits (one pass, outputs chosen);
 *   - g aliasing X: the same bits as into a separate array;
 *   - A's finiteness, checked per row inside the pass: a non-finite last
 *     row gives FR_ENONFINITE, outputs untouched, before FR_EDOM.
 * Replayable: FEDREF_SEED=<n>. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref.h"
#include "fedfast.h"
#include "../test_util.h"

Suite *suite_fedpdm_model_pass(void);

static frng_t rng;

/* a dyadic in [-2, 2) with 8 fractional bits */
static double dy(void) { return ((double)(frng_next64(&rng) >> 54) - 512) / 256; }

static const double special[] = {1, -1, 0x1.0000000000001p0, 2, -3, 0x1p20, 0x1p-600, -0.0};

static void check_case(size_t m, size_t n, size_t b, double beta)
{
    const size_t mn = m * n;
    double *X = malloc(mn * sizeof *X), *A = malloc(b * n * sizeof *A);
    double *g = malloc(mn * sizeof *g), *g2 = malloc(mn * sizeof *g2), *eg = malloc(mn * sizeof *eg);
    size_t *y = malloc(b * sizeof *y);
    ck_assert(X && A && g && g2 && eg && y);
    for (size_t k = 0; k < mn; k++)      /* every 5th entry special, the rest in [-1/2, 1/2) */
        X[k] = k % 5 == 0 ? special[(k / 5) % 8] : dy() / 4;
    for (size_t k = 0; k < b * n; k++)
        A[k] = dy();
    for (size_t t = 0; t < b; t++)       /* class m - 1 absent when m > 1 */
        y[t] = m > 1 ? (size_t)(frng_next64(&rng) % (m - 1)) : 0;
    double f, f1, ef;
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, beta), FR_OK);
    ck_assert_int_eq(ff_pdm_loss_bound(&ef, eg, X, m, n, A, y, b, beta), FR_OK);
    /* the same bits for each choice of outputs, and into X itself */
    ck_assert_int_eq(ff_pdm_loss(&f1, NULL, X, m, n, A, y, b, beta), FR_OK);
    ck_assert(memcmp(&f, &f1, sizeof f) == 0);
    ck_assert_int_eq(ff_pdm_loss(NULL, g2, X, m, n, A, y, b, beta), FR_OK);
    ck_assert(memcmp(g, g2, mn * sizeof *g) == 0);
    memcpy(g2, X, mn * sizeof *g2);
    ck_assert_int_eq(ff_pdm_loss(NULL, g2, g2, m, n, A, y, b, beta), FR_OK);
    ck_assert(memcmp(g, g2, mn * sizeof *g) == 0);
    /* against ref at 200 bits */
    mpfr_t *Xm = malloc(mn * sizeof *Xm), *Am = malloc(b * n * sizeof *Am), *gr = malloc(mn * sizeof *gr);
    ck_assert(Xm && Am && gr);
    for (size_t k = 0; k < mn; k++) {
        mpfr_inits2(200, Xm[k], gr[k], (mpfr_ptr)0);
        mpfr_set_d(Xm[k], X[k], MPFR_RNDN);
    }
    for (size_t k = 0; k < b * n; k++) {
        mpfr_init2(Am[k], 53);
        mpfr_set_d(Am[k], A[k], MPFR_RNDN);
    }
    mpfr_t fr_, be, d;
    mpfr_inits2(200, fr_, be, d, (mpfr_ptr)0);
    mpfr_set_d(be, beta, MPFR_RNDN);
    ck_assert_int_eq(fr_pdm_loss(fr_, gr, Xm, m, n, Am, y, b, be), FR_OK);
    mpfr_sub_d(d, fr_, f, MPFR_RNDN);
    double e = fabs(mpfr_get_d(d, MPFR_RNDU));
    ck_assert_msg(e <= ef, "m %zu n %zu b %zu: f error %a > bound %a", m, n, b, e, ef);
    for (size_t k = 0; k < mn; k++) {
        mpfr_sub_d(d, gr[k], g[k], MPFR_RNDN);
        e = fabs(mpfr_get_d(d, MPFR_RNDU));
        ck_assert_msg(e <= eg[k], "m %zu n %zu b %zu: g[%zu] (x = %a) error %a > bound %a", m, n, b, k,
                      X[k], e, eg[k]);
    }
    mpfr_clears(fr_, be, d, (mpfr_ptr)0);
    for (size_t k = 0; k < mn; k++)
        mpfr_clears(Xm[k], gr[k], (mpfr_ptr)0);
    for (size_t k = 0; k < b * n; k++)
        mpfr_clear(Am[k]);
    free(Xm);
    free(Am);
    free(gr);
    free(X);
    free(A);
    free(g);
    free(g2);
    free(eg);
    free(y);
}

START_TEST(block_edges_and_large_entries)
{
    frng_init(&rng, tu_seed(3013), 0);
    check_case(3, 101, 7, 0.01);   /* m n = 303: a block of 256 and a tail of 47 */
    check_case(3, 101, 1, 0.25);
    check_case(4, 64, 7, 0.01);    /* m n = 256: one full block, no tail */
    check_case(1, 1, 1, 0.01);     /* m n = 1: x = 1 (special[0]) */
    check_case(2, 129, 3, 0.0);    /* beta = 0 */
}
END_TEST

START_TEST(nonfinite_row_checked_in_the_pass)
{
    /* A's finiteness is checked row by row inside the pass: a NaN or an
     * infinity in the last row (after the other rows' updates) is still
     * FR_ENONFINITE with f and g untouched, and comes before FR_EDOM
     * (beta < 0; f inside g) */
    enum { m = 2, n = 5, b = 4 };
    double X[m * n], A[b * n], g[m * n], f = 7;
    size_t y[b] = {0, 1, 0, 1};
    for (size_t k = 0; k < m * n; k++)
        X[k] = 0.125 * (double)k;
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (size_t j = 0; j < 3; j++) {
        for (size_t k = 0; k < b * n; k++)
            A[k] = 0.25;
        A[b * n - 1] = bad[j];
        for (size_t k = 0; k < m * n; k++)
            g[k] = -1;
        ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, 0.01), FR_ENONFINITE);
        ck_assert(f == 7);
        for (size_t k = 0; k < m * n; k++)
            ck_assert(g[k] == -1);
        ck_assert_int_eq(ff_pdm_loss(&f, NULL, X, m, n, A, y, b, 0.01), FR_ENONFINITE);
        ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, -1.0), FR_ENONFINITE);
        ck_assert_int_eq(ff_pdm_loss(g, g, X, m, n, A, y, b, 0.01), FR_ENONFINITE);
        ck_assert_int_eq(ff_pdm_loss_bound(&f, g, X, m, n, A, y, b, -1.0), FR_ENONFINITE);
    }
    A[b * n - 1] = 0.25;                 /* finite again: the EDOM cases are EDOM */
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, -1.0), FR_EDOM);
    ck_assert_int_eq(ff_pdm_loss(g, g, X, m, n, A, y, b, 0.01), FR_EDOM);
    ck_assert_int_eq(ff_pdm_loss(&f, g, X, m, n, A, y, b, 0.01), FR_OK);
}
END_TEST

Suite *suite_fedpdm_model_pass(void)
{
    Suite *s = suite_create("fedpdm_model_pass");
    TCase *tc = tcase_create("pass");
    tcase_add_test(tc, block_edges_and_large_entries);
    tcase_add_test(tc, nonfinite_row_checked_in_the_pass);
    suite_add_tcase(s, tc);
    return s;
}
