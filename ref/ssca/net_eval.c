/* SPDX-License-Identifier: Apache-2.0 */
/* net_eval.c -- the two-layer network of 000 Sec. V, (28)-(30), correctly
 * rounded: interval arithmetic (MPFI) at a working precision wp and a Ziv
 * loop on wp.  Contract: include/fedref/ssca.h ("two-layer network").
 *
 * The formulas (u exact, given by the caller; S(u) = u sigma(u), sigma(u) =
 * 1/(1 + e^-u); one sample n, classes l, its label y):
 *   e = exp(-|u|) (never overflows), D = 1 + e,
 *     u > 0: sigma(u) = 1/D, sigma(-u) = e/D;   u < 0: sigma(u) = e/D, sigma(-u) = 1/D,
 *   S(u) = u sigma(u),   S'(u) = sigma(u) (1 + u sigma(-u))          (000 Sec. V)
 *   o_l = sum_j w0_{l,j} S(u_j)
 *   m: the class whose enclosure of o_m has the largest left end (any m
 *      gives the same values; this one keeps every exponent below <= ~0),
 *   E_k = exp(o_k - o_m) (E_m = 1),  T = sum_{k != m} E_k,
 *   Q_l = E_l / (1 + T),
 *   loss = -log Q_y = (o_m - o_y) + log1p(T)   (y = m: log1p(T))          (28)
 *   r_l = Q_l - [l = y]:  Q_l for l != y;  -T/(1 + T) if y = m, else Q_y - 1
 *         (then Q_y <= ~1/2: no cancellation)
 *   c_j = sum_l r_l w0_{l,j} = sum_{l != y} Q_l (w0_{l,j} - w0_{y,j})  (sum_l r_l = 0)
 *   abar_{l,j} = r_l S(u_j)                                               (29)
 *   bbar_{j,p} = delta_j z_p,  delta_j = S'(u_j) c_j                      (30)
 * f, A, B are the sums over the samples.  Every quantity is an MPFI
 * interval at wp that contains the exact value (MPFI rounds each end
 * outward).  An output is settled when both ends of its enclosure round to
 * the same number at the output's precision (rounding to nearest is
 * monotone, so the exact value rounds to it too); else wp doubles.
 *
 * Exact structure, found once, so that exact results end the loop:
 *  - u = 0 exactly: S(0) = 0, S'(0) = 1/2; such terms are never enclosed.
 *  - a column j of w0 constant over l: c_j = 0 exactly (sum_l r_l = 0), so
 *    delta_j = 0 for every sample.
 *  - a sample is uniform when every j has u_j = 0 or a constant column j:
 *    then o_l - o_k = 0 exactly, Q = 1/L, loss = log L, r_l = 1/L - [l = y]
 *    (rational), and c_j is 0 (u_j != 0) or (sum_l w0_{l,j} - L w0_{y,j})/L
 *    (u_j = 0, exact).  Its terms of (29) are grouped by the exact value v
 *    of u_j over the uniform samples: sum r_l S(v) = K S(v) with K =
 *    (|G| - L #{n in G: y_n = l})/L, an integer test decides K = 0; its
 *    terms of (30) are exact rationals (delta = c/2): the exact part R of
 *    B, one exact sum, one division by 2L.
 *  - zero w0_{l,j}, w0_{l,j} = w0_{y,j} and zero z_{n,p} give no term.
 * An output with no enclosed term is exact: R rounded once (+0 for 0).
 *
 * Termination.  Let every u_{n,j} be k q with q = 2^-s and integers k, and
 * Z = e^q (transcendental).  (i) Outputs whose enclosed terms all come from
 * uniform samples (e.g. w0 = 0, or rows of w0 equal): A_{l,j} = sum_v K_v
 * S(v) with some K_v != 0; S(v) = v/(1 + Z^-k) is a rational function of Z
 * with a pole at the roots Z^k = -1 (numerator v != 0 there), and the
 * group with the largest |k| has poles no other group has, so the sum is a
 * non-constant rational function of Z, hence transcendental: never a
 * floating-point number or a midpoint, and the enclosures, whose widths
 * shrink like 2^-wp, eventually decide the rounding.  (ii) Otherwise the
 * softmax involves o_l = sum w0 S(u), themselves transcendental; no
 * argument excludes an exact value on a rounding boundary (an exact
 * cancellation between samples, e.g. two samples with the same u but
 * different labels whose r cancel because Q_l = 1/2 happens to be exact
 * without being uniform by the rule above), and none is known to occur.
 * The loop stops at wp > 16 p + 8192 (p the largest output precision) with
 * FR_EINTERNAL: this is also where it ends when an exact value lies beyond
 * MPFR's exponent range (a result below 2^(emin) because every term
 * carries e^-|x| with |x| > ~7.4e8) -- the Limits of the contract. */
