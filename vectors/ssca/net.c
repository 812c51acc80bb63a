/* SPDX-License-Identifier: Apache-2.0 */
/* net.c -- vector schema of ssca_net, the two-layer network of 000 Sec. V,
 * (28)-(30), summed over a batch (the sample-based client message):
 * params L (classes), J (hidden cells); inputs w (J (L + P) entries, the
 * layout of fedspec/ssca.h: omega_0 L x J, then omega_1 J x P, row-major),
 * Z (nb x P features), y (nb class indices in [0, L), exact integers);
 * expect f = sum_n loss_n (28), g = sum_n (abar_n, bbar_n) (29)-(30) (the
 * layout of w).  P and nb are Z's shape; w of another length, or y of
 * another length than nb, is FR_ESIZE; a label that is not an integer in
 * [0, L) (NaN, 1.5, -1, L) is FR_EDOM; L = 1 is FR_EDOM (a softmax over one
 * class is outside 000's model).  tol: rel 0, abs the largest of
 * ff_ssca_net_bound's bounds on f and on the g_k (fedfast/ssca.h). */
#include <math.h>
#include <stdlib.h>
#include "net_io.h"

static const vspec params[] = {{"L", VK_SCALAR}, {"J", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"w", VK_VECTOR}, {"Z", VK_MATRIX}, {"y", VK_VECTOR}, {NULL, 0}};
static const vspec expects[] = {{"f", VK_SCALAR}, {"g", VK_VECTOR}, {NULL, 0}};

/* The sizes; FR_ESIZE if w or y has the wrong length (the function
 * refuses the sizes themselves). */
static int shape(size_t L, size_t J, size_t nw, size_t nb, size_t P, size_t ny, size_t *d)
{
    if (fr_ssca_net_dim(L, J, P, d) != FR_OK)
        *d = nw;                               /* the function answers */
    return nw == *d && ny == nb ? FR_OK : FR_ESIZE;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    double Ld, Jd;
    size_t d, nb = in[1].rows, P = in[1].cols, ny = in[2].cols;
    int st = rt_exact_double(&Ld, par[0].v[0]);
    if (st == FR_OK) st = rt_exact_double(&Jd, par[1].v[0]);
    if (st != FR_OK) return st;
    size_t L = vnet_size(Ld), J = vnet_size(Jd);
    if ((st = shape(L, J, in[0].cols, nb, P, ny, &d)) != FR_OK) return st;
    size_t *y = malloc((ny ? ny : 1) * sizeof *y);
    if (y == NULL) return FR_ENOMEM;
    st = vnet_labels_mp(y, in[2].v, ny);
    if (st == FR_OK && (rt_alloc(&out[0], 1, 1, prec) != 0 || rt_alloc(&out[1], 1, d, prec) != 0))
        st = FR_ENOMEM;
    if (st == FR_OK) st = fr_ssca_net(out[0].v[0], out[1].v, in[0].v, L, J, P, in[1].v, y, nb);
    free(y);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t L = vnet_size(par[0].v[0]), J = vnet_size(par[1].v[0]), d;
    size_t nb = in[1].rows, P = in[1].cols, ny = in[2].cols;
    int st = shape(L, J, in[0].cols, nb, P, ny, &d);
    if (st != FR_OK) return st;
    size_t *y = malloc((ny ? ny : 1) * sizeof *y);
    if (y == NULL) return FR_ENOMEM;
    vnet_labels(y, in[2].v, ny);
    if (ft_alloc(&out[0], 1, 1) != 0 || ft_alloc(&out[1], 1, d) != 0) st = FR_ENOMEM;
    if (st == FR_OK) st = ff_ssca_net(&out[0].v[0], out[1].v, in[0].v, L, J, P, in[1].v, y, nb);
    free(y);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t L = vnet_size(par[0].v[0]), J = vnet_size(par[1].v[0]), d;
    size_t nb = in[1].rows, P = in[1].cols, ny = in[2].cols;
    *rel = *abs = 0;                           /* not a valid case: no tolerance */
    if (shape(L, J, in[0].cols, nb, P, ny, &d) != FR_OK)
        return;
    size_t *y = malloc((ny ? ny : 1) * sizeof *y);
    double fb, *gb = malloc((d ? d : 1) * sizeof *gb);
    if (y != NULL && gb != NULL) {
        vnet_labels(y, in[2].v, ny);
        if (ff_ssca_net_bound(&fb, gb, in[0].v, L, J, P, in[1].v, y, nb) == FR_OK)
            *abs = vnet_max(fb, gb, d);
    }
    free(y);
    free(gb);
}

