/* fedspec/ssca.h -- the specification layer of mini-batch SSCA (papers 000
 * and 001), shared by ref (fedref/ssca.h) and fast (fedfast/ssca.h): the
 * stepsize conditions and their verdict words, the layout of the two-layer
 * network's parameters, what crosses the network in each algorithm, and the
 * certificate type of Problem 5.  Nothing numerical lives here: integer
 * arithmetic and strings only.  docs/SSCA.md is the normative description. */
#ifndef FEDSPEC_SSCA_H
#define FEDSPEC_SSCA_H

#include <stddef.h>
#include <stdint.h>
#include "fedref_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== stepsize conditions, 000 (4) and (6) ================================
 * A schedule x^(t) = a t^-alpha, t = 1, 2, ... (alpha = 0: the constant a).
 * Each condition of (4) (rho) and (6) (gamma) is one bit; a verdict is the
 * set of bits that FAIL (0: every condition holds).  The bits are decided
 * exactly from (a, alpha) (p-series and ratio limits, docs/SSCA.md 2):
 *   POS      x^(t) > 0 for all t            iff a > 0
 *   LE1      x^(t) <= 1 for all t           iff a <= 0, or alpha >= 0 and a <= 1
 *   LIM0     x^(t) -> 0                     iff a = 0 or alpha > 0
 *   SUM      sum_t x^(t) = +inf             iff a > 0 and alpha <= 1
 *   SQSUM    sum_t (x^(t))^2 < inf          iff a = 0 or alpha > 1/2   (gamma only)
 *   RATIO    gamma^(t) / rho^(t) -> 0       iff a1 != 0 and (a2 = 0 or alpha2 > alpha1)
 *                                                                       (gamma only)
 * (4) is POS, LE1, LIM0, SUM on rho; (6) is all six on gamma (RATIO
 * couples it to rho).  001's (3) omits LE1 for rho (a reader of 001 masks
 * that bit out); 001's (5) prints "gamma^(t) = 0" for 0 < gamma^(t) <= 1
 * (docs/ERRATA.md). */
enum fr_ssca_cond {
    FR_SSCA_POS = 1u,
    FR_SSCA_LE1 = 2u,
    FR_SSCA_LIM0 = 4u,
    FR_SSCA_SUM = 8u,
    FR_SSCA_SQSUM = 16u,
    FR_SSCA_RATIO = 32u
};
#define FR_SSCA_RHO_CONDS (FR_SSCA_POS | FR_SSCA_LE1 | FR_SSCA_LIM0 | FR_SSCA_SUM)
#define FR_SSCA_GAMMA_CONDS (FR_SSCA_RHO_CONDS | FR_SSCA_SQSUM | FR_SSCA_RATIO)

/* Why condition `bit` fails, for sequence `gamma` (0: rho, 1: gamma), as a
 * fixed English sentence naming the parameters, e.g. for (1, FR_SSCA_SQSUM)
 * "sum gamma^2 diverges: alpha2 <= 1/2 and a2 != 0"; each sentence is the
 * exact negation of the bit's rule above.  NULL for a bit that is not one
 * condition of that sequence (SQSUM and RATIO of rho, 0, several bits,
 * unknown bits) and for gamma outside {0, 1}.  No status: a static string
 * or NULL. */
const char *fr_ssca_cond_reason(int gamma, unsigned bit);

/* ==== the two-layer network of 000 Sec. V ===================================
 * P features, J hidden cells (swish), L classes (softmax).  The parameter
 * vector w has d = J (L + P) entries, 000's order:
 *   w[l*J + j]          = omega_{0,l,j}   (output layer, L x J, row-major)
 *   w[L*J + j*P + p]    = omega_{1,j,p}   (hidden layer, J x P, row-major)
 * A sample is z (P features) and a class label y in [0, L) (one-hot y_n
 * of 000; the gradients (29)-(30) hold only for one-hot labels).
 * FR_OK, or FR_ESIZE if L, J or P is 0 or d overflows FR_COUNT_MAX; *d
 * receives J (L + P) on success (d may be NULL). */
int fr_ssca_net_dim(size_t L, size_t J, size_t P, size_t *d);

