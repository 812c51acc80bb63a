#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Paper 003's loss (25) with its gradient and one round of Algorithm 1 in numpy, against fast.

Usage: fedpdm_numpy.py [--reps N] DIR

DIR is the fedpdm/ subdirectory of what `fedref bench --write-inputs` wrote
(cli/fedpdm/bench_fedpdm.c, which runs this script as a subprocess):
manifest.txt and the .f64 inputs.  The vectorised numpy a user would write:

loss (25) (include/fedref/fedpdm.h, the model section), X (m x n), the
batch A (b x n), labels y, in two formulations (both timed and printed,
the faster one reported):
  "einsum": u_t = x_{y_t}^T a_t (einsum of A with the label rows X[y]);
    f = mean(max(-u, 0) + log1p(exp(-|u|))) (the max-shift, np.exp in
    place) + beta sum X^2 / (1 + X^2);
    g = 2 beta X / (1 + X^2)^2 - R^T A, R (b x m) one-hot, R_{t,y_t} =
    sigma(-u_t) / b (one dense matrix product, as a user would);
  "matmul": U = A X^T (one dense product, b x m), u its label column;
    f = -mean(scipy.special.log_expit(u)) + the same regulariser; s =
    scipy.special.expit(-u); g as above (numpy's logaddexp(0, -u) when
    scipy is missing).
Checked: |f - f_fast| / |f_fast| and max|g - g_fast| / max|g_fast| <= 1e-12.

round t = 1 of Algorithm 1 (include/fedspec/fedpdm.h, "Algorithm 1"; rule
FIXED, start XI, server (13), sigma_1 given) for the K participants, from
their states after round 0 (x_i^1, lambda_i^1), x_0^1, fast's batches and
the noise fast drew:
  Q times: g = grad (25) on the batch rows of x; v = g - lambda + rho (x -
  x_0); x -= eta v                                         (10a)
  lambda += rho (x_0 - x); y = x - lambda / rho + sigma xi (10b)-(10d), (12)
  x_0 = soft(mean_i y_i, gamma / rho)                      (13), prox
Two formulations of the round: "einsum" (the local gradient as the einsum
loss, new arrays per step) and "matmul" (the matmul loss's gradient, the
step and (10b)-(10d) in place with out= arguments); both timed and
printed, the faster reported.
Checked: max over x_0^2, x_i^2, lambda_i^2 of |numpy - fast| / max|fast|
<= 1e-12 (the normwise relative difference, per array, the worst).

