/* SPDX-License-Identifier: Apache-2.0 */
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


/* ==== Algorithms 1-4 and the baselines of 000 Sec. VI, end to end ==========
 * docs/SSCA.md section 10 is the normative description (round structure,
 * draw order, records); docs/RNG.md section 3.9 the streams.
 *
 * The data: N samples of the network of Sec. V (fedspec layout above),
 * split over nc clients either by samples (Algorithms 1-2 and the
 * sample-based baselines: client i owns the Ni[i] consecutive samples
 * starting at Ni[0] + ... + Ni[i-1]) or by features (Algorithms 3-4 and the
 * feature-based baselines: client i owns the Pi[i] consecutive features
 * starting at Pi[0] + ... + Pi[i-1]; every client holds every label).
 * The partition the algorithm does not use may be NULL. */
typedef struct {
    size_t N, P, J, L;     /* samples, features, hidden cells, classes (L >= 2) */
    const double *Z;       /* N x P, row-major, finite */
    const size_t *y;       /* N labels, each < L */
    size_t nc;             /* clients I >= 1 */
    const size_t *Ni;      /* sample partition: nc counts >= 1 summing to N */
    const size_t *Pi;      /* feature partition: nc counts >= 1 summing to P */
    uint64_t seal;         /* rule 6 of fedref_common.h; zero-initialise, never write */
} fr_ssca_data;

/* The seal of the data (fedref_common.h rule 6).  fr_ssca_data_seal(D)
 * makes the data's full check: FR_ENULL (D, Z, y), FR_ESIZE (N, P, J, L
 * or nc zero; J (L + P) or N P above FR_COUNT_MAX; a partition that is not
 * NULL with a count zero or counts not summing to N, resp. P),
 * FR_ENONFINITE (Z), FR_EDOM (L < 2, a label >= L); on FR_OK it stores in
 * D->seal a keyed hash of N, P, J, L, nc, the pointers Z, y, Ni, Pi and
 * the sums of Ni and Pi (0 for a NULL partition), on an error it stores 0
 * (D non-NULL).  fr_ssca_data_sealed(D): 1 iff D != NULL, D->seal != 0 and
 * D->seal is the hash of D's current fields (O(nc)); no status.
 * While D is sealed, fr_ssca_run_check (so fr_ssca_run_msgs, the runs and
 * their traces in both wings) skips the one O(N P) scan, the finiteness of
 * Z; the labels (indices), the partitions (extents), the sizes and every
 * field of fr_ssca_params are checked on every call, so the statuses are
 * the same sealed or not.  Changing a field voids the seal by itself.
 * The contract: the contents of Z are not changed while the seal is in
 * use; after changing them seal again (or set seal = 0).
 * Checked by: tests/ssca/test_seal.c. */
int fr_ssca_data_seal(fr_ssca_data *D);
int fr_ssca_data_sealed(const fr_ssca_data *D);

/* The algorithms.  SSCA: the examples of Algorithms 1-4 on (32) (1, 3) and
 * (40) (2, 4), M = 1.  Baselines (000 Sec. VI), all on (32):
 *   SGD_S   sample-based SGD: each client runs E local steps
 *           w <- w - r (g/B + 2 lambda w), g the batch gradient sum; the
 *           server averages the client points with weights Ni/N.  E = 1 is
 *           FedSGD, E > 1 PR-SGD, E B = Ni for every i FedAvg (each round
 *           one pass over the local data: the E batches are disjoint).
 *   SGDM_S  sample-based SGD with momentum in the form of 000's [7] (MFL):
 *           v <- mom v + (g/B + 2 lambda w), w <- w - r v locally; the
 *           server averages both w and v (so 2d reals each way).
 *   SGD_F   feature-based SGD: one global step per round on the batch
 *           gradient collected as in Algorithm 3 (steps 4-6).
 *   SGDM_F  feature-based SGD-m: the server keeps v and steps as SGDM_S
 *           with E = 1. */
