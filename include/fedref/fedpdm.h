/* SPDX-License-Identifier: Apache-2.0 */
/* fedref/fedpdm.h -- libfedref, module fedpdm: paper 003 (FedPDM-DP) in MPFR.  Conventions: fedref.h.
 * docs/FEDPDM.md is the normative description. */
#ifndef FEDREF_FEDPDM_H
#define FEDREF_FEDPDM_H

#include <mpfr.h>
#include "fedref_common.h"
#include "fedspec/fedpdm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Gaussian calibration: (5)/(18), the analytic Gaussian mechanism ==== */

/* Math:      the Gaussian mechanism M(D) = g(D) + N(0, sigma^2 I), (4), with
 *            L2 sensitivity s (6).  delta_eps(sigma) = Phi(s/(2 sigma) -
 *            eps sigma/s) - e^eps Phi(-s/(2 sigma) - eps sigma/s) (Balle &
 *            Wang, ICML 2018, Thm 8): M is (eps, delta)-DP iff
 *            delta_eps(sigma) <= delta.  delta_eps is strictly decreasing in
 *            sigma (d delta_eps/d mu = phi(mu/2 - eps/mu) > 0, mu = s/sigma),
 *            from 1 to 0 (docs/FEDPDM.md).
 * fr_gauss_sigma2_classical: sigma2 = 2 s^2 ln(1.25/delta) / eps^2, (5) =
 *            (18) (Dwork & Roth Thm 3.22, proved there for eps < 1 only;
 *            computed for every eps > 0: the verdicts of
 *            proofs_checks/fedpdm/check_gauss.c say where it suffices).
 * fr_gauss_sigma_analytic: sigma = the least sigma >= 0 with
 *            delta_eps(sigma) <= delta (s = 0: +0).
 * fr_gauss_dp_check: *verdict = FR_GAUSS_HOLDS / FAILS / UNKNOWN
 *            (fedspec/fedpdm.h) for delta_eps(sigma) <= delta, and
 *            [mlo, mhi] an enclosure of the margin delta - delta_eps(sigma)
 *            (sigma = 0: delta_eps = 1 if s > 0, 0 if s = 0).
 * Domain:    eps > 0, 0 < delta < 1, s >= 0, all finite; dp_check: sigma >= 0
 *            finite.
 * Statuses:  FR_ENULL (any pointer), FR_ENONFINITE (eps, delta, s; sigma),
 *            FR_EDOM (eps <= 0, delta <= 0 or >= 1, s < 0, sigma < 0),
 *            FR_EINTERNAL (the Ziv loop of sigma2_classical beyond 2^24 bits;
 *            the bracket of sigma_analytic leaving MPFR's exponent range).
 *            Outputs untouched on error.  Aliasing: outputs may be inputs
 *            (results are formed in temporaries); mlo, mhi distinct.
 * Accuracy:  sigma2_classical: RU at prec(sigma2) (correctly rounded upward;
 *            Ziv on a directed-rounding enclosure).  sigma_analytic: the least
 *            number of precision prec(sigma) whose delta_eps is certified
 *            <= delta, i.e. RU(sigma*) (for p > 96 bracketed around a
 *            Newton estimate first; every comparison decided by an
 *            enclosure of delta_eps, precision doubled up to 8192 bits; an
 *            undecided comparison counts as "fails", so the result is never
 *            below sigma*, at most one ulp above RU(sigma*) in that case).
 *            dp_check: HOLDS/FAILS certified; mlo <= margin <= mhi (rounded
 *            outward at their precisions; not necessarily tight).
 * Checked by: proofs_checks/fedpdm/check_gauss.c (grid vs (5); the
 *            privacy-loss-distribution characterisation at 256 bits),
 *            tests/fedpdm/test_gauss.c, vectors/gauss_sigma_classical.json,
 *            vectors/gauss_sigma_analytic.json. */
int fr_gauss_sigma2_classical(mpfr_t sigma2, const mpfr_t eps, const mpfr_t delta, const mpfr_t s);
int fr_gauss_sigma_analytic(mpfr_t sigma, const mpfr_t eps, const mpfr_t delta, const mpfr_t s);
int fr_gauss_dp_check(int *verdict, mpfr_t mlo, mpfr_t mhi, const mpfr_t eps, const mpfr_t delta,
                      const mpfr_t s, const mpfr_t sigma);



/* ==== end of Gaussian calibration ========================================= */



/* ==== sensitivity (19) and the parameter conditions of Lemma 2 / Theorem 3  */

