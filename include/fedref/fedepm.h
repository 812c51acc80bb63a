/* SPDX-License-Identifier: Apache-2.0 */
/* fedref/fedepm.h -- libfedref, module fedepm: paper 002 (FedEPM, SFedAvg,
 * SFedProx) in MPFR.  Conventions: fedref.h. */
#ifndef FEDREF_FEDEPM_H
#define FEDREF_FEDEPM_H

#include <mpfr.h>
#include "fedref_common.h"
#include "fedspec/fedepm.h"

#ifdef __cplusplus
extern "C" {
#endif
/* ======================================================================
 * FedEPM (002) beyond the closed forms above: the logistic model of
 * Sec. VII-A, the client step (20), the Laplace mechanism (25), (27), (39),
 * the exact-penalty quantities (9)-(11), the stopping rule of Sec. VII-B,
 * and the three algorithms of Sec. IV and VII-B.  The problem and
 * parameter structs are the shared specification (fedspec/fedepm.h); their
 * binary64 fields are taken exactly.
 * ====================================================================== */

/* ---- logistic loss and gradient, 002 Sec. VII-A --------------------------
 * Math:      fi = f_i(w) and gi = grad f_i(w)
 *              = (1/d_i) sum_t (sigma(<x_t, w>) - b_t) x_t + beta w,
 *            sigma(u) = 1 / (1 + e^-u), f_i as in fedspec/fedepm.h (beta term
 *            inside the 1/d_i sum, as printed: it contributes beta/2 ||w||^2).
 *            ln(1 + e^u) is evaluated as max(u, 0) + ln(1 + e^-|u|): no
 *            overflow for any finite u.
 * Domain:    fr_logreg_check(P) (without the scans of X and b when P is
 *            sealed: fr_logreg_seal); i < m; w finite (n entries); fi or
 *            gi may be NULL, not both.
 * Statuses:  FR_ENULL (fi and gi both NULL, w, P or its arrays), FR_ESIZE
 *            (P's sizes, i >= m), FR_ENONFINITE (P's X, b, beta; w),
 *            FR_EDOM (P's beta, labels; fi inside gi: two outputs), and
 *            after the start FR_EPREC, FR_EINTERNAL, FR_ENOMEM (Limits).
 * Aliasing:  gi may alias w (the same array); nothing else.
 * Algorithm: <x_t, w> exact; each result is R + T with R exact (the
 *            saturated part: max(u, 0) terms, sigma -> 0, 1/2 or 1) and T
 *            enclosed (the e^-|u| terms), Ziv loop on T.  A gradient entry
 *            whose T vanishes identically (e.g. w = 0) is rational and is
 *            found exactly (GMP); f is never exact.
 * Accuracy:  correctly rounded, fi and each gi_j.
 * Precision: that of fi and of each gi_j.
 * Limits:    FR_EPREC if an exact <x_t, w> needs more than 2^24 bits (w
 *            entries whose exponents differ by millions); FR_EINTERNAL
 *            only if some |<x_t, w>| > ~7e8 (e^-|u| below MPFR's exponent
 *            range) and R lies exactly on a rounding boundary while T mixes
 *            signs (gradient only), or if an enclosure end was rounded the
 *            wrong way (an internal check of every directed operation's
 *            ternary value: a bug, never expected).  FR_ENOMEM.
 * Checked by: tests/fedepm/test_ref_fedepm.c, vectors/logreg.json. */
int fr_logreg_fi(mpfr_t fi, mpfr_t *gi, const fr_logreg *P, size_t i, mpfr_t *const w);

/* f = sum_i f_i(w) and g = sum_i grad f_i(w) (002 (1)); either may be NULL,
 * not both.  Same domain, statuses (without i) and aliasing (g may alias
 * w); correctly rounded. */
int fr_logreg_f(mpfr_t f, mpfr_t *g, const fr_logreg *P, mpfr_t *const w);

/* ---- the proximal weight mu_{i,k+1} of 002 (20) ---------------------------
 * Math:      mu = mu0 (1 + c ||wik - w||^2) alpha^kp1      (kp1 = k + 1)
 * Domain:    mu0 > 0, c >= 0, alpha > 1 (Algorithm 2 has c > 0; c = 0,
 *            fedref's extension, gives the data-independent mu0 alpha^kp1
 *            that FR_NOISE_CERT needs), all finite; n >= 1; wik, w finite.
 *            kp1 = 0 is allowed (alpha^0 = 1).
 * Statuses:  FR_ENULL (mu, mu0, c, alpha, wik, w), FR_ESIZE (n == 0 or
 *            n > FR_COUNT_MAX), FR_ENONFINITE (mu0, c, alpha, wik, w),
 *            FR_EDOM (mu0 <= 0, c < 0, alpha <= 1), FR_ENOMEM,
 *            FR_EINTERNAL (the Ziv loop beyond 2^24 bits; mu untouched).
 *            Aliasing: none.
 * Accuracy:  correctly rounded (Ziv loop; an exactly representable mu,
 *            e.g. alpha a power of 2, ends it through MPFR's ternary
 *            values).  Precision: that of mu.  A mu beyond MPFR's exponent
 *            range gives +Inf (MPFR's overflow), with FR_OK.
 * Checked by: tests/fedepm/test_ref_fedepm.c (exact mpq oracle, kp1 <= 3000). */
int fr_fedepm_mu(mpfr_t mu, const mpfr_t mu0, const mpfr_t c, const mpfr_t alpha,
                 unsigned long kp1, mpfr_t *const wik, mpfr_t *const w, size_t n);

/* ---- the FedEPM client update, 002 (20) -----------------------------------
 * Math:      wt = mu (wi - w) - g,
 *            wnext = w + soft(wt, lambda) / (eta + mu)
 *            (the + sign of (20); (47) prints -, docs/ERRATA.md E-002-47).
 *            wnext is the unique minimiser of (23) (proofs_checks/
 *            check_fedepm_step.c).
 * Domain:    lambda > 0, eta > 0, mu > 0, finite; n >= 1; wi, w, g finite.
 * Statuses:  FR_ENULL (wnext, wi, w, g, lambda, eta, mu), FR_ESIZE (n == 0
 *            or n > FR_COUNT_MAX), FR_ENONFINITE (lambda, eta, mu, wi, w,
 *            g), FR_EDOM (lambda, eta or mu <= 0), FR_EPREC (an exact
 *            intermediate needs more than 2^24 bits), FR_ENOMEM.  No output
 *            is written unless all succeed.
 * Specials:  |wt_j| <= lambda (decided exactly) gives wnext_j = w_j.
 * Accuracy:  correctly rounded per component (the numerator
 *            w (eta + mu) + soft(wt, lambda) is formed exactly, one division).
 * Precision: that of each wnext_j.  Aliasing: wnext may alias wi (not w
 *            or g).
 * Checked by: proofs_checks/fedepm/check_fedepm_step.c, vectors/fedepm_step.json. */
int fr_fedepm_step(mpfr_t *wnext, mpfr_t *const wi, mpfr_t *const w, mpfr_t *const g,
                   size_t n, const mpfr_t lambda, const mpfr_t eta, const mpfr_t mu);

/* ---- Laplace mechanism, 002 (25), (27), (39) -------------------------------
 * fr_laplace_scale:      nu = Delta / (eps mu)                          (27)
 * fr_laplace_scale_eq39: nu = 2 ||g||_1 / (eps mu)                      (39)
 *                        (with mu = mu_{i,k+1}, (39) is (27) with Delta
 *                        replaced by 2 ||g||_1; docs/FEDEPM.md)
 * Domain:    Delta > 0 (eq39: g finite, n >= 1), eps > 0, mu > 0, finite;
 *            rnd one of MPFR_RNDN, RNDZ, RNDU, RNDD, RNDA (else FR_EDOM).
 *            eq39 with g = 0 gives nu = +0 (the point mass, docs/FEDEPM.md).
 * Statuses:  scale: FR_ENULL (nu, Delta, eps, mu), FR_ENONFINITE (Delta,
 *            eps, mu), FR_EDOM (one <= 0, rnd), FR_EPREC (the exact eps mu
 *            needs more than 2^24 bits).  eq39: FR_ENULL (nu, g, eps, mu),
 *            FR_ESIZE (n == 0 or n > FR_COUNT_MAX), FR_ENONFINITE (eps,
 *            mu, g), FR_EDOM (eps, mu <= 0, rnd), FR_EPREC (the exact
 *            ||g||_1 or eps mu needs more than 2^24 bits), FR_ENOMEM.
 *            density: FR_ENULL (p, x, nu), FR_ENONFINITE (x, nu), FR_EDOM
 *            (nu <= 0), FR_EINTERNAL (the Ziv loop beyond 2^24 bits).
 *            Aliasing: none.
 * Accuracy:  rounded in direction rnd from the exact value (eps mu and
 *            ||g||_1 exact, one division): MPFR_RNDN is correctly rounded
 *            (vectors), MPFR_RNDU an upper bound (the safe side; what the
 *            algorithms use).
 * fr_laplace_density:    p = exp(-|x|/nu) / (2 nu)     (printed == 0: the
 *                        standard Lap(0, nu) density, what fedref samples)
 *                        p = exp(-|x|/(2 nu)) / (2 nu) (printed != 0: (25) as
 *                        printed; it integrates to 2, E-002-25).
 *                        Domain nu > 0, x finite.  Correctly rounded (x = 0:
 *                        1/(2 nu), one division; else a Ziv loop on
 *                        exp(-|x|/s - ln(2 nu))); results beyond MPFR's
 *                        exponent range follow MPFR's underflow/overflow.
 * Checked by: tests/fedepm/test_ref_fedepm.c (mpq for the scales; the naive
 *            density at 4p + 64 bits). */
int fr_laplace_scale(mpfr_t nu, const mpfr_t Delta, const mpfr_t eps, const mpfr_t mu,
                     mpfr_rnd_t rnd);
int fr_laplace_scale_eq39(mpfr_t nu, mpfr_t *const g, size_t n, const mpfr_t eps,
                          const mpfr_t mu, mpfr_rnd_t rnd);
int fr_laplace_density(mpfr_t p, const mpfr_t x, const mpfr_t nu, int printed);

/* ---- privacy bookkeeping of FedEPM (docs/FEDEPM.md section 9) -------------
 * fr_dp_sens_step: out = (mu delta + Delta) / (eta + mu), one step of the
 *            l1 sensitivity recursion of the client state under (20):
 *            if ||w_i^k(D) - w_i^k(D')||_1 <= delta and ||g_i(D) -
 *            g_i(D')||_1 <= Delta at the same server point and mu, then
 *            ||w_i^{k+1}(D) - w_i^{k+1}(D')||_1 <= out (soft is
 *            1-Lipschitz); sharp (attained when no coordinate meets the
 *            dead zone and g(D) - g(D') keeps its direction, e.g. a label
 *            flip: proofs_checks/fedepm/check_dp_run.c).
 * Domain:    delta >= 0, Delta >= 0, eta > 0, mu > 0, finite; rnd one of
 *            MPFR_RNDN, RNDZ, RNDU, RNDD, RNDA.
 * Statuses:  FR_ENULL (out, delta, Delta, eta, mu), FR_ENONFINITE (delta,
 *            Delta, eta, mu), FR_EDOM (delta < 0, Delta < 0, eta <= 0,
 *            mu <= 0, rnd), FR_EPREC (an exact intermediate needs more
 *            than 2^24 bits); out untouched on error.
 * Aliasing:  out may alias any input (the one rounding comes last).
 * Accuracy:  rounded in direction rnd from the exact value (numerator and
 *            denominator exact, one division): MPFR_RNDN correctly rounded
 *            (vectors), MPFR_RNDU an upper bound (what the runs use).
 * Precision: that of out.
 * Checked by: tests/fedepm/test_dp.c (mpq oracle, every direction),
 *            proofs_checks/fedepm/check_dp_run.c, vectors/dp_sens_step.json.
 *
 * fr_dp_compose: the privacy loss of k releases eps_0..eps_{k-1} (each
 *            eps_j-DP given the ones before it) composed:
 *              basic = sum_j eps_j                         (pure eps-DP)
 *              adv   = sqrt(2 ln(1/delta) sum_j eps_j^2)
 *                      + sum_j eps_j (e^eps_j - 1)         ((adv, delta)-DP)
 *            adv is the advanced composition theorem of Dwork, Rothblum
 *            and Vadhan (2010) in its general form for unequal eps_j (the
 *            same Azuma argument; for equal eps_j it is sqrt(2 k
 *            ln(1/delta)) eps + k eps (e^eps - 1)).  The theorem needs the
 *            eps_j fixed before the first release (or functions of
 *            data-independent public randomness, as in the runs: the
 *            selections); eps_j chosen from earlier outputs need a
 *            privacy filter or odometer (Rogers et al. 2016), which these
 *            totals are not.  With every
 *            release pure eps_j-DP the total delta is delta itself, and
 *            both are guarantees of the mechanism in exact arithmetic with
 *            exact Laplace noise, not of fedref's floating-point draws
 *            (docs/RNG.md section 5).  An eps_j = +Inf (an
 *            unbounded loss) gives basic = adv = +Inf; all eps_j = 0 give 0.
 * Domain:    1 <= k <= FR_COUNT_MAX; every eps_j >= 0 or +Inf; 0 < delta
 *            < 1; rnd as above; basic and adv distinct.
 * Statuses:  FR_ENULL (basic, adv, eps, delta), FR_ESIZE (k), FR_ENONFINITE
 *            (delta non-finite, an eps_j NaN or -Inf), FR_EDOM (an eps_j <
 *            0, delta outside (0, 1), basic == adv, rnd), FR_ENOMEM,
 *            FR_EINTERNAL (the Ziv loop of adv beyond 2^24 bits); outputs
 *            untouched on error.
 * Aliasing:  basic and adv may alias inputs (computed in temporaries), not
 *            each other.
 * Accuracy:  each rounded in direction rnd from the exact value (basic:
 *            one mpfr_sum; adv: Ziv loop on an outward enclosure):
 *            MPFR_RNDN correctly rounded, MPFR_RNDU an upper bound (what
 *            the runs' accountant uses: never a loss below the true one).
 *            adv beyond MPFR's exponent range gives +Inf.
 * Precision: those of basic and adv.
 * Checked by: tests/fedepm/test_dp.c (naive enclosure at 4p + 64 bits,
 *            mpq sums), vectors/dp_compose.json. */
int fr_dp_sens_step(mpfr_t out, const mpfr_t delta, const mpfr_t Delta, const mpfr_t eta,
                    const mpfr_t mu, mpfr_rnd_t rnd);
int fr_dp_compose(mpfr_t basic, mpfr_t adv, mpfr_t *const eps, size_t k, const mpfr_t delta,
                  mpfr_rnd_t rnd);

/* fr_dp_compose_tight: an upper bound of the least e such that k releases,
 *            release j eps_j-DP given the ones before it (eps_j fixed
 *            before the first release, as for fr_dp_compose), compose to
 *            (e, delta)-DP, by the optimal composition theorem (Kairouz,
 *            Oh & Viswanath 2015, Thms 2.4 and 3.5: the composition is
 *            dominated by that of randomized response at eps_j, also
 *            adaptively).  Never above what the theorem gives with each
 *            eps_j raised to eps'_j = k_j h, the next multiple of a grid h
 *            (h = eps_min/64 unless the largest eps_j would need more than
 *            2048 steps, the sum more than 2^17, or the convolutions more
 *            than 2^27 products: then coarser, by powers of 2); so within
 *            about sum_j (eps'_j - eps_j) of the optimum.  Usually far
 *            below fr_dp_compose's adv (docs/DP.md section 5).  An eps_j =
 *            +Inf gives +Inf; all eps_j = 0 give +0.
 * Domain:    1 <= k <= 2^16; every eps_j >= 0 or +Inf; 0 < delta < 1.
 * Statuses:  FR_ENULL (eps, epsj, delta), FR_ESIZE (k), FR_ENONFINITE
 *            (delta non-finite, an eps_j NaN or -Inf), FR_EDOM (an eps_j <
 *            0, delta outside (0, 1)), FR_ENOMEM; eps untouched on error.
 * Aliasing:  eps may alias an entry of epsj or delta (written last).
 * Accuracy:  an upper bound, rounded up to prec(eps): every mass of the
 *            composed law rounded up at prec(eps) + 64 bits (at least 117),
 *            the hockey-stick sums outward, the final logarithm up.
 * Checked by: tests/fedepm/test_compose_tight.c (Kairouz-Oh-Viswanath's
 *            closed form for equal eps_j, all 2^k outcomes enumerated for
 *            unequal ones, at 256 bits). */
int fr_dp_compose_tight(mpfr_t eps, mpfr_t *const epsj, size_t k, const mpfr_t delta);

/* ---- exact penalty, 002 (9)-(11) -------------------------------------------
 * G is m x n row-major with G[i*n + j] = (grad f_i(w_i))_j; W is m x n; w
 * has n entries.  All finite; m, n >= 1.
 * Statuses:  FR_ENULL (every pointer: outputs, G, W, w, lambda, eta),
 *            FR_ESIZE (m or n zero, m n > FR_COUNT_MAX), FR_ENONFINITE
 *            (lambda, eta, G, W, w), FR_EDOM (lambda or eta <= 0; the two
 *            outputs r_cons == r_sum or r_set == r_sum), FR_EPREC
 *            (stationarity_10, below), FR_ENOMEM (stationarity_9, _10).
 *            Aliasing: none.
 * fr_lambda_star:    lam = max_ij |G_ij|, (11) (evaluate G at w_i = w*).
 *                    Exact when the precision of lam suffices, else
 *                    correctly rounded.
 * fr_stationarity_9: residuals of (9), pi_i := -G_i (the first equation
 *                    defines pi): r_cons = max_ij |w_ij - w_j|,
 *                    r_sum = max_j |sum_i G_ij|.
 * fr_stationarity_10: residuals of (10) with pi_i in sgn(w_i - w) treated
 *                    as a set: r_set = max_ij dist(0, G_ij + lambda sgn(w_ij - w_j)
 *                    + eta (w_ij - w_j)); with pi_i the minimiser of that
 *                    distance (lambda pi_ij = -clamp(G_ij + eta(w_ij - w_j),
 *                    -lambda, lambda) when w_ij = w_j), r_sum = max_j
 *                    |sum_i (lambda pi_ij + eta (w_ij - w_j))|.
 *                    lambda > 0, eta > 0.
 * Accuracy:  every residual rounded upward from the exact value (upper);
 *            lam rounded to nearest (as stated above).  FR_EPREC if an
 *            exact w_ij - w_j needs more than 2^24 bits; FR_ENOMEM.
 * Checked by: proofs_checks/fedepm/check_exact_penalty.c, tests/fedepm/test_ref_fedepm.c
 *            (mpq, the set distance brute-forced over candidate pi). */
int fr_lambda_star(mpfr_t lam, mpfr_t *const G, size_t m, size_t n);
int fr_stationarity_9(mpfr_t r_cons, mpfr_t r_sum, mpfr_t *const G, mpfr_t *const W,
                      mpfr_t *const w, size_t m, size_t n);
int fr_stationarity_10(mpfr_t r_set, mpfr_t r_sum, mpfr_t *const G, mpfr_t *const W,
                       mpfr_t *const w, size_t m, size_t n,
                       const mpfr_t lambda, const mpfr_t eta);

/* ---- stopping rule, 002 Sec. VII-B -------------------------------------------
 * Math:      *stop = FR_STOP_GRAD if gnorm2 < 10^-6; else FR_STOP_VAR if
 *            nf >= 4 and var(f[nf-4..nf-1]) <= n 10^-8 / (1 + |f[nf-1]|),
 *            var the sample variance (divisor 3, MATLAB's var); else
 *            FR_STOP_ROUNDS (go on).  Decided exactly (10^-6, 10^-8 exact
 *            rationals, GMP).
 * Domain:    gnorm2 >= 0, f finite (all nf entries), nf >= 1, n >= 1;
 *            *stop is written only on success.
 * Statuses:  FR_ENULL (stop, gnorm2, f), FR_ESIZE (nf == 0, nf >
 *            FR_COUNT_MAX, n == 0), FR_ENONFINITE (gnorm2, f), FR_EDOM
 *            (gnorm2 < 0).  Aliasing: none.
 * Checked by: tests/fedepm/test_ref_fedepm.c (mpq, another variance formula;
 *            the boundary var = n 10^-8 / (1 + |f|) exactly). */
int fr_stop_rule(int *stop, const mpfr_t gnorm2, mpfr_t *const f, size_t nf, size_t n);

/* ---- the algorithms: FedEPM (Algorithm 2), SFedAvg and SFedProx ----------
 * (Algorithms 3 and 4), exactly as docs/FEDEPM.md specifies them.
 * A trace holds the per-round records of one run at one working precision
 * (the precision of every mpfr_t in it, set by fr_fedepm_trace_init):
 *   w[r*n + j]     the server point w^{r+1} after aggregation r+1 (19)/(34)
 *   f[r], gnorm2[r] f(w^{r+1}) and ||grad f(w^{r+1})||^2
 *   sel[r*nsel + q] the selected clients S^{r+1} in draw order (0-based)
 *   W, Z           m x n: the client iterates and their last uploads
 *                  z_i = w_i + eps_i at the end of the run
 *   rounds         aggregations done (1 .. R+1); iters = (rounds - 1) k0;
 *   cr             communication rounds = rounds - 1 (uploads after the
 *                  initial one; the authors' ceil(iter/k0))
 *   stop           enum fr_stop
 *   snr, snr_clients  min over the clients that uploaded at least once
 *                  after k = 0 of log10(||w_i|| / ||eps_i||) at their last
 *                  upload (Sec. VII-C); +Inf when the noise is zero,
 *                  snr_clients = 0 when no client qualifies (snr NaN).
 *   nu0[i]         the noise scale of client i's initial upload z_i^0
 *   nu[r*nsel + q] the noise scale of the upload of client sel[r*nsel + q]
 *                  at the end of the block of round r+1 (rows r < rounds - 1;
 *                  the last aggregation has no block: NaN); 0 = no noise
 *   loss0[i], loss[r*nsel + q]  the privacy loss of that upload: an upper
 *                  bound (rounded up) on sup_z ln p(z|D)/p(z|D') over the
 *                  neighbours D' of client i's data, given everything
 *                  released before it; +Inf when fedref has no finite
 *                  bound (docs/FEDEPM.md section 9: (39) always, no noise
 *                  after a step, (27) with c > 0 after the client's first
 *                  step, every upload of the baselines after k = 0)
 *                  These losses and totals cover what the adversary
 *                  sees of the run: the uploads z and the selections.  The
 *                  trace's other records (w_i in W, f, gnorm2, snr) are
 *                  data-dependent values computed without noise and are
 *                  not covered.
 *   eps_basic[i], eps_adv[i]  client i's total over all its uploads
 *                  (fr_dp_compose, rounded up; delta' = acct_delta or
 *                  FR_ACCT_DELTA_DEFAULT); +Inf for every client when the
 *                  stopping rule is on (the data-dependent stopping
 *                  decision is released).
 * Domain:    the algorithm's check (fr_fedepm_check,
 *            fr_sfedavg_check, fr_sfedprox_check; fedspec/fedepm.h) and a
 *            trace initialised for (P, prm).
 * Statuses:  argument errors (trace untouched), in class order: FR_ENULL
 *            (t, P, prm, Delta under (27), a zeroed trace), FR_ESIZE (P's
 *            and prm's sizes, a trace initialised for other m, n, nsel or
 *            with fewer than rounds + 1 rows), FR_ENONFINITE, FR_EDOM (the
 *            check's); after the start (trace reset, fedref_common.h rule
 *            3): FR_ENOMEM, or a building block's status (FR_EPREC,
 *            FR_EINTERNAL, FR_ENONFINITE if a value leaves MPFR's exponent
 *            range).  Aliasing: none (the trace shares no memory with P
 *            or prm).
 * Accuracy:  every operation at the working precision (correctly rounded
 *            building blocks above); the trajectory is not correctly
 *            rounded: golden vectors certify it by precision doubling
 *            (docs/ACCURACY.md).  The random draws are those of docs/RNG.md
 *            section 4 and do not depend on the precision.  Privacy
 *            quantities are rounded up: every scale nu (MPFR_RNDU from the
 *            exact eps mu or eps), every sensitivity step (fr_dp_sens_step,
 *            MPFR_RNDU), every loss S/nu and total (MPFR_RNDU).
 * Checked by: vectors/fedepm.json, sfedavg.json, sfedprox.json; the audit;
 *            tests/fedepm/test_dp.c (scales and losses against mpq). */
typedef struct {
    size_t m, n, nsel, cap;    /* cap = R + 1 rows of records */
    size_t rounds;
    unsigned long iters, cr;
    int stop;
    mpfr_t *w, *f, *gnorm2;
    size_t *sel;
    mpfr_t *W, *Z;
    mpfr_t snr;
    size_t snr_clients;
    mpfr_t *nu0, *nu, *loss0, *loss;  /* m, cap x nsel, m, cap x nsel */
    mpfr_t *eps_basic, *eps_adv;      /* m */
} fr_fedepm_trace;

/* Records are reset at the start of each run; after a successful run the
 * rows at index >= rounds are NaN and their sel entries SIZE_MAX.  An
 * error after a run has started leaves the trace in its reset state
 * (fedref_common.h, rule 3: the state fr_fedepm_trace_init gives it).
 *
 * fr_fedepm_trace_init allocates a trace for (P, prm) at precision prec:
 * every value NaN (the privacy fields too), every sel entry SIZE_MAX,
 * rounds = iters = cr = 0,
 * stop = FR_STOP_ROUNDS, snr_clients = 0.  Statuses: the classes of
 * fr_fedepm_sizes_check at their places (FR_ENULL also for t), FR_ESIZE
 * also when (rounds + 1) n, (rounds + 1) nsel exceed FR_COUNT_MAX,
 * FR_EPREC (prec outside [MPFR_PREC_MIN, FR_PREC_MAX]), FR_ENOMEM.
 * Argument errors leave *t unchanged; FR_ENOMEM leaves it zeroed.
 * fr_fedepm_trace_clear (no status) frees it and zeroes it; safe on NULL,
 * a zeroed or a failed trace. */
int fr_fedepm_trace_init(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm, mpfr_prec_t prec);
void fr_fedepm_trace_clear(fr_fedepm_trace *t);

int fr_fedepm_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);
int fr_sfedavg_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);
int fr_sfedprox_run(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm);


#ifdef __cplusplus
}
#endif
#endif /* FEDREF_FEDEPM_H */