/* ==== what crosses the network, per round ===================================
 * Counts of reals (docs/SSCA.md 5), for M constraints (M = 0:
 * unconstrained) with the example surrogates (7)/(15) and (19)/(27):
 *   sample-based (Algorithms 1-2), per client (000 Sec. III-A 3), III-B 3):
 *     down = d (omega_s^(t)),  up = d + M (1 + d)
 *     (the d-vector sum grad f_{s,0} and M (1 + d)-vectors (F, grad F));
 *   feature-based (Algorithms 3-4, Sec. IV-A 3), IV-B 3)), d = d0 +
 *   sum_i d_i, H_m = H for every m:
 *     down_i = d0 + d_i (omega_0, omega_i; the B batch indices of N^(t)
 *              are integers and not counted),
 *     peer_i = (M + 1) H B sent by client i to each other client (h_{m,i}
 *              for every n in the batch and m = 0..M),
 *     up_agg = d0 + M (1 + d0) by the aggregating client (step 5),
 *     up_i   = (M + 1) d_i by client i (step 6).
 * For the network of Sec. V: d0 = L J, d_i = J P_i, H = J (h_{0,i} =
 * sum_{p in P_i} omega_{1,j,p} z_{n,p}, j in J).  Sec. V-A prints the
 * products (omega_{1,j,p} z_{n,p})_{j, p in P_i} as the peer message, J P_i
 * reals per sample: pass H = J P_i for that count.
 * FR_ENULL (out), FR_ESIZE (d, d0, d_i, H or B zero; a count overflows
 * 64 bits); out untouched on error.  Exact (integer arithmetic).
 * (The struct types are named fr_ssca_sample_msgs / fr_ssca_feature_msgs:
 * a typedef cannot share its name with the function.)
 * Checked by: tests/ssca/test_surrogate.c, tests/ssca/test_status_surrogate.c. */
typedef struct {
    uint64_t down, up;          /* sample-based, per client */
} fr_ssca_sample_msgs;
int fr_ssca_msgs_sample(fr_ssca_sample_msgs *out, size_t d, size_t M);
typedef struct {
    uint64_t down, peer, up;    /* feature-based, for one client i */
    uint64_t up_agg;            /* the aggregating client's extra upload */
} fr_ssca_feature_msgs;
int fr_ssca_msgs_feature(fr_ssca_feature_msgs *out, size_t d0, size_t di,
                         size_t H, size_t B, size_t M);

/* ==== the branches of Lemma 1 (000 (45), fr_ssca_lemma1 / ff_ssca_lemma1) ==
 * With b = ||a||^2 and D = b + 4 tau (U - C) (fedref/ssca.h). */
enum fr_ssca_l1_branch {
    FR_SSCA_L1_DNONPOS = 1,   /* D <= 0: nu = c */
    FR_SSCA_L1_ZERO = 2,      /* D > 0, U >= C: nu = 0 */
    FR_SSCA_L1_INTERIOR = 3,  /* 0 < nu < c, h'(nu) = 0 */
    FR_SSCA_L1_CLIPC = 4      /* D > 0, U < C, the stationary point is >= c: nu = c */
};

/* ==== certificate of a Problem 5 solution ===================================
 * Returned by fr_ssca_problem5 / ff_ssca_problem5: upper bounds (rounded
 * up) on the duality gap of the returned (omega, s, nu) and on the KKT
 * residuals of Problem 5, and the 2-norm radius within which the exact
 * omega* lies: radius = sqrt(gap / t0) (strong convexity).  The gap is
 * evaluated as sum_m [(c - nu_m) Fbar_m^+ + nu_m Fbar_m^-] + S ||omega -
 * omega(nu)||^2 (each term >= 0; S = t0 + tau sum nu), nu clamped to
 * [0, c]. */
typedef struct {
    double gap;        /* Phi(omega) - D(nu) >= 0 */
    double radius;     /* ||omega - omega*||_2 <= radius */
    double stat;       /* ||2 t0 omega + g0 + sum_m nu_m (g_m + 2 tau omega)||_inf */
    double feas;       /* max_m max(0, Fbar_m(omega) - s_m, -s_m) */
    double comp;       /* max_m max(|nu_m (Fbar_m(omega) - s_m)|, |(c - nu_m) s_m|) */
    unsigned long iters;  /* iterations of the dual active-set method */
} fr_ssca_kkt;

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_SSCA_H */
