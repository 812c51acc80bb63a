#!/usr/bin/python3
"""One round of Algorithms 1 and 3 of paper 000 in numpy, against fast.

Usage: ssca_numpy.py [--reps N] DIR

DIR is the ssca/ subdirectory of what `fedref bench --write-inputs` wrote
(cli/ssca/bench_ssca.c): manifest.txt, Z (N x P), y (labels), w1 and per
case the round's batch as global row indices (idx), fast's w^2 (w2) and
fast's median round time.  For each case the script computes round t = 1
from w^1 in numpy on the same batch, checks it against fast's w^2
(max_k |w2_numpy - w2_fast| / max_k |w2_fast| <= 1e-12), then times the
numpy round (median of N repetitions, warm-up first, each repetition the
mean of enough calls to last >= 20 ms) and prints fast/numpy: <= 0.5 is
"fast at least 2x faster" (the target at B <= 100).

The numpy round (000 (28)-(30), (9)/(36)-(37), (35), (38)-(39), (5);
docs/SSCA.md 8 and 10), vectorised as a numpy user would write it: the
whole round's batch gathered at once (Z[idx], fancy indexing) and every
sample of every client in one matmul per layer (the clients share w in
Algorithm 1; client i's weight q_i = N_i/(B N) scales the rows of Q - Y,
which equals sum_i q_i G_i); Algorithm 3's u = sum_i h_i is the same
product Z_b W1^T (the split of the features does not change the sum), and
its gradient is that of one client of weight 1/B (docs/SSCA.md 10):
  U = Zb W1^T, e = exp(-|U|), sigma and sigma(-u) from e, S = U sigma,
  S' = sigma (1 + U sigma(-u)), O = S W0^T, R = softmax(O) - onehot(y),
  Rq = q R, A = Rq^T S, Bg = ((Rq W0) .* S')^T Zb, g = (A, Bg);
  f1 = rho (g - 2 tau w), beta = rho w, W = 1 - (1 - rho) (FR_SSCA_W_EXACT)
  or 1 (printed), wbar = -(f1 + 2 lambda beta) / (2 tau W),
  w2 = (1 - gamma) w + gamma wbar.
The round is timed from the gather to w2 (when the batch is the whole data
set, B = N_i for every client, the rows are used in place, as fast does:
a gradient sum does not depend on the order of its rows); fast's time
also includes its draw of the batch (frng_sample), which numpy is given.
Exit 0 if every case agreed, 1 otherwise, 2 on a usage or input error.
"""
import argparse
import os
import sys
import time

import numpy as np

TOL = 1e-12


def load(d, name, count):
    a = np.fromfile(os.path.join(d, name + ".f64"), dtype=np.float64)
    if a.size != count:
        raise ValueError("%s.f64: %d values, wanted %d" % (name, a.size, count))
    return a


def round1(Z, y, w, idx, q, rho, gamma, tau, lam, weight, L, J, P):
    """Round t = 1 of Algorithm 1 or 3 (state f1 = 0, beta = 0, prod = 1):
    w^2 from w^1 on the batch idx (None: every row of Z in place) with
    per-row weights q."""
    if idx is None:
        Zb, yb = Z, y
    else:
        Zb = Z[idx]
        yb = y[idx]
    W0 = w[:L * J].reshape(L, J)
    W1 = w[L * J:].reshape(J, P)
    U = Zb @ W1.T
    e = np.exp(-np.abs(U))
    r = 1.0 / (1.0 + e)
    er = e * r
    pos = U >= 0
    sig = np.where(pos, r, er)
    sigm = np.where(pos, er, r)
    S = U * sig
    Sp = sig * (1.0 + U * sigm)
    O = S @ W0.T
    O -= O.max(axis=1, keepdims=True)
    np.exp(O, out=O)
    O /= O.sum(axis=1, keepdims=True)
    O[np.arange(O.shape[0]), yb] -= 1.0
    O *= q[:, None]
    A = O.T @ S
    C = O @ W0
    C *= Sp
    Bg = C.T @ Zb
    g = np.concatenate((A.ravel(), Bg.ravel()))
    f1 = rho * (g - 2.0 * tau * w)
    beta = rho * w
    W = 1.0 - (1.0 - rho) if weight == 0 else 1.0
    wbar = -(f1 + 2.0 * lam * beta) / (2.0 * tau * W)
    return (1.0 - gamma) * w + gamma * wbar