#include <stdlib.h>
#include <mpfi.h>
#include "net_eval.h"

int fri_ssca_dot_exact(mpfr_ptr r, mpfr_t *const a, size_t sa, mpfr_t *const b, size_t sb,
                       size_t n, mpfr_t *prod, mpfr_ptr *ptr)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        mpfr_srcptr x = a[i * sa], z = b[i * sb];
        if (mpfr_zero_p(x) || mpfr_zero_p(z))
            continue;
        int st = fri_mul_exact(prod[k], x, z);
        if (st != FR_OK)
            return st;
        ptr[k] = prod[k];
        k++;
    }
    int st = fri_sum_exact(r, ptr, k);
    if (st == FR_OK && mpfr_zero_p(r))
        mpfr_set_zero(r, 1);                   /* an exact zero is +0 */
    return st;
}

/* ---- the engine's state ------------------------------------------------- */

typedef struct {
    size_t nb, L, J, P;
    mpfr_t *u, *w0, *Z;
    const size_t *y;
    int wantA, wantB;
    /* exact structure */
    unsigned char *colconst;   /* J */
    unsigned char *unif;       /* nb */
    size_t nunif;
    size_t *ord, *nord;        /* J x nb, J: uniform samples with u != 0, sorted by u */
    unsigned char *genA;       /* J: some non-uniform sample has u_{n,j} != 0 */
    mpfr_t *R;                 /* J x P: exact numerators of B's exact part (B only) */
    /* enclosures at the working precision */
    mpfi_t *s, *sp;            /* nb x J */
    mpfi_t *r;                 /* nb x L (non-uniform samples) */
    mpfi_t *dl;                /* nb x J (non-uniform samples, B only) */
    mpfi_t *o, *E;             /* L */
    mpfi_t lossum, acc, t0, t1, t2, t3;
    mpfr_t ea, eb;
} net_t;

static mpfi_t *mpfi_array(size_t k)
{
    mpfi_t *a = malloc((k ? k : 1) * sizeof *a);
    if (a != NULL)
        for (size_t i = 0; i < k; i++)
            mpfi_init2(a[i], MPFR_PREC_MIN);
    return a;
}

static void mpfi_array_free(mpfi_t *a, size_t k)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < k; i++)
        mpfi_clear(a[i]);
    free(a);
}

static mpfr_t *mpfr_array(size_t k)
{
    mpfr_t *a = malloc((k ? k : 1) * sizeof *a);
    if (a != NULL)
        for (size_t i = 0; i < k; i++)
            mpfr_init2(a[i], MPFR_PREC_MIN);
    return a;
}

static void mpfr_array_free(mpfr_t *a, size_t k)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < k; i++)
        mpfr_clear(a[i]);
    free(a);
}

static void net_free(net_t *N)
{
    size_t nJ = N->nb * N->J;
    free(N->colconst);
    free(N->unif);
    free(N->ord);
    free(N->nord);
    free(N->genA);
    mpfr_array_free(N->R, N->wantB ? N->J * N->P : 0);
    mpfi_array_free(N->s, nJ);
    mpfi_array_free(N->sp, nJ);
    mpfi_array_free(N->r, N->nb * N->L);
    mpfi_array_free(N->dl, N->wantB ? nJ : 0);
    mpfi_array_free(N->o, N->L);
    mpfi_array_free(N->E, N->L);
    mpfi_clear(N->lossum);
    mpfi_clear(N->acc);
    mpfi_clear(N->t0);
    mpfi_clear(N->t1);
    mpfi_clear(N->t2);
    mpfi_clear(N->t3);
    mpfr_clears(N->ea, N->eb, (mpfr_ptr)0);
}