/* fr_fedpdm_sensitivity: the l2 sensitivity (19) of 003 Theorem 1,
 * rounded upward (privacy's safe side).
 * Math: a = |1 - eta rho|, S_Q(a) = sum_{r=0}^{Q-1} a^r, s = 4 eta G S_Q(a).
 *   This is (19) in both branches: (1 - a^Q)/(1 - a) = S_Q(a) for a != 1,
 *   S_Q(1) = Q (eta rho = 2); it is continuous in eta rho and has no 0/0
 *   (eta rho -> 0 and eta rho = 2 both give a = 1).  a > 1 (eta rho > 2)
 *   is allowed: s grows like a^(Q-1).  What (19) bounds, and what it does
 *   not (the whole path), is docs/FEDPDM.md's sensitivity section
 *   (pc_fedpdm_sens19).
 * Domain: eta > 0, rho > 0, 1 <= Q <= FR_FEDPDM_Q_MAX, G >= 0 (G = +-0
 *   gives s = +0).
 * Statuses: FR_ENULL (s, eta, rho, G), FR_ESIZE (Q > FR_FEDPDM_Q_MAX),
 *   FR_ENONFINITE (eta, rho, G), FR_EDOM (Q = 0, eta <= 0, rho <= 0,
 *   G < 0), FR_EPREC (the Ziv loop would pass 2^24 bits: not reached for
 *   binary64-sized inputs), FR_ENOMEM.
 * Aliasing: s may alias eta, rho or G (written last).
 * Accuracy: s = RU(exact) at s's precision, the exact value of the given
 *   numbers (eta rho and 1 - eta rho are formed exactly; S_Q(a) is enclosed
 *   by Horner's rule rounded down and up, exact when every step is, with the
 *   precision doubled until both bounds round up alike).
 * Checked by: vectors/fedpdm_sensitivity.json, tests/fedpdm/test_sens.c
 *   (closed forms, monotonicity, the branch point), pc_fedpdm_sens19.
 *   ref/fedpdm/sens.c. */
int fr_fedpdm_sensitivity(mpfr_t s, const mpfr_t eta, const mpfr_t rho, unsigned long Q,
                          const mpfr_t G);

/* The constants of 003 Lemma 2 / Theorem 3 (Appendix B), as coefficients
 * (the printed B_k include the norms they multiply): b[0..7] = B1..B8,
 * theta1 = min(B1..B4), theta2 = max(B5..B8), C0 = theta2/theta1.  The
 * caller initialises every mpfr_t (its precision is the result's). */
typedef struct {
    mpfr_t b[8];
    mpfr_t theta1, theta2, C0;
    unsigned fail;               /* FR_FEDPDM_T3_* bits (fedspec/fedpdm.h) */
} fr_fedpdm_thm3_consts;

/* fr_fedpdm_thm3: the parameter validator of Lemma 2 / Theorem 3.
 * Math: B1 = N rho/2, B2 = rho/2 - 4L^2/rho - L = -(4L - rho)(2L + rho)/(2
 *   rho), B3 = 8/rho + L/(4L - 2), B4 = 16/rho, B5 = 2, B6 = (1 + 4 rho/N)
 *   16/rho^2, B7 = (L^2 + rho^2) + (4/N)(rho + 4L^2/rho) + 4L^2/rho^2, B8 =
 *   L^2/(4L - 2) + (1 + 4 rho/N) 8/rho^2.  fail: L_LOW iff (L + 4)^2 < 20,
 *   L_HIGH iff 4L > rho, EMPTY iff rho^2 < 16 (2 sqrt 5 - 4)^2 i.e. (rho/4
 *   + 4)^2 < 20, UNDEF iff L = 1/2, B2/B3/B8_NONPOS from the exact signs,
 *   THETA1_NONPOS iff theta1 <= 0 or UNDEF.  C1..C3 are not defined by the
 *   paper (E-003-T3) and not computed.
 * Domain: L > 0, rho > 0, 1 <= N <= FR_COUNT_MAX.
 * Statuses: FR_ENULL (out), FR_ESIZE (N = 0 or > FR_COUNT_MAX),
 *   FR_ENONFINITE (L, rho), FR_EDOM (L <= 0, rho <= 0), FR_ENOMEM.
 * Results: every value correctly rounded to nearest from the exact rational
 *   (GMP mpq from the exact inputs); under UNDEF, b[2], b[7], theta1, theta2
 *   and C0 are NaN; theta1 = 0 gives C0 = +Inf; every flag decided exactly.
 * Aliasing: L, rho must not be members of *out.
 * Checked by: tests/fedpdm/test_sens.c, pc_fedpdm_thm3_conditions.
 *   ref/fedpdm/thm3.c. */
int fr_fedpdm_thm3(fr_fedpdm_thm3_consts *out, const mpfr_t L, const mpfr_t rho, unsigned long N);

