/* SPDX-License-Identifier: Apache-2.0 */
/* net_oracle.h -- an independent high-precision oracle for the two-layer
 * network of 000 Sec. V, used by the proof checks of proofs_checks/ssca/.
 *
 * The loss (28) of one sample is evaluated LITERALLY, as printed,
 *   u_j = sum_p w1_{j,p} z_p,  S(u) = u / (1 + e^-u),
 *   o_l = sum_j w0_{l,j} S(u_j),  Q_l = e^{o_l} / sum_h e^{o_h},
 *   loss = -sum_l y_l log Q_l,
 * for ANY real label vector y (one-hot or not), in forward-mode automatic
 * differentiation: every intermediate is a jet (value, gradient along the
 * d coordinates of w, and optionally the Hessian), propagated with the
 * exact rules of calculus (sum, product, and the chain rule for exp, log
 * and 1/x: f(a) has gradient f'(a) grad a and Hessian
 * f'(a) hess a + f''(a) grad a grad a^T).  No backpropagation formula and
 * no closed-form derivative of S or of softmax is used, so the gradient is
 * the TRUE gradient of (28), independent of (29)-(30).  Each operation is
 * one MPFR rounding to nearest at the jet's precision q.  With the small
 * sizes of the checks (d <= 24, a few hundred operations, the terms that
 * meet in a sum of magnitude <= 2^16 after the softmax normalisation) the
 * result is within 2^-(q-48) max(1, |entry|) of the exact jet: a mixed
 * bound.  Cancellation (Q_y - 1 ~ -e^-Delta when o_y leads by Delta) loses
 * relative accuracy, up to ~1.45 (max|u| + max|o|) bits; check_loss_stable.c,
 * which needs relative accuracy there, raises q by 3 (max|u| + max|o|).
 *
 * Layout of w (fedspec/ssca.h): w[l*J + j] = omega_{0,l,j},
 * w[L*J + j*P + p] = omega_{1,j,p}; d = J (L + P).
 *
 * Also the printed formulas (29)-(30) (with the printed S') for any y, and
 * the corrected ones for a label vector that is not one-hot.
 * Names start with pcs_ (never pc_: ci/gen-registry.sh). */
#ifndef FEDREF_PC_SSCA_NET_ORACLE_H
#define FEDREF_PC_SSCA_NET_ORACLE_H

#include <stddef.h>
#include <mpfr.h>

/* ---- jets ------------------------------------------------------------------
 * order 1: v and g (d entries); order 2: also h, the lower triangle of the
 * Hessian packed by rows (h[i (i+1)/2 + j], j <= i).  Every operation
 * allows its result to alias its operands. */
typedef struct {
    size_t d;
    int order;
    mpfr_t v;
    mpfr_t *g;
    mpfr_t *h;       /* NULL for order 1 */
    mpfr_t t1, t2;   /* scratch */
} pcs_jet;

int pcs_jet_init(pcs_jet *a, size_t d, int order, mpfr_prec_t q); /* 0 or -1 */
void pcs_jet_clear(pcs_jet *a);
/* Index of H_{i,j} in h (any order of i, j). */
size_t pcs_hidx(size_t i, size_t j);
void pcs_jet_const(pcs_jet *r, const mpfr_t x);            /* x, 0, 0 */
void pcs_jet_var(pcs_jet *r, const mpfr_t x, size_t k);    /* x, e_k, 0 */
void pcs_jet_add(pcs_jet *r, const pcs_jet *a, const pcs_jet *b);
void pcs_jet_sub(pcs_jet *r, const pcs_jet *a, const pcs_jet *b);
void pcs_jet_mul(pcs_jet *r, const pcs_jet *a, const pcs_jet *b);
/* r += c a (c a constant). */
void pcs_jet_addmul(pcs_jet *r, const pcs_jet *a, const mpfr_t c);
void pcs_jet_add_const(pcs_jet *r, const pcs_jet *a, const mpfr_t c);
void pcs_jet_neg(pcs_jet *r, const pcs_jet *a);
void pcs_jet_exp(pcs_jet *r, const pcs_jet *a);
void pcs_jet_log(pcs_jet *r, const pcs_jet *a);    /* a.v > 0 */
void pcs_jet_recip(pcs_jet *r, const pcs_jet *a);  /* a.v != 0 */

/* ---- the network -------------------------------------------------------- */
typedef struct {
    size_t L, J, P, d;
    int order;
    mpfr_prec_t q;
    pcs_jet *w;      /* d variable jets */
    pcs_jet *S;      /* J */
    pcs_jet *E;      /* L */
    pcs_jet u, t, D, o;
} pcs_net;

int pcs_net_init(pcs_net *N, size_t L, size_t J, size_t P, int order,
                 mpfr_prec_t q);                             /* 0 or -1 */
void pcs_net_clear(pcs_net *N);
/* The point of evaluation: w_k becomes the variable jet (w_k, e_k). */
void pcs_net_set_w(pcs_net *N, mpfr_t *const w);
/* acc += c * loss(w; z, y) (28), as a jet; acc has N's d and order; c may
 * be NULL (c = 1).  z: P features, y: L label values (any reals).
 * 0, or -1 if a Q_l with y_l != 0 is 0 (log undefined). */
int pcs_net_add_loss(pcs_net *N, pcs_jet *acc, mpfr_t *const z,
                     mpfr_t *const y, const mpfr_t c);

/* g += the printed per-sample messages (29)-(30) at w, for features z and
 * labels y (any reals):
 *   abar_{l,j} = (Q_l - y_l) S(u_j)
 *   bbar_{j,p} = sum_l (Q_l - y_l) S'(u_j) w0_{l,j} z_p,
 *   S'(x) = 1/(1 + e^-x) (1 + x e^-x / (1 + e^-x))   (the printed S'),
 * or with `corrected`, (Q_l sum_h y_h - y_l) in place of (Q_l - y_l): the
 * true gradient of (28) for any y.  Plain MPFR at precision q. */
void pcs_net_printed_grad(mpfr_t *g, mpfr_t *const w, size_t L, size_t J,
                          size_t P, mpfr_t *const z, mpfr_t *const y,
                          int corrected, mpfr_prec_t q);

#endif