def blas_libs():
    """The BLAS libraries mapped into this process (numpy's)."""
    libs = set()
    try:
        for line in open("/proc/self/maps"):
            p = line.split()[-1]
            b = os.path.basename(p)
            if "blas" in b or "lapack" in b or "mkl" in b:
                libs.add(os.path.realpath(p))
    except OSError:
        pass
    return sorted(libs) or ["(unknown)"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--reps", type=int, default=0)
    a = ap.parse_args()
    try:
        lines = open(os.path.join(a.dir, "manifest.txt")).read().splitlines()
    except OSError as e:
        print("ssca_numpy: error: %s" % e, file=sys.stderr)
        return 2
    reps, sizes, Ni, cases = a.reps, None, None, []
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "reps":
            reps = reps or int(f[1])
        elif f[0] == "sizes":
            sizes = [int(x) for x in f[1:6]]
        elif f[0] == "Ni":
            Ni = np.array([int(x) for x in f[1:]], dtype=np.float64)
        elif f[0] == "case":
            cases.append(f[1:])
        else:
            print("ssca_numpy: error: unknown manifest line: %s" % line, file=sys.stderr)
            return 2
    if sizes is None or Ni is None:
        print("ssca_numpy: error: manifest without sizes or Ni", file=sys.stderr)
        return 2
    reps = max(reps, 5)
    N, P, J, L, nc = sizes
    d = J * (L + P)
    try:
        Z = load(a.dir, "Z", N * P).reshape(N, P)
        y = load(a.dir, "y", N).astype(np.intp)
        w1 = load(a.dir, "w1", d)
    except (OSError, ValueError) as e:
        print("ssca_numpy: error: %s" % e, file=sys.stderr)
        return 2
    print("\nssca: fast against numpy %s (one round, t = 1, from w^1 on fast's batch);"
          " OPENBLAS_NUM_THREADS=%s,\n%d core(s); numpy's BLAS: %s\n"
          "medians of %d repetitions; agree: max|w2_numpy - w2_fast| / max|w2_fast| as a\n"
          "fraction of %.0e (bench/ssca_numpy.py; <= 1 agrees)"
          % (np.__version__, os.environ.get("OPENBLAS_NUM_THREADS", "(unset)"),
             len(os.sched_getaffinity(0)), ", ".join(blas_libs()), reps, TOL))
    print("  %-22s %-26s%10s %10s %10s %9s %8s" % ("algorithm", "batch", "fast (s)", "numpy (s)",
                                                    "fast/numpy", "err", "agree"))
    bad = 0
    verdicts = []
    for c in cases:
        name, algo, B, nd = c[0], c[1], int(c[2]), int(c[3])
        a1, al1, a2, al2, tau, lam = (float.fromhex(x) for x in c[4:10])
        weight, tfast = int(c[10]), float.fromhex(c[11])
        try:
            idx = load(a.dir, name + "_idx", nd).astype(np.intp)
            w2f = load(a.dir, name + "_w2", d)
        except (OSError, ValueError) as e:
            print("ssca_numpy: error: %s" % e, file=sys.stderr)
            return 2
        if algo == "alg1":                       # client i's rows are i B .. i B + B - 1
            q = np.repeat(Ni / (B * float(N)), B)
            label = "alg1 (sample)"
        else:
            q = np.full(nd, 1.0 / B)
            label = "alg3 (feature)"
        if nd == N:                              # the whole data set: no gather (as fast)
            if algo == "alg1":
                q = np.repeat(Ni / (B * float(N)), Ni.astype(np.intp))
            idx = None
        rho, gamma = a1, a2                      # t = 1: a t^-alpha = a

        def fn():
            return round1(Z, y, w1, idx, q, rho, gamma, tau, lam, weight, L, J, P)

        w2n = fn()                               # also the warm-up
        err = float(np.max(np.abs(w2n - w2f))) / float(np.max(np.abs(w2f)))
        agree = err / TOL
        t0 = time.perf_counter()
        fn()
        one = max(time.perf_counter() - t0, 1e-7)
        inner = max(1, int(0.02 / one))
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            ts.append((time.perf_counter() - t0) / inner)
        tn = float(np.median(ts))
        if not agree <= 1:
            print("  DISAGREE: %s B = %d: %.3g of the tolerance" % (label, B, agree))
            bad += 1
        print("  %-22s %-26s%10.4g %10.4g %10.3f %9.3g %8.3g"
              % (label, "B = %d" % B, tfast, tn, tfast / tn, err, agree))
        if B <= 100:
            verdicts.append("%s B = %d %s" % (algo, B, "met" if tfast <= 0.5 * tn else "missed"))
        sys.stdout.flush()
    print("  target: fast/numpy <= 0.5 (fast at least 2x faster) at B <= 100: %s"
          " (printed, not judged)" % ", ".join(verdicts))
    print("\nssca_numpy: %d disagreement(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