/* fr_fedpdm_path_sens: the whole-path sensitivity of client i's uploads
 * under Algorithm 1 with a fixed local step count Q (rule FIXED), given the
 * released history, valid for EVERY participation pattern (E-003-S1,
 * docs/FEDPDM.md 2.4): s[t] >= sup ||y_i^{t+1}(D) - y_i^{t+1}(D')|| over
 * neighbouring D, D' (client i's data replaced) with the same public
 * history (x_0^k, the batches), mini-batch gradients of norm <= G.
 * Math: B_t = (1 - eta^t rho)^Q, W_t = (19)(eta^t, rho, Q, G) / 2;
 *   start X0 (x^{t,0} = x_0^t): a bound Lb_t of ||Lambda|| (Lambda = the
 *     multipliers' difference / rho), Lb_0 = 0,
 *       s[t] = |1 - 2 B_t| Lb_t + 2 W_t,
 *       Lb_{t+1} = max(Lb_t, |B_t| Lb_t + W_t);
 *   start XI (x^{t,0} = x_i^t): bounds Xb_t, Lb_t of ||x_i - x_i'||, ||Lambda||,
 *     Xb_0 = Lb_0 = 0,
 *       s[t] = |2 B_t| Xb_t + |1 - 2 B_t| Lb_t + 2 W_t,
 *       Xb_{t+1} = max(Xb_t, |B_t| Xb_t + |1 - B_t| Lb_t + W_t),
 *       Lb_{t+1} = max(Lb_t, |B_t| Xb_t + |B_t| Lb_t + W_t)
 *   (the max with the old bound: a client absent from round t keeps its
 *   state; proof: ref/fedpdm/sens_path.c).  s[0] = (19) exactly (the same
 *   number as fr_fedpdm_sensitivity at prec(s[0])).  Not the sharp sup for
 *   one pattern (triangle inequality), always an upper bound; for start
 *   X0 it is the sup over patterns (each step's map is increasing in Lb_t:
 *   attained by aligned gradients in the worst pattern; pc_fedpdm_sens_path
 *   measures both starts).  MPFR's exponent range is never left for binary64-sized
 *   inputs; an overflow would give s[t] = +Inf (still an upper bound).
 * Aliasing: s may be eta (every s[t] is written after the last read).
 * Domain:    1 <= T <= FR_PDM_T_MAX, 1 <= Q <= FR_FEDPDM_Q_MAX, eta[t] > 0,
 *            rho > 0, G >= 0 finite; start an enum fr_pdm_start.
 * Statuses:  FR_ENULL (s, eta, rho, G), FR_ESIZE (T, Q), FR_ENONFINITE
 *            (eta, rho, G), FR_EDOM (eta, rho <= 0, G < 0, start, Q = 0),
 *            FR_ENOMEM, FR_EPREC (a working precision above 2^24 bits);
 *            s untouched on error.
 * Accuracy:  every s[t] an upper bound of the recursion's exact value
 *            (every operation rounded up at wp bits, |.| of differences
 *            enclosed), then rounded up.  wp = max_t prec(s[t]) + 64, raised
 *            by the bits the cancellations in |1 - 2B_t|, |1 - B_t| can cost
 *            (max_t log2((Xb_t + Lb_t) max(1, |B_t|) / W_t), from a first
 *            pass): each s[t] is within about 2^-(prec + 40) relative of the
 *            exact value, i.e. RU(exact) or (rarely) one ulp above it.
 * Checked by: proofs_checks/fedpdm/check_sens_path.c (>= the simulated
 *            (10a)-(10d) difference over random patterns), tests, vectors/
 *            fedpdm_path_sens.json. */
int fr_fedpdm_path_sens(mpfr_t *s, mpfr_t *const eta, unsigned long T, const mpfr_t rho,
                        unsigned long Q, const mpfr_t G, int start);

/* ==== end of sensitivity ================================================== */



/* ==== privacy accounting: (7), (20), composition, Renyi DP ================ */

