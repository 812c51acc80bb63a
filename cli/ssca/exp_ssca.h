/* SPDX-License-Identifier: Apache-2.0 */
/* exp_ssca.h -- the internals of experiment_ssca (cli/ssca/exp_ssca*.c):
 * 000 Sec. VI on Fashion-MNIST.  exp_ssca_data.c converts the IDX files
 * into the network's data (pixels scaled to [0, 1]) and evaluates a point
 * (training cost (28) and test accuracy); exp_ssca_check.c spot-checks the
 * first rounds of fast's runs against ref on a slice of the same data. */
#ifndef FEDREF_CLI_EXP_SSCA_H
#define FEDREF_CLI_EXP_SSCA_H

#include <stddef.h>
#include "../experiments.h"
#include "fedspec/ssca.h"

/* One data set: n images of P = 784 pixels / 255 (row-major) and labels. */
typedef struct {
    size_t n, P;
    double *Z;
    size_t *y;
} xssca_set;

/* Load Fashion-MNIST's train (test = 0) or test (1) set; at most nmax
 * images (0: all).  0, or 2 after cli_error. */
int xssca_load(exp_ctx *ctx, int test, size_t nmax, xssca_set *s);
void xssca_free(xssca_set *s);

/* Mean loss (28) and accuracy of the network w (fedspec layout, L classes,
 * J hidden cells) on rows [0, n) of s, forward pass with BLAS dgemm in
 * blocks.  0, or FR_ENOMEM. */
int xssca_eval(const double *w, size_t L, size_t J, const xssca_set *s, size_t n,
               double *cost, double *acc);

/* ref (MPFR) against fast on the first `rounds` rounds of algorithm algo
 * with the parameters prm (its T, keep and w1 are replaced) on the slice
 * D.  Writes the largest drift (cli_drift) over the checked iterates and
 * whether draws and Lemma 1 branches agree.  0, or the failing status. */
int xssca_spot(const fr_ssca_data *D, const fr_ssca_params *prm, unsigned long rounds,
               const double *w1, double *drift, int *same, double *ref_s);

#endif
