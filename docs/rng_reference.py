#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent reference for docs/RNG.md, written from the text of RNG.md
alone (no code shared with spec/, ref/ or fast/).  Standard library only.

It checks Philox4x64-10 against the published Random123 known answers,
then prints the known-answer tables of docs/RNG.md, which
tests/core/test_rng.c checks number by number.  The real-valued draws are
computed with `decimal` at 60 significant digits (ln from the module, pi by
Machin's formula, cos/sin by Taylor series) and rounded to binary64 by
float(), which is correctly rounded from the decimal string.

    python3 docs/rng_reference.py          # prints the tables

With --vectors DIR it also reproduces the checkpoint files of paper 002
(DIR/fedepm.json, sfedavg.json, sfedprox.json, fedepm_dp.json) from the
rules of docs/FEDEPM.md section 6 and docs/VECTORS.md ("Checkpoint files")
alone: for every case it reads the data description and the run seed from
the case comment, regenerates the inputs d, X, b and Delta and compares
them exactly with the file, regenerates the selections `sel` from the run
seed, and checks what follows from the docs without running the
algorithms: cr = rounds - 1, the shapes of the records, the scales nu0 of
the initial uploads (docs/FEDEPM.md section 2), the stopping decision
recomputed from the recorded f and gnorm2 (section 5), and the noise of
each client's last upload, Z_i - W_i, drawn again from its noise stream
after the words of its earlier uploads (none for a scale 0; docs/RNG.md
3.5 and 3.8).  A file that differs is reported and the exit status is 1.

    python3 docs/rng_reference.py --vectors vectors   # make check runs this

The same option reproduces the checkpoint files of the SSCA runs of paper
000 (DIR/ssca_alg1.json .. ssca_sgdm_f.json) from docs/RNG.md 3.9 and
docs/SSCA.md sections 5, 6 and 10 alone: the synthetic inputs of
fr_ssca_synth and fr_ssca_init_w from the data description in each case
comment ("Data: ssca synthetic seed S, N = .., P = .., L = .., J = ..,
parts ..; run seed R"), every mini-batch index from the run seed, the
reals per round, the record shapes, and from the recorded values alone
norm2 = ||w^t||^2, cons = cost - U and the Lemma 1 records (nu = 0 and
s = 0 in branch 2, 0 < nu < c and s = 0 in branch 3, nu = c in 1 and 4).

The same option reproduces the checkpoint files of Algorithm 1 of paper 003
(DIR/fedpdm_run_full.json, _partial, _noise, _rule11) from docs/RNG.md 3.10
and docs/FEDPDM.md sections 4.5 and 5 alone: the synthetic inputs of
fr_pdm_synth_sizes and fr_pdm_synth_data, x0 (zero, or seeded from stream
(data seed, 2)), eta (fr_pdm_eta_paper) and sigma from the data description
in each case comment ("Data: pdm synthetic seed S, N = .., m = .., n = ..,
d in [a, b], beta = .., gamma = .., x0 zero|seeded, eta0 = .., sigma ..;
run seed R"); the participation of every round (stream (R, 1)), every
mini-batch index (streams (R, 2 + i)) given the recorded Q_i^t, Q and
capped against rule (11) and stop2, the scales sigma_{i,t} (NONE, GIVEN,
and PAPER: (18) of (19) recomputed), x_0^0, the server step of the last
round x_0^T = soft(u, gamma/rho) with u from the final x_i, lambda_i and
the noise of each client's last upload drawn again from its noise stream
(R, 2^32 + i) after the pairs of its earlier noisy uploads, Plam and Px0 at
the last state, (21) at state 0, and P = Px + Plam + Px0 at every state.

The same option reproduces the checkpoint files of paper 004
(DIR/proxal_admm.json, proxal_alg1.json, proxal_alg3.json) from docs/RNG.md
3.11 and docs/PROXAL.md sections 2, 4 and 5 alone: every input bit for bit
from the case comment ("Data: qp fr_proxal_gen_qp(seed S, n = .., d = ..,
mt = ..)" or "np fr_proxal_gen_lg(NP, seed S, n = .., d = .., s = ..),
r_i = ..", then the state wk, mu, w0, rho or the start w0, mu0, rho with
0-based indices, then an edit), in the layout of docs/VECTORS.md (A_1..A_n
stacked, C_0..C_n stacked; cnt[0] = 0 for NP); Algorithm 2's iters <= tmax
and eps = q^(iters-1); Algorithms 1 and 3's shapes, w^0 = w0, tau_k =
sbar/(k+1)^2, dw, inner_ok = [sub <= tau_k], (8) holding at the last
iteration only, thm31_ok, and for QP (every row an equality) kkt2 = feas = max|c|,
dmu = beta max|c|, obj = f(w^{k+1}) and mu^K = mu0 + beta sum_k c(w^{k+1}),
all from the recorded w^k.  It also regenerates the seeded inputs of
kkt_residual.json and proxal_lk.json: the group fr_proxal_gen_qp(n = 2,
d = 3, mt = 2, seed 4) and the "random dyadic" cases, drawn from stream
(2024, 0) of the file's generator (docs/VECTORS.md "Regenerating") as
vectors/vgen.c's vg_dyadic in the order of vectors/proxal/kkt_residual.c
and proxal_lk.c (that order is not in the docs).
"""
import json
import math
import os
import re
import sys
from decimal import Decimal, getcontext
from fractions import Fraction

M64 = (1 << 64) - 1
PHILOX_M = (0xD2E7470EE14C6C93, 0xCA5A826395121157)
PHILOX_W = (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B)


def philox4x64_10(ctr, key):
    x = list(ctr)
    k = list(key)
    for rnd in range(10):
        if rnd:
            k = [(k[0] + PHILOX_W[0]) & M64, (k[1] + PHILOX_W[1]) & M64]
        p0 = PHILOX_M[0] * x[0]
        p1 = PHILOX_M[1] * x[2]
        x = [(p1 >> 64) ^ x[1] ^ k[0], p1 & M64,
             (p0 >> 64) ^ x[3] ^ k[1], p0 & M64]
    return x


# Random123 kat_vectors, "philox4x64 10" lines: (ctr, key, expected).
KAT = [
    ((0, 0, 0, 0), (0, 0),
     (0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b)),
    ((M64,) * 4, (M64, M64),
     (0x87b092c3013fe90b, 0x438c3c67be8d0224, 0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0)),
    ((0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89),
     (0x452821e638d01377, 0xbe5466cf34e90c6c),
     (0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6)),
    ((1, 0, 0, 0), (1, 0),
     (0x4db6a27b756282df, 0xd944fa03babe0e2f, 0x27f872e577060d32, 0x07f697696a0482a2)),
    ((0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89),
     (0, M64),
     (0x7abbd897f6d97f60, 0xa35c61aae7c5a341, 0x939a3dd4f55b2e11, 0xaca6e644802e2b83)),
]


class Stream:
    def __init__(self, seed, stream):
        self.key = (seed, stream)
        self.block = 0
        self.buf = []
        self.used = 0          # words consumed

    def next64(self):
        if not self.buf:
            self.buf = philox4x64_10((self.block, 0, 0, 0), self.key)
            self.block += 1
        self.used += 1
        return self.buf.pop(0)

    def below(self, n):
        limit = (1 << 64) - (1 << 64) % n     # accept x < limit
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def sample(self, n, k):
        a = list(range(n))
        out = []
        for i in range(k):
            j = i + self.below(n - i)
            a[i], a[j] = a[j], a[i]
            out.append(a[i])
        return out

    def u53(self):
        return self.next64() >> 11

    def u52_open(self):
        return self.next64() >> 12


getcontext().prec = 60
D = Decimal


def atan_inv(n):                      # atan(1/n) by its Taylor series
    x = D(1) / n
    x2 = x * x
    s, t, k = D(0), x, 1
    while t != 0:
        s += t / k
        t = -t * x2
        k += 2
        if abs(t) < D(10) ** -80:
            break
    return s


PI = 16 * atan_inv(5) - 4 * atan_inv(239)


def cos_sin(a):                       # Taylor series, |a| < 7
    c, s = D(0), D(0)
    term, n = D(1), 0                 # term = a^n / n!
    while abs(term) > D(10) ** -75 or n < 20:
        if n % 4 == 0:
            c += term
        elif n % 4 == 1:
            s += term
        elif n % 4 == 2:
            c -= term
        else:
            s -= term
        n += 1
        term = term * a / n
    return c, s


def laplace(g, b):
    u = D(2 * g.u52_open() + 1) / D(2) ** 53
    if u < D(1) / 2:
        return b * (2 * u).ln()
    return -b * (2 * (1 - u)).ln()


def gaussian2(g):
    u1 = D(2 * g.u52_open() + 1) / D(2) ** 53
    u2 = D(g.u53()) / D(2) ** 53
    r = (-2 * u1.ln()).sqrt()
    c, s = cos_sin(2 * PI * u2)
    return r * c, r * s


def synth(seed, m, n, dmin, dmax):
    """fr_synth_sizes + fr_synth_data (include/fedspec/fedepm.h): sizes d, the
    integer features k (x = k 2^-(10+s)), the shift s and the labels b."""
    g = Stream(seed, 0)
    d = [dmin + g.below(dmax - dmin + 1) for _ in range(m)]
    total = sum(d)
    s = 0
    while 4 ** s < total:
        s += 1
    g = Stream(seed, 1)
    wstar = [g.below(9) - 4 for _ in range(n)]
    ks, b = [], []
    for _ in range(total):
        row = [g.below(2049) - 1024 for _ in range(n)]
        y = 1 if sum(k * w for k, w in zip(row, wstar)) > 0 else 0
        if g.below(10) == 0:
            y = 1 - y
        ks.append(row)
        b.append(y)
    return d, wstar, ks, s, b


def g17(x):
    return "%.17g" % float(x)


# ---- the checkpoint files of 002 (docs/FEDEPM.md section 6, docs/VECTORS.md)

def problem(seed, m, n, dmin, dmax, mirrored=(), b0=None):
    """The inputs of a checkpoint case, as docs/FEDEPM.md section 6 defines
    them: the synthetic problem (seed, m, n, dmin, dmax); then each mirrored
    client's rows again, in the same order, with the labels 1 - b (its d_i
    doubles); then, for the invalid-data cases, b_0 replaced.  X holds the
    sum d_i rows client by client.  Returns d, X, b, Delta (X, b, Delta as
    exact Fractions; Delta_i = RN(2/d_i), the binary64 quotient)."""
    d0, _, ks, sh, lab = synth(seed, m, n, dmin, dmax)
    scale = Fraction(1, 2 ** (10 + sh))
    d, X, b, t0 = [], [], [], 0
    for i in range(m):
        rows = [[k * scale for k in ks[t]] for t in range(t0, t0 + d0[i])]
        labels = lab[t0:t0 + d0[i]]
        t0 += d0[i]
        X += rows
        b += [Fraction(y) for y in labels]
        if i in mirrored:
            X += [list(r) for r in rows]
            b += [Fraction(1 - y) for y in labels]
        d.append(d0[i] * (2 if i in mirrored else 1))
    if b0 is not None:
        b[0] = b0
    Delta = [Fraction(2.0 / di) for di in d]        # Python float division is RN
    return d, X, b, Delta


DATA_RE = re.compile(
    r"Data: synthetic seed (\d+), m = (\d+), n = (\d+), d_i in \[(\d+), (\d+)\]"
    r"(?:, (every client|clients? [\d, and]+) mirrored)?"
    r"(?:, then b_0 = (\S+))?; run seed (\d+)")


def parse_data(comment):
    """The data description of a case comment (docs/VECTORS.md)."""
    mt = DATA_RE.search(comment)
    if mt is None:
        raise ValueError("no data description in the comment: %r" % comment)
    seed, m, n, dmin, dmax = (int(mt.group(k)) for k in range(1, 6))
    mir = mt.group(6)
    if mir is None:
        mirrored = ()
    elif mir == "every client":
        mirrored = tuple(range(m))
    else:
        mirrored = tuple(int(v) for v in re.findall(r"\d+", mir))
    b0 = None
    if mt.group(7) is not None:
        b0 = "nan" if mt.group(7) == "nan" else Fraction(Decimal(mt.group(7)))
    return dict(seed=seed, m=m, n=n, dmin=dmin, dmax=dmax, mirrored=mirrored, b0=b0,
                run_seed=int(mt.group(8)))


def num(sv):
    """A decimal string of a vector file as an exact Fraction ("nan", "inf"
    and "-inf" stay strings)."""
    low = sv.lower()
    if low == "nan":
        return "nan"
    if low in ("inf", "+inf", "-inf"):
        return low.lstrip("+")
    return Fraction(Decimal(sv))


def stop_decision(f, g2, n, rounds_max, stopping):
    """(rounds, stop) that the stopping rule of docs/FEDEPM.md section 5 gives
    for the recorded f(w^r), ||grad f(w^r)||^2: the gradient test first."""
    for r in range(1, len(f) + 1):
        if stopping:
            if g2[r - 1] < Fraction(1, 10 ** 6):
                return r, 1
            if r >= 4:
                w = f[r - 4:r]
                mean = sum(w) / 4
                var = sum((v - mean) ** 2 for v in w) / 3
                if var <= Fraction(n, 10 ** 8) / (1 + abs(w[3])):
                    return r, 2
        if r == rounds_max + 1:
            return r, 0
    return None, None


def grad_i_at_0(X, b, d, i):
    """grad f_i(0) = (1/d_i) sum_t (1/2 - b_t) x_t exactly (the beta w term is 0)."""
    t0 = sum(d[:i])
    n = len(X[0])
    return [sum((Fraction(1, 2) - b[t]) * X[t][j] for t in range(t0, t0 + d[i])) / d[i]
            for j in range(n)]


def check_run_file(path):
    """Compare one checkpoint file with the docs' rules; returns a summary
    line, raises AssertionError at the first difference."""
    with open(path) as fh:
        J = json.load(fh)
    name = os.path.basename(path)
    ncase = nsel_rows = nvalid = nnoisy = 0
    for grp in J["groups"]:
        par = {k: Fraction(Decimal(v)) for k, v in grp["params"].items()}
        for case in grp["cases"]:
            where = "%s id %d" % (name, case["id"])
            spec = parse_data(case["comment"])
            assert spec["run_seed"] == par["seed"], (where, "run seed differs from the group's seed")
            b0 = spec["b0"]
            d, X, b, Delta = problem(spec["seed"], spec["m"], spec["n"], spec["dmin"], spec["dmax"],
                                     spec["mirrored"], None if b0 == "nan" else b0)
            inp = case["input"]
            assert [int(v) for v in inp["d"]] == d, (where, "d")
            assert len(inp["X"]) == sum(d) and all(len(r) == spec["n"] for r in inp["X"]), (where, "X shape")
            assert [[num(v) for v in r] for r in inp["X"]] == X, (where, "X")
            got_b = [num(v) for v in inp["b"]]
            if b0 == "nan":
                assert got_b[0] == "nan" and got_b[1:] == b[1:], (where, "b")
            else:
                assert got_b == b, (where, "b")
            assert [num(v) for v in inp["Delta"]] == Delta, (where, "Delta")
            ncase += 1
            if case.get("result", "valid") == "invalid":
                continue
            nvalid += 1
            e = case["expect"]
            m, n, q = spec["m"], spec["n"], int(par["nsel"])
            rounds = int(e["rounds"])
            g = Stream(spec["run_seed"], 1)                # FR_STREAM_SELECT
            sel = [g.sample(m, q) for _ in range(rounds)]
            assert [[int(v) for v in r] for r in e["sel"]] == sel, (where, "sel")
            nsel_rows += rounds
            assert int(e["cr"]) == rounds - 1, (where, "cr")
            assert len(e["w"]) == rounds and len(e["f"]) == rounds and len(e["gnorm2"]) == rounds, where
            for fld in ("nu", "loss"):
                assert len(e[fld]) == rounds - 1 and all(len(r) == q for r in e[fld]), (where, fld)
            for fld in ("W", "Z"):
                assert len(e[fld]) == m and all(len(r) == n for r in e[fld]), (where, fld)
            for fld in ("nu0", "loss0", "eps_basic", "eps_adv"):
                assert len(e[fld]) == m, (where, fld)
            # the stopping decision, from the recorded values
            f = [num(v) for v in e["f"]]
            g2 = [num(v) for v in e["gnorm2"]]
            r_stop, kind = stop_decision(f, g2, n, int(par["rounds"]), int(par["stopping"]))
            assert (r_stop, kind) == (rounds, int(e["stop"])), (where, "stopping rule", r_stop, kind)
            # the scale of z_i^0 (docs/FEDEPM.md section 2), to the 40 digits written
            noise, eps, mu0 = int(par["noise"]), par["eps"], par["mu0"]
            for i in range(m):
                if noise == 1:
                    exact = 2 * sum(abs(v) for v in grad_i_at_0(X, b, d, i)) / (eps * mu0)
                elif noise == 2:
                    exact = Delta[i] / (eps * mu0)
                else:
                    exact = Fraction(0)
                got = num(e["nu0"][i])
                assert (got == 0) == (exact == 0), (where, "nu0 zero", i)
                assert abs(got - exact) <= abs(exact) * Fraction(1, 10 ** 38), (where, "nu0", i)
            # the noise of each client's last upload, Z_i - W_i, from its noise
            # stream (docs/RNG.md 3.8): n Laplace draws per earlier upload of
            # non-zero scale, none for a scale 0 (docs/FEDEPM.md section 2)
            for i in range(m):
                scales = [e["nu0"][i]] + [e["nu"][r][k] for r in range(rounds - 1)
                                          for k in range(q) if sel[r][k] == i]
                scales = [Decimal(v) for v in scales]        # finite in these files
                skip = n * sum(1 for v in scales[:-1] if v != 0)
                zi = [num(v) for v in e["Z"][i]]
                wi = [num(v) for v in e["W"][i]]
                if scales[-1] == 0:
                    assert zi == wi, (where, "Z = W after a noiseless upload", i)
                    nnoisy += 1
                    continue
                g = Stream(spec["run_seed"], 2 + i)          # FR_STREAM_NOISE + i
                for _ in range(skip):
                    g.next64()
                for j in range(n):
                    eps_j = Fraction(laplace(g, scales[-1]))
                    big = max(abs(zi[j]), abs(wi[j]), 1)
                    assert abs((zi[j] - wi[j]) - eps_j) <= big * Fraction(1, 10 ** 30), (where, "noise", i, j)
                nnoisy += 1
    return "%s: %d cases: d, X, b, Delta regenerated; %d valid: sel (%d rows), cr, shapes, " \
           "stopping decision, nu0, last noise of %d clients reproduced" % (name, ncase, nvalid, nsel_rows, nnoisy)


# ---- the SSCA runs of paper 000 (docs/SSCA.md section 10, docs/RNG.md 3.9) ----

def ssca_synth(seed, N, P, L):
    """fr_ssca_synth (docs/RNG.md 3.9): Z (N x P, exact) and the labels y."""
    g = Stream(seed, 0)
    K = [[g.below(2049) - 1024 for _ in range(P)] for _ in range(N)]
    v = [[g.below(5) - 2 for _ in range(P)] for _ in range(L)]
    y = []
    for n in range(N):
        best, bestv = 0, None
        for l in range(L):
            sc = sum(v[l][p] * K[n][p] for p in range(P))
            if l == 0 or sc > bestv:                     # ties to the smaller l
                best, bestv = l, sc
        if g.below(10) == 0:                             # label noise
            best = g.below(L)
        y.append(best)
    return [[Fraction(k, 1024) for k in row] for row in K], y


def ssca_init_w(seed, L, J, P):
    """fr_ssca_init_w (docs/RNG.md 3.9): the J (L + P) entries of w^1."""
    def half_lg(fan):
        lg = 0
        while (1 << lg) < fan:
            lg += 1
        return (lg + 1) // 2
    g = Stream(seed, 1)
    e0, e1 = half_lg(J), half_lg(P)
    return [Fraction(g.below(2049) - 1024, 2 ** (10 + (e0 if k < L * J else e1)))
            for k in range(J * (L + P))]


SSCA_DATA_RE = re.compile(
    r"Data: ssca synthetic seed (\d+), N = (\d+), P = (\d+), L = (\d+), J = (\d+), "
    r"parts ([\d ]+?)(, then [^;]*)?; run seed (\d+)(;|$)")
SSCA_FEATURE = ("ssca_alg3", "ssca_alg4", "ssca_sgd_f", "ssca_sgdm_f")
SSCA_CONSTRAINED = ("ssca_alg2", "ssca_alg4")


def ssca_draws(fname, seed, T, B, E, N, parts):
    """Every mini-batch index of rounds 1 .. T-1 (docs/RNG.md 3.9), in the
    layout of the expects `draws` (docs/SSCA.md 10, fedref/ssca.h)."""
    if fname in SSCA_FEATURE:
        g = Stream(seed, 1)
        return [g.sample(N, B) for _ in range(T - 1)]
    k = E * B if fname in ("ssca_sgd_s", "ssca_sgdm_s") else B
    gs = [Stream(seed, 1 + i) for i in range(len(parts))]
    return [[v for i, g in enumerate(gs) for v in g.sample(parts[i], k)] for _ in range(T - 1)]


def ssca_msgs(fname, L, J, P, parts, B):
    """The reals one round moves (docs/SSCA.md 5 and 10): down, up, peer.
    For (40) (Algorithms 2, 4) f_{a,0} = 0: one real more, the loss sum."""
    nc, d, d0 = len(parts), J * (L + P), L * J
    M = 1 if fname in SSCA_CONSTRAINED else 0
    if fname in SSCA_FEATURE:
        return [nc * d0 + J * P, d0 + M + J * P, nc * J * B * (nc - 1)]
    if fname == "ssca_sgdm_s":
        return [2 * nc * d, 2 * nc * d, 0]
    return [nc * d, nc * (d + M), 0]


def check_ssca_file(path):
    """Compare one SSCA checkpoint file with the docs' rules: the inputs LJ,
    Z, y, parts, w1 regenerated from the case comment, every draw from the
    run seed, the reals per round, the record shapes, and what follows from
    the recorded values alone: norm2 = ||w^t||^2, cons = cost - U, nu and
    the slack consistent with the Lemma 1 branch (docs/SSCA.md 6)."""
    with open(path) as fh:
        Jf = json.load(fh)
    name = os.path.basename(path)
    fname = Jf["function"]
    ncase = nvalid = ndraws = 0
    tiny = Fraction(1, 10 ** 36)
    for grp in Jf["groups"]:
        par = {k: Fraction(Decimal(v)) for k, v in grp["params"].items()}
        for case in grp["cases"]:
            where = "%s id %d" % (name, case["id"])
            mt = SSCA_DATA_RE.search(case["comment"])
            assert mt, (where, "no data description in the comment")
            seed, N, P, L, Jc = (int(mt.group(k)) for k in range(1, 6))
            parts = [int(v) for v in mt.group(6).split()]
            edit, run_seed = mt.group(7) or "", int(mt.group(8))
            assert run_seed == par["seed"], (where, "run seed differs from the group's seed")
            Z, y = ssca_synth(seed, N, P, L)
            w1 = ssca_init_w(seed, L, Jc, P)
            if edit == ", then Z[1][1] = nan":
                Z[1][1] = "nan"
            elif edit == ", then y_0 = L":
                y[0] = L
            elif edit == ", then the last entry of w1 = inf":
                w1[-1] = "inf"
            elif edit == ", then w1 without its last entry":
                w1 = w1[:-1]
            else:
                assert edit == "", (where, "unknown edit", edit)
            inp = case["input"]
            assert [int(v) for v in inp["LJ"]] == [L, Jc], (where, "LJ")
            assert [[num(v) for v in r] for r in inp["Z"]] == Z, (where, "Z")
            assert [int(v) for v in inp["y"]] == y, (where, "y")
            assert [int(v) for v in inp["parts"]] == parts, (where, "parts")
            assert [num(v) for v in inp["w1"]] == w1, (where, "w1")
            ncase += 1
            if case.get("result", "valid") == "invalid":
                continue
            nvalid += 1
            e = case["expect"]
            T, B, E = int(par["T"]), int(par["B"]), int(par["E"])
            d = Jc * (L + P)
            draws = ssca_draws(fname, run_seed, T, B, E, N, parts)
            assert [[int(v) for v in r] for r in e["draws"]] == draws, (where, "draws")
            ndraws += sum(len(r) for r in draws)
            assert [int(v) for v in e["msgs"]] == ssca_msgs(fname, L, Jc, P, parts, B), (where, "msgs")
            assert len(e["w"]) == T and all(len(r) == d for r in e["w"]), (where, "w shape")
            assert [num(v) for v in e["w"][0]] == w1, (where, "w^1 = w1")
            for fld, n in (("cost", T), ("norm2", T), ("cons", T), ("nu", T - 1), ("slack", T - 1),
                           ("branch", T - 1)):
                assert len(e[fld]) == n, (where, fld)
            for t in range(T):
                exact = sum(num(v) ** 2 for v in e["w"][t])
                assert abs(num(e["norm2"][t]) - exact) <= tiny * exact, (where, "norm2", t)
            if fname not in SSCA_CONSTRAINED:
                assert all(v == "nan" for v in e["cons"] + e["nu"] + e["slack"]), (where, "NaN records")
                assert all(int(v) == 0 for v in e["branch"]), (where, "branch 0")
                continue
            for t in range(T):
                cost, cons = num(e["cost"][t]), num(e["cons"][t])
                assert abs(cons - (cost - par["U"])) <= tiny * max(abs(cost), 1), (where, "cons", t)
            for t in range(T - 1):
                br, nu, sl = int(e["branch"][t]), num(e["nu"][t]), num(e["slack"][t])
                assert sl >= 0, (where, "slack", t)
                if br == 2:
                    assert nu == 0 and sl == 0, (where, "branch 2: nu = 0, s = 0", t)
                elif br == 3:
                    assert 0 < nu < par["c"] and sl == 0, (where, "branch 3: 0 < nu < c, s = 0", t)
                else:
                    assert br in (1, 4) and nu == par["c"], (where, "branches 1, 4: nu = c", t)
    return "%s: %d cases: LJ, Z, y, parts, w1 regenerated; %d valid: %d draws, msgs, shapes, " \
           "norm2, cons and the Lemma 1 records reproduced" % (name, ncase, nvalid, ndraws)


# ---- Algorithm 1 of paper 003 (docs/FEDPDM.md 4.5 and 5, docs/RNG.md 3.10) ----

PDM_STREAM_SELECT = 1
PDM_STREAM_BATCH = 2                  # + i
PDM_STREAM_NOISE = 1 << 32            # + i


def pdm_synth(seed, N, m, n, dmin, dmax):
    """fr_pdm_synth_sizes + fr_pdm_synth_data (docs/FEDPDM.md 4.5): d, A
    (exact, D x n), y."""
    g = Stream(seed, 0)
    d = [dmin + g.below(dmax - dmin + 1) for _ in range(N)]
    g = Stream(seed, 1)
    L = min(n - 1, 64)
    proto = [[g.below(2) for _ in range(L)] for _ in range(m)]
    A, y = [], []
    for _ in range(sum(d)):
        c = g.below(m)
        row = [Fraction(1)]
        for l in range(1, n):
            hi = proto[c][l - 1] if l <= L else 0
            row.append(Fraction(128 * hi + g.below(128), 256))
        A.append(row)
        y.append(c)
    return d, A, y


def pdm_x0(seed, m, n, seeded):
    """x_0^0: zero, or x0_k = (below(129) - 64) 2^-6 from stream (data seed, 2)."""
    if not seeded:
        return [Fraction(0)] * (m * n)
    g = Stream(seed, 2)
    return [Fraction(g.below(129) - 64, 64) for _ in range(m * n)]


def pdm_parts(seed, N, K, T):
    """S_t as 0/1 rows: S_0 = [N], then one sample(N, K) per round from (seed, 1)."""
    g = Stream(seed, PDM_STREAM_SELECT)
    rows = [[1] * N]
    for _ in range(1, T):
        s = set(g.sample(N, K))
        rows.append([1 if i in s else 0 for i in range(N)])
    return rows


def pdm_draws(seed, d, b, part, Q):
    """Every mini-batch index in draw order: round t, participants in
    increasing i, steps r < Q_i^t, b indices each from stream (seed, 2 + i)."""
    gs = [Stream(seed, PDM_STREAM_BATCH + i) for i in range(len(d))]
    out = []
    for t in range(len(part)):
        for i in range(len(d)):
            if part[t][i]:
                for _ in range(Q[t][i]):
                    out.extend(gs[i].sample(d[i], b))
    return out


def pdm_sigma_paper(eta, rho, Q, G, eps, delta):
    """sigma = sqrt((18) at s = (19)(eta, rho, Q, G)), at 60 digits."""
    fd = lambda f: D(f.numerator) / D(f.denominator)
    a = abs(1 - Fraction(eta) * Fraction(rho))
    s = fd(4 * Fraction(eta) * Fraction(G) * sum(a ** r for r in range(Q)))
    v = 2 * s * s * fd(Fraction(5, 4) / Fraction(delta)).ln() / fd(Fraction(eps)) ** 2
    return v.sqrt()


def soft(u, k):
    if u > k:
        return u - k
    if u < -k:
        return u + k
    return Fraction(0)


PDM_DATA_RE = re.compile(
    r"Data: pdm synthetic seed (\d+), N = (\d+), m = (\d+), n = (\d+), d in \[(\d+), (\d+)\], "
    r"beta = (\S+), gamma = (\S+), x0 (zero|seeded), eta0 = (\S+), sigma ([^,;]+)(, then [^;]*)?; run seed (\d+)(;|$)")


def check_pdm_file(path):
    """Compare one checkpoint file of 003's Algorithm 1 with the docs' rules."""
    with open(path) as fh:
        Jf = json.load(fh)
    name = os.path.basename(path)
    ncase = nvalid = ndraws = nnoisy = 0
    tiny = Fraction(1, 10 ** 30)
    for grp in Jf["groups"]:
        par = {k: Fraction(Decimal(v)) for k, v in grp["params"].items()}
        T, K, b, Qmax = (int(par[k]) for k in ("T", "K", "b", "Qmax"))
        rule, start, server, noise = (int(par[k]) for k in ("rule", "start", "server", "noise"))
        rho = par["rho"]
        for case in grp["cases"]:
            where = "%s id %d" % (name, case["id"])
            mt = PDM_DATA_RE.search(case["comment"])
            assert mt, (where, "no data description in the comment")
            seed, N, m, n, dmin, dmax = (int(mt.group(k)) for k in range(1, 7))
            beta, gamma = float(mt.group(7)), float(mt.group(8))
            seeded, eta0 = mt.group(9) == "seeded", float(mt.group(10))
            sig = None if mt.group(11) == "zero" else [float(v) for v in mt.group(11).split()]
            edit, run_seed = mt.group(12) or "", int(mt.group(13))
            assert run_seed == par["seed"], (where, "run seed differs from the group's seed")
            d, A, y = pdm_synth(seed, N, m, n, dmin, dmax)
            x0 = pdm_x0(seed, m, n, seeded)
            eta = [eta0 / math.sqrt(t + 1) for t in range(T)]
            sg = [Fraction(v) for v in sig] if sig else [Fraction(0)] * T
            if edit == ", then A[1][1] = nan":
                A[1][1] = "nan"
            elif edit == ", then y_0 = m":
                y[0] = m
            elif edit == ", then the last entry of x0 = inf":
                x0[-1] = "inf"
            elif edit == ", then the last eta = 0":
                eta[-1] = 0.0
            elif edit == ", then the last sigma = -(sigma + 0.5)":
                sg[-1] = Fraction(-float(sg[-1]) - 0.5)            # in binary64
            elif edit == ", then sigma without its last entry":
                sg = sg[:-1]
            else:
                assert edit == "", (where, "unknown edit", edit)
            inp = case["input"]
            assert [num(v) for r in inp["x0"] for v in r] == x0 and len(inp["x0"]) == m, (where, "x0")
            assert [[num(v) for v in r] for r in inp["A"]] == A, (where, "A")
            assert [int(v) for v in inp["y"]] == y, (where, "y")
            assert [int(v) for v in inp["d"]] == d, (where, "d")
            assert [num(v) for v in inp["bg"]] == [Fraction(beta), Fraction(gamma)], (where, "bg")
            assert [num(v) for v in inp["eta"]] == [Fraction(v) for v in eta], (where, "eta")
            assert [num(v) for v in inp["sigma"]] == sg, (where, "sigma")
            ncase += 1
            if case.get("result", "valid") == "invalid":
                continue
            nvalid += 1
            e = case["expect"]
            Dm = m * n
            ints = lambda fld: [[int(v) for v in r] for r in e[fld]]
            part, Q, capped = ints("part"), ints("Q"), ints("capped")
            assert part == pdm_parts(run_seed, N, K, T), (where, "part")
            stop2 = [[num(v) for v in r] for r in e["stop2"]]
            for t in range(T):
                for i in range(N):
                    if not part[t][i]:
                        assert Q[t][i] == 0 and capped[t][i] == 0 and stop2[t][i] == "nan", (where, "absent", t, i)
                    elif rule == 1:                                  # FIXED
                        assert Q[t][i] == Qmax and capped[t][i] == 0, (where, "rule FIXED", t, i)
                    else:                                            # (11)
                        q, c, s2 = Q[t][i], capped[t][i], stop2[t][i]
                        assert 1 <= q <= Qmax, (where, "Q range", t, i)
                        assert c == (1 if s2 > par["nu"] else 0), (where, "capped iff ||v||^2 > nu", t, i)
                        assert c == 0 or q == Qmax, (where, "capped at Qmax", t, i)
            draws = pdm_draws(run_seed, d, b, part, Q)
            assert [int(v) for v in e["draws"]] == draws, (where, "draws")
            ndraws += len(draws)
            if "pdm-rule11-at-nu" in case.get("flags", []):
                # x = 0, lambda = 0 at client 0's first step: v = -(1/(2b)) sum_{t in B} e_{y_t} a_t^T exactly
                v = [Fraction(0)] * (m * n)
                for t in draws[:b]:
                    for l in range(n):
                        v[y[t] * n + l] -= A[t][l] / (2 * b)
                assert sum(x * x for x in v) == par["nu"] == stop2[0][0] and Q[0][0] == 1, (where, "(11) at nu")
            # the scales
            sgm = [[num(v) for v in r] for r in e["sigma"]]
            for t in range(T):
                for i in range(N):
                    if not part[t][i] or noise == 0:
                        assert sgm[t][i] == 0, (where, "sigma 0", t, i)
                    elif noise == 2:
                        assert abs(sgm[t][i] - sg[t]) <= Fraction(1, 10 ** 38) * sg[t], (where, "sigma given", t, i)
                    else:
                        want = pdm_sigma_paper(eta[t], rho, Q[t][i], par["G"], par["eps"], par["delta"])
                        got = D(sgm[t][i].numerator) / D(sgm[t][i].denominator)
                        assert abs(got - want) <= D(10) ** -35 * want, (where, "sigma (18)", t, i)
            # the states
            X0 = [[num(v) for v in r] for r in e["x0"]]
            assert len(X0) == T + 1 and X0[0] == x0, (where, "x_0^0")
            xs = [[num(v) for v in r] for r in e["x"]]
            lam = [[num(v) for v in r] for r in e["lam"]]
            # the last server step, with each client's last upload and its noise
            ups = []
            for i in range(N):
                g = Stream(run_seed, PDM_STREAM_NOISE + i)
                last = max(t for t in range(T) if part[t][i])
                earlier = sum(1 for t in range(last) if part[t][i] and sgm[t][i] > 0)
                for _ in range(earlier * ((Dm + 1) // 2)):
                    gaussian2(g)
                yv = [xs[i][k] - lam[i][k] / rho for k in range(Dm)]
                if sgm[last][i] > 0:
                    zs = []
                    for _ in range((Dm + 1) // 2):
                        zs.extend(gaussian2(g))
                    yv = [yv[k] + sgm[last][i] * Fraction(zs[k]) for k in range(Dm)]
                    nnoisy += 1
                ups.append(yv)
            # servers: 0 all N (8c), 1 the participants' mean, 2 (13) as printed (1/K)
            S = range(N) if server == 0 else [i for i in range(N) if part[T - 1][i]]
            div = K if server == 2 else len(S)
            for k in range(Dm):
                u = sum(ups[i][k] for i in S) / div
                assert abs(X0[T][k] - soft(u, Fraction(gamma) / rho)) <= tiny, (where, "x_0^T = soft(u)", k)
            # (21): P = Px + Plam + Px0 everywhere; Plam and Px0 at T; state 0
            Pv = {f: [num(v) for v in e[f]] for f in ("P", "Px", "Plam", "Px0")}
            for t in range(T + 1):
                tot = Pv["Px"][t] + Pv["Plam"][t] + Pv["Px0"][t]
                assert abs(Pv["P"][t] - tot) <= tiny * tot, (where, "P = Px + Plam + Px0", t)

            gam = Fraction(gamma)

            def px0(xz, cvec):
                out = Fraction(0)
                for k in range(Dm):
                    if xz[k] != 0:
                        out += (cvec[k] + (gam if xz[k] > 0 else -gam)) ** 2
                    else:
                        out += max(Fraction(0), abs(cvec[k]) - gam) ** 2
                return out
            pl = sum(((X0[T][k] - xs[j][k]) / N) ** 2 for j in range(N) for k in range(Dm))
            assert abs(Pv["Plam"][T] - pl) <= tiny * (1 + pl), (where, "Plam at T")
            cv = [sum(lam[j][k] + rho * (X0[T][k] - xs[j][k]) for j in range(N)) / N for k in range(Dm)]
            want = px0(X0[T], cv)
            assert abs(Pv["Px0"][T] - want) <= tiny * (1 + want), (where, "Px0 at T")
            assert Pv["Plam"][0] == 0, (where, "Plam at 0")
            want0 = px0(x0, [Fraction(0)] * Dm)
            assert abs(Pv["Px0"][0] - want0) <= tiny * want0, (where, "Px0 at 0")
            if server == 0 and noise == 0:
                assert all(v == 0 for v in Pv["Px0"][1:]), (where, "Px0 = 0: the argmin of (8c)")
    return "%s: %d cases: x0, A, y, d, bg, eta, sigma regenerated; %d valid: part, %d draws, Q/capped/stop2, " \
           "sigma, x_0^0, the last server step with %d uploads' noise, (21)'s parts reproduced" \
           % (name, ncase, nvalid, ndraws, nnoisy)


def check_vectors(vdir):
    status = 0
    for fn in ("fedepm.json", "sfedavg.json", "sfedprox.json", "fedepm_dp.json"):
        try:
            print(check_run_file(os.path.join(vdir, fn)))
        except (AssertionError, ValueError, KeyError) as exc:
            print("%s: differs from the docs' rules: %s" % (fn, exc))
            status = 1
    for fn in ("ssca_alg1.json", "ssca_alg2.json", "ssca_alg3.json", "ssca_alg4.json", "ssca_sgd_s.json",
               "ssca_sgdm_s.json", "ssca_sgd_f.json", "ssca_sgdm_f.json"):
        try:
            print(check_ssca_file(os.path.join(vdir, fn)))
        except (AssertionError, ValueError, KeyError) as exc:
            print("%s: differs from the docs' rules: %s" % (fn, exc))
            status = 1
    for fn in ("fedpdm_run_full.json", "fedpdm_run_partial.json", "fedpdm_run_noise.json",
               "fedpdm_run_rule11.json"):
        try:
            print(check_pdm_file(os.path.join(vdir, fn)))
        except (AssertionError, ValueError, KeyError) as exc:
            print("%s: differs from the docs' rules: %s" % (fn, exc))
            status = 1
    for fn, chk in (("proxal_admm.json", check_proxal_admm), ("proxal_alg1.json", check_proxal_alg),
                    ("proxal_alg3.json", check_proxal_alg)):
        try:
            print(chk(os.path.join(vdir, fn)))
        except (AssertionError, ValueError, KeyError) as exc:
            print("%s: differs from the docs' rules: %s" % (fn, exc))
            status = 1
    try:
        print(check_proxal_seeded(vdir))
    except (AssertionError, ValueError, KeyError) as exc:
        print("kkt_residual / proxal_lk: differ from the docs' rules: %s" % (exc,))
        status = 1
    return status


# ---- the generators of 004 Sec. 5 (module proxal: include/fedref/proxal.h,
# fr_proxal_gen_qp / fr_proxal_gen_lg; docs/RNG.md).  Python floats are IEEE
# binary64 with round-to-nearest and no FMA: the same bits as the C code.

PROXAL_STREAM_D = 1 << 32             # + i
PROXAL_STREAM_U = 2 << 32
PROXAL_STREAM_C = 3 << 32
PROXAL_STREAM_X = 4 << 32
PROXAL_STREAM_Y = 5 << 32


class GaussTape:
    """z0, z1 of successive Box-Muller pairs of one stream, each rounded to
    binary64 (float(Decimal) is correctly rounded), used one by one."""
    def __init__(self, seed, stream):
        self.g = Stream(seed, stream)
        self.q = []

    def next(self):
        if not self.q:
            z0, z1 = gaussian2(self.g)
            self.q = [float(z0), float(z1)]
        return self.q.pop(0)


def proxal_sphere(t, k):
    x = [t.next() for _ in range(k)]
    s = 0.0
    for z in x:
        s = s + z * z
    r = math.sqrt(s)
    return [z / r for z in x]


def proxal_A(seed, d, i):
    g = Stream(seed, PROXAL_STREAM_D + i)
    M = [[0.0] * d for _ in range(d)]
    for k in range(d):
        M[k][k] = 0.5 + float(g.next64() >> 12) * 2.0 ** -53
    t = GaussTape(seed, PROXAL_STREAM_U + i)
    xs = [[t.next() for _ in range(d - k)] for k in range(d - 1)]
    for k in range(d - 2, -1, -1):
        v = xs[k]
        L = d - k
        s = 0.0
        for z in v:
            s = s + z * z
        nrm = math.sqrt(s)
        v[0] = v[0] + nrm if v[0] >= 0 else v[0] - nrm
        vtv = 0.0
        for z in v:
            vtv = vtv + z * z
        if vtv == 0:
            continue
        tau = 2 / vtv
        p, q = [], 0.0
        for a in range(L):
            r = 0.0
            for b in range(L):
                r = r + M[k + a][k + b] * v[b]
            p.append(tau * r)
            q = q + p[a] * v[a]
        beta = 0.5 * (tau * q)
        w = [p[a] - beta * v[a] for a in range(L)]
        for a in range(L):
            for b in range(L):
                M[k + a][k + b] = M[k + a][k + b] - (v[a] * w[b] + w[a] * v[b])
    return M


def proxal_qp(seed, n, d, mt):
    """fr_proxal_gen_qp: A[i-1], b[i-1] (i = 1..n), C[i] (mt rows), e[i] (i = 0..n)."""
    A, b, C, e = [], [], [], []
    sq = math.sqrt(float(d))
    for i in range(n + 1):
        t = GaussTape(seed, PROXAL_STREAM_C + i)
        C.append([[t.next() / sq for _ in range(d)] for _ in range(mt)])
        e.append(proxal_sphere(t, mt))
        if i >= 1:
            b.append(proxal_sphere(t, d))
            A.append(proxal_A(seed, d, i))
    return A, b, C, e


def proxal_lg(kind, seed, n, d, s):
    """fr_proxal_gen_lg (kind "np" or "fair"): cnt, rows X, labels y, groups grp."""
    fair = kind == "fair"
    cnt, X, y, grp = [s if fair else 0] + [s] * n, [], [], []
    for i in range(0 if fair else 1, n + 1):
        g = Stream(seed, PROXAL_STREAM_Y + i)
        t = GaussTape(seed, PROXAL_STREAM_X + i)
        for j in range(s):
            gr = j & 1 if fair else 0
            lab = g.below(2) if fair else j & 1
            shift = (0.5 if lab else -0.5) + ((0.25 if gr else -0.25) if fair else 0)
            X.append([1.0] + [t.next() + shift for _ in range(d - 1)])
            y.append(lab)
            grp.append(gr)
    return cnt, X, y, grp


# ---- the checkpoint files of 004 (docs/RNG.md 3.11, docs/PROXAL.md 2-5) ----

def f64_same(sv, x):
    """The decimal string sv of a vector file is exactly the binary64 x, sign
    of zero and NaN included (the files write every input exactly)."""
    if isinstance(x, float) and math.isnan(x):
        return sv.lower() == "nan"
    if sv.lower() == "nan":
        return False
    got = float(sv)
    if math.isfinite(got) and Fraction(Decimal(sv)) != Fraction(got):
        return False                                   # not a binary64
    return got.hex() == x.hex() and math.copysign(1, got) == math.copysign(1, x)


def same_vec(sv, xs):
    return len(sv) == len(xs) and all(f64_same(s, x) for s, x in zip(sv, xs))


def same_mat(sm, xm):
    return len(sm) == len(xm) and all(same_vec(r, x) for r, x in zip(sm, xm))


PX_INST_RE = re.compile(
    r"Data: (?:qp fr_proxal_gen_qp\(seed (\d+), n = (\d+), d = (\d+), mt = (\d+)\)"
    r"|np fr_proxal_gen_lg\(NP, seed (\d+), n = (\d+), d = (\d+), s = (\d+)\), r_i = ([0-9.]+)); ")
PX_ADMM_RE = re.compile(
    r"(wk zero|wk_k = \(k mod 3 - 1\)/4 \(k = 0\.\.d-1\)), "
    r"(mu zero|mu_j = \(-1\)\^j \(1/2 \+ j/4\) \(j = 0\.\.sum m_i - 1\)"
    r"|mu_j = 1/2 \+ j/4 \(j = 0\.\.sum m_i - 1\)), w0 = wk, "
    r"(rho 1|rho_i = \(i \+ 1\)/2 \(i = 0\.\.n-1\))(, then [^;]*)?(; status \S+ \(ref and fast\))?")
PX_ALG_RE = re.compile(
    r"w0_k = \(k mod 3 - 1\)/4 \(k = 0\.\.d-1\), (mu0 zero|mu0_j = 1/4 \(j = 0\.\.sum m_i - 1\)), rho 1"
    r"(, then [^;]*)?(; status \S+ \(ref and fast\))?")


def px_instance(comment, where):
    """The problem fields of a case (vectors/proxal/alg_common.h's layout,
    docs/VECTORS.md): from the generator call of the comment; returns
    (fields, n, d, mtot, rest of the comment)."""
    mt = PX_INST_RE.search(comment)
    assert mt, (where, "no generator call in the comment")
    if mt.group(1):
        seed, n, d, m = (int(mt.group(k)) for k in range(1, 5))
        A, b, C, e = proxal_qp(seed, n, d, m)
        f = dict(kind="qp", A=[r for Ai in A for r in Ai], b=b, C=[r for Ci in C for r in Ci], e=e)
        mtot = (n + 1) * m                   # every row an equality (docs/PROXAL.md 2)
    else:
        seed, n, d, s = (int(mt.group(k)) for k in range(5, 9))
        cnt, X, y, _ = proxal_lg("np", seed, n, d, s)
        f = dict(kind="np", cnt=[float(c) for c in cnt], X=X, y=[float(v) for v in y],
                 r=[float(mt.group(9))] * n)
        mtot = n                             # m_0 = 0, m_i = 1 (an inequality)
    f["_qp"] = mt.group(1) is not None
    return f, n, d, mtot, comment[mt.end():]


def px_check_problem(inp, f, where):
    assert inp["kind"] == f["kind"], (where, "kind")
    for k in ("A", "b", "C", "e") if f["_qp"] else ("X",):           # matrices
        assert same_mat(inp[k], f[k]), (where, k)
    for k in () if f["_qp"] else ("cnt", "y", "r"):                 # vectors
        assert same_vec(inp[k], f[k]), (where, k)
    absent = ("cnt", "X", "y", "r") if f["_qp"] else ("A", "b", "C", "e")
    assert all(not inp.get(k) for k in absent), (where, "fields of the other kind")


def px_qp_c(f, w, n, d):
    """c(w) = (C_i w + e_i)_{i=0..n}, exactly (Fractions)."""
    mt = len(f["e"][0])
    C = [[Fraction(v) for v in r] for r in f["C"]]
    e = [Fraction(v) for r in f["e"] for v in r]
    return [sum(C[j][l] * w[l] for l in range(d)) + e[j] for j in range((n + 1) * mt)]


def px_qp_f(f, w, n, d):
    """f(w) = sum_i w^T A_i w / 2 + b_i^T w (f_0 = 0), exactly."""
    out = Fraction(0)
    for i in range(n):
        A = [[Fraction(v) for v in f["A"][i * d + a]] for a in range(d)]
        out += sum(w[a] * A[a][c] * w[c] for a in range(d) for c in range(d)) / 2
        out += sum(Fraction(f["b"][i][a]) * w[a] for a in range(d))
    return out


def close(got, want, rel=Fraction(1, 10 ** 33)):
    """Two values of a 40-digit file agree up to its rounding (and ref's p bits)."""
    return abs(got - want) <= rel * (1 + abs(want))


def check_proxal_admm(path):
    with open(path) as fh:
        J = json.load(fh)
    name = os.path.basename(path)
    ncase = nvalid = 0
    for grp in J["groups"]:
        par = grp["params"]
        q, tmax = Fraction(Decimal(par["q"])), int(par["tmax"])
        for case in grp["cases"]:
            where = "%s id %d" % (name, case["id"])
            f, n, d, m, rest = px_instance(case["comment"], where)
            mt = PX_ADMM_RE.fullmatch(rest)
            assert mt, (where, "state description", rest)
            wk = [((k % 3) - 1) / 4 if mt.group(1) != "wk zero" else 0.0 for k in range(d)]
            if mt.group(2) == "mu zero":
                mu = [0.0] * m
            else:
                assert ("(-1)^j" in mt.group(2)) == f["_qp"], (where, "mu's sign rule vs kind")
                mu = [(-1.0 if f["_qp"] and j & 1 else 1.0) * (0.5 + j / 4) for j in range(m)]
            rho = [1.0 if mt.group(3) == "rho 1" else (i + 1) / 2 for i in range(n)]
            w0 = list(wk)
            edit = mt.group(4) or ""
            if edit == ", then w0_0 = nan":
                w0[0] = float("nan")
            elif edit == ", then the last multiplier (an inequality row) = -1/2":
                assert not f["_qp"], where
                mu[-1] = -0.5
            elif edit == ", then rho_{n-1} = 0":
                rho[-1] = 0.0
            elif edit == ", then w0 one entry short":
                w0 = w0[:-1]
            elif edit == ", then A_1[0][0] = inf":
                f["A"][0][0] = float("inf")
            else:
                assert edit == "", (where, "unknown edit", edit)
            inp = case["input"]
            px_check_problem(inp, f, where)
            for k, v in (("wk", wk), ("mu", mu), ("w0", w0), ("rho", rho)):
                assert same_vec(inp[k], v), (where, k)
            ncase += 1
            invalid = case.get("result", "valid") == "invalid"
            assert invalid == (mt.group(5) is not None), (where, "invalid iff a status is named")
            if invalid:
                continue
            nvalid += 1
            e = case["expect"]
            iters = int(e["iters"])
            assert len(e["w"]) == d and 1 <= iters <= tmax, (where, "shape of w, iters in [1, tmax]")
            assert e["terminated"] in ("true", "false") and e["thm41_ok"] in ("true", "false"), where
            assert e["terminated"] == "true" or iters == tmax, (where, "not terminated before tmax")
            # eps_{t+1} = q^t (docs/PROXAL.md 4), t = iters - 1 at the end
            assert close(num(e["eps"]), q ** (iters - 1), Fraction(1, 10 ** 35)), (where, "eps = q^(iters-1)")
    return "%s: %d cases: the problem (gen_qp / gen_lg), wk, mu, w0, rho regenerated bit for bit; " \
           "%d valid: shapes, iters <= tmax, eps = q^(iters-1)" % (name, ncase, nvalid)


def check_proxal_alg(path):
    with open(path) as fh:
        J = json.load(fh)
    name = os.path.basename(path)
    alg1 = "alg1" in name
    ncase = nvalid = nqp = nrec = 0
    for grp in J["groups"]:
        P = {k: Fraction(Decimal(v)) for k, v in grp["params"].items() if k != "eps18"}
        kmax, tmax, beta = int(P["kmax"]), int(P["tmax"]), P["beta"]
        for case in grp["cases"]:
            where = "%s id %d" % (name, case["id"])
            f, n, d, m, rest = px_instance(case["comment"], where)
            mt = PX_ALG_RE.fullmatch(rest)
            assert mt, (where, "start description", rest)
            w0 = [((k % 3) - 1) / 4 for k in range(d)]
            mu0 = [0.0 if mt.group(1) == "mu0 zero" else 0.25] * m
            rho = [1.0] * n
            edit = mt.group(2) or ""
            if edit == ", then w0_{d-1} = -inf":
                w0[-1] = float("-inf")
            elif edit == ", then mu0_0 = -1/4 (an inequality row)":
                assert not f["_qp"], where
                mu0[0] = -0.25
            elif edit == ", then rho one entry short":
                rho = rho[:-1]
            else:
                assert edit == "", (where, "unknown edit", edit)
            inp = case["input"]
            px_check_problem(inp, f, where)
            for k, v in (("w0", w0), ("mu0", mu0), ("rho", rho)):
                assert same_vec(inp[k], v), (where, k)
            ncase += 1
            invalid = case.get("result", "valid") == "invalid"
            assert invalid == (mt.group(3) is not None), (where, "invalid iff a status is named")
            if invalid:
                continue
            nvalid += 1
            e = case["expect"]
            K = int(e["iters"])
            assert 1 <= K <= kmax, (where, "iters in [1, kmax]")
            assert len(e["w"]) == K + 1 and all(len(r) == d for r in e["w"]), (where, "w: (K + 1) x d")
            assert same_vec(e["w"][0], w0), (where, "w^0 = w0")
            assert len(e["mu"]) == m, (where, "mu: sum m_i")
            for k in ("tau", "dw", "dmu", "kkt1", "kkt2", "sub", "obj", "feas", "inner", "inner_ok"):
                assert len(e[k]) == K, (where, k, "K entries")
            term, ok = e["terminated"] == "true", e["thm31_ok"] == "true"
            assert term or K == kmax, (where, "not terminated before kmax")
            W = [[num(v) for v in r] for r in e["w"]]
            R = {k: [num(v) for v in e[k]] for k in ("tau", "dw", "dmu", "kkt1", "kkt2", "sub")}
            eps1, eps2, sbar = P["eps1"], P["eps2"], P["sbar"]
            for k in range(K):
                # docs/PROXAL.md 5: tau_k = sbar/(k+1)^2, dw, inner_ok = [sub <= tau_k], (8)
                assert close(R["tau"][k], sbar / (k + 1) ** 2, Fraction(1, 10 ** 35)), (where, "tau", k)
                dw = max(abs(W[k + 1][l] - W[k][l]) for l in range(d))
                assert close(R["dw"][k], dw), (where, "dw", k)
                assert e["inner_ok"][k] == ("1" if R["sub"][k] <= R["tau"][k] else "0"), (where, "inner_ok", k)
                assert int(e["inner"][k]) >= 0 and (not alg1 or int(e["inner"][k]) <= tmax), (where, "inner", k)
                stop8 = R["dw"][k] + beta * R["tau"][k] <= beta * eps1 and R["dmu"][k] <= beta * eps2
                assert stop8 == (term and k == K - 1), (where, "(8) decides the last iteration only", k)
            assert ok == (term and R["kkt1"][-1] <= eps1 and R["kkt2"][-1] <= eps2), (where, "thm31_ok")
            nrec += K
            if not f["_qp"]:
                continue
            # QP (every row an equality): kkt2 = feas = max |c(w^{k+1})|, mu^{k+1} = mu^k +
            # beta c, dmu = beta max |c|, obj = f(w^{k+1}) (docs/PROXAL.md 2, 5)
            nqp += 1
            mu = [Fraction(v) for v in mu0]
            obj = [num(v) for v in e["obj"]]
            for k in range(K):
                c = px_qp_c(f, W[k + 1], n, d)
                mc = max(abs(v) for v in c)
                assert close(R["kkt2"][k], mc), (where, "kkt2 = max |c|", k)
                assert close(num(e["feas"][k]), mc), (where, "feas = max |c| (equality rows)", k)
                assert close(R["dmu"][k], beta * mc), (where, "dmu = beta max |c|", k)
                assert close(obj[k], px_qp_f(f, W[k + 1], n, d)), (where, "obj = f(w^{k+1})", k)
                mu = [mu[j] + beta * c[j] for j in range(m)]
            assert all(close(num(v), u) for v, u in zip(e["mu"], mu)), (where, "mu^K = mu0 + beta sum c")
    return "%s: %d cases: the problem (gen_qp / gen_lg), w0, mu0, rho regenerated bit for bit; %d valid " \
           "(%d records): shapes, w^0 = w0, tau_k, dw, inner_ok, (8), thm31_ok; %d QP runs: kkt2, feas, dmu, obj, " \
           "mu^K from c(w^{k+1})" % (name, ncase, nvalid, nrec, nqp)


class VgDyadic:
    """The random values of the golden cases (docs/VECTORS.md "Regenerating"):
    one stream (2024, 0) per file; dyadic(bits) = (-1)^s k 2^-e with k =
    below(2^bits), e = below(11), s = below(2) in this order."""
    def __init__(self):
        self.g = Stream(2024, 0)

    def __call__(self, bits):
        k, e, s = self.g.below(1 << bits), self.g.below(11), self.g.below(2)
        return (-1.0 if s else 1.0) * math.ldexp(float(k), -e)


def check_proxal_seeded(vdir):
    """The seeded inputs of kkt_residual and proxal_lk: their "random dyadic"
    cases (draw order as in vectors/proxal/kkt_residual.c, proxal_lk.c) and
    proxal_lk's group from fr_proxal_gen_qp."""
    out = []
    with open(os.path.join(vdir, "kkt_residual.json")) as fh:
        J = json.load(fh)
    cases = {c["comment"]: c["input"] for grp in J["groups"] for c in grp["cases"]}
    dy = VgDyadic()
    gf, w = [], []
    for _ in range(6):
        gf.append(dy(20))
        w.append(dy(8))
    Jc = [dy(20) for _ in range(24)]
    c, mu = [], []
    for j in range(4):
        c.append(dy(16))
        mu.append(0.0 if j == 1 else abs(dy(16)))
    inp = cases["random dyadic, d = 6, m = 4"]
    assert same_vec(inp["grad_f"], gf) and same_vec(inp["w"], w) and same_vec(inp["c"], c) \
        and same_vec(inp["mu"], mu), "kkt_residual: random dyadic, d = 6, m = 4"
    assert same_mat(inp["jac_c"], [Jc[4 * r:4 * r + 4] for r in range(6)]), "kkt_residual: jac_c d = 6"
    gf = [dy(20) for _ in range(4)]
    Jc = [dy(20) for _ in range(8)]
    c, mu = [], []
    for j in range(2):
        c.append(dy(16))
        mu.append(abs(dy(16)))
    inp = cases["random dyadic, d = 4, m = 2"]
    assert same_vec(inp["grad_f"], gf) and same_vec(inp["c"], c) and same_vec(inp["mu"], mu) \
        and same_mat(inp["jac_c"], [Jc[2 * r:2 * r + 2] for r in range(4)]), "kkt_residual: d = 4, m = 2"
    out.append("kkt_residual.json: the 2 random dyadic cases regenerated bit for bit (stream (2024, 0))")
    with open(os.path.join(vdir, "proxal_lk.json")) as fh:
        J = json.load(fh)
    grp = [g for g in J["groups"] if g["comment"] == "QP (25) from fr_proxal_gen_qp(n = 2, d = 3, mt = 2, seed 4)"]
    assert len(grp) == 1, "proxal_lk: the generated QP group"
    A, b, C, e = proxal_qp(4, 2, 3, 2)
    p = grp[0]["params"]
    assert same_mat(p["A"], [r for Ai in A for r in Ai]) and same_mat(p["b"], b) \
        and same_mat(p["C"], [r for Ci in C for r in Ci]) and same_mat(p["e"], e), "proxal_lk: gen_qp seed 4"
    dy = VgDyadic()
    w, wk = [], []
    for _ in range(3):
        w.append(dy(20))
        wk.append(dy(20))
    mu = [dy(16) for _ in range(6)]
    for cs in grp[0]["cases"]:
        assert same_vec(cs["input"]["w"], w) and same_vec(cs["input"]["wk"], wk) \
            and same_vec(cs["input"]["mu"], mu), ("proxal_lk: random dyadic point", cs["id"])
    out.append("proxal_lk.json: the fr_proxal_gen_qp group (seed 4) and its 2 random dyadic cases regenerated")
    return "\n".join(out)


def main():
    for ctr, key, want in KAT:
        got = philox4x64_10(ctr, key)
        assert tuple(got) == want, (ctr, key, [hex(v) for v in got])
    print("Philox4x64-10: %d Random123 known answers OK" % len(KAT))

    for seed, stream in ((0, 0), (42, 7)):
        g = Stream(seed, stream)
        print("stream (%d,%d) words 0..7:" % (seed, stream),
              " ".join("%016x" % g.next64() for _ in range(8)))
    g = Stream(1, 0)
    w = [g.next64() for _ in range(8)]
    print("stream (1,0) words 4..7:", " ".join("%016x" % v for v in w[4:]))

    g = Stream(42, 1)
    print("below(10) x10, (42,1):", [g.below(10) for _ in range(10)],
          "words", g.used)
    g = Stream(42, 2)
    print("below(2^63+1) x5, (42,2):", [g.below((1 << 63) + 1) for _ in range(5)],
          "words", g.used)
    g = Stream(42, 3)
    print("sample(10,5), (42,3):", g.sample(10, 5), "words", g.used)
    g = Stream(42, 4)
    print("sample(1000,6), (42,4):", g.sample(1000, 6), "words", g.used)
    g = Stream(42, 5)
    ks = [g.u53() for _ in range(4)]
    print("u53 x4, (42,5):", ks, [g17(D(k) / D(2) ** 53) for k in ks])
    g = Stream(42, 6)
    ks = [g.u52_open() for _ in range(4)]
    print("u52_open x4, (42,6):", ks,
          [g17(D(2 * k + 1) / D(2) ** 53) for k in ks])
    g = Stream(42, 8)
    print("laplace(b=1) x6, (42,8):", [g17(laplace(g, D(1))) for _ in range(6)])
    g = Stream(42, 9)
    zs = []
    for _ in range(3):
        zs.extend(gaussian2(g))
    print("gaussian2 x3 pairs, (42,9):", [g17(z) for z in zs])
    d, wstar, ks, sh, b = synth(2026, 4, 3, 2, 5)
    print("synth(seed 2026, m 4, n 3, d in [2,5]): d", d, "wstar", wstar,
          "s", sh, "k rows 0-1", ks[:2], "labels", b)
    g = Stream(11, 1)
    print("selections S^1..S^3, seed 11, m 4, nsel 2:", [g.sample(4, 2) for _ in range(3)])
    A, b, C, e = proxal_qp(5, 1, 4, 2)
    print("proxal_qp(seed 5, n 1, d 4, mt 2): A_1 row 0", [x.hex() for x in A[0][0]],
          "b_1", [x.hex() for x in b[0]], "C_0 row 0", [x.hex() for x in C[0][0]],
          "e_0", [x.hex() for x in e[0]])
    cnt, X, y, grp = proxal_lg("fair", 5, 1, 3, 2)
    print("proxal_lg(fair, seed 5, n 1, d 3, s 2): X", [[x.hex() for x in r] for r in X],
          "y", y, "grp", grp)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--vectors":
        sys.exit(check_vectors(sys.argv[2]))
    main()
