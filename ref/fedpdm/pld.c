/* SPDX-License-Identifier: Apache-2.0 */
/* pld.c -- fr_fedpdm_pld_rounds: the privacy-loss-distribution accountant
 * of T rounds of the K-of-N (without replacement) subsampled Gaussian
 * mechanism, replace-one, certified (docs/DP.md section 3; contract:
 * fedref/fedpdm.h).
 *
 * Upper bound.  One round with mu = s/sigma, q = K/N is dominated by the
 * symmetric pair whose privacy profile is H(e) = max(d_AB(e), d_BA(e))
 * (Dong, Roth & Su 2022, Thm 4.2, for f_q = T(B, A), B = N(0,1), A = (1-q)
 * N(0,1) + q N(mu,1)):
 *   d_AB(e) = q dG(log(1 + (e^e - 1)/q)),
 *   d_BA(e) = (1 - (1-q) e^e) dG(log(q e^e / (1 - (1-q) e^e))), 0 if
 *             (1-q) e^e >= 1,
 *   dG(x) = Phi(-x/mu + mu/2) - e^x Phi(-x/mu - mu/2)      (q = 1: H = dG).
 * On the grid e_i = i h (i = 0..m), a_i = e^{e_i}, H convex decreasing in
 * a: its chord interpolation lies above it (connect-the-dots, Doroshenko et
 * al. 2022).  The loss distribution whose profile is that chord: masses
 * w_i = a_i (s_{i+1} - s_i) at loss e_i, w_{-i} = s_{i+1} - s_i at -e_i
 * (s_i the chord slope on [a_{i-1}, a_i], s_{m+1} = 0), w_inf = H(e_m),
 * w_0 = 1 - w_inf - sum (w_i + w_{-i}).  Every mass is an upper bound (H
 * enclosed by fri_pdm_delta_eps_encl, interval arithmetic rounded outward);
 * larger masses only raise the composed profile, which is
 *   delta_T(eps) = sum_{kh > eps} W_k (1 - e^{eps - kh}) + W_inf,
 * W the T-fold convolution (FFT at wp bits, every composed mass raised by
 * the a-priori bound of the FFT error, Higham 2002 Thm 24.2, carried
 * through the powers), W_inf = 1 - prod (1 - w_inf,t).  eps is the least e
 * with delta_T(e) <= delta: on each grid cell delta_T = A - e^e B, solved
 * in closed form, rounded up.
 * Lower bound.  The pair (A, B) itself is realised in every round (the
 * replaced client contributes mu, the others 0); its loss L(x) = log(1 - q
 * + q e^{mu x - mu^2/2}) is increasing in x, so each cell (g_j, g_{j+1}] of
 * the loss has the mass F(x_{j+1}) - F(x_j) at the thresholds; put at g_j
 * (rounded down, masses rounded down, mass below the grid dropped) and
 * composed (FFT bound subtracted), its profile is below the true one of
 * A^T vs B^T (and, the other order, B^T vs A^T); eps_lower is the largest
 * e with that profile above delta, rounded down. */
#include <stdlib.h>
#include "../internal.h"
#include "fedref/fedpdm.h"
#include "enclosures.h"
#include "acct.h"
#include "pld.h"

#define PLD_S_MAX ((size_t)1 << 19)     /* composed grid points (FFT length <= 2^19) */
#define PLD_M_MAX 2048ul                /* grid target: points per side of the narrowest round */

typedef struct {
    mpfr_t lo, hi;
} iv;

typedef struct {                        /* a run of equal rounds */
    unsigned long T, m;
    int sub;                            /* q = K/N (else q = 1) */
    mpfr_srcptr s, sigma;
} pld_group;

typedef struct {
    mpfr_prec_t wp;
    mpfr_t alo, ahi, qlo, qhi, plo, phi, r2lo, r2hi, h;
} pld_ctx;

static void iv_init(iv *x, mpfr_prec_t p)
{
    mpfr_inits2(p, x->lo, x->hi, (mpfr_ptr)0);
}
static void iv_clear(iv *x)
{
    mpfr_clears(x->lo, x->hi, (mpfr_ptr)0);
}

/* c's values at c->wp bits, 1/sqrt 2 enclosed */
static void ctx_init(pld_ctx *c)
{
    mpfr_inits2(c->wp, c->alo, c->ahi, c->qlo, c->qhi, c->plo, c->phi, c->r2lo, c->r2hi, c->h, (mpfr_ptr)0);
    mpfr_set_ui(c->r2lo, 2, MPFR_RNDN);
    mpfr_rec_sqrt(c->r2lo, c->r2lo, MPFR_RNDD);
    mpfr_set_ui(c->r2hi, 2, MPFR_RNDN);
    mpfr_rec_sqrt(c->r2hi, c->r2hi, MPFR_RNDU);
}
static void ctx_clear(pld_ctx *c)
{
    mpfr_clears(c->alo, c->ahi, c->qlo, c->qhi, c->plo, c->phi, c->r2lo, c->r2hi, c->h, (mpfr_ptr)0);
}

/* c: a = s/sigma, q = K/N (or 1), p = 1 - q, each enclosed */
static void ctx_group(pld_ctx *c, const pld_group *g, unsigned long K, unsigned long N)
{
    mpfr_div(c->alo, g->s, g->sigma, MPFR_RNDD);
    mpfr_div(c->ahi, g->s, g->sigma, MPFR_RNDU);
    const unsigned long k = g->sub ? K : N;
    mpfr_set_ui(c->qlo, k, MPFR_RNDD);
    mpfr_div_ui(c->qlo, c->qlo, N, MPFR_RNDD);
    mpfr_set_ui(c->qhi, k, MPFR_RNDU);
    mpfr_div_ui(c->qhi, c->qhi, N, MPFR_RNDU);
    mpfr_ui_sub(c->plo, 1, c->qhi, MPFR_RNDD);
    mpfr_ui_sub(c->phi, 1, c->qlo, MPFR_RNDU);
    if (mpfr_sgn(c->plo) < 0)
        mpfr_set_zero(c->plo, 1);
}

/* [lo, hi] contains dG(x) for every x in [xl, xh] (dG decreasing) */
static void dg_encl(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr xl, mpfr_srcptr xh, const pld_ctx *c)
{
    mpfr_t t;
    mpfr_init2(t, c->wp);
    fri_pdm_delta_eps_encl(lo, t, xh, c->alo, c->ahi, c->r2lo, c->r2hi, c->wp);
    fri_pdm_delta_eps_encl(t, hi, xl, c->alo, c->ahi, c->r2lo, c->r2hi, c->wp);
    if (mpfr_sgn(lo) < 0)
        mpfr_set_zero(lo, 1);
    if (mpfr_cmp_ui(hi, 1) > 0)
        mpfr_set_ui(hi, 1, MPFR_RNDN);
    mpfr_clear(t);
}

