#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""fast (libfedfast) against numpy, in one process: ff_ens and ff_logreg_fi.

Usage: bench_numpy.py [--lib PATH] [--reps N] DIR

DIR holds the inputs `fedref bench --write-inputs DIR` wrote (manifest.txt
and NAME.f64 files of native binary64).  For each input the script first
checks that fast (called through ctypes on the same arrays) and numpy agree,
then times both as medians of N repetitions (default: the manifest's reps,
those of fedref bench), interleaved (fast, numpy,
numpy, fast, ...), and prints fast/numpy: below 0.5 is "fast at least 2x
faster".  numpy's BLAS and libfedfast's are the same library in this process
(on Debian both load libblas.so.3); set OPENBLAS_NUM_THREADS=1 for one thread
(make bench does).  Run it with Debian's /usr/bin/python3 and python3-numpy.
Exit 0 if everything agreed, 1 otherwise, 2 on a usage or input error.

The numpy versions are the vectorised forms a numpy user would write:
  ens:    sort along the clients, S = column sums, X(k) = (S + C (m - 2k))/m
          for all k at once, k* = the first k with X(k) <= v_(k), the clamp;
  logreg: u = X w, v = (1 - 2b) u, one exp(-|v|) for softplus and sigmoid,
          f = mean(max(v, 0) + log1p(e)) + beta/2 |w|^2, g = X^T r/d + beta w.
Agreement tolerances (stated, loose enough for numpy's own rounding, far
below any algorithmic error):
  ens:    max_j |w_fast - w_numpy| <= 2^-40 (max |W| + lambda/eta);
  logreg: |f_fast - f_numpy| <= 2^-40 (|f| + 1) and
          max_j |g_fast - g_numpy| <= 2^-40 (max_j |g_j| + 1).
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np

TOL = 2.0 ** -40


class Logreg(ctypes.Structure):
    _fields_ = [("m", ctypes.c_size_t), ("n", ctypes.c_size_t),
                ("d", ctypes.POINTER(ctypes.c_size_t)),
                ("X", ctypes.POINTER(ctypes.c_double)),
                ("b", ctypes.POINTER(ctypes.c_double)),
                ("beta", ctypes.c_double)]


def ptr(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def ens_np(W, lam, eta):
    m, n = W.shape
    V = np.sort(W, axis=0)
    S = V.sum(axis=0)
    C = lam / eta
    k = np.arange(m + 1, dtype=np.float64)[:, None]
    X = (S + C * (m - 2 * k)) / m
    P = np.empty((m + 1, n), dtype=bool)
    np.less_equal(X[:m], V, out=P[:m])
    P[m] = True
    ks = P.argmax(axis=0)
    cols = np.arange(n)
    x = X[ks, cols]
    lo = V[np.maximum(ks - 1, 0), cols]
    hi = V[np.minimum(ks, m - 1), cols]
    return np.minimum(np.maximum(x, lo), hi)


def logreg_np(X, b, w, beta):
    d = X.shape[0]
    u = X @ w
    v = np.where(b != 0, -u, u)
    e = np.exp(-np.abs(v))
    f = np.mean(np.maximum(v, 0) + np.log1p(e)) + 0.5 * beta * (w @ w)
    s = np.where(v >= 0, 1 / (1 + e), e / (1 + e))
    r = np.where(b != 0, -s, s)
    return f, (X.T @ r) / d + beta * w


def timed(fast, slow, reps):
    """Medians of reps interleaved timings of fast() and slow()."""
    tf, ts = [], []
    for r in range(reps):
        order = (fast, slow) if r % 2 == 0 else (slow, fast)
        for fn in order:
            t0 = time.perf_counter()
            fn()
            (tf if fn is fast else ts).append(time.perf_counter() - t0)
    return float(np.median(tf)), float(np.median(ts))


def timed3(fns, reps):
    """Medians of reps interleaved timings of each of fns (rotating order)."""
    ts = [[] for _ in fns]
    for r in range(reps):
        for k in range(len(fns)):
            i = (r + k) % len(fns)
            t0 = time.perf_counter()
            fns[i]()
            ts[i].append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in ts]


