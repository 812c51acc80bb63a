/* SPDX-License-Identifier: Apache-2.0 */
/* net_partial.c -- vector schema of ssca_net_partial, client i's Step-4
 * message of the feature-based algorithms (000 Sec. V): no params; inputs
 * w1i (J x Pi: the columns p in P_i of omega_1), Zi (nb x Pi: the client's
 * features); expect h = Zi w1i^T (nb x J), h[n][j] = sum_p w1i[j][p]
 * Zi[n][p], correctly rounded.  Zi with another number of columns than
 * w1i is FR_ESIZE.  tol: rel 0, abs the largest of
 * ff_ssca_net_partial_bound's bounds (fedfast/ssca.h). */
#include <math.h>
#include <stdlib.h>
#include "net_io.h"

static const vspec params[] = {{NULL, 0}};
static const vspec inputs[] = {{"w1i", VK_MATRIX}, {"Zi", VK_MATRIX}, {NULL, 0}};
static const vspec expects[] = {{"h", VK_MATRIX}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)par;
    size_t J = in[0].rows, Pi = in[0].cols, nb = in[1].rows;
    if (in[1].cols != Pi) return FR_ESIZE;
    if (rt_alloc(&out[0], nb, J, prec) != 0) return FR_ENOMEM;
    return fr_ssca_net_partial(out[0].v, in[0].v, in[1].v, nb, J, Pi);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)par;
    size_t J = in[0].rows, Pi = in[0].cols, nb = in[1].rows;
    if (in[1].cols != Pi) return FR_ESIZE;
    if (ft_alloc(&out[0], nb, J) != 0) return FR_ENOMEM;
    return ff_ssca_net_partial(out[0].v, in[0].v, in[1].v, nb, J, Pi);
}

static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par;
    size_t J = in[0].rows, Pi = in[0].cols, nb = in[1].rows;
    double *hb = malloc((nb * J + 1) * sizeof *hb);
    *rel = *abs = 0;                           /* not a valid case: no tolerance */
    if (hb != NULL && in[1].cols == Pi
        && ff_ssca_net_partial_bound(hb, in[0].v, in[1].v, nb, J, Pi) == FR_OK)
        *abs = vnet_max(0, hb, nb * J);
    free(hb);
}

/* A random case for the audit sweep: J in [1, 4], Pi in [1, 4], nb in [1, 6]. */
static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)par;
    uint64_t J, Pi, nb, r, e;
    frng_below(g, 4, &J); J++;
    frng_below(g, 4, &Pi); Pi++;
    frng_below(g, 6, &nb); nb++;
    ft_alloc(&in[0], J, Pi);
    ft_alloc(&in[1], nb, Pi);
    frng_below(g, 40, &e);
    for (size_t k = 0; k < J * Pi; k++) {
        frng_below(g, 2049, &r);
        in[0].v[k] = ldexp((double)r - 1024 + (double)frng_u53(g) * 0x1p-53, (int)e - 30);
    }
    for (size_t k = 0; k < nb * Pi; k++)
        in[1].v[k] = ldexp((double)frng_u53(g) * 0x1p-53 - 0.5, 4);
}

#define T(r, c, ...) {r, c, (double[]){__VA_ARGS__}}

static void golden(vgen *g)
{
    vnet_demo D;
    vnet_demo_draw(g, &D);
    vg_group(g, "no parameters", NULL);
    char text[160];
    for (size_t i = 0; i < VNET_I; i++) {
        snprintf(text, sizeof text, "the demo batch (ssca_net id 1), client %zu: features %zu..%zu "
                 "(P_i = %zu), nb = 6, J = 4: h exact", i + 1, vnet_p0[i], vnet_p0[i] + vnet_Pi[i] - 1,
                 vnet_Pi[i]);
        vg_case(g, text, "net-clients,exact", 0,
                (ftensor[]){{VNET_J, vnet_Pi[i], D.w1i[i]}, {VNET_NB, vnet_Pi[i], D.Zi[i]}});
    }
    vg_case(g, "h = 1 + 2^-60: the exact sum needs 61 bits, rounded once", "cancellation", 0,
            (ftensor[]){T(1, 2, 1, 0x1p-60), T(1, 2, 1, 1)});
    vg_case(g, "h = 2^-60 from 1 + 2^-60 - 1: a naive left-to-right sum returns 0", "cancellation", 0,
            (ftensor[]){T(1, 3, 1, 0x1p-60, -1), T(1, 3, 1, 1, 1)});
    vg_case(g, "an exact cancellation: h = +0", "cancellation,exact", 0,
            (ftensor[]){T(2, 2, 1, -1, -3, 3), T(1, 2, 0.5, 0.5)});
    double w[12], Z[10];
    for (int k = 0; k < 12; k++) w[k] = vg_dyadic(g, 10) * 0x1p-3;
    for (int k = 0; k < 10; k++) Z[k] = vg_dyadic(g, 10);
    vg_case(g, "random dyadic, J = 6, Pi = 2, nb = 5", "random", 0, (ftensor[]){{6, 2, w}, {5, 2, Z}});
    vg_case(g, "NaN feature", "nan", 1, (ftensor[]){T(1, 2, 1, 1), T(1, 2, NAN, 1)});
    vg_case(g, "infinite weight", "inf", 1, (ftensor[]){T(1, 2, -INFINITY, 1), T(1, 2, 1, 1)});
    vg_case(g, "Zi with 3 columns, w1i with 2", "size", 1, (ftensor[]){T(1, 2, 1, 1), T(1, 3, 1, 1, 1)});
    vg_case(g, "no feature (Pi = 0)", "size", 1, (ftensor[]){T(1, 0, 0), T(1, 0, 0)});
}

const vfunc vfunc_ssca_net_partial = {"ssca_net_partial", "000 Sec. V, Algorithms 3-4 Step 4, (17)",
                                      params, inputs, expects, ref, fast, tol, golden, sample, 5000, 0};