/* The accountant of T rounds of Gaussian releases (docs/FEDPDM.md, privacy
 * accounting): each round a participating client releases its upload
 * through the Gaussian mechanism, L2 sensitivity s given everything
 * released before, noise N(0, sigma^2 I) (the same s and sigma every round;
 * per round: fr_fedpdm_rdp_rounds).  The privacy loss (7) of one release is
 * distributed N(mu, 2 mu), mu = s^2 / (2 sigma^2).
 * Neighbouring relation: one client's data replaced (client level; it
 * covers 003's Definition 1, one record replaced, as a special case).
 * Observer: with K = N (and compose, gauss_eps) no amplification: the
 * bound holds against the server, who learns S_t, and so against every
 * observer; this is the only form fedref claims for Algorithm 1 of 003,
 * whose clients keep lambda_i, x_i between rounds (their uploads depend on
 * their secret participation history: no subsampling theorem covers it,
 * docs/FEDPDM.md 3.6).  With K < N: the STATELESS K-of-N subsampled
 * Gaussian (each round a fresh uniform K-subset, a participant's upload a
 * function of the public history and its data only; WBK 2019 Thm 9),
 * against an observer who does not learn S_t.  Every epsilon returned is
 * an UPPER BOUND of the true one for that mechanism, relation and observer
 * (directed rounding, certified), never below it; all are guarantees of
 * the mechanism in exact arithmetic with exact Gaussian noise, not of
 * floating-point draws (docs/RNG.md section 5).
 *
 * fr_fedpdm_gauss_eps: eps = the least e >= 0 such that one Gaussian
 *            release is (e, delta)-DP, rounded up:
 *              delta(e) = Phi(a/2 - e/a) - e^e Phi(-a/2 - e/a) <= delta,
 *              a = s / sigma
 *            (the analytic Gaussian mechanism, Balle & Wang 2018, Thm 8:
 *            the condition is necessary and sufficient; delta(.) is
 *            decreasing, so any e' >= eps is also valid).  The least e
 *            is 0 when s = 0 or delta(0) = erf(a / (2 sqrt2)) <= delta;
 *            eps is then 0 when s = 0 or the enclosure of delta(0) at
 *            p + 32 bits (relative width about 2^-(p+28)) certifies
 *            delta(0) <= delta.  For a delta (of more bits than p + 28)
 *            above delta(0) by less than that width, eps is a positive
 *            upper bound below 2^-4000 (4096 halvings towards 0), not 0.
 * Domain:    sigma > 0, s >= 0, 0 < delta < 1, all finite.
 * Statuses:  FR_ENULL (any argument), FR_ENONFINITE (sigma, s or delta
 *            NaN or infinite), FR_EDOM (sigma <= 0, s < 0, delta outside
 *            (0, 1)); eps untouched on error.  No FR_EINTERNAL: eps = +Inf
 *            only when the least e passes MPFR's exponent range.
 * Aliasing:  eps may alias any input.
 * Accuracy:  bisection on a certified enclosure of delta(e) (Phi by
 *            mpfr_erfc; the second term, once z = a/2 + e/a >= 256, as
 *            phi(a/2 - e/a) R(z), R(z) = Phi(-z)/phi(z) the Mills ratio
 *            enclosed by Laplace's continued fraction, so that e^e and
 *            Phi(-z) never leave MPFR's range: s/sigma up to 2^2098 and
 *            beyond; every operation rounded outward, working precision
 *            doubled up to 8 (p + 32) + 256 bits when a midpoint cannot be
 *            decided), with lo certified delta(lo) > delta and hi certified
 *            delta(hi) <= delta: the result is RNDU(hi), which is RNDU of
 *            the least e when RNDU(lo) = RNDU(hi) (the normal end), and
 *            always an upper bound of it (the bisection ends as soon as
 *            no p-bit number lies in (lo, RNDU(hi)), probing that number
 *            when it is the last one).  For p > 96 the bracket is first
 *            narrowed around a Newton estimate (each new end certified by
 *            the same enclosure), which changes the cost, not the result.
 * Precision: that of eps.
 * Checked by: tests/fedpdm/test_acct.c (the condition re-evaluated at 256
 *            bits at eps and just below it; the closed form for delta(0)),
 *            proofs_checks/fedpdm/check_acct.c.
 *
 * fr_fedpdm_compose: the (eps, delta)-DP of the T releases of one client
 *            (a client may participate in every round: the worst case, NO
 *            subsampling amplification), total delta = delta in both:
 *              basic = T eps_0(delta / T)                  (sum of eps, sum
 *                                                           of delta)
 *              adv   = sqrt(2 T ln(2/delta)) eps_1 + T eps_1 (e^eps_1 - 1),
 *                      eps_1 = eps_0(delta / (2T))
 *            eps_0(d) = fr_fedpdm_gauss_eps(sigma, s, d); adv is Dwork &
 *            Roth, Theorem 3.20 (advanced composition, delta' = delta/2,
 *            k = T, per-round delta/(2T): total T delta/(2T) + delta/2).
 * Domain:    1 <= T <= 2^40; sigma, s, delta as fr_fedpdm_gauss_eps;
 *            basic and adv distinct.
 * Statuses:  FR_ENULL, FR_ESIZE (T), FR_ENONFINITE, FR_EDOM (as above;
 *            basic == adv); outputs untouched on error (adv = +Inf when
 *            e^eps_1 passes MPFR's range).
 * Aliasing:  basic and adv may alias inputs, not each other.
 * Accuracy:  upper bounds: the per-round delta rounded down, eps_0 as
 *            above, every later operation rounded up at p + 64 bits, then
 *            rounded up to the output (not correctly rounded: within a few
 *            ulps of the exact formula at eps_0).
 * Precision: those of basic and adv.
 * Checked by: tests/fedpdm/test_acct.c, proofs_checks/fedpdm/check_acct.c.
 *
 * fr_fedpdm_rdp: eps of the whole run by Renyi DP, with K-of-N client
 *            subsampling, and the order alpha attaining it:
 *              eps = min_{alpha = 2..alpha_max} T e(alpha)
 *                                               + ln(1/delta) / (alpha - 1)
 *            (Mironov 2017, Prop. 3; RDP composes by summing), with the
 *            per-round RDP (K < N)
 *              e(alpha) = min{ alpha mu, (1/(alpha-1)) ln(1
 *                 + g^2 C(alpha,2) min{4 (e^{2 mu} - 1), 2 e^{2 mu}}
 *                 + sum_{j=3}^{alpha} 2 g^j C(alpha,j) e^{j (j-1) mu}) },
 *            g = K/N: Wang, Balle & Kasiviswanathan 2019, Theorem 9 for
 *            the Gaussian's RDP eps(j) = j mu (Mironov 2017) and eps(inf)
 *            = inf, so min{2, (e^{eps(inf)} - 1)^j} = 2 and (j - 1) eps(j)
 *            = j (j - 1) mu; alpha mu (the unsubsampled RDP, also valid)
 *            is taken when smaller.  K = N: e(alpha) = alpha mu exactly.
 * Domain:    1 <= N, 1 <= K <= N, 1 <= T <= 2^40, 2 <= alpha_max <= 1024;
 *            sigma, s, delta as fr_fedpdm_gauss_eps.
 * Statuses:  FR_ENULL (eps, alpha, sigma, s, delta), FR_ESIZE (N = 0, T),
 *            FR_ENONFINITE, FR_EDOM (sigma, s, delta as above; K = 0, K >
 *            N, alpha_max); outputs untouched on error.
 * Aliasing:  eps may alias any input.
 * Accuracy:  an upper bound: every term rounded up at p + 64 bits (mu,
 *            K/N, ln(1/delta), exp, expm1, log1p up; e^{j(j-1) mu} as the
 *            running product of e^{2 mu} powers, rounded up; binomials exact),
 *            sums of positive terms rounded up, the minimum of upper
 *            bounds; alpha: the first order attaining the computed minimum.
 * Precision: that of eps.
 * Checked by: tests/fedpdm/test_acct.c, proofs_checks/fedpdm/check_acct.c
 *            (the Renyi divergence of the subsampled mixture integrated
 *            numerically <= e(alpha)).
 *
 * fr_fedpdm_rdp_order: e = e(alpha), the per-round RDP of order alpha above
 *            (one round, K of N), rounded up.
 * Domain:    1 <= N, 1 <= K <= N, 2 <= alpha <= 1024; sigma > 0, s >= 0
 *            finite.
 * Statuses:  FR_ENULL (e, sigma, s), FR_ESIZE (N = 0), FR_ENONFINITE
 *            (sigma, s), FR_EDOM (sigma, s, K, alpha); e untouched on error.
 * Aliasing:  e may alias any input.
 * Accuracy:  an upper bound, as fr_fedpdm_rdp's terms.
 * Precision: that of e.
 * Checked by: proofs_checks/fedpdm/check_acct.c (>= the exact Renyi
 *            divergence of a subsampled-Gaussian neighbouring pair),
 *            tests/fedpdm/test_acct.c.
 *
 * fr_fedpdm_thm2: 003 (20), Theorem 2, for a given c0 (the paper leaves c0
 *            "a constant dependent upon delta"; its relation is record
 *            level, q a record fraction; with c0 = 1 it is refuted at the
 *            paper's settings, Q = 1, by round 0 alone: E-003-20):
 *              eps_bar = c0 q^2 eps sqrt(p T / (1 - q)),  p = K/N,
 *            rounded up.  NOT a certified privacy guarantee (c0 unknown,
 *            the formula is the paper's; docs/FEDPDM.md compares it with
 *            fr_fedpdm_rdp).
 * Domain:    c0 > 0, eps > 0, 0 < q < 1 finite; 1 <= N, 1 <= K <= N, 1 <=
 *            T <= 2^40.
 * Statuses:  FR_ENULL, FR_ESIZE (N = 0, T), FR_ENONFINITE (c0, eps, q),
 *            FR_EDOM (c0, eps, q, K); eps_bar untouched on error.
 * Aliasing:  eps_bar may alias any input.
 * Accuracy:  rounded up (every operation up at p + 64 bits; 1 - q down).
 * Precision: that of eps_bar.
 * Checked by: tests/fedpdm/test_acct.c. */