/* d_AB's argument: x contains log1p((t - 1)/q) for every t in [t->lo, t->hi] */
static void ab_arg(iv *x, const iv *t, const pld_ctx *c)
{
    mpfr_sub_ui(x->lo, t->lo, 1, MPFR_RNDD);
    mpfr_div(x->lo, x->lo, mpfr_sgn(x->lo) >= 0 ? c->qhi : c->qlo, MPFR_RNDD);
    mpfr_log1p(x->lo, x->lo, MPFR_RNDD);
    mpfr_sub_ui(x->hi, t->hi, 1, MPFR_RNDU);
    mpfr_div(x->hi, x->hi, mpfr_sgn(x->hi) >= 0 ? c->qlo : c->qhi, MPFR_RNDU);
    mpfr_log1p(x->hi, x->hi, MPFR_RNDU);
}

/* d_BA's factor and argument: cc contains 1 - p t, and (kind 2: cc->lo >
 * 0) x contains log(q t / (1 - p t)), for every t in [t->lo, t->hi];
 * kind 0: cc->hi <= 0, kind 1: cc->lo <= 0 < cc->hi */
static int ba_arg(iv *cc, iv *x, const iv *t, const pld_ctx *c)
{
    mpfr_mul(cc->lo, c->phi, t->hi, MPFR_RNDU);
    mpfr_ui_sub(cc->lo, 1, cc->lo, MPFR_RNDD);
    mpfr_mul(cc->hi, c->plo, t->lo, MPFR_RNDD);
    mpfr_ui_sub(cc->hi, 1, cc->hi, MPFR_RNDU);
    if (mpfr_sgn(cc->hi) <= 0)
        return 0;
    if (mpfr_sgn(cc->lo) <= 0)
        return 1;
    mpfr_mul(x->lo, c->qlo, t->lo, MPFR_RNDD);
    mpfr_div(x->lo, x->lo, cc->hi, MPFR_RNDD);
    mpfr_log(x->lo, x->lo, MPFR_RNDD);
    mpfr_mul(x->hi, c->qhi, t->hi, MPFR_RNDU);
    mpfr_div(x->hi, x->hi, cc->lo, MPFR_RNDU);
    mpfr_log(x->hi, x->hi, MPFR_RNDU);
    return 2;
}

/* H = max(q d_AB, b) enclosed, d_AB in *da; b = 0 (kind 0), in [0, cc->hi]
 * (kind 1, dG <= 1), cc db (kind 2, d_BA's dG in *db) */
static void h_join(iv *H, const iv *da, const iv *db, const iv *cc, int kind, const pld_ctx *c)
{
    iv b;
    iv_init(&b, c->wp);
    mpfr_mul(H->lo, da->lo, c->qlo, MPFR_RNDD);
    mpfr_mul(H->hi, da->hi, c->qhi, MPFR_RNDU);
    mpfr_set_zero(b.lo, 1);
    mpfr_set_zero(b.hi, 1);
    if (kind == 1) {
        mpfr_set(b.hi, cc->hi, MPFR_RNDU);
    } else if (kind == 2) {
        mpfr_mul(b.lo, db->lo, cc->lo, MPFR_RNDD);
        mpfr_mul(b.hi, db->hi, cc->hi, MPFR_RNDU);
    }
    mpfr_max(H->lo, H->lo, b.lo, MPFR_RNDD);
    mpfr_max(H->hi, H->hi, b.hi, MPFR_RNDU);
    iv_clear(&b);
}

/* H(e) enclosed, e >= 0 exact; t = e^e enclosed by the caller */
static void h_encl(iv *H, mpfr_srcptr e, const iv *t, int sub, const pld_ctx *c)
{
    const mpfr_prec_t wp = c->wp;
    if (!sub) {
        dg_encl(H->lo, H->hi, e, e, c);
        return;
    }
    iv x, da, db, cc;
    iv_init(&x, wp), iv_init(&da, wp), iv_init(&db, wp), iv_init(&cc, wp);
    ab_arg(&x, t, c);
    dg_encl(da.lo, da.hi, x.lo, x.hi, c);
    const int kind = ba_arg(&cc, &x, t, c);
    if (kind == 2)
        dg_encl(db.lo, db.hi, x.lo, x.hi, c);
    h_join(H, &da, &db, &cc, kind, c);
    iv_clear(&x), iv_clear(&da), iv_clear(&db), iv_clear(&cc);
}

/* upper bound of H(e) at e >= 0 (exact) */
static void h_upper(mpfr_ptr r, mpfr_srcptr e, int sub, const pld_ctx *c)
{
    iv ee, He;
    iv_init(&ee, c->wp), iv_init(&He, c->wp);
    mpfr_exp(ee.lo, e, MPFR_RNDD);
    mpfr_exp(ee.hi, e, MPFR_RNDU);
    h_encl(&He, e, &ee, sub, c);
    mpfr_set(r, He.hi, MPFR_RNDU);
    iv_clear(&ee), iv_clear(&He);
}

/* L: a loss (a dyadic number) with H(L) <= tol certified, near the least */
static void tail_point(mpfr_ptr L, mpfr_srcptr tol, int sub, const pld_ctx *c)
{
    mpfr_t e, lo, r;
    mpfr_inits2(c->wp, e, lo, r, (mpfr_ptr)0);
    mpfr_set_ui_2exp(e, 1, -40, MPFR_RNDN);
    for (;;) {
        h_upper(r, e, sub, c);
        if (mpfr_lessequal_p(r, tol) || mpfr_cmp_ui(e, 1u << 20) > 0)
            break;
        mpfr_mul_2ui(e, e, 1, MPFR_RNDN);
    }
    mpfr_div_2ui(lo, e, 1, MPFR_RNDN);
    for (int k = 0; k < 8; k++) {                       /* (lo, e]: e certified */
        mpfr_add(L, lo, e, MPFR_RNDN);
        mpfr_div_2ui(L, L, 1, MPFR_RNDN);
        h_upper(r, L, sub, c);
        if (mpfr_lessequal_p(r, tol))
            mpfr_set(e, L, MPFR_RNDN);
        else
            mpfr_set(lo, L, MPFR_RNDN);
    }
    mpfr_set(L, e, MPFR_RNDN);
    mpfr_clears(e, lo, r, (mpfr_ptr)0);
}

/* the grid: a[i] contains e^{i h} and H[i] contains H(i h), i <= m */
static void grid(iv *H, iv *a, unsigned long m, int sub, const pld_ctx *c)
{
    mpfr_t e;
    mpfr_init2(e, c->wp);
    for (unsigned long i = 0; i <= m; i++) {
        mpfr_mul_ui(e, c->h, i, MPFR_RNDN);            /* exact: h dyadic, i small */
        mpfr_exp(a[i].lo, e, MPFR_RNDD);
        mpfr_exp(a[i].hi, e, MPFR_RNDU);
        if (H)
            h_encl(&H[i], e, &a[i], sub, c);
    }
    mpfr_clear(e);
}

/* the chord's masses at wp bits from the enclosures H[i] of H(e_i) and a[i]
 * of a_i (H convex decreasing in a) into x[0..2m] (index m + i: loss i h),
 * with winf (upper and lower); FR_EINTERNAL if the atom at 0 is certified
 * negative */
