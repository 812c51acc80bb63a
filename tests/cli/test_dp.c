/* SPDX-License-Identifier: Apache-2.0 */
/* test_dp.c -- `fedref dp` as an auditor meets it: the command is run
 * (the fedref beside this test binary, or $FEDREF_CLI), its JSON parsed,
 * and every printed figure checked against values computed here,
 * independently, with ref at 200-256 bits:
 *   - K = N: T Gaussian rounds are one Gaussian at sigma/sqrt(T): the
 *     printed eps satisfies the analytic Gaussian's condition at
 *     sigma/sqrt(T) (fr_gauss_dp_check HOLDS), the printed eps_lower
 *     violates it (FAILS), and the two are within 2 units of the 12th digit;
 *   - K of N (the JSON line of docs/DP.md) with --accountant rdp: the
 *     printed eps >= fr_fedpdm_rdp at 200 bits and within 1e-9 of it;
 *     fast's printed eps >= it too;
 *   - the same line with pld (fast): eps = eps_pld, eps_lower <= eps, both
 *     in the reference interval of docs/DP.md section 8 and eps below the
 *     200-bit RDP value;
 *   - rounding direction: cases where round-to-nearest differs from the
 *     safe direction (eps: nearest is below the value; eps_lower: nearest
 *     is above the true epsilon), so that a formatter to nearest fails;
 *   - dp sigma: eps at the printed sigma <= E, at sigma (1 - 1e-6) > E
 *     (the least sigma to that tolerance); for K = N the printed sigma
 *     meets (E, delta) at sigma/sqrt(T) by fr_gauss_dp_check;
 *   - dp laplace: delta(eps) <= delta for the optimal composition (its 16
 *     outcome counts enumerated), eps within 1e-6 of the least such, and
 *     at most the basic sum; eps_lower <= eps;
 *   - bad input: exit 2, one line naming the option, nothing on stdout. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fedref.h"
#include "fedref/fedpdm.h"

Suite *suite_cli_dp(void);

#define HP 256

static char cli_path[PATH_MAX];

static const char *cli(void)
{
    const char *e = getenv("FEDREF_CLI");
    if (e && *e) return e;
    ssize_t n = readlink("/proc/self/exe", cli_path, sizeof cli_path - 16);
    ck_assert_msg(n > 0, "cannot find the test binary's directory");
    cli_path[n] = '\0';
    char *slash = strrchr(cli_path, '/');
    strcpy(slash ? slash + 1 : cli_path, "fedref");
    ck_assert_msg(access(cli_path, X_OK) == 0, "no fedref beside the tests (%s): build it (make)", cli_path);
    return cli_path;
}

/* stdout of `fedref dp ARGS` (stderr to /dev/null) into out; exit code */
static int run(char *out, size_t n, const char *args)
{
    char cmd[PATH_MAX + 2048];
    snprintf(cmd, sizeof cmd, "'%s' dp %s 2>/dev/null", cli(), args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t len = fread(out, 1, n - 1, p);
    out[len] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* the decimal string of "key":"..." in a JSON line into v (0), or -1 when
 * the key is null or missing */
static int field(char *v, size_t n, const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(json, pat);
    if (p == NULL) return -1;
    p += strlen(pat);
    const char *q = strchr(p, '"');
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_lt((size_t)(q - p), n);
    memcpy(v, p, (size_t)(q - p));
    v[q - p] = '\0';
    return 0;
}

/* x = the decimal s rounded in direction r at HP bits */
static void dec(mpfr_t x, const char *s, mpfr_rnd_t r)
{
    char *end;
    mpfr_strtofr(x, s, &end, 10, r);
    ck_assert_msg(*end == '\0' && s[0] != '\0', "not a decimal: '%s'", s);
}

/* the verdict of (eps, delta)-DP for one Gaussian release at sigma/sqrt(T),
 * s = 1, every input rounded toward r_sig (sigma), computed here */
static int verdict_at(const char *eps, mpfr_rnd_t r_eps, const char *sigma, unsigned long T, mpfr_rnd_t r_sig)
{
    mpfr_t e, d, s, sg, q, lo, hi;
    mpfr_inits2(HP, e, d, s, sg, q, lo, hi, (mpfr_ptr)0);
    dec(e, eps, r_eps);
    dec(d, "1e-5", r_sig == MPFR_RNDD ? MPFR_RNDD : MPFR_RNDU);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    dec(sg, sigma, r_sig);
    mpfr_set_ui(q, T, MPFR_RNDN);
    mpfr_sqrt(q, q, r_sig == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD);
    mpfr_div(sg, sg, q, r_sig);                       /* sigma / sqrt(T) */
    int v = 99;
    ck_assert_int_eq(fr_gauss_dp_check(&v, lo, hi, e, d, s, sg), FR_OK);
    mpfr_clears(e, d, s, sg, q, lo, hi, (mpfr_ptr)0);
    return v;
}

START_TEST(kn_is_one_gaussian)
{
    static const char *const sig[] = {"48.448052626", "4.8448052626", "0.69211503752"};
    char out[8192], args[512], e[128], l[128];
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "eps --sigma %s --sensitivity 1 --rounds 300 --clients 100 --sampled 100 "
                 "--delta 1e-5 --digits 12 --json", sig[i]);
        ck_assert_int_eq(run(out, sizeof out, args), 0);
        ck_assert_int_eq(field(e, sizeof e, out, "eps"), 0);
        ck_assert_int_eq(field(l, sizeof l, out, "eps_lower"), 0);
        /* printed eps >= the exact epsilon: the condition holds there,
         * at the smallest sigma the decimal can mean */
        ck_assert_int_eq(verdict_at(e, MPFR_RNDD, sig[i], 300, MPFR_RNDD), FR_GAUSS_HOLDS);
        /* printed eps_lower < the exact epsilon: the condition fails */
        ck_assert_int_eq(verdict_at(l, MPFR_RNDU, sig[i], 300, MPFR_RNDU), FR_GAUSS_FAILS);
        /* within the stated accuracy: 12 digits, each side one unit */
        mpfr_t a, b;
        mpfr_inits2(HP, a, b, (mpfr_ptr)0);
        dec(a, e, MPFR_RNDU);
        dec(b, l, MPFR_RNDD);
        ck_assert(mpfr_lessequal_p(b, a));
        mpfr_sub(b, a, b, MPFR_RNDU);
        mpfr_div(b, b, a, MPFR_RNDU);
        ck_assert_msg(mpfr_cmp_d(b, 2e-11) <= 0, "eps %s and eps_lower %s are not within 2e-11", e, l);
        mpfr_clears(a, b, (mpfr_ptr)0);
    }
}
END_TEST

