/* SPDX-License-Identifier: Apache-2.0 */
/* net_oracle.c -- forward-mode jets in MPFR and the literal loss (28) of
 * 000 Sec. V (net_oracle.h). */
#include <stdlib.h>
#include "net_oracle.h"

size_t pcs_hidx(size_t i, size_t j)
{
    return i >= j ? i * (i + 1) / 2 + j : j * (j + 1) / 2 + i;
}

static size_t nh(const pcs_jet *a)
{
    return a->order >= 2 ? a->d * (a->d + 1) / 2 : 0;
}

int pcs_jet_init(pcs_jet *a, size_t d, int order, mpfr_prec_t q)
{
    a->d = d;
    a->order = order;
    a->g = malloc(sizeof(mpfr_t) * (d ? d : 1));
    a->h = order >= 2 ? malloc(sizeof(mpfr_t) * (d * (d + 1) / 2 + 1)) : NULL;
    if (a->g == NULL || (order >= 2 && a->h == NULL)) {
        free(a->g);
        free(a->h);
        a->g = a->h = NULL;
        return -1;
    }
    mpfr_inits2(q, a->v, a->t1, a->t2, (mpfr_ptr)0);
    mpfr_set_zero(a->v, 1);
    for (size_t k = 0; k < d; k++) {
        mpfr_init2(a->g[k], q);
        mpfr_set_zero(a->g[k], 1);
    }
    for (size_t k = 0; k < nh(a); k++) {
        mpfr_init2(a->h[k], q);
        mpfr_set_zero(a->h[k], 1);
    }
    return 0;
}

void pcs_jet_clear(pcs_jet *a)
{
    if (a->g == NULL)
        return;
    for (size_t k = 0; k < a->d; k++)
        mpfr_clear(a->g[k]);
    for (size_t k = 0; k < nh(a); k++)
        mpfr_clear(a->h[k]);
    mpfr_clears(a->v, a->t1, a->t2, (mpfr_ptr)0);
    free(a->g);
    free(a->h);
    a->g = a->h = NULL;
}

void pcs_jet_const(pcs_jet *r, const mpfr_t x)
{
    mpfr_set(r->v, x, MPFR_RNDN);
    for (size_t k = 0; k < r->d; k++)
        mpfr_set_zero(r->g[k], 1);
    for (size_t k = 0; k < nh(r); k++)
        mpfr_set_zero(r->h[k], 1);
}

void pcs_jet_var(pcs_jet *r, const mpfr_t x, size_t k)
{
    pcs_jet_const(r, x);
    mpfr_set_ui(r->g[k], 1, MPFR_RNDN);
}

static void addsub(pcs_jet *r, const pcs_jet *a, const pcs_jet *b, int sub)
{
    int (*op)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t) = sub ? mpfr_sub : mpfr_add;
    op(r->v, a->v, b->v, MPFR_RNDN);
    for (size_t k = 0; k < r->d; k++)
        op(r->g[k], a->g[k], b->g[k], MPFR_RNDN);
    for (size_t k = 0; k < nh(r); k++)
        op(r->h[k], a->h[k], b->h[k], MPFR_RNDN);
}

void pcs_jet_add(pcs_jet *r, const pcs_jet *a, const pcs_jet *b)
{
    addsub(r, a, b, 0);
}

void pcs_jet_sub(pcs_jet *r, const pcs_jet *a, const pcs_jet *b)
{
    addsub(r, a, b, 1);
}

void pcs_jet_neg(pcs_jet *r, const pcs_jet *a)
{
    mpfr_neg(r->v, a->v, MPFR_RNDN);
    for (size_t k = 0; k < r->d; k++)
        mpfr_neg(r->g[k], a->g[k], MPFR_RNDN);
    for (size_t k = 0; k < nh(r); k++)
        mpfr_neg(r->h[k], a->h[k], MPFR_RNDN);
}

void pcs_jet_add_const(pcs_jet *r, const pcs_jet *a, const mpfr_t c)
{
    if (r != a) {
        for (size_t k = 0; k < r->d; k++)
            mpfr_set(r->g[k], a->g[k], MPFR_RNDN);
        for (size_t k = 0; k < nh(r); k++)
            mpfr_set(r->h[k], a->h[k], MPFR_RNDN);
    }
    mpfr_add(r->v, a->v, c, MPFR_RNDN);
}

