/* SPDX-License-Identifier: Apache-2.0 */
/* net_bottom.c -- vector schema of ssca_net_bottom, client i's Step-6
 * message of the feature-based algorithms (000 Sec. V, (21)): params I
 * (clients); inputs H (I nb x J, as ssca_net_top), w0 (L x J), y (nb class
 * indices), Zi (nb x Pi: the client's features); expect B = sum_n bbar_n
 * (30) restricted to the client's features (J x Pi), from u = sum_i h_i
 * exactly.  Shapes as ssca_net_top, and Zi must have nb rows (FR_ESIZE).
 * tol: rel 0, abs the largest of ff_ssca_net_bottom_bound's bounds. */
#include <math.h>
#include <stdlib.h>
#include "net_io.h"

static const vspec params[] = {{"I", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{"H", VK_MATRIX}, {"w0", VK_MATRIX}, {"y", VK_VECTOR}, {"Zi", VK_MATRIX},
                               {NULL, 0}};
static const vspec expects[] = {{"B", VK_MATRIX}, {NULL, 0}};

/* nb = y's length; FR_ESIZE unless H is (I nb) x J (J = w0's columns) and
 * Zi has nb rows. */
static int shape(size_t I, const size_t *dims, size_t *nb)
{
    *nb = dims[4];
    if (I == 0 || dims[1] != dims[3] || dims[0] != I * *nb || (*nb && dims[0] / *nb != I)
        || dims[5] != *nb)
        return FR_ESIZE;
    return FR_OK;
}

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    double Id;
    int st = rt_exact_double(&Id, par[0].v[0]);
    if (st != FR_OK) return st;
    size_t I = vnet_size(Id), nb, L = in[1].rows, J = in[1].cols, Pi = in[3].cols;
    const size_t dims[6] = {in[0].rows, in[0].cols, L, J, in[2].cols, in[3].rows};
    if ((st = shape(I, dims, &nb)) != FR_OK) return st;
    size_t *y = malloc((nb ? nb : 1) * sizeof *y);
    if (y == NULL) return FR_ENOMEM;
    st = vnet_labels_mp(y, in[2].v, nb);
    if (st == FR_OK && rt_alloc(&out[0], J, Pi, prec) != 0)
        st = FR_ENOMEM;
    if (st == FR_OK) st = fr_ssca_net_bottom(out[0].v, in[0].v, I, in[1].v, y, in[3].v, nb, L, J, Pi);
    free(y);
    return st;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    size_t I = vnet_size(par[0].v[0]), nb, L = in[1].rows, J = in[1].cols, Pi = in[3].cols;
    const size_t dims[6] = {in[0].rows, in[0].cols, L, J, in[2].cols, in[3].rows};
    int st = shape(I, dims, &nb);
    if (st != FR_OK) return st;
    size_t *y = malloc((nb ? nb : 1) * sizeof *y);
    if (y == NULL) return FR_ENOMEM;
    vnet_labels(y, in[2].v, nb);
    if (ft_alloc(&out[0], J, Pi) != 0) st = FR_ENOMEM;
    if (st == FR_OK) st = ff_ssca_net_bottom(out[0].v, in[0].v, I, in[1].v, y, in[3].v, nb, L, J, Pi);
    free(y);
    return st;
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    size_t I = vnet_size(par[0].v[0]), nb, L = in[1].rows, J = in[1].cols, Pi = in[3].cols;
    const size_t dims[6] = {in[0].rows, in[0].cols, L, J, in[2].cols, in[3].rows};
    *rel = *abs = 0;                           /* not a valid case: no tolerance */
    if (shape(I, dims, &nb) != FR_OK)
        return;
    size_t *y = malloc((nb ? nb : 1) * sizeof *y);
    double *Bb = malloc((J * Pi + 1) * sizeof *Bb);
    if (y != NULL && Bb != NULL) {
        vnet_labels(y, in[2].v, nb);
        if (ff_ssca_net_bottom_bound(Bb, in[0].v, I, in[1].v, y, in[3].v, nb, L, J, Pi) == FR_OK)
            *abs = vnet_max(0, Bb, J * Pi);
    }
    free(y);
    free(Bb);
}