/* the 200-bit RDP value of the JSON line of docs/DP.md */
static void rdp200(mpfr_t v, const char *sigma, unsigned long K)
{
    mpfr_t sg, s, d;
    unsigned long al;
    mpfr_inits2(200, sg, s, d, (mpfr_ptr)0);
    dec(sg, sigma, MPFR_RNDN);
    mpfr_set_ui(s, 1, MPFR_RNDN);
    dec(d, "1e-5", MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_rdp(v, &al, sg, s, K, 100, 300, d, 256), FR_OK);
    mpfr_clears(sg, s, d, (mpfr_ptr)0);
}

START_TEST(k_of_n_upper)
{
    const char *line = "eps --sigma 4.844805262605389421 --sensitivity 1 --rounds 300 --clients 100 "
                       "--sampled 5 --delta 1e-5 --json --accountant rdp";
    char out[8192], args[512], e[128], buf[128];
    mpfr_t v, x, y;
    mpfr_inits2(HP, v, x, y, (mpfr_ptr)0);
    mpfr_set_prec(v, 200);
    rdp200(v, "4.844805262605389421", 5);
    for (int impl = 0; impl < 2; impl++) {
        snprintf(args, sizeof args, "%s%s", line, impl ? " --impl fast" : "");
        ck_assert_int_eq(run(out, sizeof out, args), 0);
        ck_assert_int_eq(field(e, sizeof e, out, "eps"), 0);
        ck_assert_int_eq(field(buf, sizeof buf, out, "eps_lower"), -1);   /* none: null */
        ck_assert_ptr_nonnull(strstr(out, "\"eps_lower\":null"));
        dec(x, e, MPFR_RNDD);
        ck_assert_msg(mpfr_greaterequal_p(x, v), "printed eps %s below ref at 200 bits", e);
        mpfr_mul_d(y, v, 1 + 1e-9, MPFR_RNDU);
        ck_assert_msg(mpfr_lessequal_p(x, y), "printed eps %s not within 1e-9 of ref", e);
    }
    /* the direction pinned: to nearest, 10 digits, the value would print
     * below itself here */
    mpfr_snprintf(buf, sizeof buf, "%.10RNg", v);
    dec(x, buf, MPFR_RNDU);
    ck_assert_msg(mpfr_less_p(x, v), "the case does not tell the rounding directions apart (%s)", buf);
    mpfr_clears(v, x, y, (mpfr_ptr)0);
}
END_TEST