int fr_fedpdm_gauss_eps(mpfr_t eps, const mpfr_t sigma, const mpfr_t s, const mpfr_t delta);
int fr_fedpdm_compose(mpfr_t basic, mpfr_t adv, const mpfr_t sigma, const mpfr_t s,
                      unsigned long T, const mpfr_t delta);
int fr_fedpdm_rdp(mpfr_t eps, unsigned long *alpha, const mpfr_t sigma, const mpfr_t s,
                  unsigned long K, unsigned long N, unsigned long T, const mpfr_t delta,
                  unsigned long alpha_max);
int fr_fedpdm_rdp_order(mpfr_t e, const mpfr_t sigma, const mpfr_t s, unsigned long K,
                        unsigned long N, unsigned long alpha);
int fr_fedpdm_thm2(mpfr_t eps_bar, const mpfr_t c0, const mpfr_t eps, unsigned long K,
                   unsigned long N, unsigned long T, const mpfr_t q);

/* fr_fedpdm_rdp_rounds: fr_fedpdm_rdp with a sensitivity and a noise scale
 * per round: round t releases a Gaussian upload with L2 sensitivity s[t]
 * and noise sigma[t] (mu_t = s_t^2 / (2 sigma_t^2)); K of N clients take
 * part in rounds t >= first, all N before (Algorithm 1: S_0 = [N], first =
 * 1; first = 0: every round subsampled);
 *   eps = min_{alpha = 2..alpha_max} sum_t e_t(alpha) + ln(1/delta)/(alpha-1),
 *   e_t = fr_fedpdm_rdp_order's e(alpha) at (sigma[t], s[t]) (K of N for t
 *   >= first, alpha mu_t for t < first).
 * Neighbouring: one client's data replaced.  K = N: no amplification, an
 * upper bound against the server (who learns S_t) and every observer: the
 * form for Algorithm 1 of 003 (with s[t] = fr_fedpdm_path_sens; its clients
 * keep state, so no subsampling bound covers it, docs/FEDPDM.md 3.6).  K < N:
 * the stateless K-of-N subsampled Gaussian (first = 1: round 0 over every
 * client, as Algorithm 1's S_0 = [N]), against an observer who does not
 * learn S_t only.
 * Domain:    1 <= T <= 2^40, first <= T, sigma[t] > 0, s[t] >= 0 finite;
 *            K, N, delta, alpha_max as fr_fedpdm_rdp.
 * Statuses:  as fr_fedpdm_rdp (sigma, s arrays), FR_ESIZE (first > T),
 *            FR_ENOMEM; outputs untouched on error.
 * Accuracy:  an upper bound, as fr_fedpdm_rdp.  Constant arrays give
 *            fr_fedpdm_rdp's value when first = 0 (the same number: a run
 *            of equal consecutive rounds is one per-round term times its
 *            length).  Aliasing: eps may alias any input.
 * Checked by: tests/fedpdm/test_acct.c, vectors/fedpdm_rdp_rounds.json. */