void pcs_jet_addmul(pcs_jet *r, const pcs_jet *a, const mpfr_t c)
{
    mpfr_mul(r->t1, a->v, c, MPFR_RNDN);
    mpfr_add(r->v, r->v, r->t1, MPFR_RNDN);
    for (size_t k = 0; k < r->d; k++) {
        mpfr_mul(r->t1, a->g[k], c, MPFR_RNDN);
        mpfr_add(r->g[k], r->g[k], r->t1, MPFR_RNDN);
    }
    for (size_t k = 0; k < nh(r); k++) {
        mpfr_mul(r->t1, a->h[k], c, MPFR_RNDN);
        mpfr_add(r->h[k], r->h[k], r->t1, MPFR_RNDN);
    }
}

/* Product rule: (ab)'' = a b'' + b a'' + a' b'^T + b' a'^T.  Entry by
 * entry, each reads its operands before it writes, and h is done before g
 * and g before v, so r may alias a and/or b. */
void pcs_jet_mul(pcs_jet *r, const pcs_jet *a, const pcs_jet *b)
{
    size_t d = r->d;
    if (r->order >= 2)
        for (size_t i = 0; i < d; i++)
            for (size_t j = 0; j <= i; j++) {
                size_t k = pcs_hidx(i, j);
                mpfr_mul(r->t1, a->v, b->h[k], MPFR_RNDN);
                mpfr_mul(r->t2, b->v, a->h[k], MPFR_RNDN);
                mpfr_add(r->t1, r->t1, r->t2, MPFR_RNDN);
                mpfr_mul(r->t2, a->g[i], b->g[j], MPFR_RNDN);
                mpfr_add(r->t1, r->t1, r->t2, MPFR_RNDN);
                mpfr_mul(r->t2, b->g[i], a->g[j], MPFR_RNDN);
                mpfr_add(r->h[k], r->t1, r->t2, MPFR_RNDN);
            }
    for (size_t i = 0; i < d; i++) {
        mpfr_mul(r->t1, a->v, b->g[i], MPFR_RNDN);
        mpfr_mul(r->t2, b->v, a->g[i], MPFR_RNDN);
        mpfr_add(r->g[i], r->t1, r->t2, MPFR_RNDN);
    }
    mpfr_mul(r->v, a->v, b->v, MPFR_RNDN);
}

/* Chain rule for f(a) with f0 = f(a.v), f1 = f'(a.v), f2 = f''(a.v)
 * (f0, f1, f2 must not be r's scratch). */
static void chain(pcs_jet *r, const pcs_jet *a, const mpfr_t f0, const mpfr_t f1,
                  const mpfr_t f2)
{
    size_t d = r->d;
    if (r->order >= 2)
        for (size_t i = 0; i < d; i++)
            for (size_t j = 0; j <= i; j++) {
                size_t k = pcs_hidx(i, j);
                mpfr_mul(r->t1, f1, a->h[k], MPFR_RNDN);
                mpfr_mul(r->t2, a->g[i], a->g[j], MPFR_RNDN);
                mpfr_mul(r->t2, r->t2, f2, MPFR_RNDN);
                mpfr_add(r->h[k], r->t1, r->t2, MPFR_RNDN);
            }
    for (size_t i = 0; i < d; i++)
        mpfr_mul(r->g[i], f1, a->g[i], MPFR_RNDN);
    mpfr_set(r->v, f0, MPFR_RNDN);
}

void pcs_jet_exp(pcs_jet *r, const pcs_jet *a)
{
    mpfr_t e;
    mpfr_init2(e, mpfr_get_prec(r->v));
    mpfr_exp(e, a->v, MPFR_RNDN);          /* exp' = exp'' = exp */
    chain(r, a, e, e, e);
    mpfr_clear(e);
}

void pcs_jet_log(pcs_jet *r, const pcs_jet *a)
{
    mpfr_t f0, f1, f2;
    mpfr_inits2(mpfr_get_prec(r->v), f0, f1, f2, (mpfr_ptr)0);
    mpfr_log(f0, a->v, MPFR_RNDN);
    mpfr_ui_div(f1, 1, a->v, MPFR_RNDN);   /* 1/x */
    mpfr_sqr(f2, f1, MPFR_RNDN);
    mpfr_neg(f2, f2, MPFR_RNDN);           /* -1/x^2 */
    chain(r, a, f0, f1, f2);
    mpfr_clears(f0, f1, f2, (mpfr_ptr)0);
}

