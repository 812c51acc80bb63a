/* SPDX-License-Identifier: Apache-2.0 */
/* enclosures.h -- internal to ref: the certified enclosures of the Gaussian
 * mechanism's privacy profile that gauss.c and acct.c decide on, and the
 * upper bounds of the path sensitivity's recursion (sens_path.c) and one
 * round's upper loss distribution of the PLD accountant (pld.c), declared
 * here so that the white-box tests (tests/fedpdm/test_enclosures.c) can
 * check them at every working precision from 2 bits, where each directed
 * rounding moves an end by far more than the Ziv loops above them let show.
 * Not part of the library's interface (hidden in the shared library). */
#ifndef FEDREF_REF_FEDPDM_ENCLOSURES_H
#define FEDREF_REF_FEDPDM_ENCLOSURES_H
#include <mpfr.h>

/* gauss.c: [lo, hi] (precision w) contains delta_eps(sigma) = Phi(A - B) -
 * e^eps Phi(-A - B), A = s/(2 sigma), B = eps sigma/s (Balle & Wang 2018,
 * Thm 8), for s, sigma > 0; clamped to [0, 1]. */
void fri_pdm_delta_sigma_encl(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr eps, mpfr_srcptr s,
                              mpfr_srcptr sigma, mpfr_prec_t w);

/* gauss.c, the stages of fri_pdm_delta_sigma_encl.  fri_pdm_gauss_args:
 * aL <= A - B <= aU and bL <= -(A + B) <= bU (at their own precisions), A
 * and B bounded at w bits first.  fri_pdm_phi_dir: r <= Phi(x) (up == 0) or
 * r >= Phi(x) (up == 1), Phi(x) = erfc(-x/sqrt 2)/2, given r2L <= sqrt 2 <=
 * r2U.  fri_pdm_phi_diff: r <= p - E q (up == 0; clamped below at +0) or r
 * >= p - E q (up == 1; clamped above at 1), E q formed at prec(q). */
void fri_pdm_gauss_args(mpfr_ptr aL, mpfr_ptr aU, mpfr_ptr bL, mpfr_ptr bU, mpfr_srcptr eps,
                        mpfr_srcptr s, mpfr_srcptr sigma, mpfr_prec_t w);
void fri_pdm_phi_dir(mpfr_ptr r, mpfr_srcptr x, int up, mpfr_srcptr r2L, mpfr_srcptr r2U);
void fri_pdm_phi_diff(mpfr_ptr r, mpfr_srcptr p, mpfr_srcptr q, mpfr_srcptr E, int up);

/* gauss.c: [vL, vU] (precision set to w) contains (5)'s sigma^2 = 2 s^2
 * ln(1.25/delta) / eps^2, eps > 0, 0 < delta < 1. */
void fri_pdm_sigma2_encl(mpfr_ptr vL, mpfr_ptr vU, mpfr_srcptr eps, mpfr_srcptr delta,
                         mpfr_srcptr s, mpfr_prec_t w);

/* acct.c: [dl, du] (precision wp) contains delta(eps) = Phi(a/2 - eps/a) -
 * e^eps Phi(-a/2 - eps/a) for every a in [alo, ahi] (0 < alo), given
 * r2lo <= 1/sqrt 2 <= r2hi; the second term through the Mills ratio when
 * a/2 + eps/a >= 256. */
void fri_pdm_delta_eps_encl(mpfr_ptr dl, mpfr_ptr du, mpfr_srcptr eps, mpfr_srcptr alo,
                            mpfr_srcptr ahi, mpfr_srcptr r2lo, mpfr_srcptr r2hi, mpfr_prec_t wp);

/* acct.c: zl <= a/2 + eps/a <= zu and x1l <= a/2 - eps/a <= x1u for every
 * a in [alo, ahi] (0 < alo, eps >= 0), all four at zl's precision. */
void fri_pdm_mills_args(mpfr_ptr zl, mpfr_ptr zu, mpfr_ptr x1l, mpfr_ptr x1u, mpfr_srcptr eps,
                        mpfr_srcptr alo, mpfr_srcptr ahi);

/* acct.c: [rl, ru] (precision wp) contains the Mills ratio R(z) = Phi(-z) /
 * phi(z) for every z in [zl, zu], 0 < zl. */
void fri_pdm_mills_encl(mpfr_ptr rl, mpfr_ptr ru, mpfr_srcptr zl, mpfr_srcptr zu, mpfr_prec_t wp);

/* acct.c: fr_fedpdm_rdp_order's per-round RDP of order alpha (the K-of-N
 * subsampled Gaussian when sub, else alpha mu) at working precision wp, for
 * mu >= s^2/(2 sigma^2) and g >= K/N given exactly: r (precision wp) >=
 * min{alpha mu, the subsampled bound (acct.c)} at those mu and g.  FR_OK. */
