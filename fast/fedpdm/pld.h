/* SPDX-License-Identifier: Apache-2.0 */
/* pld.h -- internal to fast: the stages of ff_fedpdm_pld_rounds (pld.c),
 * declared for the white-box tests (tests/fedpdm/test_pld_fast_stages.c),
 * each with the direction it keeps (ref/fedpdm/pld.c's header: H, the
 * chord, the lower cells, the composition's bounds, the cell solve). */
#ifndef FEDREF_FAST_FEDPDM_PLD_H
#define FEDREF_FAST_FEDPDM_PLD_H
#include <stddef.h>

/* a = s/sigma in [alo, ahi], q = K/N in [qlo, qhi] (1 unless sub), p = 1 - q in [plo, phi]; h the grid step */
typedef struct {
    double alo, ahi, qlo, qhi, plo, phi, h;
} ffi_pld_ctx;

void ffi_pdm_pld_ctx(ffi_pld_ctx *c, double s, double sigma, int sub, unsigned long K, unsigned long N, double h);
/* >= Phi(x) (dir > 0) or <= Phi(x) (dir < 0) */
double ffi_pdm_pld_phi(double x, int dir);
/* dG(x) = Phi(a/2 - x/a) - e^x Phi(-a/2 - x/a): >= at a = ahi (dir > 0), <= at a = alo (dir < 0), x >= 0 */
double ffi_pdm_pld_dg(double x, int dir, const ffi_pld_ctx *c);
/* lo <= H(e) <= hi, e >= 0 exact, tl <= e^e <= th */
void ffi_pdm_pld_h(double *lo, double *hi, double e, double tl, double th, int sub, const ffi_pld_ctx *c);
/* the chord's masses (ref's fri_pdm_pld_chord) from Hl <= H(e_i) <= Hh, al <= a_i <= ah */
int ffi_pdm_pld_chord(double *x, double *winf, unsigned long m, const double *Hl, const double *Hh, const double *al,
                      const double *ah);
/* one round's upper PMF (ref's fri_pdm_pld_pmf_upper); ws: 4 (m + 1) doubles */
int ffi_pdm_pld_pmf_upper(double *x, double *winf, unsigned long m, int sub, const ffi_pld_ctx *c, double *ws);
/* xl <= x(g) <= xh, x(g) = (log((e^g - p)/q) + a^2/2)/a (xl = -Inf where e^g <= p may hold) */
void ffi_pdm_pld_thresh(double *xl, double *xh, double g, const ffi_pld_ctx *c);
/* F(x) = p Phi(x) + q Phi(x - a) (order 1) or Phi(x) (order 2), bounded in direction dir at the end x */
double ffi_pdm_pld_cdf(double x, int order, int dir, const ffi_pld_ctx *c);
/* one round's lower PMF (ref's fri_pdm_pld_pmf_lower); cell_mass: 0 <= it <= a - b, or (top) 1 - b
 * (order 1), a (order 2) */
void ffi_pdm_pld_pmf_lower(double *x, unsigned long m, int order, const ffi_pld_ctx *c);
double ffi_pdm_pld_cell_mass(double a, double b, int top, int order);
/* ref's fri_pdm_pld_err_mul; err_pow: the same along the binary powering of T */
void ffi_pdm_pld_err_mul(double *M, double *E, double M2, double E2, double r4);
void ffi_pdm_pld_err_pow(double *M, double *E, unsigned long T, double r4);
/* M1 >= sum x, X2 >= ||x||_2; spec_err >= c sqrt(n) X2; ew >= E/sqrt n + c (M + E/sqrt n) */
void ffi_pdm_pld_norms(double *M1, double *X2, const double *x, size_t len);
double ffi_pdm_pld_spec_err(double cn, size_t n, double X2);
double ffi_pdm_pld_ew(double M, double E, double cn, size_t n);
/* cn >= Thm 24.2's c at u = 2^-53, mu = 2^-39; r4 >= 4u sqrt(n) */
void ffi_pdm_pld_fft_consts(double *cn, double *r4, size_t n);
/* >= 1 - prod (1 - winf[g])^T[g] */
double ffi_pdm_pld_winf(const double *winf, const unsigned long *T, size_t ng);
/* the cell solve (ref's fri_pdm_pld_eps_from) on w[OFF + i], loss i h */
double ffi_pdm_pld_eps_from(double *w, size_t OFF, double EW, double Winf, int dir, double delta, double h);

#endif
