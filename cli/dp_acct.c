/* SPDX-License-Identifier: Apache-2.0 */
/* dp_acct.c -- the numbers of `fedref dp` (dp.h; docs/DP.md), from the
 * accountants of libfedref (ref: MPFR at the stated precision, directed
 * rounding) and libfedfast (fast: binary64 upper bounds by outward
 * factors).  Nothing here is an accountant of its own: every epsilon is a
 * library call, or a library call at inputs rounded to the safe side.
 *
 * Inputs: each decimal is read twice, rounded toward the side that raises
 *   epsilon (sigma and delta down, the sensitivity up) for the upper bounds
 *   and toward the other side for the lower bound: both then hold for the
 *   decimal numbers the user wrote, not only for their binary values.
 * RDP: fr_fedpdm_rdp (every round alike and subsampled, or K = N) or
 *   fr_fedpdm_rdp_rounds (a rounds file, --first-full): Wang, Balle &
 *   Kasiviswanathan 2019 Thm 9 and Mironov 2017 Prop. 3 (docs/FEDPDM.md 3.3).
 * Exact (every round with all N clients): T Gaussian releases, round t of
 *   sensitivity s_t and noise sigma_t, compose to one Gaussian release with
 *   s/sigma = a = sqrt(sum_t (s_t/sigma_t)^2) (the privacy loss of the
 *   composition is the sum of independent N(mu_t, 2 mu_t), mu_t = a_t^2/2:
 *   N(a^2/2, a^2), the loss of one release of ratio a; docs/FEDPDM.md 3.1),
 *   whose epsilon fr_fedpdm_gauss_eps gives (Balle & Wang 2018 Thm 8, an
 *   if-and-only-if): an upper bound at a rounded up.
 * PLD (fr_fedpdm_pld_rounds / ff_fedpdm_pld_rounds): the upper bound at
 *   the inputs rounded toward more privacy loss; its lower bound (the
 *   achievable pair of the subsampled rounds) at the inputs rounded the
 *   other way, a second call.
 * Lower bound: the larger of the PLD's and of the rounds released with all N clients alone (all T when
 *   K = N, the first R otherwise; dropping the other rounds is
 *   post-processing), a rounded down: the largest candidate below the
 *   certified upper value at which fr_gauss_dp_check certifies FAILS
 *   (delta(e) > delta: the true epsilon is above e).  It is a lower bound
 *   of the epsilon of every mechanism of sensitivity s_t that attains s_t
 *   (the worst case the upper bound covers). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dp.h"
#include "fedref.h"
#include "fedfast.h"
#include "fedref/fedpdm.h"
#include "fedref/fedepm.h"
#include "fedfast/fedpdm.h"
#include "fedfast/fedepm.h"

int dp_parse(mpfr_ptr x, const char *s, mpfr_rnd_t rnd)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == ' ' || *s == '\t' || *s == '\n')
        return -1;
    mpfr_strtofr(x, s, &end, 10, rnd);
    return *end == '\0' ? 0 : -1;
}

void dp_gauss_out_init(dp_gauss_out *o, mpfr_prec_t prec)
{
    memset(o, 0, sizeof *o);
    mpfr_inits2(prec, o->rdp, o->exact, o->pld, o->eps, o->lower, (mpfr_ptr)0);
}

void dp_gauss_out_clear(dp_gauss_out *o)
{
    mpfr_clears(o->rdp, o->exact, o->pld, o->eps, o->lower, (mpfr_ptr)0);
}

static int lib_status(int st, const char *what)
{
    if (st == FR_OK) return 0;
    char msg[128];
    snprintf(msg, sizeof msg, "the accountant returned %s", fr_strerror(st));
    cli_error(msg, what);
    return 2;
}

/* ---- ref ------------------------------------------------------------------ */

/* lo = a certified lower bound of the epsilon of one Gaussian release of
 * ratio a at delta (0 when none is found): candidates below the upper
 * value, each certified by fr_gauss_dp_check. */