int fri_pdm_rdp_round(mpfr_ptr r, unsigned long alpha, mpfr_srcptr mu, mpfr_srcptr g, int sub,
                      mpfr_prec_t wp);

/* acct.c: mu (its precision) >= s^2 / (2 sigma^2).  FR_OK. */
int fri_pdm_mu_up(mpfr_ptr mu, mpfr_srcptr sigma, mpfr_srcptr s);

/* acct.c, the steps of fr_fedpdm_rdp, each rounded up at its output's
 * precision (rdp_sum: at S's):
 *   S >= g^2 C(alpha,2) min{4(e^{2mu} - 1), 2 e^{2mu}}
 *        + sum_{j=3}^{alpha} 2 g^j C(alpha,j) e^{j(j-1) mu}
 *        (mu >= 0, 0 < g <= 1, alpha <= ACCT_ALPHA_MAX);
 *   r >= ln(1 + S)/(alpha - 1);  g >= K/N;  r >= T e + L/(alpha - 1);
 *   acc += n r (r overwritten) stays >= the exact sum;  L >= ln(1/x). */
void fri_pdm_rdp_sum(mpfr_ptr S, unsigned long alpha, mpfr_srcptr mu, mpfr_srcptr g);
void fri_pdm_rdp_log(mpfr_ptr r, mpfr_srcptr S, unsigned long alpha);
void fri_pdm_ratio_up(mpfr_ptr g, unsigned long K, unsigned long N);
void fri_pdm_rdp_conv(mpfr_ptr r, mpfr_srcptr e, unsigned long T, mpfr_srcptr L, unsigned long alpha);
void fri_pdm_rdp_run(mpfr_ptr acc, mpfr_ptr r, unsigned long n);
void fri_pdm_ln_inv_up(mpfr_ptr L, mpfr_srcptr x);

/* acct.c, the steps of fr_fedpdm_compose: d0 (its precision) <= delta/k;
 * a (its precision) >= sqrt(2T ln(1/delta')) e0 + T e0 (e^e0 - 1),
 * delta' = delta/2 rounded down, each step rounded up at wp, e0 >= 0. */
void fri_pdm_round_delta(mpfr_ptr d0, mpfr_srcptr delta, unsigned long k);
void fri_pdm_adv_eps(mpfr_ptr a, mpfr_srcptr e0, mpfr_srcptr delta, unsigned long T, mpfr_prec_t wp);

/* acct.c: fr_fedpdm_gauss_eps for s > 0 (the arguments checked), its
 * bisection started at working precision wp0 (> the precision p of out;
 * fr_fedpdm_gauss_eps: p + 32) and doubled as before, up to 8 (p + 32) +
 * 256: out >= the least eps with delta(eps) <= delta, every decision
 * certified at the working precision it is made at.  FR_OK. */
int fri_pdm_gauss_eps_wp(mpfr_ptr out, mpfr_srcptr sigma, mpfr_srcptr s, mpfr_srcptr delta,
                         mpfr_prec_t wp0);

/* acct.c: fr_fedpdm_rdp, fr_fedpdm_rdp_rounds, fr_fedpdm_compose and
 * fr_fedpdm_thm2 after their argument checks, at working precision wp (the
 * public functions: the output's precision + 64; the white-box tests: from
 * 2 bits, where each directed step moves the result visibly).  The results
 * are upper bounds at every wp >= 2 (compose: gauss_eps's own working
 * precision follows its output's, wp).  Arguments as the public functions
 * have checked them; their status. */
int fri_pdm_rdp_wp(mpfr_ptr eps, unsigned long *alpha, mpfr_srcptr sigma, mpfr_srcptr s,
                   unsigned long K, unsigned long N, unsigned long T, mpfr_srcptr delta,
                   unsigned long alpha_max, mpfr_prec_t wp);
int fri_pdm_rdp_rounds_wp(mpfr_ptr eps, unsigned long *alpha, mpfr_t *const sigma, mpfr_t *const s,
                          unsigned long T, unsigned long first, unsigned long K, unsigned long N,
                          mpfr_srcptr delta, unsigned long alpha_max, mpfr_prec_t wp);
int fri_pdm_compose_wp(mpfr_ptr basic, mpfr_ptr adv, mpfr_srcptr sigma, mpfr_srcptr s,
                       unsigned long T, mpfr_srcptr delta, mpfr_prec_t wp);
int fri_pdm_thm2_wp(mpfr_ptr eps_bar, mpfr_srcptr c0, mpfr_srcptr eps, unsigned long K,
                    unsigned long N, unsigned long T, mpfr_srcptr q, mpfr_prec_t wp);