START_TEST(k_of_n_pld)
{
    char out[8192], e[128], p[128], l[128];
    mpfr_t v, x, y;
    mpfr_inits2(200, v, x, y, (mpfr_ptr)0);
    rdp200(v, "4.844805262605389421", 5);
    ck_assert_int_eq(run(out, sizeof out, "eps --sigma 4.844805262605389421 --sensitivity 1 --rounds 300 "
                                          "--clients 100 --sampled 5 --delta 1e-5 --json --impl fast"), 0);
    ck_assert_int_eq(field(e, sizeof e, out, "eps"), 0);
    ck_assert_int_eq(field(p, sizeof p, out, "eps_pld"), 0);
    ck_assert_int_eq(field(l, sizeof l, out, "eps_lower"), 0);
    ck_assert_str_eq(e, p);
    dec(x, e, MPFR_RNDD);
    dec(y, l, MPFR_RNDU);
    ck_assert_msg(mpfr_lessequal_p(y, x) && mpfr_less_p(x, v), "eps_lower %s, eps %s, rdp above", l, e);
    ck_assert_msg(mpfr_cmp_d(x, 0.648) >= 0 && mpfr_cmp_d(x, 0.724 * 1.1) <= 0, "eps %s outside the interval", e);
    ck_assert_msg(mpfr_cmp_d(y, 0.724) <= 0, "eps_lower %s above 0.724", l);
    mpfr_clears(v, x, y, (mpfr_ptr)0);
}
END_TEST

START_TEST(lower_direction)
{
    /* K = N, sigma 4.8448052626: eps_lower printed to 10 digits; to
     * nearest it would be at or above the true epsilon */
    char out[8192], l[128], rn[128];
    ck_assert_int_eq(run(out, sizeof out, "eps --sigma 4.8448052626 --sensitivity 1 --rounds 300 --delta 1e-5 "
                                          "--json"), 0);
    ck_assert_int_eq(field(l, sizeof l, out, "eps_lower"), 0);
    ck_assert_int_eq(verdict_at(l, MPFR_RNDU, "4.8448052626", 300, MPFR_RNDU), FR_GAUSS_FAILS);
    mpfr_t e, sg, s, d;
    mpfr_inits2(200, e, sg, s, d, (mpfr_ptr)0);
    dec(sg, "4.8448052626", MPFR_RNDN);
    mpfr_set_ui(s, 300, MPFR_RNDN);
    mpfr_sqrt(s, s, MPFR_RNDN);
    mpfr_div(sg, sg, s, MPFR_RNDN);                   /* sigma / sqrt(T) */
    mpfr_set_ui(s, 1, MPFR_RNDN);
    dec(d, "1e-5", MPFR_RNDN);
    ck_assert_int_eq(fr_fedpdm_gauss_eps(e, sg, s, d), FR_OK);
    mpfr_snprintf(rn, sizeof rn, "%.10RNg", e);
    ck_assert_msg(verdict_at(rn, MPFR_RNDD, "4.8448052626", 300, MPFR_RNDD) == FR_GAUSS_HOLDS,
                  "the case does not tell the rounding directions apart (%s)", rn);
    mpfr_clears(e, sg, s, d, (mpfr_ptr)0);
}
END_TEST

