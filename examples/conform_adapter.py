#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An external implementation of a few vector functions, for `fedref conform`
(protocol fedref-conform/1, docs/CONFORM.md).  Python standard library only.

Each function is evaluated exactly in rational arithmetic (fractions.Fraction:
every input is a binary64 written exactly) and rounded once to binary64, to
nearest, or upward for an upper bound (laplace_scale, dp_sens_step): the
correctly rounded value meets every tolerance of the files.

    fedref conform -- python3 examples/conform_adapter.py

answers soft, prox_l1, median, laplace_scale, dp_sens_step, ssca_ema and
ssca_update, and says "unsupported" for every other function.

--wrong KIND makes it deliberately wrong, to show what conform reports
(ci/conform-test.sh checks that each fails exactly where it is wrong):
  zero-sign   soft returns -0 instead of +0 for a negative t with |t| <= a
  ulp         soft moves every nonzero result one ulp away from zero
  domain      soft accepts a threshold a < 0 (uses |a|): a missed FR_EDOM
  crash       median kills itself (SIGSEGV) when W has an even number of rows
  hang        laplace_scale never answers when eps = 1/2
  garbage     ssca_update writes a line that is not JSON when gamma = 1
"""
import json
import math
import os
import signal
import sys
import time
from fractions import Fraction

PROTOCOL = "fedref-conform/1"
WRONG = None


class DomainError(Exception):
    """A domain error; its argument is the error class (FR_EDOM, ...)."""


def num(s):
    """A decimal string of the files: the exact rational, or a NaN/infinity
    as a float (the caller rejects those with FR_ENONFINITE)."""
    low = s.lower()
    if low in ("nan", "inf", "+inf", "-inf"):
        return float(low)
    return Fraction(s)


def finite(*values):
    for v in values:
        if isinstance(v, float):        # num() returns a float only for nan / inf
            raise DomainError("FR_ENONFINITE")


def vec(xs):
    return [num(s) for s in xs]


def nearest(q):
    """q rounded to the nearest binary64 (ties to even); an exact 0 is +0."""
    return float(q)                     # int / int division is correctly rounded


def upward(q):
    """The least binary64 >= q."""
    f = float(q)
    if Fraction(f) < q:
        f = math.nextafter(f, math.inf)
    return f


def out(f):
    """A binary64 as a decimal string (repr is the shortest that reads back)."""
    return repr(f)


def nonempty(*lists):
    for l in lists:
        if len(l) == 0:
            raise DomainError("FR_ESIZE")


def soft_exact(t, a):
    """soft(t, a) = sign(t) max(|t| - a, 0), 002 eq. (2)-(3)."""
    if abs(t) <= a:
        return Fraction(0)
    return t - a if t > 0 else t + a


def f_soft(p, x):
    a, t = num(p["a"]), vec(x["t"])
    nonempty(t)
    finite(a, *t)
    if WRONG == "domain":
        a = abs(a)
    if a < 0:
        raise DomainError("FR_EDOM")
    res = []
    for tj in t:
        r = nearest(soft_exact(tj, a))
        if WRONG == "zero-sign" and tj < 0 and abs(tj) <= a:
            r = -0.0
        if WRONG == "ulp" and r != 0:
            r = math.nextafter(r, math.copysign(math.inf, r))
        res.append(out(r))
    return {"soft": res}


def f_prox_l1(p, x):
    """soft(u, gamma/rho), 003 eq. (13)."""
    g, rho, u = num(p["gamma"]), num(p["rho"]), vec(x["u"])
    nonempty(u)
    finite(g, rho, *u)
    if g < 0 or rho <= 0:
        raise DomainError("FR_EDOM")
    return {"x": [out(nearest(soft_exact(uj, g / rho))) for uj in u]}


def f_median(p, x):
    """Coordinatewise median, 002 eq. (5); even m: the midpoint."""
    W = [vec(row) for row in x["W"]]
    m = len(W)
    if WRONG == "crash" and m > 0 and m % 2 == 0:
        os.kill(os.getpid(), signal.SIGSEGV)
    nonempty(W)
    nonempty(*W)
    if any(len(row) != len(W[0]) for row in W):
        raise DomainError("FR_ESIZE")
    for row in W:
        finite(*row)
    med = []
    for j in range(len(W[0])):
        col = sorted(row[j] for row in W)
        mid = col[m // 2] if m % 2 else (col[m // 2 - 1] + col[m // 2]) / 2
        med.append(out(nearest(mid)))
    return {"med": med}


def f_laplace_scale(p, x):
    """Delta / (eps mu), 002 eq. (27); an upper bound: rounded up."""
    eps, delta, mu = num(p["eps"]), num(p["Delta"]), num(p["mu"])
    if WRONG == "hang" and eps == Fraction(1, 2):
        while True:
            time.sleep(3600)
    finite(eps, delta, mu)
    if eps <= 0 or delta <= 0 or mu <= 0:
        raise DomainError("FR_EDOM")
    return {"scale": out(upward(delta / (eps * mu)))}


def f_dp_sens_step(p, x):
    """(mu delta_j + Delta) / (eta + mu) (docs/FEDEPM.md 9); rounded up."""
    eta, mu, D, d = num(p["eta"]), num(p["mu"]), num(p["Delta"]), vec(x["delta"])
    nonempty(d)
    finite(eta, mu, D, *d)
    if eta <= 0 or mu <= 0 or D < 0 or any(dj < 0 for dj in d):
        raise DomainError("FR_EDOM")
    return {"delta_next": [out(upward((mu * dj + D) / (eta + mu))) for dj in d]}


def f_ssca_ema(p, x):
    """(1 - rho) x + rho y, 000 (35); y = [] means 0."""
    rho, xs, ys = num(p["rho"]), vec(x["x"]), vec(x["y"])
    nonempty(xs)
    if ys and len(ys) != len(xs):
        raise DomainError("FR_ESIZE")
    finite(rho, *xs, *ys)
    if not 0 < rho <= 1:
        raise DomainError("FR_EDOM")
    ys = ys or [Fraction(0)] * len(xs)
    return {"x_next": [out(nearest((1 - rho) * a + rho * b)) for a, b in zip(xs, ys)]}


def f_ssca_update(p, x):
    """(1 - gamma) w + gamma wbar, 000 (5)."""
    g, w, wb = num(p["gamma"]), vec(x["w"]), vec(x["wbar"])
    if WRONG == "garbage" and g == 1:
        return "garbage"
    nonempty(w)
    if len(wb) != len(w):
        raise DomainError("FR_ESIZE")
    finite(g, *w, *wb)
    if not 0 < g <= 1:
        raise DomainError("FR_EDOM")
    return {"w_next": [out(nearest((1 - g) * a + g * b)) for a, b in zip(w, wb)]}


FUNCTIONS = {
    "soft": f_soft, "prox_l1": f_prox_l1, "median": f_median,
    "laplace_scale": f_laplace_scale, "dp_sens_step": f_dp_sens_step,
    "ssca_ema": f_ssca_ema, "ssca_update": f_ssca_update,
}


def answer(req):
    reply = {"id": req["id"]}
    fn = FUNCTIONS.get(req["function"])
    if req.get("protocol") != PROTOCOL or fn is None:
        reply["unsupported"] = True
        return json.dumps(reply)
    try:
        output = fn(req["params"], req["input"])
    except DomainError as e:
        reply["error"] = e.args[0]
        return json.dumps(reply)
    if output == "garbage":
        return "this is not a reply"
    reply["output"] = output
    return json.dumps(reply)


def main():
    global WRONG
    args = sys.argv[1:]
    if args[:1] == ["--wrong"] and len(args) == 2:
        WRONG = args[1]
    elif args:
        sys.exit("usage: conform_adapter.py [--wrong zero-sign|ulp|domain|crash|hang|garbage]")
    for line in sys.stdin:              # one request per line, one reply per line
        sys.stdout.write(answer(json.loads(line)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
