/* SPDX-License-Identifier: Apache-2.0 */
/* lk.c -- ff_proxal_lk, ff_proxal_pik, ff_proxal_mu_update, ff_proxal_pk_fsum:
 * the proximal AL subproblem of 004 (6), (10)-(11) in binary64.
 * Contract: fedfast/proxal.h; the derivation is in ref/proxal/lk.c.
 *
 * Per owner i, row j, t_j = mu_j + beta c_j(w), y_j = [t_j]_+ (inequality)
 * or t_j (equality):
 *   AL_j = (y_j^2 - mu_j^2)/(2 beta), written mu_j c_j + beta c_j^2/2 when
 *          the row is active (equality, or t_j > 0) and -mu_j^2/(2 beta)
 *          otherwise (no cancellation, no division in the active branch);
 *   grad AL_j = y_j grad c_j;  Hess AL_j = beta grad c_j grad c_j^T [active]
 *          + y_j Hess c_j (kink t_j = 0: inactive).
 * l_k = sum_i (f_i + sum_j AL_ij) + ||w - w^k||^2/(2 beta) (6), P_{i,k} =
 * f_i + sum_j AL_ij + ||w - w^k||^2/(2 (n+1) beta) (10)-(11). */
#include "../internal.h"
#include "fedfast/proxal.h"
#include "eval.h"
static int rank(int st)
{
    switch (st) {
    case FR_ENULL: return 0;
    case FR_ESIZE: return 1;
    case FR_ENONFINITE: return 3;
    case FR_EDOM: return 4;
    default: return 5;
    }
}

/* The checks in class order (fedref_common.h); i = SIZE_MAX: no index. */
static int lk_args(const fr_proxal_problem *P, size_t i, const double *w, const double *wk,
                   const double *mu, double beta)
{
    if (!P || !w || !wk || !mu)
        return FR_ENULL;
    int sp = fr_proxal_problem_check(P);
    if (sp == FR_ENULL)
        return FR_ENULL;
    if (sp == FR_ESIZE || (i != SIZE_MAX && i > P->n))
        return FR_ESIZE;
    size_t d = P->d, mt = fr_proxal_mtot(P);   /* the shape is valid here */
    int st = sp;
    if (!ffi_all_finite(w, d) || !ffi_all_finite(wk, d) || !ffi_all_finite(mu, mt) || !isfinite(beta))
        st = rank(st) < rank(FR_ENONFINITE) ? st : FR_ENONFINITE;
    if (st != FR_OK)
        return st;
    if (P->h != FR_PROXAL_H_ZERO || !(beta > 0))
        return FR_EDOM;
    if (P->kind != FR_PROXAL_QP)
        for (size_t j = 0; j < mt; j++)
            if (mu[j] < 0)                                 /* -0 is the multiplier 0 */
                return FR_EDOM;
    return FR_OK;
}

/* The row loops of owner_part's Hessian, elementwise (no reassociation: the
 * same operations per entry, so the same numbers; vectorised by GCC's cheap
 * cost model, which -O2's very-cheap one refuses for an unknown trip count). */
#if defined(__GNUC__) && !defined(__clang__)
#define ROWVEC __attribute__((optimize("vect-cost-model=cheap")))
#else
#define ROWVEC
#endif
ROWVEC static void row_set(double *restrict row, const double *restrict a, const double *restrict b, size_t d)
{
    if (a && b)
        for (size_t l = 0; l < d; l++)
            row[l] = a[l] + b[l];
    else if (a)
        for (size_t l = 0; l < d; l++)
            row[l] = a[l] + 0.0;
    else if (b)
        for (size_t l = 0; l < d; l++)
            row[l] = 0.0 + b[l];
    else
        for (size_t l = 0; l < d; l++)
            row[l] = 0.0 + 0.0;
}
ROWVEC static void row_axpy(double *restrict row, double c, const double *restrict x, size_t d)
{
    for (size_t l = 0; l < d; l++)
        row[l] += c * x[l];
}
ROWVEC static void row_add(double *restrict y, const double *restrict row, size_t d)
{
    for (size_t l = 0; l < d; l++)
        y[l] += row[l];
}