/* sens_path.c: one pass of fr_fedpdm_path_sens's recursion at working
 * precision wp (>= 2): r[t] (their own precisions) >= the header's s[t],
 * every operation rounded up at wp bits; *k the extra bits the caller's
 * second pass takes.  Checked white-box at wp = 2.. (tests/fedpdm/
 * test_round_sweep.c), where each rounding is as wide as the bound's
 * slack.  The arguments as fr_fedpdm_path_sens has checked them. */
int fri_pdm_path_pass(mpfr_t *r, mpfr_t *const eta, unsigned long T, const mpfr_t rho, unsigned long Q,
                      const mpfr_t G, int start, mpfr_prec_t wp, long *k);

/* pld.c: [lo, hi] contains H(e), the privacy profile of one round (the
 * pair (A, B) for mu = s/sigma, q = K/N, sub-sampled when K < N, else H =
 * dG: pld.c's header), computed at working precision wp as the PLD
 * accountant encloses it; e >= 0 exact. */
void fri_pdm_pld_h_encl(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr e, mpfr_srcptr s, mpfr_srcptr sigma,
                        unsigned long K, unsigned long N, mpfr_prec_t wp);

/* pld.c: one round's upper loss distribution (the chord of H on the grid
 * e_i = i h, i <= m, h dyadic) at working precision wp, as
 * fr_fedpdm_pld_rounds builds it: x[m + i] >= a_i Delta_i and x[m - i] >=
 * Delta_i (1 <= i <= m), a_i = e^{i h}, Delta_i = s_{i+1} - s_i the change
 * of the chord's slope s_i = (H(e_i) - H(e_{i-1})) / (a_i - a_{i-1}),
 * s_{m+1} = 0; winf_lo <= H(e_m) <= winf_hi; x[m] >= 1 - H(e_m) - sum of
 * the others' true values.  H: the profile of (A, B) for mu = s/sigma, q
 * = K/N (sub-sampled when K < N, else H = dG; pld.c's header).  x: 2m + 1
 * values of their own precision.  FR_OK, FR_ENOMEM, or FR_EINTERNAL (x[m]
 * certified negative). */
int fri_pdm_pld_pmf_upper(mpfr_t *x, mpfr_ptr winf_hi, mpfr_ptr winf_lo, unsigned long m, mpfr_srcptr s,
                          mpfr_srcptr sigma, unsigned long K, unsigned long N, mpfr_srcptr h, mpfr_prec_t wp);

/* pld.c: one round's lower loss distribution at working precision wp, as
 * fr_fedpdm_pld_rounds builds it for eps_lower: with g_j = j h, x(g) =
 * (log((e^g - p)/q) + a^2/2)/a (-Inf where e^g <= p), a = s/sigma, q =
 * K/N (1 when K = N), p = 1 - q, F(x) = p Phi(x) + q Phi(x - a):
 *   order 1: x[2m] <= 1 - F(x(g_m)), x[m + j] <= F(x(g_{j+1})) - F(x(g_j));
 *   order 2: x[2m] <= Phi(x(-g_m)), x[m + j] <= Phi(x(-g_j)) - Phi(x(-g_{j+1}))
 * for -m <= j < m, each >= 0 (the mass below g_{-m} dropped).  x: 2m + 1
 * values of their own precision. */
void fri_pdm_pld_pmf_lower(mpfr_t *x, unsigned long m, int order, mpfr_srcptr s, mpfr_srcptr sigma,
                           unsigned long K, unsigned long N, mpfr_srcptr h, mpfr_prec_t wp);

/* pld.c: the stages of H's enclosure for q = K/N at working precision wp,
 * p = 1 - q, outputs of precision >= wp:
 *   ctx: out = {alo, ahi, qlo, qhi, plo, phi} around s/sigma, q, p;
 *   h_args (K < N): from t in [tlo, thi], t >= 1, out = {x lo, hi, cc lo,
 *     hi, y lo, hi} with x around log1p((t - 1)/q), cc around 1 - p t and,
 *     when it returns 2 (cc lo > 0), y around log(q t / (1 - p t)); 1: cc
 *     lo <= 0 < cc hi, 0: cc hi <= 0 (y not set);
 *   h_join: in = {da lo, hi, db lo, hi, cc lo, hi} (enclosures of dG(x),
 *     dG(y), 1 - p t; kind as h_args returns), out = {lo, hi} around
 *     max(q dG(x), b), b = 0 (kind 0), in [0, cc hi] (1), cc dG(y) (2). */
void fri_pdm_pld_ctx(mpfr_t *out, mpfr_srcptr s, mpfr_srcptr sigma, unsigned long K, unsigned long N,
                     mpfr_prec_t wp);