static int lower_ref(mpfr_ptr lo, mpfr_srcptr a, mpfr_srcptr delta, mpfr_prec_t p)
{
    mpfr_t one, e, c, mlo, mhi;
    mpfr_inits2(p, one, e, c, mlo, mhi, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    int st = fr_fedpdm_gauss_eps(e, one, a, delta);
    mpfr_set_zero(lo, 1);
    for (long k = 0; st == FR_OK && mpfr_sgn(e) > 0 && k < p - 4; k++) {
        mpfr_set_ui_2exp(c, 1, k - (p - 4), MPFR_RNDN);
        mpfr_ui_sub(c, 1, c, MPFR_RNDN);
        mpfr_mul(c, c, e, MPFR_RNDD);                 /* a candidate: certified below */
        int v = FR_GAUSS_UNKNOWN;
        st = fr_gauss_dp_check(&v, mlo, mhi, c, delta, a, one);
        if (st == FR_OK && v == FR_GAUSS_FAILS) {
            mpfr_set(lo, c, MPFR_RNDD);
            break;
        }
    }
    mpfr_clears(one, e, c, mlo, mhi, (mpfr_ptr)0);
    return st;
}

/* The ratio a^2 = sum_t (s_t/sigma_t)^2 over rounds [0, n) (dir > 0 up
 * from sigma down and s up; dir < 0 down), sqrt in the same direction. */
static void ratio_ref(mpfr_ptr a, mpfr_t *sig, mpfr_t *s, size_t rows, unsigned long n, int dir)
{
    mpfr_rnd_t r = dir > 0 ? MPFR_RNDU : MPFR_RNDD;
    mpfr_t q;
    mpfr_init2(q, mpfr_get_prec(a));
    mpfr_set_zero(a, 1);
    for (unsigned long t = 0; t < (rows ? n : 1); t++) {
        mpfr_div(q, s[t], sig[t], r);
        mpfr_sqr(q, q, r);
        if (!rows) mpfr_mul_ui(q, q, n, r);
        mpfr_add(a, a, q, r);
    }
    mpfr_sqrt(a, a, r);
    mpfr_clear(q);
}

static int gauss_ref(dp_gauss_out *o, const dp_gauss_in *in, const char *sig_str, mpfr_srcptr sig_at)
{
    const mpfr_prec_t p = in->prec, wp = p + 64;
    const size_t n = in->rows ? in->rows : 1;
    const int sub = in->K < in->N;
    mpfr_t *sg = malloc(4 * n * sizeof *sg), ddn, dup;
    if (sg == NULL) { cli_error("out of memory", "dp"); return 2; }
    mpfr_t *sgu = sg + n, *sup = sg + 2 * n, *sdn = sg + 3 * n;   /* sg: sigma down */
    for (size_t t = 0; t < 4 * n; t++) mpfr_init2(sg[t], p);
    mpfr_inits2(p, ddn, dup, (mpfr_ptr)0);
    for (size_t t = 0; t < n; t++) {
        if (sig_at) {
            mpfr_set(sg[t], sig_at, MPFR_RNDD);
            mpfr_set(sgu[t], sig_at, MPFR_RNDU);
        } else {
            const char *x = sig_str ? sig_str : in->sigma[t];
            dp_parse(sg[t], x, MPFR_RNDD);
            dp_parse(sgu[t], x, MPFR_RNDU);
        }
        dp_parse(sup[t], in->sens[t], MPFR_RNDU);
        dp_parse(sdn[t], in->sens[t], MPFR_RNDD);
    }
    dp_parse(ddn, in->delta, MPFR_RNDD);
    dp_parse(dup, in->delta, MPFR_RNDU);
    int rc = 0;
    if (in->acct & DP_ACCT_RDP) {
        if (!in->rows && (in->R == 0 || !sub) && !in->improved) {
            rc = lib_status(fr_fedpdm_rdp(o->rdp, &o->alpha, sg[0], sup[0], in->K, in->N, in->T, ddn,
                                          in->amax), "RDP");
        } else {
            mpfr_t *a = in->rows ? NULL : malloc(2 * in->T * sizeof *a);
            if (!in->rows && a == NULL) { cli_error("out of memory", "dp"); rc = 2; }
            if (a) {
                for (unsigned long t = 0; t < 2 * in->T; t++) {
                    mpfr_init2(a[t], p);
                    mpfr_set(a[t], t < in->T ? sg[0] : sup[0], MPFR_RNDN);
                }
            }
            if (rc == 0 && in->improved)
                rc = lib_status(fr_fedpdm_rdp_rounds_improved(o->rdp, &o->alpha, a ? a : sg, a ? a + in->T : sup,
                                                              in->T, in->R, in->K, in->N, ddn, in->amax), "RDP");
            else if (rc == 0)
                rc = lib_status(fr_fedpdm_rdp_rounds(o->rdp, &o->alpha, a ? a : sg, a ? a + in->T : sup,
                                                     in->T, in->R, in->K, in->N, ddn, in->amax), "RDP");
            if (a) {
                for (unsigned long t = 0; t < 2 * in->T; t++) mpfr_clear(a[t]);
                free(a);
            }
        }
        o->have_rdp = rc == 0;
    }
    mpfr_t r;
    mpfr_init2(r, wp);
    if (rc == 0 && (in->acct & DP_ACCT_EXACT) && !sub) {
        ratio_ref(r, sg, sup, in->rows, in->T, 1);
        mpfr_t one;
        mpfr_init2(one, p);
        mpfr_set_ui(one, 1, MPFR_RNDN);
        rc = lib_status(fr_fedpdm_gauss_eps(o->exact, one, r, ddn), "exact Gaussian");
        mpfr_clear(one);
        o->have_exact = rc == 0;
    }
    o->lower_rounds = in->no_lower ? 0 : sub ? in->R : in->T;
    if (rc == 0 && o->lower_rounds > 0) {
        ratio_ref(r, sgu, sdn, in->rows, o->lower_rounds, -1);
        rc = lib_status(lower_ref(o->lower, r, dup, p), "lower bound");
        o->have_lower = rc == 0;
    }
    if (rc == 0 && dp_pld_applies(in)) {
        /* T entries each way: sigma down / s up (upper), sigma up / s down (lower) */
        mpfr_t *a = malloc(4 * in->T * sizeof *a), l, u;
        if (a == NULL) { cli_error("out of memory", "dp"); rc = 2; }
        for (unsigned long t = 0; a && t < in->T; t++) {
            const size_t j = in->rows ? t : 0;
            mpfr_init2(a[t], p), mpfr_init2(a[in->T + t], p);
            mpfr_init2(a[2 * in->T + t], p), mpfr_init2(a[3 * in->T + t], p);
            mpfr_set(a[t], sg[j], MPFR_RNDN);
            mpfr_set(a[in->T + t], sup[j], MPFR_RNDN);
            mpfr_set(a[2 * in->T + t], sgu[j], MPFR_RNDN);
            mpfr_set(a[3 * in->T + t], sdn[j], MPFR_RNDN);
        }
        if (a) {
            mpfr_inits2(p, l, u, (mpfr_ptr)0);
            rc = lib_status(fr_fedpdm_pld_rounds(o->pld, NULL, a, a + in->T, in->T, in->R, in->K, in->N, ddn), "PLD");
            o->have_pld = rc == 0;
            if (rc == 0 && !in->no_lower) {
                rc = lib_status(fr_fedpdm_pld_rounds(u, l, a + 2 * in->T, a + 3 * in->T, in->T, in->R, in->K, in->N,
                                                     dup), "PLD lower bound");
                if (rc == 0 && (!o->have_lower || mpfr_greater_p(l, o->lower))) {
                    mpfr_set(o->lower, l, MPFR_RNDD);
                    o->have_lower = 1;
                    o->pld_lower = 1;
                }
            }
            mpfr_clears(l, u, (mpfr_ptr)0);
            for (unsigned long t = 0; t < 4 * in->T; t++) mpfr_clear(a[t]);
            free(a);
        }
    }
    mpfr_clear(r);
    for (size_t t = 0; t < 4 * n; t++) mpfr_clear(sg[t]);
    free(sg);
    mpfr_clears(ddn, dup, (mpfr_ptr)0);
    return rc;
}

/* ---- fast ----------------------------------------------------------------- */

static double parse_d(const char *s, mpfr_rnd_t rnd)
{
    mpfr_t x;
    mpfr_init2(x, 53);
    dp_parse(x, s, rnd);
    double d = mpfr_get_d(x, MPFR_RNDN);             /* exact */
    mpfr_clear(x);
    return d;
}

/* a as ratio_ref in binary64: the sum of n positive terms (3 roundings
 * each) is within (n + 8) 2^-52 relative of the exact one, widened by that
 * and an absolute 2^-1000 (underflow); sqrt then one more factor. */
static double ratio_fast(const double *sig, const double *s, size_t rows, unsigned long n, int dir)
{
    double sum = 0, q;
    for (unsigned long t = 0; t < (rows ? n : 1); t++) {
        q = s[t] / sig[t];
        q *= q;
        sum += rows ? q : q * (double)n;
    }
    double rel = ((double)(rows ? n : 1) + 8) * 0x1p-52;
    if (dir > 0) return sqrt(sum * (1 + rel) + 0x1p-1000) * (1 + 0x1p-50);
    double d = sum * (1 - rel) - 0x1p-1000;
    return d > 0 ? sqrt(d) * (1 - 0x1p-50) : 0;
}

static int lower_fast(double *lo, double a, double delta)
{
    double e;
    int st = ff_fedpdm_gauss_eps(&e, 1.0, a, delta);
    *lo = 0;
    for (int k = 0; st == FR_OK && e > 0 && k < 48; k++) {
        double c = e * (1 - ldexp(1, k - 48)), mlo, mhi;
        int v = FR_GAUSS_UNKNOWN;
        if (!(c > 0)) break;
        st = ff_gauss_dp_check(&v, &mlo, &mhi, c, delta, a, 1.0);
        if (st == FR_OK && v == FR_GAUSS_FAILS) { *lo = c; break; }
    }
    return st;
}

static int gauss_fast(dp_gauss_out *o, const dp_gauss_in *in, const char *sig_str, mpfr_srcptr sig_at)
{
    const size_t n = in->rows ? in->rows : 1;
    const int sub = in->K < in->N;
    const size_t len = in->rows ? n : ((in->R > 0 && sub) || in->improved ? in->T : 1);
    double *v = malloc(4 * (len > n ? len : n) * sizeof *v);
    if (v == NULL) { cli_error("out of memory", "dp"); return 2; }
    double *sg = v, *sgu = v + len, *sup = v + 2 * len, *sdn = v + 3 * len;
    for (size_t t = 0; t < len; t++) {
        if (t > 0 && !in->rows) {                      /* every round alike */
            sg[t] = sg[0], sgu[t] = sgu[0], sup[t] = sup[0], sdn[t] = sdn[0];
            continue;
        }
        if (sig_at) {
            sg[t] = mpfr_get_d(sig_at, MPFR_RNDD);
            sgu[t] = mpfr_get_d(sig_at, MPFR_RNDU);
        } else {
            const char *x = sig_str ? sig_str : in->sigma[t];
            sg[t] = parse_d(x, MPFR_RNDD);
            sgu[t] = parse_d(x, MPFR_RNDU);
        }
        sup[t] = parse_d(in->sens[t], MPFR_RNDU);
        sdn[t] = parse_d(in->sens[t], MPFR_RNDD);
    }
    const double ddn = parse_d(in->delta, MPFR_RNDD), dup = parse_d(in->delta, MPFR_RNDU);
    int rc = 0;
    double e;
    if (in->acct & DP_ACCT_RDP) {
        if (in->improved)
            rc = lib_status(ff_fedpdm_rdp_rounds_improved(&e, &o->alpha, sg, sup, in->T, in->R, in->K, in->N, ddn,
                                                          in->amax), "RDP");
        else if (!in->rows && (in->R == 0 || !sub))
            rc = lib_status(ff_fedpdm_rdp(&e, &o->alpha, sg[0], sup[0], in->K, in->N, in->T, ddn, in->amax),
                            "RDP");
        else
            rc = lib_status(ff_fedpdm_rdp_rounds(&e, &o->alpha, sg, sup, in->T, in->R, in->K, in->N, ddn,
                                                 in->amax), "RDP");
        if (rc == 0) mpfr_set_d(o->rdp, e, MPFR_RNDU);
        o->have_rdp = rc == 0;
    }
    const size_t rows = len == 1 ? 0 : len;
    const double aup = sub ? 0 : ratio_fast(sg, sup, rows, in->T, 1);
    if (rc == 0 && !isfinite(aup)) {
        cli_error("sqrt(sum_t (s_t/sigma_t)^2) is beyond binary64 (use --impl ref)", "--impl fast");
        free(v);
        return 2;
    }
    if (rc == 0 && (in->acct & DP_ACCT_EXACT) && !sub) {
        rc = lib_status(ff_fedpdm_gauss_eps(&e, 1.0, aup, ddn),
                        "exact Gaussian");
        if (rc == 0) mpfr_set_d(o->exact, e, MPFR_RNDU);
        o->have_exact = rc == 0;
    }
    o->lower_rounds = in->no_lower ? 0 : sub ? in->R : in->T;
    if (rc == 0 && o->lower_rounds > 0) {
        rc = lib_status(lower_fast(&e, ratio_fast(sgu, sdn, rows, o->lower_rounds, -1), dup), "lower bound");
        if (rc == 0) mpfr_set_d(o->lower, e, MPFR_RNDD);
        o->have_lower = rc == 0;
    }
    if (rc == 0 && dp_pld_applies(in)) {
        double *a = malloc(4 * in->T * sizeof *a), l, u;
        if (a == NULL) { cli_error("out of memory", "dp"); rc = 2; }
        for (unsigned long t = 0; a && t < in->T; t++) {
            const size_t j = len == 1 ? 0 : t;
            a[t] = sg[j], a[in->T + t] = sup[j], a[2 * in->T + t] = sgu[j], a[3 * in->T + t] = sdn[j];
        }
        if (a) {
            rc = lib_status(ff_fedpdm_pld_rounds(&e, NULL, a, a + in->T, in->T, in->R, in->K, in->N, ddn), "PLD");
            if (rc == 0) mpfr_set_d(o->pld, e, MPFR_RNDU);
            o->have_pld = rc == 0;
            if (rc == 0 && !in->no_lower) {
                rc = lib_status(ff_fedpdm_pld_rounds(&u, &l, a + 2 * in->T, a + 3 * in->T, in->T, in->R, in->K, in->N,
                                                     dup), "PLD lower bound");
                if (rc == 0 && (!o->have_lower || mpfr_cmp_d(o->lower, l) < 0)) {
                    mpfr_set_d(o->lower, l, MPFR_RNDD);
                    o->have_lower = 1;
                    o->pld_lower = 1;
                }
            }
            free(a);
        }
    }
    free(v);
    return rc;
}

/* ---- both ------------------------------------------------------------------ */

static int gauss_eval(dp_gauss_out *o, const dp_gauss_in *in, const char *sig_str, mpfr_srcptr sig_at)
{
    o->have_rdp = o->have_exact = o->have_lower = o->have_pld = o->pld_lower = 0;
    int rc = in->fast ? gauss_fast(o, in, sig_str, sig_at) : gauss_ref(o, in, sig_str, sig_at);
    if (rc != 0) return rc;
    o->best = 0;
    if (o->have_rdp) {
        mpfr_set(o->eps, o->rdp, MPFR_RNDU);
        o->best = DP_ACCT_RDP;
    }
    if (o->have_exact && (!o->best || mpfr_less_p(o->exact, o->eps))) {
        mpfr_set(o->eps, o->exact, MPFR_RNDU);
        o->best = DP_ACCT_EXACT;
    }
    if (o->have_pld && (!o->best || mpfr_less_p(o->pld, o->eps))) {
        mpfr_set(o->eps, o->pld, MPFR_RNDU);
        o->best = DP_ACCT_PLD;
    }
    if (!o->best) {
        cli_error("no accountant applies (exact needs every round with all clients)", "--accountant");
        return 2;
    }
    return 0;
}

int dp_pld_applies(const dp_gauss_in *in)
{
    if (!(in->acct & DP_ACCT_PLD) || in->T > DP_PLD_ROUNDS_MAX) return 0;
    /* all: only where the exact composition does not apply (subsampled rounds) */
    return in->acct != DP_ACCT_ALL || in->K < in->N;
}

int dp_gauss_eval(dp_gauss_out *o, const dp_gauss_in *in, const char *sigma)
{
    return gauss_eval(o, in, sigma, NULL);
}

int dp_gauss_eval_at(dp_gauss_out *o, const dp_gauss_in *in, mpfr_srcptr sigma)
{
    return gauss_eval(o, in, NULL, sigma);
}

/* ---- Laplace uploads --------------------------------------------------------- */

void dp_laplace_out_init(dp_laplace_out *o, mpfr_prec_t prec)
{
    memset(o, 0, sizeof *o);
    mpfr_inits2(prec, o->basic, o->adv, o->tight, o->eps, o->lower, (mpfr_ptr)0);
}

void dp_laplace_out_clear(dp_laplace_out *o)
{
    mpfr_clears(o->basic, o->adv, o->tight, o->eps, o->lower, (mpfr_ptr)0);
}

/* Upload j is pure eps_j-DP, eps_j = S_j/nu_j (docs/FEDEPM.md 9), composed
 * by fr_dp_compose / ff_dp_compose_upper (basic: pure; advanced: at delta)
 * and fr_dp_compose_tight / ff_dp_compose_tight_upper (the optimal
 * composition, at delta); eps is the least of the three.
 * Lower: one upload of a one-dimensional query attaining S_j has the exact
 * profile delta(e) = 1 - e^{(e - eps_j)/2} (0 <= e <= eps_j), so its
 * epsilon at delta is eps_j + 2 ln(1 - delta); the run's is at least the
 * largest of these (post-processing), and at least 0. */
int dp_laplace_eval(dp_laplace_out *o, const dp_laplace_in *in)
{
    const mpfr_prec_t p = in->fast ? 53 : in->prec;
    mpfr_t *e = malloc(in->k * sizeof *e), a, b, ddn, dup, l;
    if (e == NULL) { cli_error("out of memory", "dp"); return 2; }
    mpfr_inits2(p + 64, a, b, l, (mpfr_ptr)0);
    mpfr_inits2(p, ddn, dup, (mpfr_ptr)0);
    dp_parse(ddn, in->delta, MPFR_RNDD);
    dp_parse(dup, in->delta, MPFR_RNDU);
    mpfr_set_inf(o->lower, -1);
    for (size_t j = 0; j < in->k; j++) {
        mpfr_init2(e[j], p);
        dp_parse(a, in->sens[j], MPFR_RNDU);
        dp_parse(b, in->scale[j], MPFR_RNDD);
        mpfr_div(e[j], a, b, MPFR_RNDU);
        dp_parse(a, in->sens[j], MPFR_RNDD);
        dp_parse(b, in->scale[j], MPFR_RNDU);
        mpfr_div(a, a, b, MPFR_RNDD);
        if (mpfr_greater_p(a, o->lower)) mpfr_set(o->lower, a, MPFR_RNDD);
    }
    mpfr_neg(b, dup, MPFR_RNDN);
    mpfr_log1p(l, b, MPFR_RNDD);                      /* ln(1 - delta), down */
    mpfr_mul_2ui(l, l, 1, MPFR_RNDD);
    mpfr_add(o->lower, o->lower, l, MPFR_RNDD);
    if (mpfr_sgn(o->lower) < 0) mpfr_set_zero(o->lower, 1);
    int rc;
    if (in->fast) {
        double *d = malloc(in->k * sizeof *d), bs, ad;
        if (d == NULL) { cli_error("out of memory", "dp"); rc = 2; }
        else {
            for (size_t j = 0; j < in->k; j++) d[j] = mpfr_get_d(e[j], MPFR_RNDU);
            double ti;
            rc = lib_status(ff_dp_compose_upper(&bs, &ad, d, in->k, mpfr_get_d(ddn, MPFR_RNDD)), "composition");
            if (rc == 0)
                rc = lib_status(ff_dp_compose_tight_upper(&ti, d, in->k, mpfr_get_d(ddn, MPFR_RNDD)),
                                "optimal composition");
            if (rc == 0) {
                mpfr_set_d(o->basic, bs, MPFR_RNDU);
                mpfr_set_d(o->adv, ad, MPFR_RNDU);
                mpfr_set_d(o->tight, ti, MPFR_RNDU);
            }
            free(d);
        }
    } else {
        rc = lib_status(fr_dp_compose(o->basic, o->adv, e, in->k, ddn, MPFR_RNDU), "composition");
        if (rc == 0)
            rc = lib_status(fr_dp_compose_tight(o->tight, e, in->k, ddn), "optimal composition");
    }
    if (rc == 0) {
        o->best = mpfr_less_p(o->adv, o->basic);
        if (mpfr_less_p(o->tight, o->best ? o->adv : o->basic)) o->best = 2;
        mpfr_set(o->eps, o->best == 2 ? o->tight : o->best ? o->adv : o->basic, MPFR_RNDU);
    }
    for (size_t j = 0; j < in->k; j++) mpfr_clear(e[j]);
    free(e);
    mpfr_clears(a, b, l, ddn, dup, (mpfr_ptr)0);
    return rc;
}