static int chord(mpfr_t *x, mpfr_ptr winf_hi, mpfr_ptr winf_lo, const iv *H, const iv *a, unsigned long m,
                 mpfr_prec_t wp)
{
    mpfr_t d1, d2, sl, sh, nl, nh, tl, th, sum;
    mpfr_inits2(wp, d1, d2, sl, sh, nl, nh, tl, th, sum, (mpfr_ptr)0);
    /* slope s_i on [a_{i-1}, a_i] enclosed in [sl, sh]; s_{m+1} = 0.  Walk i
     * = m..1 keeping s_{i+1} in [nl, nh]; Delta_i = s_{i+1} - s_i >= 0 */
    mpfr_set_zero(nl, 1);
    mpfr_set_zero(nh, 1);
    mpfr_set_zero(sum, 1);
    for (unsigned long i = m; i >= 1; i--) {
        mpfr_sub(d1, a[i].lo, a[i - 1].hi, MPFR_RNDD);   /* a_i - a_{i-1} lower */
        mpfr_sub(d2, a[i].hi, a[i - 1].lo, MPFR_RNDU);   /* upper */
        mpfr_sub(tl, H[i].lo, H[i - 1].hi, MPFR_RNDD);
        mpfr_sub(th, H[i].hi, H[i - 1].lo, MPFR_RNDU);
        if (mpfr_sgn(d1) <= 0) {                          /* cannot happen at wp >= 64 */
            mpfr_set_inf(sl, -1);
            mpfr_set_inf(sh, 1);
        } else {
            mpfr_div(sl, tl, mpfr_sgn(tl) >= 0 ? d2 : d1, MPFR_RNDD);
            mpfr_div(sh, th, mpfr_sgn(th) >= 0 ? d1 : d2, MPFR_RNDU);
        }
        mpfr_sub(tl, nl, sh, MPFR_RNDD);                  /* Delta_i lower */
        mpfr_sub(th, nh, sl, MPFR_RNDU);                  /* Delta_i upper */
        if (mpfr_sgn(tl) < 0)
            mpfr_set_zero(tl, 1);                         /* H convex in a: Delta_i >= 0 */
        mpfr_set(x[m - i], th, MPFR_RNDU);                /* w_{-i} */
        mpfr_mul(x[m + i], th, a[i].hi, MPFR_RNDU);       /* w_i */
        mpfr_add(sum, sum, tl, MPFR_RNDD);
        mpfr_mul(tl, tl, a[i].lo, MPFR_RNDD);
        mpfr_add(sum, sum, tl, MPFR_RNDD);
        mpfr_set(nl, sl, MPFR_RNDN);
        mpfr_set(nh, sh, MPFR_RNDN);
    }
    mpfr_set(winf_hi, H[m].hi, MPFR_RNDU);
    mpfr_set(winf_lo, H[m].lo, MPFR_RNDD);
    mpfr_add(sum, sum, H[m].lo, MPFR_RNDD);
    mpfr_ui_sub(x[m], 1, sum, MPFR_RNDU);                 /* w_0 upper */
    int st = mpfr_sgn(x[m]) < 0 ? FR_EINTERNAL : FR_OK;
    mpfr_clears(d1, d2, sl, sh, nl, nh, tl, th, sum, (mpfr_ptr)0);
    return st;
}

/* the upper PMF of one round into x[0..2m] (index m + i: loss i h), with
 * winf (upper and lower); FR_EINTERNAL if the atom at 0 is certified
 * negative */
static int pmf_upper(mpfr_t *x, mpfr_ptr winf_hi, mpfr_ptr winf_lo, unsigned long m, int sub,
                     const pld_ctx *c)
{
    iv *H = malloc((m + 2) * sizeof *H), *a = malloc((m + 2) * sizeof *a);
    if (H == NULL || a == NULL) {
        free(H), free(a);
        return FR_ENOMEM;
    }
    for (unsigned long i = 0; i <= m; i++)
        iv_init(&H[i], c->wp), iv_init(&a[i], c->wp);
    grid(H, a, m, sub, c);
    int st = chord(x, winf_hi, winf_lo, H, a, m, c->wp);
    for (unsigned long i = 0; i <= m; i++)
        iv_clear(&H[i]), iv_clear(&a[i]);
    free(H), free(a);
    return st;
}

/* the context of one round of m grid steps h (h dyadic; NULL: none) at wp
 * bits, for the white-box entry points of enclosures.h below */
static void ctx_round(pld_ctx *c, pld_group *g, unsigned long m, mpfr_srcptr s, mpfr_srcptr sigma,
                      unsigned long K, unsigned long N, mpfr_srcptr h, mpfr_prec_t wp)
{
    c->wp = wp;
    ctx_init(c);
    if (h) mpfr_set(c->h, h, MPFR_RNDN);                 /* exact */
    *g = (pld_group){1, m, K < N, s, sigma};
    ctx_group(c, g, K, N);
}

/* enclosures.h: H(e) enclosed at working precision wp */
void fri_pdm_pld_h_encl(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr e, mpfr_srcptr s, mpfr_srcptr sigma,
                        unsigned long K, unsigned long N, mpfr_prec_t wp)
{
    pld_ctx c;
    pld_group g;
    ctx_round(&c, &g, 0, s, sigma, K, N, NULL, wp);
    iv t, H;
    iv_init(&t, wp), iv_init(&H, wp);
    mpfr_exp(t.lo, e, MPFR_RNDD);
    mpfr_exp(t.hi, e, MPFR_RNDU);
    h_encl(&H, e, &t, g.sub, &c);
    mpfr_set(lo, H.lo, MPFR_RNDD);
    mpfr_set(hi, H.hi, MPFR_RNDU);
    iv_clear(&t), iv_clear(&H);
    ctx_clear(&c);
}

/* enclosures.h: ctx_group's enclosures at wp bits (outputs of precision
 * >= wp: the copies are exact) */
void fri_pdm_pld_ctx(mpfr_t *out, mpfr_srcptr s, mpfr_srcptr sigma, unsigned long K, unsigned long N,
                     mpfr_prec_t wp)
{
    pld_ctx c;
    pld_group g;
    ctx_round(&c, &g, 0, s, sigma, K, N, NULL, wp);
    mpfr_srcptr v[6] = {c.alo, c.ahi, c.qlo, c.qhi, c.plo, c.phi};
    for (int k = 0; k < 6; k++)
        mpfr_set(out[k], v[k], MPFR_RNDN);
    ctx_clear(&c);
}

/* enclosures.h: h_encl's arguments for q = K/N < 1 at wp bits, from t in
 * [tlo, thi]: out = {x_AB lo, hi, cc lo, hi, x_BA lo, hi} (precision >= wp);
 * returns ba_arg's kind */
int fri_pdm_pld_h_args(mpfr_t *out, mpfr_srcptr tlo, mpfr_srcptr thi, unsigned long K, unsigned long N,
                       mpfr_prec_t wp)
{
    pld_ctx c;
    pld_group g;
    mpfr_t one;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    ctx_round(&c, &g, 0, one, one, K, N, NULL, wp);
    iv t, x, cc, y;
    iv_init(&t, mpfr_get_prec(tlo) > mpfr_get_prec(thi) ? mpfr_get_prec(tlo) : mpfr_get_prec(thi));
    iv_init(&x, wp), iv_init(&cc, wp), iv_init(&y, wp);
    mpfr_set(t.lo, tlo, MPFR_RNDN);
    mpfr_set(t.hi, thi, MPFR_RNDN);
    ab_arg(&x, &t, &c);
    const int kind = ba_arg(&cc, &y, &t, &c);
    mpfr_srcptr v[6] = {x.lo, x.hi, cc.lo, cc.hi, y.lo, y.hi};
    for (int k = 0; k < (kind == 2 ? 6 : 4); k++)
        mpfr_set(out[k], v[k], MPFR_RNDN);
    iv_clear(&t), iv_clear(&x), iv_clear(&cc), iv_clear(&y);
    mpfr_clear(one);
    ctx_clear(&c);
    return kind;
}