def load(d, name, count):
    a = np.fromfile(os.path.join(d, name + ".f64"), dtype=np.float64)
    if a.size != count:
        raise ValueError("%s.f64: %d values, wanted %d" % (name, a.size, count))
    return a


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--lib", default="build/lib/libfedfast.so")
    ap.add_argument("--reps", type=int, default=0)
    a = ap.parse_args()
    try:
        lib = ctypes.CDLL(os.path.abspath(a.lib))
        lines = open(os.path.join(a.dir, "manifest.txt")).read().splitlines()
    except OSError as e:
        print("bench_numpy: error: %s" % e, file=sys.stderr)
        return 2
    reps = a.reps
    for line in lines:
        if line.startswith("reps ") and not reps:
            reps = int(line.split()[1])
    reps = max(reps, 1)
    lib.ff_ens.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double),
                           ctypes.c_size_t, ctypes.c_size_t, ctypes.c_double, ctypes.c_double]
    lib.ff_logreg_fi.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double),
                                 ctypes.POINTER(Logreg), ctypes.c_size_t,
                                 ctypes.POINTER(ctypes.c_double)]
    print("\nfast (%s) against numpy %s in one process, OPENBLAS_NUM_THREADS=%s; medians of %d\n"
          "interleaved repetitions; agree: the largest difference as a fraction of the stated\n"
          "tolerance (ci/bench_numpy.py; <= 1 agrees)"
          % (os.path.basename(a.lib), np.__version__,
             os.environ.get("OPENBLAS_NUM_THREADS", "(unset)"), reps))
    print("  %-22s %-26s%10s %10s %10s %11s" % ("function", "size", "fast (s)", "numpy (s)",
                                               "fast/numpy", "agree"))
    bad = 0
    floors = []
    for line in lines:
        if not line or line.startswith("#") or line.startswith("reps "):
            continue
        f = line.split()
        if f[0] == "ens":
            name, m, n, lam, eta = f[1], int(f[2]), int(f[3]), float.fromhex(f[4]), float.fromhex(f[5])
            W = load(a.dir, name, m * n).reshape(m, n)
            w = np.empty(n)

            def fast():
                st = lib.ff_ens(ptr(w), ptr(W), m, n, lam, eta)
                if st != 0:
                    raise RuntimeError("ff_ens: status %d" % st)

            def slow():
                return ens_np(W, lam, eta)

            fast()
            err = float(np.max(np.abs(w - slow())))
            agree = err / (TOL * (float(np.max(np.abs(W))) + lam / eta))
            tf, ts = timed(fast, slow, reps)
            what, size = "ff_ens", "m = %d, n = %d" % (m, n)
            del W
        elif f[0] == "logreg":
            name, d, n, beta = f[1], int(f[2]), int(f[3]), float.fromhex(f[4])
            X = load(a.dir, name + "_X", d * n).reshape(d, n)
            b = load(a.dir, name + "_b", d)
            wv = load(a.dir, name + "_w", n)
            dd = (ctypes.c_size_t * 1)(d)
            P = Logreg(1, n, dd, ptr(X), ptr(b), beta)
            fi = np.empty(1)
            gi = np.empty(n)

            def fast():
                st = lib.ff_logreg_fi(ptr(fi), ptr(gi), ctypes.byref(P), 0, ptr(wv))
                if st != 0:
                    raise RuntimeError("ff_logreg_fi: status %d" % st)

            def slow():
                return logreg_np(X, b, wv, beta)

            def read():
                return X @ wv

            fast()
            fn, gn = slow()
            agree = max(abs(fi[0] - fn) / (TOL * (abs(fn) + 1)),
                        float(np.max(np.abs(gi - gn))) / (TOL * (float(np.max(np.abs(gn))) + 1)))
            tf, ts, tr = timed3([fast, slow, read], reps)
            floors.append("  %-22s %-26s%10.4g %10.4g %10.3f %10.3f"
                          % ("X w alone", "d = %d, n = %d" % (d, n), tr, ts, tr / ts, tf / tr))
            what, size = "ff_logreg_fi", "d = %d, n = %d" % (d, n)
            del X
        else:
            print("bench_numpy: error: unknown manifest line: %s" % line, file=sys.stderr)
            return 2
        if not agree <= 1:
            print("  DISAGREE: %s %s: %.3g of the tolerance" % (what, size, agree))
            bad += 1
        print("  %-22s %-26s%10.4g %10.4g %10.3f %11.3g" % (what, size, tf, ts, tf / ts, agree))
        sys.stdout.flush()
    print("  target: fast/numpy <= 0.5 (fast at least 2x faster)")
    if floors:
        print("\nthe floor of any ff_logreg_fi: it reads X at least once, as the one dgemv\n"
              "X w does alone; numpy's version reads X twice (X w and X^T r)")
        print("  %-22s %-26s%10s %10s %10s %10s" % ("what", "size", "X w (s)", "numpy (s)",
                                                    "Xw/numpy", "fast/Xw"))
        for f in floors:
            print(f)
    print("\nbench_numpy: %d disagreement(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