/* A random case for the audit sweep: L in [2, 4], J in [1, 4], P in [1, 5],
 * nb in [1, 6]; dyadic w and Z with |w1 z| up to ~2^8, labels uniform. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t L, J, P, nb, r, e;
    frng_below(g, 3, &L); L += 2;
    frng_below(g, 4, &J); J++;
    frng_below(g, 5, &P); P++;
    frng_below(g, 6, &nb); nb++;
    const size_t d = J * (L + P);
    ft_alloc(&par[0], 1, 1);
    ft_alloc(&par[1], 1, 1);
    par[0].v[0] = (double)L;
    par[1].v[0] = (double)J;
    ft_alloc(&in[0], 1, d);
    ft_alloc(&in[1], nb, P);
    ft_alloc(&in[2], 1, nb);
    frng_below(g, 9, &e);                      /* scale 2^e of the weights */
    for (size_t k = 0; k < d; k++) {
        frng_below(g, 2049, &r);
        in[0].v[k] = ldexp((double)r - 1024, (int)e - 10);
    }
    for (size_t k = 0; k < nb * P; k++) {
        frng_below(g, 2049, &r);
        in[1].v[k] = ldexp((double)r - 1024, -10);
    }
    for (size_t n = 0; n < nb; n++) {
        frng_below(g, L, &r);
        in[2].v[n] = (double)r;
    }
}