int fr_fedpdm_rdp_rounds(mpfr_t eps, unsigned long *alpha, mpfr_t *const sigma, mpfr_t *const s,
                         unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                         const mpfr_t delta, unsigned long alpha_max);

/* fr_fedpdm_rdp_rounds_improved: fr_fedpdm_rdp_rounds's per-round RDP
 * (the same rounds, runs, K of N for t >= first) with the conversion of
 * Canonne, Kamath & Steinke 2020 / Balle et al. 2020 in place of
 * Mironov's:
 *   eps = min_{alpha = 2..alpha_max} max(0, rho(alpha) + ln(1 - 1/alpha)
 *                                   - (ln delta + ln alpha)/(alpha - 1)),
 *   rho(alpha) = sum_t e_t(alpha) (fr_fedpdm_rdp_order).  It is never above
 * Mironov's at the same alpha (ln(1 - 1/alpha) - ln(alpha)/(alpha - 1) < 0);
 * derivation: docs/DP.md section 2.  Same relation and observers as
 * fr_fedpdm_rdp_rounds.
 * Domain, statuses, aliasing: as fr_fedpdm_rdp_rounds (a status of
 *            fr_fedpdm_rdp_order is passed on; none is reachable for a
 *            valid input).
 * Accuracy:  an upper bound: rho up (rdp_order up, sums and products up),
 *            1/alpha down, ln(1 - 1/alpha) up, ln alpha and ln delta down,
 *            their sum and quotient down, the difference up, at prec(eps)
 *            + 64 bits; then rounded up.
 * Checked by: tests/fedpdm/test_acct_improved.c (every direction at 2..24
 *            bits against 512 bits; <= fr_fedpdm_rdp_rounds; the closed
 *            form at K = N). */
int fr_fedpdm_rdp_rounds_improved(mpfr_t eps, unsigned long *alpha, mpfr_t *const sigma, mpfr_t *const s,
                                  unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                                  const mpfr_t delta, unsigned long alpha_max);

/* fr_fedpdm_pld_rounds: the privacy-loss-distribution (PLD) accountant of
 * fr_fedpdm_rdp_rounds's rounds (the same sigma[t], s[t], first, K, N):
 *   eps = the least e with delta_T(e) <= delta, delta_T the profile of the
 *   T-fold composition of a dominating pair of each round:
 *   K < N (rounds t >= first): H(e) = max(d_AB(e), d_BA(e)), B = N(0,1), A
 *   = (1-q) N(0,1) + q N(mu_t,1), q = K/N, mu_t = s_t/sigma_t (Dong, Roth &
 *   Su 2022, Thm 4.2, sampling without replacement, replace-one:
 *   min{f_q, f_q^-1}**, f_q = T(B, A); d_AB is Balle, Barthe & Gaboardi
 *   2018's bound); rounds t < first or K = N: the Gaussian pair
 *   N(mu_t,1) vs N(0,1) (Balle & Wang 2018, Thm 8).  Each round's profile
 *   is discretised pessimistically by connect-the-dots (Doroshenko et al.
 *   2022) on a grid of step h, composed by FFT (Zhu, Dong & Wang 2022;
 *   docs/DP.md section 3 gives the derivation).
 *   eps_lower = a lower bound of the true eps of the pair (A^T, B^T) (or
 *   its reverse, the larger), a pair realised by neighbouring datasets
 *   (the replaced client contributes mu_t, the others 0): no accountant
 *   for this mechanism can certify less.  The true eps of the mechanism
 *   lies in [eps_lower, eps].
 * Neighbouring: one client's data replaced; observer: does not learn S_t
 * (K < N).  Not covered: an observer who learns S_t, Poisson sampling,
 * add/remove neighbours, clients that keep state between rounds (as
 * fr_fedpdm_rdp_rounds).
 * Domain:    as fr_fedpdm_rdp_rounds (no alpha, alpha_max); the rounds with
 *            s[t] > 0 at most 2^18 - 1.
 * eps_lower may be NULL: then only eps is computed (a third of the work).
 * Statuses:  FR_ENULL (eps, sigma, s, delta), FR_ESIZE (N = 0, T
 *            = 0 or > 2^40, first > T, more than 2^18 - 1 rounds with s > 0),
 *            FR_ENONFINITE, FR_EDOM (as fr_fedpdm_rdp_rounds; eps ==
 *            eps_lower), FR_ENOMEM, FR_EINTERNAL (a discretised atom at 0
 *            certified negative: a bug); outputs untouched on error.
 * Accuracy:  eps an upper bound (every mass of the discretised PLD rounded
 *            up, from outward enclosures of H; the FFT at wp = max(128,
 *            prec + 64) bits with Higham 2002 Thm 24.2's bound carried
 *            through the powers and the inverse FFT added to every composed
 *            mass; the profile's sum rounded up); eps_lower a lower bound
 *            (masses rounded down, the bound subtracted).  The grid step is
 *            chosen so that at most 2^19 points are composed; the gap eps -
 *            eps_lower is the discretisation of both (docs/DP.md: about 2 %
 *            at T = 300).  eps = +Inf when the composed mass at infinite
 *            loss exceeds delta; all s[t] = 0: both 0.
 * Precision: those of eps and eps_lower.
 * Checked by: tests/fedpdm/test_pld.c. */