/* The uniform samples of one column, sorted by their exact u (then by n,
 * so that the order is deterministic). */
typedef struct {
    mpfr_srcptr v;
    size_t n;
} byu_t;

static int cmp_u(const void *a, const void *b)
{
    const byu_t *x = a, *z = b;
    int c = mpfr_cmp(x->v, z->v);
    return c != 0 ? c : (x->n > z->n) - (x->n < z->n);
}

/* The exact structure (header comment); FR_OK, FR_ENOMEM or FR_EPREC. */
static int net_init(net_t *N, mpfr_t *const u, mpfr_t *const w0, const size_t *y,
                    mpfr_t *const Z, size_t nb, size_t L, size_t J, size_t P, int wantA, int wantB)
{
    *N = (net_t){.nb = nb, .L = L, .J = J, .P = P, .u = u, .w0 = w0, .Z = Z, .y = y,
                 .wantA = wantA, .wantB = wantB};
    mpfi_init2(N->lossum, MPFR_PREC_MIN);
    mpfi_init2(N->acc, MPFR_PREC_MIN);
    mpfi_init2(N->t0, MPFR_PREC_MIN);
    mpfi_init2(N->t1, MPFR_PREC_MIN);
    mpfi_init2(N->t2, MPFR_PREC_MIN);
    mpfi_init2(N->t3, MPFR_PREC_MIN);
    mpfr_inits2(MPFR_PREC_MIN, N->ea, N->eb, (mpfr_ptr)0);
    const size_t nJ = nb * J;
    N->colconst = malloc(J);
    N->unif = malloc(nb);
    N->ord = malloc(nJ * sizeof *N->ord);
    N->nord = malloc(J * sizeof *N->nord);
    N->genA = malloc(J);
    N->s = mpfi_array(nJ);
    N->sp = mpfi_array(nJ);
    N->r = mpfi_array(nb * L);
    N->o = mpfi_array(L);
    N->E = mpfi_array(L);
    if (wantB) {
        N->R = mpfr_array(J * P);
        N->dl = mpfi_array(nJ);
    }
    if (!N->colconst || !N->unif || !N->ord || !N->nord || !N->genA || !N->s || !N->sp
        || !N->r || !N->o || !N->E || (wantB && (!N->R || !N->dl)))
        return FR_ENOMEM;
    for (size_t j = 0; j < J; j++) {
        N->colconst[j] = 1;
        for (size_t l = 1; l < L && N->colconst[j]; l++)
            N->colconst[j] = mpfr_equal_p(w0[l * J + j], w0[j]);
    }
    for (size_t n = 0; n < nb; n++) {
        N->unif[n] = 1;
        for (size_t j = 0; j < J && N->unif[n]; j++)
            N->unif[n] = mpfr_zero_p(u[n * J + j]) || N->colconst[j];
        N->nunif += N->unif[n];
    }
    byu_t *tmp = malloc((nb ? nb : 1) * sizeof *tmp);
    if (tmp == NULL)
        return FR_ENOMEM;
    for (size_t j = 0; j < J; j++) {
        size_t k = 0, *ord = N->ord + j * nb;
        N->genA[j] = 0;
        for (size_t n = 0; n < nb; n++) {
            if (mpfr_zero_p(u[n * J + j]))
                continue;
            if (N->unif[n])
                tmp[k++] = (byu_t){u[n * J + j], n};
            else
                N->genA[j] = 1;
        }
        qsort(tmp, k, sizeof *tmp, cmp_u);
        for (size_t i = 0; i < k; i++)
            ord[i] = tmp[i].n;
        N->nord[j] = k;
    }
    free(tmp);
    if (!wantB)
        return FR_OK;
    /* B's exact part: R_{j,p} = sum over uniform n with u_{n,j} = 0 of
     * (sum_l w0_{l,j} - L w0_{y_n,j}) z_{n,p}; B_{j,p} gets R_{j,p} / (2L). */
    const size_t nt = nb > L ? nb : L;
    mpfr_t *prod = mpfr_array(nt);
    mpfr_t *numer = mpfr_array(nb);            /* per sample, for the current j */
    mpfr_ptr *ptr = malloc(nt * sizeof *ptr);
    mpfr_t colsum, Lw;
    mpfr_inits2(MPFR_PREC_MIN, colsum, Lw, (mpfr_ptr)0);
    int st = prod && ptr && numer ? FR_OK : FR_ENOMEM;
    for (size_t j = 0; j < J && st == FR_OK; j++) {
        for (size_t l = 0; l < L; l++)
            ptr[l] = w0[l * J + j];
        if ((st = fri_sum_exact(colsum, ptr, L)) != FR_OK)
            break;
        for (size_t n = 0; n < nb && st == FR_OK; n++) {
            mpfr_set_zero(numer[n], 1);
            if (!N->unif[n] || !mpfr_zero_p(u[n * J + j]))
                continue;
            mpfr_set_prec(Lw, mpfr_get_prec(w0[y[n] * J + j]) + 64);
            mpfr_mul_ui(Lw, w0[y[n] * J + j], (unsigned long)L, MPFR_RNDN);   /* exact */
            st = fri_sub_exact(numer[n], colsum, Lw);
        }
        for (size_t p = 0; p < P && st == FR_OK; p++)
            st = fri_ssca_dot_exact(N->R[j * P + p], numer, 1, Z + p, P, nb, prod, ptr);
    }
    mpfr_clears(colsum, Lw, (mpfr_ptr)0);
    mpfr_array_free(prod, nt);
    mpfr_array_free(numer, nb);
    free(ptr);
    return st;
}