#define T(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vnet_demo D;
    vnet_demo_draw(g, &D);
    vg_group(g, "L = 3, J = 4", (double[]){VNET_L, VNET_J});
    vg_case(g, "the demo batch: P = 5, nb = 6, short dyadic w and Z (the batch of ssca_net_partial, "
               "ssca_net_top and ssca_net_bottom, features split 1 + 2 + 2)", "random", 0,
            (ftensor[]){{1, VNET_J * (VNET_L + VNET_P), D.w}, {VNET_NB, VNET_P, D.Z}, {1, VNET_NB, D.y}});
    double w[4 * 8], Z[6 * 5], y[6];
    for (int k = 0; k < 32; k++) w[k] = vg_dyadic(g, 10) * 0x1p-2;
    for (int k = 0; k < 30; k++) Z[k] = vg_dyadic(g, 10);
    for (int n = 0; n < 6; n++) y[n] = (double)(n % 3);
    vg_case(g, "random dyadic, P = 5, nb = 6, wider weights", "random", 0,
            (ftensor[]){{1, 32, w}, {6, 5, Z}, {1, 6, y}});
    for (int n = 0; n < 6; n++) y[n] = 2;
    vg_case(g, "every label 2 (the same weights)", "random,net-same-label", 0,
            (ftensor[]){{1, 32, w}, {6, 5, Z}, {1, 6, y}});
    vg_case(g, "label 3 = L", "domain", 1, (ftensor[]){{1, 32, w}, {6, 5, Z}, T(1, 6, 0, 1, 2, 3, 0, 1)});
    vg_case(g, "label 1.5 (not a class index)", "domain", 1,
            (ftensor[]){{1, 32, w}, {6, 5, Z}, T(1, 6, 0, 1, 2, 1.5, 0, 1)});
    vg_case(g, "w of the wrong length", "size", 1, (ftensor[]){{1, 31, w}, {6, 5, Z}, {1, 6, y}});
    vg_case(g, "y shorter than nb", "size", 1, (ftensor[]){{1, 32, w}, {6, 5, Z}, {1, 5, y}});

    vg_group(g, "L = 2, J = 1 (w = (omega_0,0,0, omega_0,1,0, omega_1,0,0..))", (double[]){2, 1});
    vg_case(g, "P = 1, nb = 3, small weights", "boundary", 0,
            (ftensor[]){T(1, 3, 0.75, -0.5, 1.25), T(3, 1, 1, -2, 0.5), T(1, 3, 0, 1, 1)});
    vg_case(g, "omega_1 = 0: u = 0 exactly, S(u) = 0, S'(u) = 1/2: A = 0, f = nb ln 2", "net-swish-zero", 0,
            (ftensor[]){T(1, 3, 0.75, -0.5, 0), T(3, 1, 1, -2, 0.5), T(1, 3, 0, 1, 1)});
    vg_case(g, "|u| = 1e4: e^-u overflows binary64 for u = -1e4, S'(-1e4) = 0 * inf naively",
            "net-large-u,overflow", 0,
            (ftensor[]){T(1, 3, 0.75, -0.5, 1e4), T(3, 1, 1, -1, 0.5), T(1, 3, 0, 1, 1)});
    vg_case(g, "|o| = 1e4, labels right: the loss is ~e^-1e4 (below binary64), Q - Y ~ e^-1e4",
            "net-large-o,underflow", 0,
            (ftensor[]){T(1, 3, 1e4, -1e4, 1), T(3, 1, 1, -1, 2), T(1, 3, 0, 1, 0)});
    vg_case(g, "|o| = 1e4, labels wrong: the loss is ~1e4 per sample, a naive softmax overflows",
            "net-large-o,overflow", 0,
            (ftensor[]){T(1, 3, 1e4, -1e4, 1), T(3, 1, 1, -1, 2), T(1, 3, 1, 0, 1)});
    vg_case(g, "omega_0 = 0: Q = 1/2 exactly, the omega_1 block of g is exactly 0", "net-zero-w0", 0,
            (ftensor[]){T(1, 3, 0, 0, 1.5), T(3, 1, 1, -2, 0.5), T(1, 3, 0, 1, 1)});
    vg_case(g, "omega_0 = 0 and two equal samples labelled 0 and 1: abar cancels, g = 0 exactly",
            "net-zero-w0,net-label-cancel,cancellation", 0,
            (ftensor[]){T(1, 3, 0, 0, 1.5), T(2, 1, 0.5, 0.5), T(1, 2, 0, 1)});
    vg_case(g, "P = 2, feature column 1 is 0: B_{0,1} = 0 exactly", "net-zero-feature", 0,
            (ftensor[]){T(1, 4, 0.75, -0.5, 1.25, -2), T(3, 2, 1, 0, -2, 0, 0.5, 0), T(1, 3, 0, 1, 1)});
    vg_case(g, "NaN in w", "nan", 1, (ftensor[]){T(1, 3, 0.75, NAN, 1), T(1, 1, 1), T(1, 1, 0)});
    vg_case(g, "infinite feature", "inf", 1, (ftensor[]){T(1, 3, 0.75, -0.5, 1), T(1, 1, INFINITY), T(1, 1, 0)});
    vg_case(g, "empty batch (nb = 0)", "size", 1, (ftensor[]){T(1, 3, 0.75, -0.5, 1), T(0, 1, 0), T(1, 0, 0)});
    vg_case(g, "label -1", "domain", 1, (ftensor[]){T(1, 3, 0.75, -0.5, 1), T(1, 1, 1), T(1, 1, -1)});

    vg_group(g, "L = 1, J = 1: a softmax over one class", (double[]){1, 1});
    vg_case(g, "L = 1", "domain,boundary", 1, (ftensor[]){T(1, 2, 0.5, 1), T(1, 1, 1), T(1, 1, 0)});
    vg_group(g, "L = 0, J = 1", (double[]){0, 1});
    vg_case(g, "L = 0", "size,boundary", 1, (ftensor[]){T(1, 1, 0.5), T(1, 1, 1), T(1, 1, 0)});
}

const vfunc vfunc_ssca_net = {"ssca_net", "000 Sec. V, (28)-(30)", params, inputs, expects, ref, fast, tol,
                              golden, sample, 3000, 0};