int fr_fedpdm_pld_rounds(mpfr_t eps, mpfr_t eps_lower, mpfr_t *const sigma, mpfr_t *const s,
                         unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                         const mpfr_t delta);

/* ==== end of privacy accounting =========================================== */



/* ==== the model (24)-(26) ================================================= */

/* The model of 003 Sec. V-A.  X is m x n row-major (row k = x_k, class
 * k's weights), A a mini-batch of b feature rows (b x n, row-major), y
 * their labels (class indices < m).  Notation erratum E-003-25: as
 * printed X_ij = a b^T is n x m and Tr(X X_ij^T) is undefined for m != n;
 * fedref uses X_ij = b a^T (m x n), Tr(X X_ij^T) = x_{y}^T a.
 *
 * ---- the mini-batch loss (25) and its gradient -----------------------------
 * Math:      f = (1/b) sum_t ln(1 + exp(-u_t)) + beta sum_{j,l} X_jl^2/(1 + X_jl^2),
 *            u_t = x_{y_t}^T a_t;
 *            g_kl = -(1/b) sum_{t: y_t = k} sigma(-u_t) A_tl + 2 beta X_kl/(1 + X_kl^2)^2,
 *            sigma(v) = 1/(1 + e^-v).  The loss is separable over the rows
 *            x_k (docs: no class competes with another).
 * Domain:    m, n, b >= 1, m n and b n <= FR_COUNT_MAX; y_t < m; X, A
 *            finite; beta >= 0 finite; f or g may be NULL, not both.
 * Statuses:  FR_ENULL (f and g both NULL, X, A, y, beta), FR_ESIZE (m, n
 *            or b zero or too large, some y_t >= m), FR_ENONFINITE (X, A,
 *            beta), FR_EDOM (beta < 0; f inside g: two outputs), after the
 *            start FR_EPREC (an exact u_t needs more than 2^24 bits),
 *            FR_ENOMEM, FR_EINTERNAL (Ziv loop beyond 2^20 bits: only if
 *            some |u_t| > ~7e8, e^-|u| beyond MPFR's exponent range).
 * Aliasing:  g may alias X (results are formed in temporaries); nothing else.
 * Algorithm: u_t exact; f by a Ziv loop on an MPFI enclosure (f is never a
 *            dyadic number nor a midpoint: ref/fedpdm/model.c); g_kl =
 *            Q + sum_a K_a tau(a), tau(a) = 1/(1 + e^a) over the distinct
 *            |u_t| > 0 of class k, Q, K_a exact rationals (GMP): g_kl = Q
 *            rounded once if every K_a = 0, else a Ziv loop.
 * Accuracy:  correctly rounded (MPFR_RNDN), f and each g_kl.
 * Precision: that of f and of each g_kl.
 * Checked by: tests/fedpdm/test_model.c (X = 0: f = ln 2 + 0, g = -(1/2b)
 *            sum a; mpq/closed-form oracles), proofs_checks/fedpdm/
 *            check_model.c (pc_fedpdm_loss_grad: g against central
 *            differences of f at 256 bits). */
int fr_pdm_loss(mpfr_t f, mpfr_t *g, mpfr_t *const X, size_t m, size_t n, mpfr_t *const A, const size_t *y,
                size_t b, const mpfr_t beta);

/* ---- the test rule (26) -------------------------------------------------------
 * Math:      pred_t = argmax_k x_k^T a_t (softmax (26) is increasing in
 *            x_k^T a, so it does not change the argmax); ties: the smallest
 *            k.  correct = #{t : pred_t = y_t}.
 * Domain:    as fr_pdm_loss; y may be NULL when correct is NULL (then
 *            labels are not read); pred (b entries) or correct may be
 *            NULL, not both.
 * Statuses:  FR_ENULL (pred and correct both NULL, X, A, y when correct),
 *            FR_ESIZE, FR_ENONFINITE as fr_pdm_loss; FR_EPREC (an exact
 *            x_k^T a_t beyond 2^24 bits), FR_ENOMEM.  Aliasing: none.
 * Accuracy:  exact: every x_k^T a_t is formed exactly and compared exactly.
 * Checked by: tests/fedpdm/test_model.c (ties, hand-made margins). */
int fr_pdm_predict(size_t *pred, size_t *correct, mpfr_t *const X, size_t m, size_t n, mpfr_t *const A,
                   const size_t *y, size_t b);

/* ---- the objective (24) -------------------------------------------------------
 * Math:      F = (1/N) sum_i f_i(X; D_i) + gamma ||X||_1, f_i the loss (25) on
 *            client i's full data set (b = d_i), ||X||_1 = sum |X_jl|.  Not
 *            differentiable: value only (the prox is core's prox_l1).
 * Domain:    fr_pdm_problem_check(P); X finite (m n entries); N d_i fits an
 *            unsigned long.
 * Statuses:  FR_ENULL (F, X, P and P's), FR_ESIZE (P's), FR_ENONFINITE (P's,
 *            X), FR_EDOM (P's), after the start as fr_pdm_loss.
 * Aliasing:  none.  Algorithm: as fr_pdm_loss's f (the weights 1/(N d_i)
 *            are positive rationals: F is never dyadic nor a midpoint).
 * Accuracy:  correctly rounded.  Precision: that of F.
 * Checked by: tests/fedpdm/test_model.c (against the mean of fr_pdm_loss
 *            per client at 400 bits), vectors/fedpdm_objective.json. */