START_TEST(sigma_is_least)
{
    static const char *const set[] = {
        "--eps 10 --sensitivity 1 --rounds 300 --clients 100 --sampled 5 --first-full 1 --delta 1e-5 --alpha-max 64 "
        "--accountant rdp",
        "--eps 1 --sensitivity 1 --rounds 300 --delta 1e-5 --accountant exact",
        "--eps 1 --sensitivity 1 --rounds 300 --clients 100 --sampled 5 --delta 1e-5 --accountant pld --impl fast",
    };
    static const char *const E[] = {"10", "1", "1"};
    char out[8192], args[1024], sg[128], e[128], s2[128], sgkn[128] = "";
    mpfr_t x, y;
    mpfr_inits2(HP, x, y, (mpfr_ptr)0);
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "sigma %s --json", set[i]);
        ck_assert_int_eq(run(out, sizeof out, args), 0);
        ck_assert_int_eq(field(sg, sizeof sg, out, "sigma"), 0);
        const char *rest = strstr(set[i], "--sensitivity");
        /* eps at the printed sigma <= E */
        snprintf(args, sizeof args, "eps --sigma %s %s --json", sg, rest);
        ck_assert_int_eq(run(out, sizeof out, args), 0);
        ck_assert_int_eq(field(e, sizeof e, out, "eps"), 0);
        dec(x, e, MPFR_RNDU);
        ck_assert_msg(mpfr_cmp_ui(x, i ? 1 : 10) <= 0, "eps %s at the printed sigma %s > %s", e, sg, E[i]);
        if (i == 1) snprintf(sgkn, sizeof sgkn, "%s", sg);
        /* at sigma (1 - 1e-6), printed rounded down: > E */
        dec(y, sg, MPFR_RNDD);
        mpfr_mul_d(y, y, 1 - 1e-6, MPFR_RNDD);
        mpfr_snprintf(s2, sizeof s2, "%.15RDg", y);
        snprintf(args, sizeof args, "eps --sigma %s %s --json", s2, rest);
        ck_assert_int_eq(run(out, sizeof out, args), 0);
        ck_assert_int_eq(field(e, sizeof e, out, "eps"), 0);
        dec(x, e, MPFR_RNDD);
        ck_assert_msg(mpfr_cmp_ui(x, i ? 1 : 10) > 0, "eps %s at sigma %s is still <= %s: not the least", e, s2,
                      E[i]);
    }
    /* K = N: the printed sigma meets (1, 1e-5) at sigma/sqrt(300), computed here */
    ck_assert_int_eq(verdict_at("1", MPFR_RNDN, sgkn, 300, MPFR_RNDD), FR_GAUSS_HOLDS);
    mpfr_clears(x, y, (mpfr_ptr)0);
}
END_TEST

/* delta(e) of 3 releases of RR_{1/80} and 3 of RR_{1/40} (binomial counts
 * a, b of +1; weights e^eps / (1 + e^eps) and 1 / (1 + e^eps)), at HP bits */
static double rr_delta(mpfr_srcptr e)
{
    static const int C3[4] = {1, 3, 3, 1};
    mpfr_t d, t, w, L, e1, e2;
    mpfr_inits2(HP, d, t, w, L, e1, e2, (mpfr_ptr)0);
    mpfr_set_zero(d, 1);
    for (int a = 0; a <= 3; a++)
        for (int b = 0; b <= 3; b++) {
            mpfr_set_ui(e1, 1, MPFR_RNDN);
            mpfr_div_ui(e1, e1, 80, MPFR_RNDN);
            mpfr_mul_2ui(e2, e1, 1, MPFR_RNDN);
            mpfr_mul_si(L, e1, 2 * a - 3, MPFR_RNDN);
            mpfr_mul_si(t, e2, 2 * b - 3, MPFR_RNDN);
            mpfr_add(L, L, t, MPFR_RNDN);
            if (mpfr_lessequal_p(L, e)) continue;
            /* weight: C3[a] C3[b] e^{a e1 + b e2} / ((1 + e^e1)^3 (1 + e^e2)^3) */
            mpfr_mul_ui(w, e1, (unsigned long)a, MPFR_RNDN);
            mpfr_mul_ui(t, e2, (unsigned long)b, MPFR_RNDN);
            mpfr_add(w, w, t, MPFR_RNDN);
            mpfr_exp(w, w, MPFR_RNDN);
            mpfr_mul_ui(w, w, (unsigned long)(C3[a] * C3[b]), MPFR_RNDN);
            mpfr_exp(t, e1, MPFR_RNDN);
            mpfr_add_ui(t, t, 1, MPFR_RNDN);
            mpfr_pow_ui(t, t, 3, MPFR_RNDN);
            mpfr_div(w, w, t, MPFR_RNDN);
            mpfr_exp(t, e2, MPFR_RNDN);
            mpfr_add_ui(t, t, 1, MPFR_RNDN);
            mpfr_pow_ui(t, t, 3, MPFR_RNDN);
            mpfr_div(w, w, t, MPFR_RNDN);
            mpfr_sub(t, e, L, MPFR_RNDN);
            mpfr_expm1(t, t, MPFR_RNDN);
            mpfr_mul(t, t, w, MPFR_RNDN);
            mpfr_sub(d, d, t, MPFR_RNDN);
        }
    double r = mpfr_get_d(d, MPFR_RNDN);
    mpfr_clears(d, t, w, L, e1, e2, (mpfr_ptr)0);
    return r;
}

