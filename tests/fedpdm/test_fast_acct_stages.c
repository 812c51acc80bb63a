/* SPDX-License-Identifier: Apache-2.0 */
/* test_fast_acct_stages.c -- white-box: the decision of fast's
 * ff_fedpdm_gauss_eps (fast/fedpdm/acct.c, declared in
 * fast/fedpdm/acct_stages.h) against delta(eps) at HP bits next to the
 * root: delta is delta(eps0) rounded to nearest, eps runs over eps0 +- k
 * ulps (k up to 2^20), and every verdict 1 must have delta(eps) <= delta,
 * every -1 delta(eps) > delta.  In eps itself a bound rounded the wrong
 * way hides under the search's tolerance, so ci/mutate-privacy.sh runs
 * this suite first. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "fedref.h"
#include "../test_util.h"
#include "delta_hp.h"
#include "../../fast/fedpdm/acct_stages.h"

Suite *suite_fedpdm_fast_acct_stages(void);

#define HP 256

START_TEST(eps_cert_near_root)
{
    frng_t rng;
    const uint64_t seed = tu_rng_start(&rng, 20261204u, 61);
    mpfr_t a, e, D;
    mpfr_inits2(HP, a, e, D, (mpfr_ptr)0);
    for (int i = 0; i < tu_effort(150); i++) {
        const double sigma = 0.2 * exp(3.2 * (double)frng_u53(&rng) * 0x1p-53);
        const double eps0 = 0.02 * exp(5.3 * (double)frng_u53(&rng) * 0x1p-53);
        mpfr_set_ui(a, 1, MPFR_RNDN);
        mpfr_div_d(a, a, sigma, MPFR_RNDN);
        mpfr_set_d(e, eps0, MPFR_RNDN);
        tu_delta_hp(D, NULL, e, a, HP);
        const double delta = mpfr_get_d(D, MPFR_RNDN);
        if (!(delta > 1e-300 && delta < 0.99)) continue;
        for (int k = -21; k <= 21; k++) {
            const double eps = eps0 + (k < 0 ? -1 : 1) * ldexp(k == 0 ? 0 : 1, abs(k) - 1) * ldexp(1, ilogb(eps0) - 52);
            const int v = ffi_pdm_eps_cert(eps, 1, sigma, delta);
            if (v == 0) continue;
            mpfr_set_d(e, eps, MPFR_RNDN);
            tu_delta_hp(D, NULL, e, a, HP);
            ck_assert_msg(v == 1 ? mpfr_cmp_d(D, delta) <= 0 : mpfr_cmp_d(D, delta) > 0,
                          "seed %llu: verdict %d at eps %a (sigma %a delta %a)", (unsigned long long)seed, v, eps,
                          sigma, delta);
        }
    }
    mpfr_clears(a, e, D, (mpfr_ptr)0);
}
END_TEST

/* the arguments' bounds against a = s/sigma at HP, eps near a^2/2 (x1 near
 * 0, where the bounds of a/2 and eps/a nearly cancel) or anywhere */
START_TEST(cert_args)
{
    frng_t rng;
    const uint64_t seed = tu_rng_start(&rng, 20261204u, 62);
    mpfr_t a, x, t;
    mpfr_inits2(HP, a, x, t, (mpfr_ptr)0);
    for (int i = 0; i < tu_effort(4000); i++) {
        const double s = ldexp(1 + (double)frng_u53(&rng) * 0x1p-53, (int)(frng_u53(&rng) % 20) - 10);
        const double sigma = ldexp(1 + (double)frng_u53(&rng) * 0x1p-53, (int)(frng_u53(&rng) % 20) - 10);
        const double r = s / sigma;
        const double eps = frng_u53(&rng) % 2 ? r * r / 2 * (1 + 0x1p-30 * ((double)(frng_u53(&rng) % 64) - 32))
                                              : r * exp(4 * (double)frng_u53(&rng) * 0x1p-53 - 2);
        double b[4];
        ffi_pdm_cert_args(b, eps, s, sigma);
        mpfr_set_d(a, s, MPFR_RNDN);
        mpfr_div_d(a, a, sigma, MPFR_RNDN);
        mpfr_set_d(t, eps, MPFR_RNDN);
        mpfr_div(t, t, a, MPFR_RNDN);            /* eps/a */
        mpfr_div_2ui(x, a, 1, MPFR_RNDN);
        mpfr_sub(x, x, t, MPFR_RNDN);            /* a/2 - eps/a */
        ck_assert_msg(mpfr_cmp_d(x, b[0]) >= 0 && mpfr_cmp_d(x, b[1]) <= 0,
                      "seed %llu: x1 outside [%a, %a] (s %a sigma %a eps %a)", (unsigned long long)seed, b[0], b[1], s,
                      sigma, eps);
        mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
        mpfr_add(x, x, t, MPFR_RNDN);            /* a/2 + eps/a */
        ck_assert_msg(mpfr_cmp_d(x, b[2]) >= 0 && mpfr_cmp_d(x, b[3]) <= 0,
                      "seed %llu: z outside [%a, %a] (s %a sigma %a eps %a)", (unsigned long long)seed, b[2], b[3], s,
                      sigma, eps);
    }
    mpfr_clears(a, x, t, (mpfr_ptr)0);
}
END_TEST