int fr_pdm_objective(mpfr_t F, mpfr_t *const X, const fr_pdm_problem *P);


/* ==== end of the model ==================================================== */

/* ==== Algorithm 1 (FedPDM-DP), end to end: (9)-(13), (21) ================
 * fr_pdm_run runs Algorithm 1 of 003 as fedspec/fedpdm.h (section
 * "Algorithm 1") and docs/FEDPDM.md 5 define it, every step at the trace's
 * working precision (the local gradient by fr_pdm_loss at that precision,
 * the server step by fr_prox_l1, sigma by fr_gauss_sigma2_classical and the
 * sensitivity by fr_fedpdm_sensitivity under NOISE_PAPER, noise by
 * fr_rng_gaussian2).  A trace holds the records of one run (every mpfr_t
 * at the trace's precision), R = T N (round-major: entry t N + i):
 *   x0       KEEP_X0: (T+1) x D, row t = x_0^t; else D entries: x_0^T
 *   x, lam   N x D: x_i^T and lambda_i^T
 *   P, Px, Plam, Px0   T+1 each: (21) and its parts at state t (KEEP_P;
 *            else NaN)
 *   F        T+1: (24) at x_0^t (KEEP_F; else NaN)
 *   part, Q, capped, sigma, stop2   R each: i in S_t (0/1); Q_i^t (0 when
 *            absent); 1 iff rule 11 never held in Qmax steps; sigma_{i,t}
 *            (+0 when absent or no noise); ||v||^2 of the last local step
 *            (NaN when absent).  capped is 0 under rule FIXED (nu unread).
 *   draws, nd   KEEP_DRAWS: the nd batch indices drawn, in draw order (round
 *            t, then participants in increasing i, then steps r, b each);
 *            capacity ndmax = T N Qmax b (else 0); entries from nd on are
 *            SIZE_MAX
 *   rounds   rounds done (T after success)
 * Domain:    fr_pdm_run_check, a trace initialised for (P, prm).
 * Statuses:  argument errors (trace untouched): FR_ENULL (t, a zeroed
 *            trace), then fr_pdm_run_check's, FR_ESIZE (a trace initialised
 *            for other sizes or keep: T, N, D, keep, ndmax); after the start (the trace reset to
 *            its initial state): FR_ENOMEM, or a building block's status
 *            (FR_EPREC, FR_EINTERNAL; FR_ENONFINITE if an iterate leaves
 *            MPFR's exponent range).  Aliasing: none.
 * Accuracy:  every step at the working precision p: each entry of v,
 *            (10a), (10c), (10d), (12) and the server's mean rounded once
 *            from the exact value of its (rounded) inputs, ||v||^2 compared
 *            with nu exactly, the clipped gradient of norm <= G exactly, (21)
 *            exact after the gradients up to one rounding per part; x0 and a
 *            NOISE_GIVEN sigma[t] rounded to p (sigma upward) when p < 53
 *            (ref/fedpdm/run_local.c, run.c, run_p.c); the trajectory is not
 *            correctly rounded (golden vectors certify it by precision
 *            doubling, docs/ACCURACY.md).  Draws, S_t and (unless a ||v||^2
 *            is within rounding of nu) Q_i^t do not depend on the precision.
 * fr_pdm_trace_init allocates a trace for (P, prm) at precision prec: every
 * value NaN, part/Q/capped 0, rounds 0.  Statuses: fr_pdm_run_check's,
 * FR_EPREC (prec outside [MPFR_PREC_MIN, FR_PREC_MAX]), FR_ESIZE (a record
 * count above FR_COUNT_MAX), FR_ENOMEM (leaves *t zeroed).
 * fr_pdm_trace_clear frees and zeroes; safe on NULL, a zeroed or a failed
 * trace.
 * Checked by: vectors/fedpdm_run_*.json, the audit (section fedpdm_runs),
 *            proofs_checks/fedpdm/check_runs.c, tests/fedpdm/test_run_ref.c. */
typedef struct {
    size_t T, N, D, ndmax;
    unsigned keep;
    size_t rounds, nd;
    mpfr_t *x0, *x, *lam;
    mpfr_t *P, *Px, *Plam, *Px0, *F;
    mpfr_t *sigma, *stop2;
    unsigned char *part, *capped;
    unsigned long *Q;
    size_t *draws;
} fr_pdm_trace;
int fr_pdm_trace_init(fr_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm,
                      mpfr_prec_t prec);
void fr_pdm_trace_clear(fr_pdm_trace *t);
int fr_pdm_run(fr_pdm_trace *t, const fr_pdm_problem *P, const fr_pdm_params *prm);

/* ==== end of Algorithm 1 ================================================== */

#ifdef __cplusplus
}
#endif
#endif /* FEDREF_FEDPDM_H */