START_TEST(laplace)
{
    char out[8192], e[128], l[128];
    ck_assert_int_eq(run(out, sizeof out, "laplace --scale 40,20 --sensitivity 0.5 --uploads 3 --delta 1e-5 "
                                          "--json"), 0);
    ck_assert_int_eq(field(e, sizeof e, out, "eps"), 0);
    ck_assert_int_eq(field(l, sizeof l, out, "eps_lower"), 0);
    mpfr_t x, y;
    mpfr_inits2(HP, x, y, (mpfr_ptr)0);
    /* the optimal composition of 3 uploads at 1/80 and 3 at 1/40: the
     * hockey-stick divergence of randomized response at eps (the printed
     * one, and 1e-6 below it) by its 16 outcome counts */
    dec(x, e, MPFR_RNDU);
    ck_assert_msg(rr_delta(x) <= 1e-5, "delta(eps %s) above 1e-5", e);
    mpfr_mul_d(y, x, 1 - 1e-6, MPFR_RNDN);
    ck_assert_msg(rr_delta(y) > 1e-5, "eps %s not within 1e-6 of the least", e);
    mpfr_set_ui(y, 9, MPFR_RNDN);
    mpfr_div_ui(y, y, 80, MPFR_RNDU);                 /* basic: 3 (0.5/40 + 0.5/20) = 9/80 */
    ck_assert_msg(mpfr_lessequal_p(x, y), "eps %s above the basic sum 9/80", e);
    dec(y, l, MPFR_RNDU);
    ck_assert(mpfr_lessequal_p(y, x));
    /* eps_lower: the largest upload's exact eps at delta, 0.5/20 + 2 ln(1 - 1e-5),
     * rounded down to 10 digits */
    dec(x, "-1e-5", MPFR_RNDN);
    mpfr_log1p(x, x, MPFR_RNDN);
    mpfr_mul_2ui(x, x, 1, MPFR_RNDN);
    mpfr_add_d(x, x, 0.025, MPFR_RNDN);
    ck_assert_msg(mpfr_lessequal_p(y, x), "eps_lower %s above the largest upload's eps", l);
    mpfr_mul_d(x, x, 1 - 1e-9, MPFR_RNDN);
    ck_assert_msg(mpfr_greaterequal_p(y, x), "eps_lower %s not within 1e-9 of the largest upload's eps", l);
    mpfr_clears(x, y, (mpfr_ptr)0);
}
END_TEST

START_TEST(bad_input)
{
    static const char *const bad[] = {
        "eps --sigma nan --sensitivity 1 --rounds 3 --delta 1e-5",
        "eps --sigma -1 --sensitivity 1 --rounds 3 --delta 1e-5",
        "eps --sigma 1 --sensitivity 1 --rounds 3 --delta 1e-5 --clients 4 --sampled 5",
        "eps --sigma 1 --sensitivity 1 --rounds 3 --delta 1",
        "eps --sigma 1 --sensitivity 1 --rounds 3 --delta 0",
        "eps --sigma 1 --sensitivity 1 --rounds 0 --delta 1e-5",
        "eps --sigma 1 --sensitivity 1 --rounds 1099511627777 --delta 1e-5",
        "eps --sigma 1 --sensitivity 1 --rounds 2000000 --delta 1e-5 --clients 9 --sampled 3 --first-full 1",
        "sigma --eps -1 --sensitivity 1 --rounds 3 --delta 1e-5",
        "laplace --scale 0 --sensitivity 1 --delta 1e-5",
    };
    char out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(run(out, sizeof out, bad[i]), 2);
        ck_assert_msg(out[0] == '\0', "fedref dp %s printed on stdout: %s", bad[i], out);
    }
}
END_TEST

Suite *suite_cli_dp(void)
{
    Suite *s = suite_create("cli_dp");
    TCase *tc = tcase_create("dp");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, kn_is_one_gaussian);
    tcase_add_test(tc, k_of_n_upper);
    tcase_add_test(tc, k_of_n_pld);
    tcase_add_test(tc, lower_direction);
    tcase_add_test(tc, sigma_is_least);
    tcase_add_test(tc, laplace);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}
