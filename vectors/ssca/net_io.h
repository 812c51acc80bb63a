/* SPDX-License-Identifier: Apache-2.0 */
/* net_io.h -- what the vector schemas of the two-layer network (000 Sec. V:
 * ssca_net, ssca_net_partial, ssca_net_top, ssca_net_bottom) share: reading
 * sizes and class labels from binary64 fields, the largest of a bound
 * array (the tol), and the demo batch every file starts from.  Internal to
 * libfedvectors. */
#ifndef FEDREF_VECTORS_SSCA_NET_IO_H
#define FEDREF_VECTORS_SSCA_NET_IO_H

#include "../vectors.h"

/* A size parameter: an exact integer in [0, 2^32]; anything else (NaN,
 * 1.5, -1) reads as 0, which every function refuses with FR_ESIZE. */
size_t vnet_size(double x);

/* n labels: exact integers in [0, 2^53); anything else (NaN, 1.5, -1)
 * reads as SIZE_MAX, which every function refuses (a label >= L:
 * FR_EDOM).  From a ref field: each entry must be a binary64 number
 * (FR_EDOM otherwise, rt_exact_double).  0 or a status. */
void vnet_labels(size_t *y, const double *v, size_t n);
int vnet_labels_mp(size_t *y, mpfr_t *const v, size_t n);

/* max(*acc, b[0..n-1]). */
double vnet_max(double acc, const double *b, size_t n);

/* The audit sweep's feature-based batch, shared by ssca_net_top and
 * ssca_net_bottom: par[0] = I in 1..3, in[0] = H (I nb x J, short dyadic
 * h_i of one random scale), in[1] = w0 (L x J), in[2] = y (nb labels),
 * L in 2..4, J in 1..4, nb in 1..5.  Returns nb (for a schema that adds
 * inputs). */
size_t vnet_sample_messages(frng_t *g, ftensor *par, ftensor *in);

/* The demo batch (drawn first in every file from the generator's stream,
 * so the four files describe the same batch): L = 3 classes, J = 4 hidden
 * cells, P = 5 features split among I = 3 clients as P_i = 1, 2, 2, nb = 6
 * samples; w (J (L + P)), Z (nb x P), y (nb) short dyadic numbers, so that
 * each client's h_i = Zi w1_i^T is exact in binary64. */
enum { VNET_L = 3, VNET_J = 4, VNET_P = 5, VNET_I = 3, VNET_NB = 6 };
extern const size_t vnet_Pi[VNET_I], vnet_p0[VNET_I];   /* sizes and first columns */
typedef struct {
    double w[VNET_J * (VNET_L + VNET_P)], Z[VNET_NB * VNET_P], y[VNET_NB];
    double w1i[VNET_I][VNET_J * 2], Zi[VNET_I][VNET_NB * 2];   /* client blocks */
    double H[VNET_I * VNET_NB * VNET_J];                        /* h_i, exact */
} vnet_demo;
void vnet_demo_draw(vgen *g, vnet_demo *d);

#endif