enum fr_ssca_algo {
    FR_SSCA_ALG1 = 1, FR_SSCA_ALG2 = 2, FR_SSCA_ALG3 = 3, FR_SSCA_ALG4 = 4,
    FR_SSCA_SGD_S = 5, FR_SSCA_SGDM_S = 6, FR_SSCA_SGD_F = 7, FR_SSCA_SGDM_F = 8
};

/* The surrogate weight of the quadratic term (docs/SSCA.md 3). */
enum fr_ssca_weight {
    FR_SSCA_W_EXACT = 0,    /* tau W_t, W_t = 1 - prod_{s<=t}(1 - rho^(s)): the true minimiser */
    FR_SSCA_W_PRINTED = 1   /* tau: 000 (10), (24), (38)-(39), (43)-(44) as printed (W_t = 1) */
};

/* What a trace keeps besides the per-round scalars (bits of keep). */
enum fr_ssca_keep {
    FR_SSCA_KEEP_W = 1u,      /* every iterate w^1 .. w^T (else w^T only) */
    FR_SSCA_KEEP_DRAWS = 2u,  /* every mini-batch index drawn */
    FR_SSCA_KEEP_COST = 4u    /* F(w^t) over all N samples for every t (else NaN) */
};

typedef struct {
    int algo;                 /* enum fr_ssca_algo */
    unsigned long T;          /* T >= 2: rounds t = 1 .. T-1, points w^1 .. w^T */
    size_t B;                 /* batch: per client (sample-based), of the server (feature-based) */
    unsigned long E;          /* local steps of SGD_S, SGDM_S (>= 1; E B <= min Ni); others: ignored */
    double a1, alpha1;        /* rho^(t) = a1 t^-alpha1 in (0, 1] (SSCA) */
    double a2, alpha2;        /* gamma^(t) = a2 t^-alpha2 in (0, 1] (SSCA) */
    double tau;               /* > 0: (7), (15), (19), (27) */
    double lambda;            /* >= 0: (32) (Algorithms 1, 3 and the baselines) */
    double U, c;              /* (40): U finite, c > 0 (Algorithms 2, 4) */
    double lr_a, lr_alpha;    /* baselines: r = lr_a t^-lr_alpha > 0, alpha >= 0 */
    double mom;               /* SGDM_S, SGDM_F: momentum in [0, 1) */
    int weight;               /* enum fr_ssca_weight */
    uint64_t seed;            /* key word 0 of the batch streams (docs/RNG.md 3.9) */
    const double *w1;         /* the initial point w^1 (d entries, finite) */
    unsigned keep;            /* enum fr_ssca_keep bits */
} fr_ssca_params;

/* Limits (FR_ESIZE beyond them). */
#define FR_SSCA_T_MAX 100000ul
#define FR_SSCA_E_MAX 10000ul

/* Stream numbers (docs/RNG.md 3.9), keyed by prm->seed: sample-based,
 * client i draws its batches from (seed, FR_SSCA_STREAM_BATCH + i): per
 * round one frng_sample(Ni[i], B) (SGD_S, SGDM_S: frng_sample(Ni[i], E B),
 * local step e using entries e B .. e B + B - 1); feature-based, the server
 * draws frng_sample(N, B) per round from (seed, FR_SSCA_STREAM_BATCH).  So a
 * sample-based run with one client and a feature-based run draw the same
 * batches. */
#define FR_SSCA_STREAM_BATCH 1u

/* Whether an algorithm is feature-based (3, 4, SGD_F, SGDM_F), constrained
 * (2, 4), a baseline (5-8); 0 for an unknown algo. */
int fr_ssca_algo_feature(int algo);
int fr_ssca_algo_constrained(int algo);
int fr_ssca_algo_baseline(int algo);
/* The name of an algorithm ("alg1" .. "alg4", "sgd_s", "sgdm_s", "sgd_f",
 * "sgdm_f"), NULL if unknown. */