/* The same row in one pass when only a (no b) and at most 5 active rows:
 * per entry t = a_l + 0.0, t += c_0 J_0l, .., y_l += t: the operations of
 * row_set, row_axpy (a = 0, 1, ..) and row_add in their order. */
ROWVEC static void row_fused(double *restrict y, const double *restrict a, size_t na, const double *c,
                             const double *const *J, size_t d)
{
    const double c0 = na > 0 ? c[0] : 0, c1 = na > 1 ? c[1] : 0, c2 = na > 2 ? c[2] : 0;
    const double c3 = na > 3 ? c[3] : 0, c4 = na > 4 ? c[4] : 0;
    const double *restrict J0 = J[0], *restrict J1 = J[1], *restrict J2 = J[2], *restrict J3 = J[3];
    const double *restrict J4 = J[4];
    switch (na) {
    case 0:
        for (size_t l = 0; l < d; l++)
            y[l] += a[l] + 0.0;
        break;
    case 1:
        for (size_t l = 0; l < d; l++)
            y[l] += (a[l] + 0.0) + c0 * J0[l];
        break;
    case 2:
        for (size_t l = 0; l < d; l++)
            y[l] += ((a[l] + 0.0) + c0 * J0[l]) + c1 * J1[l];
        break;
    case 3:
        for (size_t l = 0; l < d; l++)
            y[l] += (((a[l] + 0.0) + c0 * J0[l]) + c1 * J1[l]) + c2 * J2[l];
        break;
    case 4:
        for (size_t l = 0; l < d; l++)
            y[l] += ((((a[l] + 0.0) + c0 * J0[l]) + c1 * J1[l]) + c2 * J2[l]) + c3 * J3[l];
        break;
    default:
        for (size_t l = 0; l < d; l++)
            y[l] += (((((a[l] + 0.0) + c0 * J0[l]) + c1 * J1[l]) + c2 * J2[l]) + c3 * J3[l]) + c4 * J4[l];
        break;
    }
}

/* The offset of mu_i in mu. */
static size_t mu_off(const fr_proxal_problem *P, size_t i)
{
    size_t s = 0;
    for (size_t l = 0; l < i; l++)
        s += fr_proxal_mi(P, l);
    return s;
}

/* Owner i's part without the proximal term: *v += f_i + sum_j AL_ij, g +=
 * its gradient, H += its Hessian (each optional).  ws: d + 2 m + d m, and
 * 2 d d more when H is wanted (ws_len).  parts (v and g wanted, H not):
 * given = 0: what ffi_proxal_client_eval_body formed is written there
 * (eval.h's layout); given = 1: it is read from there instead of evaluated
 * (the parts of this owner at this w: the same numbers). */