/* A random case for the audit sweep: I in [1, 3], L in [2, 4], J in [1, 4],
 * nb in [1, 5], Pi in [1, 3]; dyadic H, w0, Zi. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    uint64_t Pi, r;
    size_t nb = vnet_sample_messages(g, par, in);
    frng_below(g, 3, &Pi); Pi++;
    ft_alloc(&in[3], nb, Pi);
    for (size_t k = 0; k < nb * Pi; k++) {
        frng_below(g, 2049, &r);
        in[3].v[k] = ldexp((double)r - 1024, -8);
    }
}

#define T(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vnet_demo D;
    vnet_demo_draw(g, &D);
    vg_group(g, "I = 3 clients", (double[]){VNET_I});
    char text[200];
    for (size_t i = 0; i < VNET_I; i++) {
        snprintf(text, sizeof text, "the demo batch, client %zu (features %zu..%zu): B equals the columns "
                 "%zu..%zu of the omega_1 block of ssca_net id 1's g", i + 1, vnet_p0[i],
                 vnet_p0[i] + vnet_Pi[i] - 1, vnet_p0[i], vnet_p0[i] + vnet_Pi[i] - 1);
        vg_case(g, text, "net-clients,random", 0,
                (ftensor[]){{VNET_I * VNET_NB, VNET_J, D.H}, {VNET_L, VNET_J, D.w}, {1, VNET_NB, D.y},
                            {VNET_NB, vnet_Pi[i], D.Zi[i]}});
    }
    vg_case(g, "omega_0 = 0: delta = 0, B = 0 exactly", "net-zero-w0,net-clients", 0,
            (ftensor[]){{VNET_I * VNET_NB, VNET_J, D.H}, {VNET_L, VNET_J, (double[VNET_L * VNET_J]){0}},
                        {1, VNET_NB, D.y}, {VNET_NB, vnet_Pi[2], D.Zi[2]}});
    vg_case(g, "Zi with 5 rows, nb = 6", "size", 1,
            (ftensor[]){{VNET_I * VNET_NB, VNET_J, D.H}, {VNET_L, VNET_J, D.w}, {1, VNET_NB, D.y},
                        {5, 1, D.Zi[0]}});
    vg_case(g, "infinite feature", "inf", 1,
            (ftensor[]){T(3, 1, 1, 1, 1), T(2, 1, 1, -1), T(1, 1, 0), T(1, 1, INFINITY)});
    vg_group(g, "I = 2 clients", (double[]){2});
    vg_case(g, "u = 0 exactly for sample 0 (h_2 = -h_1): S'(0) = 1/2; feature column 1 is 0",
            "net-swish-zero,net-zero-feature,net-clients", 0,
            (ftensor[]){T(4, 2, 1, -0.5, 0.25, 2, -1, 0.5, 0.5, 1), T(3, 2, 1, -1, 0.5, 0.25, -2, 0.75),
                        T(1, 2, 2, 0), T(2, 2, 1.5, 0, -0.5, 0)});
    vg_case(g, "label 3 with L = 3", "domain", 1,
            (ftensor[]){T(4, 2, 1, -0.5, 0.25, 2, -1, 0.5, 0.5, 1), T(3, 2, 1, -1, 0.5, 0.25, -2, 0.75),
                        T(1, 2, 2, 3), T(2, 2, 1.5, 0, -0.5, 0)});
}

const vfunc vfunc_ssca_net_bottom = {"ssca_net_bottom", "000 Sec. V, Algorithms 3-4 Step 6, (21), (30)",
                                     params, inputs, expects, ref, fast, tol, golden, sample, 3000, 0};