/* Phi(x) and ln Phi(-z) between their bounds at HP, from the centre to
 * the far tail (Phi(x) near 1e-300, z past the asymptotic series' 26 sqrt 2) */
START_TEST(phi_bounds)
{
    frng_t rng;
    const uint64_t seed = tu_rng_start(&rng, 20261204u, 63);
    mpfr_t x, p;
    mpfr_inits2(HP, x, p, (mpfr_ptr)0);
    for (int i = 0; i < tu_effort(300); i++) {
        const double u = (double)frng_u53(&rng) * 0x1p-53;
        const double xv = i % 2 ? -37 + 45 * u : -37 + 8 * u;
        mpfr_set_d(x, xv, MPFR_RNDN);
        tu_phi_hp(p, x);
        const double hi = ffi_pdm_phi_b(xv, 1), lo = ffi_pdm_phi_b(xv, -1);
        ck_assert_msg(mpfr_cmp_d(p, hi) <= 0 && mpfr_cmp_d(p, lo) >= 0, "seed %llu: Phi(%a) outside [%a, %a]",
                      (unsigned long long)seed, xv, lo, hi);
        const double z = i % 3 == 0 ? 60 * u : i % 3 == 1 ? 30 + 30 * u : 5 * u;
        mpfr_set_d(x, -z, MPFR_RNDN);
        tu_phi_hp(p, x);
        mpfr_log(p, p, MPFR_RNDN);
        const double lh = ffi_pdm_lphi_neg(z, 1), ll = ffi_pdm_lphi_neg(z, -1);
        ck_assert_msg(mpfr_cmp_d(p, lh) <= 0 && mpfr_cmp_d(p, ll) >= 0, "seed %llu: ln Phi(-%a) outside [%a, %a]",
                      (unsigned long long)seed, z, ll, lh);
    }
    mpfr_clears(x, p, (mpfr_ptr)0);
}
END_TEST

/* T from below against e^{eps + l} at HP, the share of delta (n d0 <=
 * delta exactly, n = T or 2T) and the certificate against its own inputs
 * exactly: PU - TL and QL + TL aimed a few ulps either side of delta and
 * of 1 - delta */