static int owner_part(double *v, double *g, double *H, const fr_proxal_problem *P, size_t i,
                      const double *w, const double *mu, double beta, double *ws, double *parts, int given)
{
    size_t d = P->d, m = fr_proxal_mi(P, i);
    double *gi = ws, *ci = gi + d, *yv = ci + m, *Ji = yv + m;
    double *Hi = H ? Ji + d * m : NULL, *Hy = H ? Hi + d * d : NULL;
    double fi = 0;
    /* QP: Hess f_i = A_i (0 for the server) is read in place below, not copied */
    const int qp = P->kind == FR_PROXAL_QP;
    const double *Ai = qp && i >= 1 ? P->A + (i - 1) * d * d : NULL;
    int st = FR_OK;
    if (given) {
        fi = parts[0];
        memcpy(gi, parts + 1, d * sizeof *gi);
        memcpy(ci, parts + 1 + d, m * sizeof *ci);
        memcpy(Ji, parts + 1 + d + m, d * m * sizeof *Ji);
    } else if ((st = ffi_proxal_client_eval_body(P, i, w, v ? &fi : NULL, g ? gi : NULL, H && !qp ? Hi : NULL,
                                                 ci, (g || H) ? Ji : NULL, NULL, NULL)) != FR_OK)
        return st;
    else if (parts) {                                      /* v and g wanted: f_i, grad f_i, c_i, J_i all formed */
        parts[0] = fi;
        memcpy(parts + 1, gi, d * sizeof *gi);
        memcpy(parts + 1 + d, ci, m * sizeof *ci);
        memcpy(parts + 1 + d + m, Ji, d * m * sizeof *Ji);
    }
    double al = 0;
    for (size_t j = 0; j < m; j++) {
        int eq = fr_proxal_row_eq(P, i, j);
        double t = mu[j] + beta * ci[j];
        int act = eq || t > 0;                             /* kink t = 0: inactive */
        yv[j] = act ? t : 0;
        al += act ? mu[j] * ci[j] + beta * ci[j] * ci[j] / 2 : -mu[j] * mu[j] / (2 * beta);
    }
    if (v)
        *v += fi + al;
    if (g)
        for (size_t k = 0; k < d; k++) {
            double s = gi[k];
            for (size_t j = 0; j < m; j++)
                s += Ji[k * m + j] * yv[j];
            g[k] += s;
        }
    if (H) {
        int hy = P->kind != FR_PROXAL_QP && m > 0;
        if (hy) {                                          /* sum_j y_j Hess c_ij */
            st = ffi_proxal_client_eval_body(P, i, w, NULL, NULL, NULL, NULL, NULL, yv, Hy);
            if (st != FR_OK)
                return st;
        }
        /* the active rows once (not per entry); per entry (k, l) the same
         * operations in the same order as s = Hi + Hy + sum_{j active} beta
         * J_kj J_lj (Hy = +0 for QP: Hi + 0.0; Hi = A_i read in place) */
        size_t na = 0, *act = malloc((m ? m : 1) * sizeof *act);
        if (!act)
            return FR_ENOMEM;
        for (size_t j = 0; j < m; j++)
            if (fr_proxal_row_eq(P, i, j) || yv[j] > 0)    /* yv = t when active, else 0 */
                act[na++] = j;
        /* the active columns contiguous (Ja[a d + l] = J_{l, act a}, bJ = beta
         * times them, rounded as beta * J_kj is in the sum) and one row of
         * sums, so the inner loop runs over l (vectorised), each entry
         * accumulating its terms a = 0, 1, .. in the same order */
        double *Ja = malloc((2 * na * d + d + 1) * sizeof *Ja), *bJ = Ja + na * d, *row = bJ + na * d;
        if (!Ja) {
            free(act);
            return FR_ENOMEM;
        }
        for (size_t a = 0; a < na; a++)
            for (size_t l = 0; l < d; l++) {
                Ja[a * d + l] = Ji[l * m + act[a]];
                bJ[a * d + l] = beta * Ja[a * d + l];
            }
        for (size_t k = 0; k < d; k++) {
            const double *hk = qp ? (Ai ? Ai + k * d : NULL) : Hi + k * d;   /* the same numbers */
            if (hk && !hy && na <= 5) {                     /* one pass (QP clients; NP/FAIR without Hy) */
                double cs[5];
                const double *Js[5] = {Ja, Ja, Ja, Ja, Ja};
                for (size_t a = 0; a < na; a++)
                    cs[a] = bJ[a * d + k], Js[a] = Ja + a * d;
                row_fused(H + k * d, hk, na, cs, Js, d);
                continue;
            }
            row_set(row, hk, hy ? Hy + k * d : NULL, d);     /* Hi + Hy, 0.0 for an absent one */
            for (size_t a = 0; a < na; a++)
                row_axpy(row, bJ[a * d + k], Ja + a * d, d);
            row_add(H + k * d, row, d);
        }
        free(Ja);
        free(act);
    }
    return FR_OK;
}

/* owner_part's workspace: the d x d parts only when a Hessian is wanted
 * (a gradient's call then allocates O(d m), not O(d^2) that the kernel
 * would clear page by page on every call) */
static size_t ws_len(const fr_proxal_problem *P, int hess)
{
    size_t m = 0;
    for (size_t i = 0; i <= P->n; i++)
        if (fr_proxal_mi(P, i) > m)
            m = fr_proxal_mi(P, i);
    return P->d + 2 * m + P->d * m + (hess ? 2 * P->d * P->d : 0);
}