/* ---- enclosures at the working precision -------------------------------- */

/* s = S(u), sp = S'(u) for an exact u != 0 (header comment). */
static void swish(net_t *N, mpfi_ptr s, mpfi_ptr sp, mpfr_srcptr u)
{
    mpfi_ptr U = N->t0, e = N->t1, sig = N->t2, sigm = N->t3;
    mpfi_set_fr(U, u);                         /* outward: never crosses 0 */
    mpfi_abs(e, U);
    mpfi_neg(e, e);
    mpfi_exp(e, e);                            /* e^-|u| in (0, 1] */
    mpfi_add_ui(sp, e, 1);                     /* D, held in sp for now */
    if (mpfr_sgn(u) > 0) {
        mpfi_div(sigm, e, sp);
        mpfi_ui_div(sig, 1, sp);
    } else {
        mpfi_div(sig, e, sp);
        mpfi_ui_div(sigm, 1, sp);
    }
    mpfi_mul(s, U, sig);                       /* S(u) = u sigma(u) */
    mpfi_mul(sp, U, sigm);
    mpfi_add_ui(sp, sp, 1);
    mpfi_mul(sp, sig, sp);                     /* S'(u) = sigma(u) (1 + u sigma(-u)) */
}

/* One non-uniform sample n: r[n][.], its loss added to lossum, and (B)
 * delta into dl[n][.]. */
