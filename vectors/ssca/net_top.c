/* SPDX-License-Identifier: Apache-2.0 */
/* net_top.c -- vector schema of ssca_net_top, the aggregator's Step-5
 * message of the feature-based algorithms (000 Sec. V, (20)): params I
 * (clients); inputs H (I nb x J: the clients' h_i stacked, block i in rows
 * i nb .. i nb + nb - 1), w0 (L x J: omega_0), y (nb class indices);
 * expect f = sum_n loss_n (28) and A = sum_n abar_n (29) (L x J), both
 * from u = sum_i h_i exactly.  H with a number of rows other than I nb, or
 * another number of columns than w0, is FR_ESIZE; labels as ssca_net.
 * tol: rel 0, abs the largest of ff_ssca_net_top_bound's bounds. */
#include <math.h>
#include <stdlib.h>
#include "net_io.h"

static const vspec params[] = {{"I", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"H", VK_MATRIX}, {"w0", VK_MATRIX}, {"y", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"f", VK_SCALAR}, {"A", VK_MATRIX}, {NULL, 0}};

/* nb = y's length; FR_ESIZE unless H is (I nb) x J with J = w0's columns. */
static int shape(size_t I, const size_t *dims, size_t *nb)
{
    *nb = dims[4];
    if (I == 0 || dims[1] != dims[3] || dims[0] != I * *nb || (*nb && dims[0] / *nb != I))
        return FR_ESIZE;
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    double Id;
    int st = rt_exact_double(&Id, par[0].v[0]);
    if (st != FR_OK) return st;
    size_t I = vnet_size(Id), nb, L = in[1].rows, J = in[1].cols;
    const size_t dims[5] = {in[0].rows, in[0].cols, L, J, in[2].cols};
    if ((st = shape(I, dims, &nb)) != FR_OK) return st;
    size_t *y = malloc((nb ? nb : 1) * sizeof *y);
    if (y == NULL) return FR_ENOMEM;
    st = vnet_labels_mp(y, in[2].v, nb);
    if (st == FR_OK && (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], L, J, prec) != 0))
        st = FR_ENOMEM;
    if (st == FR_OK) st = fr_ssca_net_top(out[0].v[0], out[1].v, in[0].v, I, in[1].v, y, nb, L, J);
    free(y);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t I = vnet_size(par[0].v[0]), nb, L = in[1].rows, J = in[1].cols;
    const size_t dims[5] = {in[0].rows, in[0].cols, L, J, in[2].cols};
    int st = shape(I, dims, &nb);
    if (st != FR_OK) return st;
    size_t *y = malloc((nb ? nb : 1) * sizeof *y);
    if (y == NULL) return FR_ENOMEM;
    vnet_labels(y, in[2].v, nb);
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], L, J) != 0) st = FR_ENOMEM;
    if (st == FR_OK) st = ff_ssca_net_top(&out[0].v[0], out[1].v, in[0].v, I, in[1].v, y, nb, L, J);
    free(y);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t I = vnet_size(par[0].v[0]), nb, L = in[1].rows, J = in[1].cols;
    const size_t dims[5] = {in[0].rows, in[0].cols, L, J, in[2].cols};
    *rel = *abs = 0;                           /* not a valid case: no tolerance */
    if (shape(I, dims, &nb) != FR_OK)
        return;
    size_t *y = malloc((nb ? nb : 1) * sizeof *y);
    double fb, *Ab = malloc((L * J + 1) * sizeof *Ab);
    if (y != NULL && Ab != NULL) {
        vnet_labels(y, in[2].v, nb);
        if (ff_ssca_net_top_bound(&fb, Ab, in[0].v, I, in[1].v, y, nb, L, J) == FR_OK)
            *abs = vnet_max(fb, Ab, L * J);
    }
    free(y);
    free(Ab);
}

/* A random case for the audit sweep: I in [1, 3], L in [2, 4], J in [1, 4],
 * nb in [1, 5]; H and w0 dyadic. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    vnet_sample_messages(g, par, in);
}

#define T(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vnet_demo D;
    vnet_demo_draw(g, &D);
    vg_group(g, "I = 3 clients", (double[]){VNET_I});
    vg_case(g, "the demo batch: H = (h_1, h_2, h_3) of ssca_net_partial ids 1-3, w0 = omega_0 of "
               "ssca_net id 1: f and A equal ssca_net id 1's f and first L J entries of g",
            "net-clients,random", 0,
            (ftensor[]){{VNET_I * VNET_NB, VNET_J, D.H}, {VNET_L, VNET_J, D.w}, {1, VNET_NB, D.y}});
    vg_case(g, "h_2 = -h_1, h_3 = 0: u = 0 exactly, A = 0, f = nb ln L", "net-swish-zero,net-clients", 0,
            (ftensor[]){T(6, 2, 1, -0.5, 0.25, 2, -1, 0.5, -0.25, -2, 0, 0, 0, 0),
                        T(2, 2, 1, -1, 0.5, 0.25), T(1, 2, 0, 1)});
    vg_case(g, "H with 5 rows, I nb = 6", "size", 1,
            (ftensor[]){T(5, 1, 1, 1, 1, 1, 1), T(2, 1, 1, -1), T(1, 2, 0, 1)});
    vg_case(g, "label 2 with L = 2", "domain", 1,
            (ftensor[]){T(3, 1, 1, 1, 1), T(2, 1, 1, -1), T(1, 1, 2)});
    vg_case(g, "NaN in H", "nan", 1, (ftensor[]){T(3, 1, 1, NAN, 1), T(2, 1, 1, -1), T(1, 1, 0)});
    vg_case(g, "one class (L = 1)", "domain,boundary", 1, (ftensor[]){T(3, 1, 1, 1, 1), T(1, 1, 1), T(1, 1, 0)});
    vg_group(g, "I = 1 client (feature-based with one client is sample-based)", (double[]){1});
    vg_case(g, "|u| = 1e4 and |o| = 2e4: the loss ~1e4 or ~e^-1e4", "net-large-u,net-large-o,boundary", 0,
            (ftensor[]){T(3, 1, 1e4, -1e4, 5e3), T(2, 1, 2, -2), T(1, 3, 1, 1, 0)});
    vg_case(g, "omega_0 = 0, equal samples labelled 0 and 1: A = 0 exactly",
            "net-zero-w0,net-label-cancel,cancellation", 0,
            (ftensor[]){T(2, 2, 0.5, -1, 0.5, -1), T(2, 2, 0, 0, 0, 0), T(1, 2, 0, 1)});
    vg_group(g, "I = 0", (double[]){0});
    vg_case(g, "no client", "size,boundary", 1, (ftensor[]){T(0, 1, 0), T(2, 1, 1, -1), T(1, 1, 0)});
}

const vfunc vfunc_ssca_net_top = {"ssca_net_top", "000 Sec. V, Algorithms 3-4 Step 5, (20), (28)-(29)",
                                  params, inputs, expects, ref, fast, tol, golden, sample, 3000, 0};