void pcs_jet_recip(pcs_jet *r, const pcs_jet *a)
{
    mpfr_t f0, f1, f2;
    mpfr_inits2(mpfr_get_prec(r->v), f0, f1, f2, (mpfr_ptr)0);
    mpfr_ui_div(f0, 1, a->v, MPFR_RNDN);   /* 1/x */
    mpfr_sqr(f1, f0, MPFR_RNDN);
    mpfr_mul(f2, f1, f0, MPFR_RNDN);
    mpfr_mul_2ui(f2, f2, 1, MPFR_RNDN);    /* 2/x^3 */
    mpfr_neg(f1, f1, MPFR_RNDN);           /* -1/x^2 */
    chain(r, a, f0, f1, f2);
    mpfr_clears(f0, f1, f2, (mpfr_ptr)0);
}

/* ---- the network ---------------------------------------------------------*/

int pcs_net_init(pcs_net *N, size_t L, size_t J, size_t P, int order, mpfr_prec_t q)
{
    size_t d = J * (L + P), k;
    N->L = L;
    N->J = J;
    N->P = P;
    N->d = d;
    N->order = order;
    N->q = q;
    N->w = calloc(d + J + L, sizeof(pcs_jet));
    if (N->w == NULL)
        return -1;
    N->S = N->w + d;
    N->E = N->S + J;
    int rc = 0;
    for (k = 0; k < d + J + L; k++)
        rc |= pcs_jet_init(&N->w[k], d, order, q);
    rc |= pcs_jet_init(&N->u, d, order, q);
    rc |= pcs_jet_init(&N->t, d, order, q);
    rc |= pcs_jet_init(&N->D, d, order, q);
    rc |= pcs_jet_init(&N->o, d, order, q);
    if (rc) {
        pcs_net_clear(N);
        return -1;
    }
    return 0;
}

void pcs_net_clear(pcs_net *N)
{
    if (N->w == NULL)
        return;
    for (size_t k = 0; k < N->d + N->J + N->L; k++)
        pcs_jet_clear(&N->w[k]);
    pcs_jet_clear(&N->u);
    pcs_jet_clear(&N->t);
    pcs_jet_clear(&N->D);
    pcs_jet_clear(&N->o);
    free(N->w);
    N->w = NULL;
}

void pcs_net_set_w(pcs_net *N, mpfr_t *const w)
{
    for (size_t k = 0; k < N->d; k++)
        pcs_jet_var(&N->w[k], w[k], k);
}

int pcs_net_add_loss(pcs_net *N, pcs_jet *acc, mpfr_t *const z, mpfr_t *const y,
                     const mpfr_t c)
{
    size_t L = N->L, J = N->J, P = N->P;
    mpfr_t one, zero, cy;
    mpfr_inits2(N->q, one, zero, cy, (mpfr_ptr)0);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_set_zero(zero, 1);
    int rc = 0;
    /* hidden layer: u_j = sum_p w1_{j,p} z_p, S(u) = u / (1 + e^-u) */
    for (size_t j = 0; j < J; j++) {
        pcs_jet_const(&N->u, zero);
        for (size_t p = 0; p < P; p++)
            pcs_jet_addmul(&N->u, &N->w[L * J + j * P + p], z[p]);
        pcs_jet_neg(&N->t, &N->u);
        pcs_jet_exp(&N->t, &N->t);
        pcs_jet_add_const(&N->t, &N->t, one);
        pcs_jet_recip(&N->t, &N->t);
        pcs_jet_mul(&N->S[j], &N->u, &N->t);
    }
    /* output layer: o_l = sum_j w0_{l,j} S(u_j), E_l = e^{o_l}, D = sum E_l */
    pcs_jet_const(&N->D, zero);
    for (size_t l = 0; l < L; l++) {
        pcs_jet_const(&N->o, zero);
        for (size_t j = 0; j < J; j++) {
            pcs_jet_mul(&N->t, &N->w[l * J + j], &N->S[j]);
            pcs_jet_add(&N->o, &N->o, &N->t);
        }
        pcs_jet_exp(&N->E[l], &N->o);
        pcs_jet_add(&N->D, &N->D, &N->E[l]);
    }
    pcs_jet_recip(&N->D, &N->D);
    /* loss = -sum_l y_l log Q_l, Q_l = E_l / D */
    for (size_t l = 0; l < L && rc == 0; l++) {
        if (mpfr_zero_p(y[l]))
            continue;
        pcs_jet_mul(&N->t, &N->E[l], &N->D);
        if (mpfr_sgn(N->t.v) <= 0) {
            rc = -1;
            break;
        }
        pcs_jet_log(&N->t, &N->t);
        mpfr_neg(cy, y[l], MPFR_RNDN);          /* -c y_l */
        if (c)
            mpfr_mul(cy, cy, c, MPFR_RNDN);
        pcs_jet_addmul(acc, &N->t, cy);
    }
    mpfr_clears(one, zero, cy, (mpfr_ptr)0);
    return rc;
}

