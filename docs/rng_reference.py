#!/usr/bin/env python3
"""Independent reference for docs/RNG.md, written from the text of RNG.md
alone (no code shared with spec/, ref/ or fast/).  Standard library only.

It checks Philox4x64-10 against the published Random123 known answers,
then prints the known-answer tables of docs/RNG.md, which
tests/core/test_rng.c checks number by number.  The real-valued draws are
computed with `decimal` at 60 significant digits (ln from the module, pi by
Machin's formula, cos/sin by Taylor series) and rounded to binary64 by
float(), which is correctly rounded from the decimal string.

    python3 docs/rng_reference.py          # prints the tables
"""
from decimal import Decimal, getcontext

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


if __name__ == "__main__":
    main()
