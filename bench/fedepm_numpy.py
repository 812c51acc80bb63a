#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""fast (libfedfast) against numpy, in one process: ff_ens and ff_logreg_fi.

Usage: fedepm_numpy.py [--lib PATH] [--reps N] DIR

DIR holds the inputs `fedref bench --write-inputs DIR` wrote (manifest.txt
and NAME.f64 files of native binary64).  For each input the script first
checks that fast (called through ctypes on the same arrays) and every numpy
formulation agree, then times them all as medians of N repetitions
(default: the manifest's reps, those of fedref bench), interleaved in a
rotating order, and prints fast/numpy against the fastest numpy
formulation (all are printed, so a reader sees the others are not
faster): below 0.5 is "fast at least 2x faster".  numpy's BLAS and
libfedfast's are the same library in this process (on Debian both load
libblas.so.3); set OPENBLAS_NUM_THREADS=1 for one thread (make bench
does).  Run it with Debian's /usr/bin/python3 and python3-numpy.  Exit 0 if
everything agreed, 1 otherwise, 2 on a usage or input error.

The problem of ff_logreg_fi is sealed once (fr_logreg_seal, fedref_common.h
rule 6), as a user calling it repeatedly on the same data would: each call
then checks only i, w and the outputs, and reads X_i once.

The numpy versions are the vectorised forms a numpy user would write, two
or three per function:
  ens, sort0:  sort along the clients (axis 0 of W, m x n), S = column
          sums, X(k) = (S + C (m - 2k))/m for all k at once, k* = the first
          k with X(k) <= v_(k), the clamp;
  ens, sortT:  the same on W^T (n x m, each column's values contiguous,
          sorted in place along axis 1);
  logreg, where:  u = X @ w, v = (1 - 2b) u, one exp(-|v|) for softplus
          and sigmoid, f = mean(max(v, 0) + log1p(e)) + beta/2 |w|^2,
          g = X^T r/d + beta w;
  logreg, inplace:  the same with np.dot and in-place ufuncs (out=), no
          np.where on the labels (v = u (1 - 2b));
  logreg, logaddexp:  L = logaddexp(0, u), f = mean(L - b u) + ...,
          r = exp(u - L) - b (sigma(u) without overflow), g = r @ X / d + ...