void pcs_net_printed_grad(mpfr_t *g, mpfr_t *const w, size_t L, size_t J, size_t P,
                          mpfr_t *const z, mpfr_t *const y, int corrected, mpfr_prec_t q)
{
    mpfr_t *u = malloc(sizeof(mpfr_t) * (3 * J + 3 * L));
    if (u == NULL)
        return;
    mpfr_t *S = u + J, *Sp = S + J, *o = Sp + J, *Q = o + L, *r = Q + L;
    mpfr_t e, s, t, sy;
    for (size_t k = 0; k < 3 * J + 3 * L; k++)
        mpfr_init2(u[k], q);
    mpfr_inits2(q, e, s, t, sy, (mpfr_ptr)0);
    for (size_t j = 0; j < J; j++) {
        mpfr_set_zero(u[j], 1);
        for (size_t p = 0; p < P; p++) {
            mpfr_mul(t, w[L * J + j * P + p], z[p], MPFR_RNDN);
            mpfr_add(u[j], u[j], t, MPFR_RNDN);
        }
        mpfr_neg(e, u[j], MPFR_RNDN);
        mpfr_exp(e, e, MPFR_RNDN);                /* e^-u */
        mpfr_add_ui(s, e, 1, MPFR_RNDN);          /* 1 + e^-u */
        mpfr_div(S[j], u[j], s, MPFR_RNDN);       /* S(u) */
        mpfr_mul(t, u[j], e, MPFR_RNDN);
        mpfr_div(t, t, s, MPFR_RNDN);
        mpfr_add_ui(t, t, 1, MPFR_RNDN);
        mpfr_div(Sp[j], t, s, MPFR_RNDN);         /* printed S'(u) */
    }
    mpfr_set_zero(s, 1);
    mpfr_set_zero(sy, 1);
    for (size_t l = 0; l < L; l++) {
        mpfr_set_zero(o[l], 1);
        for (size_t j = 0; j < J; j++) {
            mpfr_mul(t, w[l * J + j], S[j], MPFR_RNDN);
            mpfr_add(o[l], o[l], t, MPFR_RNDN);
        }
        mpfr_exp(Q[l], o[l], MPFR_RNDN);
        mpfr_add(s, s, Q[l], MPFR_RNDN);
        mpfr_add(sy, sy, y[l], MPFR_RNDN);
    }
    for (size_t l = 0; l < L; l++) {
        mpfr_div(Q[l], Q[l], s, MPFR_RNDN);
        if (corrected)
            mpfr_mul(r[l], Q[l], sy, MPFR_RNDN);
        else
            mpfr_set(r[l], Q[l], MPFR_RNDN);
        mpfr_sub(r[l], r[l], y[l], MPFR_RNDN);   /* Q_l - y_l (29) */
        for (size_t j = 0; j < J; j++) {
            mpfr_mul(t, r[l], S[j], MPFR_RNDN);
            mpfr_add(g[l * J + j], g[l * J + j], t, MPFR_RNDN);
        }
    }
    for (size_t j = 0; j < J; j++)
        for (size_t p = 0; p < P; p++) {          /* (30) */
            mpfr_set_zero(s, 1);
            for (size_t l = 0; l < L; l++) {
                mpfr_mul(t, r[l], Sp[j], MPFR_RNDN);
                mpfr_mul(t, t, w[l * J + j], MPFR_RNDN);
                mpfr_mul(t, t, z[p], MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
            }
            mpfr_add(g[L * J + j * P + p], g[L * J + j * P + p], s, MPFR_RNDN);
        }
    for (size_t k = 0; k < 3 * J + 3 * L; k++)
        mpfr_clear(u[k]);
    mpfr_clears(e, s, t, sy, (mpfr_ptr)0);
    free(u);
}