/* enclosures.h: h_join at wp bits, in = {da lo, hi, db lo, hi, cc lo, hi},
 * out = {H lo, hi} (precision >= wp) */
void fri_pdm_pld_h_join(mpfr_t *out, mpfr_t *const in, int kind, unsigned long K, unsigned long N,
                        mpfr_prec_t wp)
{
    pld_ctx c;
    pld_group g;
    mpfr_t one;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    ctx_round(&c, &g, 0, one, one, K, N, NULL, wp);
    iv da = {{*in[0]}, {*in[1]}}, db = {{*in[2]}, {*in[3]}}, cc = {{*in[4]}, {*in[5]}}, H;
    iv_init(&H, wp);
    h_join(&H, &da, &db, &cc, kind, &c);
    mpfr_set(out[0], H.lo, MPFR_RNDN);
    mpfr_set(out[1], H.hi, MPFR_RNDN);
    iv_clear(&H);
    mpfr_clear(one);
    ctx_clear(&c);
}

/* enclosures.h: one round's upper PMF at working precision wp */
int fri_pdm_pld_pmf_upper(mpfr_t *x, mpfr_ptr winf_hi, mpfr_ptr winf_lo, unsigned long m, mpfr_srcptr s,
                          mpfr_srcptr sigma, unsigned long K, unsigned long N, mpfr_srcptr h, mpfr_prec_t wp)
{
    pld_ctx c;
    pld_group g;
    ctx_round(&c, &g, m, s, sigma, K, N, h, wp);
    int st = pmf_upper(x, winf_hi, winf_lo, m, g.sub, &c);
    ctx_clear(&c);
    return st;
}

/* enclosures.h: grid's a[i] (alo[i], ahi[i], of wp bits), i <= m */
void fri_pdm_pld_grid(mpfr_t *alo, mpfr_t *ahi, unsigned long m, mpfr_srcptr h, mpfr_prec_t wp)
{
    pld_ctx c;
    c.wp = wp;
    ctx_init(&c);
    mpfr_set(c.h, h, MPFR_RNDN);                        /* exact: a power of two */
    iv *a = malloc((m + 1) * sizeof *a);
    if (a != NULL) {
        for (unsigned long i = 0; i <= m; i++)
            iv_init(&a[i], wp);
        grid(NULL, a, m, 0, &c);
        for (unsigned long i = 0; i <= m; i++) {
            mpfr_swap(alo[i], a[i].lo);
            mpfr_swap(ahi[i], a[i].hi);
            iv_clear(&a[i]);
        }
        free(a);
    }
    ctx_clear(&c);
}

/* enclosures.h: chord at wp bits from H[i] in [Hlo[i], Hhi[i]], a_i in
 * [alo[i], ahi[i]] */
int fri_pdm_pld_chord(mpfr_t *x, mpfr_ptr winf_hi, mpfr_ptr winf_lo, mpfr_t *const Hlo, mpfr_t *const Hhi,
                      mpfr_t *const alo, mpfr_t *const ahi, unsigned long m, mpfr_prec_t wp)
{
    iv *H = malloc((m + 1) * sizeof *H), *a = malloc((m + 1) * sizeof *a);
    int st = FR_ENOMEM;
    if (H != NULL && a != NULL) {
        for (unsigned long i = 0; i <= m; i++) {
            H[i] = (iv){{*Hlo[i]}, {*Hhi[i]}};
            a[i] = (iv){{*alo[i]}, {*ahi[i]}};
        }
        st = chord(x, winf_hi, winf_lo, H, a, m, wp);
    }
    free(H), free(a);
    return st;
}

/* Phi(x) bounded below (dir < 0) or above (dir > 0); x may be -Inf */
static void phi_dir(mpfr_ptr r, mpfr_srcptr x, int dir, const pld_ctx *c)
{
    mpfr_t y;
    mpfr_init2(y, c->wp);
    if (dir > 0)
        mpfr_mul(y, x, mpfr_sgn(x) >= 0 ? c->r2hi : c->r2lo, MPFR_RNDU);
    else
        mpfr_mul(y, x, mpfr_sgn(x) >= 0 ? c->r2lo : c->r2hi, MPFR_RNDD);
    mpfr_neg(y, y, MPFR_RNDN);
    mpfr_erfc(r, y, dir > 0 ? MPFR_RNDU : MPFR_RNDD);
    mpfr_div_2ui(r, r, 1, dir > 0 ? MPFR_RNDU : MPFR_RNDD);
    mpfr_clear(y);
}

/* enclosures.h: phi_dir at wp bits (1/sqrt 2 enclosed at wp bits) */
void fri_pdm_pld_phi(mpfr_ptr r, mpfr_srcptr x, int dir, mpfr_prec_t wp)
{
    pld_ctx c;
    c.wp = wp;
    ctx_init(&c);
    phi_dir(r, x, dir, &c);
    ctx_clear(&c);
}

/* the threshold x(g) = (log((e^g - (1-q))/q) + a^2/2)/a enclosed (lower end
 * -Inf where e^g <= 1 - q may hold) */
static void thresh(iv *x, mpfr_srcptr g, const pld_ctx *c)
{
    mpfr_t t, z;
    mpfr_inits2(c->wp, t, z, (mpfr_ptr)0);
    for (int dir = -1; dir <= 1; dir += 2) {
        const mpfr_rnd_t r = dir > 0 ? MPFR_RNDU : MPFR_RNDD;
        mpfr_ptr out = dir > 0 ? x->hi : x->lo;
        mpfr_exp(t, g, r);
        mpfr_sub(t, t, dir > 0 ? c->plo : c->phi, r);
        if (mpfr_sgn(t) <= 0) {
            mpfr_set_inf(out, -1);
            continue;
        }
        mpfr_div(t, t, dir > 0 ? c->qlo : c->qhi, r);
        mpfr_log(t, t, r);
        mpfr_sqr(z, dir > 0 ? c->ahi : c->alo, r);
        mpfr_div_2ui(z, z, 1, r);
        mpfr_add(t, t, z, r);
        if (dir > 0)
            mpfr_div(out, t, mpfr_sgn(t) >= 0 ? c->alo : c->ahi, r);
        else
            mpfr_div(out, t, mpfr_sgn(t) >= 0 ? c->ahi : c->alo, r);
    }
    mpfr_clears(t, z, (mpfr_ptr)0);
}

/* F(x) = p Phi(x) + q Phi(x - a) (order 1: the law of x under A) or Phi(x)
 * (order 2: under B), bounded in direction dir at the end x of an enclosure */