static void sample(net_t *N, size_t n)
{
    const size_t L = N->L, J = N->J, y = N->y[n];
    mpfr_t *const w0 = N->w0;
    mpfi_t *o = N->o, *E = N->E;
    for (size_t l = 0; l < L; l++) {
        mpfi_set_ui(o[l], 0);
        for (size_t j = 0; j < J; j++) {
            if (mpfr_zero_p(N->u[n * J + j]) || mpfr_zero_p(w0[l * J + j]))
                continue;
            mpfi_mul_fr(N->t0, N->s[n * J + j], w0[l * J + j]);
            mpfi_add(o[l], o[l], N->t0);
        }
    }
    size_t m = 0;                              /* the largest left end */
    for (size_t l = 1; l < L; l++) {
        mpfi_get_left(N->ea, o[l]);
        mpfi_get_left(N->eb, o[m]);
        if (mpfr_greater_p(N->ea, N->eb))
            m = l;
    }
    mpfi_ptr T = N->t1, den = N->t2;
    mpfi_set_ui(T, 0);
    for (size_t k = 0; k < L; k++) {
        if (k == m)
            continue;
        mpfi_sub(E[k], o[k], o[m]);
        mpfi_exp(E[k], E[k]);
        mpfi_add(T, T, E[k]);
    }
    mpfi_set_ui(E[m], 1);
    mpfi_add_ui(den, T, 1);
    /* loss = (o_m - o_y) + log1p(T) */
    mpfi_log1p(N->t3, T);
    mpfi_add(N->lossum, N->lossum, N->t3);
    if (y != m) {
        mpfi_sub(N->t3, o[m], o[y]);
        mpfi_add(N->lossum, N->lossum, N->t3);
    }
    /* Q_l = E_l / (1 + T) (into E), r = Q - e_y */
    for (size_t l = 0; l < L; l++)
        mpfi_div(E[l], E[l], den);
    for (size_t l = 0; l < L; l++) {
        mpfi_ptr rl = N->r[n * L + l];
        if (l != y)
            mpfi_set(rl, E[l]);
        else if (y == m) {
            mpfi_div(rl, T, den);
            mpfi_neg(rl, rl);                  /* -T/(1 + T) */
        } else
            mpfi_sub_ui(rl, E[l], 1);          /* Q_y <= ~1/2 here */
    }
    if (!N->wantB)
        return;
    for (size_t j = 0; j < J; j++) {
        mpfi_ptr d = N->dl[n * J + j];
        if (N->colconst[j])
            continue;                          /* delta = 0 exactly, never read */
        mpfi_set_ui(d, 0);
        for (size_t l = 0; l < L; l++) {
            if (l == y || mpfr_equal_p(w0[l * J + j], w0[y * J + j]))
                continue;
            mpfi_set_fr(N->t0, w0[l * J + j]);
            mpfi_sub_fr(N->t0, N->t0, w0[y * J + j]);
            mpfi_mul(N->t0, N->t0, E[l]);
            mpfi_add(d, d, N->t0);             /* c_j = sum_{l != y} Q_l (w0_l - w0_y) */
        }
        if (mpfr_zero_p(N->u[n * J + j]))
            mpfi_div_2ui(d, d, 1);             /* S'(0) = 1/2 */
        else
            mpfi_mul(d, d, N->sp[n * J + j]);
    }
}

static void set_prec_all(mpfi_t *a, size_t k, mpfr_prec_t wp)
{
    for (size_t i = 0; i < k; i++)
        mpfi_set_prec(a[i], wp);
}

static void enclose_all(net_t *N, mpfr_prec_t wp)
{
    const size_t nb = N->nb, J = N->J, L = N->L, nJ = nb * J;
    set_prec_all(N->s, nJ, wp);
    set_prec_all(N->sp, nJ, wp);
    set_prec_all(N->r, nb * L, wp);
    if (N->wantB)
        set_prec_all(N->dl, nJ, wp);
    set_prec_all(N->o, L, wp);
    set_prec_all(N->E, L, wp);
    mpfi_set_prec(N->lossum, wp);
    mpfi_set_prec(N->acc, wp);
    mpfi_set_prec(N->t0, wp);
    mpfi_set_prec(N->t1, wp);
    mpfi_set_prec(N->t2, wp);
    mpfi_set_prec(N->t3, wp);
    for (size_t k = 0; k < nJ; k++)
        if (!mpfr_zero_p(N->u[k]))
            swish(N, N->s[k], N->sp[k], N->u[k]);
    mpfi_set_ui(N->lossum, 0);
    for (size_t n = 0; n < nb; n++)
        if (!N->unif[n])
            sample(N, n);
}

