/* SPDX-License-Identifier: Apache-2.0 */
/* hsolve.c -- the nonsmooth subproblems of 004 with h = gamma ||.||_1 or the
 * indicator of a box [lo, hi] (docs/PROXAL.md 4.5): min_x phi(x) + h(x),
 * phi smooth (Algorithm 2's server step (14), strongly convex; Algorithm
 * 3's l_k, not convex on FAIR (28)), in binary64.
 *
 * Optimality: 0 in grad phi(x) + dh(x), coordinate by coordinate (h is
 * separable).  The certified residual dist_inf(0, grad phi(x) + dh(x)) is
 * the table of docs/PROXAL.md 1.3 applied to v = fl(grad phi(x)), plus the
 * assembly's error bound rp_k (every formula is 1-Lipschitz in v_k) and,
 * for l1, one rounding of v_k -+ gamma; each bound rounded up by nextafter.
 *
 * Method (each iteration): (a) a proximal-gradient step y = prox_{h/L}(x -
 * v/L) -- soft-threshold at gamma/L or a clip to [lo, hi] -- with L from
 * Gershgorin's bound on the Hessian at x (the exact curvature when the
 * Hessian is a I: then this step IS the closed form of (14)), doubled until
 * the descent lemma phi(y) <= phi(x) + v.(y - x) + L/2 ||y - x||^2 holds
 * (up to rounding); (b) a Newton step on the face of y: l1 the nonzero
 * coordinates with their signs fixed (gradient v_k + gamma sign(y_k)), box
 * the coordinates strictly inside; the reduced Hessian by LAPACK dpotrf
 * (where it is not positive definite -- FAIR (28): phi is not convex --
 * no Newton step is taken and (a) alone descends; a step with Algorithm
 * 3's shift lam I instead took 105 iterations for 92 on test_alg.c's
 * fair_indefinite_newton with l1, so it is not used);
 * the step is projected back onto the face's closure (a sign change gives
 * 0; a clip) and kept if phi + h does not increase or the certified
 * residual halves.  (a) alone converges to a stationary point, phi convex
 * or not (Beck, First-Order Methods in Optimization, Thm 10.15); (b) finishes
 * in one step once the face is identified (exactly for a quadratic phi);
 * it is tried after every (a), so that a returned point that moved is the
 * minimiser up to rounding whenever the face was found (the two wings then
 * agree to rounding, as with h = 0's exact quadratic solves).
 * The precision floor as fast/proxal/admm.c: accepted when eps < fl and
 * res <= fl, fl the caller's floor at x. */
#include "../internal.h"
#include "fedfast/proxal.h"
#include "eval.h"

static const double U53 = 0x1p-53;

double ffi_proxal_hres(int h, double gamma, const double *lo, const double *hi, const double *x,
                       const double *v, const double *rp, size_t d)
{
    double b = 0;
    for (size_t k = 0; k < d; k++) {
        double e, r = rp[k];
        if (h == FR_PROXAL_H_L1) {
            if (x[k] > 0)
                e = fabs(v[k] + gamma);
            else if (x[k] < 0)
                e = fabs(v[k] - gamma);
            else
                e = fmax(fabs(v[k]) - gamma, 0);
            r += 2 * U53 * (fabs(v[k]) + gamma);   /* the one rounding of v -+ gamma */
        } else if (h == FR_PROXAL_H_BOX) {
            if (lo[k] == hi[k])
                continue;                          /* dh_k = R: e_k = 0 exactly */
            if (x[k] <= lo[k])
                e = fmax(-v[k], 0);
            else if (x[k] >= hi[k])
                e = fmax(v[k], 0);
            else
                e = fabs(v[k]);
        } else
            e = fabs(v[k]);
        e = ffi_next_up(e + r);
        if (!(e <= b))
            b = isnan(e) ? e : fmax(b, e);
    }
    return b;
}

/* h(x) (the box: 0, x is kept inside) */
static double hval(const ffi_proxal_hprob *pb, const double *x)
{
    double s = 0;
    if (pb->h == FR_PROXAL_H_L1)
        for (size_t k = 0; k < pb->d; k++)
            s += fabs(x[k]);
    return pb->gamma * s;
}

/* the projection onto dom h (box), in place */
static void to_dom(const ffi_proxal_hprob *pb, double *x)
{
    if (pb->h == FR_PROXAL_H_BOX)
        for (size_t k = 0; k < pb->d; k++)
            x[k] = fmin(fmax(x[k], pb->lo[k]), pb->hi[k]);
}

/* y = prox_{h/L}(x - v/L) */
static void prox_step(const ffi_proxal_hprob *pb, const double *x, const double *v, double L, double *y)
{
    double t = pb->gamma / L;
    for (size_t k = 0; k < pb->d; k++) {
        double z = x[k] - v[k] / L;
        if (pb->h == FR_PROXAL_H_L1)
            y[k] = z > t ? z - t : (z < -t ? z + t : 0.0);
        else if (pb->h == FR_PROXAL_H_BOX)
            y[k] = fmin(fmax(z, pb->lo[k]), pb->hi[k]);
        else
            y[k] = z;
    }
}

static int at_floor(double res, double fl, double eps, unsigned long *floors)
{
    if (eps < fl && res <= fl) {
        ++*floors;
        return 1;
    }
    return 0;
}