START_TEST(T_and_certificate)
{
    frng_t rng;
    const uint64_t seed = tu_rng_start(&rng, 20261204u, 64);
    mpfr_t x, y;
    mpfr_inits2(HP, x, y, (mpfr_ptr)0);
    for (int i = 0; i < tu_effort(4000); i++) {
        const double eps = 30 * (double)frng_u53(&rng) * 0x1p-53, l = -700 * (double)frng_u53(&rng) * 0x1p-53;
        const double T = ffi_pdm_T_lo(eps, l);
        mpfr_set_d(x, eps, MPFR_RNDN);
        mpfr_add_d(x, x, l, MPFR_RNDN);          /* exact */
        mpfr_exp(x, x, MPFR_RNDN);
        ck_assert_msg(T >= 0 && mpfr_cmp_d(x, T) >= 0, "seed %llu: T %a above e^{eps + l} (eps %a l %a)",
                      (unsigned long long)seed, T, eps, l);
        const double delta = exp(-40 * (double)frng_u53(&rng) * 0x1p-53) * 0.9;
        const double TL = frng_u53(&rng) % 2 ? 0 : 0.1 * (double)frng_u53(&rng) * 0x1p-53;
        double PU = delta + TL, QL = (1 - delta) - TL;
        const int k = (int)(frng_u53(&rng) % 9) - 4;
        if (frng_u53(&rng) % 2) {
            for (int j = 0; j < (k < 0 ? -k : k) * 8; j++) PU = nextafter(PU, k < 0 ? 0 : 2);
            QL = 0;
        } else {
            for (int j = 0; j < (k < 0 ? -k : k) * 8; j++) QL = nextafter(QL, k < 0 ? 0 : 2);
            PU = 1;
        }
        const double n = (double)(1 + frng_u53(&rng) % (1ul << 40)) * (frng_u53(&rng) % 2 ? 1 : 2);
        const double d0 = ffi_pdm_delta_share(delta, n);
        mpfr_set_d(x, d0, MPFR_RNDN);
        mpfr_mul_d(x, x, n, MPFR_RNDN);          /* exact */
        ck_assert_msg(mpfr_cmp_d(x, delta) <= 0, "seed %llu: n d0 above delta (delta %a n %a)", (unsigned long long)seed,
                      delta, n);
        if (!ffi_pdm_cert_holds(PU, QL, TL, delta)) continue;
        mpfr_set_d(x, PU, MPFR_RNDN);
        mpfr_sub_d(x, x, TL, MPFR_RNDN);         /* PU - TL, exact */
        mpfr_set_d(y, QL, MPFR_RNDN);
        mpfr_add_d(y, y, TL, MPFR_RNDN);
        mpfr_add_d(y, y, delta, MPFR_RNDN);      /* QL + TL + delta, exact */
        ck_assert_msg(mpfr_cmp_d(x, delta) <= 0 || mpfr_cmp_ui(y, 1) >= 0,
                      "seed %llu: certified with PU %a QL %a TL %a delta %a", (unsigned long long)seed, PU, QL, TL,
                      delta);
    }
    mpfr_clears(x, y, (mpfr_ptr)0);
}
END_TEST

/* the advanced composition from e0 against sqrt(2 T ln(2/delta)) e0 + T e0
 * (e^e0 - 1) at HP: free of the slack of e0's search; e0 = 0 (s = 0) too */
START_TEST(compose_adv)
{
    frng_t rng;
    const uint64_t seed = tu_rng_start(&rng, 20261204u, 65);
    mpfr_t x, y;
    mpfr_inits2(HP, x, y, (mpfr_ptr)0);
    for (int i = 0; i < tu_effort(2000); i++) {
        const double e0 = i % 8 == 0 ? 0 : 1e-4 * exp(11 * (double)frng_u53(&rng) * 0x1p-53);
        const double Td = (double)(1 + frng_u53(&rng) % (1ul << (1 + frng_u53(&rng) % 40)));
        const double delta = exp(-30 * (double)frng_u53(&rng) * 0x1p-53) * 0.9;
        const double a = ffi_pdm_compose_adv(e0, Td, delta);
        mpfr_set_d(x, delta, MPFR_RNDN);
        mpfr_ui_div(x, 2, x, MPFR_RNDN);
        mpfr_log(x, x, MPFR_RNDN);
        mpfr_mul_d(x, x, 2 * Td, MPFR_RNDN);
        mpfr_sqrt(x, x, MPFR_RNDN);
        mpfr_mul_d(x, x, e0, MPFR_RNDN);         /* sqrt(2 T ln(2/delta)) e0 */
        mpfr_set_d(y, e0, MPFR_RNDN);
        mpfr_expm1(y, y, MPFR_RNDN);
        mpfr_mul_d(y, y, e0, MPFR_RNDN);
        mpfr_mul_d(y, y, Td, MPFR_RNDN);
        mpfr_add(x, x, y, MPFR_RNDN);
        ck_assert_msg(mpfr_cmp_d(x, a) <= 0, "seed %llu: adv %a below (e0 %a T %a delta %a)", (unsigned long long)seed,
                      a, e0, Td, delta);
    }
    mpfr_clears(x, y, (mpfr_ptr)0);
}
END_TEST

Suite *suite_fedpdm_fast_acct_stages(void)
{
    Suite *s = suite_create("fedpdm_fast_acct_stages");
    TCase *tc = tcase_create("decision");
    tcase_add_test(tc, cert_args);
    tcase_add_test(tc, phi_bounds);
    tcase_add_test(tc, T_and_certificate);
    tcase_add_test(tc, compose_adv);
    tcase_add_test(tc, eps_cert_near_root);
    suite_add_tcase(s, tc);
    return s;
}