static void cdf_dir(mpfr_ptr r, mpfr_srcptr x, int order, int dir, const pld_ctx *c)
{
    mpfr_t u, v;
    mpfr_inits2(c->wp, u, v, (mpfr_ptr)0);
    const mpfr_rnd_t rd = dir > 0 ? MPFR_RNDU : MPFR_RNDD;
    phi_dir(u, x, dir, c);
    if (order == 1) {
        mpfr_mul(u, u, dir > 0 ? c->phi : c->plo, rd);
        mpfr_sub(v, x, dir > 0 ? c->alo : c->ahi, rd);
        phi_dir(v, v, dir, c);
        mpfr_mul(v, v, dir > 0 ? c->qhi : c->qlo, rd);
        mpfr_add(u, u, v, rd);
    }
    mpfr_set(r, u, rd);
    mpfr_clears(u, v, (mpfr_ptr)0);
}

/* x <- a - b rounded down, a a lower bound of the larger CDF value, b an
 * upper bound of the smaller; top: 1 - b (order 1) or a (order 2), the
 * mass above the grid; clamped at 0 */
static void cell_mass(mpfr_ptr x, mpfr_srcptr a, mpfr_srcptr b, int top, int order)
{
    if (!top)
        mpfr_sub(x, a, b, MPFR_RNDD);
    else if (order == 1)
        mpfr_ui_sub(x, 1, b, MPFR_RNDD);
    else
        mpfr_set(x, a, MPFR_RNDD);
    if (mpfr_sgn(x) < 0)
        mpfr_set_zero(x, 1);
}

/* enclosures.h: cell_mass */
void fri_pdm_pld_cell_mass(mpfr_ptr x, mpfr_srcptr a, mpfr_srcptr b, int top, int order)
{
    cell_mass(x, a, b, top, order);
}

/* the lower PMF of one round, order 1 (loss L under A) or 2 (loss -L under
 * B), into x[0..2m] (index m + j: loss j h), masses rounded down */
static void pmf_lower(mpfr_t *x, unsigned long m, int order, const pld_ctx *c)
{
    iv th;
    iv_init(&th, c->wp);
    mpfr_t g, prev, cur;
    mpfr_inits2(c->wp, g, prev, cur, (mpfr_ptr)0);
    /* order 1: mass_j = F(x(g_{j+1})) - F(x(g_j)), top: 1 - F(x(g_m));
     * order 2: mass_j = Phi(x(-g_j)) - Phi(x(-g_{j+1})), top: Phi(x(-g_m)).
     * Walk j = m..-m; prev = the bound needed at the g_{j+1} side */
    for (long j = (long)m; j >= -(long)m; j--) {
        mpfr_mul_si(g, c->h, order == 1 ? j : -j, MPFR_RNDN);
        thresh(&th, g, c);
        if (order == 1) {
            cdf_dir(cur, th.hi, 1, 1, c);                  /* F(x(g_j)) upper */
            cell_mass(x[m + j], prev, cur, j == (long)m, 1);
            cdf_dir(prev, th.lo, 1, -1, c);                /* F(x(g_j)) lower, for j-1 */
        } else {
            cdf_dir(cur, th.lo, 2, -1, c);                 /* Phi(x(-g_j)) lower */
            cell_mass(x[m + j], cur, prev, j == (long)m, 2);
            cdf_dir(prev, th.hi, 2, 1, c);                 /* upper, for j-1 */
        }
    }
    iv_clear(&th);
    mpfr_clears(g, prev, cur, (mpfr_ptr)0);
}

/* enclosures.h: one round's lower loss distribution at working precision wp */
void fri_pdm_pld_pmf_lower(mpfr_t *x, unsigned long m, int order, mpfr_srcptr s, mpfr_srcptr sigma,
                           unsigned long K, unsigned long N, mpfr_srcptr h, mpfr_prec_t wp)
{
    pld_ctx c;
    pld_group g;
    ctx_round(&c, &g, m, s, sigma, K, N, h, wp);
    pmf_lower(x, m, order, &c);
    ctx_clear(&c);
}

/* (M, E) <- the bounds of the pointwise product of two computed spectra
 * with bounds (M, E) and (M2, E2) -- M >= max_k |z_k| of the exact
 * spectrum, E >= ||z^ - z||_2 (so |z^_k| <= M + E): M M2 and M E2 + (M2 +
 * E2) E + (M + E)(M2 + E2) r4, r4 = 4u sqrt(n) (one complex product per
 * point, |delta| <= 4u, n points) */
static void err_mul(mpfr_ptr M, mpfr_ptr E, mpfr_srcptr M2, mpfr_srcptr E2, mpfr_srcptr u4)
{
    mpfr_t a, b, r;
    mpfr_inits2(mpfr_get_prec(E), a, b, r, (mpfr_ptr)0);          /* 64 bits in compose */
    mpfr_add(a, M, E, MPFR_RNDU);
    mpfr_add(b, M2, E2, MPFR_RNDU);
    mpfr_mul(r, a, b, MPFR_RNDU);
    mpfr_mul(r, r, u4, MPFR_RNDU);
    mpfr_mul(a, M, E2, MPFR_RNDU);
    mpfr_add(r, r, a, MPFR_RNDU);
    mpfr_mul(a, b, E, MPFR_RNDU);
    mpfr_add(E, r, a, MPFR_RNDU);
    mpfr_mul(M, M, M2, MPFR_RNDU);
    mpfr_clears(a, b, r, (mpfr_ptr)0);
}

/* (zr, zi) <- (zr, zi)^T, binary powering (the chain err_pow mirrors) */
static void cpow_ui(mpfr_ptr zr, mpfr_ptr zi, unsigned long T, mpfr_t *tmp)
{
    mpfr_ptr rr = tmp[0], ri = tmp[1], a = tmp[2], b = tmp[3];
    mpfr_set_ui(rr, 1, MPFR_RNDN);
    mpfr_set_zero(ri, 1);
    for (;;) {
        if (T & 1) {
            mpfr_fmms(a, rr, zr, ri, zi, MPFR_RNDN);
            mpfr_fmma(b, rr, zi, ri, zr, MPFR_RNDN);
            mpfr_swap(rr, a);
            mpfr_swap(ri, b);
        }
        T >>= 1;
        if (T == 0)
            break;
        mpfr_fmms(a, zr, zr, zi, zi, MPFR_RNDN);
        mpfr_mul(b, zr, zi, MPFR_RNDN);
        mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
        mpfr_swap(zr, a);
        mpfr_swap(zi, b);
    }
    mpfr_swap(zr, rr);
    mpfr_swap(zi, ri);
}

static void err_pow(mpfr_ptr M, mpfr_ptr E, unsigned long T, mpfr_srcptr u4)
{
    mpfr_t rM, rE, bM, bE;
    mpfr_inits2(64, rM, rE, bM, bE, (mpfr_ptr)0);
    mpfr_set_ui(rM, 1, MPFR_RNDN);
    mpfr_set_zero(rE, 1);
    mpfr_set(bM, M, MPFR_RNDU);
    mpfr_set(bE, E, MPFR_RNDU);
    for (;;) {
        if (T & 1)
            err_mul(rM, rE, bM, bE, u4);
        T >>= 1;
        if (T == 0)
            break;
        mpfr_set(M, bM, MPFR_RNDU);
        mpfr_set(E, bE, MPFR_RNDU);
        err_mul(bM, bE, M, E, u4);
    }
    mpfr_set(M, rM, MPFR_RNDU);
    mpfr_set(E, rE, MPFR_RNDU);
    mpfr_clears(rM, rE, bM, bE, (mpfr_ptr)0);
}

