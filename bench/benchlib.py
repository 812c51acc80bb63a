# SPDX-License-Identifier: Apache-2.0
"""What the numpy comparison scripts of `make bench` share (bench/*_numpy.py).

The scripts import this module from their own folder: keep it beside them.
  load(d, name, count) the native binary64 array d/name.f64 that `fedref bench
                       --write-inputs` wrote, checked to hold exactly count values
  rel_to_max(a, b)     max|a - b| / max|b| (inf for a non-finite difference)
  rel_to_max1(a, b)    max|a - b| / max(1, max|b|)
  timeit(fn, reps, clock=time.perf_counter, inner_min=0.02)
                       median over reps of fn's time, each repetition
                       looping fn often enough to last inner_min seconds
  timed_interleaved(fns, reps)
                       medians of reps timings of each of fns, interleaved
                       in a rotating order (so a drift of the machine's
                       speed falls on every function alike)
  blas_libs()          the BLAS/LAPACK libraries mapped into this process
  ctypes_start(prog, doc)
                       the command line of a script that calls libfedfast
                       through ctypes (DIR, --lib, --reps): (args, the
                       library, DIR/manifest.txt's lines), or None after an
                       error message (the script then exits 2)
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np


def load(d, name, count):
    a = np.fromfile(os.path.join(d, name + ".f64"), dtype=np.float64)
    if a.size != count:
        raise ValueError("%s.f64: %d values, wanted %d" % (name, a.size, count))
    return a


def _maxdiff(a, b):
    a, b = np.atleast_1d(a), np.atleast_1d(b)
    return float(np.max(np.abs(a - b))), float(np.max(np.abs(b)))


def rel_to_max(a, b):
    num, den = _maxdiff(a, b)
    if not np.isfinite(num):
        return float("inf")
    return 0.0 if num == 0 else (num / den if den > 0 else float("inf"))


def rel_to_max1(a, b):
    num, den = _maxdiff(a, b)
    if not np.isfinite(num):
        return float("inf")
    return num / max(1.0, den)


def timeit(fn, reps, clock=time.perf_counter, inner_min=0.02):
    t0 = clock()
    fn()
    one = max(clock() - t0, 1e-7)
    inner = max(1, int(inner_min / one))
    ts = []
    for _ in range(reps):
        t0 = clock()
        for _ in range(inner):
            fn()
        ts.append((clock() - t0) / inner)
    return float(np.median(ts))


def timed_interleaved(fns, reps):
    ts = [[] for _ in fns]
    for r in range(reps):
        for k in range(len(fns)):
            i = (r + k) % len(fns)
            t0 = time.perf_counter()
            fns[i]()
            ts[i].append(time.perf_counter() - t0)
    return [float(np.median(t)) for t in ts]


def blas_libs():
    libs = set()
    try:
        for line in open("/proc/self/maps"):
            p = line.split()[-1]
            base = os.path.basename(p)
            if "blas" in base or "lapack" in base or "mkl" in base:
                libs.add(os.path.realpath(p))
    except OSError:
        pass
    return sorted(libs) or ["(unknown)"]


def ctypes_start(prog, doc):
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--lib", default="build/lib/libfedfast.so")
    ap.add_argument("--reps", type=int, default=0)
    a = ap.parse_args()
    try:
        lib = ctypes.CDLL(os.path.abspath(a.lib))
        lines = open(os.path.join(a.dir, "manifest.txt")).read().splitlines()
    except OSError as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        return None
    return a, lib, lines