const char *fr_ssca_algo_name(int algo);

/* The argument check of a run, FR_OK or the first failing class:
 *   FR_ENULL      D, prm, D->Z, D->y, prm->w1, the partition the algorithm
 *                 uses;
 *   FR_ESIZE      N, P, J, L, nc, B zero; d = J (L + P) or N P above
 *                 FR_COUNT_MAX; T < 2 or T > FR_SSCA_T_MAX; (SGD_S, SGDM_S)
 *                 E zero or above FR_SSCA_E_MAX; a partition count zero or
 *                 the counts not summing to N (P); B > min Ni (sample-based;
 *                 E B for SGD_S and SGDM_S), B > N (feature-based);
 *   FR_ENONFINITE Z (not scanned while D is sealed: fr_ssca_data_seal),
 *                 w1, and the fields the algorithm uses;
 *   FR_EDOM       an unknown algo or weight, L < 2, a label >= L, tau <= 0,
 *                 rho^(1) or gamma^(1) outside (0, 1] or alpha1, alpha2 < 0
 *                 (SSCA: then every rho^(t), gamma^(t) is in (0, 1]),
 *                 lambda < 0, c <= 0, lr_a <= 0 or lr_alpha < 0 (baselines),
 *                 mom outside [0, 1), unknown keep bits.
 * The stepsize conditions (4) and (6) as a whole are not required (000's
 * own schedules fail (6)): fr_ssca_stepsize gives the verdict. */
int fr_ssca_run_check(const fr_ssca_data *D, const fr_ssca_params *prm);

/* Reals that cross the network in round t of algorithm algo (every
 * client and direction summed; docs/SSCA.md 5 and 10): down (server ->
 * clients), up (clients -> server, the aggregator's extra included), peer
 * (client -> client).  From fr_ssca_msgs_sample / _feature with M = 0
 * and H = J, plus for 2 and 4 the loss's batch sum (one real per client,
 * resp. from the aggregator): on (40) f_{a,0} = 0, so no objective
 * message (000 Sec. V); for SGDM_S twice d each way.
 * Statuses: FR_ENULL (out), then fr_ssca_run_check's; FR_ESIZE if a
 * count overflows 64 bits.  out untouched on error. */
typedef struct {
    uint64_t down, up, peer;
} fr_ssca_round_msgs;
int fr_ssca_run_msgs(fr_ssca_round_msgs *out, const fr_ssca_data *D, const fr_ssca_params *prm);

/* A seeded synthetic problem (the vectors' and the audit's data), exact and
 * language-independent (docs/SSCA.md 10): from stream (seed, 0):
 * Z_{n,p} = (below(2049) - 1024) 2^-10 for n, p in order; then a planted
 * class map: for each class l, row v_l of P integers below(5) - 2; label
 * y_n = argmax_l sum_p v_{l,p} k_{n,p} (the integer numerators; ties to the
 * smaller l), then with below(10) == 0 replaced by below(L) (label noise).
 * fr_ssca_synth: FR_ENULL (Z, y), FR_ESIZE (N, P or L zero, N P or L P >
 * FR_COUNT_MAX, P > 4096), FR_EDOM (L < 2), FR_ENOMEM.
 * fr_ssca_init_w: the initial point, from stream (seed, 1):
 * w_k = (below(2049) - 1024) 2^-(10 + e), e = ceil(log2(fan_in)) / 2
 * rounded up (fan_in = J for omega_0, P for omega_1), in layout order.
 * FR_ENULL (w), FR_ESIZE (fr_ssca_net_dim's). */
int fr_ssca_synth(uint64_t seed, size_t N, size_t P, size_t L, double *Z, size_t *y);
int fr_ssca_init_w(uint64_t seed, size_t L, size_t J, size_t P, double *w);

#ifdef __cplusplus
}
#endif
#endif /* FEDSPEC_SSCA_H */