/* enclosures.h: err_mul at the precision of E */
void fri_pdm_pld_err_mul(mpfr_ptr M, mpfr_ptr E, mpfr_srcptr M2, mpfr_srcptr E2, mpfr_srcptr u4)
{
    err_mul(M, E, M2, E2, u4);
}

/* enclosures.h: M1 >= ||x||_1, X2 >= ||x||_2 (x >= 0), at their precision */
void fri_pdm_pld_norms(mpfr_ptr M1, mpfr_ptr X2, mpfr_t *const x, size_t len)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(X2));
    mpfr_set_zero(M1, 1);
    mpfr_set_zero(X2, 1);
    for (size_t k = 0; k < len; k++) {
        mpfr_add(M1, M1, x[k], MPFR_RNDU);
        mpfr_sqr(t, x[k], MPFR_RNDU);
        mpfr_add(X2, X2, t, MPFR_RNDU);
    }
    mpfr_sqrt(X2, X2, MPFR_RNDU);
    mpfr_clear(t);
}

/* enclosures.h: E1 >= c sqrt(n) X2 (Thm 24.2's ||y^ - y||_2 <= c ||y||_2,
 * ||y||_2 = sqrt(n) ||x||_2), at E1's precision */
void fri_pdm_pld_spec_err(mpfr_ptr E1, mpfr_srcptr cn, size_t n, mpfr_srcptr X2)
{
    mpfr_t sq;
    mpfr_init2(sq, mpfr_get_prec(E1));
    mpfr_sqrt_ui(sq, (unsigned long)n, MPFR_RNDU);
    mpfr_mul(E1, cn, sq, MPFR_RNDU);
    mpfr_mul(E1, E1, X2, MPFR_RNDU);
    mpfr_clear(sq);
}

/* enclosures.h: EW >= E/sqrt n + c (M + E/sqrt n) (compose's header), at
 * EW's precision */
void fri_pdm_pld_ew(mpfr_ptr EW, mpfr_srcptr M, mpfr_srcptr E, mpfr_srcptr cn, size_t n)
{
    mpfr_t sq, e, t;
    mpfr_inits2(mpfr_get_prec(EW), sq, e, t, (mpfr_ptr)0);
    mpfr_sqrt_ui(sq, (unsigned long)n, MPFR_RNDD);
    mpfr_div(e, E, sq, MPFR_RNDU);                     /* E / sqrt n */
    mpfr_add(t, M, e, MPFR_RNDU);
    mpfr_mul(t, t, cn, MPFR_RNDU);
    mpfr_add(EW, e, t, MPFR_RNDU);
    mpfr_clears(sq, e, t, (mpfr_ptr)0);
}

typedef struct {
    size_t n;
    mpfr_t *re, *im, *wre, *wim, *wr, *wi, tmp[4];
    mpfr_t cn, u4, EW;                  /* 64-bit bounds */
} pld_fft;

/* compose the groups' PMFs (order 0: upper, 1, 2: lower) into f->re
 * (index k: loss (k - OFF) h, OFF = sum T_g m_g); f->EW >= ||w^ - w||_2,
 * the error of the composed masses (2-norm); winf_hi, winf_lo per group
 * (order 0).  The bounds: forward FFT of x, ||y^ - y||_2 <= c ||y||_2 =
 * c sqrt(n) ||x||_2 (Higham Thm 24.2) and max |y_k| <= ||x||_1; the powers
 * and products by err_mul; the inverse of z^ (computed, error E) divided
 * by n: ||w^ - w||_2 <= (||fl(F* z^) - F* z^||_2 + ||F*(z^ - z)||_2) / n
 * <= c (M + E / sqrt n) + E / sqrt n. */
static int compose(pld_fft *f, pld_group *gr, size_t ng, int order, pld_ctx *c, unsigned long K,
                   unsigned long N, mpfr_t *winf_hi, mpfr_t *winf_lo)
{
    const size_t n = f->n;
    mpfr_t M, E, M1, E1, X2;
    mpfr_inits2(64, M, E, M1, E1, X2, (mpfr_ptr)0);
    mpfr_set_ui(M, 1, MPFR_RNDN);
    mpfr_set_zero(E, 1);
    int st = FR_OK, first = 1;
    for (size_t g = 0; st == FR_OK && g < ng; g++) {
        if (gr[g].T == 0)
            continue;
        mpfr_t *xr = first ? f->re : f->wre, *xi = first ? f->im : f->wim;
        for (size_t k = 0; k < n; k++) {
            mpfr_set_zero(xr[k], 1);
            mpfr_set_zero(xi[k], 1);
        }
        ctx_group(c, &gr[g], K, N);
        if (order == 0)
            st = pmf_upper(xr, winf_hi[g], winf_lo[g], gr[g].m, gr[g].sub, c);
        else
            pmf_lower(xr, gr[g].m, order, c);
        fri_pdm_pld_norms(M1, X2, xr, 2 * gr[g].m + 1);
        fri_fft(xr, xi, n, 0, f->wr, f->wi);
        fri_pdm_pld_spec_err(E1, f->cn, n, X2);
        for (size_t k = 0; k < n; k++)
            cpow_ui(xr[k], xi[k], gr[g].T, f->tmp);
        err_pow(M1, E1, gr[g].T, f->u4);
        if (first) {
            mpfr_set(M, M1, MPFR_RNDU);
            mpfr_set(E, E1, MPFR_RNDU);
        } else {
            for (size_t k = 0; k < n; k++) {
                mpfr_fmms(f->tmp[0], f->re[k], xr[k], f->im[k], xi[k], MPFR_RNDN);
                mpfr_fmma(f->im[k], f->re[k], xi[k], f->im[k], xr[k], MPFR_RNDN);
                mpfr_swap(f->re[k], f->tmp[0]);
            }
            err_mul(M, E, M1, E1, f->u4);
        }
        first = 0;
    }
    if (st == FR_OK) {
        fri_fft(f->re, f->im, n, 1, f->wr, f->wi);
        unsigned long L = 0;
        while (((size_t)1 << L) < n)
            L++;
        for (size_t k = 0; k < n; k++)
            mpfr_div_2ui(f->re[k], f->re[k], L, MPFR_RNDN);   /* exact */
        fri_pdm_pld_ew(f->EW, M, E, f->cn, n);
    }
    mpfr_clears(M, E, M1, E1, X2, (mpfr_ptr)0);
    return st;
}

/* from the composed masses (f->re, error bound f->EW in 2-norm) and W_inf:
 * dir > 0 the least e with the upper profile <= delta, rounded up; dir < 0
 * the largest e with the lower profile > delta, rounded down (0 if none).
 * On a cell, the losses above e are a set J and 0 <= 1 - e^{e - l} <= 1,
 * so the error of sum_J w_l (1 - e^{e - l}) is at most EW sqrt(|J|)
 * (Cauchy-Schwarz). */