int ffi_proxal_hsolve(const ffi_proxal_hprob *pb, double *x, double eps, unsigned long nmax, double *res_out,
                      unsigned long *newton, unsigned long *fact, unsigned long *floors)
{
    const size_t d = pb->d;
    double *buf = pb->buf ? pb->buf : malloc(ffi_proxal_hsolve_len(d) * sizeof(double));
    size_t *idx = pb->idx ? pb->idx : malloc(d * sizeof(size_t));
    int st = FR_OK;
    if (buf == NULL || idx == NULL) {
        st = FR_ENOMEM;
        goto out;
    }
    double *v = buf, *rp = v + d, *y = rp + d, *vy = y + d, *rpy = vy + d, *s = rpy + d;
    double *H = s + 2 * d, *Hr = H + d * d, *M = Hr + d * d;
    double fx, fy, fl, fly, res, ry;
    to_dom(pb, x);
    if ((st = pb->eval(pb->ctx, x, &fx, v, rp, &fl, H)) != FR_OK)
        goto out;
    res = ffi_proxal_hres(pb->h, pb->gamma, pb->lo, pb->hi, x, v, rp, d);
    if (!(res <= eps) && at_floor(res, fl, eps, floors))   /* the warm start at the floor */
        goto done;
    for (unsigned long it = 0; it < nmax && !(res <= eps); it++) {
        double res0 = res;
        /* (a) the proximal-gradient step, L from Gershgorin's bound */
        double L = 0;
        for (size_t k = 0; k < d; k++) {
            double r = 0;
            for (size_t l = 0; l < d; l++)
                r += fabs(H[k * d + l]);
            L = fmax(L, r);
        }
        if (!(L > 0) || !isfinite(L))
            L = 1;
        int ok = 0;
        for (int tr = 0; tr <= 60 && !ok; tr++, L *= 2) {
            prox_step(pb, x, v, L, y);
            if ((st = pb->eval(pb->ctx, y, &fy, vy, rpy, &fly, NULL)) != FR_OK)
                goto out;
            double q = fx, sq = 0;
            for (size_t k = 0; k < d; k++) {
                double dk = y[k] - x[k];
                q += v[k] * dk;
                sq += dk * dk;
            }
            q += 0.5 * L * sq;
            ok = fy <= q + 64 * U53 * (fabs(fx) + fabs(fy) + fabs(q));
        }
        if (!ok)
            break;
        memcpy(x, y, d * sizeof(double));
        fx = fy;
        if ((st = pb->eval(pb->ctx, x, &fx, v, rp, &fl, H)) != FR_OK)
            goto out;
        res = ffi_proxal_hres(pb->h, pb->gamma, pb->lo, pb->hi, x, v, rp, d);
        /* (b) Newton on the face of x, also when (a) reached eps: once the
         * face is right it lands on the minimiser (up to rounding) */
        size_t m = 0;
        for (size_t k = 0; k < d; k++) {
            int fr = pb->h == FR_PROXAL_H_L1 ? x[k] != 0
                   : pb->h == FR_PROXAL_H_BOX ? (x[k] > pb->lo[k] && x[k] < pb->hi[k]) : 1;
            if (fr)
                idx[m++] = k;
        }
        if (m > 0) {
            for (size_t a = 0; a < m; a++)
                for (size_t b = 0; b < m; b++)
                    Hr[a * m + b] = H[idx[a] * d + idx[b]];
            ++*fact;
            if (ffi_proxal_chol(M, Hr, 0.0, m) == FR_OK) {
                for (size_t a = 0; a < m; a++) {
                    size_t k = idx[a];
                    s[a] = -(pb->h == FR_PROXAL_H_L1 ? v[k] + (x[k] > 0 ? pb->gamma : -pb->gamma) : v[k]);
                }
                if (ffi_proxal_chol_solve(M, s, m) == FR_OK) {
                    ++*newton;
                    memcpy(y, x, d * sizeof(double));
                    for (size_t a = 0; a < m; a++) {
                        size_t k = idx[a];
                        double z = x[k] + s[a];
                        if (pb->h == FR_PROXAL_H_L1)
                            z = (z > 0) == (x[k] > 0) && z != 0 ? z : 0.0;   /* no sign change */
                        y[k] = z;
                    }
                    to_dom(pb, y);
                    if ((st = pb->eval(pb->ctx, y, &fy, vy, rpy, &fly, NULL)) != FR_OK)
                        goto out;
                    ry = ffi_proxal_hres(pb->h, pb->gamma, pb->lo, pb->hi, y, vy, rpy, d);
                    if (fy + hval(pb, y) <= fx + hval(pb, x) || ry <= 0.5 * res) {
                        memcpy(x, y, d * sizeof(double));
                        if ((st = pb->eval(pb->ctx, x, &fx, v, rp, &fl, H)) != FR_OK)
                            goto out;
                        res = ry;
                    }
                }
            }
        }
        if (!(res <= eps) && !(res < res0) && at_floor(res, fl, eps, floors))
            goto done;   /* no progress at the floor */
    }
    if (!(res <= eps) && !at_floor(res, fl, eps, floors))
        st = FR_EDOM;
done:
    *res_out = res;
out:
    if (pb->buf == NULL)
        free(buf);
    if (pb->idx == NULL)
        free(idx);
    return st;
}