Each computation is timed as the median of reps repetitions of an inner
loop of >= 20 ms (the gather of the batch rows included; a round's timed
runs draw their K D normals with numpy's default Generator, as fast's
round draws its own, and only the agreement run uses fast's noise).  Output: one line
per case "loss|round INDEX seconds err" in DIR/numpy.txt (err as a
relative difference; bench_fedpdm.c judges it) and a line on stdout.
Exit 0 if every case agreed, 1 otherwise, 2 on a usage or input error, 3
if numpy cannot be imported.
"""
import argparse
import os
import sys

try:
    import numpy as np
except ImportError:
    print("fedpdm_numpy: numpy is not installed (Debian: python3-numpy)", file=sys.stderr)
    sys.exit(3)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import blas_libs, load, rel_to_max, timeit  # noqa: E402 (beside this script)

try:
    from scipy.special import expit, log_expit
except ImportError:                             # scipy < 1.8 or none: numpy alone
    expit = log_expit = None

TOL = 1e-12


def loss_grad(X, A, y, beta):
    """f and g of (25) on the batch (A, y)."""
    b = A.shape[0]
    u = np.einsum("ij,ij->i", A, X[y])
    f = np.mean(np.maximum(-u, 0.0) + np.log1p(np.exp(-np.abs(u))))
    X2 = X * X
    q = 1.0 + X2
    f += beta * np.sum(X2 / q)
    s = 1.0 / (1.0 + np.exp(u))                 # sigma(-u); exp(u) = inf gives 0
    R = np.zeros((b, X.shape[0]))
    R[np.arange(b), y] = s / b
    g = 2.0 * beta * X / (q * q) - R.T @ A
    return f, g


def grad(X, A, y, beta):
    """g of (25) alone (the local step needs no f)."""
    b = A.shape[0]
    u = np.einsum("ij,ij->i", A, X[y])
    s = 1.0 / (1.0 + np.exp(u))
    R = np.zeros((b, X.shape[0]))
    R[np.arange(b), y] = s / b
    q = 1.0 + X * X
    return 2.0 * beta * X / (q * q) - R.T @ A


def loss_grad_mm(X, A, y, beta):
    """f and g of (25): the dense product U = A X^T, scipy's expit."""
    b = A.shape[0]
    u = (A @ X.T)[np.arange(b), y]
    if log_expit is not None:
        f = -np.mean(log_expit(u))
        s = expit(-u)
    else:
        f = np.mean(np.logaddexp(0.0, -u))
        s = 1.0 / (1.0 + np.exp(u))
    X2 = X * X
    q = 1.0 + X2
    f += beta * np.sum(X2 / q)
    R = np.zeros((b, X.shape[0]))
    R[np.arange(b), y] = s / b
    g = 2.0 * beta * X / (q * q) - R.T @ A
    return f, g


def grad_mm(X, A, y, beta, out):
    """g of (25) into out (the matmul formulation, in place where numpy can)."""
    b = A.shape[0]
    u = (A @ X.T)[np.arange(b), y]
    s = expit(-u) if expit is not None else 1.0 / (1.0 + np.exp(u))
    R = np.zeros((b, X.shape[0]))
    R[np.arange(b), y] = s / b
    q = X * X
    q += 1.0
    np.multiply(q, q, out=q)
    np.divide(X, q, out=out)
    out *= 2.0 * beta
    out -= R.T @ A
    return out


def one_round_mm(As, ys, xs, ls, x0, xi, batch, Q, b, rho, eta, sig, gamma, beta, gen=None):
    """one_round with grad_mm and the updates in place."""
    K = xs.shape[0]
    if gen is not None:
        xi = gen.standard_normal(xs.shape)
    xo, lo, yt = np.empty_like(xs), np.empty_like(ls), np.empty_like(xs)
    g, v = np.empty_like(x0), np.empty_like(x0)
    for j in range(K):
        x = xo[j]
        x[...] = xs[j]
        for r in range(Q):
            rows = batch[j, r]
            grad_mm(x, As[j][rows], ys[j][rows], beta, g)
            np.subtract(x, x0, out=v)
            v *= rho
            v += g
            v -= ls[j]
            v *= eta
            x -= v
        lam = lo[j]
        np.subtract(x0, x, out=lam)
        lam *= rho
        lam += ls[j]
        np.divide(lam, rho, out=yt[j])
        np.subtract(x, yt[j], out=yt[j])
        yt[j] += sig * xi[j]
    u = yt.mean(axis=0)
    x02 = np.sign(u) * np.maximum(np.abs(u) - gamma / rho, 0.0)
    return x02, xo, lo


def one_round(As, ys, xs, ls, x0, xi, batch, Q, b, rho, eta, sig, gamma, beta, gen=None):
    """Round t = 1 for the K participants: (10a) Q times, (10b)-(10d), (12),
    the server (13) and the prox.  Returns x_0^2, x_i^2, lambda_i^2.  With
    gen (a numpy Generator) the noise is drawn by it, as a user's round
    would (the timed runs: fast's time includes its own draws), else xi
    (fast's noise: the agreement run)."""
    K = xs.shape[0]
    if gen is not None:
        xi = gen.standard_normal(xs.shape)
    xo, lo, yt = np.empty_like(xs), np.empty_like(ls), np.empty_like(xs)
    for j in range(K):
        x = xs[j].copy()
        for r in range(Q):
            rows = batch[j, r]
            v = grad(x, As[j][rows], ys[j][rows], beta) - ls[j] + rho * (x - x0)
            x -= eta * v
        lam = ls[j] + rho * (x0 - x)
        xo[j], lo[j] = x, lam
        yt[j] = x - lam / rho + sig * xi[j]
    u = yt.mean(axis=0)
    x02 = np.sign(u) * np.maximum(np.abs(u) - gamma / rho, 0.0)
    return x02, xo, lo


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--reps", type=int, default=0)
    a = ap.parse_args()
    try:
        lines = open(os.path.join(a.dir, "manifest.txt")).read().splitlines()
    except OSError as e:
        print("fedpdm_numpy: error: %s" % e, file=sys.stderr)
        return 2
    reps, sizes, loss, rounds = a.reps, None, [], []
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "reps":
            reps = reps or int(f[1])
        elif f[0] == "sizes":
            sizes = [int(x) for x in f[1:3]]
        elif f[0] == "loss":
            loss.append(f[1:])
        elif f[0] == "round":
            rounds.append(f[1:])
        else:
            print("fedpdm_numpy: error: unknown manifest line: %s" % line, file=sys.stderr)
            return 2
    if sizes is None:
        print("fedpdm_numpy: error: manifest without sizes", file=sys.stderr)
        return 2
    reps = max(reps, 1)
    m, n = sizes
    D = m * n
    out, bad = [], 0
    print("  numpy %s, OPENBLAS_NUM_THREADS=%s, BLAS in the script: %s"
          % (np.__version__, os.environ.get("OPENBLAS_NUM_THREADS", "(unset)"),
             ", ".join(blas_libs())))
    try:
        if loss:
            bmax = max(int(c[1]) for c in loss)
            X = load(a.dir, "loss_X", D).reshape(m, n)
            A = load(a.dir, "loss_A", bmax * n).reshape(bmax, n)
            y = load(a.dir, "loss_y", bmax).astype(np.intp)
        for q, c in enumerate(loss):
            name, b = c[0], int(c[1])
            ff, beta = float.fromhex(c[2]), float.fromhex(c[3])
            gf = load(a.dir, name + "_g", D).reshape(m, n)
            Ab, yb = A[:b], y[:b]
            best = None
            for form, lf in (("einsum", loss_grad), ("matmul", loss_grad_mm)):
                fn, gn = lf(X, Ab, yb, beta)
                err = max(abs(fn - ff) / abs(ff), rel_to_max(gn, gf))
                bad += not err <= TOL
                t = timeit(lambda: lf(X, Ab, yb, beta), reps)
                print("  numpy loss b = %d, %s: %.4g s (error %.2g)" % (b, form, t, err))
                if best is None or t < best[0]:
                    best = (t, err)
            out.append("loss %d %r %r" % (q, best[0], best[1]))
        for q, c in enumerate(rounds):
            name = c[0]
            K, di, Q, b = int(c[1]), int(c[2]), int(c[3]), int(c[4])
            rho, eta, sig, gamma, beta = (float.fromhex(x) for x in c[5:10])
            As = load(a.dir, name + "_A", K * di * n).reshape(K, di, n)
            ys = load(a.dir, name + "_y", K * di).astype(np.intp).reshape(K, di)
            xs = load(a.dir, name + "_xs", K * D).reshape(K, m, n)
            ls = load(a.dir, name + "_ls", K * D).reshape(K, m, n)
            xi = load(a.dir, name + "_xi", K * D).reshape(K, m, n)
            x0 = load(a.dir, name + "_x01", D).reshape(m, n)
            batch = load(a.dir, name + "_batch", K * Q * b).astype(np.intp).reshape(K, Q, b)
            x2f = load(a.dir, name + "_x2", K * D).reshape(K, m, n)
            l2f = load(a.dir, name + "_l2", K * D).reshape(K, m, n)
            x02f = load(a.dir, name + "_x02", D).reshape(m, n)

            gen = np.random.default_rng(2026)
            best = None
            for form, rf in (("einsum", one_round), ("matmul", one_round_mm)):
                def fn():
                    return rf(As, ys, xs, ls, x0, xi, batch, Q, b, rho, eta, sig, gamma, beta, gen)

                x02, x2, l2 = rf(As, ys, xs, ls, x0, xi, batch, Q, b, rho, eta, sig, gamma, beta)
                err = max(rel_to_max(x02, x02f), rel_to_max(x2, x2f), rel_to_max(l2, l2f))
                bad += not err <= TOL
                t = timeit(fn, reps)
                print("  numpy round K = %d, b = %d, Q = %d, %s: %.4g s (error %.2g)"
                      % (K, b, Q, form, t, err))
                if best is None or t < best[0]:
                    best = (t, err)
            out.append("round %d %r %r" % (q, best[0], best[1]))
    except (OSError, ValueError) as e:
        print("fedpdm_numpy: error: %s" % e, file=sys.stderr)
        return 2
    with open(os.path.join(a.dir, "numpy.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