static double prox2(const double *w, const double *wk, size_t d)
{
    double s = 0;
    for (size_t k = 0; k < d; k++)
        s += (w[k] - wk[k]) * (w[k] - wk[k]);
    return s;
}

static int finite_out(const double *x, size_t k)
{
    return x == NULL || ffi_all_finite(x, k);
}

int ff_proxal_lk(double *val, double *g, const fr_proxal_problem *P, const double *w,
                 const double *wk, const double *mu, double beta)
{
    int st = lk_args(P, SIZE_MAX, w, wk, mu, beta);
    if (st != FR_OK)
        return st;
    size_t d = P->d;
    if (val && g && ffi_overlap(val, 1, g, d))
        return FR_EDOM;
    size_t L = ws_len(P, 0);
    double *ws = malloc((L + d + 1) * sizeof *ws);
    if (!ws)
        return FR_ENOMEM;
    double *gt = ws + L, v = 0;
    memset(gt, 0, d * sizeof *gt);
    for (size_t i = 0; i <= P->n && st == FR_OK; i++)
        st = owner_part(val ? &v : NULL, g ? gt : NULL, NULL, P, i, w, mu + mu_off(P, i), beta, ws, NULL, 0);
    if (st == FR_OK) {
        v += prox2(w, wk, d) / (2 * beta);                 /* (6) */
        for (size_t k = 0; k < d; k++)
            gt[k] += (w[k] - wk[k]) / beta;
        if (!isfinite(v) || !finite_out(gt, d))
            st = FR_ENONFINITE;
    }
    if (st == FR_OK) {
        if (val) *val = v;
        if (g) memcpy(g, gt, d * sizeof *g);
    }
    free(ws);
    return st;
}

static int pik_body(double *val, double *g, double *H, const fr_proxal_problem *P, size_t i,
                    const double *w, const double *wk, const double *mu, double beta, double *parts, int given);

int ff_proxal_pik(double *val, double *g, double *H, const fr_proxal_problem *P, size_t i,
                  const double *w, const double *wk, const double *mu, double beta)
{
    int st = lk_args(P, i, w, wk, mu, beta);
    if (st != FR_OK)
        return st;
    return pik_body(val, g, H, P, i, w, wk, mu, beta, NULL, 0);
}

/* ff_proxal_pik after its argument checks (the oracle's path: its problem and
 * state were checked once by ff_proxal_pk_fsum; w comes from Algorithm 2,
 * which checks its iterates). */
static int pik_body(double *val, double *g, double *H, const fr_proxal_problem *P, size_t i,
                    const double *w, const double *wk, const double *mu, double beta, double *parts, int given)
{
    int st;
    size_t d = P->d;
    if (i > P->n || !ffi_all_finite(w, d))
        return i > P->n ? FR_ESIZE : FR_ENONFINITE;
    if ((val && g && ffi_overlap(val, 1, g, d)) || (val && H && ffi_overlap(val, 1, H, d * d))
        || (g && H && ffi_overlap(g, d, H, d * d)))
        return FR_EDOM;
    size_t L = ws_len(P, H != NULL), dh = H ? d * d : 0;   /* the d x d part only when H is wanted */
    double *ws = malloc((L + d + dh + 1) * sizeof *ws);
    if (!ws)
        return FR_ENOMEM;
    double *gt = ws + L, *Ht = H ? gt + d : NULL, v = 0, s = 1 / ((double)(P->n + 1) * beta);
    memset(gt, 0, (d + dh) * sizeof *gt);
    st = owner_part(val ? &v : NULL, g ? gt : NULL, Ht, P, i, w, mu + mu_off(P, i), beta, ws,
                    val && g ? parts : NULL, val && g && given);
    if (st == FR_OK) {
        v += prox2(w, wk, d) * s / 2;                      /* (10)-(11) */
        for (size_t k = 0; k < d; k++) {
            gt[k] += (w[k] - wk[k]) * s;
            if (Ht)
                Ht[k * d + k] += s;
        }
        if (!isfinite(v) || !finite_out(gt, d) || !finite_out(Ht, d * d))
            st = FR_ENONFINITE;
    }
    if (st == FR_OK) {
        if (val) *val = v;
        if (g) memcpy(g, gt, d * sizeof *g);
        if (H) memcpy(H, Ht, d * d * sizeof *H);
    }
    free(ws);
    return st;
}