static void eps_from(mpfr_ptr out, const pld_fft *f, size_t OFF, mpfr_srcptr Winf, int dir,
                     mpfr_srcptr delta, const pld_ctx *c)
{
    const mpfr_prec_t wp = c->wp;
    const mpfr_rnd_t up = dir > 0 ? MPFR_RNDU : MPFR_RNDD, dn = dir > 0 ? MPFR_RNDD : MPFR_RNDU;
    mpfr_t A, B, w, e, t, D, Ae;
    mpfr_inits2(wp, A, B, w, e, t, D, Ae, (mpfr_ptr)0);
    mpfr_set(A, Winf, up);
    mpfr_set_zero(B, 1);
    if (dir > 0 && mpfr_greater_p(A, delta)) {
        mpfr_set_inf(out, 1);
        goto done;
    }
    size_t i0 = 0;
    for (size_t i = OFF; i >= 1; i--) {
        mpfr_set(w, f->re[OFF + i], MPFR_RNDN);            /* the mass at loss i h */
        mpfr_add(A, A, w, up);
        mpfr_sqrt_ui(t, (unsigned long)(OFF - i + 1), up);
        mpfr_mul(t, t, f->EW, up);
        if (dir > 0)
            mpfr_add(Ae, A, t, MPFR_RNDU);                  /* A + EW sqrt |J| */
        else
            mpfr_sub(Ae, A, t, MPFR_RNDD);
        mpfr_mul_ui(e, c->h, (unsigned long)i, MPFR_RNDN);
        mpfr_neg(e, e, MPFR_RNDN);
        /* sum w e^{-loss}, against dir (w^ may be negative: the factor's
         * direction follows the sign) */
        mpfr_exp(t, e, (mpfr_sgn(w) >= 0) == (dir > 0) ? MPFR_RNDD : MPFR_RNDU);
        mpfr_mul(t, t, w, dn);
        mpfr_add(B, B, t, dn);
        mpfr_mul_ui(e, c->h, (unsigned long)(i - 1), MPFR_RNDN);
        mpfr_exp(t, e, (mpfr_sgn(B) >= 0) == (dir > 0) ? MPFR_RNDD : MPFR_RNDU);
        mpfr_mul(t, t, B, dn);
        mpfr_sub(D, Ae, t, up);                            /* profile at (i-1) h */
        if (mpfr_greater_p(D, delta)) {
            i0 = i;
            break;
        }
    }
    if (i0 == 0) {
        mpfr_set_zero(out, 1);                              /* profile(0) <= delta */
        goto done;
    }
    /* on ((i0-1) h, i0 h]: profile(e) = A - e^e B */
    mpfr_sub(t, Ae, delta, up);
    mpfr_mul_ui(D, c->h, (unsigned long)i0, MPFR_RNDN);     /* i0 h */
    if (mpfr_sgn(B) > 0 && mpfr_sgn(t) > 0) {
        mpfr_div(t, t, B, up);
        mpfr_log(t, t, up);
    } else
        mpfr_set(t, D, MPFR_RNDN);
    if (mpfr_greater_p(t, D))
        mpfr_set(t, D, MPFR_RNDN);
    mpfr_mul_ui(e, c->h, (unsigned long)(i0 - 1), MPFR_RNDN);
    if (mpfr_less_p(t, e))
        mpfr_set(t, e, MPFR_RNDN);
    mpfr_set(out, t, up);
done:
    mpfr_clears(A, B, w, e, t, D, Ae, (mpfr_ptr)0);
}

/* enclosures.h: eps_from on the masses w (index OFF + i: loss i h) */
void fri_pdm_pld_eps_from(mpfr_ptr out, mpfr_t *w, size_t OFF, mpfr_srcptr EW, mpfr_srcptr Winf, int dir,
                          mpfr_srcptr delta, mpfr_srcptr h, mpfr_prec_t wp)
{
    pld_ctx c;
    c.wp = wp;
    ctx_init(&c);
    mpfr_set(c.h, h, MPFR_RNDN);                        /* exact: a power of two */
    pld_fft f;
    f.re = w;
    mpfr_init2(f.EW, mpfr_get_prec(EW));
    mpfr_set(f.EW, EW, MPFR_RNDN);
    eps_from(out, &f, OFF, Winf, dir, delta, &c);
    mpfr_clear(f.EW);
    ctx_clear(&c);
}

/* Winf >= 1 - prod_g (1 - wh_g)^{T_g} (wh_g >= the rounds' w_inf), at
 * Winf's precision */
static void winf_up(mpfr_ptr Winf, mpfr_t *const wh, const pld_group *gr, size_t ng)
{
    mpfr_t r;
    mpfr_init2(r, mpfr_get_prec(Winf));
    mpfr_set_ui(Winf, 1, MPFR_RNDN);
    for (size_t g = 0; g < ng; g++) {
        mpfr_ui_sub(r, 1, wh[g], MPFR_RNDD);
        mpfr_pow_ui(r, r, gr[g].T, MPFR_RNDD);
        mpfr_mul(Winf, Winf, r, MPFR_RNDD);
    }
    mpfr_ui_sub(Winf, 1, Winf, MPFR_RNDU);
    mpfr_clear(r);
}

/* enclosures.h: winf_up for the runs of T[g] rounds */
int fri_pdm_pld_winf(mpfr_ptr Winf, mpfr_t *const wh, const unsigned long *T, size_t ng)
{
    pld_group *gr = malloc((ng ? ng : 1) * sizeof *gr);
    if (gr == NULL)
        return FR_ENOMEM;
    for (size_t g = 0; g < ng; g++)
        gr[g] = (pld_group){T[g], 0, 0, NULL, NULL};
    winf_up(Winf, wh, gr, ng);
    free(gr);
    return FR_OK;
}

/* enclosures.h: u4 >= 4 2^-wp sqrt(n), at u4's precision */
void fri_pdm_pld_u4(mpfr_ptr u4, size_t n, mpfr_prec_t wp)
{
    mpfr_sqrt_ui(u4, (unsigned long)n, MPFR_RNDU);
    mpfr_mul_2si(u4, u4, 2 - (long)wp, MPFR_RNDU);
}

