/* SPDX-License-Identifier: Apache-2.0 */
/* run.h -- pieces shared by the runs of module ssca (not installed):
 * fr_ssca_run's context (every temporary at the working precision p of the
 * trace, allocated once per run, never per sample or per round), the
 * draws, the gathering of a batch, and the round functions of
 * run_sample.c (Algorithms 1-2), run_feature.c (Algorithms 3-4) and
 * run_sgd.c (the baselines).  docs/SSCA.md section 10 is the normative
 * description; the contract is include/fedref/ssca.h. */
#ifndef FEDREF_REF_SSCA_RUN_H
#define FEDREF_REF_SSCA_RUN_H

#include "../internal.h"

typedef struct {
    fr_ssca_trace *t;
    const fr_ssca_data *D;
    const fr_ssca_params *prm;
    mpfr_prec_t p;                 /* working precision (the trace's) */
    size_t d, LJ, nc, B, nd, nb;   /* nb: the batch of one gradient (B) */
    int feature;
    /* the binary64 parameters, exact (53 bits) */
    mpfr_t tau, lambda, U, c, mom;
    /* stepsizes of the round at p: rho, gamma (SSCA), r (baselines) */
    mpfr_t rho, gamma, r;
    /* state at p */
    mpfr_t *w;                     /* d: the server point w^(t) */
    mpfr_t *f1, *beta, *wbar;      /* d: (9), (35), the minimiser */
    mpfr_t *v;                     /* d: the server's momentum (SGDM_S, SGDM_F) */
    mpfr_t Wm, C, nu, s, tw;       /* W_t = 1 - P_t, C^(t) of (42), nu, slack; tw = tau W exact */
    mpfr_t fsum;                   /* a sum of losses */
    mpfr_t *G;                     /* nc x d (sample) or d (feature): the messages */
    mpfr_t *F;                     /* nc: the loss sums of (40) */
    mpfr_t *wi, *vi;               /* nc x d: the clients' local points (SGD_S, SGDM_S) */
    /* data */
    mpfr_t *Z;                     /* N x P at 53 bits: D->Z exactly */
    mpfr_t *Zb;                    /* nb x P at 53 bits: the rows of one batch */
    size_t *yb;                    /* nb labels of the batch */
    mpfr_t *H;                     /* nc x nb x J at p: the clients' h_i (feature) */
    mpfr_t *w1i, *Bi;              /* J x max P_i at p: a client's block of w1 and B_i */
    mpfr_t *Zi;                    /* nb x max P_i at 53 bits: a client's features */
    size_t *off;                   /* nc: first sample (sample) or feature (feature) of client i */
    size_t *draw;                  /* nd: the round's draws */
    frng_t *rng;                   /* nc streams (sample) or 1 (feature) */
    mpfr_t *ex;                    /* nex = max(d, nc) + 4 exact temporaries (precision
                                      set by the fri_*_exact helpers) */
    mpfr_ptr *ptr;                 /* nex pointers for sums */
    size_t nex;
} fri_ssca_run_ctx;

/* The draws per round of algo (nc B, nc E B for SGD_S and SGDM_S, B
 * feature-based); 0 for an unknown algo.  Sizes checked. */
size_t fri_ssca_run_nd(const fr_ssca_data *D, const fr_ssca_params *prm);

/* Draw the round's batches into c->draw (and the trace's row t-1 with
 * KEEP_DRAWS): sample-based frng_sample(Ni, k B) per client, k = E for
 * SGD_S, SGDM_S, else 1; feature-based frng_sample(N, B) once. */
int fri_ssca_draw(fri_ssca_run_ctx *c, size_t t);

/* Gather the nb samples whose global indices are off + idx[0..nb-1] into
 * c->Zb, c->yb (exact copies). */
void fri_ssca_gather(fri_ssca_run_ctx *c, size_t off, const size_t *idx, size_t nb);

/* The feature-based gradient of Algorithm 3 Steps 4-6 at the point x on
 * the server batch c->draw: h_i (fr_ssca_net_partial), A and, when f !=
 * NULL, F = sum loss (fr_ssca_net_top), B_i (fr_ssca_net_bottom),
 * assembled into g (d, the layout of w). */
int fri_ssca_feature_grad(fri_ssca_run_ctx *c, mpfr_t *g, mpfr_ptr f, mpfr_t *const x);

/* One round t (the stepsizes of round t already in c). */
int fri_ssca_round_sample(fri_ssca_run_ctx *c, size_t t);     /* Algorithms 1, 2 */
int fri_ssca_round_feature(fri_ssca_run_ctx *c, size_t t);    /* Algorithms 3, 4 */
int fri_ssca_round_sgd(fri_ssca_run_ctx *c, size_t t);        /* the baselines */

/* The step of Algorithms 1-4 after the messages: with the messages G (nc
 * rows, weights Ni/(B N): for the feature-based algorithms nc = 1, N1 =
 * B), and F (constrained: the loss sums), update C (constrained), f1,
 * beta (unconstrained), P, then the minimiser (argmin or Lemma 1 with the
 * slack into row t-1) and w (5). */
int fri_ssca_sca_step(fri_ssca_run_ctx *c, size_t t, mpfr_t *const G, mpfr_t *const F,
                      const size_t *Ni, size_t nc);

#endif