The floor of ff_logreg_fi (what any method computing f_i and g_i from X_i
costs at least, the way the brief of the block defines it): the two dgemv
u = X_i w and g = X_i^T r (cblas_dgemv through ctypes, preallocated
outputs) plus the elementwise pass between them (in-place numpy:
e = exp(-|u|), log1p(e), one division, one sum).  fast/floor < 1 is
possible: fast reads X_i from memory once, the floor's two dgemv twice.
ff_ens has no floor here (fedref bench's section core gives none).
Agreement tolerances (stated, loose enough for numpy's own rounding, far
below any algorithmic error):
  ens:    max_j |w_fast - w_numpy| <= 2^-40 (max |W| + lambda/eta);
  logreg: |f_fast - f_numpy| <= 2^-40 (|f| + 1) and
          max_j |g_fast - g_numpy| <= 2^-40 (max_j |g_j| + 1).
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ctypes_start, load, timed_interleaved  # noqa: E402 (beside this script)

TOL = 2.0 ** -40


class Logreg(ctypes.Structure):
    _fields_ = [("m", ctypes.c_size_t), ("n", ctypes.c_size_t),
                ("d", ctypes.POINTER(ctypes.c_size_t)),
                ("X", ctypes.POINTER(ctypes.c_double)),
                ("b", ctypes.POINTER(ctypes.c_double)),
                ("beta", ctypes.c_double),
                ("seal", ctypes.c_uint64)]   # rule 6 of fedref_common.h; zero, then fr_logreg_seal


def ptr(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def ens_np(W, lam, eta):
    m, n = W.shape
    V = np.sort(W, axis=0)
    return ens_tail(V, lam, eta)


def ens_np_t(W, lam, eta):
    m, n = W.shape
    V = W.T.copy()
    V.sort(axis=1)                  # each column of W, contiguous
    return ens_tail_t(V, lam, eta)


def ens_tail(V, lam, eta):
    m, n = V.shape
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


def ens_tail_t(V, lam, eta):
    n, m = V.shape
    S = V.sum(axis=1)
    C = lam / eta
    k = np.arange(m + 1, dtype=np.float64)[None, :]
    X = (S[:, None] + C * (m - 2 * k)) / m
    P = np.empty((n, m + 1), dtype=bool)
    np.less_equal(X[:, :m], V, out=P[:, :m])
    P[:, m] = True
    ks = P.argmax(axis=1)
    rows = np.arange(n)
    x = X[rows, ks]
    lo = V[rows, np.maximum(ks - 1, 0)]
    hi = V[rows, np.minimum(ks, m - 1)]
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


def logreg_np_inplace(X, b, w, beta):
    d = X.shape[0]
    u = np.dot(X, w)
    sg = 1 - 2 * b                  # +-1
    v = u
    v *= sg                         # (1 - 2b) u, in place
    e = np.abs(v)
    np.negative(e, out=e)
    np.exp(e, out=e)                # exp(-|v|)
    t = np.log1p(e)
    t += np.maximum(v, 0)
    f = t.mean() + 0.5 * beta * np.dot(w, w)
    s = np.where(v >= 0, 1.0, e)
    e += 1
    s /= e                          # sigma(v)
    s *= sg                         # r = sigma(u) - b
    g = np.dot(s, X)
    g /= d
    g += beta * w
    return f, g


def logreg_np_logaddexp(X, b, w, beta):
    d = X.shape[0]
    u = X @ w
    L = np.logaddexp(0, u)          # ln(1 + e^u)
    f = np.mean(L - b * u) + 0.5 * beta * (w @ w)
    r = np.exp(u - L)               # sigma(u), u - L <= 0
    r -= b
    return f, (r @ X) / d + beta * w


ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112


def logreg_floor(lib, X, w, u, g):
    """The floor: dgemv u = X w, the elementwise pass, dgemv g = X^T r."""
    d, n = X.shape
    lib.cblas_dgemv(ROW_MAJOR, NO_TRANS, d, n, 1.0, ptr(X), n, ptr(w), 1, 0.0, ptr(u), 1)
    np.abs(u, out=u)
    np.negative(u, out=u)
    np.exp(u, out=u)
    s = np.log1p(u).sum()
    u += 1
    np.divide(1.0, u, out=u)
    lib.cblas_dgemv(ROW_MAJOR, TRANS, d, n, 1.0, ptr(X), n, ptr(u), 1, 0.0, ptr(g), 1)
    return s


def main():
    start = ctypes_start("fedepm_numpy", __doc__)
    if start is None:
        return 2
    a, lib, lines = start
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
    lib.fr_logreg_seal.argtypes = [ctypes.POINTER(Logreg)]
    lib.fr_logreg_sealed.argtypes = [ctypes.POINTER(Logreg)]
    dp = ctypes.POINTER(ctypes.c_double)
    lib.cblas_dgemv.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                ctypes.c_double, dp, ctypes.c_int, dp, ctypes.c_int,
                                ctypes.c_double, dp, ctypes.c_int]
    lib.cblas_dgemv.restype = None
    print("\nfast (%s) against numpy %s in one process, OPENBLAS_NUM_THREADS=%s; medians of %d\n"
          "interleaved repetitions; numpy: the fastest formulation (all below); agree: the\n"
          "largest difference as a fraction of the stated tolerance (bench/fedepm_numpy.py; <= 1\n"
          "agrees); floor: see bench/fedepm_numpy.py (ff_logreg_fi: two dgemv + the elementwise pass)"
          % (os.path.basename(a.lib), np.__version__,
             os.environ.get("OPENBLAS_NUM_THREADS", "(unset)"), reps))
    print("  %-14s %-22s%10s %10s %10s %10s %10s %9s" % ("function", "size", "fast (s)", "numpy (s)",
                                                      "fast/numpy", "floor (s)", "fast/floor",
                                                      "agree"))
    bad = 0
    forms = []
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

            named = [("sort0", lambda: ens_np(W, lam, eta)),
                     ("sortT", lambda: ens_np_t(W, lam, eta))]
            fast()
            scale = TOL * (float(np.max(np.abs(W))) + lam / eta)
            agree = max(float(np.max(np.abs(w - fn()))) / scale for _, fn in named)
            floor = None
            what, size = "ff_ens", "m = %d, n = %d" % (m, n)
        elif f[0] == "logreg":
            name, d, n, beta = f[1], int(f[2]), int(f[3]), float.fromhex(f[4])
            X = load(a.dir, name + "_X", d * n).reshape(d, n)
            b = load(a.dir, name + "_b", d)
            wv = load(a.dir, name + "_w", n)
            dd = (ctypes.c_size_t * 1)(d)
            P = Logreg(1, n, dd, ptr(X), ptr(b), beta, 0)
            st = lib.fr_logreg_seal(ctypes.byref(P))
            if st != 0 or lib.fr_logreg_sealed(ctypes.byref(P)) != 1:
                print("fedepm_numpy: error: fr_logreg_seal: status %d" % st, file=sys.stderr)
                return 2
            fi = np.empty(1)
            gi = np.empty(n)
            fu, fg = np.empty(d), np.empty(n)

            def fast():
                st = lib.ff_logreg_fi(ptr(fi), ptr(gi), ctypes.byref(P), 0, ptr(wv))
                if st != 0:
                    raise RuntimeError("ff_logreg_fi: status %d" % st)

            named = [("where", lambda: logreg_np(X, b, wv, beta)),
                     ("inplace", lambda: logreg_np_inplace(X, b, wv, beta)),
                     ("logaddexp", lambda: logreg_np_logaddexp(X, b, wv, beta))]

            def floor():
                return logreg_floor(lib, X, wv, fu, fg)

            fast()
            agree = 0.0
            for _, fn in named:
                fn_, gn = fn()
                agree = max(agree, abs(fi[0] - fn_) / (TOL * (abs(fn_) + 1)),
                            float(np.max(np.abs(gi - gn))) / (TOL * (float(np.max(np.abs(gn))) + 1)))
            what, size = "ff_logreg_fi", "d = %d, n = %d" % (d, n)
        else:
            print("fedepm_numpy: error: unknown manifest line: %s" % line, file=sys.stderr)
            return 2
        fns = [fast] + [fn for _, fn in named] + ([floor] if floor else [])
        ts = timed_interleaved(fns, reps)
        tf, tn = ts[0], ts[1:1 + len(named)]
        best = min(range(len(named)), key=lambda k: tn[k])
        ts_best = tn[best]
        for k, (label, _) in enumerate(named):
            forms.append("  %-14s %-22s %-10s%10.4g %10.3f%s"
                         % (what, size, label, tn[k], tn[k] / ts_best,
                            "   (the baseline)" if k == best else ""))
        if not agree <= 1:
            print("  DISAGREE: %s %s: %.3g of the tolerance" % (what, size, agree))
            bad += 1
        if floor:
            tfl = ts[-1]
            print("  %-14s %-22s%10.4g %10.4g %10.3f %10.4g %10.3f %9.3g"
                  % (what, size, tf, ts_best, tf / ts_best, tfl, tf / tfl, agree))
        else:
            print("  %-14s %-22s%10.4g %10.4g %10.3f %10s %10s %9.3g"
                  % (what, size, tf, ts_best, tf / ts_best, "-", "-", agree))
        sys.stdout.flush()
        if f[0] == "ens":
            del W
        else:
            del X
    print("  target: fast/numpy <= 0.5 (fast at least 2x faster), fast/floor <= 1.25")
    if forms:
        print("\nthe numpy formulations (time/best: 1 for the baseline above)")
        print("  %-14s %-22s %-10s%10s %10s" % ("function", "size", "form", "numpy (s)", "time/best"))
        for r in forms:
            print(r)
    print("\nfedepm_numpy: %d disagreement(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