int fr_fedpdm_pld_rounds(mpfr_t eps, mpfr_t eps_lower, mpfr_t *const sigma, mpfr_t *const s,
                         unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                         const mpfr_t delta)
{
    unsigned long alpha = 0;
    int st = fri_pdm_rdp_rounds_args(eps, &alpha, sigma, s, T, first, K, N, delta, 2);
    if (st != FR_OK)
        return st;
    if (eps == eps_lower)
        return FR_EDOM;
    /* the runs of equal rounds (s = 0: no privacy loss, left out) */
    size_t ng = 0, tot = 0;
    pld_group *gr = malloc(T * sizeof *gr);
    if (gr == NULL)
        return FR_ENOMEM;
    for (unsigned long t0 = 0; t0 < T;) {
        const int sub = t0 >= first && K < N;
        unsigned long t1 = t0 + 1;
        while (t1 < T && (t1 >= first && K < N) == sub && mpfr_equal_p(sigma[t1], sigma[t0])
               && mpfr_equal_p(s[t1], s[t0]))
            t1++;
        if (!mpfr_zero_p(s[t0])) {
            gr[ng] = (pld_group){t1 - t0, 0, sub, s[t0], sigma[t0]};
            tot += t1 - t0;
            ng++;
        }
        t0 = t1;
    }
    if (ng == 0) {
        mpfr_set_zero(eps, 1);
        if (eps_lower)
            mpfr_set_zero(eps_lower, 1);
        free(gr);
        return FR_OK;
    }
    if (2 * tot + 1 > PLD_S_MAX) {
        free(gr);
        return FR_ESIZE;
    }
    pld_ctx c;
    c.wp = mpfr_get_prec(eps) + 64;
    if (eps_lower && mpfr_get_prec(eps_lower) + 64 > c.wp)
        c.wp = mpfr_get_prec(eps_lower) + 64;
    if (c.wp < 128)
        c.wp = 128;
    ctx_init(&c);
    /* the grid: h dyadic, m_g = ceil(L_g / h) with H(L_g) <= delta 2^-12 / T */
    mpfr_t tol, Lmax, r, *Lg = fri_vec_new(ng, c.wp);
    mpfr_inits2(c.wp, tol, Lmax, r, (mpfr_ptr)0);
    mpfr_div_ui(tol, delta, (unsigned long)tot, MPFR_RNDD);
    mpfr_div_2ui(tol, tol, 12, MPFR_RNDD);
    mpfr_set_zero(Lmax, 1);
    for (size_t g = 0; g < ng; g++) {
        ctx_group(&c, &gr[g], K, N);
        tail_point(Lg[g], tol, gr[g].sub, &c);
        mpfr_max(Lmax, Lmax, Lg[g], MPFR_RNDN);
    }
    /* h: the larger of sum_g T_g L_g / (S_MAX / 4) (about S_MAX / 2 points
     * composed) and L_max / PLD_M_MAX, rounded down to a power of two */
    mpfr_t Ls;
    mpfr_init2(Ls, c.wp);
    mpfr_set_zero(Ls, 1);
    for (size_t g = 0; g < ng; g++) {
        mpfr_mul_ui(r, Lg[g], gr[g].T, MPFR_RNDN);
        mpfr_add(Ls, Ls, r, MPFR_RNDN);
    }
    mpfr_div_ui(Ls, Ls, (unsigned long)(PLD_S_MAX / 4), MPFR_RNDN);
    mpfr_div_ui(r, Lmax, PLD_M_MAX, MPFR_RNDN);
    mpfr_max(r, r, Ls, MPFR_RNDN);
    mpfr_clear(Ls);
    mpfr_set_ui_2exp(c.h, 1, mpfr_get_exp(r) - 1, MPFR_RNDN);    /* dyadic <= r */
    size_t S;
    for (;;) {
        S = 1;
        for (size_t g = 0; g < ng; g++) {
            mpfr_div(r, Lg[g], c.h, MPFR_RNDU);
            mpfr_ceil(r, r);
            gr[g].m = mpfr_cmp_ui(r, PLD_S_MAX) > 0 ? PLD_S_MAX : mpfr_get_ui(r, MPFR_RNDU);
            if (gr[g].m < 1)
                gr[g].m = 1;
            S += 2 * gr[g].T * gr[g].m;
        }
        if (S <= PLD_S_MAX)
            break;
        mpfr_mul_2ui(c.h, c.h, 1, MPFR_RNDN);
    }
    const size_t OFF = (S - 1) / 2;
    pld_fft f;
    f.n = 2;
    while (f.n < S)
        f.n *= 2;
    const size_t n = f.n;
    f.re = fri_vec_new(n, c.wp);
    f.im = fri_vec_new(n, c.wp);
    f.wre = ng > 1 ? fri_vec_new(n, c.wp) : fri_vec_new(1, c.wp);
    f.wim = ng > 1 ? fri_vec_new(n, c.wp) : fri_vec_new(1, c.wp);
    f.wr = fri_vec_new(n / 2, c.wp);
    f.wi = fri_vec_new(n / 2, c.wp);
    mpfr_t *wh = fri_vec_new(ng, c.wp), *wl = fri_vec_new(ng, c.wp);
    mpfr_inits2(c.wp, f.tmp[0], f.tmp[1], f.tmp[2], f.tmp[3], (mpfr_ptr)0);
    mpfr_inits2(64, f.cn, f.u4, f.EW, (mpfr_ptr)0);
    mpfr_t up, lo, l2, Winf;
    mpfr_init2(up, mpfr_get_prec(eps));
    mpfr_init2(lo, eps_lower ? mpfr_get_prec(eps_lower) : 2);
    mpfr_inits2(c.wp, l2, Winf, (mpfr_ptr)0);
    if (!f.re || !f.im || !f.wre || !f.wim || !f.wr || !f.wi || !wh || !wl || !Lg)
        st = FR_ENOMEM;
    if (st == FR_OK) {
        fri_fft_twiddles(f.wr, f.wi, n, c.wp);
        fri_fft_bound(f.cn, n, c.wp);
        fri_pdm_pld_u4(f.u4, n, c.wp);                                  /* 4u sqrt(n) */
        st = compose(&f, gr, ng, 0, &c, K, N, wh, wl);
    }
    if (st == FR_OK) {
        winf_up(Winf, wh, gr, ng);                          /* W_inf */
        eps_from(up, &f, OFF, Winf, 1, delta, &c);
        mpfr_set_zero(Winf, 1);
        mpfr_set_zero(lo, 1);
        int orders = eps_lower ? 1 : 0;
        for (size_t g = 0; eps_lower && g < ng; g++)
            if (gr[g].sub)
                orders = 2;
        for (int o = 1; st == FR_OK && o <= orders; o++) {
            st = compose(&f, gr, ng, o, &c, K, N, wh, wl);
            if (st == FR_OK) {
                eps_from(l2, &f, OFF, Winf, -1, delta, &c);
                if (mpfr_greater_p(l2, lo))
                    mpfr_set(lo, l2, MPFR_RNDD);
            }
        }
    }
    if (st == FR_OK) {
        mpfr_set(eps, up, MPFR_RNDU);
        if (eps_lower)
            mpfr_set(eps_lower, lo, MPFR_RNDD);
    }
    fri_vec_free(f.re, n), fri_vec_free(f.im, n);
    fri_vec_free(f.wre, ng > 1 ? n : 1), fri_vec_free(f.wim, ng > 1 ? n : 1);
    fri_vec_free(f.wr, n / 2), fri_vec_free(f.wi, n / 2);
    fri_vec_free(wh, ng), fri_vec_free(wl, ng), fri_vec_free(Lg, ng);
    mpfr_clears(f.tmp[0], f.tmp[1], f.tmp[2], f.tmp[3], f.cn, f.u4, f.EW, (mpfr_ptr)0);
    ctx_clear(&c);
    mpfr_clears(tol, Lmax, r, up, lo, l2, Winf, (mpfr_ptr)0);
    free(gr);
    return st;
}
