/* SPDX-License-Identifier: Apache-2.0 */
/* dp.h -- `fedref dp` (cmd_dp.c: options, files, output; dp_acct.c: the
 * certified numbers, from the accountants of libfedref and libfedfast).
 * docs/DP.md is the normative description. */
#ifndef FEDREF_CLI_DP_H
#define FEDREF_CLI_DP_H

#include <stdio.h>
#include <mpfr.h>

enum { DP_ACCT_RDP = 1, DP_ACCT_EXACT = 2, DP_ACCT_PLD = 4, DP_ACCT_ALL = 7 };

/* T Gaussian rounds as the user gave them: every decimal string is read
 * twice, rounded toward each side (dp_acct.c), so that the upper bound
 * holds for the decimal inputs themselves and the lower bound too. */
typedef struct {
    unsigned long T;             /* rounds */
    size_t rows;                 /* 0: every round (sigma[0], sens[0]); else T rows */
    const char *const *sigma, *const *sens;
    const char *delta;
    unsigned long N, K, R;       /* K of N clients in rounds t >= R, all N before */
    unsigned long amax;          /* RDP orders 2..amax */
    int acct;                    /* DP_ACCT_* */
    int fast;                    /* 0 ref (MPFR at prec bits), 1 fast (binary64) */
    mpfr_prec_t prec;
    int no_lower;                /* skip the lower bound (dp sigma's search) */
    int improved;                /* RDP with the conversion of Canonne-Kamath-Steinke / Balle et al.
                                    2020 (fr_fedpdm_rdp_rounds_improved) instead of Mironov's */
} dp_gauss_in;

/* The answer.  eps is the least of the computed upper bounds (each one
 * certified); lower is a certified lower bound (have_lower) or absent. */
typedef struct {
    int have_rdp, have_exact, have_lower, have_pld, pld_lower;
    unsigned long alpha;         /* RDP's order */
    mpfr_t rdp, exact, pld, eps, lower;
    int best;                    /* DP_ACCT_RDP, DP_ACCT_EXACT or DP_ACCT_PLD: which gave eps */
    unsigned long lower_rounds;  /* how many unsubsampled rounds the lower bound uses */
} dp_gauss_out;

/* Work caps of the command (docs/DP.md): rounds, when every round needs
 * its own entry (a rounds file, or --first-full with subsampling); runs of
 * distinct rounds times amax^2 (the RDP accountant's work); uploads. */
#define DP_ROUNDS_MAX (1ul << 20)
#define DP_WORK_MAX (1ul << 26)
#define DP_UPLOADS_MAX (1ul << 16)
/* rounds the PLD accountant composes (fr_fedpdm_pld_rounds: fewer than 2^18) */
#define DP_PLD_ROUNDS_MAX ((1ul << 18) - 1)

/* 1 iff the PLD accountant is run for in (--accountant pld, or all with
 * subsampled rounds; at most DP_PLD_ROUNDS_MAX rounds) */
int dp_pld_applies(const dp_gauss_in *in);
/* Precision of the results (prec bits, or 53 for fast); inits every mpfr. */
void dp_gauss_out_init(dp_gauss_out *o, mpfr_prec_t prec);
void dp_gauss_out_clear(dp_gauss_out *o);
/* The certified numbers for in, sigma (when not NULL) replacing every
 * round's sigma (dp sigma's search).  0, or 2 after cli_error. */
int dp_gauss_eval(dp_gauss_out *o, const dp_gauss_in *in, const char *sigma);
/* The same at a sigma given as a number (the search's trial points): each
 * round's sigma is that number exactly. */
int dp_gauss_eval_at(dp_gauss_out *o, const dp_gauss_in *in, mpfr_srcptr sigma);

/* Laplace uploads (002): upload j has l1 sensitivity sens[j] and scale
 * scale[j], j < k; delta for advanced composition. */
typedef struct {
    size_t k;
    const char *const *scale, *const *sens;
    const char *delta;
    int fast;
    mpfr_prec_t prec;
} dp_laplace_in;
typedef struct {
    mpfr_t basic, adv, tight, eps, lower;
    int best;                    /* 0 basic, 1 advanced, 2 optimal composition */
} dp_laplace_out;
void dp_laplace_out_init(dp_laplace_out *o, mpfr_prec_t prec);
void dp_laplace_out_clear(dp_laplace_out *o);
int dp_laplace_eval(dp_laplace_out *o, const dp_laplace_in *in);

/* A decimal number, all of the string: 0 and x rounded in direction rnd
 * (at x's precision), or -1 if it is not one (NaN and infinities are
 * numbers here: the caller checks). */
int dp_parse(mpfr_ptr x, const char *s, mpfr_rnd_t rnd);

#endif