/* ---- the outputs ------------------------------------------------------------ */

/* The uniform groups of column j for class l: calls back with K's integer
 * numerator sign and the representative sample; returns 1 iff some K != 0.
 * K = (|G| - L cnt) / L; term = S(v) |G| / L - S(v) cnt (enclosed). */
static int groupsA(net_t *N, size_t l, size_t j, mpfi_ptr acc)
{
    const size_t *ord = N->ord + j * N->nb, k = N->nord[j], J = N->J, L = N->L;
    int any = 0;
    for (size_t a = 0; a < k;) {
        size_t b = a + 1, cnt = N->y[ord[a]] == l;
        while (b < k && mpfr_equal_p(N->u[ord[b] * J + j], N->u[ord[a] * J + j])) {
            cnt += N->y[ord[b]] == l;
            b++;
        }
        const size_t g = b - a;
        if (!(g % L == 0 && cnt == g / L)) {   /* K != 0, decided on integers */
            any = 1;
            if (acc != NULL) {
                mpfi_srcptr sv = N->s[ord[a] * J + j];
                mpfi_mul_ui(N->t0, sv, (unsigned long)g);
                mpfi_div_ui(N->t0, N->t0, (unsigned long)L);
                mpfi_mul_ui(N->t1, sv, (unsigned long)cnt);
                mpfi_sub(N->t0, N->t0, N->t1);
                mpfi_add(acc, acc, N->t0);
            }
        }
        a = b;
    }
    return any;
}

static void encloseA(net_t *N, size_t l, size_t j)
{
    const size_t J = N->J, L = N->L;
    mpfi_set_ui(N->acc, 0);
    for (size_t n = 0; n < N->nb; n++) {
        if (N->unif[n] || mpfr_zero_p(N->u[n * J + j]))
            continue;
        mpfi_mul(N->t2, N->r[n * L + l], N->s[n * J + j]);
        mpfi_add(N->acc, N->acc, N->t2);
    }
    groupsA(N, l, j, N->acc);
}

static int hasTB(const net_t *N, size_t j, size_t p)
{
    if (N->colconst[j])
        return 0;
    for (size_t n = 0; n < N->nb; n++)
        if (!N->unif[n] && !mpfr_zero_p(N->Z[n * N->P + p]))
            return 1;
    return 0;
}

static void encloseB(net_t *N, size_t j, size_t p)
{
    const size_t J = N->J, P = N->P;
    mpfi_set_ui(N->acc, 0);
    for (size_t n = 0; n < N->nb; n++) {
        if (N->unif[n] || mpfr_zero_p(N->Z[n * P + p]))
            continue;
        mpfi_mul_fr(N->t2, N->dl[n * J + j], N->Z[n * P + p]);
        mpfi_add(N->acc, N->acc, N->t2);
    }
    mpfr_srcptr R = N->R[j * P + p];
    if (!mpfr_zero_p(R)) {
        mpfi_set_fr(N->t2, R);
        mpfi_div_ui(N->t2, N->t2, 2 * (unsigned long)N->L);
        mpfi_add(N->acc, N->acc, N->t2);
    }
}

/* 1 iff both ends of X round (to nearest) to the same finite number at the
 * precision of res; then res is it (+0 for 0). */
static int settle(net_t *N, mpfr_ptr res, mpfi_srcptr X)
{
    if (mpfi_nan_p(X))
        return 0;
    mpfr_prec_t wp = mpfi_get_prec(X), p = mpfr_get_prec(res);
    mpfr_set_prec(N->ea, wp);
    mpfr_set_prec(N->eb, wp);
    mpfi_get_left(N->ea, X);                   /* exact: same precision */
    mpfi_get_right(N->eb, X);
    mpfr_prec_round(N->ea, p, MPFR_RNDN);
    mpfr_prec_round(N->eb, p, MPFR_RNDN);
    if (!mpfr_number_p(N->ea) || !mpfr_equal_p(N->ea, N->eb))
        return 0;
    if (mpfr_zero_p(N->ea))
        mpfr_set_zero(res, 1);
    else
        mpfr_set(res, N->ea, MPFR_RNDN);      /* exact: precision p */
    return 1;
}