int ff_proxal_mu_update(double *mu_next, const fr_proxal_problem *P, const double *w,
                        const double *mu, double beta)
{
    if (!mu_next)
        return FR_ENULL;
    int st = lk_args(P, SIZE_MAX, w, w, mu, beta);
    if (st != FR_OK)
        return st;
    return ffi_proxal_mu_update_body(mu_next, P, w, mu, beta);
}

/* ff_proxal_mu_update after its checks (eval.h: Algorithms 1 and 3 check
 * the problem once per run, not (n + 2) times per outer iteration). */
int ffi_proxal_mu_update_body(double *mu_next, const fr_proxal_problem *P, const double *w,
                              const double *mu, double beta)
{
    int st = FR_OK;
    size_t mt = fr_proxal_mtot(P), mmax = 0;
    for (size_t i = 0; i <= P->n; i++)
        if (fr_proxal_mi(P, i) > mmax)
            mmax = fr_proxal_mi(P, i);
    double *t = malloc((mt + mmax + 1) * sizeof *t), *ci = t + mt;
    if (!t)
        return FR_ENOMEM;
    size_t off = 0;
    for (size_t i = 0; i <= P->n && st == FR_OK; i++) {
        size_t m = fr_proxal_mi(P, i);
        st = ffi_proxal_client_eval_body(P, i, w, NULL, NULL, NULL, ci, NULL, NULL, NULL);
        for (size_t j = 0; j < m && st == FR_OK; j++) {
            double s = mu[off + j] + beta * ci[j];
            t[off + j] = fr_proxal_row_eq(P, i, j) ? s : s > 0 ? s : 0.0;   /* [.]_+, +0 */
            if (!isfinite(s))
                st = FR_ENONFINITE;
        }
        off += m;
    }
    if (st == FR_OK)
        memcpy(mu_next, t, mt * sizeof *t);                /* may alias mu */
    free(t);
    return st;
}

static int pk_eval(void *ctx, size_t i, const double *w, double *F, double *g, double *H)
{
    const ff_proxal_pk_ctx *c = ctx;
    if (!w)
        return FR_ENULL;
    return pik_body(F, g, H, c->P, i, w, c->wk, c->mu, c->beta, NULL, 0);   /* checked by pk_fsum */
}

/* eval.h: pk_eval of an ff_proxal_pk_fsum oracle with its parts kept */
int ffi_proxal_pk_eval_parts(void *ctx, size_t i, const double *w, double *F, double *g, double *parts)
{
    const ff_proxal_pk_ctx *c = ctx;
    if (!w || !F || !g || !parts)
        return FR_ENULL;
    return pik_body(F, g, NULL, c->P, i, w, c->wk, c->mu, c->beta, parts, 0);
}

/* eval.h: the same from parts this call kept at w */
int ffi_proxal_pk_eval_given(void *ctx, size_t i, const double *w, double *F, double *g, double *parts)
{
    const ff_proxal_pk_ctx *c = ctx;
    if (!w || !F || !g || !parts)
        return FR_ENULL;
    return pik_body(F, g, NULL, c->P, i, w, c->wk, c->mu, c->beta, parts, 1);
}

static int pk_quad(void *ctx, size_t i)
{
    (void)i;
    return ((const ff_proxal_pk_ctx *)ctx)->P->kind == FR_PROXAL_QP;
}

int ff_proxal_pk_fsum(ff_proxal_fsum *F, ff_proxal_pk_ctx *ctx, const fr_proxal_problem *P,
                      const double *wk, const double *mu, double beta)
{
    if (!F || !ctx)
        return FR_ENULL;
    int st = lk_args(P, SIZE_MAX, wk, wk, mu, beta);
    if (st != FR_OK)
        return st;
    ctx->P = P;
    ctx->wk = wk;
    ctx->mu = mu;
    ctx->beta = beta;
    F->n = P->n;
    F->d = P->d;
    F->ctx = ctx;
    F->eval = pk_eval;
    F->quad = pk_quad;
    return FR_OK;
}