int fri_pdm_pld_h_args(mpfr_t *out, mpfr_srcptr tlo, mpfr_srcptr thi, unsigned long K, unsigned long N,
                       mpfr_prec_t wp);
void fri_pdm_pld_h_join(mpfr_t *out, mpfr_t *const in, int kind, unsigned long K, unsigned long N,
                        mpfr_prec_t wp);

/* pld.c: the stages of one round's upper loss distribution at working
 * precision wp: grid: alo[i] <= e^{i h} <= ahi[i] (i <= m < 2^wp, h a
 * power of two; wp-bit outputs); chord: fri_pdm_pld_pmf_upper's masses from the
 * given enclosures Hlo[i] <= H(e_i) <= Hhi[i], alo[i] <= a_i <= ahi[i] of
 * a convex decreasing H of a (any precisions), same contract. */
void fri_pdm_pld_grid(mpfr_t *alo, mpfr_t *ahi, unsigned long m, mpfr_srcptr h, mpfr_prec_t wp);
int fri_pdm_pld_chord(mpfr_t *x, mpfr_ptr winf_hi, mpfr_ptr winf_lo, mpfr_t *const Hlo, mpfr_t *const Hhi,
                      mpfr_t *const alo, mpfr_t *const ahi, unsigned long m, mpfr_prec_t wp);

/* pld.c: the stages of one round's lower loss distribution: phi: r >=
 * Phi(x) (dir > 0) or r <= Phi(x) (dir < 0), r of any precision, at
 * working precision wp (x may be -Inf); cell_mass: 0 <= x <= a - b, or
 * (top) 1 - b (order 1), a (order 2), at x's precision. */
void fri_pdm_pld_phi(mpfr_ptr r, mpfr_srcptr x, int dir, mpfr_prec_t wp);
void fri_pdm_pld_cell_mass(mpfr_ptr x, mpfr_srcptr a, mpfr_srcptr b, int top, int order);

/* pld.c: the composition's error bounds (64 bits in fr_fedpdm_pld_rounds;
 * here at the outputs' own precisions, every step rounded up):
 *   err_mul: M <- M M2, E <- M E2 + (M2 + E2) E + (M + E)(M2 + E2) u4, the
 *     bounds (max |z_k|, ||z^ - z||_2) of a pointwise product of spectra;
 *   norms: M1 >= sum x_k, X2 >= sqrt(sum x_k^2), x_k >= 0 (len values);
 *   spec_err: E1 >= c sqrt(n) X2, the forward FFT's error;
 *   ew: EW >= E/sqrt n + c (M + E/sqrt n), the composed masses' error;
 *   u4 >= 4 2^-wp sqrt(n), one complex product's error over n points;
 *   winf: Winf >= 1 - prod_g (1 - wh[g])^T[g] (FR_OK, FR_ENOMEM). */
void fri_pdm_pld_err_mul(mpfr_ptr M, mpfr_ptr E, mpfr_srcptr M2, mpfr_srcptr E2, mpfr_srcptr u4);
void fri_pdm_pld_norms(mpfr_ptr M1, mpfr_ptr X2, mpfr_t *const x, size_t len);
void fri_pdm_pld_spec_err(mpfr_ptr E1, mpfr_srcptr cn, size_t n, mpfr_srcptr X2);
void fri_pdm_pld_ew(mpfr_ptr EW, mpfr_srcptr M, mpfr_srcptr E, mpfr_srcptr cn, size_t n);
void fri_pdm_pld_u4(mpfr_ptr u4, size_t n, mpfr_prec_t wp);
int fri_pdm_pld_winf(mpfr_ptr Winf, mpfr_t *const wh, const unsigned long *T, size_t ng);

/* pld.c: the cell solve at working precision wp, from the composed masses
 * w[OFF + i] (at most wp bits) at loss i h (1 <= i <= OFF < 2^wp, h a
 * power of two: i h exact), their error EW >= ||w^ - w||_2 and Winf: with J_i = {i..OFF}, A_i = Winf + sum_J w_l
 * +- EW sqrt|J_i|, B_i = sum_J w_l e^{-l h} and i0 the largest i with
 * A_i - e^{(i-1)h} B_i > delta, the exact answer is log((A_i0 - delta) /
 * B_i0) clamped to [(i0 - 1)h, i0 h] (i0 h when B_i0 <= 0; 0 without i0):
 * dir > 0 (+ EW): out >= it (+Inf when Winf > delta); dir < 0 (- EW):
 * out <= it. */
void fri_pdm_pld_eps_from(mpfr_ptr out, mpfr_t *w, size_t OFF, mpfr_srcptr EW, mpfr_srcptr Winf, int dir,
                          mpfr_srcptr delta, mpfr_srcptr h, mpfr_prec_t wp);

#endif