int fri_ssca_net_eval(mpfr_ptr f, mpfr_t *A, mpfr_t *B, mpfr_t *const u, mpfr_t *const w0,
                      const size_t *y, mpfr_t *const Z, size_t nb, size_t L, size_t J, size_t P)
{
    net_t N;
    const size_t LJ = L * J, JP = B ? J * P : 0, nA = A ? LJ : 0;
    int st = net_init(&N, u, w0, y, Z, nb, L, J, P, A != NULL, B != NULL);
    mpfr_t fr;
    mpfr_t *Ar = NULL, *Br = NULL;
    unsigned char *pend = NULL;                /* nA + JP */
    mpfr_init2(fr, f ? mpfr_get_prec(f) : MPFR_PREC_MIN);
    if (st == FR_OK) {
        Ar = A ? fri_temps_like(A, LJ) : NULL;
        Br = B ? fri_temps_like(B, JP) : NULL;
        pend = malloc(nA + JP + 1);
        if ((A && !Ar) || (B && !Br) || !pend)
            st = FR_ENOMEM;
    }
    size_t npend = 0;
    mpfr_prec_t pmax = f ? mpfr_get_prec(f) : MPFR_PREC_MIN;
    if (st == FR_OK) {
        /* exact outputs first: no enclosed term */
        for (size_t k = 0; k < nA; k++) {
            size_t l = k / J, j = k % J;
            pend[k] = N.genA[j] || groupsA(&N, l, j, NULL);
            if (!pend[k])
                mpfr_set_zero(Ar[k], 1);
        }
        for (size_t k = 0; k < JP; k++) {
            size_t j = k / P, p = k % P;
            pend[nA + k] = hasTB(&N, j, p);
            if (!pend[nA + k]) {               /* R / (2L), one rounding */
                mpfr_div_ui(Br[k], N.R[k], 2 * (unsigned long)L, MPFR_RNDN);
                if (mpfr_zero_p(Br[k]))
                    mpfr_set_zero(Br[k], 1);
            }
        }
        for (size_t k = 0; k < nA + JP; k++)
            if (pend[k]) {
                npend++;
                mpfr_prec_t p = mpfr_get_prec(k < nA ? Ar[k] : Br[k - nA]);
                pmax = p > pmax ? p : pmax;
            }
    }
    int fpend = f != NULL;
    const mpfr_prec_t cap = 16 * pmax + 8192;
    for (mpfr_prec_t wp = pmax + 64; st == FR_OK && (fpend || npend); wp *= 2) {
        if (wp > cap) {
            st = FR_EINTERNAL;
            break;
        }
        enclose_all(&N, wp);
        if (fpend) {                           /* f = nunif log L + sum of the others */
            mpfi_set_ui(N.acc, (unsigned long)L);
            mpfi_log(N.acc, N.acc);
            mpfi_mul_ui(N.acc, N.acc, (unsigned long)N.nunif);
            mpfi_add(N.acc, N.acc, N.lossum);
            fpend = !settle(&N, fr, N.acc);
        }
        for (size_t k = 0; k < nA + JP; k++) {
            if (!pend[k])
                continue;
            if (k < nA)
                encloseA(&N, k / J, k % J);
            else
                encloseB(&N, (k - nA) / P, (k - nA) % P);
            if (settle(&N, k < nA ? Ar[k] : Br[k - nA], N.acc)) {
                pend[k] = 0;
                npend--;
            }
        }
    }
    if (Ar)
        fri_temps_done(Ar, A, LJ, st == FR_OK);
    if (Br)
        fri_temps_done(Br, B, JP, st == FR_OK);
    if (st == FR_OK && f)
        mpfr_set(f, fr, MPFR_RNDN);            /* exact: same precision */
    mpfr_clear(fr);
    free(pend);
    net_free(&N);
    return st;
}
